package batchlas

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// hostBatch runs f over the matrices [0, batch) on all cores. Each goroutine claims chunks
// of the batch in turn, so that uneven matrices (early failures, slow convergence) balance;
// f gets a half-open range and may keep scratch space across the matrices of its range.
func hostBatch(batch int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), batch)
	if workers <= 1 {
		if batch > 0 {
			f(0, batch)
		}
		return
	}
	chunk := max(1, batch/(workers*8))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= batch {
					return
				}
				f(lo, min(lo+chunk, batch))
			}
		}()
	}
	wg.Wait()
}
