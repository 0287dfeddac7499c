package batchlas_test

import (
	"fmt"
	"log"

	"github.com/batchlas/batchlas"
)

// Fit lines y = c0 + c1 t to three sets of four points in one call: each A_b is 4x2 (a column
// of ones, a column of t), each B_b one column of y, and Gels leaves each fit's coefficients in
// the first two rows of b. The third set's t are all zero, so its A has rank one: info reports
// the zero second diagonal element of R, and that fit is not computed.
func ExampleGels() {
	q, err := batchlas.NewQueue(batchlas.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()

	const m, n, batch = 4, 2, 3
	ts := [batch][m]float64{{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 0, 0, 0}}
	ys := [batch][m]float64{{1, 3, 5, 7}, {1, 2, 2, 4}, {1, 2, 3, 4}}
	a, _ := batchlas.NewMatrix[float64](q, m, n, batch) // column-major, batch-major
	b, _ := batchlas.NewMatrix[float64](q, m, 1, batch) // max(m, n) rows
	info, _ := batchlas.NewVector[int32](q, batch)
	var av, bv []float64
	for k := range batch {
		av = append(av, 1, 1, 1, 1)  // column 0 of A_k
		av = append(av, ts[k][:]...) // column 1
		bv = append(bv, ys[k][:]...)
	}
	if err := a.Upload(av); err != nil {
		log.Fatal(err)
	}
	if err := b.Upload(bv); err != nil {
		log.Fatal(err)
	}

	if err := batchlas.Gels(q, batchlas.NoTrans, a, b, info); err != nil {
		log.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		log.Fatal(err)
	}
	x, _ := b.Download(nil)
	codes, _ := info.Download(nil)
	for k := range batch {
		if codes[k] != 0 {
			fmt.Printf("fit %d: info %d, A does not have full rank\n", k, codes[k])
			continue
		}
		fmt.Printf("fit %d: y = %.3f + %.3f t\n", k, x[k*m], x[k*m+1])
	}
	// Output:
	// fit 0: y = 1.000 + 2.000 t
	// fit 1: y = 0.900 + 0.900 t
	// fit 2: info 2, A does not have full rank
}
