//go:build cuda

package batchlas

// getriBlockedSolve is the solve W = A^-1 I = U^-1 L^-1 P^T I as a Getrs call on the
// identities w, routed by getrs's own routing (its blocked family past the cta kernels'
// shared memory).
func getriBlockedSolve[T Scalar](c *getriCall[T], w *Matrix[T]) nestedCall {
	g := &getrsCall[T]{trans: NoTrans, a: c.a, ipiv: c.ipiv, b: w}
	return nested("getrs", dtypeName[T](), g.key(), getrsFamilies[T](), g, (*getrsCall[T]).check)
}

// getriBlockedParts are the workspace parts: the n-by-n inverses W of the batch, packed,
// and the staged identity.
func getriBlockedParts[T Scalar](c *getriCall[T]) []int {
	n := c.a.rows
	return []int{n * n * c.a.batch * sizeOf[T](), n * n * sizeOf[T]()}
}

// getriBlockedCanRun: a family of getrs's routing for the solve.
func getriBlockedCanRun[T Scalar](q *Queue, c *getriCall[T]) bool {
	return getriBlockedSolve(c, workMatrix[T](q, 0, c.a.rows, c.a.rows, c.a.batch)).routed(q)
}

// getriBlockedBufferSize: the parts, and past them what the solve leases.
func getriBlockedBufferSize[T Scalar](q *Queue, c *getriCall[T]) int {
	w := workMatrix[T](q, 0, c.a.rows, c.a.rows, c.a.batch)
	return carveBytes(getriBlockedParts(c)...) + getriBlockedSolve(c, w).bytes(q)
}

// getriBlocked: info from U's diagonal (kernels/util's zero_diag), W = I, W = A^-1 by
// Getrs, and W copied into a for the matrices whose info is 0 (the others keep their
// factors).
func getriBlocked[T Scalar](q *Queue, c *getriCall[T]) error {
	a := c.a
	if done, err := quickReturn(q, a.rows, a.cols, a.batch, c.info); done {
		return err
	}
	n := a.rows
	own := getriBlockedParts(c)
	probe := getriBlockedSolve(c, workMatrix[T](q, 0, n, n, a.batch))
	parts, err := carve(q, append(own, probe.bytes(q))...)
	if err != nil {
		return err
	}
	w := workMatrix[T](q, parts[0], n, n, a.batch)
	if err := gelsZeroDiagCUDA(q, a, c.info); err != nil {
		return err
	}
	if err := deviceIdentityAt(q, w, parts[1]); err != nil {
		return err
	}
	if err := holdScratch(q, carveBytes(own...), func() error { return getriBlockedSolve(c, w).run(q) }); err != nil {
		return err
	}
	return copyMat[T](cudaOf(q), a.devPtr(), a.ld, a.strd, w.devPtr(), n, n*n, n, n, a.batch, c.info.devPtr(), copyIfOK)
}
