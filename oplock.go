package batchlas

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// callLock makes each call on a device queue whole with respect to the calls of other
// goroutines: a call's steps (a copy into the queue's workspace, the solver on it, the copy
// back) are launched one by one, and the workspace is the queue's one arena, so two
// goroutines' steps interleaved on the stream would run one call's solver on the other's
// data. A family whose steps are other ops' calls takes the lock again from the same
// goroutine, which passes.
type callLock struct {
	mu    sync.Mutex
	owner atomic.Uint64 // the goroutine holding mu, 0 when none
}

// hold takes the lock for the calling goroutine, or passes when it holds it already, and
// returns what releases it.
func (l *callLock) hold() (release func()) {
	g := goroutineID()
	if l.owner.Load() == g {
		return func() {}
	}
	l.mu.Lock()
	l.owner.Store(g)
	return func() {
		l.owner.Store(0)
		l.mu.Unlock()
	}
}

// goroutineID is the calling goroutine's number, as the first line of its stack trace gives
// it ("goroutine 7 [running]:"). Go gives goroutines no other identity; the lock needs one to
// let a call's nested calls through.
func goroutineID() uint64 {
	var buf [64]byte
	s := buf[:runtime.Stack(buf[:], false)]
	s = bytes.TrimPrefix(s, []byte("goroutine "))
	if i := bytes.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	id, _ := strconv.ParseUint(string(s), 10, 64)
	return id
}
