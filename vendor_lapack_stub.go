//go:build !host || novendor

package batchlas

// Without the host tag (or with novendor) the host has no vendor family: each op's part is
// the zero family, which vendorFamily skips.

func potrfLAPACK[T Scalar]() family[potrfCall[T]]            { return family[potrfCall[T]]{} }
func symmLAPACK[T Scalar]() family[symmCall[T]]              { return family[symmCall[T]]{} }
func hemmLAPACK[T Scalar]() family[hemmCall[T]]              { return family[hemmCall[T]]{} }
func syrkLAPACK[T Scalar]() family[syrkCall[T]]              { return family[syrkCall[T]]{} }
func herkLAPACK[T Scalar]() family[herkCall[T]]              { return family[herkCall[T]]{} }
func syr2kLAPACK[T Scalar]() family[syr2kCall[T]]            { return family[syr2kCall[T]]{} }
func her2kLAPACK[T Scalar]() family[her2kCall[T]]            { return family[her2kCall[T]]{} }
func getrfLAPACK[T Scalar]() family[getrfCall[T]]            { return family[getrfCall[T]]{} }
func getrsLAPACK[T Scalar]() family[getrsCall[T]]            { return family[getrsCall[T]]{} }
func gesvLAPACK[T Scalar]() family[gesvCall[T]]              { return family[gesvCall[T]]{} }
func getriLAPACK[T Scalar]() family[getriCall[T]]            { return family[getriCall[T]]{} }
func potrsLAPACK[T Scalar]() family[potrsCall[T]]            { return family[potrsCall[T]]{} }
func posvLAPACK[T Scalar]() family[posvCall[T]]              { return family[posvCall[T]]{} }
func gesvdLAPACK[T Scalar, R Real]() family[gesvdCall[T, R]] { return family[gesvdCall[T, R]]{} }
func geqrfLAPACK[T Scalar]() family[geqrfCall[T]]            { return family[geqrfCall[T]]{} }
func orgqrLAPACK[T Scalar]() family[orgqrCall[T]]            { return family[orgqrCall[T]]{} }
func ormqrLAPACK[T Scalar]() family[ormqrCall[T]]            { return family[ormqrCall[T]]{} }
func gelsLAPACK[T Scalar]() family[gelsCall[T]]              { return family[gelsCall[T]]{} }
func gemmLAPACK[T Scalar]() family[gemmCall[T]]              { return family[gemmCall[T]]{} }
func gemvLAPACK[T Scalar]() family[gemvCall[T]]              { return family[gemvCall[T]]{} }
func trsmLAPACK[T Scalar]() family[trsmCall[T]]              { return family[trsmCall[T]]{} }
func trmmLAPACK[T Scalar]() family[trmmCall[T]]              { return family[trmmCall[T]]{} }
func syevLAPACK[T Scalar, R Real]() family[syevCall[T, R]]   { return family[syevCall[T, R]]{} }
