//go:build cuda

package batchlas

import "fmt"

// qrCTAMaxThreads is the most threads a block of the "cta" QR kernels runs (their
// __launch_bounds__).
const qrCTAMaxThreads = 512

// qrCTARegRows are the rows of a column that one lane of the "cta" QR kernels may hold in
// registers (their template instances; kernels/common/householder.cuh), smallest first.
var qrCTARegRows = [...]int{4, 8, 16, 32}

// qrCTAMaxRegRows is the largest of qrCTARegRows for elements of size bytes: 32 for the real
// types, and 128 bytes of a column for the complex ones (16 rows of complex64, 8 of
// complex128), whose arithmetic needs more temporaries: with 256 bytes ptxas spilled them
// (sm_90, 128 registers a thread under __launch_bounds__(512)).
func qrCTAMaxRegRows(size int, cplx bool) int {
	if cplx {
		return 128 / size
	}
	return 32
}

// qrCTALayout is how the "cta" QR kernels (kernels/common/householder.cuh) spread vectors of
// length r (the rows the reflectors act on) in c columns of elements of size bytes over a
// block: lanes per column (a power of two: as few as hold the column in registers, at least
// one warp's worth in all), threads per block, the shared memory's leading dimension
// lds >= r, and rpl, the rows per lane when the groups of lanes hold their columns in
// registers (each group one column; else 0); cplx says whether the elements are complex. Few lanes per column make small blocks, and
// more matrices in flight on an SM, which hide each other's latency: a step of one matrix is
// a chain of dependent shuffles, reductions and divisions. In shared memory, with fewer than
// 32 lanes per column a warp touches 32/lanes columns at once: lds is an odd multiple of
// lanes, so that those columns start in distinct banks. With rpl the registers cover
// lanes*rpl rows, read in 16-byte chunks: lds holds them and one chunk per lane more, a
// multiple of 16 bytes.
func qrCTALayout(r, c, size int, cplx bool) (l qrCTA) {
	maxRPL := qrCTAMaxRegRows(size, cplx)
	l.lanes = 1
	for l.lanes < 32 && (l.lanes*maxRPL < r || l.lanes*c < 32) {
		l.lanes *= 2
	}
	l.threads = min(qrCTAMaxThreads, (l.lanes*c+31)/32*32)
	if l.lanes*c <= l.threads {
		for _, rpl := range qrCTARegRows {
			if rpl <= maxRPL && r <= l.lanes*rpl {
				l.rpl = rpl
				break
			}
		}
	}
	switch w := 16 / size; {
	case l.rpl > 0:
		// 16-byte aligned columns, each skewed by one chunk per lane from the one before.
		l.lds = l.lanes * (l.rpl + w)
	case l.lanes < 32:
		l.lds = (r + l.lanes - 1) / l.lanes * l.lanes
		if l.lds/l.lanes%2 == 0 {
			l.lds += l.lanes
		}
	default:
		l.lds = r
	}
	return l
}

// qrCTA is a launch of a "cta" QR kernel: qrCTALayout's answer and the shared bytes.
type qrCTA struct {
	lanes, threads, lds, rpl int
	bytes                    int
}

// qrCTAFits reports whether q runs a "cta" QR block of the threads and shared bytes given:
// a CUDA device with 32-lane warps.
func qrCTAFits(q *Queue, threads, bytes int) bool {
	return q.dev.SubGroup == 32 && threads <= q.dev.MaxBlock && bytes <= q.dev.SharedMem
}

// geqrfCTAShape is the launch of kernels/geqrf/geqrf_cta.cu: the matrix (n columns of lds),
// k taus and, with rpl, two padded reflectors in shared memory.
func geqrfCTAShape[T Scalar](c *geqrfCall[T]) qrCTA {
	m, n := c.a.rows, c.a.cols
	l := qrCTALayout(m, n, sizeOf[T](), isComplex[T]())
	w := 16 / sizeOf[T]()
	vb := (n*l.lds + min(m, n) + w - 1) / w * w // the padded reflectors, 16-byte aligned
	l.bytes = (vb + 2*l.lanes*l.rpl) * sizeOf[T]()
	return l
}

// geqrfCTAR32Threads is the most threads of a geqrf_cta_r32_f32 block: its
// __launch_bounds__(128, 6).
const geqrfCTAR32Threads = 128

// geqrfCTAKernel names the kernel of geqrf_cta.cu that runs layout l: float's 32 rows a
// lane in blocks of at most geqrfCTAR32Threads have one of their own (geqrf_cta_r32_f32, 80
// registers where the general kernel takes 100), the rest the general one.
func geqrfCTAKernel[T Scalar](l qrCTA) string {
	if dtypeName[T]() == "f32" && l.rpl == 32 && l.threads <= geqrfCTAR32Threads {
		return "geqrf_cta_r32_f32"
	}
	return "geqrf_cta_" + dtypeName[T]()
}

// geqrfCTACanRun: a CUDA queue whose blocks may hold the matrix in shared memory; an empty
// call always.
func geqrfCTACanRun[T Scalar](q *Queue, c *geqrfCall[T]) bool {
	if min(c.a.rows, c.a.cols) == 0 || c.a.batch == 0 {
		return true
	}
	l := geqrfCTAShape(c)
	return qrCTAFits(q, l.threads, l.bytes)
}

// geqrfCTA launches kernels/geqrf/geqrf_cta.cu: one block per matrix, the batch in grid x.
func geqrfCTA[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	if min(a.rows, a.cols) == 0 || a.batch == 0 {
		return nil
	}
	l := geqrfCTAShape(c)
	return cudaOf(q).launch("geqrf_cta", geqrfCTAKernel[T](l), dim3{a.batch, 1, 1}, dim3{l.threads, 1, 1}, l.bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), c.tau.devPtr(), uintptr(a.batch),
		uintptr(l.lanes), uintptr(l.lds), uintptr(l.rpl))
}

// geqrfTinyMax is the largest m and n of the "tiny" QR family for T: its kernels hold a
// column of up to 16 rows in a lane's registers, 8 for complex128 (kernels/geqrf/geqrf_tiny.cu
// says why).
func geqrfTinyMax[T Scalar]() int {
	if sizeOf[T]() == 16 {
		return 8
	}
	return 16
}

// geqrfTinyWarps is TINY_QR_WARPS of geqrf_tiny.cu: the warps of a block.
const geqrfTinyWarps = 4

// geqrfTinyShape is the tiny family's group size N (lanes a matrix, rows a column: 8 or 16,
// the least that holds m and n), the matrices a block takes and its dynamic shared bytes:
// per matrix a tile of N columns of pitch N+1 and two reflectors of N elements.
func geqrfTinyShape[T Scalar](m, n int) (group, perBlock, shared int) {
	group = groupLanes(max(m, n))
	perBlock = geqrfTinyWarps * 32 / group
	return group, perBlock, perBlock * group * (group + 3) * sizeOf[T]()
}

// geqrfTinyKernel names the tiny kernel for a group of group lanes.
func geqrfTinyKernel[T Scalar](group int) string {
	return fmt.Sprintf("geqrf_tiny_n%d_%s", group, dtypeName[T]())
}

// geqrfTinyCanRun: a CUDA queue with 32-lane warps, m, n <= geqrfTinyMax, ld within 32 bits
// (the kernel forms its addresses from a 32-bit ld), the shared memory
// and the grid within limits; an empty call always.
func geqrfTinyCanRun[T Scalar](q *Queue, c *geqrfCall[T]) bool {
	m, n := c.a.rows, c.a.cols
	if min(m, n) == 0 || c.a.batch == 0 {
		return true
	}
	_, per, shared := geqrfTinyShape[T](m, n)
	return q.dev.SubGroup == 32 && max(m, n) <= geqrfTinyMax[T]() &&
		groupLdFits(c.a.ld) && shared <= q.dev.SharedMem && (c.a.batch+per-1)/per <= gridXMax
}

// geqrfTiny launches kernels/geqrf/geqrf_tiny.cu: a group of lanes per matrix, the batch in
// grid x.
func geqrfTiny[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	if min(a.rows, a.cols) == 0 || a.batch == 0 {
		return nil
	}
	group, per, shared := geqrfTinyShape[T](a.rows, a.cols)
	return cudaOf(q).launch("geqrf_tiny", geqrfTinyKernel[T](group),
		dim3{(a.batch + per - 1) / per, 1, 1}, dim3{32 * geqrfTinyWarps, 1, 1}, shared,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), c.tau.devPtr(), uintptr(a.batch))
}
