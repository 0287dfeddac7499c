//go:build !cuda

package batchlas

func (rankKernel[T]) canRun(*Queue, string) bool { return false }

func (rankKernel[T]) launch(_ *Queue, family string) error {
	return argErr("syrk", "route", "the %s family needs the cuda build", family)
}
