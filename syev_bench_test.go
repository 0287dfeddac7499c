package batchlas_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas/batchlas"
)

// BenchmarkSyev compares float64 Syev with eigenvectors (n = 64, batch 1024) on a host
// queue against a loop calling gonum's Dsyev on each matrix of the same data. Both arms copy
// the fresh input into the batch's storage every repetition and solve it in place; ns/matrix
// is the time per matrix. Run with -cpu 1,2 to see the scaling over cores (the gonum arm is
// serial by construction).
func BenchmarkSyev(b *testing.B) {
	const n, batch = 64, 1024
	src := randSymmetric(n, batch)
	// Reference eigenvalues of a few matrices, to verify the timed outputs of both arms.
	const checked = 4
	ref := make([]float64, n*checked)
	for k := 0; k < checked; k++ {
		a := append([]float64(nil), src[k*n*n:(k+1)*n*n]...)
		if _, ok := gonumSyev(a, ref[k*n:(k+1)*n], n, nil); !ok {
			b.Fatal("gonum's Dsyev failed on the reference")
		}
	}

	b.Run("batchlas", func(b *testing.B) {
		q, err := batchlas.NewQueue(batchlas.Host)
		if err != nil {
			b.Fatal(err)
		}
		defer q.Close()
		a, err := batchlas.NewMatrix[float64](q, n, n, batch)
		if err != nil {
			b.Fatal(err)
		}
		w, err := batchlas.NewVector[float64](q, n*batch)
		if err != nil {
			b.Fatal(err)
		}
		info, err := batchlas.NewVector[int32](q, batch)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := a.Upload(src); err != nil {
				b.Fatal(err)
			}
			if err := batchlas.Syev(q, batchlas.Vectors, batchlas.Lower, a, w, info); err != nil {
				b.Fatal(err)
			}
		}
		gi, _ := info.Download(nil)
		for k, v := range gi {
			if v != 0 {
				b.Fatalf("matrix %d: info %d", k, v)
			}
		}
		gw, _ := w.Download(nil)
		verifyEigen(b, gw, ref)
		perMatrix(b, batch)
	})

	b.Run("gonum", func(b *testing.B) {
		dst, w := make([]float64, len(src)), make([]float64, n*batch)
		var work []float64
		for b.Loop() {
			copy(dst, src)
			for k := 0; k < batch; k++ {
				var ok bool
				if work, ok = gonumSyev(dst[k*n*n:(k+1)*n*n], w[k*n:(k+1)*n], n, work); !ok {
					b.Fatalf("matrix %d: Dsyev failed", k)
				}
			}
		}
		verifyEigen(b, w, ref)
		perMatrix(b, batch)
	})
}

// gonumSyev calls gonum's Dsyev with eigenvectors on one n-by-n symmetric matrix, growing
// work to the optimal size; it returns work for reuse.
func gonumSyev(a, w []float64, n int, work []float64) ([]float64, bool) {
	var impl gonum.Implementation
	if work == nil {
		var q [1]float64
		impl.Dsyev(lapack.EVCompute, blas.Upper, n, a, n, w, q[:], -1)
		work = make([]float64, int(q[0]))
	}
	return work, impl.Dsyev(lapack.EVCompute, blas.Upper, n, a, n, w, work, len(work))
}

// randSymmetric returns batch random symmetric n-by-n matrices, packed.
func randSymmetric(n, batch int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	s := make([]float64, n*n*batch)
	for k := 0; k < batch; k++ {
		m := s[k*n*n : (k+1)*n*n]
		for j := 0; j < n; j++ {
			for i := j; i < n; i++ {
				v := 2*rng.Float64() - 1
				m[j*n+i], m[i*n+j] = v, v
			}
		}
	}
	return s
}

// verifyEigen checks the first eigenvalues of w against ref.
func verifyEigen(b *testing.B, w, ref []float64) {
	b.Helper()
	for i, r := range ref {
		if d := w[i] - r; d > 1e-10 || d < -1e-10 {
			b.Fatalf("eigenvalue %d: %v, want %v", i, w[i], r)
		}
	}
}

func perMatrix(b *testing.B, batch int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/matrix")
}
