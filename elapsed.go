package batchlas

import "time"

// Elapsed runs f, which enqueues work on q, waits for that work and returns how long it
// took. On a GPU queue the time is measured on the device, with events recorded on the
// queue's stream before and after f, so the host's cost of enqueuing is not counted unless
// it stalls the device; on the host it is the wall time of f.
func (q *Queue) Elapsed(f func() error) (time.Duration, error) {
	if err := q.usable("Elapsed"); err != nil {
		return 0, err
	}
	if f == nil {
		return 0, argErr("Elapsed", "f", "nil function")
	}
	if t, ok := q.eng.(interface {
		elapsed(func() error) (time.Duration, error)
	}); ok {
		return t.elapsed(f)
	}
	start := time.Now()
	err := f()
	return time.Since(start), err
}
