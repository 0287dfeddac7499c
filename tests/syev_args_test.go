package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSyevArgs(t *testing.T) {
	q, other := ArgQueues(t)
	const v, l = batchlas.Vectors, batchlas.Lower
	a := ArgMatrix[float64](t, q, 4, 4, 3)
	ac := ArgMatrix[complex64](t, q, 4, 4, 3)
	rect := ArgMatrix[float64](t, q, 4, 3, 3)
	foreign := ArgMatrix[float64](t, other, 4, 4, 3)
	freed := ArgMatrix[float64](t, q, 4, 4, 3)
	w := UploadVector(t, q, Fill(12, float64(Poison)))
	w32 := UploadVector(t, q, Fill(12, float32(Poison)))
	shortW := UploadVector(t, q, Fill(11, float64(Poison)))
	foreignW := UploadVector(t, other, Fill(12, float64(Poison)))
	freedW := UploadVector(t, q, Fill(12, float64(Poison)))
	info := UploadVector(t, q, Fill(3, int32(Poison)))
	shortInfo := UploadVector(t, q, Fill(2, int32(Poison)))
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	if err := freedW.Free(); err != nil {
		t.Fatal(err)
	}
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Syev(nil, v, l, a, w, info) }},
		{"bad jobz", "jobz", func() error { return batchlas.Syev(q, 'X', l, a, w, info) }},
		{"bad jobz before nil a", "jobz", func() error { return batchlas.Syev[float64, float64](q, 'X', l, nil, w, info) }},
		{"bad uplo", "uplo", func() error { return batchlas.Syev(q, v, 'X', a, w, info) }},
		{"nil a", "a", func() error { return batchlas.Syev[float64](q, v, l, nil, w, info) }},
		{"zero a", "a", func() error { return batchlas.Syev(q, v, l, &batchlas.Matrix[float64]{}, w, info) }},
		{"freed a", "a", func() error { return batchlas.Syev(q, v, l, freed, w, info) }},
		{"foreign a", "a", func() error { return batchlas.Syev(q, v, l, foreign, w, info) }},
		{"non-square a", "a", func() error { return batchlas.Syev(q, v, l, rect, w, info) }},
		{"w float32 for float64", "w", func() error { return batchlas.Syev(q, v, l, a, w32, info) }},
		{"w float64 for complex64", "w", func() error { return batchlas.Syev(q, v, l, ac, w, info) }},
		{"nil w", "w", func() error { return batchlas.Syev[float64, float64](q, v, l, a, nil, info) }},
		{"short w", "w", func() error { return batchlas.Syev(q, v, l, a, shortW, info) }},
		{"foreign w", "w", func() error { return batchlas.Syev(q, v, l, a, foreignW, info) }},
		{"freed w", "w", func() error { return batchlas.Syev(q, v, l, a, freedW, info) }},
		{"nil info", "info", func() error { return batchlas.Syev(q, v, l, a, w, nil) }},
		{"short info", "info", func() error { return batchlas.Syev(q, v, l, a, w, shortInfo) }},
		{"buffer size, bad jobz", "jobz", func() error {
			_, err := batchlas.SyevBufferSize(q, 'X', l, a, w, info)
			return err
		}},
		{"buffer size, wrong w type", "w", func() error {
			_, err := batchlas.SyevBufferSize(q, v, l, ac, w, info)
			return err
		}},
	}, Watch(a), Watch(ac), Watch(w), Watch(w32), Watch(info))
}

func FuzzSyev(f *testing.F) {
	f.Add(4, 4, 4, 16, 2, byte('V'), byte('L'), 8, 2, false)
	f.Add(3, 3, 5, 20, 1, byte('N'), byte('U'), 3, 1, true)
	f.Add(0, 0, 0, 0, 3, byte('V'), byte('U'), 0, 3, false)
	f.Add(0, 0, 0, 0, 0, byte('X'), byte('X'), -1, -1, false)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch int, jobz, uplo byte, wLen, infoLen int, wide bool) {
		a, err := batchlas.NewMatrixStrided[complex64](q, Small(rows), Small(cols), Small(ld), Small(stride), Small(batch))
		if err != nil {
			return
		}
		defer a.Free()
		info, err := batchlas.NewVector[int32](q, Small(infoLen))
		if err != nil {
			return
		}
		defer info.Free()
		// Lengths per matrix, so that fuzzing reaches valid calls as well as short ones.
		wl := Small(wLen) * max(1, Small(batch))
		// wide: eigenvalues of the wrong real type, which must be refused.
		if wide {
			w, err := batchlas.NewVector[float64](q, wl)
			if err != nil {
				return
			}
			defer w.Free()
			_ = batchlas.Syev(q, batchlas.Job(jobz), batchlas.Uplo(uplo), a, w, info)
			return
		}
		w, err := batchlas.NewVector[float32](q, wl)
		if err != nil {
			return
		}
		defer w.Free()
		_ = batchlas.Syev(q, batchlas.Job(jobz), batchlas.Uplo(uplo), a, w, info)
	})
}
