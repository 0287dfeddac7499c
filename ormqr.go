package batchlas

// Ormqr overwrites each m-by-n matrix C_b of the batch c by
//
//	Q C    (side Left, trans NoTrans)       C Q    (side Right, trans NoTrans)
//	Q^H C  (side Left, trans ConjTrans)     C Q^H  (side Right, trans ConjTrans)
//
// where Q = H_1 H_2 ... H_k is the product of k Householder reflectors
// H_i = I - tau_i v_i v_i^H as Geqrf returns them (LAPACK's xORMQR and xUNMQR): v_i(i) = 1
// and v_i(i+1:nq) is read from A(i+1:nq, i) of the matching matrix of a. Q has order
// nq = m for Left and nq = n for Right, and a must be nq-by-at-least-k: only the part of its
// first k columns below the diagonal is read, and a is unchanged on return (gonum's float64
// kernel sets the diagonal to one and restores it, as LAPACK does). Trans means Q^T and is
// allowed only for the real types, where it equals ConjTrans.
//
// k is the number of reflectors per matrix and tau's per-matrix length: tau must hold at
// least k*a.Batch() elements, matrix b's scalars being tau[b*k : (b+1)*k] (Geqrf's layout
// when k = min of a's dimensions). a and c hold the same number of matrices. Ormqr has no
// info; NaN in the input gives NaN in that matrix's result.
//
// On the host, float64 runs gonum's Dormlq on the data in place (read row-major, C is C^T
// and the reflectors are those of an LQ factorization, so Q C = (C^T Q^T)^T becomes Dormlq
// from the other side with the same trans; see Geqrf); complex128 runs the project's
// unblocked LAPACK zunm2r; float32 and complex64 run those on widened copies of the
// reflectors, tau and C.
//
// Errors: a wrapped ErrInvalidArgument for a bad side or trans (Trans with a complex type),
// a nil, foreign or freed a or c, k outside [0, min(nq, a's columns)], a's rows not nq, a
// batch of c unlike a's, or a short tau; *NoRouteError when no family of the build can run
// the call.
func Ormqr[T Scalar](q *Queue, side Side, trans Transpose, k int, a *Matrix[T], tau *Vector[T], c *Matrix[T]) error {
	call := &ormqrCall[T]{side: side, trans: trans, k: k, a: a, tau: tau, c: c}
	if err := call.check(q); err != nil {
		return err
	}
	return dispatch(q, "ormqr", dtypeName[T](), call.key(), ormqrFamilies[T](), call)
}

// OrmqrBufferSize is the workspace in bytes that Ormqr leases from q's arena for this call.
func OrmqrBufferSize[T Scalar](q *Queue, side Side, trans Transpose, k int, a *Matrix[T], tau *Vector[T], c *Matrix[T]) (int, error) {
	call := &ormqrCall[T]{side: side, trans: trans, k: k, a: a, tau: tau, c: c}
	if err := call.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "ormqr", dtypeName[T](), call.key(), ormqrFamilies[T](), call)
}

type ormqrCall[T Scalar] struct {
	side  Side
	trans Transpose
	k     int
	a     *Matrix[T]
	tau   *Vector[T]
	c     *Matrix[T]
}

// nq is the order of Q.
func (c *ormqrCall[T]) nq() int {
	if c.side == Left {
		return c.c.rows
	}
	return c.c.cols
}

func (c *ormqrCall[T]) check(q *Queue) error {
	const op = "ormqr"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.side.valid() {
		return argErr(op, "side", "must be Left or Right, got %v", c.side)
	}
	if !c.trans.valid() {
		return argErr(op, "trans", "must be NoTrans, Trans or ConjTrans, got %v", c.trans)
	}
	if c.trans == Trans && isComplex[T]() {
		return argErr(op, "trans", "Trans (Q^T) is not allowed for complex %s; use ConjTrans", dtypeName[T]())
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if err := c.c.check(q, op, "c"); err != nil {
		return err
	}
	if c.k < 0 || c.k > c.a.cols || c.k > c.a.rows {
		return argErr(op, "k", "k %d outside [0, min(a's rows %d, cols %d)]", c.k, c.a.rows, c.a.cols)
	}
	if c.a.rows != c.nq() {
		dim := "rows"
		if c.side == Right {
			dim = "columns"
		}
		return argErr(op, "c", "%dx%d: side %v needs c's %s to equal the order of Q, a's rows %d", c.c.rows, c.c.cols, c.side, dim, c.a.rows)
	}
	if c.c.batch != c.a.batch {
		return argErr(op, "c", "batch %d != a's batch %d", c.c.batch, c.a.batch)
	}
	return c.tau.check(q, op, "tau", c.k*c.a.batch)
}

func (c *ormqrCall[T]) key() callKey {
	return shapeKey("side", c.side, "trans", c.trans, "m", c.c.rows, "n", c.c.cols, "k", c.k, "batch", c.c.batch)
}

func ormqrFamilies[T Scalar]() []family[ormqrCall[T]] {
	return []family[ormqrCall[T]]{
		{name: "cta", canRun: ormqrCTACanRun[T], launch: ormqrCTA[T]},
		// blocked: the reflectors in groups and C in chunks, each piece on the cta kernel;
		// past the shared memory that holds C and all the reflectors at once.
		{name: "blocked", canRun: ormqrBlockedCanRun[T], bufferSize: ormqrBlockedBufferSize[T], launch: ormqrBlocked[T]},
		vendorFamily(ormqrLAPACK[T](), ormqrCUDAVendor[T](), ormqrROCm[T]()),
		hostFamily(ormqrHost[T]),
	}
}
