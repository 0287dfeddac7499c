package batchlas

// Trmm computes, for each matrix b of the batch,
//
//	B_b = alpha op(A_b) B_b  (side Left)    or    B_b = alpha B_b op(A_b)  (side Right),
//
// in place, where op(A) is A, A^T or A^H as transA says (for real types ConjTrans is Trans),
// A_b is triangular as uplo says, of order m (Left) or n (Right), and B_b is m-by-n. Only the
// named triangle of A is read; with diag Unit its diagonal is taken as ones and not read
// either. As in BLAS, alpha = 0 sets B to zero without reading A or B. A must not overlap B.
//
// Errors: a wrapped ErrInvalidArgument for a bad side, uplo, transA or diag; a nil, freed or
// foreign matrix; a non-square a or one whose order does not match b; batches of different
// sizes. *NoRouteError when no family of the build can run the call.
func Trmm[T Scalar](q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, alpha T, a, b *Matrix[T]) error {
	c := &trmmCall[T]{triCall[T]{side: side, uplo: uplo, trans: transA, diag: diag, alpha: alpha, a: a, b: b}}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "trmm", dtypeName[T](), c.key(), trmmFamilies[T](), c)
}

// TrmmBufferSize is the workspace in bytes that Trmm leases from q's arena for this call.
func TrmmBufferSize[T Scalar](q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, alpha T, a, b *Matrix[T]) (int, error) {
	c := &trmmCall[T]{triCall[T]{side: side, uplo: uplo, trans: transA, diag: diag, alpha: alpha, a: a, b: b}}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "trmm", dtypeName[T](), c.key(), trmmFamilies[T](), c)
}

type trmmCall[T Scalar] struct{ triCall[T] }

func (c *trmmCall[T]) check(q *Queue) error { return c.checkAs(q, "trmm") }

func trmmFamilies[T Scalar]() []family[trmmCall[T]] {
	return []family[trmmCall[T]]{
		{name: "triangular", canRun: trmmTriangularCanRun[T], launch: trmmTriangular[T]},
		vendorFamily(trmmLAPACK[T](), trmmCUDAVendor[T](), trmmROCm[T]()),
		hostFamily(trmmHost[T]),
	}
}
