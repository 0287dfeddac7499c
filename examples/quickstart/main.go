// Command quickstart solves 100000 positive definite 4x4 systems in one call: the README's
// quick start, kept identical to it by a test.
package main

import (
	"fmt"
	"log"

	"github.com/batchlas/batchlas"
)

func main() {
	q, err := batchlas.NewQueue(batchlas.Auto) // CUDA with -tags cuda and a GPU, else the CPU
	check(err)
	defer q.Close()

	const n, batch = 4, 100000
	var rows, ones []float64 // A_b = tridiag(-1, 2 + b%5, -1) row by row; right-hand sides all 1
	for b := 0; b < batch; b++ {
		d := float64(2 + b%5)
		rows = append(rows, d, -1, 0, 0, -1, d, -1, 0, 0, -1, d, -1, 0, 0, -1, d)
		ones = append(ones, 1, 1, 1, 1)
	}
	a, _ := batchlas.NewMatrix[float64](q, n, n, batch) // the batch lives on q's device
	x, _ := batchlas.NewMatrix[float64](q, n, 1, batch)
	info, _ := batchlas.NewVector[int32](q, batch)
	check(a.UploadRowMajor(rows))
	check(x.UploadRowMajor(ones))
	check(batchlas.Posv(q, batchlas.Lower, a, x, info)) // an error: a bad argument, nothing written
	check(batchlas.CheckInfo("posv", info))             // names each matrix that is not positive definite
	sol, err := x.DownloadRowMajor(nil)
	check(err)
	fmt.Printf("x_0 = %.4g\n", sol[:n]) // A_0 x_0 = 1: x_0 = (2, 3, 3, 2)
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
