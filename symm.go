package batchlas

// Symm computes, for each matrix b of the batch,
//
//	C_b = alpha A_b B_b + beta C_b  (side Left)    or    C_b = alpha B_b A_b + beta C_b  (side Right),
//
// where A_b is symmetric (complex symmetric, A = A^T with no conjugation, for complex types),
// B_b and C_b are m-by-n, and A_b is m-by-m (Left) or n-by-n (Right). Only the uplo triangle
// of A_b is read. C is overwritten; when beta is zero C is not read, so it may hold anything.
// As in BLAS, alpha = 0 gives C = beta C without reading A or B (and leaves C untouched when
// beta is 1). All three matrices must have the same batch count.
//
// Errors: a wrapped ErrInvalidArgument for a bad side or uplo, a nil or foreign matrix, a
// non-square a, shapes that do not conform or differing batch counts; *NoRouteError when no
// family of the build can run the call.
func Symm[T Scalar](q *Queue, side Side, uplo Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	s := &symmCall[T]{side: side, uplo: uplo, alpha: alpha, a: a, b: b, beta: beta, c: c}
	if err := s.check(q); err != nil {
		return err
	}
	return dispatch(q, "symm", dtypeName[T](), s.key(), symmFamilies[T](), s)
}

// SymmBufferSize is the workspace in bytes that Symm leases from q's arena for this call.
func SymmBufferSize[T Scalar](q *Queue, side Side, uplo Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) (int, error) {
	s := &symmCall[T]{side: side, uplo: uplo, alpha: alpha, a: a, b: b, beta: beta, c: c}
	if err := s.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "symm", dtypeName[T](), s.key(), symmFamilies[T](), s)
}

type symmCall[T Scalar] struct {
	side        Side
	uplo        Uplo
	alpha, beta T
	a, b, c     *Matrix[T]
}

func (s *symmCall[T]) check(q *Queue) error { return s.checkAs(q, "symm") }

// checkAs checks the arguments of symm or hemm, whose rules are the same.
func (s *symmCall[T]) checkAs(q *Queue, op string) error {
	if err := q.usable(op); err != nil {
		return err
	}
	if !s.side.valid() {
		return argErr(op, "side", "must be Left or Right, got %v", s.side)
	}
	if !s.uplo.valid() {
		return argErr(op, "uplo", "must be Lower or Upper, got %v", s.uplo)
	}
	for _, m := range []struct {
		name string
		m    *Matrix[T]
	}{{"a", s.a}, {"b", s.b}, {"c", s.c}} {
		if err := m.m.check(q, op, m.name); err != nil {
			return err
		}
	}
	a, b, c := s.a, s.b, s.c
	order := c.rows
	if s.side == Right {
		order = c.cols
	}
	switch {
	case a.rows != a.cols:
		return argErr(op, "a", "not square: %dx%d", a.rows, a.cols)
	case a.rows != order:
		return argErr(op, "a", "order %d != %d for side %v and c %dx%d", a.rows, order, s.side, c.rows, c.cols)
	case b.rows != c.rows || b.cols != c.cols:
		return argErr(op, "b", "%dx%d, but c is %dx%d", b.rows, b.cols, c.rows, c.cols)
	case a.batch != c.batch:
		return argErr(op, "a", "batch %d != batch %d of c", a.batch, c.batch)
	case b.batch != c.batch:
		return argErr(op, "b", "batch %d != batch %d of c", b.batch, c.batch)
	}
	return nil
}

func (s *symmCall[T]) key() callKey {
	return shapeKey("side", s.side, "uplo", s.uplo, "m", s.c.rows, "n", s.c.cols, "batch", s.c.batch)
}

func symmFamilies[T Scalar]() []family[symmCall[T]] {
	return []family[symmCall[T]]{
		{name: "tiled", canRun: symmTiledCanRun[T], launch: func(q *Queue, s *symmCall[T]) error { return symmTiled(q, s, false) }},
		vendorFamily(symmLAPACK[T](), symmCUDAVendor[T](), symmROCm[T]()),
		hostFamily(symmHost[T]),
	}
}
