package batchlas

// Potrs solves A_b X_b = B_b for each Hermitian (symmetric, for real types) positive
// definite n-by-n A_b of the batch, using the Cholesky factor that Potrf left in the named
// triangle of a:
//
//	X_b = L_b^-H L_b^-1 B_b  (uplo Lower)    or    X_b = U_b^-1 U_b^-H B_b  (uplo Upper).
//
// Only the named triangle of a is read and nothing of a is written; b is n-by-nrhs and is
// overwritten by X_b. As in LAPACK, a factor with a zero diagonal (Potrf's info > 0)
// divides by zero: check info first, or use Posv.
//
// Errors: a wrapped ErrInvalidArgument for a bad uplo, a nil, foreign or non-square a, a nil
// or foreign b, or b with other than n rows or another batch size; *NoRouteError when no
// family of the build can run the call.
func Potrs[T Scalar](q *Queue, uplo Uplo, a, b *Matrix[T]) error {
	c := &potrsCall[T]{uplo: uplo, a: a, b: b}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "potrs", dtypeName[T](), c.key(), potrsFamilies[T](), c)
}

// PotrsBufferSize is the workspace in bytes that Potrs leases from q's arena for this call.
func PotrsBufferSize[T Scalar](q *Queue, uplo Uplo, a, b *Matrix[T]) (int, error) {
	c := &potrsCall[T]{uplo: uplo, a: a, b: b}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "potrs", dtypeName[T](), c.key(), potrsFamilies[T](), c)
}

type potrsCall[T Scalar] struct {
	uplo Uplo
	a, b *Matrix[T]
}

func (c *potrsCall[T]) check(q *Queue) error {
	const op = "potrs"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.uplo.valid() {
		return argErr(op, "uplo", "must be Lower or Upper, got %v", c.uplo)
	}
	return checkSolve(q, op, c.a, c.b)
}

func (c *potrsCall[T]) key() callKey {
	return shapeKey("uplo", c.uplo, "n", c.a.rows, "nrhs", c.b.cols, "batch", c.a.batch)
}

func potrsFamilies[T Scalar]() []family[potrsCall[T]] {
	return []family[potrsCall[T]]{
		{name: "cta", canRun: potrsCTACanRun[T], launch: potrsCTA[T]},
		vendorFamily(potrsLAPACK[T](), potrsCUDAVendor[T](), potrsROCm[T]()),
		hostFamily(potrsHost[T]),
	}
}
