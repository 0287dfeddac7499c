package batchlas

import selection "github.com/batchlas/batchlas/select"

// Potrf computes the Cholesky factorization of each Hermitian (symmetric, for real types)
// positive definite matrix A_b of the batch a:
//
//	A_b = L_b L_b^H  (uplo Lower)    or    A_b = U_b^H U_b  (uplo Upper).
//
// The named triangle of each A_b is overwritten by its factor; the other triangle is neither
// read nor written. The imaginary parts of the diagonal are taken as zero.
//
// info must hold at least a.Batch() elements. On return info[b] is 0 when matrix b was
// factored, and k > 0 when its leading minor of order k is not positive definite (or holds
// NaN); the factorization of that matrix is then incomplete and the others are unaffected.
//
// Errors: a wrapped ErrInvalidArgument for a bad uplo, a nil, foreign or non-square a, or a
// short info; *NoRouteError when no family of the build can run the call.
func Potrf[T Scalar](q *Queue, uplo Uplo, a *Matrix[T], info *Vector[int32]) error {
	c := &potrfCall[T]{uplo: uplo, a: a, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "potrf", dtypeName[T](), c.key(), potrfFamilies[T](), c)
}

// PotrfBufferSize is the workspace in bytes that Potrf leases from q's arena for this call.
func PotrfBufferSize[T Scalar](q *Queue, uplo Uplo, a *Matrix[T], info *Vector[int32]) (int, error) {
	c := &potrfCall[T]{uplo: uplo, a: a, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "potrf", dtypeName[T](), c.key(), potrfFamilies[T](), c)
}

type potrfCall[T Scalar] struct {
	uplo Uplo
	a    *Matrix[T]
	info *Vector[int32]
}

func (c *potrfCall[T]) check(q *Queue) error {
	const op = "potrf"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.uplo.valid() {
		return argErr(op, "uplo", "must be Lower or Upper, got %v", c.uplo)
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if c.a.rows != c.a.cols {
		return argErr(op, "a", "not square: %dx%d", c.a.rows, c.a.cols)
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *potrfCall[T]) key() callKey {
	return shapeKey("uplo", c.uplo, "n", c.a.rows, "batch", c.a.batch)
}

func potrfFamilies[T Scalar]() []family[potrfCall[T]] {
	return append(potrfKernelFams[T](),
		// blocked: a right-looking blocked factorization past one kernel's limits, its
		// diagonal blocks on the kernel families, its panels and updates on Trsm and Herk.
		family[potrfCall[T]]{name: "blocked", canRun: potrfBlockedCanRun[T], bufferSize: potrfBlockedBufferSize[T], launch: potrfBlocked[T]},
		vendorFamily(potrfLAPACK[T](), potrfCUDAVendor[T](), potrfROCm[T]()),
		hostFamily(potrfHost[T]),
	)
}

// potrfKernelFams are the native families that factor a matrix in one kernel.
func potrfKernelFams[T Scalar]() []family[potrfCall[T]] {
	return []family[potrfCall[T]]{
		{name: "tiny", canRun: potrfTinyCanRun[T], launch: potrfTiny[T]},
		{name: "warp", canRun: potrfWarpCanRun[T], launch: potrfWarp[T]},
		// cta:reg=0 updates the trailing tiles in shared memory (any n the shared memory
		// holds); cta:reg=1 keeps them in registers (n <= 112). A pin "cta" is the first.
		{name: "cta", fields: []selection.Field{{Name: "reg", Value: 0}}, canRun: potrfCTACanRun[T](false), launch: potrfCTA[T](false)},
		{name: "cta", fields: []selection.Field{{Name: "reg", Value: 1}}, canRun: potrfCTACanRun[T](true), launch: potrfCTA[T](true)},
	}
}
