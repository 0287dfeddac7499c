//go:build !rocm

package batchlas

func newROCmEngine() (engine, error) { return nil, errNoROCm }
