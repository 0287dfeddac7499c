package batchlas

// Geqrf computes the QR factorization of each m-by-n matrix A_b of the batch a:
//
//	A_b = Q_b R_b,
//
// with Q_b m-by-m unitary (orthogonal for real types) and R_b m-by-n upper trapezoidal, for
// m >= n and m < n alike. On return the upper trapezoid of each A_b holds R_b and the part
// below the diagonal holds the Householder vectors; Q_b is not formed (Orgqr forms it, Ormqr
// applies it). The convention is LAPACK's (xGEQRF): with k = min(m, n),
//
//	Q = H_1 H_2 ... H_k,    H_i = I - tau_i v_i v_i^H,
//
// where v_i has v_i(0:i) = 0, v_i(i) = 1 (not stored) and v_i(i+1:m) stored in A(i+1:m, i).
// For complex types tau_i is complex, H_i is not Hermitian, and the diagonal of R is real.
// tau_i is 0 (H_i = I) or satisfies 1 <= re(tau_i) <= 2 and |tau_i - 1| <= 1.
//
// tau must hold at least k*a.Batch() elements; matrix b's scalars are tau[b*k : (b+1)*k].
// Geqrf has no info: a matrix holding NaN or Inf gives NaN in its R, reflectors or tau.
//
// On the host, float64 runs gonum's Dgelqf on the matrix in place (a column-major A read
// row-major is A^T, and the LQ factorization of A^T is the transpose of the QR factorization
// of A, with the same reflectors and tau); complex128 runs the project's unblocked
// Householder QR (LAPACK's zgeqr2). float32 and complex64 run the float64 and complex128
// code on a widened copy of each matrix: more accurate, and faster for complex64, whose
// products Go evaluates in float64 anyway.
//
// Errors: a wrapped ErrInvalidArgument for a nil, foreign or freed a, or a short tau;
// *NoRouteError when no family of the build can run the call.
func Geqrf[T Scalar](q *Queue, a *Matrix[T], tau *Vector[T]) error {
	c := &geqrfCall[T]{a: a, tau: tau}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "geqrf", dtypeName[T](), c.key(), geqrfFamilies[T](), c)
}

// GeqrfBufferSize is the workspace in bytes that Geqrf leases from q's arena for this call.
func GeqrfBufferSize[T Scalar](q *Queue, a *Matrix[T], tau *Vector[T]) (int, error) {
	c := &geqrfCall[T]{a: a, tau: tau}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "geqrf", dtypeName[T](), c.key(), geqrfFamilies[T](), c)
}

type geqrfCall[T Scalar] struct {
	a   *Matrix[T]
	tau *Vector[T]
}

func (c *geqrfCall[T]) check(q *Queue) error {
	const op = "geqrf"
	if err := q.usable(op); err != nil {
		return err
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	return c.tau.check(q, op, "tau", min(c.a.rows, c.a.cols)*c.a.batch)
}

func (c *geqrfCall[T]) key() callKey {
	return shapeKey("m", c.a.rows, "n", c.a.cols, "batch", c.a.batch)
}

func geqrfFamilies[T Scalar]() []family[geqrfCall[T]] {
	return append(geqrfKernelFams[T](),
		// blocked: panels of 32 columns on the kernel families, the trailing columns
		// updated by Ormqr; past the shared memory that holds a whole matrix.
		family[geqrfCall[T]]{name: "blocked", canRun: geqrfBlockedCanRun[T], bufferSize: geqrfBlockedBufferSize[T], launch: geqrfBlockedLaunch[T]},
		vendorFamily(geqrfLAPACK[T](), geqrfCUDAVendor[T](), geqrfROCm[T]()),
		hostFamily(geqrfHost[T]),
	)
}

// geqrfKernelFams are the native families that factor a matrix in one kernel.
func geqrfKernelFams[T Scalar]() []family[geqrfCall[T]] {
	return []family[geqrfCall[T]]{
		{name: "tiny", canRun: geqrfTinyCanRun[T], launch: geqrfTiny[T]},
		{name: "cta", canRun: geqrfCTACanRun[T], launch: geqrfCTA[T]},
	}
}
