//go:build cuda

package batchlas

import "fmt"

// The native CUDA syev families. Each canRun is exactly what its launch accepts.

// syevTinyMax is the largest order of the "tiny" family (kernels/syev/syev_tiny.cu), a
// thread per matrix holding A and V in registers: as many as stay within about 150 of them.
func syevTinyMax[T Scalar]() int {
	switch dtypeName[T]() {
	case "f32":
		return 8
	case "c128":
		return 4
	}
	return 6
}

// syevTinyThreads is TINY_THREADS of syev_tiny.cu: the matrices of a block.
const syevTinyThreads = 128

// syevTinyKernel names the tiny kernel of order n.
func syevTinyKernel[T Scalar](n int) string { return fmt.Sprintf("syev_tiny%d_%s", n, dtypeName[T]()) }

// syevTinyCanRun: a CUDA queue, n <= syevTinyMax, the grid within limits.
func syevTinyCanRun[T Scalar, R Real](q *Queue, c *syevCall[T, R]) bool {
	return c.a.rows <= syevTinyMax[T]() && (c.a.batch+syevTinyThreads-1)/syevTinyThreads <= gridXMax
}

// syevTiny launches syev_tiny.cu's kernel of order n: a thread per matrix, the batch in grid x.
func syevTiny[T Scalar, R Real](q *Queue, c *syevCall[T, R]) error {
	return syevLaunch(q, c, "syev_tiny", syevTinyKernel[T](c.a.rows), dim3{(c.a.batch + syevTinyThreads - 1) / syevTinyThreads, 1, 1}, dim3{syevTinyThreads, 1, 1}, 0)
}

// syevJacobiMax is the largest order of kernels/syev/syev_jacobi.cu: a lane computes each of
// a step's n/2 rotations.
const syevJacobiMax = 64

// syevJacobiSlot is the shared memory of one matrix (one warp) of syev_jacobi.cu at order n
// (its jacobi_slot): A, and with vectors V, m-by-(m+1) for m = n rounded up to even; m/2
// phases (T), 3 m/2 reals and m ints; rounded up to 16 bytes.
func syevJacobiSlot[T Scalar, R Real](n int, vectors bool) int {
	m, mats := n+n&1, 1
	if vectors {
		mats = 2
	}
	b := sizeOf[T]()*(m*(m+1)*mats+m/2) + sizeOf[R]()*3*(m/2) + 4*m
	return (b + 15) / 16 * 16
}

// syevJacobiShape is the warps (matrices) of a block, at most 4, as many as the shared memory
// holds, and the block's shared bytes; 0 warps when not even one fits. (n = 0 is sized as
// n = 1, for canRun: its launch returns before any kernel.)
func syevJacobiShape[T Scalar, R Real](q *Queue, c *syevCall[T, R]) (warps, shared int) {
	slot := syevJacobiSlot[T, R](max(c.a.rows, 1), c.jobz == Vectors)
	warps = min(4, q.dev.SharedMem/slot)
	return warps, warps * slot
}

// syevJacobiCanRun: a CUDA queue with 32-lane warps, n <= syevJacobiMax, one matrix's shared
// memory within the per-block limit (f32 and f64 up to 64 on an H200, complex too), the grid
// within limits.
func syevJacobiCanRun[T Scalar, R Real](q *Queue, c *syevCall[T, R]) bool {
	if q.dev.SubGroup != 32 || c.a.rows > syevJacobiMax {
		return false
	}
	warps, _ := syevJacobiShape(q, c)
	return warps > 0 && (c.a.batch+warps-1)/warps <= gridXMax
}

// syevJacobi launches syev_jacobi.cu: a warp per matrix, the batch in grid x.
func syevJacobi[T Scalar, R Real](q *Queue, c *syevCall[T, R]) error {
	warps, shared := syevJacobiShape(q, c)
	return syevLaunch(q, c, "syev_jacobi", "syev_jacobi_"+dtypeName[T](), dim3{(c.a.batch + warps - 1) / warps, 1, 1}, dim3{32 * warps, 1, 1}, shared)
}

// syevLaunch launches the kernel fn of the family mod with the arguments every syev kernel
// takes, after the quick return of an empty call.
func syevLaunch[T Scalar, R Real](q *Queue, c *syevCall[T, R], mod, fn string, grid, block dim3, shared int) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	var vectors uintptr
	if c.jobz == Vectors {
		vectors = 1
	}
	return cudaOf(q).launch(mod, fn, grid, block, shared,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.w.devPtr(), c.info.devPtr(),
		vectors, potrfLowerArg(c.uplo))
}

// syevCTAMaxThreads is SYEV_CTA_MAX_THREADS of syev_cta.cu, and SYEV_BLOCKED_THREADS of
// syev_blocked.cu, whose kernels run the same block.
const syevCTAMaxThreads = 256

// syevCTAThreads is the block of the cta kernel at order n: a thread per row of Z in whole
// warps, from one warp to syevCTAMaxThreads.
func syevCTAThreads(n int) int { return min(syevCTAMaxThreads, max(32, (n+31)/32*32)) }

// syevBackRows is SYEV_BACK_ROWS of kernels/syev/syev.cuh: about that many rows a lane in
// the back-transform, whose groups of lanes syevBackCols sizes.
const syevBackRows = 8

// syevBackCols is syev_back_cols of syev.cuh: the elements of T that one warp stages in the
// back-transform, 32/P columns at a stride of P times an odd number, P the smallest power
// of two (at most 32) with P*syevBackRows >= n.
func syevBackCols(n int) int {
	p := 1
	for p < 32 && p*syevBackRows < n {
		p *= 2
	}
	return 32 / p * p * ((n+p-1)/p | 1)
}

// syevCTAShared is the dynamic shared memory of the cta kernel at order n (syev_layout in
// syev_cta.cu): the n-by-(n|1) tile, each warp's staged columns (syevBackCols), y and tau
// and 32 elements of T; d, e and two buffers of rotations (6n reals); n ints and two
// 16-byte rotation records.
func syevCTAShared[T Scalar, R Real](n int) int {
	nw := syevCTAThreads(n) / 32
	return (n*(n|1)+nw*syevBackCols(n)+2*n+32)*sizeOf[T]() + 6*n*sizeOf[R]() + (n+8)*4
}

// syevCTACanRun: a CUDA queue with 32-lane warps, the kernel's shared memory within the
// device's per-block limit (on an H200's 227 KB: n <= 231 for float32, 161 for float64, 163
// for complex64, 112 for complex128) and a block per matrix within the grid.
func syevCTACanRun[T Scalar, R Real](q *Queue, c *syevCall[T, R]) bool {
	return q.dev.SubGroup == 32 && syevCTAShared[T, R](c.a.rows) <= q.dev.SharedMem &&
		c.a.batch <= gridXMax
}

// syevInvSlot is one matrix's inverse-iteration arrays of the bisection solver (tri=1,
// kernels/syev/bisect.cuh) at order n: 4n reals per thread of the block, with vectors alone;
// rounded up to 256 bytes.
func syevInvSlot[T Scalar, R Real](n int, jobz Job) int {
	if jobz != Vectors {
		return 0
	}
	return alignUp(4*n*syevCTAThreads(n)*sizeOf[R](), 256)
}

// syevCTABufferSize: the bisection member's inverse-iteration arrays, a slot per matrix;
// none for QL/QR, which keeps Z in the output matrix, or an empty call.
func syevCTABufferSize[T Scalar, R Real](bisect bool) func(*Queue, *syevCall[T, R]) int {
	return func(_ *Queue, c *syevCall[T, R]) int {
		if !bisect || c.a.rows == 0 {
			return 0
		}
		return syevInvSlot[T, R](c.a.rows, c.jobz) * c.a.batch
	}
}

// syevCTA launches kernels/syev/syev_cta.cu: one block per matrix, the batch in grid x;
// syev_cta_<dtype> (QL/QR) or, bisect, syev_cta_bisect_<dtype> with its workspace.
func syevCTA[T Scalar, R Real](bisect bool) func(*Queue, *syevCall[T, R]) error {
	return func(q *Queue, c *syevCall[T, R]) error {
		a, n := c.a, c.a.rows
		if done, err := quickReturn(q, n, n, a.batch, c.info); done {
			return err
		}
		args := syevArgs(c)
		kernel := "syev_cta_"
		if bisect {
			inv, err := syevInv(q, c)
			if err != nil {
				return err
			}
			kernel, args = "syev_cta_bisect_", append(args, inv...)
		}
		return cudaOf(q).launch("syev_cta", kernel+dtypeName[T](),
			dim3{a.batch, 1, 1}, dim3{syevCTAThreads(n), 1, 1}, syevCTAShared[T, R](n), args...)
	}
}

// syevInv leases the workspace parts before, then the bisection's inverse-iteration arrays,
// and returns the parts' addresses followed by the kernel arguments inv and invslot.
func syevInv[T Scalar, R Real](q *Queue, c *syevCall[T, R], before ...int) ([]uintptr, error) {
	slot := syevInvSlot[T, R](c.a.rows, c.jobz)
	parts, err := carve(q, append(before, slot*c.a.batch)...)
	if err != nil {
		return nil, err
	}
	return append(parts, uintptr(slot)), nil
}

// syevArgs are the arguments that the cta and blocked kernels begin with: a, ld, stride, n,
// batch, w, info and the flags.
func syevArgs[T Scalar, R Real](c *syevCall[T, R]) []uintptr {
	a := c.a
	return []uintptr{a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.batch), c.w.devPtr(), c.info.devPtr(), syevFlags(c)}
}

// syevFlags is the flags argument of the cta and blocked kernels: 1 for uplo Lower, 2 for
// jobz Vectors.
func syevFlags[T Scalar, R Real](c *syevCall[T, R]) uintptr {
	var flags uintptr
	if c.uplo == Lower {
		flags |= 1
	}
	if c.jobz == Vectors {
		flags |= 2
	}
	return flags
}
