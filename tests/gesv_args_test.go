package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGesvArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[complex64](t, q, 4, 4, 3)
	b := ArgMatrix[complex64](t, q, 4, 2, 3)
	rect := ArgMatrix[complex64](t, q, 4, 3, 3)
	rows := ArgMatrix[complex64](t, q, 3, 2, 3)
	batch := ArgMatrix[complex64](t, q, 4, 2, 4)
	ipiv := PoisonedInfo(t, q, 12)
	shortPiv := PoisonedInfo(t, q, 11)
	info := PoisonedInfo(t, q, 3)
	shortInfo := PoisonedInfo(t, q, 2)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Gesv(nil, a, ipiv, b, info) }},
		{"non-square a", "a", func() error { return batchlas.Gesv(q, rect, ipiv, b, info) }},
		{"b rows", "b", func() error { return batchlas.Gesv(q, a, ipiv, rows, info) }},
		{"b batch", "b", func() error { return batchlas.Gesv(q, a, ipiv, batch, info) }},
		{"order: b before the shape of a", "b", func() error { return batchlas.Gesv(q, rect, ipiv, nil, info) }},
		{"order: shapes before ipiv", "b", func() error { return batchlas.Gesv(q, a, shortPiv, batch, shortInfo) }},
		{"order: ipiv before info", "ipiv", func() error { return batchlas.Gesv(q, a, nil, b, nil) }},
		{"buffer size, b rows", "b", func() error {
			_, err := batchlas.GesvBufferSize(q, a, ipiv, rows, info)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 4, 4, 3, func(m *batchlas.Matrix[complex64]) error { return batchlas.Gesv(q, m, ipiv, b, info) })...)
	cases = append(cases, MatrixCases(t, q, other, "b", 4, 2, 3, func(m *batchlas.Matrix[complex64]) error { return batchlas.Gesv(q, a, ipiv, m, info) })...)
	cases = append(cases, VectorCases(t, q, other, "ipiv", 12, func(v *batchlas.Vector[int32]) error { return batchlas.Gesv(q, a, v, b, info) })...)
	cases = append(cases, VectorCases(t, q, other, "info", 3, func(v *batchlas.Vector[int32]) error { return batchlas.Gesv(q, a, ipiv, b, v) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(b), Watch(ipiv), Watch(info))
}

func FuzzGesv(f *testing.F) {
	f.Add(4, 4, 2, 3, 3, 12, 3)
	f.Add(1, 1, 1, 1, 1, 1, 1)
	f.Add(0, 0, 0, 0, 0, -1, -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, n, bRows, nrhs, batch, bBatch, pivLen, infoLen int) {
		a := FuzzMatrix[float32](t, q, n, n, 0, 0, batch)
		b := FuzzMatrix[float32](t, q, bRows, nrhs, 0, 0, bBatch)
		_ = batchlas.Gesv(q, a, FuzzVector[int32](t, q, pivLen), b, FuzzVector[int32](t, q, infoLen))
	})
}
