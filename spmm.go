package batchlas

// Spmm computes, for each matrix b of the batch, the product of a sparse and a dense matrix
//
//	C_b = alpha op(A_b) op(B_b) + beta C_b,
//
// where A is a CSR batch, op(X) is X, X^T or X^H as transA and transB say (for real types
// ConjTrans is Trans), op(A_b) is m-by-k, op(B_b) is k-by-n and C_b is m-by-n. C is
// overwritten; A and B are only read. As in BLAS, A and B are not read when alpha is 0, C is
// not read when beta is 0 (NaN in C does not reach the result), and a matrix with no stored
// entries (or k = 0) gives C = beta C. Repeated entries of a row of A add up. C must not
// overlap B.
//
// The families: "host" on a host queue; on a CUDA queue "direct", a native kernel (a warp
// per row of C, deterministic for every transpose), and "vendor", cuSPARSE's SpMM, which
// runs only where it is known to be right: rows with strictly increasing column indices,
// the same nnz in every matrix, and neither a complex op(B) = B^H with one column (cuSPARSE
// leaves C unwritten) nor a complex128 N/N product with one column (cuSPARSE crashes). It
// makes one strided-batched call where every matrix has as many entries in each row as the
// first and B more than one column, and one call per matrix otherwise (cuSPARSE's batched
// CSR gets the other matrices wrong there).
//
// Errors: a wrapped ErrInvalidArgument for a bad transA or transB; a nil, freed or foreign
// CSR or matrix; op(A), op(B) and C whose sizes do not agree; batches of different sizes.
// *NoRouteError when no family of the build can run the call.
func Spmm[T Scalar](q *Queue, transA, transB Transpose, alpha T, a *CSR[T], b *Matrix[T], beta T, c *Matrix[T]) error {
	s := &spmmCall[T]{transA: transA, transB: transB, alpha: alpha, a: a, b: b, beta: beta, c: c}
	if err := s.check(q); err != nil {
		return err
	}
	return dispatch(q, "spmm", dtypeName[T](), s.key(), spmmFamilies[T](), s)
}

// SpmmBufferSize is the workspace in bytes that Spmm leases from q's arena for this call.
func SpmmBufferSize[T Scalar](q *Queue, transA, transB Transpose, alpha T, a *CSR[T], b *Matrix[T], beta T, c *Matrix[T]) (int, error) {
	s := &spmmCall[T]{transA: transA, transB: transB, alpha: alpha, a: a, b: b, beta: beta, c: c}
	if err := s.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "spmm", dtypeName[T](), s.key(), spmmFamilies[T](), s)
}

type spmmCall[T Scalar] struct {
	transA, transB Transpose
	alpha, beta    T
	a              *CSR[T]
	b, c           *Matrix[T]
}

// dims are the m, n and k of the product: op(A) is m-by-k, op(B) k-by-n.
func (s *spmmCall[T]) dims() (m, n, k int) {
	m, k = s.a.rows, s.a.cols
	if s.transA != NoTrans {
		m, k = k, m
	}
	_, n = opSize(s.transB, s.b)
	return m, n, k
}

func (s *spmmCall[T]) check(q *Queue) error {
	const op = "spmm"
	if err := q.usable(op); err != nil {
		return err
	}
	if !s.transA.valid() {
		return argErr(op, "transA", "must be NoTrans, Trans or ConjTrans, got %v", s.transA)
	}
	if !s.transB.valid() {
		return argErr(op, "transB", "must be NoTrans, Trans or ConjTrans, got %v", s.transB)
	}
	if err := s.a.check(q, op, "a"); err != nil {
		return err
	}
	if err := s.b.check(q, op, "b"); err != nil {
		return err
	}
	if err := s.c.check(q, op, "c"); err != nil {
		return err
	}
	m, n, k := s.dims()
	switch kb, _ := opSize(s.transB, s.b); {
	case kb != k:
		return argErr(op, "b", "op(B) is %dx%d but op(A) is %dx%d: inner sizes differ", kb, n, m, k)
	case s.c.rows != m || s.c.cols != n:
		return argErr(op, "c", "c is %dx%d, want op(A) op(B) of %dx%d", s.c.rows, s.c.cols, m, n)
	case s.b.batch != s.a.batch:
		return argErr(op, "b", "batch %d != batch of a %d", s.b.batch, s.a.batch)
	case s.c.batch != s.a.batch:
		return argErr(op, "c", "batch %d != batch of a %d", s.c.batch, s.a.batch)
	}
	return nil
}

// key: the mean nnz of a matrix stands for the work of a row, which m alone does not say.
func (s *spmmCall[T]) key() callKey {
	m, n, _ := s.dims()
	return shapeKey("transa", s.transA, "transb", s.transB, "m", m, "n", n, "nnz", s.a.meanNNZ(), "batch", s.a.batch)
}

// meanNNZ is the mean number of stored entries of a matrix, 0 for an empty batch.
func (a *CSR[T]) meanNNZ() int64 {
	if a.batch == 0 {
		return 0
	}
	return a.start[a.batch] / int64(a.batch)
}

// equalNNZ reports whether every matrix has the same number of stored entries.
func (a *CSR[T]) equalNNZ() bool {
	for b := 1; b < a.batch; b++ {
		if a.start[b+1]-a.start[b] != a.start[1] {
			return false
		}
	}
	return true
}

// conjA and conjB say whether op(A) and op(B) conjugate: ConjTrans of a complex type.
func (s *spmmCall[T]) conjA() bool { return s.transA == ConjTrans && isComplex[T]() }
func (s *spmmCall[T]) conjB() bool { return s.transB == ConjTrans && isComplex[T]() }

// rowsOf is the compressed form whose rows are op(A)'s: A's rows, or its column order for
// op(A) = A^T and A^H. ptr and idx index the batch's entry arrays.
func (s *spmmCall[T]) rowsOf() (ptr []int64, idx []int32, val []T) {
	if s.transA == NoTrans {
		return s.a.arr.rowPtr, s.a.arr.colIdx, s.a.arr.values
	}
	return s.a.arr.colPtr, s.a.arr.rowIdx, s.a.arr.valuesT
}

func spmmFamilies[T Scalar]() []family[spmmCall[T]] {
	return []family[spmmCall[T]]{
		{name: "direct", canRun: spmmDirectCanRun[T], launch: spmmDirect[T]},
		vendorFamily(spmmCUDAVendor[T]()),
		hostFamily(spmmHost[T]),
	}
}
