package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetrsArgs(t *testing.T) {
	q, other := ArgQueues(t)
	N := batchlas.NoTrans
	a := ArgMatrix[float64](t, q, 4, 4, 3)
	b := ArgMatrix[float64](t, q, 4, 2, 3)
	rect := ArgMatrix[float64](t, q, 4, 3, 3)
	rows := ArgMatrix[float64](t, q, 5, 2, 3)
	batch := ArgMatrix[float64](t, q, 4, 2, 2)
	ipiv := UploadVector(t, q, []int32{1, 2, 3, 4, 4, 4, 4, 4, 2, 2, 3, 4})
	short := UploadVector(t, q, Fill(11, int32(1)))
	zero := UploadVector(t, q, Fill(12, int32(0)))
	big := UploadVector(t, q, []int32{1, 2, 3, 4, 4, 4, 4, 4, 2, 2, 3, 5})
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Getrs(nil, N, a, ipiv, b) }},
		{"bad trans", "trans", func() error { return batchlas.Getrs(q, 'X', a, ipiv, b) }},
		{"non-square a", "a", func() error { return batchlas.Getrs(q, N, rect, ipiv, b) }},
		{"b rows", "b", func() error { return batchlas.Getrs(q, N, a, ipiv, rows) }},
		{"b batch", "b", func() error { return batchlas.Getrs(q, batchlas.ConjTrans, a, ipiv, batch) }},
		{"zero pivot", "ipiv", func() error { return batchlas.Getrs(q, N, a, zero, b) }},
		{"pivot above n", "ipiv", func() error { return batchlas.Getrs(q, batchlas.Trans, a, big, b) }},
		{"order: trans before a", "trans", func() error { return batchlas.Getrs(q, 'X', nil, short, rows) }},
		{"order: b before the shape of a", "b", func() error { return batchlas.Getrs(q, N, rect, ipiv, nil) }},
		{"order: shapes before ipiv", "b", func() error { return batchlas.Getrs(q, N, a, short, rows) }},
		{"buffer size, bad trans", "trans", func() error {
			_, err := batchlas.GetrsBufferSize(q, 'X', a, ipiv, b)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 4, 4, 3, func(m *batchlas.Matrix[float64]) error { return batchlas.Getrs(q, N, m, ipiv, b) })...)
	cases = append(cases, MatrixCases(t, q, other, "b", 4, 2, 3, func(m *batchlas.Matrix[float64]) error { return batchlas.Getrs(q, batchlas.Trans, a, ipiv, m) })...)
	cases = append(cases, VectorCases(t, q, other, "ipiv", 12, func(v *batchlas.Vector[int32]) error { return batchlas.Getrs(q, N, a, v, b) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(b), Watch(ipiv))
}

func FuzzGetrs(f *testing.F) {
	f.Add(4, 4, 2, 3, 3, byte('N'), 12, int32(1))
	f.Add(3, 3, 3, 1, 1, byte('C'), 3, int32(4))
	f.Add(0, 0, 0, 0, 0, byte('X'), -1, int32(-1))
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, n, bRows, nrhs, batch, bBatch int, trans byte, pivLen int, piv int32) {
		a := FuzzMatrix[complex128](t, q, n, n, 0, 0, batch)
		b := FuzzMatrix[complex128](t, q, bRows, nrhs, 0, 0, bBatch)
		_ = batchlas.Getrs(q, batchlas.Transpose(trans), a, fuzzPivots(t, q, pivLen, piv), b)
	})
}

// fuzzPivots is a fuzzed pivot vector whose every element is piv, or nil where NewVector
// refuses the length.
func fuzzPivots(t *testing.T, q *batchlas.Queue, n int, piv int32) *batchlas.Vector[int32] {
	v := FuzzVector[int32](t, q, n)
	if v != nil {
		if err := v.Upload(Fill(v.Len(), piv)); err != nil {
			t.Fatal(err)
		}
	}
	return v
}
