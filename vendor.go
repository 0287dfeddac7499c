package batchlas

// vendorPart is what one backend's vendor library offers an op: the three functions of a
// family. A zero part (the op has no vendor call on that backend, or the build left the
// vendor libraries out) refuses every call.
type vendorPart[C any] struct {
	canRun     func(q *Queue, c *C) bool
	bufferSize func(q *Queue, c *C) int
	launch     func(q *Queue, c *C) error
}

// vendorFamily is an op's "vendor" family: it switches on the queue's backend and runs that
// backend's part.
func vendorFamily[C any](cuda vendorPart[C]) family[C] {
	part := func(q *Queue) *vendorPart[C] {
		if q.dev.Backend == CUDA && cuda.launch != nil {
			return &cuda
		}
		return nil
	}
	return family[C]{
		name:   "vendor",
		vendor: true,
		canRun: func(q *Queue, c *C) bool {
			p := part(q)
			return p != nil && (p.canRun == nil || p.canRun(q, c))
		},
		bufferSize: func(q *Queue, c *C) int {
			if p := part(q); p != nil && p.bufferSize != nil {
				return p.bufferSize(q, c)
			}
			return 0
		},
		launch: func(q *Queue, c *C) error {
			if p := part(q); p != nil {
				return p.launch(q, c)
			}
			return argErr("vendor", "q", "no vendor library for %v in this build", q.dev.Backend)
		},
	}
}
