package batchlas

import (
	"math"
	"unsafe"
)

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

// fitsInt reports whether every size fits the vendor libraries' 32-bit int arguments.
func fitsInt(v ...int) bool {
	for _, x := range v {
		if x > math.MaxInt32 {
			return false
		}
	}
	return true
}

// scalarBuf holds the host scalars (alpha, beta) of one library call, each in a 16-byte
// aligned slot: some cuBLAS paths read complex scalars with 16-byte loads. Keep it alive
// until the call returns.
type scalarBuf []complex128

func scalars[T Scalar](xs ...T) scalarBuf {
	s := make(scalarBuf, len(xs))
	for i, x := range xs {
		*(*T)(unsafe.Pointer(&s[i])) = x
	}
	return s
}

// realScalars holds real scalars (herk's and her2k's alpha or beta) of T's real type.
func realScalars[T Scalar](xs ...float64) scalarBuf {
	s := make(scalarBuf, len(xs))
	for i, x := range xs {
		if isSingle[T]() {
			*(*float32)(unsafe.Pointer(&s[i])) = float32(x)
		} else {
			*(*float64)(unsafe.Pointer(&s[i])) = x
		}
	}
	return s
}

func (s scalarBuf) ptr(i int) uintptr { return uintptr(unsafe.Pointer(&s[i])) }
