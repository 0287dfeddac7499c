//go:build cuda

package batchlas

import "math"

// Flags of the "cta" triangular kernels (kernels/common/trsv.cuh defines them alike).
const (
	triLeft  = 1 << iota // trsm side Left: the vectors are B's columns, else its rows
	triLower             // A's lower triangle is stored
	triTrans             // op(A) transposes A
	triConj              // op(A) conjugates A
	triUnit              // A's diagonal is taken as ones and not read
)

// triMaxThreads is the most threads of a trsm or potrs "cta" block (TRI_THREADS of
// kernels/common/trsv.cuh).
const triMaxThreads = 64

// triShape is the launch of the trsm and potrs "cta" kernels (kernels/common/trsv.cuh).
// Each matrix has a team of threads, one per right-hand-side vector solved at once (more
// vectors go through the team in turns), and a block holds matrices teams of them.
type triShape struct {
	team, matrices, shared int // shared: the dynamic shared memory of a block in bytes
}

// triCTAShape is the launch for a triangle of order n, vectors right-hand-side vectors of
// n elements, and elements of size bytes: a team of one thread per vector, a multiple of 8,
// up to triMaxThreads, and as many matrices to a block as fill triMaxThreads, fewer or a
// smaller team where the shared memory would not hold them. A matrix's shared memory is its
// triangle column-packed with each column starting at a multiple of 4 rows (tri_col), then a
// tile of team vectors with the odd stride n|1. ok is false when not even a team of 8 fits.
func triCTAShape(q *Queue, n, vectors, size int) (s triShape, ok bool) {
	n4 := (n + 3) &^ 3
	c, r := n/4, n%4
	tri := 4*c*n4 - 8*c*(c-1) + r*(n4-4*c)
	for team := min(triMaxThreads, max(8, (vectors+7)&^7)); team >= 8; team -= 8 {
		for m := triMaxThreads / team; m >= 1; m-- {
			s = triShape{team: team, matrices: m, shared: m * (tri + team*(n|1)) * size}
			if s.shared <= q.dev.SharedMem && m*team <= q.dev.MaxBlock {
				return s, true
			}
		}
	}
	return triShape{}, false
}

// launchTri launches a trsm or potrs "cta" kernel in shape s on batch matrices, the batch in
// grid x; the team size is the kernel's last argument.
func launchTri(q *Queue, mod, fn string, s triShape, batch int, args ...uintptr) error {
	return cudaOf(q).launch(mod, fn, dim3{(batch + s.matrices - 1) / s.matrices, 1, 1}, dim3{s.matrices * s.team, 1, 1},
		s.shared, append(args, uintptr(s.team))...)
}

// kernelScalar is x as a kernel takes a floating scalar: the bit patterns of its real and
// imaginary parts as float64.
func kernelScalar[T Scalar](x T) (re, im uintptr) {
	var c complex128
	switch v := any(x).(type) {
	case float32:
		c = complex(float64(v), 0)
	case float64:
		c = complex(v, 0)
	case complex64:
		c = complex128(v)
	case complex128:
		c = v
	}
	return uintptr(math.Float64bits(real(c))), uintptr(math.Float64bits(imag(c)))
}

// trsmOrder is the order of A and the number of right-hand-side vectors: B's columns (side
// Left) or rows (side Right).
func trsmOrder[T Scalar](c *trsmCall[T]) (n, vectors int) {
	if c.side == Left {
		return c.b.rows, c.b.cols
	}
	return c.b.cols, c.b.rows
}

// triCTAFits: a CUDA queue whose shared memory per block holds a triangle of order n and a
// tile of 8 vectors, the limit of the trsm and potrs "cta" kernels (a call with nothing to
// solve always runs).
func triCTAFits[T Scalar](q *Queue, n, vectors, batch int) bool {
	_, ok := triCTAShape(q, n, vectors, sizeOf[T]())
	return ok || n == 0 || vectors == 0 || batch == 0
}

// trsmCTACanRun: triCTAFits for A's order and B's vectors.
func trsmCTACanRun[T Scalar](q *Queue, c *trsmCall[T]) bool {
	n, vectors := trsmOrder(c)
	return triCTAFits[T](q, n, vectors, c.b.batch)
}

// trsmCTA launches kernels/trsm/trsm_cta.cu: one block per matrix, the batch in grid x.
func trsmCTA[T Scalar](q *Queue, c *trsmCall[T]) error {
	a, b := c.a, c.b
	n, vectors := trsmOrder(c)
	if n == 0 || vectors == 0 || b.batch == 0 {
		return nil
	}
	s, ok := triCTAShape(q, n, vectors, sizeOf[T]())
	if !ok {
		return argErr("trsm", "route", "cta: a triangle of order %d does not fit the shared memory", n)
	}
	flags := 0
	if c.side == Left {
		flags |= triLeft
	}
	if c.uplo == Lower {
		flags |= triLower
	}
	if c.trans != NoTrans {
		flags |= triTrans
	}
	if c.trans == ConjTrans {
		flags |= triConj
	}
	if c.diag == Unit {
		flags |= triUnit
	}
	re, im := kernelScalar(c.alpha)
	return launchTri(q, "trsm_cta", "trsm_cta_"+dtypeName[T](), s, b.batch,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd),
		uintptr(n), uintptr(vectors), uintptr(b.batch), uintptr(flags), re, im)
}
