//go:build cuda

package batchlas

// potrsCTACanRun: triCTAFits for the factor's order and B's columns.
func potrsCTACanRun[T Scalar](q *Queue, c *potrsCall[T]) bool {
	return triCTAFits[T](q, c.a.rows, c.b.cols, c.a.batch)
}

func potrsCTA[T Scalar](q *Queue, c *potrsCall[T]) error {
	return potrsCTALaunch(q, c.uplo, c.a, c.b, 0)
}

// potrsCTALaunch launches kernels/potrs/potrs_cta.cu: one block per matrix, the batch in grid
// x. info, when not 0, is the device address of Potrf's info: the matrices whose info is not
// 0 are skipped, their b left as it was.
func potrsCTALaunch[T Scalar](q *Queue, uplo Uplo, a, b *Matrix[T], info uintptr) error {
	n, nrhs := a.rows, b.cols
	if n == 0 || nrhs == 0 || a.batch == 0 {
		return nil
	}
	s, ok := triCTAShape(q, n, nrhs, sizeOf[T]())
	if !ok {
		return argErr("potrs", "route", "cta: a factor of order %d does not fit the shared memory", n)
	}
	lower := uintptr(0)
	if uplo == Lower {
		lower = 1
	}
	return launchTri(q, "potrs_cta", "potrs_cta_"+dtypeName[T](), s, a.batch,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), b.devPtr(), uintptr(b.ld), uintptr(b.strd),
		uintptr(n), uintptr(nrhs), uintptr(a.batch), lower, info)
}
