package batchlas

// Gemv computes, for each matrix b of the batch,
//
//	y_b = alpha op(A_b) x_b + beta y_b,
//
// where op(A) is A, A^T or A^H as trans says (for real types ConjTrans is Trans). x and y
// are flat: x_b is x[b*nx : (b+1)*nx] and y_b is y[b*ny : (b+1)*ny], with nx = cols and
// ny = rows of A for NoTrans, the other way round otherwise. y is overwritten (elements past
// ny*batch are not touched); A and x are only read. As in BLAS, y is not read when beta is
// 0; alpha = 0 or an empty inner size (nx = 0) gives y = beta y without reading A or x (and
// leaves y untouched when beta is 1). y must not overlap A or x.
//
// Errors: a wrapped ErrInvalidArgument for a bad trans; a nil, freed or foreign a, x or y;
// x shorter than nx*batch or y shorter than ny*batch. *NoRouteError when no family of the
// build can run the call.
func Gemv[T Scalar](q *Queue, trans Transpose, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T]) error {
	g := &gemvCall[T]{trans: trans, alpha: alpha, a: a, x: x, beta: beta, y: y}
	if err := g.check(q); err != nil {
		return err
	}
	return dispatch(q, "gemv", dtypeName[T](), g.key(), gemvFamilies[T](), g)
}

// GemvBufferSize is the workspace in bytes that Gemv leases from q's arena for this call.
func GemvBufferSize[T Scalar](q *Queue, trans Transpose, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T]) (int, error) {
	g := &gemvCall[T]{trans: trans, alpha: alpha, a: a, x: x, beta: beta, y: y}
	if err := g.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "gemv", dtypeName[T](), g.key(), gemvFamilies[T](), g)
}

type gemvCall[T Scalar] struct {
	trans       Transpose
	alpha, beta T
	a           *Matrix[T]
	x, y        *Vector[T]
}

// lens are the per-matrix lengths of x and y.
func (g *gemvCall[T]) lens() (nx, ny int) {
	ny, nx = opSize(g.trans, g.a)
	return nx, ny
}

func (g *gemvCall[T]) check(q *Queue) error {
	const op = "gemv"
	if err := q.usable(op); err != nil {
		return err
	}
	if !g.trans.valid() {
		return argErr(op, "trans", "must be NoTrans, Trans or ConjTrans, got %v", g.trans)
	}
	if err := g.a.check(q, op, "a"); err != nil {
		return err
	}
	nx, ny := g.lens()
	if err := g.x.check(q, op, "x", batchLen(nx, g.a.batch)); err != nil {
		return err
	}
	return g.y.check(q, op, "y", batchLen(ny, g.a.batch))
}

// batchLen is the length of a flat vector of batch parts of n elements each; a length no
// vector can have when the product overflows.
func batchLen(n, batch int) int {
	if n > 0 && batch > maxElements/n {
		return maxElements + 1
	}
	return n * batch
}

func (g *gemvCall[T]) key() callKey {
	return shapeKey("trans", g.trans, "m", g.a.rows, "n", g.a.cols, "batch", g.a.batch)
}

func gemvFamilies[T Scalar]() []family[gemvCall[T]] {
	return []family[gemvCall[T]]{
		{name: "direct", canRun: gemvDirectCanRun[T], launch: gemvDirect[T]},
		vendorFamily(gemvLAPACK[T](), gemvCUDAVendor[T](), gemvROCm[T]()),
		hostFamily(gemvHost[T]),
	}
}
