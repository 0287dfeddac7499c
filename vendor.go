package batchlas

// vendorFamily joins the vendor-library families of the backends (the system LAPACK on the
// host, cuBLAS/cuSOLVER on CUDA, ...) into the one family spelled "vendor". Each part comes
// from a tag-specific file whose stub complement returns the zero family, which is skipped,
// so that a novendor build has no vendor family that can run.
func vendorFamily[C any](parts ...family[C]) family[C] {
	pick := func(q *Queue, c *C) *family[C] {
		for i := range parts {
			if parts[i].canRun != nil && parts[i].runs(q, c) {
				return &parts[i]
			}
		}
		return nil
	}
	return family[C]{
		name:    "vendor",
		vendor:  true,
		backend: everyBackend,
		canRun:  func(q *Queue, c *C) bool { return pick(q, c) != nil },
		bufferSize: func(q *Queue, c *C) int {
			if p := pick(q, c); p != nil && p.bufferSize != nil {
				return p.bufferSize(q, c)
			}
			return 0
		},
		launch: func(q *Queue, c *C) error { return pick(q, c).launch(q, c) },
		why: func(q *Queue) string {
			for i := range parts {
				if parts[i].why != nil {
					if w := parts[i].why(q); w != "" {
						return w
					}
				}
			}
			return ""
		},
	}
}
