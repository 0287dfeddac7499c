//go:build cuda

package batchlas

// Flags of trmm_triangular (the TM_* enumerators of kernels/trmm/trmm_triangular.cu).
const (
	tmLower = 1 << iota // A's lower triangle is stored
	tmTrans             // op(A) transposes A
	tmConj              // op(A) conjugates A
	tmUnit              // A's diagonal is taken as ones and not read
)

// trmmStrips is the number of 64-wide strips of B that kernels/trmm/trmm_triangular.cu
// gives a block each: B's columns for side Left, its rows for Right.
func trmmStrips[T Scalar](c *trmmCall[T]) int {
	if c.side == Left {
		return ceilDiv(c.b.cols, tileEdge)
	}
	return ceilDiv(c.b.rows, tileEdge)
}

// trmmTriangularCanRun: a CUDA queue, B's sizes below 2^31 and the strips of every matrix in
// grid x.
func trmmTriangularCanRun[T Scalar](q *Queue, c *trmmCall[T]) bool {
	return fits32(c.b.rows, c.b.cols) && gridFits(trmmStrips(c), c.b.batch)
}

// trmmTriangular launches kernels/trmm/trmm_triangular.cu, the strips of every matrix in
// grid x.
func trmmTriangular[T Scalar](q *Queue, c *trmmCall[T]) error {
	a, b := c.a, c.b
	if b.rows == 0 || b.cols == 0 || b.batch == 0 {
		return nil
	}
	flags := 0
	if c.uplo == Lower {
		flags |= tmLower
	}
	if c.trans != NoTrans {
		flags |= tmTrans
	}
	if c.trans == ConjTrans {
		flags |= tmConj
	}
	if c.diag == Unit {
		flags |= tmUnit
	}
	side := "right_"
	if c.side == Left {
		side = "left_"
	}
	re, im := kernelScalar(c.alpha)
	return cudaOf(q).launch("trmm_triangular", "trmm_triangular_"+side+dtypeName[T](), dim3{trmmStrips(c) * b.batch, 1, 1},
		dim3{tileThreads, 1, 1}, 0, a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd),
		pack32(b.rows, b.cols), uintptr(flags), re, im)
}
