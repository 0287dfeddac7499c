package batchlas

import "runtime"

// spmmHost computes each row of every C_b on its own: the work items are the matrices, and
// where the batch is smaller than the cores, bands of rows of each matrix, so that a single
// large matrix still uses every core. Each row gathers its entries of op(A) (the stored rows,
// or for A^T and A^H the column order) into a row of sums, so every result is a fixed-order
// sum: the same on every run.
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
			for i := band * m / bands; i < (band+1)*m/bands; i++ {
				s.hostRow(mat, i, acc)
			}
		}
	})
	return nil
}

// hostRow computes row i of C_mat, with acc (n elements) as scratch.
func (s *spmmCall[T]) hostRow(mat, i int, acc []T) {
	m, n, _ := s.dims()
	c := s.c.mat(mat)[i:]
	clear(acc)
	if s.alpha != 0 {
		ptr, idx, val := s.rowsOf()
		b, ldb := s.b.mat(mat), s.b.ld
		cj, conjA, conjB := conjOf[T](), s.conjA(), s.conjB()
		for p := ptr[mat*(m+1)+i]; p < ptr[mat*(m+1)+i+1]; p++ {
			v, r := val[p], int(idx[p])
			if conjA {
				v = cj(v)
			}
			switch {
			case s.transB == NoTrans: // op(B)(r, j) = B[r + j*ldb]
				for j := range acc {
					acc[j] += v * b[r+j*ldb]
				}
			case conjB:
				row := b[r*ldb : r*ldb+n]
				for j, x := range row {
					acc[j] += v * cj(x)
				}
			default: // op(B)(r, j) = B[j + r*ldb]
				row := b[r*ldb : r*ldb+n]
				for j, x := range row {
					acc[j] += v * x
				}
			}
		}
	}
	ldc := s.c.ld
	for j, x := range acc {
		if s.beta == 0 {
			c[j*ldc] = s.alpha * x
		} else {
			c[j*ldc] = s.alpha*x + s.beta*c[j*ldc]
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
