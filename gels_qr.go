package batchlas

// The "qr" family runs Gels as LAPACK's xGELS does, from the library's own operations, each
// a call routed on its own (its pin, its tables, its families): Geqrf factors F = A (m >= n)
// or F = A^H (m < n, a temporary) as Q R; a small step sets info from R's diagonal; then
// either Ormqr applies Q^H to B and Trsm solves R X = B (least squares), or Trsm solves
// R^H Y = B, the rows below Y are cleared and Ormqr applies Q (minimum norm). Matrices whose
// info is not 0 go through the same steps and come out with Inf or NaN in B.
//
// Its temporaries (tau, A^H for m < n, and p zeros that clear rows on a GPU) come from the
// queue's arena on a GPU, after the part that the sub-calls lease from its start, so that they
// survive those leases: GelsBufferSize is that part plus the temporaries, and every lease of
// the sub-calls stays within what it already holds. On the host they come from the Go heap
// (the host families lease nothing). Like every family that enqueues several steps, it relies
// on the queue's order: a call from another goroutine on the same GPU queue that leases the
// arena between its steps would overwrite the temporaries.

// gelsPlan is the "qr" family's sub-calls for one call.
type gelsPlan[T Scalar] struct {
	f     *Matrix[T] // the p-by-r matrix factored: a, or the temporary A^H
	tau   *Vector[T]
	zeros *Vector[T] // p zeros (GPU queues)
	geqrf geqrfCall[T]
	ormqr ormqrCall[T]
	trsm  trsmCall[T]
}

// temps is the layout of the temporaries in elements of T, each part on a 256-byte
// boundary: tau at 0, A^H (when m < n) at adj, the zeros at zeros; and the total.
func (c *gelsCall[T]) temps() (adj, zeros, total int) {
	p, r, _ := c.shape()
	align := 256 / sizeOf[T]()
	up := func(x int) int { return (x + align - 1) / align * align }
	adj = up(r * c.a.batch)
	zeros = adj
	if c.a.rows < c.a.cols {
		zeros += up(p * r * c.a.batch)
	}
	return adj, zeros, zeros + up(p)
}

// plan builds the sub-calls over the temporaries at element offset 0 of mem (whose host data
// is data on a host queue). For choosing and sizing alone, mem is a's allocation: those
// look at shapes, and the vendor libraries' size queries take the addresses without reading
// them.
func (c *gelsCall[T]) plan(mem *allocation, data []T) *gelsPlan[T] {
	a, b := c.a, c.b
	m, n, nrhs, batch := a.rows, a.cols, b.cols, a.batch
	p, r, over := c.shape()
	oa, oz, _ := c.temps()
	vec := func(off, n int) *Vector[T] { return &Vector[T]{q: a.q, mem: mem, data: data, off: off, n: n} }
	pl := &gelsPlan[T]{f: a, tau: vec(0, r*batch), zeros: vec(oz, p)}
	if m < n {
		pl.f = &Matrix[T]{q: a.q, mem: mem, data: data, off: oa, rows: p, cols: r, ld: p, strd: p * r, batch: batch}
	}
	pl.geqrf = geqrfCall[T]{a: pl.f, tau: pl.tau}
	rt, top := sub(pl.f, r, r), sub(b, r, nrhs)
	if over {
		pl.ormqr = ormqrCall[T]{side: Left, trans: ConjTrans, k: r, a: pl.f, tau: pl.tau, c: b}
		pl.trsm = trsmCall[T]{triCall[T]{side: Left, uplo: Upper, trans: NoTrans, diag: NonUnit, alpha: 1, a: rt, b: top}}
	} else {
		pl.trsm = trsmCall[T]{triCall[T]{side: Left, uplo: Upper, trans: ConjTrans, diag: NonUnit, alpha: 1, a: rt, b: top}}
		pl.ormqr = ormqrCall[T]{side: Left, trans: NoTrans, k: r, a: pl.f, tau: pl.tau, c: b}
	}
	return pl
}

// sub is the leading rows-by-cols part of m, without the checks of View.
func sub[T Scalar](m *Matrix[T], rows, cols int) *Matrix[T] {
	v := *m
	v.rows, v.cols = rows, cols
	return &v
}

// subCalls chooses the family of each sub-call as its own routing would; it answers the
// workspace they lease, the largest of the three, or ok false when one has no family.
func (pl *gelsPlan[T]) subCalls(q *Queue) (bytes int, ok bool) {
	g, _, err := selectFamily(q, "geqrf", dtypeName[T](), pl.geqrf.key(), geqrfFamilies[T](), &pl.geqrf, false)
	if err != nil {
		return 0, false
	}
	o, _, err := selectFamily(q, "ormqr", dtypeName[T](), pl.ormqr.key(), ormqrFamilies[T](), &pl.ormqr, false)
	if err != nil {
		return 0, false
	}
	t, _, err := selectFamily(q, "trsm", dtypeName[T](), pl.trsm.key(), trsmFamilies[T](), &pl.trsm, false)
	if err != nil {
		return 0, false
	}
	bytes = max(familyBytes(q, g, &pl.geqrf), familyBytes(q, o, &pl.ormqr), familyBytes(q, t, &pl.trsm))
	return bytes, true
}

// familyBytes is the workspace that family f leases for c.
func familyBytes[C any](q *Queue, f *family[C], c *C) int {
	if f.bufferSize == nil {
		return 0
	}
	return f.bufferSize(q, c)
}

// gelsQRCanRun: a host queue, or a CUDA queue (whose steps are kernels of util), on which
// Geqrf, Ormqr and Trsm each have a family for the sub-call.
func gelsQRCanRun[T Scalar](q *Queue, c *gelsCall[T]) bool {
	if !q.isHost() && !gelsOnCUDA(q) {
		return false
	}
	if c.trivial() {
		return true
	}
	_, ok := c.plan(c.a.mem, nil).subCalls(q)
	return ok
}

// gelsQRBufferSize: nothing on the host; on a GPU the sub-calls' workspace, rounded up to
// 256 bytes, then the temporaries.
func gelsQRBufferSize[T Scalar](q *Queue, c *gelsCall[T]) int {
	if q.isHost() || c.a.batch == 0 {
		return 0
	}
	return gelsQRSubBytes(q, c) + c.tempBytes()
}

func (c *gelsCall[T]) tempBytes() int {
	_, _, total := c.temps()
	return total * sizeOf[T]()
}

// gelsQRSubBytes is the arena's part for the sub-calls, before the temporaries.
func gelsQRSubBytes[T Scalar](q *Queue, c *gelsCall[T]) int {
	if c.trivial() {
		return 0
	}
	bytes, _ := c.plan(c.a.mem, nil).subCalls(q)
	return (bytes + 255) / 256 * 256
}

func gelsQR[T Scalar](q *Queue, c *gelsCall[T]) error {
	if c.a.batch == 0 {
		return nil
	}
	pl, err := c.qrPlan(q)
	if err != nil {
		return err
	}
	if c.trivial() {
		if err := gelsZeroInfo(q, c.info, c.a.batch); err != nil || c.b.cols == 0 {
			return err
		}
		return gelsClear(q, c.b, pl.zeros)
	}
	return pl.run(q, c)
}

// qrPlan places the temporaries: leased from the arena past the sub-calls' part on a GPU,
// allocated on the Go heap on the host.
func (c *gelsCall[T]) qrPlan(q *Queue) (*gelsPlan[T], error) {
	_, _, total := c.temps()
	if q.isHost() {
		data := make([]T, total)
		return c.plan(&allocation{q: q, bytes: total * sizeOf[T]()}, data), nil
	}
	part := gelsQRSubBytes(q, c)
	base, err := gelsLease(q, part+total*sizeOf[T]())
	if err != nil {
		return nil, err
	}
	return c.plan(&allocation{q: q, ptr: base + uintptr(part), bytes: total * sizeOf[T]()}, nil), nil
}

// run is the family's sequence for a call with something to factor.
func (pl *gelsPlan[T]) run(q *Queue, c *gelsCall[T]) error {
	wide := c.a.rows < c.a.cols
	if wide {
		if err := gelsAdjoint(q, pl.f, c.a); err != nil {
			return err
		}
	}
	if err := Geqrf(q, pl.f, pl.tau); err != nil {
		return err
	}
	if err := gelsZeroDiag(q, pl.f, c.info); err != nil {
		return err
	}
	if err := pl.solve(q, c); err != nil {
		return err
	}
	if wide {
		return gelsAdjoint(q, c.a, pl.f)
	}
	return nil
}

// solve applies Q^H and solves with R (least squares), or solves with R^H, clears the rows
// below the solution and applies Q (minimum norm).
func (pl *gelsPlan[T]) solve(q *Queue, c *gelsCall[T]) error {
	o, t := &pl.ormqr, &pl.trsm
	_, r, over := c.shape()
	if over {
		if err := Ormqr(q, o.side, o.trans, o.k, o.a, o.tau, o.c); err != nil {
			return err
		}
		return Trsm(q, t.side, t.uplo, t.trans, t.diag, t.alpha, t.a, t.b)
	}
	if err := Trsm(q, t.side, t.uplo, t.trans, t.diag, t.alpha, t.a, t.b); err != nil {
		return err
	}
	if err := gelsClear(q, rowsFrom(c.b, r), pl.zeros); err != nil {
		return err
	}
	return Ormqr(q, o.side, o.trans, o.k, o.a, o.tau, o.c)
}

// rowsFrom is m from row i down, without the checks of View.
func rowsFrom[T Scalar](m *Matrix[T], i int) *Matrix[T] {
	v := *m
	v.off += i
	v.rows -= i
	return &v
}

// The steps of the family that are not operations of the library, on the queue's backend.

func gelsZeroInfo(q *Queue, info *Vector[int32], batch int) error {
	if q.isHost() {
		clear(info.host()[:batch])
		return nil
	}
	return zeroInfoCUDA(q, info, batch)
}

// gelsClear sets m's elements to zero; zeros holds at least m.rows zeros on a GPU (set here).
func gelsClear[T Scalar](q *Queue, m *Matrix[T], zeros *Vector[T]) error {
	if q.isHost() {
		gelsClearHost(m)
		return nil
	}
	return gelsClearCUDA(q, m, zeros.devPtr())
}

// gelsAdjoint sets dst = src^H.
func gelsAdjoint[T Scalar](q *Queue, dst, src *Matrix[T]) error {
	if q.isHost() {
		gelsAdjointHost(dst, src)
		return nil
	}
	return gelsAdjointCUDA(q, dst, src)
}

// gelsZeroDiag sets info[b] to the 1-based index of the first zero on the diagonal of f's
// matrix b, or 0.
func gelsZeroDiag[T Scalar](q *Queue, f *Matrix[T], info *Vector[int32]) error {
	if q.isHost() {
		gelsZeroDiagHost(f, info.host())
		return nil
	}
	return gelsZeroDiagCUDA(q, f, info)
}
