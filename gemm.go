package batchlas

// Gemm computes, for each matrix b of the batch,
//
//	C_b = alpha op(A_b) op(B_b) + beta C_b,
//
// where op(X) is X, X^T or X^H as transA and transB say (for real types ConjTrans is
// Trans), op(A_b) is m-by-k, op(B_b) is k-by-n and C_b is m-by-n. C is overwritten; A and B
// are only read. As in BLAS, C is not read when beta is 0 (NaN in C does not reach the
// result); alpha = 0 or k = 0 gives C = beta C without reading A or B, and with beta = 1 as
// well leaves C untouched. C must not overlap A or B.
//
// Errors: a wrapped ErrInvalidArgument for a bad transA or transB; a nil, freed or foreign
// matrix; op(A), op(B) and C whose sizes do not agree; batches of different sizes.
// *NoRouteError when no family of the build can run the call.
func Gemm[T Scalar](q *Queue, transA, transB Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	g := &gemmCall[T]{transA: transA, transB: transB, alpha: alpha, a: a, b: b, beta: beta, c: c}
	if err := g.check(q); err != nil {
		return err
	}
	return dispatch(q, "gemm", dtypeName[T](), g.key(), gemmFamilies[T](), g)
}

// GemmBufferSize is the workspace in bytes that Gemm leases from q's arena for this call.
func GemmBufferSize[T Scalar](q *Queue, transA, transB Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) (int, error) {
	g := &gemmCall[T]{transA: transA, transB: transB, alpha: alpha, a: a, b: b, beta: beta, c: c}
	if err := g.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "gemm", dtypeName[T](), g.key(), gemmFamilies[T](), g)
}

type gemmCall[T Scalar] struct {
	transA, transB Transpose
	alpha, beta    T
	a, b, c        *Matrix[T]
}

// opSize is the size of op(x).
func opSize[T Scalar](t Transpose, x *Matrix[T]) (rows, cols int) {
	if t == NoTrans {
		return x.rows, x.cols
	}
	return x.cols, x.rows
}

// dims are the m, n and k of the product.
func (g *gemmCall[T]) dims() (m, n, k int) {
	m, k = opSize(g.transA, g.a)
	_, n = opSize(g.transB, g.b)
	return m, n, k
}

func (g *gemmCall[T]) check(q *Queue) error {
	const op = "gemm"
	if err := q.usable(op); err != nil {
		return err
	}
	if !g.transA.valid() {
		return argErr(op, "transA", "must be NoTrans, Trans or ConjTrans, got %v", g.transA)
	}
	if !g.transB.valid() {
		return argErr(op, "transB", "must be NoTrans, Trans or ConjTrans, got %v", g.transB)
	}
	if err := g.a.check(q, op, "a"); err != nil {
		return err
	}
	if err := g.b.check(q, op, "b"); err != nil {
		return err
	}
	if err := g.c.check(q, op, "c"); err != nil {
		return err
	}
	m, k := opSize(g.transA, g.a)
	kb, n := opSize(g.transB, g.b)
	switch {
	case kb != k:
		return argErr(op, "b", "op(B) is %dx%d but op(A) is %dx%d: inner sizes differ", kb, n, m, k)
	case g.c.rows != m || g.c.cols != n:
		return argErr(op, "c", "c is %dx%d, want op(A) op(B) of %dx%d", g.c.rows, g.c.cols, m, n)
	case g.b.batch != g.a.batch:
		return argErr(op, "b", "batch %d != batch of a %d", g.b.batch, g.a.batch)
	case g.c.batch != g.a.batch:
		return argErr(op, "c", "batch %d != batch of a %d", g.c.batch, g.a.batch)
	}
	return nil
}

func (g *gemmCall[T]) key() callKey {
	m, n, k := g.dims()
	return shapeKey("transa", g.transA, "transb", g.transB, "m", m, "n", n, "k", k, "batch", g.a.batch)
}

func gemmFamilies[T Scalar]() []family[gemmCall[T]] {
	return []family[gemmCall[T]]{
		{name: "small", canRun: gemmSmallCanRun[T], launch: gemmSmall[T]},
		{name: "tiled", canRun: gemmTiledCanRun[T], launch: gemmTiled[T]},
		vendorFamily(gemmLAPACK[T](), gemmCUDAVendor[T](), gemmROCm[T]()),
		hostFamily(gemmHost[T]),
	}
}
