package tests

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
)

// TestCombinedFactors checks the combined drivers' promise: Posv leaves in a exactly the
// factor that Potrf leaves, and Gesv exactly the factors and pivots that Getrf leaves, bit for
// bit, under the factorization's automatic routing and under each pin of its families, for
// every order from 1 to 64. Each batch plants a failing matrix (not positive definite,
// exactly singular), whose factor must agree too.
func TestCombinedFactors(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		for _, op := range []string{"potrf", "getrf"} {
			fams, _, err := route.Candidates(op, "f64")
			if err != nil {
				t.Fatal(err)
			}
			for _, fam := range append([]string{"auto"}, fams...) {
				t.Run(op+"/"+fam, func(t *testing.T) {
					pinFor(t, op, fam)
					if err := pinnedSuites[op].probe(q); routeRefused(err) {
						t.Skipf("%s cannot run on %s: %v", fam, q.Device().Key, err)
					} else if err != nil {
						t.Fatalf("probe: %v", err)
					}
					if op == "potrf" {
						ForEachDType(t, q, checkPosvFactor[float32], checkPosvFactor[float64], checkPosvFactor[complex64], checkPosvFactor[complex128])
					} else {
						ForEachDType(t, q, checkGesvFactor[float32], checkGesvFactor[float64], checkGesvFactor[complex64], checkGesvFactor[complex128])
					}
				})
			}
		}
	})
}

// combinedOrders are the orders TestCombinedFactors runs: all of 1 to 64.
func combinedOrders() []int {
	ns := make([]int, 64)
	for i := range ns {
		ns[i] = i + 1
	}
	return ns
}

// sameRefusal reports whether the pinned factorization refused the call (the order is past
// its family's limit) and the driver refused it too, with an error naming the route (the
// pin's refusal, not a NoRouteError: the census counts those as shapes the build misses),
// and fails t when only one of them refused or anything else went wrong.
func sameRefusal(t *testing.T, n int, errF, errS error) bool {
	t.Helper()
	switch {
	case routeRefused(errF) && routeRefused(errS):
		return true
	case errF != nil || errS != nil:
		t.Fatalf("n = %d: the factorization says %v, the driver %v", n, errF, errS)
	}
	return false
}

func checkPosvFactor[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	rng := NewRand(t)
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, n := range combinedOrders() {
			l := Layout{Rows: n, Cols: n, LDPad: 1, Batch: 3}
			_, in := randSPDStored[T](rng, uplo, l, map[int]int{1: n / 2})
			a1, a2 := Upload(t, q, in), Upload(t, q, in)
			i1, i2 := PoisonedInfo(t, q, l.Batch), PoisonedInfo(t, q, l.Batch)
			b := Upload(t, q, RandStored[T](rng, Layout{Rows: n, Cols: 2, Batch: l.Batch}))
			errF := batchlas.Potrf(q, uplo, a1, i1)
			if sameRefusal(t, n, errF, batchlas.Posv(q, uplo, a2, b, i2)) {
				continue
			}
			f1, f2 := Download(t, q, a1, l), Download(t, q, a2, l)
			if !bytes.Equal(fpBytes(f1.S), fpBytes(f2.S)) {
				t.Errorf("%v n = %d: Posv's factor differs from Potrf's (%s)", uplo, n, firstDiff(f1, f2))
			}
			if x, y := DownloadVector(t, q, i1), DownloadVector(t, q, i2); fmt.Sprint(x) != fmt.Sprint(y) {
				t.Errorf("%v n = %d: info %v from Posv, %v from Potrf", uplo, n, y, x)
			}
		}
	}
}

func checkGesvFactor[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	rng := NewRand(t)
	for _, n := range combinedOrders() {
		l := Layout{Rows: n, Cols: n, LDPad: 1, Batch: 3}
		in := RandStored[T](rng, l)
		for i := 0; i < n; i++ {
			in.Set(1, i, n/2, 0) // matrix 1 is singular: its column n/2 is zero
		}
		a1, a2 := Upload(t, q, in), Upload(t, q, in)
		p1, p2 := PoisonedInfo(t, q, n*l.Batch), PoisonedInfo(t, q, n*l.Batch)
		i1, i2 := PoisonedInfo(t, q, l.Batch), PoisonedInfo(t, q, l.Batch)
		b := Upload(t, q, RandStored[T](rng, Layout{Rows: n, Cols: 2, Batch: l.Batch}))
		errF := batchlas.Getrf(q, a1, p1, i1)
		if sameRefusal(t, n, errF, batchlas.Gesv(q, a2, p2, b, i2)) {
			continue
		}
		f1, f2 := Download(t, q, a1, l), Download(t, q, a2, l)
		if !bytes.Equal(fpBytes(f1.S), fpBytes(f2.S)) {
			t.Errorf("n = %d: Gesv's factors differ from Getrf's (%s)", n, firstDiff(f1, f2))
		}
		for _, v := range [][2]*batchlas.Vector[int32]{{p1, p2}, {i1, i2}} {
			if x, y := DownloadVector(t, q, v[0]), DownloadVector(t, q, v[1]); fmt.Sprint(x) != fmt.Sprint(y) {
				t.Errorf("n = %d: pivots or info %v from Gesv, %v from Getrf", n, y, x)
			}
		}
	}
}

// firstDiff names the first element where two spans differ, and how many do.
func firstDiff[T batchlas.Scalar](x, y Stored[T]) string {
	first, count := -1, 0
	for k := range x.S {
		if !bytes.Equal(fpBytes(x.S[k:k+1]), fpBytes(y.S[k:k+1])) {
			if first < 0 {
				first = k
			}
			count++
		}
	}
	return fmt.Sprintf("%d of %d elements, first at %d: %v against %v", count, len(x.S), first, y.S[first], x.S[first])
}
