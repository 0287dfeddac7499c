//go:build cuda

package batchlas

import "fmt"

// getrfBlockNB is the panel width of the "blocked" family.
const getrfBlockNB = 32

// getrfPanelThreads is PANEL_THREADS of kernels/getrf/getrf_blocked.cu.
const getrfPanelThreads = 256

// getrfBlockStep is step j of the right-looking blocked LU of c's m-by-n matrices, the panel
// of jb = min(getrfBlockNB, min(m,n) - j) columns at column j and the rest r = n - j - jb:
//
//	P_j [A_jj; A_ij] = [L_jj; L_ij] U_jj   (getrf_panel: the panel's rows j..m-1)
//	the panel's interchanges on columns 0..j-1 and j+jb..n-1 (lu_laswp)
//	A_jr = L_jj^-1 A_jr                    (Trsm Left Lower NoTrans Unit)
//	A_ir -= L_ij A_jr                      (Gemm, rows i past the panel's diagonal block)
type getrfBlockStep[T Scalar] struct {
	j, jb   int
	panel   *Matrix[T]   // A(j:m, j:j+jb)
	swapped []*Matrix[T] // the columns outside the panel, all m rows
	updates []nestedCall // Trsm and Gemm, none where nothing lies right of the panel
}

// getrfBlockSteps are the steps of c.
func getrfBlockSteps[T Scalar](c *getrfCall[T]) ([]getrfBlockStep[T], error) {
	a := c.a
	m, n := a.rows, a.cols
	mn := min(m, n)
	var steps []getrfBlockStep[T]
	view := func(i, j, r, k int, err *error) *Matrix[T] {
		v, e := a.View(i, j, r, k)
		if *err == nil {
			*err = e
		}
		return v
	}
	for j := 0; j < mn; j += getrfBlockNB {
		var err error
		jb := min(getrfBlockNB, mn-j)
		st := getrfBlockStep[T]{j: j, jb: jb, panel: view(j, j, m-j, jb, &err)}
		if j > 0 {
			st.swapped = append(st.swapped, view(0, 0, m, j, &err))
		}
		if r := n - j - jb; r > 0 {
			st.swapped = append(st.swapped, view(0, j+jb, m, r, &err))
			ajr := view(j, j+jb, jb, r, &err)
			st.updates = append(st.updates, trsmNested(&trsmCall[T]{triCall[T]{side: Left, uplo: Lower, trans: NoTrans,
				diag: Unit, alpha: 1, a: view(j, j, jb, jb, &err), b: ajr}}))
			if below := m - j - jb; below > 0 {
				st.updates = append(st.updates, gemmNested(&gemmCall[T]{transA: NoTrans, transB: NoTrans, alpha: -1,
					a: view(j+jb, j, below, jb, &err), b: ajr, beta: 1, c: view(j+jb, j+jb, below, r, &err)}))
			}
		}
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// getrfBlockedCanRun: 32-lane warps, the batch within grid x, and a route
// for every Trsm and Gemm step (their own families, as Trsm and Gemm choose).
func getrfBlockedCanRun[T Scalar](q *Queue, c *getrfCall[T]) bool {
	if q.dev.SubGroup != 32 || c.a.batch > gridXMax {
		return false
	}
	steps, err := getrfBlockSteps(c)
	if err != nil {
		return false
	}
	for _, st := range steps {
		for _, u := range st.updates {
			if !u.routed(q) {
				return false
			}
		}
	}
	return true
}

// getrfBlockedBufferSize: the most that a Trsm or Gemm step leases.
func getrfBlockedBufferSize[T Scalar](q *Queue, c *getrfCall[T]) int {
	steps, err := getrfBlockSteps(c)
	if err != nil {
		return 0
	}
	return stepsBytes(q, steps, func(st getrfBlockStep[T]) []nestedCall { return st.updates })
}

// getrfBlocked runs the steps, info cleared first: getrf_panel sets a matrix's info at its
// first zero pivot only.
func getrfBlocked[T Scalar](q *Queue, c *getrfCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	steps, err := getrfBlockSteps(c)
	if err != nil {
		return err
	}
	e := cudaOf(q)
	if err := e.zero32(c.info.devPtr(), a.batch); err != nil {
		return err
	}
	mn := min(a.rows, a.cols)
	for _, st := range steps {
		p := st.panel
		if err := e.launch("getrf_blocked", "getrf_panel_"+dtypeName[T](), dim3{a.batch, 1, 1}, dim3{getrfPanelThreads, 1, 1}, 0,
			p.devPtr(), uintptr(p.ld), uintptr(p.strd), uintptr(p.rows), uintptr(p.cols), uintptr(a.batch),
			c.ipiv.devPtr(), uintptr(mn), uintptr(st.j), c.info.devPtr()); err != nil {
			return err
		}
		for _, s := range st.swapped {
			if err := luLaswp(q, s, c.ipiv.devPtr(), mn, st.j, st.j+st.jb, false); err != nil {
				return err
			}
		}
		if err := runNested(q, st.updates); err != nil {
			return err
		}
	}
	return nil
}

// luLaswp launches lu_laswp_<size> (kernels/getrf/getrf_blocked.cu): the interchanges k1,
// ..., k2-1 of each matrix's pivots (ipiv + b*pstride) on the columns of x, in reverse order
// when reverse; a thread per column, the columns of the batch in grid x.
func luLaswp[T Scalar](q *Queue, x *Matrix[T], ipiv uintptr, pstride, k1, k2 int, reverse bool) error {
	const threads = 128
	total := x.cols * x.batch
	if total == 0 || k2 <= k1 {
		return nil
	}
	rev := uintptr(0)
	if reverse {
		rev = 1
	}
	return cudaOf(q).launch("getrf_blocked", fmt.Sprintf("lu_laswp_%d", sizeOf[T]()), dim3{(total + threads - 1) / threads, 1, 1},
		dim3{threads, 1, 1}, 0, x.devPtr(), uintptr(x.ld), uintptr(x.strd), uintptr(x.cols), uintptr(x.batch),
		ipiv, uintptr(pstride), uintptr(k1), uintptr(k2), rev)
}
