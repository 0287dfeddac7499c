package batchlas

// Gesv solves A_b X_b = B_b for each n-by-n matrix A_b of the batch a and n-by-nrhs B_b of
// b, through the LU factorization with partial pivoting A_b = P_b L_b U_b, as LAPACK's gesv:
// a is overwritten by the factors and ipiv by the pivots, exactly as Getrf leaves them, and
// b by the solutions X_b.
//
// ipiv must hold at least n*a.Batch() elements and info at least a.Batch(). On return
// info[b] is 0, or k > 0 when U_b(k,k) is exactly zero: A_b is singular, its factorization
// was completed but B_b is left unsolved (unchanged). The other matrices are unaffected.
//
// Errors: a wrapped ErrInvalidArgument for a nil, foreign or non-square a, a nil or foreign
// b, b with other than n rows or another batch size, or a short ipiv or info; Getrf's error
// naming the route when a pin of getrf refuses the matrix; *NoRouteError when no family of
// the build can run the call.
func Gesv[T Scalar](q *Queue, a *Matrix[T], ipiv *Vector[int32], b *Matrix[T], info *Vector[int32]) error {
	c := &gesvCall[T]{a: a, ipiv: ipiv, b: b, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	if err := factorPinRefusal(gesvFactor(q, c, false)); err != nil {
		return err
	}
	return dispatch(q, "gesv", dtypeName[T](), c.key(), gesvFamilies[T](), c)
}

// GesvBufferSize is the workspace in bytes that Gesv leases from q's arena for this call.
func GesvBufferSize[T Scalar](q *Queue, a *Matrix[T], ipiv *Vector[int32], b *Matrix[T], info *Vector[int32]) (int, error) {
	c := &gesvCall[T]{a: a, ipiv: ipiv, b: b, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	if err := factorPinRefusal(gesvFactor(q, c, false)); err != nil {
		return 0, err
	}
	return bufferSize(q, "gesv", dtypeName[T](), c.key(), gesvFamilies[T](), c)
}

type gesvCall[T Scalar] struct {
	a          *Matrix[T]
	ipiv, info *Vector[int32]
	b          *Matrix[T]
}

func (c *gesvCall[T]) check(q *Queue) error {
	const op = "gesv"
	if err := q.usable(op); err != nil {
		return err
	}
	if err := checkSolve(q, op, c.a, c.b); err != nil {
		return err
	}
	if err := c.ipiv.check(q, op, "ipiv", c.a.rows*c.a.batch); err != nil {
		return err
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *gesvCall[T]) key() callKey {
	return shapeKey("n", c.a.rows, "nrhs", c.b.cols, "batch", c.a.batch)
}

// gesvFamilies: every family factors as Getrf's own routing chooses (see factored), so that
// a and ipiv end exactly as Getrf leaves them, and solves the matrices whose info is 0.
// "regs" runs when that choice is getrf "regs", "cta" fuses when it is getrf "cta": their
// kernels factor with the same code, in the same block shape, and solve in the same pass.
// Otherwise "cta" solves after the factorization with getrs "cta"; "blocked" with getrs's
// own routing (its blocked family past the cta kernels' shared memory); "vendor" with the
// vendor library's getrs; "host" with the pure-Go one.
func gesvFamilies[T Scalar]() []family[gesvCall[T]] {
	return []family[gesvCall[T]]{
		{name: "regs", canRun: gesvRegsCanRun[T], launch: gesvRegs[T]},
		{name: "cta", canRun: gesvCTACanRun[T], bufferSize: gesvCTABufferSize[T], launch: gesvCTA[T]},
		{name: "blocked", canRun: gesvBlockedCanRun[T], bufferSize: gesvBlockedBufferSize[T], launch: gesvBlocked[T]},
		factored(vendorFamily(gesvLAPACK[T](), gesvCUDAVendor[T](), gesvROCm[T]()), gesvFactor[T]),
		factored(hostFamily(gesvHost[T]), gesvFactor[T]),
	}
}

// gesvFactor is the getrf family that Getrf's own routing chooses for c's matrix, and the
// getrf call it gets.
func gesvFactor[T Scalar](q *Queue, c *gesvCall[T], record bool) (*family[getrfCall[T]], *getrfCall[T], error) {
	gc := &getrfCall[T]{a: c.a, ipiv: c.ipiv, info: c.info}
	f, _, err := selectFamily(q, "getrf", dtypeName[T](), gc.key(), getrfFamilies[T](), gc, record)
	return f, gc, err
}

// gesvFactorName is the spelling of gesvFactor's family, "" when there is none.
func gesvFactorName[T Scalar](q *Queue, c *gesvCall[T]) string {
	if f, _, err := gesvFactor(q, c, false); err == nil {
		return f.candidate().Spelling.String()
	}
	return ""
}
