package batchlas_test

import (
	"errors"
	"fmt"
	"log"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
)

// Cholesky-factor a batch of 1000 symmetric positive definite 3x3 matrices, then solve a
// system with each factor. A_b = (b+1)^2 A_0, so L_b = (b+1) L_0 exactly.
func ExamplePotrs() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	const n, batch = 3, 1000
	a, _ := batchlas.NewMatrix[float64](q, n, n, batch)
	x, _ := batchlas.NewMatrix[float64](q, n, 1, batch)
	for b := 0; b < batch; b++ {
		s := float64((b + 1) * (b + 1))
		spd := mat.NewSymDense(n, []float64{4, 2, 0, 2, 5, 2, 0, 2, 5})
		spd.ScaleSym(s, spd)
		rhs := mat.NewDense(n, 1, nil)
		rhs.Mul(spd, mat.NewDense(n, 1, []float64{1, 2, 3})) // so that x = (1, 2, 3)
		if err := batchlas.FromSymDense(a, b, spd); err != nil {
			log.Fatal(err)
		}
		if err := batchlas.FromDense(x, b, rhs); err != nil {
			log.Fatal(err)
		}
	}
	info, _ := batchlas.NewVector[int32](q, batch)
	if err := batchlas.Potrf(q, batchlas.Lower, a, info); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.CheckInfo("potrf", info); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.Potrs(q, batchlas.Lower, a, x); err != nil {
		log.Fatal(err)
	}
	l, _ := batchlas.ToDense(a, 999)
	fmt.Printf("L of matrix 999:\n%v\n", mat.Formatted(mat.NewTriDense(n, mat.Lower, lowerOf(l))))
	sol, _ := batchlas.ToDense(x, 999)
	fmt.Printf("x of matrix 999: %.6f\n", mat.Col(nil, 0, sol))
	// Output:
	// L of matrix 999:
	// ⎡2000     0     0⎤
	// ⎢1000  2000     0⎥
	// ⎣   0  1000  2000⎦
	// x of matrix 999: [1.000000 2.000000 3.000000]
}

// lowerOf is the row-major lower triangle of d (Potrf leaves the upper one as it was).
func lowerOf(d *mat.Dense) []float64 {
	n, _ := d.Dims()
	t := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			t[i*n+j] = d.At(i, j)
		}
	}
	return t
}

// Solve positive definite systems in one call; one matrix of the batch is not positive
// definite, and CheckInfo says which and why while the others are solved.
func ExamplePosv() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	const n, batch = 2, 4
	a, _ := batchlas.NewMatrix[float64](q, n, n, batch)
	rhs, _ := batchlas.NewMatrix[float64](q, n, 1, batch)
	for b := 0; b < batch; b++ {
		d := 2.0
		if b == 2 {
			d = -2 // matrix 2 is indefinite
		}
		_ = a.UploadMatrix(b, batchlas.RowMajor, []float64{d, 1, 1, d}, 0)
		_ = rhs.UploadMatrix(b, batchlas.RowMajor, []float64{3, 3}, 0) // x = (1, 1) when d = 2
	}
	info, _ := batchlas.NewVector[int32](q, batch)
	if err := batchlas.Posv(q, batchlas.Lower, a, rhs, info); err != nil {
		log.Fatal(err)
	}
	err = batchlas.CheckInfo("posv", info)
	fmt.Println(err)
	var ie *batchlas.InfoError
	if errors.As(err, &ie) {
		fmt.Println("raw info:", ie.Info, "failed:", ie.Failed)
	}
	x, _ := rhs.DownloadMatrix(3, batchlas.ColMajor, nil, 0)
	fmt.Printf("x of matrix 3: %.4f\n", x)
	// Output:
	// batchlas: posv: 1 of 4 matrices failed; matrix 2: the leading minor of order 1 is not positive definite; B is not solved
	// raw info: [0 0 1 0] failed: [2]
	// x of matrix 3: [1.0000 1.0000]
}

// Solve general systems with partial pivoting, and read matrix b's pivots alone.
func ExampleGesv() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	const n, batch = 3, 500
	a, _ := batchlas.NewMatrix[float64](q, n, n, batch)
	rhs, _ := batchlas.NewMatrix[float64](q, n, 1, batch)
	for b := 0; b < batch; b++ {
		c := float64(b)
		_ = a.UploadMatrix(b, batchlas.RowMajor, []float64{
			0, 1, 2,
			1, 0, 3,
			4, -3, 8 + c}, 0)
		_ = rhs.UploadMatrix(b, batchlas.RowMajor, []float64{3, 4, 9 + c}, 0) // x = (1, 1, 1)
	}
	ipiv, _ := batchlas.NewVector[int32](q, n*batch)
	info, _ := batchlas.NewVector[int32](q, batch)
	if err := batchlas.Gesv(q, a, ipiv, rhs, info); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.CheckInfo("gesv", info); err != nil {
		log.Fatal(err)
	}
	x, _ := rhs.DownloadMatrix(123, batchlas.ColMajor, nil, 0)
	p, _ := ipiv.Part(123, n)
	piv, _ := p.Download(nil)
	fmt.Printf("x of matrix 123: %.6f\npivots of matrix 123: %v\n", x, piv)
	// Output:
	// x of matrix 123: [1.000000 1.000000 1.000000]
	// pivots of matrix 123: [3 3 3]
}

// Eigenvalues of 1000 symmetric 3x3 matrices, each with the known spectrum {1, 3, b}.
func ExampleSyev() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	const n, batch = 3, 1000
	ss := make([]*mat.SymDense, batch)
	for b := range ss {
		ss[b] = mat.NewSymDense(n, []float64{2, 1, 0, 1, 2, 0, 0, 0, float64(b)})
	}
	a, _ := batchlas.NewMatrix[float64](q, n, n, batch)
	if err := batchlas.FromSymDenses(a, ss); err != nil {
		log.Fatal(err)
	}
	w, _ := batchlas.NewVector[float64](q, n*batch)
	info, _ := batchlas.NewVector[int32](q, batch)
	if err := batchlas.Syev(q, batchlas.Vectors, batchlas.Lower, a, w, info); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.CheckInfo("syev", info); err != nil {
		log.Fatal(err)
	}
	ws, _ := w.DownloadParts(n)
	fmt.Printf("eigenvalues of matrix 5: %.6f\n", ws[5])
	fmt.Printf("eigenvalues of matrix 999: %.6f\n", ws[999])
	// The eigenvectors overwrite a: check A v = v w for matrix 999 with gonum.
	v, _ := batchlas.ToDense(a, 999)
	var av, vw mat.Dense
	av.Mul(ss[999], v)
	vw.Mul(v, mat.NewDiagDense(n, ws[999]))
	av.Sub(&av, &vw)
	fmt.Println("||A V - V W|| < 1e-12:", mat.Norm(&av, 1) < 1e-12)
	// Output:
	// eigenvalues of matrix 5: [1.000000 3.000000 5.000000]
	// eigenvalues of matrix 999: [1.000000 3.000000 999.000000]
	// ||A V - V W|| < 1e-12: true
}

// Singular values of 500 matrices 4x3 whose singular values are known: A_b = (b+1) Q diag(3,
// 2, 1) with Q having orthonormal columns.
func ExampleGesvd() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	const m, n, batch = 4, 3, 500
	a, _ := batchlas.NewMatrix[float64](q, m, n, batch)
	for b := 0; b < batch; b++ {
		c := float64(b+1) / 2 // Q's columns are the Hadamard rows (1,1,1,1)/2, (1,-1,1,-1)/2, (1,1,-1,-1)/2
		_ = a.UploadMatrix(b, batchlas.RowMajor, []float64{
			3 * c, 2 * c, 1 * c,
			3 * c, -2 * c, 1 * c,
			3 * c, 2 * c, -1 * c,
			3 * c, -2 * c, -1 * c}, 0)
	}
	s, _ := batchlas.NewVector[float64](q, n*batch)
	info, _ := batchlas.NewVector[int32](q, batch)
	if err := batchlas.Gesvd(q, batchlas.SVDNone, batchlas.SVDNone, a, s, nil, nil, info); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.CheckInfo("gesvd", info); err != nil {
		log.Fatal(err)
	}
	sv, _ := s.DownloadParts(n)
	fmt.Printf("singular values of matrix 0: %.6f\n", sv[0])
	fmt.Printf("singular values of matrix 499: %.6f\n", sv[499])
	// Output:
	// singular values of matrix 0: [3.000000 2.000000 1.000000]
	// singular values of matrix 499: [1500.000000 1000.000000 500.000000]
}

// Multiply a batch of matrices: C_b = A_b B_b^T.
func ExampleGemm() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	const batch = 10000
	a, _ := batchlas.NewMatrix[float32](q, 2, 3, batch)
	b, _ := batchlas.NewMatrix[float32](q, 2, 3, batch)
	c, _ := batchlas.NewMatrix[float32](q, 2, 2, batch)
	ar := make([]float32, 0, 6*batch)
	br := make([]float32, 0, 6*batch)
	for k := 0; k < batch; k++ {
		s := float32(k % 7)
		ar = append(ar, 1, 2, 3, 4, 5, 6)
		br = append(br, s, 0, 0, 0, 1, 1)
	}
	_ = a.UploadRowMajor(ar) // row-major, matrix after matrix
	_ = b.UploadRowMajor(br)
	if err := batchlas.Gemm(q, batchlas.NoTrans, batchlas.Trans, 1, a, b, 0, c); err != nil {
		log.Fatal(err)
	}
	out, _ := c.DownloadRowMajor(nil)
	fmt.Println("C of matrix 3:", out[3*4:4*4])
	// Output:
	// C of matrix 3: [3 5 12 11]
}

// Round-trip gonum matrices through a batch on the queue's device: bitwise, in one copy each
// way, and without index arithmetic.
func ExampleFromDenses() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	ds := make([]*mat.Dense, 100)
	for b := range ds {
		ds[b] = mat.NewDense(2, 3, []float64{math.Pi, 1, float64(b), -1, math.E, 1e-300})
	}
	a, _ := batchlas.NewMatrix[float64](q, 2, 3, len(ds))
	if err := batchlas.FromDenses(a, ds); err != nil {
		log.Fatal(err)
	}
	back, err := batchlas.ToDenses(a)
	if err != nil {
		log.Fatal(err)
	}
	same := true
	for b := range ds {
		same = same && mat.Equal(ds[b], back[b])
	}
	fmt.Println("all equal:", same)
	one, _ := batchlas.ToDense(a, 42) // matrix 42 alone
	fmt.Printf("%.4g\n", mat.Formatted(one))
	// Output:
	// all equal: true
	// ⎡ 3.142       1      42⎤
	// ⎣    -1   2.718  1e-300⎦
}
