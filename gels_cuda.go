//go:build cuda

package batchlas

// The steps of Gels's "qr" family that are not operations of the library, on a CUDA queue:
// kernels of kernels/util/util.cu, all enqueued on the stream.

func gelsOnCUDA(q *Queue) bool { return q.dev.Backend == CUDA }

// gelsLease leases bytes of the queue's device workspace.
func gelsLease(q *Queue, bytes int) (uintptr, error) { return q.scratch(bytes) }

func zeroInfoCUDA(q *Queue, info *Vector[int32], batch int) error {
	return cudaOf(q).zero32(info.devPtr(), batch)
}

// gelsClearCUDA sets m's elements to zero by copying m.rows zeros, which it writes at zeros
// first, into every column (copy_mat with a source of leading dimension and stride 0).
func gelsClearCUDA[T Scalar](q *Queue, m *Matrix[T], zeros uintptr) error {
	if m.rows*m.cols*m.batch == 0 {
		return nil
	}
	e := cudaOf(q)
	if err := e.zero32(zeros, m.rows*sizeOf[T]()/4); err != nil {
		return err
	}
	return copyMat[T](e, m.devPtr(), m.ld, m.strd, zeros, 0, 0, m.rows, m.cols, m.batch, 0, 0)
}

// gelsAdjointCUDA sets dst = src^H with copy_mat.
func gelsAdjointCUDA[T Scalar](q *Queue, dst, src *Matrix[T]) error {
	return copyMat[T](cudaOf(q), dst.devPtr(), dst.ld, dst.strd, src.devPtr(), src.ld, src.strd,
		dst.rows, dst.cols, dst.batch, 0, copyTranspose|copyConj)
}

// gelsZeroDiagCUDA launches zero_diag (kernels/util/util.cu): one thread per matrix.
func gelsZeroDiagCUDA[T Scalar](q *Queue, f *Matrix[T], info *Vector[int32]) error {
	const threads = 128
	return cudaOf(q).launch("util", "zero_diag_"+dtypeName[T](), dim3{(f.batch + threads - 1) / threads, 1, 1},
		dim3{threads, 1, 1}, 0, f.devPtr(), uintptr(f.ld), uintptr(f.strd), uintptr(min(f.rows, f.cols)),
		uintptr(f.batch), info.devPtr())
}
