//go:build cuda && !novendor

package batchlas

import (
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/vendorref"
)

// TestGeqrfBatchedRefArgs: the cuda build registers the cublas geqrfBatched yardstick, and it
// refuses, naming the argument, what is not a queue, a scalar matrix, a tau vector of the
// matrix's type, or a CUDA queue; nothing reaches a device.
func TestGeqrfBatchedRefArgs(t *testing.T) {
	if vendorref.GeqrfBatched == nil {
		t.Fatal("the cuda build registers no vendorref.GeqrfBatched")
	}
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	a, err := NewMatrix[float64](q, 4, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	tau, err := NewVector[float64](q, 8)
	if err != nil {
		t.Fatal(err)
	}
	tau32, err := NewVector[float32](q, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q, a, tau any
		want      string
	}{
		{"queue", a, tau, "argument q:"},
		{q, []float64{1}, tau, "argument a:"},
		{q, a, tau32, "argument tau:"},
		{q, a, tau, "needs a CUDA queue"},
	} {
		err := vendorref.GeqrfBatched(c.q, c.a, c.tau)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("GeqrfBatched(%T, %T, %T) = %v; want an error with %q", c.q, c.a, c.tau, err, c.want)
		}
	}
}
