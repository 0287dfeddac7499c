package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGeqrfArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 5, 3, 3)
	wide := ArgMatrix[float64](t, q, 2, 4, 3)
	foreign := ArgMatrix[float64](t, other, 5, 3, 3)
	freed := ArgMatrix[float64](t, q, 5, 3, 3)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	tau := UploadVector(t, q, Fill(9, float64(Poison)))
	short := UploadVector(t, q, Fill(8, float64(Poison)))
	shortWide := UploadVector(t, q, Fill(5, float64(Poison)))
	foreignTau := UploadVector(t, other, Fill(9, float64(Poison)))
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Geqrf(nil, a, tau) }},
		{"nil a", "a", func() error { return batchlas.Geqrf[float64](q, nil, tau) }},
		{"zero a", "a", func() error { return batchlas.Geqrf(q, &batchlas.Matrix[float64]{}, tau) }},
		{"freed a", "a", func() error { return batchlas.Geqrf(q, freed, tau) }},
		{"foreign a", "a", func() error { return batchlas.Geqrf(q, foreign, tau) }},
		{"nil tau", "tau", func() error { return batchlas.Geqrf(q, a, nil) }},
		{"foreign tau", "tau", func() error { return batchlas.Geqrf(q, a, foreignTau) }},
		{"short tau", "tau", func() error { return batchlas.Geqrf(q, a, short) }},
		{"short tau, wide a", "tau", func() error { return batchlas.Geqrf(q, wide, shortWide) }},
		{"a checked before tau", "a", func() error { return batchlas.Geqrf(q, foreign, nil) }},
		{"buffer size, short tau", "tau", func() error {
			_, err := batchlas.GeqrfBufferSize(q, a, short)
			return err
		}},
	}, Watch(a), Watch(wide), Watch(tau), Watch(short), Watch(shortWide))
}

func FuzzGeqrf(f *testing.F) {
	f.Add(byte(0), 5, 3, 5, 15, 2, 6)
	f.Add(byte(3), 3, 5, 4, 20, 1, 3)
	f.Add(byte(1), 0, 0, 0, 0, 0, -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, dt byte, rows, cols, ld, stride, batch, tauLen int) {
		fuzzDTypes(dt, func(run fuzzRun) { run.geqrf(q, rows, cols, ld, stride, batch, tauLen) })
	})
}

// fuzzRun holds one dtype's fuzz bodies; fuzzDTypes picks the dtype from a fuzzed byte, so
// that every kernel meets every shape.
type fuzzRun interface {
	geqrf(q *batchlas.Queue, rows, cols, ld, stride, batch, tauLen int)
	orgqr(q *batchlas.Queue, rows, cols, ld, stride, batch, k, tauLen int)
	ormqr(q *batchlas.Queue, side, trans byte, k, ar, ac, ald, cr, cc, cld, batch, cbatch, tauLen int)
}

type fuzzOf[T batchlas.Scalar] struct{}

func fuzzDTypes(dt byte, f func(fuzzRun)) {
	switch dt % 4 {
	case 0:
		f(fuzzOf[float32]{})
	case 1:
		f(fuzzOf[float64]{})
	case 2:
		f(fuzzOf[complex64]{})
	default:
		f(fuzzOf[complex128]{})
	}
}

func (fuzzOf[T]) geqrf(q *batchlas.Queue, rows, cols, ld, stride, batch, tauLen int) {
	a := fuzzMatrix[T](q, rows, cols, ld, stride, batch)
	if a == nil {
		return
	}
	defer a.Free()
	tau, err := batchlas.NewVector[T](q, Small(tauLen))
	if err != nil {
		return
	}
	defer tau.Free()
	_ = batchlas.Geqrf(q, a, tau)
}
