//go:build !amd64 || purego

package hostgemm

// Only amd64 has microkernels; elsewhere, and under the purego tag (which tests the
// fallback on amd64), Enabled is false and callers run their portable code.

func kernels64() []*kernel[float64] { return nil }

func kernels32() []*kernel[float32] { return nil }
