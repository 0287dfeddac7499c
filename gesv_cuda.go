//go:build cuda

package batchlas

// gesvRegsShared: the factors (n*n), the factorization's 2*32 RC multipliers and 4 ints,
// and row_at.
func gesvRegsShared[T Scalar](c *gesvCall[T]) int {
	n := c.a.rows
	return luShared[T](n*n+2*32*((n+31)/32), 1, 4+n)
}

// gesvRegsCanRun: a CUDA queue with 32-lane warps, n at most 64, and getrf's routing on
// getrf "regs", whose factorization gesv_regs runs.
func gesvRegsCanRun[T Scalar](q *Queue, c *gesvCall[T]) bool {
	return c.a.rows <= getrfRegsMax && luCTAFits(q, c.a.rows, gesvRegsShared(c)) && gesvFactorName(q, c) == "regs"
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
	return cudaOf(q).launch("gesv_regs", luRowGroupsKernel[T]("gesv_regs", n),
		dim3{a.batch, 1, 1}, dim3{luRegsThreads(n), 1, 1}, gesvRegsShared(c),
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), b.devPtr(), uintptr(b.ld),
		uintptr(b.strd), uintptr(n), uintptr(b.cols), uintptr(a.batch), c.info.devPtr())
}

// gesvCTAShared: A with leading dimension n and row_at.
func gesvCTAShared[T Scalar](c *gesvCall[T]) int {
	n := c.a.rows
	return luShared[T](n, n, n)
}

// gesvCTACanRun: gesv_cta fits when getrf's routing is on getrf "cta"; otherwise getrs
// "cta" must fit, and getrf's routing must have a family.
func gesvCTACanRun[T Scalar](q *Queue, c *gesvCall[T]) bool {
	switch gesvFactorName(q, c) {
	case "cta":
		return luCTAFits(q, c.a.rows, gesvCTAShared(c))
	case "":
		return false
	}
	return getrsCTACanRun(q, c.getrs())
}

// gesvCTABufferSize: the fused kernel needs none; otherwise the factorization's workspace,
// or the copy of B that is put back where U is singular.
func gesvCTABufferSize[T Scalar](q *Queue, c *gesvCall[T]) int {
	f, gc, err := gesvFactor(q, c, false)
	if err != nil || f.name == "cta" {
		return 0
	}
	n := packedBytes(c.b)
	if f.bufferSize != nil {
		n = max(n, f.bufferSize(q, gc))
	}
	return n
}

// gesvCTA launches gesv_cta<C> (kernels/gesv/gesv_cta.cu) when getrf's routing is on getrf
// "cta": one block of luWarps(n) warps per matrix, which factors A and solves for B in one
// pass; the batch in grid x. Otherwise it factors with that routing's family, solves with
// getrs "cta", and puts back B_b where U_b is singular.
func gesvCTA[T Scalar](q *Queue, c *gesvCall[T]) error {
	f, gc, err := gesvFactor(q, c, true)
	if err != nil {
		return err
	}
	if f.name != "cta" {
		if err := f.launch(q, gc); err != nil || c.b.rows == 0 || c.b.batch == 0 {
			return err
		}
		save, err := q.scratch(packedBytes(c.b))
		if err != nil {
			return err
		}
		return solveKeepingFailed(q, c.b, save, c.info.devPtr(), func() error { return getrsCTA(q, c.getrs()) })
	}
	a, b := c.a, c.b
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	return cudaOf(q).launch("gesv_cta", luSolveKernel[T]("gesv_cta", a.rows),
		dim3{a.batch, 1, 1}, dim3{32 * luWarps(a.rows), 1, 1},
		gesvCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), b.devPtr(), uintptr(b.ld),
		uintptr(b.strd), uintptr(a.rows), uintptr(b.cols), uintptr(a.batch), c.info.devPtr())
}

// getrs is the solve of c as a getrs call.
func (c *gesvCall[T]) getrs() *getrsCall[T] {
	return &getrsCall[T]{trans: NoTrans, a: c.a, ipiv: c.ipiv, b: c.b}
}
