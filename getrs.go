package batchlas

// Getrs solves op(A_b) X_b = B_b for each matrix of the batch, with op(A) = A, A^T or A^H
// (trans NoTrans, Trans or ConjTrans), using the LU factorization A_b = P_b L_b U_b that
// Getrf left in a and ipiv. a is n-by-n and is not written; b is n-by-nrhs and is
// overwritten by X_b. As in LAPACK, a singular U_b (Getrf's info > 0) divides by zero: check
// info first, or use Gesv.
//
// ipiv must hold at least n*a.Batch() elements, laid out as Getrf writes them (1-based).
// The host backend checks that every pivot lies in [1, n] before it writes anything and
// refuses the call otherwise; GPU backends do not read pivots before the launch.
//
// Errors: a wrapped ErrInvalidArgument for a bad trans, a nil, foreign or non-square a, a nil
// or foreign b, b with other than n rows or another batch size, or a short ipiv;
// *NoRouteError when no family of the build can run the call.
func Getrs[T Scalar](q *Queue, trans Transpose, a *Matrix[T], ipiv *Vector[int32], b *Matrix[T]) error {
	c := &getrsCall[T]{trans: trans, a: a, ipiv: ipiv, b: b}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "getrs", dtypeName[T](), c.key(), getrsFamilies[T](), c)
}

// GetrsBufferSize is the workspace in bytes that Getrs leases from q's arena for this call.
func GetrsBufferSize[T Scalar](q *Queue, trans Transpose, a *Matrix[T], ipiv *Vector[int32], b *Matrix[T]) (int, error) {
	c := &getrsCall[T]{trans: trans, a: a, ipiv: ipiv, b: b}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "getrs", dtypeName[T](), c.key(), getrsFamilies[T](), c)
}

type getrsCall[T Scalar] struct {
	trans Transpose
	a     *Matrix[T]
	ipiv  *Vector[int32]
	b     *Matrix[T]
}

func (c *getrsCall[T]) check(q *Queue) error {
	const op = "getrs"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.trans.valid() {
		return argErr(op, "trans", "must be NoTrans, Trans or ConjTrans, got %v", c.trans)
	}
	if err := checkSolve(q, op, c.a, c.b); err != nil {
		return err
	}
	return c.ipiv.check(q, op, "ipiv", c.a.rows*c.a.batch)
}

// checkSolve checks the matrices of a solve with the square a and the right-hand sides b, in
// the order of every op's checks: both matrices, then their shapes.
func checkSolve[T Scalar](q *Queue, op string, a, b *Matrix[T]) error {
	if err := a.check(q, op, "a"); err != nil {
		return err
	}
	if err := b.check(q, op, "b"); err != nil {
		return err
	}
	if a.rows != a.cols {
		return argErr(op, "a", "not square: %dx%d", a.rows, a.cols)
	}
	if b.rows != a.rows {
		return argErr(op, "b", "%d rows, want n = %d", b.rows, a.rows)
	}
	if b.batch != a.batch {
		return argErr(op, "b", "batch %d != batch of a %d", b.batch, a.batch)
	}
	return nil
}

func (c *getrsCall[T]) key() callKey {
	return shapeKey("trans", c.trans, "n", c.a.rows, "nrhs", c.b.cols, "batch", c.a.batch)
}

func getrsFamilies[T Scalar]() []family[getrsCall[T]] {
	return []family[getrsCall[T]]{
		{name: "cta", canRun: getrsCTACanRun[T], launch: getrsCTA[T]},
		// blocked: the interchanges by lu_laswp, the triangular solves by Trsm's routing;
		// past the shared memory that holds the factors.
		{name: "blocked", canRun: getrsBlockedCanRun[T], bufferSize: getrsBlockedBufferSize[T], launch: getrsBlocked[T]},
		vendorFamily(getrsLAPACK[T](), getrsCUDAVendor[T](), getrsROCm[T]()),
		hostFamily(getrsHost[T]),
	}
}
