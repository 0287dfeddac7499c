//go:build cuda

package batchlas

// posvCTACanRun: potrs "cta" can solve b.
func posvCTACanRun[T Scalar](q *Queue, c *posvCall[T]) bool {
	return triCTAFits[T](q, c.a.rows, c.b.cols, c.a.batch)
}

// posvCTA solves with potrs "cta", skipping the matrices whose info is not 0.
func posvCTA[T Scalar](q *Queue, c *posvCall[T]) error {
	return potrsCTALaunch(q, c.uplo, c.a, c.b, c.info.devPtr())
}
