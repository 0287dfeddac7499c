package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPotrsArgs(t *testing.T) {
	q, other := ArgQueues(t)
	L := batchlas.Lower
	a := ArgMatrix[float32](t, q, 4, 4, 3)
	b := ArgMatrix[float32](t, q, 4, 1, 3)
	rect := ArgMatrix[float32](t, q, 4, 5, 3)
	rows := ArgMatrix[float32](t, q, 3, 1, 3)
	batch := ArgMatrix[float32](t, q, 4, 1, 1)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Potrs(nil, L, a, b) }},
		{"bad uplo", "uplo", func() error { return batchlas.Potrs(q, 'X', a, b) }},
		{"non-square a", "a", func() error { return batchlas.Potrs(q, L, rect, b) }},
		{"b rows", "b", func() error { return batchlas.Potrs(q, L, a, rows) }},
		{"b batch", "b", func() error { return batchlas.Potrs(q, batchlas.Upper, a, batch) }},
		{"order: uplo before a", "uplo", func() error { return batchlas.Potrs(q, 'X', nil, rows) }},
		{"order: b before the shape of a", "b", func() error { return batchlas.Potrs(q, L, rect, nil) }},
		{"buffer size, bad uplo", "uplo", func() error {
			_, err := batchlas.PotrsBufferSize(q, 'X', a, b)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 4, 4, 3, func(m *batchlas.Matrix[float32]) error { return batchlas.Potrs(q, batchlas.Upper, m, b) })...)
	cases = append(cases, MatrixCases(t, q, other, "b", 4, 1, 3, func(m *batchlas.Matrix[float32]) error { return batchlas.Potrs(q, L, a, m) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(b))
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
