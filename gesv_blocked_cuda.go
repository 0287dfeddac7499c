//go:build cuda

package batchlas

// gesvSolve is the solve of c as a Getrs call, routed by getrs's own routing (its blocked
// family past the shared memory of the cta kernels).
func gesvSolve[T Scalar](c *gesvCall[T]) nestedCall {
	g := c.getrs()
	return nested("getrs", dtypeName[T](), g.key(), getrsFamilies[T](), g, (*getrsCall[T]).check)
}

// gesvBlockedCanRun: a family of getrf's routing for the factorization, and one of getrs's
// for the solve.
func gesvBlockedCanRun[T Scalar](q *Queue, c *gesvCall[T]) bool {
	return gesvFactorName(q, c) != "" && gesvSolve(c).routed(q)
}

// gesvBlockedBufferSize: the factorization's workspace, or the copy of B that is put back
// where U is singular and past it the solve's.
func gesvBlockedBufferSize[T Scalar](q *Queue, c *gesvCall[T]) int {
	n := carveBytes(packedBytes(c.b)) + gesvSolve(c).bytes(q)
	if f, gc, err := gesvFactor(q, c, false); err == nil && f.bufferSize != nil {
		n = max(n, f.bufferSize(q, gc))
	}
	return n
}

// gesvBlocked factors with getrf's routing, solves with getrs's, and puts back B_b where U_b
// is singular.
func gesvBlocked[T Scalar](q *Queue, c *gesvCall[T]) error {
	f, gc, err := gesvFactor(q, c, true)
	if err != nil {
		return err
	}
	if err := f.launch(q, gc); err != nil || c.b.rows == 0 || c.b.batch == 0 || c.b.cols == 0 {
		return err
	}
	solve := gesvSolve(c)
	own := carveBytes(packedBytes(c.b))
	save, err := q.scratch(own + solve.bytes(q))
	if err != nil {
		return err
	}
	return holdScratch(q, own, func() error {
		return solveKeepingFailed(q, c.b, save, c.info.devPtr(), func() error { return solve.run(q) })
	})
}
