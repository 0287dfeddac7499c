//go:build !cuda || novendor

package batchlas

// Without cuda, or with novendor, no op has a CUDA vendor part.

func potrfCUDAVendor[T Scalar]() vendorPart[potrfCall[T]] { return vendorPart[potrfCall[T]]{} }
