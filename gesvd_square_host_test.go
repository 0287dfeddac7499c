package batchlas

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestGesvdSquareHost checks dgesvdWork.square, the host's path for square matrices of order
// gesvdSquareMin and up with both factors, through the public call on a padded float64 batch:
// random, rank-deficient and column-graded matrices, ||A - U S V^T|| / (n eps ||A||),
// ||U^T U - I|| and ||V V^T - I|| / (n eps) at most 30, and the singular values descending and
// equal to gonum's Dgesvd's within 30 n eps s_1.
func TestGesvdSquareHost(t *testing.T) {
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	const n, lda, batch = gesvdSquareMin + 2, gesvdSquareMin + 5, 3
	rng := rand.New(rand.NewPCG(7, 8))
	raw := make([]float64, lda*n*batch)
	for b := 0; b < batch; b++ {
		a := raw[b*lda*n:]
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				a[i+j*lda] = rng.NormFloat64()
			}
		}
		switch b {
		case 1: // rank n/2: the second half of the columns repeat the first
			for j := n / 2; j < n; j++ {
				copy(a[j*lda:j*lda+n], a[(j-n/2)*lda:])
			}
		case 2: // columns graded from 1e-8 to 1e8
			for j := 0; j < n; j++ {
				g := math.Pow(10, 16*float64(j)/float64(n-1)-8)
				for i := 0; i < n; i++ {
					a[i+j*lda] *= g
				}
			}
		}
	}
	a, _ := NewMatrixStrided[float64](q, n, n, lda, lda*n, batch)
	u, _ := NewMatrix[float64](q, n, n, batch)
	vt, _ := NewMatrix[float64](q, n, n, batch)
	s, _ := NewVector[float64](q, n*batch)
	info, _ := NewVector[int32](q, batch)
	if err := a.UploadRaw(raw[:a.extent()]); err != nil {
		t.Fatal(err)
	}
	if err := Gesvd(q, SVDAll, SVDAll, a, s, u, vt, info); err != nil {
		t.Fatal(err)
	}
	us, _ := u.Download(nil)
	vts, _ := vt.Download(nil)
	ss, _ := s.Download(nil)
	infos, _ := info.Download(nil)
	const eps = 0x1p-53
	for b := 0; b < batch; b++ {
		if infos[b] != 0 {
			t.Fatalf("matrix %d: info %d", b, infos[b])
		}
		ab := raw[b*lda*n:]
		ub, vb, sb := us[b*n*n:(b+1)*n*n], vts[b*n*n:(b+1)*n*n], ss[b*n:(b+1)*n]
		// Column-major data read row-major is the transpose; these products are taken as such.
		us := make([]float64, n*n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				us[i+j*n] = ub[i+j*n] * sb[j]
			}
		}
		r := make([]float64, n*n)
		for j := 0; j < n; j++ {
			copy(r[j*n:(j+1)*n], ab[j*lda:j*lda+n])
		}
		normA := frob(r)
		// r = A - (U S) V^T, column-major: r^T = A^T - V (U S)^T in row-major terms.
		blasImpl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, -1, vb, n, us, n, 1, r, n)
		if res := frob(r) / (n * eps * normA); res > 30 {
			t.Errorf("matrix %d: ||A - U S V^T|| = %.1f n eps ||A||", b, res)
		}
		for name, f := range map[string][]float64{"U": ub, "V^T": vb} {
			g := make([]float64, n*n)
			for i := 0; i < n; i++ {
				g[i*n+i] = -1
			}
			// F F^T - I of the row-major F (the factor's transpose); for a square factor,
			// orthogonal rows and orthogonal columns are the same property.
			blasImpl.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, f, n, f, n, 1, g, n)
			if res := frob(g) / (n * eps); res > 30 {
				t.Errorf("matrix %d: %s is %.1f n eps from orthogonal", b, name, res)
			}
		}
		ref := make([]float64, n*n)
		for j := 0; j < n; j++ {
			copy(ref[j*n:(j+1)*n], ab[j*lda:j*lda+n])
		}
		want := make([]float64, n)
		var w dgesvdWork
		if got := w.run(SVDNone, SVDNone, n, n, ref, n, want, nil, 1, nil, 1); got != 0 {
			t.Fatalf("matrix %d: Dgesvd info %d", b, got)
		}
		for i := range sb {
			if (i > 0 && sb[i] > sb[i-1]) || sb[i] < 0 || math.Abs(sb[i]-want[i]) > 30*n*eps*want[0] {
				t.Fatalf("matrix %d: s[%d] = %g, Dgesvd %g (s[0] %g)", b, i, sb[i], want[i], want[0])
			}
		}
	}
}

func frob(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}
