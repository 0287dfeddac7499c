package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestPotrfArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 4, 4, 3)
	rect := ArgMatrix[float64](t, q, 4, 3, 3)
	foreign := ArgMatrix[float64](t, other, 4, 4, 3)
	info := UploadVector(t, q, Fill(3, int32(Poison)))
	short := UploadVector(t, q, Fill(2, int32(Poison)))
	freed := ArgMatrix[float64](t, q, 4, 4, 3)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Potrf(nil, batchlas.Lower, a, info) }},
		{"bad uplo", "uplo", func() error { return batchlas.Potrf(q, 'X', a, info) }},
		{"nil a", "a", func() error { return batchlas.Potrf[float64](q, batchlas.Lower, nil, info) }},
		{"zero a", "a", func() error { return batchlas.Potrf(q, batchlas.Lower, &batchlas.Matrix[float64]{}, info) }},
		{"freed a", "a", func() error { return batchlas.Potrf(q, batchlas.Lower, freed, info) }},
		{"foreign a", "a", func() error { return batchlas.Potrf(q, batchlas.Lower, foreign, info) }},
		{"non-square a", "a", func() error { return batchlas.Potrf(q, batchlas.Lower, rect, info) }},
		{"nil info", "info", func() error { return batchlas.Potrf(q, batchlas.Lower, a, nil) }},
		{"short info", "info", func() error { return batchlas.Potrf(q, batchlas.Lower, a, short) }},
		{"order: uplo before a", "uplo", func() error { return batchlas.Potrf(q, 'X', freed, short) }},
		{"order: shape of a before info", "a", func() error { return batchlas.Potrf(q, batchlas.Lower, rect, short) }},
		{"buffer size, bad uplo", "uplo", func() error {
			_, err := batchlas.PotrfBufferSize(q, 'X', a, info)
			return err
		}},
	}, Watch(a), Watch(info))
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
