//go:build cuda

package batchlas

import "fmt"

// The native CUDA potrf families (kernels/potrf/potrf_tiny.cu, potrf_warp.cu and
// potrf_cta.cu). Each canRun is exactly what its launch accepts: a CUDA queue with 32-lane
// warps, the order in range, and the dynamic shared memory the launch asks for within the
// device's per-block limit.

// potrfTinyMax is the largest order of the "tiny" family: a thread per matrix up to n = 4,
// then 8, 16, 32 or 64 lanes per matrix, lane i holding row i in registers (float: above 32,
// a warp per matrix, lane i holding rows i and i + 32). complex128 stops at 32: a row of 64
// would take 256 registers a lane.
func potrfTinyMax[T Scalar]() int {
	if sizeOf[T]() == 16 {
		return 32
	}
	return 64
}

// Blocks of the tiny kernels, as in potrf_tiny.cu: TINY_THREAD_WARPS warps of one matrix a
// thread (n <= 4), TINY_WARP_WARPS warps of a matrix per 8, 16 or 32 lanes (4 < n <= 32) or
// of a matrix each (float above 32); else one matrix per block of 64 threads.
const (
	potrfTinyThreadWarps = 2
	potrfTinyWarpWarps   = 4
)

// potrfTinyShape is the kernel, block, matrices per block and dynamic shared bytes of the
// tiny family at order n (1 <= n <= potrfTinyMax). A group kernel's unit, as tiny_unit in
// potrf_tiny.cu, is a warp (32/group matrices, TINY_WARP_WARPS units a block) or, for a group
// of 64, the block itself; each of a unit's threads has a tile row of group+1 elements. The
// pair kernel, float above 32, runs TINY_WARP_WARPS warps of a matrix each, with a 64-by-65
// tile a warp.
func potrfTinyShape[T Scalar](n int) (kernel string, threads, perBlock, shared int) {
	if n <= 4 {
		// A warp stages its 32 matrices at pitch n*n rounded up to odd.
		return "t4", 32 * potrfTinyThreadWarps, 32 * potrfTinyThreadWarps, potrfTinyThreadWarps * 32 * (n*n | 1) * sizeOf[T]()
	}
	group, units := groupLanes(n), potrfTinyWarpWarps
	if group > 32 {
		if dtypeName[T]() == "f32" {
			return "p64", 32 * units, units, units * group * (group + 1) * sizeOf[T]()
		}
		units = 1
	}
	threads = units * max(32, group)
	return fmt.Sprintf("w%d", group), threads, threads / group, threads * (group + 1) * sizeOf[T]()
}

// potrfTinyKernel names the tiny kernel for order n and triangle uplo: a group kernel has
// one per triangle (potrf_tiny_w32l_f32, potrf_tiny_w32u_f32).
func potrfTinyKernel[T Scalar](n int, uplo Uplo) string {
	kernel, _, _, _ := potrfTinyShape[T](n)
	switch {
	case kernel == "t4": // one kernel, the triangle an argument
	case uplo == Lower:
		kernel += "l"
	default:
		kernel += "u"
	}
	return "potrf_tiny_" + kernel + "_" + dtypeName[T]()
}

// potrfTinyCanRun: a CUDA queue with 32-lane warps, n <= potrfTinyMax, ld within 32 bits
// (the group kernels form their addresses from a 32-bit ld), the shared memory and the
// grid within limits.
func potrfTinyCanRun[T Scalar](q *Queue, c *potrfCall[T]) bool {
	n := c.a.rows
	if q.dev.SubGroup != 32 || n > potrfTinyMax[T]() || !groupLdFits(c.a.ld) {
		return false
	}
	if n == 0 {
		return true
	}
	_, _, perBlock, shared := potrfTinyShape[T](n)
	return shared <= q.dev.SharedMem && (c.a.batch+perBlock-1)/perBlock <= gridXMax
}

// potrfTiny launches the tiny kernel for n, the batch in grid x.
func potrfTiny[T Scalar](q *Queue, c *potrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	kernel, threads, perBlock, shared := potrfTinyShape[T](a.rows)
	args := []uintptr{a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.info.devPtr()}
	if kernel == "t4" {
		args = append(args, potrfLowerArg(c.uplo))
	}
	return cudaOf(q).launch("potrf_tiny", potrfTinyKernel[T](a.rows, c.uplo),
		dim3{(a.batch + perBlock - 1) / perBlock, 1, 1}, dim3{threads, 1, 1}, shared, args...)
}

// potrfWarpMax is the largest order of the "warp" family: a lane holds two rows of a panel.
const potrfWarpMax = 64

// potrfWarpWarps is WARP_WARPS of potrf_warp.cu: the warps, one matrix each, of a block.
const potrfWarpWarps = 4

// potrfWarpShape is the warp family's kernel (rows of a panel a lane holds) and dynamic
// shared bytes at order n: a packed tile (potrfTileBytes) per warp.
func potrfWarpShape[T Scalar](n int) (kernel string, shared int) {
	kernel = "potrf_warp_r1_"
	if n > 32 {
		kernel = "potrf_warp_r2_"
	}
	return kernel + dtypeName[T](), potrfWarpWarps * potrfTileBytes[T](n)
}

// potrfWarpCanRun: a CUDA queue with 32-lane warps, n <= potrfWarpMax, the shared memory
// and the grid within limits.
func potrfWarpCanRun[T Scalar](q *Queue, c *potrfCall[T]) bool {
	_, shared := potrfWarpShape[T](c.a.rows)
	return q.dev.SubGroup == 32 && c.a.rows <= potrfWarpMax &&
		shared <= q.dev.SharedMem && (c.a.batch+potrfWarpWarps-1)/potrfWarpWarps <= gridXMax
}

// potrfWarp launches kernels/potrf/potrf_warp.cu: a warp per matrix, potrfWarpWarps to a
// block, the batch in grid x.
func potrfWarp[T Scalar](q *Queue, c *potrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	kernel, shared := potrfWarpShape[T](a.rows)
	return cudaOf(q).launch("potrf_warp", kernel,
		dim3{(a.batch + potrfWarpWarps - 1) / potrfWarpWarps, 1, 1}, dim3{32 * potrfWarpWarps, 1, 1}, shared,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.info.devPtr(), potrfLowerArg(c.uplo))
}

// potrfPanel is CTA_PANEL of kernels/potrf/ctile.cuh: the columns of a panel of the cta and
// warp kernels, whose tiles have an order NP that it divides.
const potrfPanel = 8

// potrfPanelOrder is NP, the order of the packed tile at order n.
func potrfPanelOrder(n int) int { return ceilDiv(n, potrfPanel) * potrfPanel }

// potrfTileBytes is the packed tile of kernels/potrf/ctile.cuh at order n: the lower
// triangle of order NP, packed by columns from each column's 4-aligned diagonal row on
// (NP*NP/2 + 2*NP elements).
func potrfTileBytes[T Scalar](n int) int {
	np := potrfPanelOrder(n)
	return (np*np/2 + 2*np) * sizeOf[T]()
}

// potrfCTAShared is the dynamic shared memory of the cta kernel at order n: its tile, then
// potrfPanel reals (8 bytes kept for each, a float64's) and an int, rounded up to 16 bytes.
func potrfCTAShared[T Scalar](n int) int {
	return potrfTileBytes[T](n) + alignUp(potrfPanel*8+4, 16)
}

// potrfCTATiles is the 4x4 tiles a thread of potrf_cta_reg holds in registers (CTA_TPT).
const potrfCTATiles = 2

// potrfCTAMaxThreads is CTA_MAX_THREADS of potrf_cta.cu: the most threads of a block, warp 0
// and the updating warps after it.
const potrfCTAMaxThreads = 256

// potrfCTAShape is the cta kernel and its block at order n, and whether it takes n. Warp 0
// factors each next diagonal block while warps 1 on update the trailing tiles: reg, in
// potrf_cta_reg, 2 tiles a thread held in registers, as many threads as that takes, up to
// potrfCTAMaxThreads (n <= 112); else, in potrf_cta, in shared memory, a thread per tile of
// the first panel's trailing update, up to the same block.
func potrfCTAShape(n int, reg bool) (kernel string, threads int, ok bool) {
	nt := potrfPanelOrder(n) / 4       // 4x4 tiles a side
	workers := potrfCTAMaxThreads - 32 // the threads past warp 0
	if reg {
		need := (nt*(nt+1)/2 + potrfCTATiles - 1) / potrfCTATiles
		return "potrf_cta_reg_", 32 + (need+31)/32*32, need <= workers
	}
	t2 := max(nt-4, 0)
	return "potrf_cta_", 32 + min(max((t2*(t2+1)/2+31)/32*32, 32), workers), true
}

// potrfCTACanRun: a CUDA queue with 32-lane warps, the tile within the shared memory of a
// block (f32 up to n = 336, f64 and c64 up to 232, c128 up to 168 on an H200), a block per
// matrix within the grid, and for reg the tiles within the registers of 256 threads and a
// dtype other than complex128 (whose tiles would spill).
func potrfCTACanRun[T Scalar](reg bool) func(q *Queue, c *potrfCall[T]) bool {
	return func(q *Queue, c *potrfCall[T]) bool {
		_, _, ok := potrfCTAShape(c.a.rows, reg)
		return q.dev.SubGroup == 32 && potrfCTAShared[T](c.a.rows) <= q.dev.SharedMem &&
			c.a.batch <= gridXMax && ok && !(reg && dtypeName[T]() == "c128")
	}
}

// potrfCTA launches kernels/potrf/potrf_cta.cu: one block per matrix, the batch in grid x.
func potrfCTA[T Scalar](reg bool) func(q *Queue, c *potrfCall[T]) error {
	return func(q *Queue, c *potrfCall[T]) error {
		a := c.a
		if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
			return err
		}
		kernel, threads, _ := potrfCTAShape(a.rows, reg)
		return cudaOf(q).launch("potrf_cta", kernel+dtypeName[T](),
			dim3{a.batch, 1, 1}, dim3{threads, 1, 1}, potrfCTAShared[T](a.rows),
			a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.info.devPtr(), potrfLowerArg(c.uplo))
	}
}

// potrfLowerArg is the kernels' lower flag.
func potrfLowerArg(uplo Uplo) uintptr {
	if uplo == Lower {
		return 1
	}
	return 0
}
