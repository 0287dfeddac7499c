//go:build cuda

package batchlas

// geqrfBlockNB is the panel width of the "blocked" family.
const geqrfBlockNB = 32

// geqrfBlockStep is step j of the blocked Householder QR of c's m-by-n matrices, the panel
// of jb = min(geqrfBlockNB, min(m,n) - j) columns at column j:
//
//	A(j:m, j:j+jb) = Q_j R_j        (a single-kernel geqrf family, tau_j in workspace)
//	tau(j:j+jb) = tau_j             (copied into Geqrf's layout)
//	A(j:m, j+jb:n) = Q_j^H A(j:m, j+jb:n)   (Ormqr, in column chunks its routing takes)
type geqrfBlockStep[T Scalar] struct {
	j, jb   int
	panel   *geqrfCall[T]
	updates []nestedCall
}

// geqrfBlockSteps are the steps of c over the panels' tau at stepTau (a placeholder when 0,
// for canRun), or nil when some step has no route: no leaf for a panel, or a chunk of the
// update Ormqr cannot take even one column at a time.
func geqrfBlockSteps[T Scalar](q *Queue, c *geqrfCall[T], stepTau uintptr) []geqrfBlockStep[T] {
	a := c.a
	m, n := a.rows, a.cols
	mn := min(m, n)
	var steps []geqrfBlockStep[T]
	for j := 0; j < mn; j += geqrfBlockNB {
		jb := min(geqrfBlockNB, mn-j)
		p, err := a.View(j, j, m-j, jb)
		if err != nil {
			return nil
		}
		tau := &Vector[T]{q: q, mem: &allocation{q: q, ptr: stepTau, bytes: jb * a.batch * sizeOf[T]()}, n: jb * a.batch}
		st := geqrfBlockStep[T]{j: j, jb: jb, panel: &geqrfCall[T]{a: p, tau: tau}}
		if geqrfBlockLeaf(q, st.panel) == nil {
			return nil
		}
		// The widest chunks of the trailing columns that Ormqr's routing takes, halved
		// from all of them: the columns are updated independently.
		rest := n - j - jb
		for w := rest; rest > 0; w = (w + 1) / 2 {
			chunk := func(c0, cw int) nestedCall {
				cv, _ := a.View(j, j+jb+c0, m-j, cw)
				o := &ormqrCall[T]{side: Left, trans: ConjTrans, k: jb, a: p, tau: tau, c: cv}
				return nested("ormqr", dtypeName[T](), o.key(), ormqrFamilies[T](), o, (*ormqrCall[T]).check)
			}
			var us []nestedCall
			ok := true
			for c0 := 0; c0 < rest && ok; c0 += w {
				u := chunk(c0, min(w, rest-c0))
				ok = u.routed(q)
				us = append(us, u)
			}
			if ok {
				st.updates = us
				break
			}
			if w == 1 {
				return nil
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// geqrfBlockLeaf is the kernel family that factors a panel: the first of geqrf's
// single-kernel families that can run it, nil when none can.
func geqrfBlockLeaf[T Scalar](q *Queue, c *geqrfCall[T]) *family[geqrfCall[T]] {
	return firstRunnable(q, geqrfKernelFams[T](), c)
}

// geqrfBlockedCanRun: min(m,n) past one panel, and a route for every step.
func geqrfBlockedCanRun[T Scalar](q *Queue, c *geqrfCall[T]) bool {
	return min(c.a.rows, c.a.cols) > geqrfBlockNB && geqrfBlockSteps(q, c, 0) != nil
}

// geqrfBlockedBufferSize: the panels' tau, and past it the most that a panel's kernel or an
// Ormqr chunk leases.
func geqrfBlockedBufferSize[T Scalar](q *Queue, c *geqrfCall[T]) int {
	return carveBytes(geqrfBlockNB*c.a.batch*sizeOf[T]()) + geqrfBlockNestedBytes(q, geqrfBlockSteps(q, c, 0))
}

func geqrfBlockNestedBytes[T Scalar](q *Queue, steps []geqrfBlockStep[T]) int {
	need := 0
	for _, st := range steps {
		if f := geqrfBlockLeaf(q, st.panel); f != nil && f.bufferSize != nil {
			need = max(need, f.bufferSize(q, st.panel))
		}
		need = max(need, nestedBytes(q, st.updates))
	}
	return need
}

// geqrfBlockedLaunch runs the steps.
func geqrfBlockedLaunch[T Scalar](q *Queue, c *geqrfCall[T]) error {
	a := c.a
	own := carveBytes(geqrfBlockNB * a.batch * sizeOf[T]())
	ws, err := q.scratch(own + geqrfBlockNestedBytes(q, geqrfBlockSteps(q, c, 0)))
	if err != nil {
		return err
	}
	steps := geqrfBlockSteps(q, c, ws)
	if steps == nil {
		return &NoRouteError{Op: "geqrf", DType: dtypeName[T](), Backend: q.dev.Backend.String(), Key: c.key().String()}
	}
	mn, es := min(a.rows, a.cols), uintptr(sizeOf[T]())
	return holdScratch(q, own, func() error {
		for _, st := range steps {
			if err := geqrfBlockLeaf(q, st.panel).launch(q, st.panel); err != nil {
				return err
			}
			if err := copyMat[T](cudaOf(q), c.tau.devPtr()+uintptr(st.j)*es, 1, mn, ws, 1, st.jb, 1, st.jb, a.batch, 0, 0); err != nil {
				return err
			}
			if err := runNested(q, st.updates); err != nil {
				return err
			}
		}
		return nil
	})
}
