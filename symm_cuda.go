//go:build cuda

package batchlas

// Flags of symm_tiled (the SY_* enumerators of kernels/symm/symm_tiled.cu).
const (
	syLower = 1 << iota // A's lower triangle is stored
	syHerm              // hemm: A is Hermitian, its diagonal real
)

// symmTiledCanRun: a CUDA queue, C's sizes below 2^31 and the 64-by-64 tiles of every C in
// grid x (symm and hemm alike).
func symmTiledCanRun[T Scalar](q *Queue, s *symmCall[T]) bool {
	c := s.c
	return fits32(c.rows, c.cols) && gridFits(ceilDiv(c.rows, tileEdge)*ceilDiv(c.cols, tileEdge), c.batch)
}

// symmTiled launches kernels/symm/symm_tiled.cu for symm or, herm, hemm: a block per tile of
// C, the tiles of every matrix in grid x.
func symmTiled[T Scalar](q *Queue, s *symmCall[T], herm bool) error {
	a, b, c := s.a, s.b, s.c
	if c.rows == 0 || c.cols == 0 || c.batch == 0 || s.alpha == 0 && s.beta == 1 {
		return nil
	}
	flags := 0
	if s.uplo == Lower {
		flags |= syLower
	}
	if herm {
		flags |= syHerm
	}
	side := "right_"
	if s.side == Left {
		side = "left_"
	}
	ar, ai := kernelScalar(s.alpha)
	br, bi := kernelScalar(s.beta)
	blocks := ceilDiv(c.rows, tileEdge) * ceilDiv(c.cols, tileEdge) * c.batch
	return cudaOf(q).launch("symm_tiled", "symm_tiled_"+side+dtypeName[T](), dim3{blocks, 1, 1}, dim3{tileThreads, 1, 1}, 0,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd), c.devPtr(), uintptr(c.ld),
		uintptr(c.strd), pack32(c.rows, c.cols), uintptr(flags), ar, ai, br, bi)
}
