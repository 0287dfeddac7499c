//go:build !host || novendor

package batchlas

// Without the host tag (or with novendor) the host has no vendor family: each op's part is
// the zero family, which vendorFamily skips.

func potrfLAPACK[T Scalar]() family[potrfCall[T]] { return family[potrfCall[T]]{} }
