package batchlas

import (
	"errors"
	"fmt"
)

// arena is a queue's workspace: one buffer that grows to the largest request and is reused
// by every call that was not given a workspace of its own.
type arena struct {
	ptr   uintptr // device buffer
	host  []byte  // host buffer
	bytes int
	held  int // bytes an outer call keeps while its nested calls lease (holdScratch; q.mu guards it)
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
	grown := arena{bytes: bytes, held: a.held}
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

// scratch leases bytes of q's device workspace, past the part that an outer call holds
// (holdScratch); the lease lasts until the next call that leases, which the stream orders
// after this one's work.
func (q *Queue) scratch(bytes int) (uintptr, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	held := q.arena.held
	if held > 0 && held+bytes > q.arena.bytes {
		// Growing would free the buffer whose first held bytes the outer call still uses.
		return 0, fmt.Errorf("batchlas: a nested call needs %d bytes of workspace past the %d held, beyond the %d leased", bytes, held, q.arena.bytes)
	}
	ws, err := q.arena.lease(q, "workspace", held+bytes)
	return ws.ptr + uintptr(held), err
}

// carve leases the queue's workspace once and splits it into 256-byte aligned parts of the
// given sizes: a call whose steps need several buffers must not lease twice, since every
// lease returns the same arena.
func carve(q *Queue, sizes ...int) ([]uintptr, error) {
	ws, err := q.scratch(carveBytes(sizes...))
	if err != nil {
		return nil, err
	}
	parts := make([]uintptr, len(sizes))
	off := 0
	for i, s := range sizes {
		parts[i] = ws + uintptr(off)
		off += alignUp(s, 256)
	}
	return parts, nil
}

// carveBytes is the workspace that carve leases.
func carveBytes(sizes ...int) int {
	total := 0
	for _, s := range sizes {
		total += alignUp(s, 256)
	}
	return total
}

// holdScratch runs f, which calls other ops (a driver routing its steps through the public
// ops), with the first bytes of the workspace kept for the caller: f's calls lease past
// them. The caller leased those bytes plus the most that f's calls need (their
// <Op>BufferSize), so that no lease in f grows the arena.
func holdScratch(q *Queue, bytes int, f func() error) error {
	q.mu.Lock()
	q.arena.held += bytes
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.arena.held -= bytes
		q.mu.Unlock()
	}()
	return f()
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
