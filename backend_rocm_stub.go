//go:build !rocm

package batchlas

import "errors"

func newROCmEngine() (engine, error) {
	return nil, errors.New("batchlas: the ROCm backend is not in this build: rebuild with -tags rocm")
}
