package batchlas

// Gels solves, for each m-by-n matrix A_b of the batch a, the overdetermined or
// underdetermined system op(A_b) X_b = B_b in the least squares or minimum-norm sense, through
// the QR or LQ factorization of A_b, assuming A_b has full rank, as LAPACK's xGELS:
//
//   - trans NoTrans, m >= n: the least squares solution, min ||B - A X||;
//   - trans NoTrans, m < n: the minimum-norm solution of A X = B;
//   - trans Trans (ConjTrans), m >= n: the minimum-norm solution of A^H X = B;
//   - trans Trans (ConjTrans), m < n: the least squares solution, min ||B - A^H X||.
//
// Trans means A^T and is allowed only for the real types, where ConjTrans is the same; a
// complex type takes ConjTrans. b holds max(m, n)-by-nrhs matrices: on entry B_b in its
// first m rows (NoTrans) or n rows (Trans, ConjTrans), on return the solution X_b in its
// first n rows (NoTrans) or m rows (Trans, ConjTrans); the rows below the solution's, when
// there are any, are overwritten with intermediate values. Only the rows and columns of a
// and b are read and written, never the gaps between them.
//
// a is overwritten by the factorization: for m >= n, R of A_b = Q_b R_b on and above the
// diagonal (R^H R = A^H A) and Householder vectors below it, as Geqrf leaves them; for
// m < n, L of A_b = L_b Q_b on and below the diagonal (L L^H = A A^H) and Q_b's vectors
// along the rows to the right of it, as LAPACK's xGELQF leaves them.
//
// info must hold at least a.Batch() elements. On return info[b] is 0, or i > 0 when the
// i-th diagonal element of R_b (m >= n) or L_b (m < n) is exactly zero: A_b does not have
// full rank, and no solution is computed (B_b holds intermediate values). An A_b that is
// all zero has R_b(1,1) = 0 and reports 1; reference LAPACK instead returns X = 0 with info
// 0 for it, and the host vendor family follows Gels here, not LAPACK. The other matrices are
// unaffected. With nrhs = 0 nothing is computed: a is unchanged and info is 0. With m or n
// zero, info is 0 and the first max(m, n) rows of b are set to zero, the minimum-norm
// solution.
//
// The families: "host" (the project's QR kernels on the host, matrix by matrix), "vendor"
// (the system LAPACK's xGELS on the host; cublas<t>gelsBatched on CUDA, which takes trans
// NoTrans with m >= n only), and "qr", which runs Geqrf, Ormqr and Trsm, each routed as a call
// of its own, on host and CUDA queues (on CUDA, exactly where those ops have a family that
// runs the call).
//
// Errors: a wrapped ErrInvalidArgument for a bad trans (Trans with a complex type), a nil,
// foreign or freed a or b, b with other than max(m, n) rows or another batch size, or a short
// info; *NoRouteError when no family of the build can run the call.
func Gels[T Scalar](q *Queue, trans Transpose, a, b *Matrix[T], info *Vector[int32]) error {
	c := &gelsCall[T]{trans: trans, a: a, b: b, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "gels", dtypeName[T](), c.key(), gelsFamilies[T](), c)
}

// GelsBufferSize is the workspace in bytes that Gels leases from q's arena for this call.
func GelsBufferSize[T Scalar](q *Queue, trans Transpose, a, b *Matrix[T], info *Vector[int32]) (int, error) {
	c := &gelsCall[T]{trans: trans, a: a, b: b, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "gels", dtypeName[T](), c.key(), gelsFamilies[T](), c)
}

type gelsCall[T Scalar] struct {
	trans Transpose
	a, b  *Matrix[T]
	info  *Vector[int32]
}

func (c *gelsCall[T]) check(q *Queue) error {
	const op = "gels"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.trans.valid() {
		return argErr(op, "trans", "must be NoTrans, Trans or ConjTrans, got %v", c.trans)
	}
	if c.trans == Trans && isComplex[T]() {
		return argErr(op, "trans", "Trans (A^T) is not allowed for complex %s; use ConjTrans", dtypeName[T]())
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if err := c.b.check(q, op, "b"); err != nil {
		return err
	}
	if p := max(c.a.rows, c.a.cols); c.b.rows != p {
		return argErr(op, "b", "%d rows, want max(m, n) = %d for a of %dx%d", c.b.rows, p, c.a.rows, c.a.cols)
	}
	if c.b.batch != c.a.batch {
		return argErr(op, "b", "batch %d != batch of a %d", c.b.batch, c.a.batch)
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *gelsCall[T]) key() callKey {
	return shapeKey("trans", c.trans, "m", c.a.rows, "n", c.a.cols, "nrhs", c.b.cols, "batch", c.a.batch)
}

// shape is what every family derives from the call: the order p = max(m, n) of Q, the order
// r = min(m, n) of the triangular factor, and whether the problem is a least squares one
// (over: m >= n with NoTrans, or m < n with Trans) rather than a minimum-norm one.
func (c *gelsCall[T]) shape() (p, r int, over bool) {
	m, n := c.a.rows, c.a.cols
	return max(m, n), min(m, n), (m >= n) == (c.trans == NoTrans)
}

// trivial reports a call with nothing to factor: no matrices, no right-hand sides, or an
// empty A (then X = 0).
func (c *gelsCall[T]) trivial() bool {
	return c.a.batch == 0 || c.b.cols == 0 || min(c.a.rows, c.a.cols) == 0
}

func gelsFamilies[T Scalar]() []family[gelsCall[T]] {
	return []family[gelsCall[T]]{
		{name: "qr", backend: everyBackend, canRun: gelsQRCanRun[T], bufferSize: gelsQRBufferSize[T], launch: gelsQR[T]},
		vendorFamily(gelsLAPACK[T](), gelsCUDAVendor[T](), gelsROCm[T]()),
		hostFamily(gelsHost[T]),
	}
}
