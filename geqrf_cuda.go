//go:build cuda

package batchlas

// qrCTAMaxThreads is the most threads a block of the "cta" QR kernels runs (their
// __launch_bounds__).
const qrCTAMaxThreads = 512

// qrCTARegRows is the most rows of a column that one lane of the "cta" QR kernels holds in
// registers (QR_RPL in kernels/common/householder.cuh).
const qrCTARegRows = 16

// qrCTALayout is how the "cta" QR kernels (kernels/common/householder.cuh) spread vectors of
// length r (the rows the reflectors act on) in c columns over a block: lanes per column (a
// power of two, each lane taking about 16 rows, and at least one warp's worth of lanes in
// all), threads per block, the shared memory's leading dimension lds >= r, and whether the
// groups of lanes hold their columns in registers (regs: each group has one column, each lane
// at most qrCTARegRows rows). With fewer than 32 lanes per column a warp touches 32/lanes
// columns at once: lds is an odd multiple of lanes, so that those columns start in distinct
// banks.
func qrCTALayout(r, c int) (l qrCTA) {
	l.lanes = 1
	for l.lanes < 32 && (l.lanes*qrCTARegRows < r || l.lanes*c < 32) {
		l.lanes *= 2
	}
	l.threads = min(qrCTAMaxThreads, (l.lanes*c+31)/32*32)
	l.lds = r
	if l.lanes < 32 {
		l.lds = (r + l.lanes - 1) / l.lanes * l.lanes
		if l.lds/l.lanes%2 == 0 {
			l.lds += l.lanes
		}
	}
	if l.lanes*c <= l.threads && r <= l.lanes*qrCTARegRows {
		l.regs = 1
	}
	return l
}

// qrCTA is a launch of a "cta" QR kernel: qrCTALayout's answer and the shared bytes.
type qrCTA struct {
	lanes, threads, lds int
	regs                uintptr // 1: the columns in registers
	bytes               int
}

// qrCTAFits reports whether q runs a "cta" QR block of the threads and shared bytes given:
// a CUDA device with 32-lane warps.
func qrCTAFits(q *Queue, threads, bytes int) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && threads <= q.dev.MaxBlock && bytes <= q.dev.SharedMem
}

// geqrfCTAShape is the launch of kernels/geqrf/geqrf_cta.cu: the matrix (n columns of lds)
// and k taus in shared memory.
func geqrfCTAShape[T Scalar](c *geqrfCall[T]) qrCTA {
	m, n := c.a.rows, c.a.cols
	l := qrCTALayout(m, n)
	l.bytes = (n*l.lds + min(m, n)) * sizeOf[T]()
	return l
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
	return cudaOf(q).launch("geqrf_cta", "geqrf_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{l.threads, 1, 1}, l.bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), c.tau.devPtr(), uintptr(a.batch),
		uintptr(l.lanes), uintptr(l.lds), l.regs)
}
