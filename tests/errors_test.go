package tests

import (
	"errors"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
)

// TestErrorPrefixOnce walks representative errors of every kind, including those that quote
// another error (a closed queue inside an op, a refused pin, a missing library inside a
// NoRouteError): each text carries "batchlas:" exactly once, at its start.
func TestErrorPrefixOnce(t *testing.T) {
	q, _ := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 3, 3, 2)
	info := PoisonedInfo(t, q, 2)
	closed, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		t.Fatal(err)
	}
	ca := ArgMatrix[float64](t, closed, 3, 3, 2)
	closed.Close()
	pinned := func(op, pin string, call func() error) error {
		restore, err := route.Pin(op, pin)
		if err != nil {
			return err
		}
		defer restore()
		return call()
	}
	_, cudaErr := batchlas.NewQueue(batchlas.CUDA)
	_, rocmErr := batchlas.NewQueue(batchlas.ROCm)
	_, bigErr := batchlas.NewMatrix[float64](q, 1<<24, 1<<24, 1)
	_, nilErr := (*batchlas.Matrix[float32])(nil).Download(nil)
	errs := map[string]error{
		"closed queue in an op":  batchlas.Potrf(closed, batchlas.Lower, ca, info),
		"closed queue, Wait":     closed.Wait(),
		"closed queue, Reserve":  closed.Reserve(8),
		"bad argument":           batchlas.Potrf(q, batchlas.Uplo('X'), a, info),
		"nil matrix":             nilErr,
		"size beyond memory":     bigErr,
		"refused pin":            pinned("potrf", "lpanel:panel=8", func() error { return batchlas.Potrf(q, batchlas.Lower, a, info) }),
		"bad pin spelling":       pinned("potrf", "host:x", func() error { return nil }),
		"NewQueue(CUDA)":         cudaErr,
		"NewQueue(ROCm)":         rocmErr,
		"unknown backend":        func() error { _, err := batchlas.NewQueue(batchlas.Backend(9)); return err }(),
		"sentinel ErrClosed":     batchlas.ErrClosed,
		"sentinel invalid":       batchlas.ErrInvalidArgument,
		"NoRouteError, quoting":  &batchlas.NoRouteError{Op: "potrf", DType: "f64", Backend: "host", Key: "n=3", Tried: []string{"vendor: batchlas: no system LAPACK found", "host: cannot run"}},
		"ArgError, quoting":      &batchlas.ArgError{Op: "posv", Arg: "a", Rule: "batchlas: potrf: queue is closed"},
		"DeviceError":            &batchlas.DeviceError{Library: "cuda", Call: "cuMemAlloc_v2", Status: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY"},
		"nil ArgError's text":    (*batchlas.ArgError)(nil),
		"nil DeviceError's text": (*batchlas.DeviceError)(nil),
	}
	if q.Backend() == batchlas.Host {
		// A real NoRouteError needs a build where no family runs the call; the novendor
		// census finds those. Here the pin of a family that cannot run stands for it.
		errs["pin of a family that cannot run"] = pinned("gemm", "vendor:1", func() error { return batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, a, a, 0, a) })
	}
	for name, err := range errs {
		if err == nil {
			if name == "NewQueue(CUDA)" || name == "NewQueue(ROCm)" { // a GPU (or the ROCm stand-in) answered
				continue
			}
			t.Errorf("%s: no error", name)
			continue
		}
		msg := err.Error()
		if n := strings.Count(msg, "batchlas:"); n != 1 || !strings.HasPrefix(msg, "batchlas: ") {
			t.Errorf("%s: %q carries %d prefixes, want one at the start", name, msg, n)
		}
	}
	if err := errs["closed queue in an op"]; !errors.Is(err, batchlas.ErrClosed) {
		t.Errorf("an op on a closed queue: %v does not wrap ErrClosed", err)
	}
}
