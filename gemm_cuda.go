//go:build cuda

package batchlas

// Flags of the gemm-like kernels' operands (TF_* of kernels/gemm/tiles.cuh).
const (
	tfATrans = 1 << iota // op(A) transposes A
	tfAConj              // op(A) conjugates A
	tfBTrans             // op(B) transposes B
	tfBConj              // op(B) conjugates B
)

// gemmTransFlags are the flags of op(A) and op(B).
func gemmTransFlags(tA, tB Transpose) int {
	f := 0
	if tA != NoTrans {
		f |= tfATrans
	}
	if tA == ConjTrans {
		f |= tfAConj
	}
	if tB != NoTrans {
		f |= tfBTrans
	}
	if tB == ConjTrans {
		f |= tfBConj
	}
	return f
}

// tileEdge is the side of the tiles.cuh engine's tiles in the gemm, symm and rank-k
// "triangular" kernels (16 threads by 4 elements).
const tileEdge = 64

// tileThreads is the block of the tiles.cuh kernels (TILE_THREADS).
const tileThreads = 256

// pack32 packs two sizes below 2^32 into one kernel parameter, lo in the low half.
func pack32(lo, hi int) uintptr { return uintptr(lo) | uintptr(hi)<<32 }

// fits32 says whether every size is below 2^31, the kernels' packed sizes.
func fits32(sizes ...int) bool {
	for _, s := range sizes {
		if s >= 1<<31 {
			return false
		}
	}
	return true
}

// ceilDiv is the number of blocks of size d that cover n.
func ceilDiv(n, d int) int { return (n + d - 1) / d }

// gridFits says whether blocks per matrix times batch blocks fit grid x.
func gridFits(perMatrix, batch int) bool { return batch == 0 || perMatrix <= gridXMax/batch }

// gemmNothing reports a call with nothing to do: an empty C, or C = C as BLAS's quick
// return has it ((alpha = 0 or k = 0) and beta = 1).
func gemmNothing[T Scalar](g *gemmCall[T]) bool {
	m, n, k := g.dims()
	return m == 0 || n == 0 || g.c.batch == 0 || (g.alpha == 0 || k == 0) && g.beta == 1
}

// gemmArgs are the kernel parameters the gemm kernels share: A, B and C, then mn = (m, n).
func gemmArgs[T Scalar](g *gemmCall[T]) []uintptr {
	m, n, _ := g.dims()
	a, b, c := g.a, g.b, g.c
	return []uintptr{a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd),
		c.devPtr(), uintptr(c.ld), uintptr(c.strd), pack32(m, n)}
}

// gemmTiledCanRun: a CUDA queue, sizes below 2^31 and a grid of tiles times batch blocks.
func gemmTiledCanRun[T Scalar](q *Queue, g *gemmCall[T]) bool {
	m, n, k := g.dims()
	return fits32(m, n, k) && gridFits(ceilDiv(m, tileEdge)*ceilDiv(n, tileEdge), g.c.batch)
}

// gemmTiled launches kernels/gemm/gemm_tiled.cu: a block per 64-by-64 tile of C, the tiles
// of every matrix in grid x.
func gemmTiled[T Scalar](q *Queue, g *gemmCall[T]) error {
	if gemmNothing(g) {
		return nil
	}
	m, n, k := g.dims()
	ar, ai := kernelScalar(g.alpha)
	br, bi := kernelScalar(g.beta)
	args := append(gemmArgs(g), pack32(k, gemmTransFlags(g.transA, g.transB)), ar, ai, br, bi)
	blocks := ceilDiv(m, tileEdge) * ceilDiv(n, tileEdge) * g.c.batch
	return cudaOf(q).launch("gemm_tiled", "gemm_tiled_"+dtypeName[T](), dim3{blocks, 1, 1}, dim3{tileThreads, 1, 1}, 0, args...)
}

// gemmSmallShape is the launch of kernels/gemm/gemm_small.cu: a team of threads per matrix
// (the power of two at or above m*n, at most tileThreads), as many matrices a block as fill
// tileThreads threads and the shared memory (op(A) and op(B) of each) and the batch needs.
// ok is false when one matrix's operands do not fit the shared memory.
func gemmSmallShape(q *Queue, m, n, k, batch, size int) (team, mats, shared int, ok bool) {
	per := (m*k + k*n) * size
	if per > q.dev.SharedMem {
		return 0, 0, 0, false
	}
	team = 1
	for team < m*n && team < tileThreads {
		team *= 2
	}
	mats = max(1, min(tileThreads/team, batch))
	if per > 0 {
		mats = min(mats, q.dev.SharedMem/per)
	}
	return team, mats, mats * per, true
}

// gemmSmallCanRun: a CUDA queue, sizes below 2^31 and op(A) and op(B) of one matrix in the
// shared memory.
func gemmSmallCanRun[T Scalar](q *Queue, g *gemmCall[T]) bool {
	m, n, k := g.dims()
	if !fits32(m, n, k) {
		return false
	}
	_, _, _, ok := gemmSmallShape(q, m, n, k, g.c.batch, sizeOf[T]())
	return ok
}

// gemmSmall launches kernels/gemm/gemm_small.cu, the batch in grid x.
func gemmSmall[T Scalar](q *Queue, g *gemmCall[T]) error {
	if gemmNothing(g) {
		return nil
	}
	m, n, k := g.dims()
	team, mats, shared, ok := gemmSmallShape(q, m, n, k, g.c.batch, sizeOf[T]())
	if !ok {
		return argErr("gemm", "route", "small: op(A) and op(B) of %dx%dx%d do not fit the shared memory", m, n, k)
	}
	ar, ai := kernelScalar(g.alpha)
	br, bi := kernelScalar(g.beta)
	args := append(gemmArgs(g), pack32(k, gemmTransFlags(g.transA, g.transB)|mats<<8), uintptr(g.c.batch), ar, ai, br, bi)
	return cudaOf(q).launch("gemm_small", "gemm_small_"+dtypeName[T](), dim3{ceilDiv(g.c.batch, mats), 1, 1},
		dim3{team * mats, 1, 1}, shared, args...)
}
