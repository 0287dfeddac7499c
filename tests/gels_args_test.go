package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGelsArgs(t *testing.T) {
	q, other := ArgQueues(t)
	N, C := batchlas.NoTrans, batchlas.ConjTrans
	a := ArgMatrix[complex128](t, q, 5, 3, 3)
	b := ArgMatrix[complex128](t, q, 5, 2, 3)
	wide := ArgMatrix[complex128](t, q, 3, 5, 3)
	rows := ArgMatrix[complex128](t, q, 3, 2, 3) // m rows, but max(m, n) = 5 is needed for wide
	batch := ArgMatrix[complex128](t, q, 5, 2, 2)
	info := PoisonedInfo(t, q, 3)
	shortInfo := PoisonedInfo(t, q, 2)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Gels(nil, N, a, b, info) }},
		{"bad trans", "trans", func() error { return batchlas.Gels(q, 'X', a, b, info) }},
		{"Trans of a complex type", "trans", func() error { return batchlas.Gels(q, batchlas.Trans, a, b, info) }},
		{"b rows, tall a", "b", func() error { return batchlas.Gels(q, N, a, rows, info) }},
		{"b rows, wide a", "b", func() error { return batchlas.Gels(q, C, wide, rows, info) }},
		{"b batch", "b", func() error { return batchlas.Gels(q, N, a, batch, info) }},
		{"order: trans before a", "trans", func() error { return batchlas.Gels(q, 'X', nil, b, info) }},
		{"order: a before b", "a", func() error { return batchlas.Gels[complex128](q, N, nil, nil, info) }},
		{"order: shapes before info", "b", func() error { return batchlas.Gels(q, N, a, rows, shortInfo) }},
		{"buffer size, short info", "info", func() error {
			_, err := batchlas.GelsBufferSize(q, N, a, b, shortInfo)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 5, 3, 3, func(m *batchlas.Matrix[complex128]) error { return batchlas.Gels(q, N, m, b, info) })...)
	cases = append(cases, MatrixCases(t, q, other, "b", 5, 2, 3, func(m *batchlas.Matrix[complex128]) error { return batchlas.Gels(q, C, a, m, info) })...)
	cases = append(cases, VectorCases(t, q, other, "info", 3, func(v *batchlas.Vector[int32]) error { return batchlas.Gels(q, N, a, b, v) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(b), Watch(wide), Watch(info))
}

// TestGelsRealTrans: for the real types Trans and ConjTrans are the same problem, A^T X = B.
func TestGelsRealTrans(t *testing.T) {
	q, _ := ArgQueues(t)
	rng := NewRand(t)
	l := Layout{Rows: 6, Cols: 4, Batch: 2}
	in := RandStored[float64](rng, l)
	rhs := RandStored[float64](rng, Layout{Rows: 6, Cols: 2, Batch: 2})
	var got [2][]float64
	for i, tr := range []batchlas.Transpose{batchlas.Trans, batchlas.ConjTrans} {
		a, b, info := Upload(t, q, in), Upload(t, q, rhs), PoisonedInfo(t, q, 2)
		if err := batchlas.Gels(q, tr, a, b, info); err != nil {
			t.Fatalf("%v: %v", tr, err)
		}
		got[i] = Download(t, q, b, rhs.Layout).S
	}
	for i := range got[0] {
		if got[0][i] != got[1][i] && !(IsNaN(got[0][i]) && IsNaN(got[1][i])) {
			t.Fatalf("element %d: Trans gives %v, ConjTrans %v", i, got[0][i], got[1][i])
		}
	}
}

func FuzzGels(f *testing.F) {
	f.Add(5, 3, 5, 2, 3, 3, byte('N'), 3)
	f.Add(3, 5, 5, 1, 2, 2, byte('T'), 2)
	f.Add(0, 0, 0, 0, 0, 0, byte('X'), -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, m, n, bRows, nrhs, batch, bBatch int, trans byte, infoLen int) {
		a := FuzzMatrix[float64](t, q, m, n, 0, 0, batch)
		b := FuzzMatrix[float64](t, q, bRows, nrhs, 0, 0, bBatch)
		_ = batchlas.Gels(q, batchlas.Transpose(trans), a, b, FuzzVector[int32](t, q, infoLen))
	})
}
