//go:build !rocm || novendor

package batchlas

// Without rocm, or with novendor, no op has a ROCm vendor part: each is the zero family,
// which vendorFamily skips.

func gemmROCm[T Scalar]() family[gemmCall[T]]              { return family[gemmCall[T]]{} }
func gemvROCm[T Scalar]() family[gemvCall[T]]              { return family[gemvCall[T]]{} }
func trsmROCm[T Scalar]() family[trsmCall[T]]              { return family[trsmCall[T]]{} }
func potrfROCm[T Scalar]() family[potrfCall[T]]            { return family[potrfCall[T]]{} }
func getrfROCm[T Scalar]() family[getrfCall[T]]            { return family[getrfCall[T]]{} }
func getrsROCm[T Scalar]() family[getrsCall[T]]            { return family[getrsCall[T]]{} }
func getriROCm[T Scalar]() family[getriCall[T]]            { return family[getriCall[T]]{} }
func geqrfROCm[T Scalar]() family[geqrfCall[T]]            { return family[geqrfCall[T]]{} }
func syevROCm[T Scalar, R Real]() family[syevCall[T, R]]   { return family[syevCall[T, R]]{} }
func gesvdROCm[T Scalar, R Real]() family[gesvdCall[T, R]] { return family[gesvdCall[T, R]]{} }
