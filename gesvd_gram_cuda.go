//go:build cuda

package batchlas

import "unsafe"

// gesvd "blocked:gram=1": block one-sided Jacobi ahead of blocked's kernel.
//
// W is A (m >= n), A^H (m < n) or, for qr=1, the R of W = Q R (the QR path's geqrf, as
// gesvd_cuda.go's gesvdQRSteps). A packed copy of W, mw-by-N per matrix, is split into 2P
// blocks of b columns (gesvdGramWidth); slots 2k and 2k+1 hold pair k of a round, so that the
// pairs of every matrix are one strided batch of mw-by-2b matrices (batch*P of them, stride
// 2b*mw: a matrix's stride N*mw is P pair strides). A round is, each step one call of a
// public op over that batch, routed as the op routes itself:
//
//	G = [Wi Wj]^H [Wi Wj]       Gemm, 2b-by-2b
//	G = Q diag(l) Q^H           Syev (Upper, Vectors; l ascending)
//	T = [Wi Wj] Q, TV = [Vi Vj] Q  Gemm, into a second copy of W and of V
//
// after which T's and TV's blocks move back one step along the round-robin ring
// (gesvdGramPermute), so that 2P-1 rounds meet every pair of blocks once: a sweep. After
// gesvdGramSweeps sweeps, W = A V holds nearly orthogonal columns and V (N-by-N, from the
// identity) is the product of the rotations; blocked's kernel (jacobi.cuh) then runs on W as
// it is: its sweeps are the convergence test and the final clean-up at xGESVJ's tolerance,
// its info is the call's (LAPACK's meaning as documented on Gesvd), it orders the singular
// values, forms and completes the left factor (and, for qr=1, [U_R 0; 0 I] for ormqr) and
// gives its own right factor V2 into workspace, and Gemm forms V V2 into vt (as
// (V V2)^H) or, when wide, into u. A matrix holding NaN or Inf carries it through the Gemm
// and Syev steps of its own pairs only; the kernel then finds it and writes NaN and info = N.
// The block sweeps are a fixed number: a device-side convergence test would need a kernel
// of its own and a read-back per sweep, and the kernel's test after them is exact anyway.
//
// Workspace (gesvdGramBufferSize): the QR path's parts (A^H when wide, tau) or none, the
// kernel's work arrays, W and T (mw*N each), V, TV and V2 (N*N each), G (4b^2 a pair), l and
// Syev's info (a pair each), one element holding 1; then the most that any sub-call leases
// past them (holdScratch).

// gesvdGramSweeps is the number of block sweeps: one-sided Jacobi converges quadratically
// once the columns are nearly orthogonal, and these leave the kernel its first sweep as the
// test (a rotation or none) for random matrices of order 128 to 512. To be tuned on the H200
// with bench/gesvd_gram.sh.
func gesvdGramSweeps[T Scalar]() int {
	if realName[T]() == "f32" {
		return 5
	}
	return 6
}

// gesvdGramWidth is the block width b for N columns: the widest of 32, 16 and 8 that splits
// N into 2P blocks with P >= 2 pairs (with one pair the kernel alone is as good); 0 when none
// does.
func gesvdGramWidth(n int) int {
	for _, b := range []int{32, 16, 8} {
		if n%(2*b) == 0 && n/(2*b) >= 2 {
			return b
		}
	}
	return 0
}

// gesvdGramSteps is the gram member's plan for a call: the QR path's steps (qr=1), the
// kernel's work arrays at ws, the packed batches and the sub-calls over them.
type gesvdGramSteps[T Scalar, R Real] struct {
	own         []int // workspace bytes of the parts, in order
	qr          *gesvdQRSteps[T]
	ws, one     uintptr
	bw, pairs   int
	w, t, v, tv *Matrix[T]
	v2          *Matrix[T] // the kernel's right factor
	gram, updW  *gemmCall[T]
	updV        *gemmCall[T]
	// The polar step and W again: X = (3I - V^H V)/2 into v2, V X into tv, W = A tv (A^H, or
	// R staged in t, as the input is) into w.
	polarX, polarV, reW *gemmCall[T]
	right               *gemmCall[T] // tv V2 into the output; nil without the right factor
	eig                 *syevCall[T, R]
}

// gesvdGramStepsOf builds the steps over the workspace parts; with parts nil, over
// placeholders at address 0, which say what the steps would choose and lease.
func gesvdGramStepsOf[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan, parts []uintptr) *gesvdGramSteps[T, R] {
	st := &gesvdGramSteps[T, R]{bw: gesvdGramWidth(p.n)}
	st.pairs = p.n / (2 * st.bw)
	batch, es, g := c.a.batch, sizeOf[T](), 2*st.bw
	part := func(bytes int) uintptr {
		st.own = append(st.own, bytes)
		if parts == nil {
			return 0
		}
		return parts[len(st.own)-1]
	}
	if p.qr {
		st.qr = gesvdQRStepsOf(q, c, p, parts) // its parts first, the kernel's work arrays last
		st.own, st.ws = st.qr.own, st.qr.ws
	} else {
		st.ws = part(gesvdBlockedBytes[T](p) * batch)
	}
	mat := func(rows, cols int) *Matrix[T] { return workMatrix[T](q, part(rows*cols*batch*es), rows, cols, batch) }
	st.w, st.t = mat(p.mw, p.n), mat(p.mw, p.n)
	st.v, st.tv, st.v2 = mat(p.n, p.n), mat(p.n, p.n), mat(p.n, p.n)
	gm := workMatrix[T](q, part(g*g*batch*st.pairs*es), g, g, batch*st.pairs)
	rs := sizeOf[R]()
	l := &Vector[R]{q: q, mem: &allocation{q: q, ptr: part(g * batch * st.pairs * rs), bytes: g * batch * st.pairs * rs}, n: g * batch * st.pairs}
	info := &Vector[int32]{q: q, mem: &allocation{q: q, ptr: part(4 * batch * st.pairs), bytes: 4 * batch * st.pairs}, n: batch * st.pairs}
	st.one = part(es)

	pw, pt, pv, ptv := st.pairView(st.w), st.pairView(st.t), st.pairView(st.v), st.pairView(st.tv)
	st.gram = &gemmCall[T]{transA: ConjTrans, transB: NoTrans, alpha: 1, a: pw, b: pw, c: gm}
	st.eig = &syevCall[T, R]{jobz: Vectors, uplo: Upper, a: gm, w: l, info: info}
	st.updW = &gemmCall[T]{transA: NoTrans, transB: NoTrans, alpha: 1, a: pw, b: gm, c: pt}
	st.updV = &gemmCall[T]{transA: NoTrans, transB: NoTrans, alpha: 1, a: pv, b: gm, c: ptv}
	st.polarX = &gemmCall[T]{transA: ConjTrans, transB: NoTrans, alpha: -0.5, a: st.v, b: st.v, beta: 1.5, c: st.v2}
	st.polarV = &gemmCall[T]{transA: NoTrans, transB: NoTrans, alpha: 1, a: st.v, b: st.v2, c: st.tv}
	src, op := c.a, NoTrans
	switch {
	case p.qr:
		src = st.t
	case p.wide:
		op = ConjTrans
	}
	st.reW = &gemmCall[T]{transA: op, transB: NoTrans, alpha: 1, a: src, b: st.tv, c: st.w}
	switch {
	case !p.right:
	case p.wide: // u = V V2 (the kernel stores its right factor plain when wide)
		st.right = &gemmCall[T]{transA: NoTrans, transB: NoTrans, alpha: 1, a: st.tv, b: st.v2, c: c.u}
	default: // vt = V2^H V^H, V2^H as the kernel stores it
		st.right = &gemmCall[T]{transA: NoTrans, transB: ConjTrans, alpha: 1, a: st.v2, b: st.tv, c: c.vt}
	}
	return st
}

// pairView is a packed rows-by-N batch seen as its batch*P pairs of blocks, rows-by-2b each.
func (st *gesvdGramSteps[T, R]) pairView(m *Matrix[T]) *Matrix[T] {
	g := 2 * st.bw
	return &Matrix[T]{q: m.q, mem: m.mem, rows: m.rows, cols: g, ld: m.rows, strd: m.rows * g, batch: m.batch * st.pairs}
}

// gemms are the Gemm sub-calls.
func (st *gesvdGramSteps[T, R]) gemms() []*gemmCall[T] {
	g := []*gemmCall[T]{st.gram, st.updW, st.updV, st.polarX, st.polarV, st.reW}
	if st.right != nil {
		g = append(g, st.right)
	}
	return g
}

// routable: every sub-call has a family that can run it.
func (st *gesvdGramSteps[T, R]) routable(q *Queue) bool {
	for _, g := range st.gemms() {
		if f, _, _ := selectFamily(q, "gemm", dtypeName[T](), g.key(), gemmFamilies[T](), g, false); f == nil {
			return false
		}
	}
	f, _, _ := selectFamily(q, "syev", dtypeName[T](), st.eig.key(), syevFamilies[T, R](), st.eig, false)
	return f != nil
}

// nestedBytes is the most workspace that a sub-call leases.
func (st *gesvdGramSteps[T, R]) nestedBytes(q *Queue) int {
	need, _ := bufferSizeNested(q, "syev", dtypeName[T](), st.eig.key(), syevFamilies[T, R](), st.eig)
	for _, g := range st.gemms() {
		b, _ := bufferSizeNested(q, "gemm", dtypeName[T](), g.key(), gemmFamilies[T](), g)
		need = max(need, b)
	}
	if st.qr != nil {
		need = max(need, st.qr.nestedBytes(q))
	}
	return need
}

// gesvdGramCanRun: N splits into pairs of blocks, the QR path (qr=1) and every sub-call
// have a family.
func gesvdGramCanRun[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan) bool {
	if gesvdGramWidth(p.n) == 0 {
		return false
	}
	st := gesvdGramStepsOf(q, c, p, nil)
	if st.qr != nil {
		if f, _, _ := selectFamily(q, "geqrf", dtypeName[T](), st.qr.geqrf.key(), geqrfFamilies[T](), st.qr.geqrf, false); f == nil {
			return false
		}
		if o := st.qr.ormqr; o != nil {
			if f, _, _ := selectFamily(q, "ormqr", dtypeName[T](), o.key(), ormqrFamilies[T](), o, false); f == nil {
				return false
			}
		}
	}
	return st.routable(q)
}

func gesvdGramBufferSize[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan) int {
	st := gesvdGramStepsOf(q, c, p, nil)
	return carveBytes(st.own...) + st.nestedBytes(q)
}

// gesvdGram runs the gram member: one lease for its parts and its sub-calls' workspace,
// which the sub-calls take past the parts (holdScratch).
func gesvdGram[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan) error {
	st := gesvdGramStepsOf(q, c, p, nil)
	parts, err := carve(q, append(st.own, st.nestedBytes(q))...)
	if err != nil {
		return err
	}
	st = gesvdGramStepsOf(q, c, p, parts)
	return holdScratch(q, carveBytes(st.own...), func() error {
		if err := st.load(q, c, p); err != nil {
			return err
		}
		if err := st.eig.check(q); err != nil {
			return err
		}
		for sweep := 0; sweep < gesvdGramSweeps[T](); sweep++ {
			for r := 0; r < 2*st.pairs-1; r++ {
				if err := st.round(q); err != nil {
					return err
				}
			}
		}
		if err := st.polar(q, p); err != nil {
			return err
		}
		if err := gesvdJacobiLaunch(q, c, p, st.w, 0, st.v2, st.ws); err != nil {
			return err
		}
		if st.right != nil {
			if err := gemmNested(st.right).run(q); err != nil {
				return err
			}
		}
		if st.qr != nil {
			return st.qr.applyQ(q)
		}
		return nil
	})
}

// round is one round of a sweep: the Gram matrices of the pairs, their eigenvectors, the
// rotated pairs into T and TV, and their blocks moved back into W and V for the next round.
func (st *gesvdGramSteps[T, R]) round(q *Queue) error {
	if err := gemmNested(st.gram).run(q); err != nil {
		return err
	}
	if err := dispatchNested(q, "syev", dtypeName[T](), st.eig.key(), syevFamilies[T, R](), st.eig); err != nil {
		return err
	}
	if err := gemmNested(st.updW).run(q); err != nil {
		return err
	}
	if err := gemmNested(st.updV).run(q); err != nil {
		return err
	}
	e := cudaOf(q)
	if err := gesvdGramPermute(e, st.w, st.t, st.bw, st.pairs); err != nil {
		return err
	}
	return gesvdGramPermute(e, st.v, st.tv, st.bw, st.pairs)
}

// polar makes V orthonormal again and W = A V exactly: each round's rotation is unitary only
// to a few eps of Syev's and Gemm's rounding, and over the sweeps' rounds V drifts by their
// sum (about 5 N eps a sweep in float64 at N = 48), and W = A V (V^H V)^{-1} V^H with it. One
// Newton-Schulz step, V (3I - V^H V)/2, takes V to the nearest unitary matrix up to the
// square of that drift, and W is formed anew from the input; the kernel's sweeps then rotate
// away what that leaves of W's columns' non-orthogonality.
func (st *gesvdGramSteps[T, R]) polar(q *Queue, p jacobiPlan) error {
	e := cudaOf(q)
	if err := st.identity(e, st.v2); err != nil {
		return err
	}
	if err := gemmNested(st.polarX).run(q); err != nil {
		return err
	}
	if err := gemmNested(st.polarV).run(q); err != nil {
		return err
	}
	if p.qr {
		if err := st.upperR(e, st.t, p); err != nil {
			return err
		}
	}
	return gemmNested(st.reW).run(q)
}

// upperR stages the QR path's R (geqrf's upper triangle, zeros below) in dst.
func (st *gesvdGramSteps[T, R]) upperR(e *cudaEngine, dst *Matrix[T], p jacobiPlan) error {
	f := st.qr.geqrf.a
	if err := e.zero32(dst.devPtr(), dst.rows*dst.cols*dst.batch*sizeOf[T]()/4); err != nil {
		return err
	}
	return copyMat[T](e, dst.devPtr(), dst.ld, dst.strd, f.devPtr(), f.ld, f.strd, p.n, p.n, dst.batch, 0, copyUpper)
}

// identity sets the packed square batch m to the identity: cleared, then 1 copied onto the
// diagonal (a 1-by-N copy with leading dimension N+1 from the one element, read with leading
// dimension and stride 0).
func (st *gesvdGramSteps[T, R]) identity(e *cudaEngine, m *Matrix[T]) error {
	if err := e.zero32(m.devPtr(), m.rows*m.cols*m.batch*sizeOf[T]()/4); err != nil {
		return err
	}
	return copyMat[T](e, m.devPtr(), m.rows+1, m.strd, st.one, 0, 0, 1, m.cols, m.batch, 0, 0)
}

// load fills W (from A, A^H, or R after the QR path's geqrf) and sets V to the identity.
func (st *gesvdGramSteps[T, R]) load(q *Queue, c *gesvdCall[T, R], p jacobiPlan) error {
	e, a, w := cudaOf(q), c.a, st.w
	one := []T{1}
	if err := e.upload(st.one, unsafe.Slice((*byte)(unsafe.Pointer(&one[0])), sizeOf[T]())); err != nil {
		return err
	}
	if err := st.identity(e, st.v); err != nil {
		return err
	}
	mode := 0
	switch {
	case st.qr != nil:
		if err := st.qr.factor(q, a, p); err != nil {
			return err
		}
		return st.upperR(e, w, p)
	case p.wide:
		mode = copyTranspose | copyConj
	}
	return copyMat[T](e, w.devPtr(), w.ld, w.strd, a.devPtr(), a.ld, a.strd, w.rows, w.cols, a.batch, 0, mode)
}

// gesvdGramPermute moves the blocks of src (a packed rows-by-N batch, slot s the b columns
// from s*b, pair k the slots 2k and 2k+1: top t_k and bottom b_k) to dst one step along the
// ring t_1 .. t_{P-1}, b_{P-1} .. b_0 (t_0 stays), the round-robin order whose 2P-1 rounds
// pair every two blocks once. Two copies move every top one pair on and every bottom one
// pair back over the whole batch as one sequence of pairs; three per-matrix copies then
// overwrite the slots where that sequence crosses a matrix's ends: t_0 (kept), t_1 (from
// b_0) and b_{P-1} (from t_{P-1}).
func gesvdGramPermute[T Scalar](e *cudaEngine, dst, src *Matrix[T], bw, pairs int) error {
	rows, batch := src.rows, src.batch
	blk, es := rows*bw, sizeOf[T]()
	at := func(m *Matrix[T], slot int) uintptr { return m.devPtr() + uintptr(slot*blk*es) }
	seq, mat := 2*blk, src.strd
	for _, mv := range []struct {
		dst, src      uintptr
		stride, count int
	}{
		{at(dst, 2), at(src, 0), seq, batch*pairs - 1},       // t_k -> t_{k+1}
		{at(dst, 1), at(src, 3), seq, batch*pairs - 1},       // b_k -> b_{k-1}
		{at(dst, 0), at(src, 0), mat, batch},                 // t_0 stays
		{at(dst, 2), at(src, 1), mat, batch},                 // b_0 -> t_1
		{at(dst, 2*pairs-1), at(src, 2*pairs-2), mat, batch}, // t_{P-1} -> b_{P-1}
	} {
		if err := copyMat[T](e, mv.dst, rows, mv.stride, mv.src, rows, mv.stride, rows, bw, mv.count, 0, 0); err != nil {
			return err
		}
	}
	return nil
}
