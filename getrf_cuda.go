//go:build cuda

package batchlas

import "fmt"

// The native LU kernels: kernels/getrf/getrf_tiny.cu and getrf_cta.cu; getrs, gesv and
// getri reuse the block factorization and solves of kernels/getrf/lu.cuh.

// getrfTinyMax is the largest order the "tiny" kernels factor: one thread per square
// matrix, the matrix in registers, one kernel per order.
const getrfTinyMax = 4

// luTinyThreads is the block of the tiny kernels (TINY_THREADS): matrices per block.
const luTinyThreads = 128

// luRowsMax is the most rows a block factorization or solve takes (LU_ROWS_MAX of lu.cuh):
// lane l holds rows l, l+32, ..., at most 8 of them.
const luRowsMax = 256

// getrfTinyCanRun: a CUDA queue, a square a of order at most getrfTinyMax.
func getrfTinyCanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	return q.dev.Backend == CUDA && c.a.rows == c.a.cols && c.a.rows <= getrfTinyMax
}

// getrfTiny launches getrf_tiny<n>: a thread per matrix, luTinyThreads matrices per block,
// the batch in grid x.
func getrfTiny[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 {
		return cudaOf(q).zero32(c.info.devPtr(), a.batch)
	}
	return cudaOf(q).launch("getrf_tiny", fmt.Sprintf("getrf_tiny%d_%s", a.rows, dtypeName[T]()),
		dim3{(a.batch + luTinyThreads - 1) / luTinyThreads, 1, 1}, dim3{luTinyThreads, 1, 1}, 0,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.batch), c.ipiv.devPtr(), c.info.devPtr())
}

// luShared is the dynamic shared memory of a block LU kernel: an lds-by-cols matrix and
// ints int32 words.
func luShared[T Scalar](lds, cols, ints int) int { return lds*cols*sizeOf[T]() + 4*ints }

// luCTAFits: a CUDA queue with 32-lane warps, at most luRowsMax rows, and shared bytes
// within the block's budget.
func luCTAFits(q *Queue, rows, shared int) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && rows <= luRowsMax && shared <= q.dev.SharedMem
}

// luWarps is the block of a block factorization of n columns, in warps: one per 16
// columns, 1 to 8 (the update of step k spreads its columns over the warps).
func luWarps(n int) int { return min(8, max(1, (n+15)/16)) }

// getrfRegsMax bounds the register-resident kernel getrf_cta_regs<RC>: m and n at most 64
// (RC = 2 row groups of 32, LU_REG_COLS = 8 columns per warp and up to 8 warps).
const getrfRegsMax = 64

// luRegCols is LU_REG_COLS of lu.cuh: the columns each warp of getrf_cta_regs holds.
const luRegCols = 8

// getrfCTARegs reports whether the cta launch runs the register-resident kernel.
func getrfCTARegs[T Scalar](c *getrfCall[T]) bool {
	return c.a.rows <= getrfRegsMax && c.a.cols <= getrfRegsMax
}

// getrfCTAShared is the shared memory of the cta launch: for the register-resident kernel,
// two buffers of 32 RC multipliers and 4 ints; else the m-by-n matrix (leading dimension m)
// and row_at.
func getrfCTAShared[T Scalar](c *getrfCall[T]) int {
	if getrfCTARegs(c) {
		return luShared[T](2*32, (c.a.rows+31)/32, 4)
	}
	return luShared[T](c.a.rows, c.a.cols, c.a.rows)
}

func getrfCTACanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	return luCTAFits(q, c.a.rows, getrfCTAShared(c))
}

// getrfCTA launches getrf_cta_regs<RC> (a warp per luRegCols columns) or getrf_cta
// (luWarps(n) warps) of kernels/getrf/getrf_cta.cu: one block per matrix, the batch in grid x.
func getrfCTA[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if a.batch == 0 {
		return nil
	}
	if a.rows == 0 || a.cols == 0 {
		return cudaOf(q).zero32(c.info.devPtr(), a.batch)
	}
	fn, warps := "getrf_cta_"+dtypeName[T](), luWarps(a.cols)
	if getrfCTARegs(c) {
		fn, warps = fmt.Sprintf("getrf_cta_regs%d_%s", (a.rows+31)/32, dtypeName[T]()), (a.cols+luRegCols-1)/luRegCols
	}
	return cudaOf(q).launch("getrf_cta", fn, dim3{a.batch, 1, 1}, dim3{32 * warps, 1, 1},
		getrfCTAShared(c), a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), uintptr(a.batch),
		c.ipiv.devPtr(), c.info.devPtr())
}
