package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPotrsArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[float32](t, q, 4, 4, 3)
	b := ArgMatrix[float32](t, q, 4, 1, 3)
	rect := ArgMatrix[float32](t, q, 4, 5, 3)
	rows := ArgMatrix[float32](t, q, 3, 1, 3)
	batch := ArgMatrix[float32](t, q, 4, 1, 1)
	foreign := ArgMatrix[float32](t, other, 4, 4, 3)
	foreignB := ArgMatrix[float32](t, other, 4, 1, 3)
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Potrs(nil, batchlas.Lower, a, b) }},
		{"bad uplo", "uplo", func() error { return batchlas.Potrs(q, 'X', a, b) }},
		{"nil a", "a", func() error { return batchlas.Potrs(q, batchlas.Lower, nil, b) }},
		{"foreign a", "a", func() error { return batchlas.Potrs(q, batchlas.Upper, foreign, b) }},
		{"nil b", "b", func() error { return batchlas.Potrs(q, batchlas.Lower, a, nil) }},
		{"foreign b", "b", func() error { return batchlas.Potrs(q, batchlas.Lower, a, foreignB) }},
		{"non-square a", "a", func() error { return batchlas.Potrs(q, batchlas.Lower, rect, b) }},
		{"b rows", "b", func() error { return batchlas.Potrs(q, batchlas.Lower, a, rows) }},
		{"b batch", "b", func() error { return batchlas.Potrs(q, batchlas.Upper, a, batch) }},
		{"order: uplo before a", "uplo", func() error { return batchlas.Potrs(q, 'X', nil, rows) }},
		{"order: b before the shape of a", "b", func() error { return batchlas.Potrs(q, batchlas.Lower, rect, foreignB) }},
		{"buffer size, bad uplo", "uplo", func() error {
			_, err := batchlas.PotrsBufferSize(q, 'X', a, b)
			return err
		}},
	}, Watch(a), Watch(b))
}

func FuzzPotrs(f *testing.F) {
	f.Add(4, 4, 2, 3, 3, byte('L'))
	f.Add(0, 0, 0, 0, 0, byte('X'))
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, n, bRows, nrhs, batch, bBatch int, uplo byte) {
		a := FuzzMatrix[complex64](t, q, n, n, 0, 0, batch)
		b := FuzzMatrix[complex64](t, q, bRows, nrhs, 0, 0, bBatch)
		_ = batchlas.Potrs(q, batchlas.Uplo(uplo), a, b)
	})
}
