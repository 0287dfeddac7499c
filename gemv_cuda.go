//go:build cuda

package batchlas

// gemvThreads is the block of kernels/gemv/gemv_direct.cu (GEMV_THREADS): as many elements
// of y under NoTrans, a warp's worth fewer (one a warp) otherwise.
const gemvThreads = 128

// Flags of gemv_direct (the GV_* enumerators of kernels/gemv/gemv_direct.cu).
const (
	gvTrans = 1 << iota // op(A) transposes A
	gvConj              // op(A) conjugates A
)

// gemvPerBlock is the number of elements of y a block of gemv_direct computes.
func gemvPerBlock(trans Transpose) int {
	if trans == NoTrans {
		return gemvThreads
	}
	return gemvThreads / 32
}

// gemvDirectCanRun: a CUDA queue, A's sizes below 2^31 and the blocks in grid x.
func gemvDirectCanRun[T Scalar](q *Queue, g *gemvCall[T]) bool {
	_, ny := g.lens()
	return fits32(g.a.rows, g.a.cols) && gridFits(ceilDiv(ny, gemvPerBlock(g.trans)), g.a.batch)
}

// gemvDirect launches kernels/gemv/gemv_direct.cu, the parts of every y in grid x.
func gemvDirect[T Scalar](q *Queue, g *gemvCall[T]) error {
	nx, ny := g.lens()
	if ny == 0 || g.a.batch == 0 || (g.alpha == 0 || nx == 0) && g.beta == 1 {
		return nil
	}
	flags := 0
	if g.trans != NoTrans {
		flags |= gvTrans
	}
	if g.trans == ConjTrans {
		flags |= gvConj
	}
	ar, ai := kernelScalar(g.alpha)
	br, bi := kernelScalar(g.beta)
	a := g.a
	return cudaOf(q).launch("gemv_direct", "gemv_direct_"+dtypeName[T](), dim3{ceilDiv(ny, gemvPerBlock(g.trans)) * a.batch, 1, 1},
		dim3{gemvThreads, 1, 1}, 0, a.devPtr(), uintptr(a.ld), uintptr(a.strd), g.x.devPtr(), g.y.devPtr(),
		pack32(a.rows, a.cols), uintptr(flags), ar, ai, br, bi)
}
