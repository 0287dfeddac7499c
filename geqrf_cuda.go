//go:build cuda

package batchlas

// qrCTAMaxThreads is the most threads a block of the "cta" QR kernels runs (their
// __launch_bounds__).
const qrCTAMaxThreads = 512

// qrCTALayout is how the "cta" QR kernels (kernels/common/householder.cuh) spread vectors of
// length r (the rows the reflectors act on) in c columns over a block: lanes per column (a
// power of two, each lane taking about 16 rows, and at least one warp's worth of lanes in
// all), threads per block, and the shared memory's leading dimension lds >= r. With fewer
// than 32 lanes per column a warp touches 32/lanes columns at once: lds is an odd multiple of
// lanes, so that those columns start in distinct banks.
func qrCTALayout(r, c int) (lanes, threads, lds int) {
	lanes = 1
	for lanes < 32 && (lanes*16 < r || lanes*c < 32) {
		lanes *= 2
	}
	threads = min(qrCTAMaxThreads, (lanes*c+31)/32*32)
	lds = r
	if lanes < 32 {
		lds = (r + lanes - 1) / lanes * lanes
		if lds/lanes%2 == 0 {
			lds += lanes
		}
	}
	return lanes, threads, lds
}

// qrCTAFits reports whether q runs a "cta" QR block of the threads and shared bytes given:
// a CUDA device with 32-lane warps.
func qrCTAFits(q *Queue, threads, bytes int) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && threads <= q.dev.MaxBlock && bytes <= q.dev.SharedMem
}

// geqrfCTAShape is the launch of kernels/geqrf/geqrf_cta.cu: the matrix (n columns of lds)
// and k taus in shared memory.
func geqrfCTAShape[T Scalar](c *geqrfCall[T]) (lanes, threads, lds, bytes int) {
	m, n := c.a.rows, c.a.cols
	lanes, threads, lds = qrCTALayout(m, n)
	return lanes, threads, lds, (n*lds + min(m, n)) * sizeOf[T]()
}

// geqrfCTACanRun: a CUDA queue whose blocks may hold the matrix in shared memory; an empty
// call always.
func geqrfCTACanRun[T Scalar](q *Queue, c *geqrfCall[T]) bool {
	if min(c.a.rows, c.a.cols) == 0 || c.a.batch == 0 {
		return true
	}
	_, threads, _, bytes := geqrfCTAShape(c)
	return qrCTAFits(q, threads, bytes)
}

// geqrfCTA launches kernels/geqrf/geqrf_cta.cu: one block per matrix, the batch in grid x.
func geqrfCTA[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	if min(a.rows, a.cols) == 0 || a.batch == 0 {
		return nil
	}
	lanes, threads, lds, bytes := geqrfCTAShape(c)
	return cudaOf(q).launch("geqrf_cta", "geqrf_cta_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{threads, 1, 1}, bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), c.tau.devPtr(), uintptr(a.batch),
		uintptr(lanes), uintptr(lds))
}
