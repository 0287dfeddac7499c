//go:build cuda

package batchlas

// orgqrBlockNB is the panel width of the "blocked" family.
const orgqrBlockNB = 32

// orgqrBlockStep is the step of the blocked Orgqr (LAPACK's xORGQR) at the panel of columns
// i..i+w-1 of c's m-by-n matrices (w = orgqrBlockNB, or n - i for the last panel), whose own
// reflectors are the kp = min(max(k - i, 0), w) of columns i..i+kp-1, G = H_i ... H_{i+kp-1}:
//
//	tau_p = tau(i:i+kp)                        (copied to workspace, kp a matrix)
//	A(i:m, i+w:n) = G A(i:m, i+w:n)            (Ormqr Left NoTrans, none for the last panel)
//	A(i:m, i:i+w) = G's first w columns        (the cta kernel; Ormqr read the reflectors first)
//	A(0:i, i:i+w) = 0
//
// The steps run from the last panel back to the first. Column j of Q is H_0 ... H_{k-1} e_j,
// and H_l e_j = e_j for l > j (v_l is zero above row l), so after the step of panel i, the
// columns from i on hold those of H_i ... H_{k-1} (rows below i), on which the earlier
// panels' reflectors act only from row i' < i down: the steps before add the rest.
type orgqrBlockStep[T Scalar] struct {
	i, kp  int
	panel  *orgqrCall[T]
	above  *Matrix[T]   // A(0:i, i:i+w); no rows for the first panel
	update []nestedCall // the Ormqr; none for the last panel or kp = 0
}

// orgqrBlockSteps are the steps of c (not empty), last panel first, over the panels' tau at
// stepTau (a placeholder when 0, for canRun), or nil when some step has no route: a panel
// the cta kernel does not hold, or an update that Ormqr's routing cannot run.
func orgqrBlockSteps[T Scalar](q *Queue, c *orgqrCall[T], stepTau uintptr) []orgqrBlockStep[T] {
	a := c.a
	m, n := a.rows, a.cols
	last := (n - 1) / orgqrBlockNB * orgqrBlockNB
	var steps []orgqrBlockStep[T]
	for i := last; i >= 0; i -= orgqrBlockNB {
		w := orgqrBlockNB
		if i == last {
			w = n - i
		}
		kp := min(max(c.k-i, 0), w)
		tau := &Vector[T]{q: q, mem: &allocation{q: q, ptr: stepTau, bytes: kp * a.batch * sizeOf[T]()}, n: kp * a.batch}
		st := orgqrBlockStep[T]{i: i, kp: kp, panel: &orgqrCall[T]{k: kp, a: a.sub(i, i, m-i, w), tau: tau}, above: a.sub(0, i, i, w)}
		if !orgqrCTACanRun(q, st.panel) {
			return nil
		}
		if i < last && kp > 0 {
			o := &ormqrCall[T]{side: Left, trans: NoTrans, k: kp, a: a.sub(i, i, m-i, kp), tau: tau, c: a.sub(i, i+w, m-i, n-i-w)}
			u := nested("ormqr", dtypeName[T](), o.key(), ormqrFamilies[T](), o, (*ormqrCall[T]).check)
			if !u.routed(q) {
				return nil
			}
			st.update = []nestedCall{u}
		}
		steps = append(steps, st)
	}
	return steps
}

// orgqrBlockedEmpty reports whether the call forms nothing.
func orgqrBlockedEmpty[T Scalar](c *orgqrCall[T]) bool {
	return c.a.cols == 0 || c.a.batch == 0
}

// orgqrBlockedCanRun: an empty call, or a route for every step.
func orgqrBlockedCanRun[T Scalar](q *Queue, c *orgqrCall[T]) bool {
	return orgqrBlockedEmpty(c) || orgqrBlockSteps(q, c, 0) != nil
}

// orgqrBlockedOwn is the workspace of a panel's tau.
func orgqrBlockedOwn[T Scalar](c *orgqrCall[T]) int {
	return carveBytes(orgqrBlockNB * c.a.batch * sizeOf[T]())
}

// orgqrBlockNestedBytes is the most workspace that a step's Ormqr leases.
func orgqrBlockNestedBytes[T Scalar](q *Queue, steps []orgqrBlockStep[T]) int {
	return stepsBytes(q, steps, func(st orgqrBlockStep[T]) []nestedCall { return st.update })
}

// orgqrBlockedBufferSize: a panel's tau, and past it the most that an Ormqr step leases.
func orgqrBlockedBufferSize[T Scalar](q *Queue, c *orgqrCall[T]) int {
	if orgqrBlockedEmpty(c) {
		return 0
	}
	return orgqrBlockedOwn(c) + orgqrBlockNestedBytes(q, orgqrBlockSteps(q, c, 0))
}

// orgqrBlocked runs the steps.
func orgqrBlocked[T Scalar](q *Queue, c *orgqrCall[T]) error {
	a := c.a
	if orgqrBlockedEmpty(c) {
		return nil
	}
	own := orgqrBlockedOwn(c)
	ws, err := q.scratch(own + orgqrBlockNestedBytes(q, orgqrBlockSteps(q, c, 0)))
	if err != nil {
		return err
	}
	steps := orgqrBlockSteps(q, c, ws)
	if steps == nil {
		return &NoRouteError{Op: "orgqr", DType: dtypeName[T](), Backend: q.dev.Backend.String(), Key: c.key().String()}
	}
	es := uintptr(sizeOf[T]())
	return holdScratch(q, own, func() error {
		for _, st := range steps {
			if err := copyMat[T](cudaOf(q), ws, 1, st.kp, c.tau.devPtr()+uintptr(st.i)*es, 1, c.k, 1, st.kp, a.batch, 0, 0); err != nil {
				return err
			}
			if err := runNested(q, st.update); err != nil {
				return err
			}
			if err := orgqrCTA(q, st.panel); err != nil {
				return err
			}
			if err := scaleMat(q, st.above, scaleAll, 0); err != nil {
				return err
			}
		}
		return nil
	})
}
