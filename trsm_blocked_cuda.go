//go:build cuda

package batchlas

// trsmBlockNB is the block of the "blocked" family: its diagonal blocks are solved by the
// cta kernel, which takes that order for every dtype.
const trsmBlockNB = 64

// trsmBlockStep is one diagonal block of a blocked Trsm: the block's solve on the cta
// kernel, then the update of the vectors not yet solved by Gemm (nil when none are left).
type trsmBlockStep[T Scalar] struct {
	diag   *trsmCall[T]
	update *nestedCall
}

// trsmBlockSteps are the steps of c, in the order the blocks are solved. op(A) is
// effectively lower when uplo is Lower and op(A) is A, or uplo Upper and op(A) transposes:
// side Left then solves its blocks first to last, side Right last to first. The first step
// solves with alpha and its Gemm scales every vector it updates by alpha (beta = alpha), so
// that each of B's elements is scaled once; the later steps take 1. With alpha zero every
// block is set to zero by its solve, and no Gemm runs (A is not read, as in BLAS).
func trsmBlockSteps[T Scalar](c *trsmCall[T]) ([]trsmBlockStep[T], error) {
	a, b := c.a, c.b
	n, _ := trsmOrder(c)
	left := c.side == Left
	forward := (c.uplo == Lower) == (c.trans == NoTrans) == left
	var steps []trsmBlockStep[T]
	var err error
	view := func(m *Matrix[T], i, j, r, k int) *Matrix[T] {
		v, e := m.View(i, j, r, k)
		if err == nil {
			err = e
		}
		return v
	}
	for s := 0; s < n; s += trsmBlockNB {
		k0 := s
		if !forward {
			k0 = max(0, n-s-trsmBlockNB)
		}
		kb := min(trsmBlockNB, n-s)
		alpha := T(1)
		if s == 0 {
			alpha = c.alpha
		}
		diag := *c
		diag.alpha, diag.a = alpha, view(a, k0, k0, kb, kb)
		r0, r1 := k0+kb, n // the vectors' elements not yet solved
		if !forward {
			r0, r1 = 0, k0
		}
		// op(A)'s block of rows r0..r1 and columns k0..k0+kb (Left), or of rows k0..k0+kb and
		// columns r0..r1 (Right), as a view of A and the op that Gemm applies to it.
		aView := func(i0, i1, j0, j1 int) *Matrix[T] {
			if c.trans == NoTrans {
				return view(a, i0, j0, i1-i0, j1-j0)
			}
			return view(a, j0, i0, j1-j0, i1-i0)
		}
		st := trsmBlockStep[T]{diag: &diag}
		if left {
			diag.b = view(b, k0, 0, kb, b.cols)
		} else {
			diag.b = view(b, 0, k0, b.rows, kb)
		}
		if r1 > r0 && c.alpha != 0 {
			g := &gemmCall[T]{transA: NoTrans, transB: NoTrans, alpha: -1, beta: alpha}
			if left {
				g.transA, g.a, g.b, g.c = c.trans, aView(r0, r1, k0, k0+kb), diag.b, view(b, r0, 0, r1-r0, b.cols)
			} else {
				g.transB, g.a, g.b, g.c = c.trans, diag.b, aView(k0, k0+kb, r0, r1), view(b, 0, r0, b.rows, r1-r0)
			}
			u := gemmNested(g)
			st.update = &u
		}
		steps = append(steps, st)
	}
	return steps, err
}

// trsmBlockedCanRun: an order past one block, the cta kernel for every
// diagonal block, and a route for every Gemm step (its own families, as Gemm chooses).
func trsmBlockedCanRun[T Scalar](q *Queue, c *trsmCall[T]) bool {
	n, vectors := trsmOrder(c)
	if n <= trsmBlockNB || vectors == 0 || c.b.batch == 0 {
		return false
	}
	steps, err := trsmBlockSteps(c)
	if err != nil {
		return false
	}
	for _, st := range steps {
		if !trsmCTACanRun(q, st.diag) || st.update != nil && !st.update.routed(q) {
			return false
		}
	}
	return true
}

// trsmBlockedBufferSize: the most that a Gemm step leases.
func trsmBlockedBufferSize[T Scalar](q *Queue, c *trsmCall[T]) int {
	steps, err := trsmBlockSteps(c)
	if err != nil {
		return 0
	}
	need := 0
	for _, st := range steps {
		if st.update != nil {
			need = max(need, st.update.bytes(q))
		}
	}
	return need
}

// trsmBlocked runs the steps.
func trsmBlocked[T Scalar](q *Queue, c *trsmCall[T]) error {
	steps, err := trsmBlockSteps(c)
	if err != nil {
		return err
	}
	for _, st := range steps {
		if err := trsmCTA(q, st.diag); err != nil {
			return err
		}
		if st.update != nil {
			if err := st.update.run(q); err != nil {
				return err
			}
		}
	}
	return nil
}
