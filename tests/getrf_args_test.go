package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetrfArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 5, 3, 3)
	ipiv := PoisonedInfo(t, q, 9)
	info := PoisonedInfo(t, q, 3)
	shortPiv := PoisonedInfo(t, q, 8)
	shortInfo := PoisonedInfo(t, q, 2)
	foreignPiv := PoisonedInfo(t, other, 9)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Getrf(nil, a, ipiv, info) }},
		{"order: a before ipiv", "a", func() error { return batchlas.Getrf(q, &batchlas.Matrix[float64]{}, shortPiv, shortInfo) }},
		{"order: ipiv before info", "ipiv", func() error { return batchlas.Getrf(q, a, foreignPiv, nil) }},
		{"buffer size, short info", "info", func() error {
			_, err := batchlas.GetrfBufferSize(q, a, ipiv, shortInfo)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 5, 3, 3, func(m *batchlas.Matrix[float64]) error { return batchlas.Getrf(q, m, ipiv, info) })...)
	cases = append(cases, VectorCases(t, q, other, "ipiv", 9, func(v *batchlas.Vector[int32]) error { return batchlas.Getrf(q, a, v, info) })...)
	cases = append(cases, VectorCases(t, q, other, "info", 3, func(v *batchlas.Vector[int32]) error { return batchlas.Getrf(q, a, ipiv, v) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(ipiv), Watch(info))
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
