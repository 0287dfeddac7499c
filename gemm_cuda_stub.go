//go:build !cuda

package batchlas

func gemmSmallCanRun[T Scalar](*Queue, *gemmCall[T]) bool { return false }

func gemmSmall[T Scalar](*Queue, *gemmCall[T]) error {
	return argErr("gemm", "route", "the small family needs the cuda build")
}

func gemmTiledCanRun[T Scalar](*Queue, *gemmCall[T]) bool { return false }

func gemmTiled[T Scalar](*Queue, *gemmCall[T]) error {
	return argErr("gemm", "route", "the tiled family needs the cuda build")
}
