//go:build !cuda || novendor

package batchlas

// Without cuda, or with novendor, no op has a CUDA vendor part: each is the zero family,
// which vendorFamily skips.

func potrfCUDAVendor[T Scalar]() family[potrfCall[T]]            { return family[potrfCall[T]]{} }
func getrfCUDAVendor[T Scalar]() family[getrfCall[T]]            { return family[getrfCall[T]]{} }
func getrsCUDAVendor[T Scalar]() family[getrsCall[T]]            { return family[getrsCall[T]]{} }
func gesvCUDAVendor[T Scalar]() family[gesvCall[T]]              { return family[gesvCall[T]]{} }
func getriCUDAVendor[T Scalar]() family[getriCall[T]]            { return family[getriCall[T]]{} }
func potrsCUDAVendor[T Scalar]() family[potrsCall[T]]            { return family[potrsCall[T]]{} }
func posvCUDAVendor[T Scalar]() family[posvCall[T]]              { return family[posvCall[T]]{} }
func symmCUDAVendor[T Scalar]() family[symmCall[T]]              { return family[symmCall[T]]{} }
func hemmCUDAVendor[T Scalar]() family[hemmCall[T]]              { return family[hemmCall[T]]{} }
func syrkCUDAVendor[T Scalar]() family[syrkCall[T]]              { return family[syrkCall[T]]{} }
func herkCUDAVendor[T Scalar]() family[herkCall[T]]              { return family[herkCall[T]]{} }
func syr2kCUDAVendor[T Scalar]() family[syr2kCall[T]]            { return family[syr2kCall[T]]{} }
func her2kCUDAVendor[T Scalar]() family[her2kCall[T]]            { return family[her2kCall[T]]{} }
func gesvdCUDAVendor[T Scalar, R Real]() family[gesvdCall[T, R]] { return family[gesvdCall[T, R]]{} }
func geqrfCUDAVendor[T Scalar]() family[geqrfCall[T]]            { return family[geqrfCall[T]]{} }
func orgqrCUDAVendor[T Scalar]() family[orgqrCall[T]]            { return family[orgqrCall[T]]{} }
func ormqrCUDAVendor[T Scalar]() family[ormqrCall[T]]            { return family[ormqrCall[T]]{} }
func gelsCUDAVendor[T Scalar]() family[gelsCall[T]]              { return family[gelsCall[T]]{} }
func syevCUDAVendor[T Scalar, R Real]() family[syevCall[T, R]]   { return family[syevCall[T, R]]{} }
func gemmCUDAVendor[T Scalar]() family[gemmCall[T]]              { return family[gemmCall[T]]{} }
func gemvCUDAVendor[T Scalar]() family[gemvCall[T]]              { return family[gemvCall[T]]{} }
func trsmCUDAVendor[T Scalar]() family[trsmCall[T]]              { return family[trsmCall[T]]{} }
func trmmCUDAVendor[T Scalar]() family[trmmCall[T]]              { return family[trmmCall[T]]{} }
func spmmCUDAVendor[T Scalar]() family[spmmCall[T]]              { return family[spmmCall[T]]{} }
