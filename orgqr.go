package batchlas

// Orgqr forms, in place, the m-by-n matrix Q_b with orthonormal columns (m >= n >= k) of
// each matrix of the batch a: the first n columns of
//
//	Q = H_1 H_2 ... H_k,    H_i = I - tau_i v_i v_i^H,
//
// the product of k Householder reflectors as Geqrf returns them (LAPACK's xORGQR and xUNGQR):
// v_i(i) = 1, v_i(i+1:m) is read from A(i+1:m, i), and v_i is zero above i. Only the part of
// the first k columns below the diagonal is read; all of each A_b is overwritten by Q_b.
// After Geqrf of an m-by-n matrix with m >= n, Orgqr with k = n gives the thin Q of
// A = Q R; to form the whole m-by-m Q, copy the reflectors into an m-by-m matrix.
//
// k is the number of reflectors per matrix and tau's per-matrix length: tau must hold at
// least k*a.Batch() elements, matrix b's scalars being tau[b*k : (b+1)*k] (Geqrf's layout
// when k = min(m, n)). Orgqr has no info; NaN in the input gives NaN in that matrix's Q.
//
// On the host, float64 runs gonum's Dorglq on the matrix in place (a column-major A read
// row-major is A^T, and the rows that Dorglq forms are the columns of Q; see Geqrf);
// complex128 runs the project's unblocked LAPACK zung2r; float32 and complex64 run those on
// a widened copy of each matrix.
//
// Errors: a wrapped ErrInvalidArgument for a nil, foreign or freed a, m < n, k outside
// [0, n], or a short tau; *NoRouteError when no family of the build can run the call.
func Orgqr[T Scalar](q *Queue, k int, a *Matrix[T], tau *Vector[T]) error {
	c := &orgqrCall[T]{k: k, a: a, tau: tau}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "orgqr", dtypeName[T](), c.key(), orgqrFamilies[T](), c)
}

// OrgqrBufferSize is the workspace in bytes that Orgqr leases from q's arena for this call.
func OrgqrBufferSize[T Scalar](q *Queue, k int, a *Matrix[T], tau *Vector[T]) (int, error) {
	c := &orgqrCall[T]{k: k, a: a, tau: tau}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "orgqr", dtypeName[T](), c.key(), orgqrFamilies[T](), c)
}

type orgqrCall[T Scalar] struct {
	k   int
	a   *Matrix[T]
	tau *Vector[T]
}

func (c *orgqrCall[T]) check(q *Queue) error {
	const op = "orgqr"
	if err := q.usable(op); err != nil {
		return err
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if c.a.rows < c.a.cols {
		return argErr(op, "a", "more columns than rows: %dx%d", c.a.rows, c.a.cols)
	}
	if c.k < 0 || c.k > c.a.cols {
		return argErr(op, "k", "k %d outside [0, cols %d]", c.k, c.a.cols)
	}
	return c.tau.check(q, op, "tau", c.k*c.a.batch)
}

func (c *orgqrCall[T]) key() callKey {
	return shapeKey("m", c.a.rows, "n", c.a.cols, "k", c.k, "batch", c.a.batch)
}

func orgqrFamilies[T Scalar]() []family[orgqrCall[T]] {
	return []family[orgqrCall[T]]{
		{name: "cta", canRun: orgqrCTACanRun[T], launch: orgqrCTA[T]},
		// blocked: panels of 32 columns, backwards, each formed by the cta kernel after
		// Ormqr has applied its reflectors to the columns right of it; past the shared
		// memory that holds a whole matrix.
		{name: "blocked", canRun: orgqrBlockedCanRun[T], bufferSize: orgqrBlockedBufferSize[T], launch: orgqrBlocked[T]},
		vendorFamily(orgqrLAPACK[T](), orgqrCUDAVendor[T](), orgqrROCm[T]()),
		hostFamily(orgqrHost[T]),
	}
}
