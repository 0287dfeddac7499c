//go:build rocm

package batchlas

import "errors"

// The ROCm backend has no runtime yet: the tag compiles so that every tag combination
// builds, and NewQueue(ROCm) says what is missing.
func newROCmEngine() (engine, error) {
	return nil, errors.New("batchlas: the ROCm backend is not implemented yet")
}
