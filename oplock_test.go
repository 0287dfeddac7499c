package batchlas

import (
	"sync"
	"testing"
	"time"
)

// TestCallLock: the goroutine holding the lock takes it again at once (a family's nested
// calls), and another goroutine waits until it is released.
func TestCallLock(t *testing.T) {
	var l callLock
	release := l.hold()
	l.hold()() // nested: must not block
	var got []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() }
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer l.hold()()
		note("other")
	}()
	time.Sleep(20 * time.Millisecond)
	note("holder")
	release()
	<-done
	if len(got) != 2 || got[0] != "holder" {
		t.Fatalf("order %v: the other goroutine ran inside the holder's call", got)
	}
	if id := goroutineID(); id == 0 {
		t.Fatal("goroutineID found no number in the stack trace")
	}
}
