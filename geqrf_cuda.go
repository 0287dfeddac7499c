//go:build cuda

package batchlas

// qrCTAMaxThreads is the most threads a block of the "cta" QR kernels runs (their
// __launch_bounds__).
const qrCTAMaxThreads = 512

// qrCTARegRows are the rows of a column that one lane of the "cta" QR kernels may hold in
// registers (their template instances; kernels/common/householder.cuh), smallest first.
var qrCTARegRows = [...]int{4, 8, 16}

// qrCTALayout is how the "cta" QR kernels (kernels/common/householder.cuh) spread vectors of
// length r (the rows the reflectors act on) in c columns over a block: lanes per column (a
// power of two, each lane taking at most 16 rows where it can, and at least one warp's worth
// of lanes in all), threads per block, the shared memory's leading dimension lds >= r, and
// rpl, the rows per lane when the groups of lanes hold their columns in registers (each group
// one column, each lane at most 16 rows; else 0). With fewer than 32 lanes per column a warp
// touches 32/lanes columns at once: lds is an odd multiple of lanes, so that those columns
// start in distinct banks. With rpl, lds is at least lanes*rpl: the registers cover that.
func qrCTALayout(r, c int) (l qrCTA) {
	l.lanes = 1
	for l.lanes < 32 && (l.lanes*16 < r || l.lanes*c < 32) {
		l.lanes *= 2
	}
	l.threads = min(qrCTAMaxThreads, (l.lanes*c+31)/32*32)
	rows := r
	if l.lanes*c <= l.threads {
		for _, rpl := range qrCTARegRows {
			if r <= l.lanes*rpl {
				l.rpl, rows = rpl, l.lanes*rpl
				break
			}
		}
	}
	l.lds = rows
	if l.lanes < 32 {
		l.lds = (rows + l.lanes - 1) / l.lanes * l.lanes
		if l.lds/l.lanes%2 == 0 {
			l.lds += l.lanes
		}
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
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && threads <= q.dev.MaxBlock && bytes <= q.dev.SharedMem
}

// geqrfCTAShape is the launch of kernels/geqrf/geqrf_cta.cu: the matrix (n columns of lds),
// k taus and, with rpl, two padded reflectors in shared memory.
func geqrfCTAShape[T Scalar](c *geqrfCall[T]) qrCTA {
	m, n := c.a.rows, c.a.cols
	l := qrCTALayout(m, n)
	l.bytes = (n*l.lds + min(m, n) + 2*l.lanes*l.rpl) * sizeOf[T]()
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
		uintptr(l.lanes), uintptr(l.lds), uintptr(l.rpl))
}
