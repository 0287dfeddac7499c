package batchlas

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sync"
)

// MemInfo returns the free and the total memory of the queue's device in bytes; both are 0
// on the host.
func (q *Queue) MemInfo() (free, total int64, err error) {
	if err := q.usable("MemInfo"); err != nil {
		return 0, 0, err
	}
	if m, ok := q.eng.(interface{ memInfo() (int64, int64, error) }); ok {
		return m.memInfo()
	}
	return 0, 0, nil
}

// fits reports, as an error naming arg of op, a request of bytes that q's device could
// never hold: more than the device's memory on a GPU, more than the machine's memory and
// swap on the host. It is checked before anything is allocated, so that an impossible size
// is an argument error rather than a panic in make or a driver's out-of-memory status
// after the queue has already given something up.
func (q *Queue) fits(op, arg string, bytes int) error {
	limit, where := hostMemory(), "the host's memory and swap"
	if q.dev.IsGPU && q.dev.Memory > 0 {
		limit, where = q.dev.Memory, q.dev.Name+"'s memory"
	}
	if int64(bytes) > limit {
		return argErr(op, arg, "%d bytes requested, more than %s (%d bytes)", bytes, where, limit)
	}
	return nil
}

// goMaxAlloc is the largest allocation the Go runtime attempts on 64-bit platforms (2^48
// bytes of address space); larger requests panic in make.
const goMaxAlloc = 1 << 48

var hostMemoryOnce = sync.OnceValue(readHostMemory)

// hostMemory is the most the host can give one allocation: MemTotal plus SwapTotal of
// /proc/meminfo where the system has it, else the Go runtime's limit.
func hostMemory() int64 { return hostMemoryOnce() }

func readHostMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return goMaxAlloc
	}
	var total int64
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var name string
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "%s %d", &name, &kb); err != nil {
			continue
		}
		if name == "MemTotal:" || name == "SwapTotal:" {
			total += kb << 10
		}
	}
	if total <= 0 {
		return goMaxAlloc
	}
	return min(total, goMaxAlloc)
}
