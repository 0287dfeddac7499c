//go:build cuda

package batchlas

// The "blocked" syev family: LAPACK's syev with a blocked sytrd/hetrd, for any order. The
// kernels of kernels/syev/syev_blocked.cu (one block per matrix) load the uplo triangle into
// a working copy as the lower triangle, reduce each panel of syevNB columns (latrd) and
// solve the tridiagonal form; the BLAS 3 steps go through the package's ops, routed as those
// ops route themselves: the trailing update A22 -= V W^H + W V^H of each panel by Syr2k
// (real) or Her2k (complex), and the back-transform Z = Q Z by Gemm, a panel's block
// reflector I - V T V^H at a time, the last panel first.

// syevNB is SYEV_NB of kernels/syev/syev_blocked.cu: the panel width.
const syevNB = 32

// syevBlockedMax is the largest order of the blocked family: its working copy, n columns of
// n|1 elements, is indexed in int by the kernels.
const syevBlockedMax = 46340

// syevBlockedSlot is one matrix's working copy and tridiagonal arrays: syev_layout at the
// kernels' block of syevCTAThreads(n) threads (syevCTAShared), rounded up to 256 bytes.
func syevBlockedSlot[T Scalar, R Real](n int) int { return alignUp(syevCTAShared[T, R](n), 256) }

// syevBlockedCanRun: a CUDA queue with 32-lane warps, n <= syevBlockedMax and a block per
// matrix within the grid; any order that the workspace holds.
func syevBlockedCanRun[T Scalar, R Real](q *Queue, c *syevCall[T, R]) bool {
	return q.dev.SubGroup == 32 && c.a.rows <= syevBlockedMax && c.a.batch <= gridXMax
}

// syevPanels is the number of panels of order n.
func syevPanels(n int) int { return (n + syevNB - 1) / syevNB }

// syevBlockedOwn is the family's own workspace, in the order syevBlockedStepsOf carves it:
// the working copies (a slot per matrix); W (n-by-nb); the panels' T (nb-by-nb each); X and
// Y of the back-transform (nb-by-n each, with vectors); the scaling exponents (an int per
// matrix); with bisect, the inverse-iteration arrays (syevInvSlot).
func syevBlockedOwn[T Scalar, R Real](n, batch int, jobz Job, bisect bool) []int {
	es := sizeOf[T]()
	own := []int{syevBlockedSlot[T, R](n) * batch, n * syevNB * es * batch, syevPanels(n) * syevNB * syevNB * es * batch}
	xy := 0
	if jobz == Vectors {
		xy = syevNB * n * es * batch
	}
	own = append(own, xy, xy, 4*batch)
	if bisect {
		own = append(own, syevInvSlot[T, R](n, jobz)*batch)
	}
	return own
}

// syevBlockedSteps are a call's operands over the workspace parts.
type syevBlockedSteps[T Scalar] struct {
	own               []int
	tile, w, tm, x, y *Matrix[T]
}

// syevBlockedStepsOf places the operands over the parts; with parts nil, over placeholders
// at address 0, which say what the sub-calls would choose and lease.
func syevBlockedStepsOf[T Scalar, R Real](q *Queue, c *syevCall[T, R], bisect bool, parts []uintptr) *syevBlockedSteps[T] {
	n, batch := c.a.rows, c.a.batch
	st := &syevBlockedSteps[T]{own: syevBlockedOwn[T, R](n, batch, c.jobz, bisect)}
	p := parts
	if p == nil {
		p = make([]uintptr, len(st.own))
	}
	st.tile = workMatrixStrided[T](q, p[0], n, n, n|1, syevBlockedSlot[T, R](n)/sizeOf[T](), batch)
	st.w = workMatrixStrided[T](q, p[1], n, syevNB, n, n*syevNB, batch)
	np := syevPanels(n)
	st.tm = workMatrixStrided[T](q, p[2], syevNB, np*syevNB, syevNB, np*syevNB*syevNB, batch)
	if c.jobz == Vectors {
		st.x = workMatrixStrided[T](q, p[3], syevNB, n, syevNB, syevNB*n, batch)
		st.y = workMatrixStrided[T](q, p[4], syevNB, n, syevNB, syevNB*n, batch)
	}
	return st
}

// syevBlockedBufferSize is the family's own workspace and, past it, the most that one of its
// sub-calls leases; none for an empty call.
func syevBlockedBufferSize[T Scalar, R Real](bisect bool) func(*Queue, *syevCall[T, R]) int {
	return func(q *Queue, c *syevCall[T, R]) int {
		if c.a.rows == 0 || c.a.batch == 0 {
			return 0
		}
		st := syevBlockedStepsOf(q, c, bisect, nil)
		return carveBytes(append(st.own, st.nested(q, c.a))...)
	}
}

// nested is the most workspace that one of the sub-calls on a leases.
func (st *syevBlockedSteps[T]) nested(q *Queue, a *Matrix[T]) int {
	need := 0
	n := a.rows
	for j := 0; j < n; j += syevNB {
		if b, err := st.trailing(q, j, true); err == nil {
			need = max(need, b)
		}
		if st.x == nil {
			continue
		}
		if b, err := st.back(q, a, j, true); err == nil {
			need = max(need, b)
		}
	}
	return need
}

// trailing is the trailing update after the panel at column j, A22 -= V W^H + W V^H on rows
// and columns j+nb .. n-1 (none after the last panel); with size, only the workspace it
// would lease.
func (st *syevBlockedSteps[T]) trailing(q *Queue, j int, size bool) (int, error) {
	n := st.tile.rows
	m := n - j - syevNB
	if m <= 0 {
		return 0, nil
	}
	v, w, c := st.tile.sub(j+syevNB, j, m, syevNB), st.w.sub(j+syevNB, 0, m, syevNB), st.tile.sub(j+syevNB, j+syevNB, m, m)
	r := rankArgs[T]{uplo: Lower, trans: NoTrans, a: v, b: w, c: c}
	if isComplex[T]() {
		h := &her2kCall[T]{r, T(-1), 1}
		if size {
			return bufferSizeNested(q, "her2k", dtypeName[T](), h.key(), her2kFamilies[T](), h)
		}
		if err := h.check(q); err != nil {
			return 0, err
		}
		return 0, dispatchNested(q, "her2k", dtypeName[T](), h.key(), her2kFamilies[T](), h)
	}
	s := &syr2kCall[T]{r, T(-1), 1}
	if size {
		return bufferSizeNested(q, "syr2k", dtypeName[T](), s.key(), syr2kFamilies[T](), s)
	}
	if err := s.check(q); err != nil {
		return 0, err
	}
	return 0, dispatchNested(q, "syr2k", dtypeName[T](), s.key(), syr2kFamilies[T](), s)
}

// back applies the block reflector of the panel at column j to Z in a: with V = A(j+1:n,
// j:j+kr) (explicit: syev_blocked.cu's syev_latrd) and its T, X = V^H Z(j+1:n, :), Y = T X, Z(j+1:n, :) -= V Y;
// with size, only the most workspace one of the three Gemm calls would lease.
func (st *syevBlockedSteps[T]) back(q *Queue, a *Matrix[T], j int, size bool) (int, error) {
	n := a.rows
	kr := min(syevNB, n-1-j)
	if kr <= 0 {
		return 0, nil
	}
	v, z := st.tile.sub(j+1, j, n-1-j, kr), a.sub(j+1, 0, n-1-j, n)
	x, y := st.x.sub(0, 0, kr, n), st.y.sub(0, 0, kr, n)
	need := 0
	for _, g := range []*gemmCall[T]{
		{transA: ConjTrans, transB: NoTrans, alpha: 1, a: v, b: z, c: x},
		{transA: NoTrans, transB: NoTrans, alpha: 1, a: st.tm.sub(0, j, kr, kr), b: x, c: y},
		{transA: NoTrans, transB: NoTrans, alpha: -1, beta: 1, a: v, b: y, c: z},
	} {
		if size {
			b, err := bufferSizeNested(q, "gemm", dtypeName[T](), g.key(), gemmFamilies[T](), g)
			if err != nil {
				return 0, err
			}
			need = max(need, b)
			continue
		}
		if err := g.check(q); err != nil {
			return 0, err
		}
		if err := dispatchNested(q, "gemm", dtypeName[T](), g.key(), gemmFamilies[T](), g); err != nil {
			return 0, err
		}
	}
	return need, nil
}

// syevBlocked runs the family (the steps at the top of kernels/syev/syev_blocked.cu): one
// lease for its own parts and its sub-calls' workspace, which those take past the parts
// (holdScratch). The tridiagonal solver is QL/QR (syev_blocked_solve_<dtype>) or, bisect,
// bisection and inverse iteration (syev_blocked_bisect_<dtype>).
func syevBlocked[T Scalar, R Real](bisect bool) func(*Queue, *syevCall[T, R]) error {
	return func(q *Queue, c *syevCall[T, R]) error {
		a, n := c.a, c.a.rows
		if done, err := quickReturn(q, n, n, a.batch, c.info); done {
			return err
		}
		st := syevBlockedStepsOf(q, c, bisect, nil)
		parts, err := carve(q, append(st.own, st.nested(q, a))...)
		if err != nil {
			return err
		}
		st = syevBlockedStepsOf(q, c, bisect, parts)
		e, dt := cudaOf(q), dtypeName[T]()
		grid, block := dim3{a.batch, 1, 1}, dim3{syevCTAThreads(n), 1, 1}
		slot, work, scal := uintptr(syevBlockedSlot[T, R](n)), parts[0], parts[5]
		return holdScratch(q, carveBytes(st.own...), func() error {
			if err := e.launch("syev_blocked", "syev_blocked_load_"+dt, grid, block, 0,
				a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(n), uintptr(a.batch), potrfLowerArg(c.uplo), work, slot, scal); err != nil {
				return err
			}
			for j := 0; j < n; j += syevNB {
				kb := syevNB
				if n-j <= syevNB {
					kb = n - j // the last panel takes the rest, its last column without a reflector
				}
				if err := e.launch("syev_blocked", "syev_blocked_panel_"+dt, grid, block, 0,
					uintptr(n), uintptr(j), uintptr(kb), uintptr(a.batch), work, slot,
					st.w.devPtr(), uintptr(st.w.strd), st.tm.devPtr(), uintptr(st.tm.strd)); err != nil {
					return err
				}
				if _, err := st.trailing(q, j, false); err != nil {
					return err
				}
			}
			var vectors uintptr
			if c.jobz == Vectors {
				vectors = 1
			}
			args := []uintptr{a.devPtr(), uintptr(a.ld), uintptr(a.strd), uintptr(n), uintptr(a.batch), c.w.devPtr(), c.info.devPtr(),
				vectors, work, slot, scal}
			kernel := "syev_blocked_solve_"
			if bisect {
				kernel = "syev_blocked_bisect_"
				args = append(args, parts[6], uintptr(syevInvSlot[T, R](n, c.jobz)))
			}
			if err := e.launch("syev_blocked", kernel+dt, grid, block, 0, args...); err != nil {
				return err
			}
			if c.jobz != Vectors {
				return nil
			}
			for j := (syevPanels(n) - 1) * syevNB; j >= 0; j -= syevNB {
				if _, err := st.back(q, a, j, false); err != nil {
					return err
				}
			}
			return nil
		})
	}
}
