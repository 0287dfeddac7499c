//go:build cuda

package batchlas

// Flags of the direct kernel (kernels/spmm/spmm_direct.cu defines them alike).
const (
	spmmTransB = 1 << iota // op(B) transposes B
	spmmConjB              // op(B) conjugates B
	spmmConjA              // op(A) conjugates A
)

// spmmWarps is the most warps of a direct block, one row of C each.
const spmmWarps = 8

// spmmDirectCanRun: a CUDA queue. The kernel takes every shape, pattern and transpose.
func spmmDirectCanRun[T Scalar](q *Queue, _ *spmmCall[T]) bool { return true }

// spmmDirect launches kernels/spmm/spmm_direct.cu on op(A)'s rows: A's rows, or its column
// order for A^T and A^H, so that every transpose is a gather with no atomics.
func spmmDirect[T Scalar](q *Queue, s *spmmCall[T]) error {
	d := &s.a.dev
	if s.transA == NoTrans {
		return spmmLaunch(q, s, d.rowPtr, d.colIdx, d.values)
	}
	return spmmLaunch(q, s, d.colPtr, d.rowIdx, d.valuesT)
}

// spmmLaunch runs the direct kernel: a warp per row of C_b, the rows of each matrix in
// consecutive blocks along grid x. A batch whose blocks exceed grid x goes in several
// launches, each starting at its first matrix.
func spmmLaunch[T Scalar](q *Queue, s *spmmCall[T], ptr, idx, val uintptr) error {
	m, n, _ := s.dims()
	batch := s.a.batch
	if m == 0 || n == 0 || batch == 0 {
		return nil
	}
	warps := min(spmmWarps, m)
	per := (m + warps - 1) / warps // blocks per matrix
	flags := 0
	if s.transB != NoTrans {
		flags |= spmmTransB
	}
	if s.conjB() {
		flags |= spmmConjB
	}
	if s.conjA() {
		flags |= spmmConjA
	}
	are, aim := kernelScalar(s.alpha)
	bre, bim := kernelScalar(s.beta)
	es, b, c := sizeOf[T](), s.b, s.c
	chunk := gridXMax / per
	for b0 := 0; b0 < batch; b0 += chunk {
		nb := min(chunk, batch-b0)
		err := cudaOf(q).launch("spmm_direct", "spmm_direct_"+dtypeName[T](), dim3{nb * per, 1, 1}, dim3{32 * warps, 1, 1}, 0,
			ptr+uintptr(8*b0*(m+1)), idx, val, b.devPtr()+uintptr(b0*b.strd*es), uintptr(b.ld), uintptr(b.strd),
			c.devPtr()+uintptr(b0*c.strd*es), uintptr(c.ld), uintptr(c.strd), uintptr(m), uintptr(n), uintptr(flags),
			are, aim, bre, bim)
		if err != nil {
			return err
		}
	}
	return nil
}
