//go:build cuda

package batchlas

// getrsBlockedSteps are the triangular solves of c as Trsm calls, in order: L then U for
// op(A) = A (after the row interchanges), U^T then L^T (or ^H) otherwise (before the
// interchanges, in reverse). Trsm's own routing runs them, its blocked family at orders past
// a triangle in shared memory.
func getrsBlockedSteps[T Scalar](c *getrsCall[T]) []nestedCall {
	lower := &trsmCall[T]{triCall[T]{side: Left, uplo: Lower, trans: c.trans, diag: Unit, alpha: 1, a: c.a, b: c.b}}
	upper := &trsmCall[T]{triCall[T]{side: Left, uplo: Upper, trans: c.trans, diag: NonUnit, alpha: 1, a: c.a, b: c.b}}
	if c.trans == NoTrans {
		return []nestedCall{trsmNested(lower), trsmNested(upper)}
	}
	return []nestedCall{trsmNested(upper), trsmNested(lower)}
}

// getrsBlockedCanRun: a route for both Trsm steps.
func getrsBlockedCanRun[T Scalar](q *Queue, c *getrsCall[T]) bool {
	for _, s := range getrsBlockedSteps(c) {
		if !s.routed(q) {
			return false
		}
	}
	return true
}

// getrsBlockedBufferSize: the most that a Trsm step leases.
func getrsBlockedBufferSize[T Scalar](q *Queue, c *getrsCall[T]) int {
	return nestedBytes(q, getrsBlockedSteps(c))
}

// getrsBlocked applies the interchanges to B (lu_laswp, kernels/getrf/getrf_blocked.cu) and
// runs the Trsm steps.
func getrsBlocked[T Scalar](q *Queue, c *getrsCall[T]) error {
	a, b := c.a, c.b
	if a.batch == 0 || a.rows == 0 || b.cols == 0 {
		return nil
	}
	n := a.rows
	if c.trans == NoTrans {
		if err := luLaswp(q, b, c.ipiv.devPtr(), n, 0, n, false); err != nil {
			return err
		}
		return runNested(q, getrsBlockedSteps(c))
	}
	if err := runNested(q, getrsBlockedSteps(c)); err != nil {
		return err
	}
	return luLaswp(q, b, c.ipiv.devPtr(), n, 0, n, true)
}
