package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPotrfArgs(t *testing.T) {
	q, other := ArgQueues(t)
	L := batchlas.Lower
	a := ArgMatrix[float64](t, q, 4, 4, 3)
	rect := ArgMatrix[float64](t, q, 4, 3, 3)
	info := PoisonedInfo(t, q, 3)
	short := PoisonedInfo(t, q, 2)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Potrf(nil, L, a, info) }},
		{"bad uplo", "uplo", func() error { return batchlas.Potrf(q, 'X', a, info) }},
		{"non-square a", "a", func() error { return batchlas.Potrf(q, L, rect, info) }},
		{"order: uplo before a", "uplo", func() error { return batchlas.Potrf[float64](q, 'X', nil, short) }},
		{"order: shape of a before info", "a", func() error { return batchlas.Potrf(q, L, rect, short) }},
		{"buffer size, bad uplo", "uplo", func() error {
			_, err := batchlas.PotrfBufferSize(q, 'X', a, info)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 4, 4, 3, func(m *batchlas.Matrix[float64]) error { return batchlas.Potrf(q, L, m, info) })...)
	cases = append(cases, VectorCases(t, q, other, "info", 3, func(v *batchlas.Vector[int32]) error { return batchlas.Potrf(q, L, a, v) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(info))
}

func FuzzPotrf(f *testing.F) {
	f.Add(4, 4, 4, 16, 2, byte('L'), 2)
	f.Add(3, 3, 2, 9, 1, byte('U'), 1)
	f.Add(0, 0, 0, 0, 0, byte('X'), -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch int, uplo byte, infoLen int) {
		a := FuzzMatrix[complex64](t, q, rows, cols, ld, stride, batch)
		_ = batchlas.Potrf(q, batchlas.Uplo(uplo), a, FuzzVector[int32](t, q, infoLen))
	})
}
