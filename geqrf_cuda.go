//go:build cuda

package batchlas

import "fmt"

// qrCTAMaxThreads is the most threads a block of the "cta" QR kernels runs (their
// __launch_bounds__).
const qrCTAMaxThreads = 512

// qrCTAPackThreads is how many threads a block of the "cta" QR kernels gathers by holding
// several small matrices, a team of threads each: Hopper runs at most 32 blocks an SM, so
// blocks of one warp could not fill it; blocks of four warps can.
const qrCTAPackThreads = 128

// qrCTARegRows are the rows of a column that one lane of the "cta" QR kernels may hold in
// registers (their entries; QR_CTA_ENTRIES in kernels/common/householder.cuh), smallest
// first.
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

// qrCTAWideThreads is the launch bound of the entries whose lanes hold more than 128 bytes of
// a column (float64's 32 rows): at 512 threads their 128 registers a thread spilled (60 bytes
// in geqrf_cta_r32_f64, CUDA 13.0), so they run teams of at most 256 threads, with up to 255
// registers (QR_CTA_ENTRIES' MAXT).
const qrCTAWideThreads = 256

// qrCTALayout is how the "cta" QR kernels (kernels/common/householder.cuh) spread vectors of
// length r (the rows the reflectors act on) in c columns of elements of size bytes over a
// team of threads: lanes per column (a power of two: as few as hold the column in registers,
// at least one warp's worth in all), threads per team, the shared memory's leading dimension
// lds >= r, and rpl, the rows per lane when the groups of lanes hold their columns in
// registers (each group one column; else 0); cplx says whether the elements are complex. Few
// lanes per column make small teams, and more matrices in flight on an SM, which hide each
// other's latency: a step of one matrix is a chain of dependent shuffles, reductions and
// divisions. In shared memory, with fewer than 32 lanes per column a warp touches 32/lanes
// columns at once: lds is an odd multiple of lanes, so that those columns start in distinct
// banks. With rpl the registers cover lanes*rpl rows, read in 16-byte chunks: lds holds them
// and one chunk per lane more, a multiple of 16 bytes. The caller sets bytes and then packs
// the matrices into blocks (qrCTA.pack).
func qrCTALayout(r, c, size int, cplx bool) (l qrCTA) {
	maxRPL := qrCTAMaxRegRows(size, cplx)
	l.lanes = 1
	for l.lanes < 32 && (l.lanes*maxRPL < r || l.lanes*c < 32) {
		l.lanes *= 2
	}
	l.threads = min(qrCTAMaxThreads, (l.lanes*c+31)/32*32)
	if l.lanes*c <= l.threads {
		for _, rpl := range qrCTARegRows {
			if rpl <= maxRPL && r <= l.lanes*rpl && (rpl*size <= 128 || l.threads <= qrCTAWideThreads) {
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

// qrCTA is a launch of a "cta" QR kernel: qrCTALayout's answer, the shared bytes of one
// matrix (a multiple of 16: each team's region starts 16-byte aligned) and the matrices a
// block holds.
type qrCTA struct {
	lanes, threads, lds, rpl int
	bytes, matrices          int
}

// qrCTABytes is the shared bytes of one matrix of elems elements of size bytes, rounded up
// to 16 (qr_align in kernels/common/householder.cuh).
func qrCTABytes(elems, size int) int {
	return (elems*size + 15) &^ 15
}

// pack sets the matrices a block holds: as many teams as make qrCTAPackThreads threads, fewer
// where q's shared memory per block would not hold their regions, at least one.
func (l *qrCTA) pack(q *Queue) {
	l.matrices = max(1, qrCTAPackThreads/l.threads)
	for l.matrices > 1 && l.matrices*l.bytes > q.dev.SharedMem {
		l.matrices--
	}
}

// fits reports whether q runs the block l asks for: a CUDA device with 32-lane warps, the
// block's threads and shared bytes within its limits.
func (l qrCTA) fits(q *Queue) bool {
	return q.dev.Backend == CUDA && q.dev.SubGroup == 32 && l.matrices*l.threads <= q.dev.MaxBlock &&
		l.matrices*l.bytes <= q.dev.SharedMem
}

// launchQRCTA launches entry <op>_cta_r<rpl>_<type> of kernels/<op>/<op>_cta.cu for batch
// matrices in layout l: l.matrices to a block, the blocks in grid x; the team size is the
// kernel's last argument.
func launchQRCTA[T Scalar](q *Queue, op string, l qrCTA, batch int, args ...uintptr) error {
	return cudaOf(q).launch(op+"_cta", fmt.Sprintf("%s_cta_r%d_%s", op, l.rpl, dtypeName[T]()),
		dim3{(batch + l.matrices - 1) / l.matrices, 1, 1}, dim3{l.matrices * l.threads, 1, 1}, l.matrices*l.bytes,
		append(args, uintptr(l.threads))...)
}

// geqrfCTAShape is the launch of kernels/geqrf/geqrf_cta.cu on q: each matrix (n columns of
// lds), k taus and, with rpl, from the next 16-byte boundary, two padded reflectors in shared
// memory.
func geqrfCTAShape[T Scalar](q *Queue, c *geqrfCall[T]) qrCTA {
	m, n := c.a.rows, c.a.cols
	size := sizeOf[T]()
	l := qrCTALayout(m, n, size, isComplex[T]())
	l.bytes = qrCTABytes(n*l.lds+min(m, n), size) + 2*l.lanes*l.rpl*size
	l.pack(q)
	return l
}

// geqrfCTACanRun: a CUDA queue whose blocks may hold the matrix in shared memory; an empty
// call always.
func geqrfCTACanRun[T Scalar](q *Queue, c *geqrfCall[T]) bool {
	if min(c.a.rows, c.a.cols) == 0 || c.a.batch == 0 {
		return true
	}
	return geqrfCTAShape(q, c).fits(q)
}

// geqrfCTA launches kernels/geqrf/geqrf_cta.cu: a team of threads per matrix, one or more
// matrices a block.
func geqrfCTA[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	if min(a.rows, a.cols) == 0 || a.batch == 0 {
		return nil
	}
	l := geqrfCTAShape(q, c)
	return launchQRCTA[T](q, "geqrf", l, a.batch,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(a.rows), uintptr(a.cols), c.tau.devPtr(), uintptr(a.batch),
		uintptr(l.lanes), uintptr(l.lds))
}
