package route_test

import (
	"fmt"
	"log"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
)

// Pin potrf to its pure-Go family and watch the choice in the trace: the pin wins over the
// tables, three identical calls fold into one line, and a pin that cannot run the call is an
// error naming the argument "route".
func ExamplePin() {
	q, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close()
	var trace strings.Builder
	defer route.SetLog(&trace)() // the trace goes to stderr unless sent elsewhere
	stop := route.Trace()

	a, _ := batchlas.NewMatrix[float64](q, 4, 4, 8)
	for b := 0; b < 8; b++ {
		_ = batchlas.FromDense(a, b, mat.DenseCopyOf(mat.NewDiagDense(4, []float64{1, 4, 9, 16})))
	}
	info, _ := batchlas.NewVector[int32](q, 8)
	restore, err := route.Pin("potrf", "host")
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		if err := batchlas.Potrf(q, batchlas.Lower, a, info); err != nil {
			log.Fatal(err)
		}
	}
	restore()
	stop()                                              // prints the folded line
	line, _, _ := strings.Cut(trace.String(), ", took") // the measured time varies from run to run
	fmt.Println(line)

	restore, _ = route.Pin("potrf", "cta") // a CUDA family: it cannot run on the host
	defer restore()
	fmt.Println(batchlas.Potrf(q, batchlas.Lower, a, info))
	// Output:
	// potrf f64 uplo=L n=4 batch=8 -> host [pin]; 3 identical calls
	// batchlas: potrf: argument route: pinned "cta": cta:reg=0 cannot run f64 uplo=L n=4 batch=8 on cpu
}
