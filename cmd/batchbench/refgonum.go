package main

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas/batchlas"
)

// The arm ref:gonum is the host families' yardstick: a plain loop over gonum, the batch
// split evenly over GOMAXPROCS goroutines, one gonum call per matrix (gemm for every dtype;
// potrf, getrf, geqrf, syev and gesvd for f64, the only precision of gonum's LAPACK). gonum
// is row-major, so its timed run copies each pristine input into scratch (transposed where
// the matrix is not symmetric) and the results back, column-major, into the bench's outputs,
// which are then verified as every arm's are. Those copies are O(n^2) a matrix against the
// op's O(n^3); at n below about 8 they are a visible part of the time.

var (
	gonumBLAS   blasgonum.Implementation
	gonumLAPACK lapackgonum.Implementation
)

// gonumLoop runs f on [lo, hi) shares of the batch, one share per goroutine.
func gonumLoop(batch int, f func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), batch))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w*batch/workers, (w+1)*batch/workers)
		}()
	}
	wg.Wait()
}

// transpose writes the n-by-n matrix src, stored with the roles of rows and columns swapped,
// into dst: column-major to row-major or back.
func transpose(dst, src []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			dst[i*n+j] = src[j*n+i]
		}
	}
}

// float64s is x when T is float64, else nil (gonum's LAPACK is float64 only).
func float64s[T batchlas.Scalar](x []T) []float64 {
	f, _ := any(x).([]float64)
	return f
}

// lapackWork is a workspace of the size that query (a gonum call with lwork = -1) asks.
func lapackWork(query func(work []float64)) []float64 {
	var size [1]float64
	query(size[:])
	return make([]float64, max(1, int(size[0])))
}

// infos is 0 where ok, 1 elsewhere: gonum's LAPACK says only whether a call succeeded, so a
// failure shows as a nonzero info (verify rejects it).
func info(ok bool) int32 {
	if ok {
		return 0
	}
	return 1
}

// ref: "gonum" is gonum's gemm for T on each matrix; read row-major, column-major C = A B
// is C^T = B^T A^T, so the operands swap and no copy is needed but the upload of C.
func (g *gemmBench[T]) ref(name string) func() error {
	if name != "gonum" {
		return nil
	}
	a, errA := g.a.Download(nil)
	b, errB := g.b.Download(nil)
	if errA != nil || errB != nil {
		return func() error { return firstErr(errA, errB) }
	}
	n, batch, c := g.n, g.a.Batch(), make([]T, len(a))
	nn, tr := g.n*g.n, blas.NoTrans
	var mul func(k int)
	switch a := any(a).(type) {
	case []float64:
		b, c := any(b).([]float64), any(c).([]float64)
		mul = func(k int) { gonumBLAS.Dgemm(tr, tr, n, n, n, 1, b[k*nn:], n, a[k*nn:], n, 0, c[k*nn:(k+1)*nn], n) }
	case []float32:
		b, c := any(b).([]float32), any(c).([]float32)
		mul = func(k int) { gonumBLAS.Sgemm(tr, tr, n, n, n, 1, b[k*nn:], n, a[k*nn:], n, 0, c[k*nn:(k+1)*nn], n) }
	case []complex128:
		b, c := any(b).([]complex128), any(c).([]complex128)
		mul = func(k int) { gonumBLAS.Zgemm(tr, tr, n, n, n, 1, b[k*nn:], n, a[k*nn:], n, 0, c[k*nn:(k+1)*nn], n) }
	case []complex64:
		b, c := any(b).([]complex64), any(c).([]complex64)
		mul = func(k int) { gonumBLAS.Cgemm(tr, tr, n, n, n, 1, b[k*nn:], n, a[k*nn:], n, 0, c[k*nn:(k+1)*nn], n) }
	}
	return func() error {
		gonumLoop(batch, func(lo, hi int) {
			for k := lo; k < hi; k++ {
				mul(k)
			}
		})
		return g.c.Upload(c)
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ref: "gonum" is Dpotrf on each matrix (column-major lower is row-major upper).
func (b *potrfBench[T]) ref(name string) func() error {
	in := float64s(b.input)
	if name != "gonum" || in == nil {
		return nil
	}
	n, batch := b.n, b.a.Batch()
	out, infos := make([]float64, len(in)), make([]int32, batch)
	return func() error {
		gonumLoop(batch, func(lo, hi int) {
			for k := lo; k < hi; k++ {
				a := out[k*n*n : (k+1)*n*n]
				copy(a, in[k*n*n:])
				infos[k] = info(gonumLAPACK.Dpotrf(blas.Upper, n, a, max(1, n)))
			}
		})
		return firstErr(b.a.Upload(any(out).([]T)), b.info.Upload(infos))
	}
}

// ref: "gonum" is Dgetrf on each matrix, transposed in and out.
func (b *getrfBench[T]) ref(name string) func() error {
	in := float64s(b.input)
	if name != "gonum" || in == nil {
		return nil
	}
	n, batch := b.n, b.a.Batch()
	out, ipiv, infos := make([]float64, len(in)), make([]int32, n*batch), make([]int32, batch)
	return func() error {
		gonumLoop(batch, func(lo, hi int) {
			rm, piv := make([]float64, n*n), make([]int, n)
			for k := lo; k < hi; k++ {
				transpose(rm, in[k*n*n:], n)
				infos[k] = info(gonumLAPACK.Dgetrf(n, n, rm, max(1, n), piv))
				transpose(out[k*n*n:], rm, n)
				for i, p := range piv {
					ipiv[k*n+i] = int32(p + 1)
				}
			}
		})
		return firstErr(b.a.Upload(any(out).([]T)), b.ipiv.Upload(ipiv), b.info.Upload(infos))
	}
}

// gonumGeqrf is geqrf's ref:gonum: Dgeqrf on each matrix, transposed in and out.
func (b *geqrfBench[T]) gonumGeqrf() func() error {
	in := float64s(b.input)
	if in == nil {
		return nil
	}
	n, batch := b.n, b.a.Batch()
	out, tau := make([]float64, len(in)), make([]float64, n*batch)
	return func() error {
		gonumLoop(batch, func(lo, hi int) {
			rm := make([]float64, n*n)
			work := lapackWork(func(w []float64) { gonumLAPACK.Dgeqrf(n, n, rm, max(1, n), tau[:n], w, -1) })
			for k := lo; k < hi; k++ {
				transpose(rm, in[k*n*n:], n)
				gonumLAPACK.Dgeqrf(n, n, rm, max(1, n), tau[k*n:(k+1)*n], work, len(work))
				transpose(out[k*n*n:], rm, n)
			}
		})
		return firstErr(b.a.Upload(any(out).([]T)), b.tau.Upload(any(tau).([]T)))
	}
}

// gonumSyev is syev's ref:gonum: Dsyev on each matrix (column-major lower is row-major
// upper), its row-major eigenvectors transposed out.
func (b *syevBench[T, R]) gonumSyev() func() error {
	in := float64s(b.input)
	if in == nil {
		return nil
	}
	n, batch := b.n, b.a.Batch()
	out, w, infos := make([]float64, len(in)), make([]float64, n*batch), make([]int32, batch)
	jobz := lapack.EVNone
	if b.jobz == batchlas.Vectors {
		jobz = lapack.EVCompute
	}
	return func() error {
		gonumLoop(batch, func(lo, hi int) {
			rm := make([]float64, n*n)
			work := lapackWork(func(x []float64) { gonumLAPACK.Dsyev(jobz, blas.Upper, n, rm, max(1, n), w[:n], x, -1) })
			for k := lo; k < hi; k++ {
				copy(rm, in[k*n*n:(k+1)*n*n])
				infos[k] = info(gonumLAPACK.Dsyev(jobz, blas.Upper, n, rm, max(1, n), w[k*n:(k+1)*n], work, len(work)))
				transpose(out[k*n*n:], rm, n)
			}
		})
		return firstErr(b.a.Upload(any(out).([]T)), b.w.Upload(any(w).([]R)), b.info.Upload(infos))
	}
}

// ref: "gonum" is Dgesvd (thin U and V^T) on each matrix, transposed in and the factors
// transposed out.
func (b *gesvdBench[T, R]) ref(name string) func() error {
	in := float64s(b.input)
	if name != "gonum" || in == nil {
		return nil
	}
	n, batch := b.n, b.a.Batch()
	s, u, vt := make([]float64, n*batch), make([]float64, len(in)), make([]float64, len(in))
	infos, job := make([]int32, batch), lapack.SVDStore
	return func() error {
		gonumLoop(batch, func(lo, hi int) {
			rm, ru, rvt := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
			ld := max(1, n)
			work := lapackWork(func(w []float64) { gonumLAPACK.Dgesvd(job, job, n, n, rm, ld, s[:n], ru, ld, rvt, ld, w, -1) })
			for k := lo; k < hi; k++ {
				transpose(rm, in[k*n*n:], n)
				infos[k] = info(gonumLAPACK.Dgesvd(job, job, n, n, rm, ld, s[k*n:(k+1)*n], ru, ld, rvt, ld, work, len(work)))
				transpose(u[k*n*n:], ru, n)
				transpose(vt[k*n*n:], rvt, n)
			}
		})
		return firstErr(b.u.Upload(any(u).([]T)), b.vt.Upload(any(vt).([]T)), b.s.Upload(any(s).([]R)), b.info.Upload(infos))
	}
}
