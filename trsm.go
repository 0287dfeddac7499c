package batchlas

// Trsm solves, for each matrix b of the batch, the triangular system
//
//	op(A_b) X_b = alpha B_b  (side Left)    or    X_b op(A_b) = alpha B_b  (side Right),
//
// where op(A) is A, A^T or A^H as transA says (for real types ConjTrans is Trans), A_b is
// triangular as uplo says, of order m (Left) or n (Right), and B_b is m-by-n. X overwrites
// B. Only the named triangle of A is read; with diag Unit its diagonal is taken as ones and
// not read either. As in BLAS, alpha = 0 sets B to zero without reading A or B. A singular
// A gives Inf or NaN in X, as in BLAS; it is not reported. A must not overlap B.
//
// Errors: a wrapped ErrInvalidArgument for a bad side, uplo, transA or diag; a nil, freed or
// foreign matrix; a non-square a or one whose order does not match b; batches of different
// sizes. *NoRouteError when no family of the build can run the call.
func Trsm[T Scalar](q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, alpha T, a, b *Matrix[T]) error {
	c := &trsmCall[T]{triCall[T]{side: side, uplo: uplo, trans: transA, diag: diag, alpha: alpha, a: a, b: b}}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "trsm", dtypeName[T](), c.key(), trsmFamilies[T](), c)
}

// TrsmBufferSize is the workspace in bytes that Trsm leases from q's arena for this call.
func TrsmBufferSize[T Scalar](q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, alpha T, a, b *Matrix[T]) (int, error) {
	c := &trsmCall[T]{triCall[T]{side: side, uplo: uplo, trans: transA, diag: diag, alpha: alpha, a: a, b: b}}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "trsm", dtypeName[T](), c.key(), trsmFamilies[T](), c)
}

type trsmCall[T Scalar] struct{ triCall[T] }

func (c *trsmCall[T]) check(q *Queue) error { return c.checkAs(q, "trsm") }

func trsmFamilies[T Scalar]() []family[trsmCall[T]] {
	return []family[trsmCall[T]]{
		{name: "cta", canRun: trsmCTACanRun[T], launch: trsmCTA[T]},
		// blocked: diagonal blocks of 64 on the cta kernel, the rest updated by Gemm; past
		// the shared memory that holds a whole triangle.
		{name: "blocked", canRun: trsmBlockedCanRun[T], bufferSize: trsmBlockedBufferSize[T], launch: trsmBlocked[T]},
		vendorFamily(trsmLAPACK[T](), trsmCUDAVendor[T](), trsmROCm[T]()),
		hostFamily(trsmHost[T]),
	}
}

// triCall holds the arguments of the triangular BLAS operations, Trsm and Trmm, which take
// the same arguments under the same rules.
type triCall[T Scalar] struct {
	side  Side
	uplo  Uplo
	trans Transpose
	diag  Diag
	alpha T
	a, b  *Matrix[T]
}

func (c *triCall[T]) checkAs(q *Queue, op string) error {
	if err := q.usable(op); err != nil {
		return err
	}
	switch {
	case !c.side.valid():
		return argErr(op, "side", "must be Left or Right, got %v", c.side)
	case !c.uplo.valid():
		return argErr(op, "uplo", "must be Lower or Upper, got %v", c.uplo)
	case !c.trans.valid():
		return argErr(op, "transA", "must be NoTrans, Trans or ConjTrans, got %v", c.trans)
	case !c.diag.valid():
		return argErr(op, "diag", "must be NonUnit or Unit, got %v", c.diag)
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if err := c.b.check(q, op, "b"); err != nil {
		return err
	}
	order, dim := c.b.rows, "rows"
	if c.side == Right {
		order, dim = c.b.cols, "cols"
	}
	switch {
	case c.a.rows != c.a.cols:
		return argErr(op, "a", "not square: %dx%d", c.a.rows, c.a.cols)
	case c.a.rows != order:
		return argErr(op, "a", "order %d != %s of b %d for side %v", c.a.rows, dim, order, c.side)
	case c.b.batch != c.a.batch:
		return argErr(op, "b", "batch %d != batch of a %d", c.b.batch, c.a.batch)
	}
	return nil
}

func (c *triCall[T]) key() callKey {
	return shapeKey("side", c.side, "uplo", c.uplo, "transa", c.trans, "diag", c.diag,
		"m", c.b.rows, "n", c.b.cols, "batch", c.b.batch)
}
