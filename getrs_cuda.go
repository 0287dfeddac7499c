//go:build cuda

package batchlas

// The op(A) argument of getrs_cta (LU_NOTRANS, LU_TRANS and LU_CONJTRANS of
// kernels/getrf/lu.cuh).
const (
	luNoTrans   = 0
	luTrans     = 1
	luConjTrans = 2
)

// getrsCTAShared: A with leading dimension n|1, the permutation and row_at.
func getrsCTAShared[T Scalar](c *getrsCall[T]) int {
	n := c.a.rows
	return luShared[T](n|1, n, 2*n)
}

func getrsCTACanRun[T Scalar](q *Queue, c *getrsCall[T]) bool {
	return luCTAFits(q, c.a.rows, getrsCTAShared(c))
}

// getrsCTA launches getrs_cta<C> (kernels/getrs/getrs_cta.cu): one block per matrix, each
// warp solving luSolveValues/C columns of B at a time, up to 8 warps; the batch in grid x.
func getrsCTA[T Scalar](q *Queue, c *getrsCall[T]) error {
	a, b := c.a, c.b
	if a.batch == 0 || a.rows == 0 || b.cols == 0 {
		return nil
	}
	trans := uintptr(luNoTrans)
	switch c.trans {
	case Trans:
		trans = luTrans
	case ConjTrans:
		trans = luConjTrans
	}
	n := a.rows
	return cudaOf(q).launch("getrs_cta", luSolveKernel[T]("getrs_cta", n),
		dim3{a.batch, 1, 1}, dim3{32 * luSolveWarps(n, b.cols), 1, 1},
		getrsCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.ipiv.devPtr(), b.devPtr(), uintptr(b.ld),
		uintptr(b.strd), uintptr(a.rows), uintptr(b.cols), uintptr(a.batch), trans)
}
