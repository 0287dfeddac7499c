package batchlas

import "fmt"

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

// choose picks the family that runs c: the first one, in the op's order, that can run it.
func choose[C any](q *Queue, op, dtype, key string, fams []family[C], c *C) (*family[C], error) {
	var tried []string
	for i := range fams {
		if fams[i].canRun(q, c) {
			return &fams[i], nil
		}
		tried = append(tried, fams[i].name+": cannot run")
	}
	return nil, &NoRouteError{Op: op, DType: dtype, Backend: q.dev.Backend.String(), Key: key, Tried: tried}
}

// dispatch chooses a family for c and launches it.
func dispatch[C any](q *Queue, op, dtype, key string, fams []family[C], c *C) error {
	f, err := choose(q, op, dtype, key, fams, c)
	if err != nil {
		return err
	}
	return f.launch(q, c)
}

// bufferSize answers the workspace that the family chosen for c needs.
func bufferSize[C any](q *Queue, op, dtype, key string, fams []family[C], c *C) (int, error) {
	f, err := choose(q, op, dtype, key, fams, c)
	if err != nil || f.bufferSize == nil {
		return 0, err
	}
	return f.bufferSize(q, c), nil
}

func onHost(q *Queue) bool { return q.isHost() }

// shapeKey formats the selection key of a call.
func shapeKey(kv ...any) string {
	s := ""
	for i := 0; i+1 < len(kv); i += 2 {
		if s != "" {
			s += " "
		}
		s += fmt.Sprintf("%v=%v", kv[i], kv[i+1])
	}
	return s
}
