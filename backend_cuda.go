//go:build cuda

package batchlas

import "errors"

func newCUDAEngine() (engine, error) {
	return nil, errors.New("batchlas: the CUDA runtime is not implemented yet")
}
