//go:build cuda

package batchlas

// potrfBlockNB is the block of the "blocked" family: its diagonal blocks are factored by the
// tiny or warp kernels, which take orders up to 64 for every dtype.
const potrfBlockNB = 64

// potrfBlockStep is step j of the right-looking blocked Cholesky of c's matrices, the
// diagonal block of order nb at (j, j) and the trailing rest of order r = n - j - nb:
//
//	lower: A_jj = L_jj L_jj^H; A_rj = A_rj L_jj^-H (Trsm); A_rr -= A_rj A_rj^H (Herk)
//	upper: A_jj = U_jj^H U_jj; A_jr = U_jj^-H A_jr (Trsm); A_rr -= A_jr^H A_jr (Herk)
type potrfBlockStep[T Scalar] struct {
	diag    *potrfCall[T] // the diagonal block, its info in the step's scratch (or c.info at j = 0)
	updates []nestedCall  // Trsm and Herk, none on the last step
}

// potrfBlockSteps are the steps of c, over info vectors at address stepInfo (placeholders
// when 0, for canRun): step 0 writes c's info, the others their own, which potrfBlocked
// folds into c's.
func potrfBlockSteps[T Scalar](q *Queue, c *potrfCall[T], stepInfo uintptr) ([]potrfBlockStep[T], error) {
	a, n := c.a, c.a.rows
	info := &Vector[int32]{q: q, mem: &allocation{q: q, ptr: stepInfo, bytes: 4 * a.batch}, n: a.batch}
	var steps []potrfBlockStep[T]
	for j := 0; j < n; j += potrfBlockNB {
		nb := min(potrfBlockNB, n-j)
		ajj, err := a.View(j, j, nb, nb)
		if err != nil {
			return nil, err
		}
		st := potrfBlockStep[T]{diag: &potrfCall[T]{uplo: c.uplo, a: ajj, info: info}}
		if j == 0 {
			st.diag.info = c.info
		}
		if r := n - j - nb; r > 0 {
			arr, err := a.View(j+nb, j+nb, r, r)
			if err != nil {
				return nil, err
			}
			tri := triCall[T]{side: Right, uplo: Lower, trans: ConjTrans, diag: NonUnit, alpha: 1, a: ajj}
			rank := rankArgs[T]{uplo: c.uplo, trans: NoTrans, c: arr}
			if c.uplo == Lower {
				tri.b, err = a.View(j+nb, j, r, nb)
			} else {
				tri.side, tri.uplo, rank.trans = Left, Upper, ConjTrans
				tri.b, err = a.View(j, j+nb, nb, r)
			}
			if err != nil {
				return nil, err
			}
			rank.a, rank.b = tri.b, tri.b
			st.updates = []nestedCall{trsmNested(&trsmCall[T]{tri}), herkNested(&herkCall[T]{rank, -1, 1})}
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// potrfBlockLeaf is the kernel family that factors a diagonal block: the first of potrf's
// single-kernel families that can run it, nil when none can.
func potrfBlockLeaf[T Scalar](q *Queue, c *potrfCall[T]) *family[potrfCall[T]] {
	return firstRunnable(q, potrfKernelFams[T](), c)
}

// potrfBlockedCanRun: n above one block, a leaf for every diagonal block, and
// a route for every Trsm and Herk step (their own families, as Trsm and Herk choose).
func potrfBlockedCanRun[T Scalar](q *Queue, c *potrfCall[T]) bool {
	if c.a.rows <= potrfBlockNB {
		return false
	}
	steps, err := potrfBlockSteps(q, c, 0)
	if err != nil {
		return false
	}
	for _, st := range steps {
		if potrfBlockLeaf(q, st.diag) == nil {
			return false
		}
		for _, u := range st.updates {
			if !u.routed(q) {
				return false
			}
		}
	}
	return true
}

// potrfBlockedBufferSize: the steps' info vector, and the most that a Trsm or Herk step
// leases past it.
func potrfBlockedBufferSize[T Scalar](q *Queue, c *potrfCall[T]) int {
	steps, err := potrfBlockSteps(q, c, 0)
	if err != nil {
		return 0
	}
	return carveBytes(4*c.a.batch) + potrfBlockNestedBytes(q, steps)
}

// potrfBlockNestedBytes is the most workspace that a Trsm or Herk step leases.
func potrfBlockNestedBytes[T Scalar](q *Queue, steps []potrfBlockStep[T]) int {
	return stepsBytes(q, steps, func(st potrfBlockStep[T]) []nestedCall { return st.updates })
}

// potrfBlocked runs the steps. A matrix that fails in a diagonal block keeps the info of its
// first failure (kernels/util/util.cu's info_step); its later steps compute on garbage that
// no one reads, as the other matrices of the batch go on.
func potrfBlocked[T Scalar](q *Queue, c *potrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	probe, err := potrfBlockSteps(q, c, 0)
	if err != nil {
		return err
	}
	own := carveBytes(4 * a.batch)
	ws, err := q.scratch(own + potrfBlockNestedBytes(q, probe))
	if err != nil {
		return err
	}
	steps, err := potrfBlockSteps(q, c, ws)
	if err != nil {
		return err
	}
	return holdScratch(q, own, func() error {
		for j, st := range steps {
			leaf := potrfBlockLeaf(q, st.diag)
			if leaf == nil {
				return &NoRouteError{Op: "potrf", DType: dtypeName[T](), Backend: q.dev.Backend.String(), Key: st.diag.key().String()}
			}
			if err := leaf.launch(q, st.diag); err != nil {
				return err
			}
			if j > 0 {
				const threads = 256
				if err := cudaOf(q).launch("util", "info_step", dim3{(a.batch + threads - 1) / threads, 1, 1}, dim3{threads, 1, 1}, 0,
					c.info.devPtr(), ws, uintptr(j*potrfBlockNB), uintptr(a.batch)); err != nil {
					return err
				}
			}
			if err := runNested(q, st.updates); err != nil {
				return err
			}
		}
		return nil
	})
}
