package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPosvArgs(t *testing.T) {
	q, other := ArgQueues(t)
	L := batchlas.Lower
	a := ArgMatrix[complex128](t, q, 4, 4, 3)
	b := ArgMatrix[complex128](t, q, 4, 2, 3)
	rect := ArgMatrix[complex128](t, q, 5, 4, 3)
	rows := ArgMatrix[complex128](t, q, 5, 2, 3)
	batch := ArgMatrix[complex128](t, q, 4, 2, 2)
	info := PoisonedInfo(t, q, 3)
	shortInfo := PoisonedInfo(t, q, 2)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Posv(nil, L, a, b, info) }},
		{"bad uplo", "uplo", func() error { return batchlas.Posv(q, 'X', a, b, info) }},
		{"non-square a", "a", func() error { return batchlas.Posv(q, L, rect, b, info) }},
		{"b rows", "b", func() error { return batchlas.Posv(q, L, a, rows, info) }},
		{"b batch", "b", func() error { return batchlas.Posv(q, L, a, batch, info) }},
		{"order: uplo before a", "uplo", func() error { return batchlas.Posv(q, 'X', nil, b, info) }},
		{"order: b before the shape of a", "b", func() error { return batchlas.Posv(q, L, rect, nil, info) }},
		{"order: shapes before info", "b", func() error { return batchlas.Posv(q, L, a, rows, shortInfo) }},
		{"buffer size, short info", "info", func() error {
			_, err := batchlas.PosvBufferSize(q, L, a, b, shortInfo)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 4, 4, 3, func(m *batchlas.Matrix[complex128]) error { return batchlas.Posv(q, L, m, b, info) })...)
	cases = append(cases, MatrixCases(t, q, other, "b", 4, 2, 3, func(m *batchlas.Matrix[complex128]) error { return batchlas.Posv(q, batchlas.Upper, a, m, info) })...)
	cases = append(cases, VectorCases(t, q, other, "info", 3, func(v *batchlas.Vector[int32]) error { return batchlas.Posv(q, L, a, b, v) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(b), Watch(info))
}

func FuzzPosv(f *testing.F) {
	f.Add(4, 4, 2, 3, 3, byte('U'), 3)
	f.Add(0, 0, 0, 0, 0, byte('X'), -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, n, bRows, nrhs, batch, bBatch int, uplo byte, infoLen int) {
		a := FuzzMatrix[float64](t, q, n, n, 0, 0, batch)
		b := FuzzMatrix[float64](t, q, bRows, nrhs, 0, 0, bBatch)
		_ = batchlas.Posv(q, batchlas.Uplo(uplo), a, b, FuzzVector[int32](t, q, infoLen))
	})
}
