//go:build cuda

package batchlas

import "fmt"

// The native LU kernels: kernels/getrf/getrf_tiny.cu, getrf_warp.cu, getrf_regs.cu and
// getrf_cta.cu; getrs, gesv and getri reuse the block factorization and solves of
// kernels/getrf/lu.cuh.

// getrfTinyBytes bounds the "tiny" kernels, one thread per square matrix held in registers
// and one kernel per order: n*n*sizeof(T) <= 256 bytes (64 registers), that is n <= 8 for
// float32, 5 for float64 and complex64, 4 for complex128.
const getrfTinyBytes = 256

// getrfTinyThreads is the block of the tiny kernel for order n (tiny_threads of
// getrf_tiny.cu): 128 matrices, or 64 or 32 where they would pass 48 KB of shared memory.
func getrfTinyThreads[T Scalar](n int) int {
	b := n * n * sizeOf[T]()
	switch {
	case b*129 <= 48<<10:
		return 128
	case b*65 <= 48<<10:
		return 64
	}
	return 32
}

// luRowsMax is the most rows a block factorization or solve takes (LU_ROWS_MAX of lu.cuh):
// lane l holds rows l, l+32, ..., at most 8 of them.
const luRowsMax = 256

// getrfTinyCanRun: a CUDA queue, a square a within getrfTinyBytes.
func getrfTinyCanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	n := c.a.rows
	return c.a.cols == n && n*n*sizeOf[T]() <= getrfTinyBytes
}

// getrfTiny launches getrf_tiny<n>: a thread per matrix, getrfTinyThreads matrices per
// block, the batch in grid x.
func getrfTiny[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	threads := getrfTinyThreads[T](a.rows)
	return cudaOf(q).launch("getrf_tiny", getrfTinyKernel[T](a.rows),
		dim3{(a.batch + threads - 1) / threads, 1, 1}, dim3{threads, 1, 1}, 0,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.batch), c.ipiv.devPtr(), c.info.devPtr())
}

// getrfTinyKernel names the tiny kernel of order n.
func getrfTinyKernel[T Scalar](n int) string {
	return fmt.Sprintf("getrf_tiny%d_%s", n, dtypeName[T]())
}

// luRowGroupsKernel names the kernel of family (getrf_warp, getrf_regs, gesv_regs: a kernel
// per count RC of 32-row groups a lane holds) that takes rows rows.
func luRowGroupsKernel[T Scalar](family string, rows int) string {
	return fmt.Sprintf("%s%d_%s", family, (rows+31)/32, dtypeName[T]())
}

// luShared is the dynamic shared memory of a block LU kernel: an lds-by-cols matrix and
// ints int32 words.
func luShared[T Scalar](lds, cols, ints int) int { return lds*cols*sizeOf[T]() + 4*ints }

// luCTAFits: a CUDA queue with 32-lane warps, at most luRowsMax rows, and shared bytes
// within the block's budget.
func luCTAFits(q *Queue, rows, shared int) bool {
	return q.dev.SubGroup == 32 && rows <= luRowsMax && shared <= q.dev.SharedMem
}

// luSolveRows is C of the solve kernels (getrs_cta<C>, gesv_cta<C>, getri_cta<C>): rows per
// lane, the smallest of 1, 2, 4, 8 with n <= 32 C. Each warp solves luSolveValues / C
// columns at a time.
func luSolveRows(n int) int {
	c := 1
	for 32*c < n {
		c *= 2
	}
	return c
}

// luSolveKernel names the solve kernel of family (getrs_cta, gesv_cta, getri_cta) for
// order n.
func luSolveKernel[T Scalar](family string, n int) string {
	return fmt.Sprintf("%s%d_%s", family, luSolveRows(n), dtypeName[T]())
}

// luSolveValues is LU_SOLVE_VALUES of lu.cuh: right-hand-side entries per lane.
const luSolveValues = 8

// luMaxWarps is the most warps of a block of the block factorizations and solves
// (getrf_cta, getrf_regs, gesv_*, getrs_cta, getri_cta): their __launch_bounds__(256).
const luMaxWarps = 8

// luSolveWarps is the block of a solve kernel for cols columns of order-n right-hand sides:
// a warp per luSolveValues/C columns, 1 to luMaxWarps warps.
func luSolveWarps(n, cols int) int {
	per := luSolveValues / luSolveRows(n)
	return min(luMaxWarps, max(1, (cols+per-1)/per))
}

// luWarps is the block of a block factorization of n columns, in warps: one per 16
// columns, 1 to luMaxWarps (the update of step k spreads its columns over the warps).
func luWarps(n int) int { return min(luMaxWarps, max(1, (n+15)/16)) }

// getrfWarpMax bounds the "warp" kernels: m, n <= 32 (getrf_warp1, lane l holding row l),
// and for float32 m, n <= 64 (getrf_warp2, rows l and l + 32: 128 registers of matrix,
// which the other types would double).
func getrfWarpMax[T Scalar]() int {
	if dtypeName[T]() == "f32" {
		return 64
	}
	return 32
}

// getrfWarpMatrices is WARP_MATRICES of getrf_warp.cu: matrices (warps) per block.
const getrfWarpMatrices = 4

// getrfWarpCanRun: a CUDA queue with 32-lane warps, m and n within getrfWarpMax.
func getrfWarpCanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	return q.dev.SubGroup == 32 && max(c.a.rows, c.a.cols) <= getrfWarpMax[T]()
}

// getrfWarp launches getrf_warp<RC> (kernels/getrf/getrf_warp.cu): a warp per matrix,
// getrfWarpMatrices per block, the batch in grid x.
func getrfWarp[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	return cudaOf(q).launch("getrf_warp", luRowGroupsKernel[T]("getrf_warp", max(a.rows, a.cols)),
		dim3{(a.batch + getrfWarpMatrices - 1) / getrfWarpMatrices, 1, 1}, dim3{32 * getrfWarpMatrices, 1, 1}, 0,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(a.batch),
		c.ipiv.devPtr(), c.info.devPtr())
}

// getrfWarpSmemMax bounds the shared-memory warp kernel getrf_warp_smem: m, n <= 64, lane l
// holding panel rows l and l + 32.
const getrfWarpSmemMax = 64

// getrfWarpSmemPanel is SMEM_PANEL of getrf_warp.cu: the columns of a panel, and the rows
// of the U12 copy.
const getrfWarpSmemPanel = 8

// getrfWarpSmemMatrices is the most matrices (warps) of a getrf_warp_smem block: its
// __launch_bounds__(128).
const getrfWarpSmemMatrices = 4

// getrfWarpSmemShape is getrf_warp_smem's layout for an m-by-n matrix of T: the shared
// leading dimension lds, the pitch ldu of the U12 copy (both multiples of 4, for 16-byte
// tile loads), the shared bytes of one matrix, and the matrices (warps) a block holds: up to
// getrfWarpSmemMatrices within 48 KB, so that a block's share of an SM stays small enough to
// pack.
func getrfWarpSmemShape[T Scalar](m, n int) (lds, ldu, bytes, perBlock int) {
	lds, ldu = (m+3)&^3, (n+3)&^3
	bytes = (lds*n + getrfWarpSmemPanel*ldu) * sizeOf[T]()
	return lds, ldu, bytes, min(getrfWarpSmemMatrices, max(1, (48<<10)/max(bytes, 1)))
}

// getrfWarpSmemCanRun: a CUDA queue with 32-lane warps, m and n within getrfWarpSmemMax,
// one matrix's shared memory within the per-block limit, the grid within limits.
func getrfWarpSmemCanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	_, _, bytes, per := getrfWarpSmemShape[T](c.a.rows, c.a.cols)
	return q.dev.SubGroup == 32 && max(c.a.rows, c.a.cols) <= getrfWarpSmemMax &&
		per*bytes <= q.dev.SharedMem && (c.a.batch+per-1)/per <= gridXMax
}

// getrfWarpSmem launches getrf_warp_smem (kernels/getrf/getrf_warp.cu): a warp per matrix in
// shared memory, getrfWarpSmemShape's matrices per block, the batch in grid x.
func getrfWarpSmem[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	lds, ldu, bytes, per := getrfWarpSmemShape[T](a.rows, a.cols)
	return cudaOf(q).launch("getrf_warp", "getrf_warp_smem_"+dtypeName[T](),
		dim3{(a.batch + per - 1) / per, 1, 1}, dim3{32 * per, 1, 1}, per*bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(a.batch),
		c.ipiv.devPtr(), c.info.devPtr(), uintptr(lds), uintptr(ldu))
}

// getrfRegsMax bounds the "regs" kernels getrf_regs<RC>: m and n at most 64 (RC = 2 row
// groups of 32, luRegCols columns per warp and up to 8 warps).
const getrfRegsMax = 64

// luRegCols is LU_REG_COLS of lu.cuh: the columns each warp of getrf_regs holds.
const luRegCols = 8

// luRegsThreads is the block of a "regs" kernel (getrf_regs, gesv_regs) for cols columns: a
// warp per luRegCols of them.
func luRegsThreads(cols int) int { return 32 * ceilDiv(cols, luRegCols) }

// getrfRegsShared: two buffers of 32 RC multipliers, and 4 ints.
func getrfRegsShared[T Scalar](c *getrfCall[T]) int { return luShared[T](2*32, (c.a.rows+31)/32, 4) }

// getrfRegsCanRun: a CUDA queue with 32-lane warps, m and n at most 64.
func getrfRegsCanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	return c.a.rows <= getrfRegsMax && c.a.cols <= getrfRegsMax && luCTAFits(q, c.a.rows, getrfRegsShared(c))
}

// getrfRegs launches getrf_regs<RC> (kernels/getrf/getrf_regs.cu): one block per matrix, a
// warp per luRegCols columns, the batch in grid x.
func getrfRegs[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	return cudaOf(q).launch("getrf_regs", luRowGroupsKernel[T]("getrf_regs", a.rows),
		dim3{a.batch, 1, 1}, dim3{luRegsThreads(a.cols), 1, 1}, getrfRegsShared(c),
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(a.batch),
		c.ipiv.devPtr(), c.info.devPtr())
}

// getrfCTAShared: the m-by-n matrix (leading dimension m) and row_at.
func getrfCTAShared[T Scalar](c *getrfCall[T]) int { return luShared[T](c.a.rows, c.a.cols, c.a.rows) }

func getrfCTACanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	return luCTAFits(q, c.a.rows, getrfCTAShared(c))
}

// getrfCTA launches getrf_cta (kernels/getrf/getrf_cta.cu): one block of luWarps(n) warps
// per matrix, the batch in grid x.
func getrfCTA[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	return cudaOf(q).launch("getrf_cta", "getrf_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{32 * luWarps(a.cols), 1, 1},
		getrfCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(a.batch),
		c.ipiv.devPtr(), c.info.devPtr())
}
