package batchlas

// Syrk computes the symmetric rank-k update of each matrix b of the batch:
//
//	C_b = alpha A_b A_b^T + beta C_b  (trans NoTrans, A_b n-by-k)
//	C_b = alpha A_b^T A_b + beta C_b  (trans Trans, A_b k-by-n),
//
// with no conjugation for complex types. C_b is n-by-n; only its uplo triangle is read and
// written, the other triangle is left untouched. When beta is zero C is not read; alpha = 0
// or k = 0 gives C = beta C without reading A (and leaves C untouched when beta is 1).
// ConjTrans is rejected for complex types (use Herk) and means Trans for real types, as in
// reference BLAS. a and c must have the same batch count.
//
// Errors: a wrapped ErrInvalidArgument for a bad uplo or trans, a nil or foreign matrix, a
// non-square c, an a that does not conform, or differing batch counts; *NoRouteError when no
// family of the build can run the call.
func Syrk[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a *Matrix[T], beta T, c *Matrix[T]) error {
	s := &syrkCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: a, c: c}, alpha, beta}
	if err := s.check(q); err != nil {
		return err
	}
	return dispatch(q, "syrk", dtypeName[T](), s.key(), syrkFamilies[T](), s)
}

// SyrkBufferSize is the workspace in bytes that Syrk leases from q's arena for this call.
func SyrkBufferSize[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a *Matrix[T], beta T, c *Matrix[T]) (int, error) {
	s := &syrkCall[T]{rankArgs[T]{uplo: uplo, trans: trans, a: a, b: a, c: c}, alpha, beta}
	if err := s.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "syrk", dtypeName[T](), s.key(), syrkFamilies[T](), s)
}

type syrkCall[T Scalar] struct {
	rankArgs[T]
	alpha, beta T
}

func (s *syrkCall[T]) check(q *Queue) error { return s.checkAs(q, "syrk", false) }

// kernel is the call as the native rank-k kernels take it.
func (s *syrkCall[T]) kernel() rankKernel[T] {
	return rankKernel[T]{r: &s.rankArgs, alpha: s.alpha, beta: s.beta}
}

func syrkFamilies[T Scalar]() []family[syrkCall[T]] {
	return append(rankNativeList((*syrkCall[T]).kernel),
		vendorFamily(syrkLAPACK[T](), syrkCUDAVendor[T](), syrkROCm[T]()),
		hostFamily(syrkHost[T]),
	)
}

// rankKernel is a call of the native rank-k kernels (syrk_cuda.go) for syrk, herk, syr2k
// and her2k: C = alpha P(A, B) + alpha2 P(B, A) + beta C, P(X, Y) = op(X) op(Y)^T (^H when
// herm), the second product only when two, alpha2 = conj(alpha) when herm (the kernel
// derives it); beta is real when herm.
type rankKernel[T Scalar] struct {
	r           *rankArgs[T]
	alpha, beta T
	herm, two   bool
}

// rankNativeList are the native families of a rank-k op: "gram" (one block a matrix,
// one tile covering C; n <= 128, 64 for complex types) and "triangular" (the tiles of C's
// triangle, any n). kernel gives a call's rankKernel.
func rankNativeList[T Scalar, C any](kernel func(*C) rankKernel[T]) []family[C] {
	var fams []family[C]
	for _, name := range []string{"gram", "triangular"} {
		fams = append(fams, family[C]{name: name,
			canRun: func(q *Queue, c *C) bool { return kernel(c).canRun(q, name) },
			launch: func(q *Queue, c *C) error { return kernel(c).launch(q, name) }})
	}
	return fams
}

// rankArgs holds the matrices and enums of the rank-k and rank-2k updates syrk, herk, syr2k
// and her2k; b is a itself for syrk and herk.
type rankArgs[T Scalar] struct {
	uplo    Uplo
	trans   Transpose
	a, b, c *Matrix[T]
}

// checkAs checks the arguments of op; herm says whether op is herk or her2k, for which a
// complex A may be conjugated but not plainly transposed.
func (r *rankArgs[T]) checkAs(q *Queue, op string, herm bool) error {
	if err := q.usable(op); err != nil {
		return err
	}
	if !r.uplo.valid() {
		return argErr(op, "uplo", "must be Lower or Upper, got %v", r.uplo)
	}
	if !r.trans.valid() {
		return argErr(op, "trans", "must be NoTrans, Trans or ConjTrans, got %v", r.trans)
	}
	if isComplex[T]() {
		allowed, refused := Trans, ConjTrans
		if herm {
			allowed, refused = ConjTrans, Trans
		}
		if r.trans == refused {
			return argErr(op, "trans", "must be NoTrans or %v for complex types, got %v", allowed, r.trans)
		}
	}
	for _, m := range []struct {
		name string
		m    *Matrix[T]
	}{{"a", r.a}, {"b", r.b}, {"c", r.c}} {
		if err := m.m.check(q, op, m.name); err != nil {
			return err
		}
	}
	a, b, c := r.a, r.b, r.c
	n := c.rows
	switch {
	case c.rows != c.cols:
		return argErr(op, "c", "not square: %dx%d", c.rows, c.cols)
	case r.trans == NoTrans && a.rows != n:
		return argErr(op, "a", "%d rows != order %d of c (trans %v)", a.rows, n, r.trans)
	case r.trans != NoTrans && a.cols != n:
		return argErr(op, "a", "%d columns != order %d of c (trans %v)", a.cols, n, r.trans)
	case b.rows != a.rows || b.cols != a.cols:
		return argErr(op, "b", "%dx%d, but a is %dx%d", b.rows, b.cols, a.rows, a.cols)
	case a.batch != c.batch:
		return argErr(op, "a", "batch %d != batch %d of c", a.batch, c.batch)
	case b.batch != c.batch:
		return argErr(op, "b", "batch %d != batch %d of c", b.batch, c.batch)
	}
	return nil
}

// order is the order n of C and the inner dimension k of the update.
func (r *rankArgs[T]) order() (n, k int) {
	if r.trans == NoTrans {
		return r.c.rows, r.a.cols
	}
	return r.c.rows, r.a.rows
}

func (r *rankArgs[T]) key() callKey {
	n, k := r.order()
	return shapeKey("uplo", r.uplo, "trans", r.trans, "n", n, "k", k, "batch", r.c.batch)
}
