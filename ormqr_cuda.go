//go:build cuda

package batchlas

// ormqrCTAShape is the launch of kernels/ormqr/ormqr_cta.cu: S (C, or C^H for side Right:
// ncol columns of lds), the k reflectors (padded to lanes*rpl rows with rpl) and k taus in
// shared memory.
func ormqrCTAShape[T Scalar](c *ormqrCall[T]) qrCTA {
	nq, ncol := c.nq(), c.c.cols
	if c.side == Right {
		ncol = c.c.rows
	}
	l := qrCTALayout(nq, ncol, sizeOf[T](), isComplex[T]())
	ldv := nq // the reflectors' leading dimension
	if l.rpl > 0 {
		ldv = l.lanes * l.rpl
	}
	l.bytes = (ncol*l.lds + (ldv+1)*c.k) * sizeOf[T]()
	return l
}

// ormqrEmpty reports whether the call leaves C as it is.
func ormqrEmpty[T Scalar](c *ormqrCall[T]) bool {
	return c.k == 0 || c.c.rows == 0 || c.c.cols == 0 || c.c.batch == 0
}

// ormqrCTACanRun: a CUDA queue whose blocks may hold C and the reflectors in shared memory;
// an empty call always.
func ormqrCTACanRun[T Scalar](q *Queue, c *ormqrCall[T]) bool {
	if ormqrEmpty(c) {
		return true
	}
	l := ormqrCTAShape(c)
	return qrCTAFits(q, l.threads, l.bytes)
}

// ormqrCTA launches kernels/ormqr/ormqr_cta.cu: one block per matrix, the batch in grid x.
// The kernel applies Q^H to S = C (Left) or S = C^H (Right) when adj is 1, else Q: Q^H C,
// and (C Q)^H = Q^H C^H.
func ormqrCTA[T Scalar](q *Queue, c *ormqrCall[T]) error {
	if ormqrEmpty(c) {
		return nil
	}
	l := ormqrCTAShape(c)
	left, adj := uintptr(0), uintptr(0)
	if c.side == Left {
		left = 1
	}
	if (c.side == Left) == (c.trans != NoTrans) {
		adj = 1
	}
	a, cm := c.a, c.c
	return cudaOf(q).launch("ormqr_cta", "ormqr_cta_"+dtypeName[T](), dim3{cm.batch, 1, 1}, dim3{l.threads, 1, 1}, l.bytes,
		a.devPtr(), uintptr(a.ld), uintptr(a.strd), c.tau.devPtr(), cm.devPtr(), uintptr(cm.ld), uintptr(cm.strd),
		uintptr(cm.rows), uintptr(cm.cols), uintptr(c.k), left, adj, uintptr(cm.batch), uintptr(l.lanes), uintptr(l.lds), uintptr(l.rpl))
}
