package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPosvArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[complex128](t, q, 4, 4, 3)
	b := ArgMatrix[complex128](t, q, 4, 2, 3)
	rect := ArgMatrix[complex128](t, q, 5, 4, 3)
	rows := ArgMatrix[complex128](t, q, 5, 2, 3)
	batch := ArgMatrix[complex128](t, q, 4, 2, 2)
	foreign := ArgMatrix[complex128](t, other, 4, 4, 3)
	foreignB := ArgMatrix[complex128](t, other, 4, 2, 3)
	info := PoisonedInfo(t, q, 3)
	shortInfo := PoisonedInfo(t, q, 2)
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Posv(nil, batchlas.Lower, a, b, info) }},
		{"bad uplo", "uplo", func() error { return batchlas.Posv(q, 'X', a, b, info) }},
		{"nil a", "a", func() error { return batchlas.Posv(q, batchlas.Lower, nil, b, info) }},
		{"foreign a", "a", func() error { return batchlas.Posv(q, batchlas.Lower, foreign, b, info) }},
		{"nil b", "b", func() error { return batchlas.Posv(q, batchlas.Upper, a, nil, info) }},
		{"foreign b", "b", func() error { return batchlas.Posv(q, batchlas.Lower, a, foreignB, info) }},
		{"non-square a", "a", func() error { return batchlas.Posv(q, batchlas.Lower, rect, b, info) }},
		{"b rows", "b", func() error { return batchlas.Posv(q, batchlas.Lower, a, rows, info) }},
		{"b batch", "b", func() error { return batchlas.Posv(q, batchlas.Lower, a, batch, info) }},
		{"nil info", "info", func() error { return batchlas.Posv(q, batchlas.Lower, a, b, nil) }},
		{"short info", "info", func() error { return batchlas.Posv(q, batchlas.Upper, a, b, shortInfo) }},
		{"order: uplo before a", "uplo", func() error { return batchlas.Posv(q, 'X', foreign, b, info) }},
		{"order: b before the shape of a", "b", func() error { return batchlas.Posv(q, batchlas.Lower, rect, nil, info) }},
		{"order: shapes before info", "b", func() error { return batchlas.Posv(q, batchlas.Lower, a, rows, shortInfo) }},
		{"buffer size, short info", "info", func() error {
			_, err := batchlas.PosvBufferSize(q, batchlas.Lower, a, b, shortInfo)
			return err
		}},
	}, Watch(a), Watch(b), Watch(info))
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
