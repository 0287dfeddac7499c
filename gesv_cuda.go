//go:build cuda

package batchlas

import "fmt"

// gesvRegsShared: the factors (n*n), the factorization's 2*32 RC multipliers and 4 ints,
// and row_at.
func gesvRegsShared[T Scalar](c *gesvCall[T]) int {
	n := c.a.rows
	return luShared[T](n*n+2*32*((n+31)/32), 1, 4+n)
}

// gesvRegsCanRun: a CUDA queue with 32-lane warps, n at most 64.
func gesvRegsCanRun[T Scalar](q *Queue, c *gesvCall[T]) bool {
	return c.a.rows <= getrfRegsMax && luCTAFits(q, c.a.rows, gesvRegsShared(c))
}

// gesvRegs launches gesv_regs<RC> (kernels/gesv/gesv_regs.cu): one block per matrix, a warp
// per luRegCols columns of A, which factors A in registers and solves for B; the batch in
// grid x.
func gesvRegs[T Scalar](q *Queue, c *gesvCall[T]) error {
	a, b := c.a, c.b
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	n := a.rows
	return cudaOf(q).launch("gesv_regs", fmt.Sprintf("gesv_regs%d_%s", (n+31)/32, dtypeName[T]()),
		dim3{a.batch, 1, 1}, dim3{32 * ((n + luRegCols - 1) / luRegCols), 1, 1}, gesvRegsShared(c),
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), b.devPtr(), uintptr(b.ld),
		uintptr(b.strd), uintptr(n), uintptr(b.cols), uintptr(a.batch), c.info.devPtr())
}

// gesvCTAShared: A with leading dimension n and row_at.
func gesvCTAShared[T Scalar](c *gesvCall[T]) int {
	n := c.a.rows
	return luShared[T](n, n, n)
}

func gesvCTACanRun[T Scalar](q *Queue, c *gesvCall[T]) bool {
	return luCTAFits(q, c.a.rows, gesvCTAShared(c))
}

// gesvCTA launches gesv_cta<C> (kernels/gesv/gesv_cta.cu): one block of luWarps(n) warps per
// matrix, which factors A and solves for B in one pass; the batch in grid x.
func gesvCTA[T Scalar](q *Queue, c *gesvCall[T]) error {
	a, b := c.a, c.b
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	return cudaOf(q).launch("gesv_cta", fmt.Sprintf("gesv_cta%d_%s", luSolveRows(a.rows), dtypeName[T]()),
		dim3{a.batch, 1, 1}, dim3{32 * luWarps(a.rows), 1, 1},
		gesvCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), b.devPtr(), uintptr(b.ld),
		uintptr(b.strd), uintptr(a.rows), uintptr(b.cols), uintptr(a.batch), c.info.devPtr())
}
