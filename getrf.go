package batchlas

import selection "github.com/batchlas/batchlas/select"

// Getrf computes the LU factorization with partial pivoting of each m-by-n matrix A_b of the
// batch a (rectangular allowed), as LAPACK's getrf:
//
//	A_b = P_b L_b U_b,
//
// with P_b a permutation, L_b m-by-min(m,n) unit lower triangular (lower trapezoidal when
// m > n) and U_b min(m,n)-by-n upper triangular (upper trapezoidal when m < n). A_b is
// overwritten by L_b below the diagonal (its unit diagonal is not stored) and U_b on and
// above it.
//
// The pivot of a column is its first element of largest |re| + |im| (LAPACK's i?amax), with
// one exception: the CUDA vendor family factors square matrices with cuBLAS's getrfBatched,
// which compares complex elements by |z|, so that among complex elements of equal
// |re| + |im| it may pick another (both are valid partial pivoting).
//
// ipiv must hold at least min(m,n)*a.Batch() elements; matrix b's pivots are
// ipiv[b*min(m,n) : (b+1)*min(m,n)], 1-based as in LAPACK: row k was interchanged with row
// ipiv[k] (k = 1, ..., min(m,n)), in that order, so P_b is the product of those swaps.
//
// info must hold at least a.Batch() elements. On return info[b] is 0, or k > 0 when U_b(k,k)
// is exactly zero: the factorization was completed, but U_b is singular and solving with it
// would divide by zero. A NaN is not an exact zero: it spreads through the factors and
// info stays 0, as in LAPACK. The other matrices are unaffected.
//
// Errors: a wrapped ErrInvalidArgument for a nil or foreign a, or a short ipiv or info;
// *NoRouteError when no family of the build can run the call.
func Getrf[T Scalar](q *Queue, a *Matrix[T], ipiv, info *Vector[int32]) error {
	c := &getrfCall[T]{a: a, ipiv: ipiv, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "getrf", dtypeName[T](), c.key(), getrfFamilies[T](), c)
}

// GetrfBufferSize is the workspace in bytes that Getrf leases from q's arena for this call.
func GetrfBufferSize[T Scalar](q *Queue, a *Matrix[T], ipiv, info *Vector[int32]) (int, error) {
	c := &getrfCall[T]{a: a, ipiv: ipiv, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "getrf", dtypeName[T](), c.key(), getrfFamilies[T](), c)
}

type getrfCall[T Scalar] struct {
	a          *Matrix[T]
	ipiv, info *Vector[int32]
}

func (c *getrfCall[T]) check(q *Queue) error {
	const op = "getrf"
	if err := q.usable(op); err != nil {
		return err
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if err := c.ipiv.check(q, op, "ipiv", min(c.a.rows, c.a.cols)*c.a.batch); err != nil {
		return err
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *getrfCall[T]) key() callKey {
	return shapeKey("m", c.a.rows, "n", c.a.cols, "batch", c.a.batch)
}

func getrfFamilies[T Scalar]() []family[getrfCall[T]] {
	return []family[getrfCall[T]]{
		{name: "tiny", canRun: getrfTinyCanRun[T], launch: getrfTiny[T]},
		// warp:smem=0 holds the matrix in registers (n <= 32, float32 64); warp:smem=1 in
		// shared memory, blocked (n <= 64). A pin "warp" is the first.
		{name: "warp", fields: []selection.Field{{Name: "smem", Value: 0}}, canRun: getrfWarpCanRun[T], launch: getrfWarp[T]},
		{name: "warp", fields: []selection.Field{{Name: "smem", Value: 1}}, canRun: getrfWarpSmemCanRun[T], launch: getrfWarpSmem[T]},
		{name: "regs", canRun: getrfRegsCanRun[T], launch: getrfRegs[T]},
		{name: "cta", canRun: getrfCTACanRun[T], launch: getrfCTA[T]},
		// blocked: panels of 32 columns of any height factored in global memory, the
		// updates on Trsm and Gemm; past the other kernels' rows and shared memory.
		{name: "blocked", canRun: getrfBlockedCanRun[T], bufferSize: getrfBlockedBufferSize[T], launch: getrfBlocked[T]},
		vendorFamily(getrfLAPACK[T](), getrfCUDAVendor[T](), getrfROCm[T]()),
		hostFamily(getrfHost[T]),
	}
}
