//go:build !cuda

package batchlas

import "errors"

func newCUDAEngine() (engine, error) {
	return nil, errors.New("batchlas: the CUDA backend is not in this build: rebuild with -tags cuda, or use the host backend (batchlas.Host)")
}
