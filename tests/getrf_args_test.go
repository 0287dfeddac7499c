package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetrfArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 5, 3, 3)
	foreign := ArgMatrix[float64](t, other, 5, 3, 3)
	freed := ArgMatrix[float64](t, q, 5, 3, 3)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	ipiv := PoisonedInfo(t, q, 9)
	shortPiv := PoisonedInfo(t, q, 8)
	foreignPiv := PoisonedInfo(t, other, 9)
	info := PoisonedInfo(t, q, 3)
	shortInfo := PoisonedInfo(t, q, 2)
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Getrf(nil, a, ipiv, info) }},
		{"nil a", "a", func() error { return batchlas.Getrf[float64](q, nil, ipiv, info) }},
		{"zero a", "a", func() error { return batchlas.Getrf(q, &batchlas.Matrix[float64]{}, ipiv, info) }},
		{"freed a", "a", func() error { return batchlas.Getrf(q, freed, ipiv, info) }},
		{"foreign a", "a", func() error { return batchlas.Getrf(q, foreign, ipiv, info) }},
		{"nil ipiv", "ipiv", func() error { return batchlas.Getrf(q, a, nil, info) }},
		{"short ipiv", "ipiv", func() error { return batchlas.Getrf(q, a, shortPiv, info) }},
		{"foreign ipiv", "ipiv", func() error { return batchlas.Getrf(q, a, foreignPiv, info) }},
		{"nil info", "info", func() error { return batchlas.Getrf(q, a, ipiv, nil) }},
		{"short info", "info", func() error { return batchlas.Getrf(q, a, ipiv, shortInfo) }},
		{"order: a before ipiv", "a", func() error { return batchlas.Getrf(q, freed, shortPiv, shortInfo) }},
		{"order: ipiv before info", "ipiv", func() error { return batchlas.Getrf(q, a, foreignPiv, nil) }},
		{"buffer size, short info", "info", func() error {
			_, err := batchlas.GetrfBufferSize(q, a, ipiv, shortInfo)
			return err
		}},
	}, Watch(a), Watch(ipiv), Watch(info))
}

func FuzzGetrf(f *testing.F) {
	f.Add(5, 3, 5, 15, 2, 6, 2)
	f.Add(3, 7, 4, 30, 1, 3, 1)
	f.Add(0, 0, 0, 0, 0, -1, -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch, pivLen, infoLen int) {
		a := FuzzMatrix[complex64](t, q, rows, cols, ld, stride, batch)
		_ = batchlas.Getrf(q, a, FuzzVector[int32](t, q, pivLen), FuzzVector[int32](t, q, infoLen))
	})
}
