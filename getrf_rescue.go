//go:build (cuda || rocm) && !novendor

package batchlas

// The host rescue of a vendor LU, shared by the CUDA and ROCm vendor families. Seen on the
// H200 with cuBLAS and cuSOLVER, and the same holds for any GPU LU that multiplies by the
// pivot's reciprocal: a subnormal pivot overflows, and the factors turn Inf or NaN with info 0
// (real types) or a later pivot read as zero (complex types), where LAPACK's getf2 divides
// and succeeds. So the families keep a copy of A, read info and the diagonals of U back (one
// host synchronization per call, never per matrix), and refactor the failed matrices on the
// host. Rare (singular, subnormal or non-finite input), and one host round trip per such
// matrix.

// hostCopier is what the rescue needs of a device engine: copies between host and device
// memory that have completed when they return.
type hostCopier interface {
	upload(dst uintptr, src []byte) error
	download(dst []byte, src uintptr) error
}

// luFailed lists the matrices of a batch whose LU failed: info (batch ints on the device)
// nonzero, or a non-finite entry among the k diagonals of U per matrix that diag holds on the
// device, packed.
func luFailed[T Scalar](e hostCopier, batch, k int, info, diag uintptr) ([]int, error) {
	got, d := make([]int32, batch), make([]T, k*batch)
	if err := e.download(bytesOf(got), info); err != nil {
		return nil, err
	}
	if err := e.download(bytesOf(d), diag); err != nil {
		return nil, err
	}
	var failed []int
	for b, v := range got {
		if v != 0 || !allFinite(d[b*k:], 1, 1, k) {
			failed = append(failed, b)
		}
	}
	return failed, nil
}

// luRescue refactors with getf2 each failed matrix b of a from its copy at orig (leading
// dimension ldo, matrices ostride elements apart) and uploads its factors into a, its
// min(m, n) pivots to ipiv and its info to info.
func luRescue[T Scalar](e hostCopier, a *Matrix[T], orig uintptr, ldo, ostride int, ipiv, info uintptr, failed []int) error {
	m, n, es := a.rows, a.cols, sizeOf[T]()
	k := min(m, n)
	mat, piv, inf := make([]T, (n-1)*ldo+m), make([]int32, k), make([]int32, 1)
	for _, b := range failed {
		if err := e.download(bytesOf(mat), orig+uintptr(b*ostride*es)); err != nil {
			return err
		}
		inf[0] = int32(getf2(m, n, mat, ldo, piv))
		dst := a.devAt(b)
		for j := range n {
			if err := e.upload(dst+uintptr(j*a.ld*es), bytesOf(mat[j*ldo:j*ldo+m])); err != nil {
				return err
			}
		}
		if err := e.upload(ipiv+uintptr(4*k*b), bytesOf(piv)); err != nil {
			return err
		}
		if err := e.upload(info+uintptr(4*b), bytesOf(inf)); err != nil {
			return err
		}
	}
	return nil
}
