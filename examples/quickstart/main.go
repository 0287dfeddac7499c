// Command quickstart solves 100000 small positive definite systems in one call: the README's
// quick start, kept identical to it by a test.
package main

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
)

func main() {
	q, err := batchlas.NewQueue(batchlas.Auto) // CUDA with -tags cuda and a GPU, else the CPU
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()

	const n, batch = 4, 100000
	spd, rhs := make([]*mat.SymDense, batch), make([]*mat.Dense, batch)
	for b := range spd { // A_b = tridiag(-1, 2 + b%5, -1), right-hand side all ones
		spd[b] = mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			spd[b].SetSym(i, i, float64(2+b%5))
			if i > 0 {
				spd[b].SetSym(i, i-1, -1)
			}
		}
		rhs[b] = mat.NewDense(n, 1, []float64{1, 1, 1, 1})
	}

	a, _ := batchlas.NewMatrix[float64](q, n, n, batch) // the batch lives on q's device
	x, _ := batchlas.NewMatrix[float64](q, n, 1, batch)
	info, _ := batchlas.NewVector[int32](q, batch)
	if err := batchlas.FromSymDenses(a, spd); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.FromDenses(x, rhs); err != nil {
		log.Fatal(err)
	}
	if err := batchlas.Posv(q, batchlas.Lower, a, x, info); err != nil {
		log.Fatal(err) // a bad argument: nothing was written
	}
	if err := batchlas.CheckInfo("posv", info); err != nil {
		log.Fatal(err) // names each matrix that is not positive definite
	}
	sol, _ := batchlas.ToDense(x, 0) // system 0 alone: x = (2, 3, 3, 2)
	fmt.Printf("x_0 = %.4f\n", mat.Formatted(sol.T()))
}
