//go:build cuda

package batchlas

import (
	"math/bits"
	"unsafe"
)

// The native CUDA gesvd families "jacobi" (kernels/gesvd/gesvd_jacobi.cu) and "blocked"
// (kernels/gesvd/gesvd_blocked.cu): one-sided Jacobi (kernels/gesvd/jacobi.cuh), a block per
// matrix, the matrix and its work arrays in shared memory (jacobi) or in global workspace
// (blocked, any shape). qr=0 decomposes A, or A^H when A is wide, as it is; qr=1 first
// factors the tall one of them, W = Q R, with geqrf, decomposes R = U_R S V^H, and forms W's
// left factor Q [U_R 0; 0 I] with ormqr, each step routed as that op routes itself. Each
// canRun is exactly what its launch accepts: a CUDA queue with 32-lane warps, the batch
// within grid x, for jacobi the kernel's block and shared memory within the device's
// limits, and for qr=1 a non-square A whose geqrf and ormqr calls have a family.

// Flags and the block's most threads, as in gesvd_jacobi.cu.
const (
	jacobiWide    = 1 // W = A^H: the kernel's left factor goes to vt, its right one to u
	jacobiAdjoint = 2 // the kernel loads A^H
	jacobiUpper   = 4 // the kernel loads the upper triangle (R of the QR path)
	jacobiRight   = 8 // the right factor is accumulated and stored
	jacobiThreads = 256
)

// jacobiPlan is how a jacobi launch decomposes a call: the kernel works on an mw-by-n W
// (mw = max(m, n), or n for the QR path, whose W is R), n = min(m, n); its left factor is
// mo-by-rl (mo = max(m, n), rl = 0, n or mo per the left job), its right factor n-by-n when
// right. wide is m < n: W is built from A^H and the factors trade places. global is the
// blocked family: the work arrays in workspace.
type jacobiPlan struct {
	global, qr, wide, right bool
	mw, n, mo, rl           int
}

func gesvdJacobiPlan[T Scalar, R Real](c *gesvdCall[T, R], k jacobiKind) jacobiPlan {
	m, n := c.a.rows, c.a.cols
	p := jacobiPlan{global: k.global, qr: k.qr, wide: m < n, mo: max(m, n), n: min(m, n)}
	jl, jr := c.jobu, c.jobvt
	if p.wide {
		jl, jr = jr, jl
	}
	_, p.rl, _, _ = svdShapes(jl, SVDNone, p.mo, p.n)
	p.right = jr != SVDNone
	p.mw = p.mo
	if k.qr {
		p.mw = p.n
	}
	return p
}

// gesvdJacobiShape is the kernel's block and the bytes of a matrix's work arrays for plan p,
// as jacobi.cuh lays them out: a group of G lanes a pair of columns, G at most 32 and at most
// mw rounded up to a power of two, and for jacobi the largest power of two with ceil(n/2)
// groups within jacobiThreads (ceil(n/2) <= jacobiThreads, see gesvdJacobiFits); W (ld
// mw|1), V (n*n when right), two mw vectors of T; n + mw + 32 reals; n + 1 ints.
func gesvdJacobiShape[T Scalar](p jacobiPlan) (threads, work int) {
	pairs := (p.n + 1) / 2
	g := min(32, 1<<bits.Len(uint(p.mw-1)))
	if !p.global {
		g = min(g, 1<<(bits.Len(uint(jacobiThreads/pairs))-1))
	}
	threads = min(jacobiThreads, (pairs*g+31)/32*32)
	v, rs := 0, sizeOf[T]()
	if p.right {
		v = p.n * p.n
	}
	if isComplex[T]() {
		rs /= 2
	}
	return threads, sizeOf[T]()*((p.mw|1)*p.n+v+2*p.mw) + rs*(p.n+p.mw+32) + 4*(p.n+1)
}

// gesvdJacobiFits: the pairs within one block and the shared memory within the device's.
// On an H200 (227 KB a block), square with the right factor: f32 up to n = 169, f64 and
// c64 up to 119, c128 up to 84; m-by-8 with it up to m = 5271, 2631, 2758 and 1375; further
// without it.
func gesvdJacobiFits[T Scalar](q *Queue, p jacobiPlan) bool {
	if (p.n+1)/2 > jacobiThreads {
		return false // and gesvdJacobiShape's shift would be negative
	}
	_, shared := gesvdJacobiShape[T](p)
	return shared <= q.dev.SharedMem
}

// gesvdBlockedBytes is the workspace of a matrix's work arrays in the blocked kernel, each
// matrix's aligned as carve aligns its parts.
func gesvdBlockedBytes[T Scalar](p jacobiPlan) int {
	_, work := gesvdJacobiShape[T](p)
	return alignUp(work, 256)
}

func gesvdJacobiCanRun[T Scalar, R Real](k jacobiKind) func(q *Queue, c *gesvdCall[T, R]) bool {
	return func(q *Queue, c *gesvdCall[T, R]) bool {
		m, n := c.a.rows, c.a.cols
		switch {
		case q.dev.SubGroup != 32 || c.a.batch > gridXMax || k.qr && m == n:
			return false
		case min(m, n) == 0:
			return true
		}
		p := gesvdJacobiPlan(c, k)
		if !k.global && !gesvdJacobiFits[T](q, p) {
			return false
		}
		if k.gram {
			return gesvdGramCanRun(q, c, p)
		}
		if !k.qr {
			return true
		}
		st := gesvdQRStepsOf(q, c, p, nil)
		if f, _, _ := selectFamily(q, "geqrf", dtypeName[T](), st.geqrf.key(), geqrfFamilies[T](), st.geqrf, false); f == nil {
			return false
		}
		if st.ormqr == nil {
			return true
		}
		f, _, _ := selectFamily(q, "ormqr", dtypeName[T](), st.ormqr.key(), ormqrFamilies[T](), st.ormqr, false)
		return f != nil
	}
}

// gesvdJacobiBufferSize: the identity staged for an SVDAll factor when k = 0 (svdEmpty);
// for the QR path its own parts (gesvdQRSteps) and the most that its geqrf or ormqr call
// leases past them; else blocked's work arrays, and none for jacobi.
func gesvdJacobiBufferSize[T Scalar, R Real](k jacobiKind) func(q *Queue, c *gesvdCall[T, R]) int {
	return func(q *Queue, c *gesvdCall[T, R]) int {
		switch {
		case c.a.batch == 0:
			return 0
		case min(c.a.rows, c.a.cols) == 0:
			return svdEmptyBytes(c)
		case k.gram:
			return gesvdGramBufferSize(q, c, gesvdJacobiPlan(c, k))
		case k.qr:
			st := gesvdQRStepsOf(q, c, gesvdJacobiPlan(c, k), nil)
			return carveBytes(st.own...) + st.nestedBytes(q)
		case k.global:
			return carveBytes(gesvdBlockedBytes[T](gesvdJacobiPlan(c, k)) * c.a.batch)
		}
		return 0
	}
}

func gesvdJacobi[T Scalar, R Real](k jacobiKind) func(q *Queue, c *gesvdCall[T, R]) error {
	return func(q *Queue, c *gesvdCall[T, R]) error {
		a := c.a
		switch {
		case a.batch == 0:
			return nil
		case min(a.rows, a.cols) == 0:
			return svdEmpty(q, c)
		}
		p := gesvdJacobiPlan(c, k)
		switch {
		case k.gram:
			return gesvdGram(q, c, p)
		case k.qr:
			return gesvdJacobiQR(q, c, p)
		case k.global:
			ws, err := carve(q, gesvdBlockedBytes[T](p)*a.batch)
			if err != nil {
				return err
			}
			return gesvdJacobiLaunch(q, c, p, a, jacobiLoad(p), gesvdRight(c, p), ws[0])
		}
		return gesvdJacobiLaunch(q, c, p, a, jacobiLoad(p), gesvdRight(c, p), 0)
	}
}

// jacobiLoad is how the kernel loads W from the matrix it is given: the upper triangle of
// the QR path's factored matrix, the conjugate transpose of a wide A, or A itself.
func jacobiLoad(p jacobiPlan) uintptr {
	switch {
	case p.qr:
		return jacobiUpper
	case p.wide:
		return jacobiAdjoint
	}
	return 0
}

// gesvdRight is the output of the kernel's right factor: vt, or u when wide.
func gesvdRight[T Scalar, R Real](c *gesvdCall[T, R], p jacobiPlan) *Matrix[T] {
	if p.wide {
		return c.u
	}
	return c.vt
}

// gesvdJacobiLaunch runs the kernel on w (a, the QR path's factored matrix, or gram's W),
// loaded as load says (jacobiLoad, or 0 for a W as it is), a block per matrix, the batch in
// grid x; the right factor goes to rm (stored as V^H, or plain when wide); blocked's work
// arrays at ws.
func gesvdJacobiLaunch[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan, w *Matrix[T], load uintptr, rm *Matrix[T], ws uintptr) error {
	flags := load
	lm := c.u
	if p.wide {
		flags |= jacobiWide
		lm = c.vt
	}
	if p.right {
		flags |= jacobiRight
	}
	lp, lld, ls := factorArgs(lm, p.rl > 0)
	rp, rld, rs := factorArgs(rm, p.right)
	threads, work := gesvdJacobiShape[T](p)
	args := []uintptr{w.devPtr(), uintptr(w.ld), uintptr(w.strd), uintptr(p.mw | p.n<<32), uintptr(p.mo | p.rl<<32), flags,
		c.s.devPtr(), c.info.devPtr(), lp, lld, ls, rp, rld, rs}
	mod := "gesvd_jacobi"
	if p.global {
		mod, work = "gesvd_blocked", 0
		args = append(args, ws, uintptr(gesvdBlockedBytes[T](p)))
	}
	return cudaOf(q).launch(mod, mod+"_"+dtypeName[T](), dim3{c.a.batch, 1, 1}, dim3{threads, 1, 1}, work, args...)
}

// factorArgs is a factor's address, ld and stride for the kernel; zeros when not stored.
func factorArgs[T Scalar](f *Matrix[T], stored bool) (ptr, ld, stride uintptr) {
	if !stored {
		return 0, 1, 0
	}
	return f.devPtr(), uintptr(f.ld), uintptr(f.strd)
}

// gesvdQRSteps is the QR path of a call: W = A (tall) or A^H (wide, copied to workspace),
// factored in place by geqrf with tau in workspace; the kernel on its R (blocked's work
// arrays in workspace past tau); then, when the left
// factor is asked for, ormqr multiplies it by Q: u = Q u from the left (tall), or
// vt = vt Q^H from the right (wide, where vt holds the left factor's conjugate transpose).
type gesvdQRSteps[T Scalar] struct {
	own   []int   // workspace bytes of A^H (wide only), tau and blocked's work arrays
	ws    uintptr // blocked's work arrays
	geqrf *geqrfCall[T]
	ormqr *ormqrCall[T] // nil without the left factor
}

// gesvdQRStepsOf builds the steps over the workspace parts; with parts nil, over
// placeholders at address 0, which say what the steps would choose and lease.
func gesvdQRStepsOf[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan, parts []uintptr) *gesvdQRSteps[T] {
	es, batch := sizeOf[T](), c.a.batch
	part := func(i int) uintptr {
		if parts == nil {
			return 0
		}
		return parts[i]
	}
	st := &gesvdQRSteps[T]{}
	w := c.a
	if p.wide {
		st.own = append(st.own, p.mo*p.n*batch*es)
		w = workMatrix[T](q, part(0), p.mo, p.n, batch)
	}
	st.own = append(st.own, p.n*batch*es)
	tau := &Vector[T]{q: q, mem: &allocation{q: q, ptr: part(len(st.own) - 1), bytes: p.n * batch * es}, n: p.n * batch}
	st.geqrf = &geqrfCall[T]{a: w, tau: tau}
	if p.global {
		st.own = append(st.own, gesvdBlockedBytes[T](p)*batch)
		st.ws = part(len(st.own) - 1)
	}
	switch {
	case p.rl == 0:
	case p.wide:
		st.ormqr = &ormqrCall[T]{side: Right, trans: ConjTrans, k: p.n, a: w, tau: tau, c: c.vt}
	default:
		st.ormqr = &ormqrCall[T]{side: Left, trans: NoTrans, k: p.n, a: w, tau: tau, c: c.u}
	}
	return st
}

// workMatrix is a packed rows-by-cols batch over workspace at ptr.
func workMatrix[T Scalar](q *Queue, ptr uintptr, rows, cols, batch int) *Matrix[T] {
	return workMatrixStrided[T](q, ptr, rows, cols, rows, rows*cols, batch)
}

// workMatrixStrided is a rows-by-cols batch with leading dimension ld and stride over
// workspace at ptr.
func workMatrixStrided[T Scalar](q *Queue, ptr uintptr, rows, cols, ld, stride, batch int) *Matrix[T] {
	return &Matrix[T]{q: q, mem: &allocation{q: q, ptr: ptr, bytes: stride * batch * sizeOf[T]()},
		rows: rows, cols: cols, ld: ld, strd: stride, batch: batch}
}

// nestedBytes is the most workspace the geqrf or ormqr call leases.
func (st *gesvdQRSteps[T]) nestedBytes(q *Queue) int {
	need, _ := bufferSizeNested(q, "geqrf", dtypeName[T](), st.geqrf.key(), geqrfFamilies[T](), st.geqrf)
	if st.ormqr != nil {
		o, _ := bufferSizeNested(q, "ormqr", dtypeName[T](), st.ormqr.key(), ormqrFamilies[T](), st.ormqr)
		need = max(need, o)
	}
	return need
}

// gesvdJacobiQR runs the QR path: one lease for its parts and its steps' workspace, which
// the steps take past the parts (holdScratch).
func gesvdJacobiQR[T Scalar, R Real](q *Queue, c *gesvdCall[T, R], p jacobiPlan) error {
	st := gesvdQRStepsOf(q, c, p, nil)
	parts, err := carve(q, append(st.own, st.nestedBytes(q))...)
	if err != nil {
		return err
	}
	st = gesvdQRStepsOf(q, c, p, parts)
	return holdScratch(q, carveBytes(st.own...), func() error {
		if err := st.factor(q, c.a, p); err != nil {
			return err
		}
		if err := gesvdJacobiLaunch(q, c, p, st.geqrf.a, jacobiLoad(p), gesvdRight(c, p), st.ws); err != nil {
			return err
		}
		return st.applyQ(q)
	})
}

// factor is the QR path's first step: W = A^H into workspace when wide, then geqrf on W.
func (st *gesvdQRSteps[T]) factor(q *Queue, a *Matrix[T], p jacobiPlan) error {
	if p.wide {
		w := st.geqrf.a
		if err := copyMat[T](cudaOf(q), w.devPtr(), w.ld, w.strd, a.devPtr(), a.ld, a.strd, w.rows, w.cols, a.batch, 0, copyTranspose|copyConj); err != nil {
			return err
		}
	}
	if err := st.geqrf.check(q); err != nil {
		return err
	}
	return dispatchNested(q, "geqrf", dtypeName[T](), st.geqrf.key(), geqrfFamilies[T](), st.geqrf)
}

// applyQ is the QR path's last step: the left factor multiplied by Q with ormqr, when asked
// for.
func (st *gesvdQRSteps[T]) applyQ(q *Queue) error {
	if st.ormqr == nil {
		return nil
	}
	if err := st.ormqr.check(q); err != nil {
		return err
	}
	return dispatchNested(q, "ormqr", dtypeName[T](), st.ormqr.key(), ormqrFamilies[T](), st.ormqr)
}

// svdEmptyBytes is the workspace of svdEmpty: the largest identity it stages.
func svdEmptyBytes[T Scalar, R Real](c *gesvdCall[T, R]) int {
	d := 0
	if c.jobu == SVDAll {
		d = c.u.rows
	}
	if c.jobvt == SVDAll {
		d = max(d, c.vt.rows)
	}
	return d * d * sizeOf[T]()
}

// svdEmpty is k = 0: info 0, and each requested SVDAll factor the identity.
func svdEmpty[T Scalar, R Real](q *Queue, c *gesvdCall[T, R]) error {
	e := cudaOf(q)
	if err := e.zero32(c.info.devPtr(), c.a.batch); err != nil {
		return err
	}
	for _, m := range c.emptyIdentities() {
		if err := deviceIdentity(q, m); err != nil {
			return err
		}
	}
	return nil
}

// deviceIdentity writes the identity into every matrix of the square m, staged in a
// workspace lease of its own (deviceIdentityAt).
func deviceIdentity[T Scalar](q *Queue, m *Matrix[T]) error {
	p, err := carve(q, m.rows*m.rows*sizeOf[T]())
	if err != nil {
		return err
	}
	return deviceIdentityAt(q, m, p[0])
}

// deviceIdentityAt writes the identity into every matrix of the square m: one packed
// identity is uploaded to the workspace at stage (rows*rows elements) and copied to each
// matrix with source stride 0.
func deviceIdentityAt[T Scalar](q *Queue, m *Matrix[T], stage uintptr) error {
	d := m.rows
	id := make([]T, d*d)
	for i := 0; i < d; i++ {
		id[i*d+i] = 1
	}
	e := cudaOf(q)
	if err := e.upload(stage, unsafe.Slice((*byte)(unsafe.Pointer(&id[0])), d*d*sizeOf[T]())); err != nil {
		return err
	}
	return copyMat[T](e, m.devPtr(), m.ld, m.strd, stage, d, 0, d, d, m.batch, 0, 0)
}
