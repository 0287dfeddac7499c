package batchlas

import "errors"

// arena is a queue's workspace: one buffer that grows to the largest request and is reused
// by every call that was not given a workspace of its own.
type arena struct {
	ptr   uintptr // device buffer
	host  []byte  // host buffer
	bytes int
}

// workspace is a leased span of the arena.
type workspace struct {
	ptr  uintptr
	host []byte
}

// lease returns at least bytes of workspace; the caller holds q.mu or owns q exclusively.
// Growing takes the new buffer before it gives up the old one, so that a size q cannot hold
// leaves the arena as it was; freeing the old buffer waits for the queue first, since work in
// flight may still use it.
func (a *arena) lease(q *Queue, op string, bytes int) (workspace, error) {
	if bytes <= a.bytes {
		return workspace{ptr: a.ptr, host: a.host}, nil
	}
	if err := q.fits(op, "bytes", bytes); err != nil {
		return workspace{}, err
	}
	grown := arena{bytes: bytes}
	if d, ok := q.eng.(devEngine); ok {
		p, err := d.alloc(bytes)
		if err != nil {
			return workspace{}, err
		}
		grown.ptr = p
	} else {
		grown.host = make([]byte, bytes)
	}
	if err := a.release(q); err != nil {
		return workspace{}, errors.Join(err, grown.release(q))
	}
	*a = grown
	return workspace{ptr: a.ptr, host: a.host}, nil
}

func (a *arena) release(q *Queue) error {
	defer func() { *a = arena{} }()
	if d, ok := q.eng.(devEngine); ok && a.ptr != 0 {
		if err := q.eng.wait(); err != nil {
			return err
		}
		return d.free(a.ptr)
	}
	return nil
}

// Reserve grows the queue's workspace to at least bytes, so that later calls whose
// <Op>BufferSize is at most bytes allocate nothing.
func (q *Queue) Reserve(bytes int) error {
	if err := q.usable("Reserve"); err != nil {
		return err
	}
	if bytes < 0 {
		return argErr("Reserve", "bytes", "negative size %d", bytes)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	// Again under q.mu: Close may have released the arena since the first check.
	if err := q.usable("Reserve"); err != nil {
		return err
	}
	_, err := q.arena.lease(q, "Reserve", bytes)
	return err
}

// WorkspaceSize is the current size of the queue's workspace in bytes; 0 for a nil queue.
func (q *Queue) WorkspaceSize() int {
	if q == nil {
		return 0
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.arena.bytes
}
