package batchlas

import "runtime"

// spmmHost computes every C_b in bands of rows: the work items are the matrices, and where
// the batch is smaller than the cores, bands of rows of each matrix, so that a single large
// matrix still uses every core. Each element of C is a sum over its row's entries of op(A)
// (the stored rows, or for A^T and A^H the column order) in stored order: the same on every
// run.
func spmmHost[T Scalar](_ *Queue, s *spmmCall[T]) error {
	m, n, _ := s.dims()
	if m == 0 || n == 0 || s.a.batch == 0 {
		return nil
	}
	bands := 1
	if w := runtime.GOMAXPROCS(0); s.a.batch < w {
		bands = min(m, (w+s.a.batch-1)/s.a.batch)
	}
	hostBatch(s.a.batch*bands, func(lo, hi int) {
		acc := make([]T, n)
		for w := lo; w < hi; w++ {
			mat, band := w/bands, w%bands
			s.hostBand(mat, band*m/bands, (band+1)*m/bands, acc)
		}
	})
	return nil
}

// hostBand computes rows r0 to r1-1 of C_mat, with acc (n elements) as scratch. With op(B) =
// B, C goes four columns at a time, each element a gather from a column of B
// (hostBandGather); with op(B) = B^T or B^H, row by row, each entry adding a row of B
// (contiguous) into acc.
func (s *spmmCall[T]) hostBand(mat, r0, r1 int, acc []T) {
	m, n, k := s.dims()
	ptr, idx, val := s.rowsOf()
	ptr = ptr[mat*(m+1):]
	b, ldb, c, ldc := s.b.mat(mat), s.b.ld, s.c.mat(mat), s.c.ld
	cj, conjA, conjB := conjOf[T](), s.conjA(), s.conjB()
	alpha, beta := s.alpha, s.beta
	store := func(i, j int, x T) {
		if beta == 0 {
			c[i+j*ldc] = alpha * x
		} else {
			c[i+j*ldc] = alpha*x + beta*c[i+j*ldc]
		}
	}
	if alpha == 0 || k == 0 { // C = beta C; A and B are not read
		for j := range n {
			for i := r0; i < r1; i++ {
				store(i, j, 0)
			}
		}
		return
	}
	if s.transB == NoTrans {
		s.hostBandGather(mat, r0, r1, store)
		return
	}
	for i := r0; i < r1; i++ {
		clear(acc)
		for p := ptr[i]; p < ptr[i+1]; p++ {
			v, row := val[p], b[int(idx[p])*ldb:int(idx[p])*ldb+n]
			if conjA {
				v = cj(v)
			}
			if conjB {
				for j, x := range row {
					acc[j] += v * cj(x)
				}
				continue
			}
			for j, x := range row {
				acc[j] += v * x
			}
		}
		for j, x := range acc {
			store(i, j, x)
		}
	}
}

// hostBandGather computes rows r0 to r1-1 of C_mat for op(B) = B: for four columns of B at
// a time, each row's entries are read once and gathered from all four, so that the index
// and value loads, the bounds checks and the loop overhead are shared by four products (one
// column at a time ran at about 1 GFLOP/s, bench/results/cpu/spmm.jsonl). conj(A), only
// for complex A^H, is a branch that every entry takes the same way.
func (s *spmmCall[T]) hostBandGather(mat, r0, r1 int, store func(i, j int, x T)) {
	m, n, k := s.dims()
	ptr, idx, val := s.rowsOf()
	ptr = ptr[mat*(m+1):]
	b, ldb := s.b.mat(mat), s.b.ld
	cj, conjA := conjOf[T](), s.conjA()
	for j := 0; j < n; j += 4 {
		// The last group, when n is not a multiple of four, repeats its last column in the
		// unused lanes and stores only the columns it has.
		w := min(4, n-j)
		col := func(t int) []T { c := j + min(t, w-1); return b[c*ldb : c*ldb+k] }
		b0, b1, b2, b3 := col(0), col(1), col(2), col(3)
		for i := r0; i < r1; i++ {
			var x [4]T
			es, vs := idx[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]
			vs = vs[:len(es)]
			for p, e := range es {
				v := vs[p]
				if conjA {
					v = cj(v)
				}
				x[0] += v * b0[e]
				x[1] += v * b1[e]
				x[2] += v * b2[e]
				x[3] += v * b3[e]
			}
			for t := range w {
				store(i, j+t, x[t])
			}
		}
	}
}

// conjOf is the conjugate of T (the identity for real types, which never call it).
func conjOf[T Scalar]() func(T) T {
	var f any
	switch any(*new(T)).(type) {
	case complex64:
		f = conj[complex64]
	case complex128:
		f = conj[complex128]
	default:
		f = func(x T) T { return x }
	}
	return f.(func(T) T)
}
