package batchlas

import (
	"fmt"
	"strings"
	"sync"
)

// Families and routing.
//
// Each op lists its families in its own file, in last-resort order (most general first is
// not required; the list order is the tie order). Conventions shared by every op:
//
//   - "host": the pure-Go family, runs on host queues.
//   - "vendor": the vendor library of the queue's backend (the system LAPACK on a host queue
//     built with the host tag, cuBLAS/cuSOLVER on a CUDA queue). Its canRun and launch switch
//     on the queue's backend and call <op>LAPACK / <op>CUDAVendor, defined in the vendor_*.go
//     files with exact stub complements, so that novendor builds compile it out.
//   - native GPU families (e.g. "tiny", "cta") call <op>_cuda.go functions, stubbed likewise.

// family is one way to run an operation: a native kernel, a vendor library call or the host
// code. C is the operation's call record, which holds its checked arguments.
type family[C any] struct {
	name   string // spelling used in pins, traces and tables
	vendor bool   // the family calls a vendor library
	// canRun is true exactly when launch accepts the call: correctness, never speed.
	canRun func(q *Queue, c *C) bool
	// bufferSize is the workspace in bytes that launch leases from the queue; nil means none.
	bufferSize func(q *Queue, c *C) int
	launch     func(q *Queue, c *C) error
}

var (
	pinMu sync.Mutex
	pins  = map[string]string{}
)

// PinRoute makes every later call of op (e.g. "potrf") use the family spelled spelling
// ("auto" clears the pin) until restore is called; restore puts back the previous pin. A call
// whose pinned family cannot run it returns an error. Pins are process-wide: tests and
// benchmarks use them to run one family on purpose.
func PinRoute(op, spelling string) (restore func(), err error) {
	pinMu.Lock()
	defer pinMu.Unlock()
	old, had := pins[op]
	if spelling = strings.ToLower(strings.TrimSpace(spelling)); spelling == "auto" {
		delete(pins, op)
	} else {
		pins[op] = spelling
	}
	return func() {
		pinMu.Lock()
		defer pinMu.Unlock()
		if had {
			pins[op] = old
		} else {
			delete(pins, op)
		}
	}, nil
}

func pinOf(op string) string {
	pinMu.Lock()
	defer pinMu.Unlock()
	return pins[op]
}

// choose picks the family that runs c: the pinned one, or else the first one, in the op's
// order, that can run it.
func choose[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) (*family[C], error) {
	if pin := pinOf(op); pin != "" {
		for i := range fams {
			if fams[i].name == pin {
				if !fams[i].canRun(q, c) {
					return nil, argErr(op, "route", "pinned family %q cannot run %s %s on %v", pin, dtype, key, q.dev.Backend)
				}
				return &fams[i], nil
			}
		}
		return nil, argErr(op, "route", "pinned family %q is not a family of %s", pin, op)
	}
	var tried []string
	for i := range fams {
		if fams[i].canRun(q, c) {
			return &fams[i], nil
		}
		tried = append(tried, fams[i].name+": cannot run")
	}
	return nil, &NoRouteError{Op: op, DType: dtype, Backend: q.dev.Backend.String(), Key: key.String(), Tried: tried}
}

// dispatch chooses a family for c and launches it.
func dispatch[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) error {
	f, err := choose(q, op, dtype, key, fams, c)
	if err != nil {
		return err
	}
	return f.launch(q, c)
}

// bufferSize answers the workspace that the family chosen for c needs.
func bufferSize[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) (int, error) {
	f, err := choose(q, op, dtype, key, fams, c)
	if err != nil || f.bufferSize == nil {
		return 0, err
	}
	return f.bufferSize(q, c), nil
}

func onHost(q *Queue) bool { return q.isHost() }

// callKey is a call's selection key: named values (enums as their letters, sizes as ints)
// in the order the op's tables declare them.
type callKey []keyVal

type keyVal struct {
	name string
	val  any
}

// shapeKey builds a key from alternating names and values.
func shapeKey(kv ...any) callKey {
	k := make(callKey, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		k = append(k, keyVal{name: kv[i].(string), val: kv[i+1]})
	}
	return k
}

func (k callKey) String() string {
	s := ""
	for i, kv := range k {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s=%v", kv.name, kv.val)
	}
	return s
}
