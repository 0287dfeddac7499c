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
func trmmROCm[T Scalar]() family[trmmCall[T]]              { return family[trmmCall[T]]{} }
func symmROCm[T Scalar]() family[symmCall[T]]              { return family[symmCall[T]]{} }
func hemmROCm[T Scalar]() family[hemmCall[T]]              { return family[hemmCall[T]]{} }
func syrkROCm[T Scalar]() family[syrkCall[T]]              { return family[syrkCall[T]]{} }
func herkROCm[T Scalar]() family[herkCall[T]]              { return family[herkCall[T]]{} }
func syr2kROCm[T Scalar]() family[syr2kCall[T]]            { return family[syr2kCall[T]]{} }
func her2kROCm[T Scalar]() family[her2kCall[T]]            { return family[her2kCall[T]]{} }
func potrsROCm[T Scalar]() family[potrsCall[T]]            { return family[potrsCall[T]]{} }
func posvROCm[T Scalar]() family[posvCall[T]]              { return family[posvCall[T]]{} }
func gesvROCm[T Scalar]() family[gesvCall[T]]              { return family[gesvCall[T]]{} }
func orgqrROCm[T Scalar]() family[orgqrCall[T]]            { return family[orgqrCall[T]]{} }
func ormqrROCm[T Scalar]() family[ormqrCall[T]]            { return family[ormqrCall[T]]{} }
func gelsROCm[T Scalar]() family[gelsCall[T]]              { return family[gelsCall[T]]{} }
