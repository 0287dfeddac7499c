//go:build !cuda || novendor

package batchlas

// Without cuda, or with novendor, no op has a CUDA vendor part: each is the zero family,
// which vendorFamily skips.

func potrfCUDAVendor[T Scalar]() family[potrfCall[T]] { return family[potrfCall[T]]{} }
