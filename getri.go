package batchlas

// Getri computes the inverse of each n-by-n matrix A_b of the batch from the LU
// factorization A_b = P_b L_b U_b that Getrf left in a and ipiv, as LAPACK's getri: it
// inverts U_b and then solves inv(A_b) P_b L_b = inv(U_b). a is overwritten by inv(A_b).
//
// ipiv must hold at least n*a.Batch() elements, laid out as Getrf writes them (1-based); the
// host backend checks that every pivot lies in [1, n] before it writes anything and refuses
// the call otherwise. info must hold at least a.Batch() elements. On return info[b] is 0,
// or k > 0 when U_b(k,k) is exactly zero: A_b is singular and matrix b of a still holds its
// LU factors. The other matrices are unaffected.
//
// Errors: a wrapped ErrInvalidArgument for a nil, foreign or non-square a, or a short ipiv
// or info; *NoRouteError when no family of the build can run the call.
func Getri[T Scalar](q *Queue, a *Matrix[T], ipiv, info *Vector[int32]) error {
	c := &getriCall[T]{a: a, ipiv: ipiv, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "getri", dtypeName[T](), c.key(), getriFamilies[T](), c)
}

// GetriBufferSize is the workspace in bytes that Getri leases from q's arena for this call.
func GetriBufferSize[T Scalar](q *Queue, a *Matrix[T], ipiv, info *Vector[int32]) (int, error) {
	c := &getriCall[T]{a: a, ipiv: ipiv, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "getri", dtypeName[T](), c.key(), getriFamilies[T](), c)
}

type getriCall[T Scalar] struct {
	a          *Matrix[T]
	ipiv, info *Vector[int32]
}

func (c *getriCall[T]) check(q *Queue) error {
	const op = "getri"
	if err := q.usable(op); err != nil {
		return err
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if c.a.rows != c.a.cols {
		return argErr(op, "a", "not square: %dx%d", c.a.rows, c.a.cols)
	}
	if err := c.ipiv.check(q, op, "ipiv", c.a.rows*c.a.batch); err != nil {
		return err
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *getriCall[T]) key() callKey {
	return shapeKey("n", c.a.rows, "batch", c.a.batch)
}

func getriFamilies[T Scalar]() []family[getriCall[T]] {
	return []family[getriCall[T]]{
		{name: "cta", canRun: getriCTACanRun[T], launch: getriCTA[T]},
		// blocked: the inverses solved from identities in workspace by getrs's routing; past
		// the shared memory that holds the factors.
		{name: "blocked", canRun: getriBlockedCanRun[T], bufferSize: getriBlockedBufferSize[T], launch: getriBlocked[T]},
		vendorFamily(getriLAPACK[T](), getriCUDAVendor[T](), getriROCm[T]()),
		hostFamily(getriHost[T]),
	}
}
