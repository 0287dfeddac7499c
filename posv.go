package batchlas

// Posv solves A_b X_b = B_b for each Hermitian (symmetric, for real types) positive definite
// n-by-n A_b of the batch a and n-by-nrhs B_b of b, through the Cholesky factorization, as
// LAPACK's posv: the named triangle of a is overwritten by the factor exactly as Potrf
// leaves it (the other triangle is neither read nor written) and b by the solutions X_b.
//
// info must hold at least a.Batch() elements. On return info[b] is 0, or k > 0 when the
// leading minor of order k of A_b is not positive definite: its factorization is incomplete
// and B_b is left unsolved (unchanged). The other matrices are unaffected.
//
// Errors: a wrapped ErrInvalidArgument for a bad uplo, a nil, foreign or non-square a, a nil
// or foreign b, b with other than n rows or another batch size, or a short info; Potrf's
// error naming the route when a pin of potrf refuses the matrix; *NoRouteError when no
// family of the build can run the call.
func Posv[T Scalar](q *Queue, uplo Uplo, a, b *Matrix[T], info *Vector[int32]) error {
	c := &posvCall[T]{uplo: uplo, a: a, b: b, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	if err := factorPinRefusal(posvFactor(q, c, false)); err != nil {
		return err
	}
	return dispatch(q, "posv", dtypeName[T](), c.key(), posvFamilies[T](), c)
}

// PosvBufferSize is the workspace in bytes that Posv leases from q's arena for this call.
func PosvBufferSize[T Scalar](q *Queue, uplo Uplo, a, b *Matrix[T], info *Vector[int32]) (int, error) {
	c := &posvCall[T]{uplo: uplo, a: a, b: b, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	if err := factorPinRefusal(posvFactor(q, c, false)); err != nil {
		return 0, err
	}
	return bufferSize(q, "posv", dtypeName[T](), c.key(), posvFamilies[T](), c)
}

type posvCall[T Scalar] struct {
	uplo Uplo
	a, b *Matrix[T]
	info *Vector[int32]
}

func (c *posvCall[T]) check(q *Queue) error {
	const op = "posv"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.uplo.valid() {
		return argErr(op, "uplo", "must be Lower or Upper, got %v", c.uplo)
	}
	if err := checkSolve(q, op, c.a, c.b); err != nil {
		return err
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *posvCall[T]) key() callKey {
	return shapeKey("uplo", c.uplo, "n", c.a.rows, "nrhs", c.b.cols, "batch", c.a.batch)
}

// posvFamilies are the ways to solve once Potrf's own routing has factored a (see factored):
// "cta" the native CUDA solve, "vendor" the vendor library's potrs, "host" the pure-Go one.
// Each solves only the matrices whose info is 0.
func posvFamilies[T Scalar]() []family[posvCall[T]] {
	return []family[posvCall[T]]{
		factored(family[posvCall[T]]{name: "cta", canRun: posvCTACanRun[T], launch: posvCTA[T]}, posvFactor[T]),
		factored(vendorFamily(posvLAPACK[T](), posvCUDAVendor[T](), posvROCm[T]()), posvFactor[T]),
		factored(hostFamily(posvHost[T]), posvFactor[T]),
	}
}

// posvFactor is the potrf family that Potrf's own routing chooses for c's matrix, and the
// potrf call it gets.
func posvFactor[T Scalar](q *Queue, c *posvCall[T], record bool) (*family[potrfCall[T]], *potrfCall[T], error) {
	pc := &potrfCall[T]{uplo: c.uplo, a: c.a, info: c.info}
	f, _, err := selectFamily(q, "potrf", dtypeName[T](), pc.key(), potrfFamilies[T](), pc, record)
	return f, pc, err
}
