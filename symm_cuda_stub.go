//go:build !cuda

package batchlas

func symmTiledCanRun[T Scalar](*Queue, *symmCall[T]) bool { return false }

func symmTiled[T Scalar](*Queue, *symmCall[T], bool) error {
	return argErr("symm", "route", "the tiled family needs the cuda build")
}
