package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestOrgqrArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 5, 3, 3)
	wide := ArgMatrix[float64](t, q, 3, 5, 3)
	foreign := ArgMatrix[float64](t, other, 5, 3, 3)
	freed := ArgMatrix[float64](t, q, 5, 3, 3)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	tau := UploadVector(t, q, Fill(9, float64(Poison)))
	short := UploadVector(t, q, Fill(5, float64(Poison)))
	foreignTau := UploadVector(t, other, Fill(9, float64(Poison)))
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Orgqr(nil, 3, a, tau) }},
		{"nil a", "a", func() error { return batchlas.Orgqr[float64](q, 3, nil, tau) }},
		{"zero a", "a", func() error { return batchlas.Orgqr(q, 3, &batchlas.Matrix[float64]{}, tau) }},
		{"freed a", "a", func() error { return batchlas.Orgqr(q, 3, freed, tau) }},
		{"foreign a", "a", func() error { return batchlas.Orgqr(q, 3, foreign, tau) }},
		{"wide a", "a", func() error { return batchlas.Orgqr(q, 3, wide, tau) }},
		{"negative k", "k", func() error { return batchlas.Orgqr(q, -1, a, tau) }},
		{"k > n", "k", func() error { return batchlas.Orgqr(q, 4, a, tau) }},
		{"nil tau", "tau", func() error { return batchlas.Orgqr(q, 3, a, nil) }},
		{"foreign tau", "tau", func() error { return batchlas.Orgqr(q, 3, a, foreignTau) }},
		{"short tau", "tau", func() error { return batchlas.Orgqr(q, 2, a, short) }},
		{"a checked before k", "a", func() error { return batchlas.Orgqr(q, -1, wide, tau) }},
		{"k checked before tau", "k", func() error { return batchlas.Orgqr(q, 4, a, nil) }},
		{"buffer size, bad k", "k", func() error {
			_, err := batchlas.OrgqrBufferSize(q, 4, a, tau)
			return err
		}},
	}, Watch(a), Watch(wide), Watch(tau), Watch(short))
}

func FuzzOrgqr(f *testing.F) {
	f.Add(byte(1), 5, 3, 5, 15, 2, 3, 6)
	f.Add(byte(2), 4, 4, 6, 30, 3, 2, 6)
	f.Add(byte(0), 0, 0, 0, 0, 0, -1, -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, dt byte, rows, cols, ld, stride, batch, k, tauLen int) {
		fuzzDTypes(dt, func(run fuzzRun) { run.orgqr(q, rows, cols, ld, stride, batch, k, tauLen) })
	})
}

func (fuzzOf[T]) orgqr(q *batchlas.Queue, rows, cols, ld, stride, batch, k, tauLen int) {
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
	_ = batchlas.Orgqr(q, Small(k), a, tau)
}
