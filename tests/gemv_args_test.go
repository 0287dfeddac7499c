package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGemvArgs(t *testing.T) {
	q, other := ArgQueues(t)
	const N, T = batchlas.NoTrans, batchlas.Trans
	// A is 4x3, batch 3: NoTrans takes x of 3*3 and y of 4*3, Trans the other way round.
	a := ArgMatrix[complex64](t, q, 4, 3, 3)
	x := UploadVector(t, q, Rand[complex64](NewRand(t), 9))
	y := UploadVector(t, q, Rand[complex64](NewRand(t), 12))
	foreign := ArgMatrix[complex64](t, other, 4, 3, 3)
	foreignX := UploadVector(t, other, Rand[complex64](NewRand(t), 9))
	freed := ArgMatrix[complex64](t, q, 4, 3, 3)
	freedX := UploadVector(t, q, Rand[complex64](NewRand(t), 9))
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	if err := freedX.Free(); err != nil {
		t.Fatal(err)
	}
	short := UploadVector(t, q, Rand[complex64](NewRand(t), 8))
	// A batch whose y would need more elements than an int holds: rows*batch = 2^100.
	huge, err := batchlas.NewMatrixStrided[complex64](q, 1<<50, 0, 0, 0, 1<<50)
	if err != nil {
		t.Fatal(err)
	}
	gemv := func(q *batchlas.Queue, tr batchlas.Transpose, a *batchlas.Matrix[complex64], x, y *batchlas.Vector[complex64]) func() error {
		return func() error { return batchlas.Gemv(q, tr, complex(1, 2), a, x, 0.5, y) }
	}
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", gemv(nil, N, a, x, y)},
		{"bad trans", "trans", gemv(q, 'n', a, x, y)},
		{"nil a", "a", gemv(q, N, nil, x, y)},
		{"zero a", "a", gemv(q, N, &batchlas.Matrix[complex64]{}, x, y)},
		{"freed a", "a", gemv(q, N, freed, x, y)},
		{"foreign a", "a", gemv(q, N, foreign, x, y)},
		{"nil x", "x", gemv(q, N, a, nil, y)},
		{"zero x", "x", gemv(q, N, a, &batchlas.Vector[complex64]{}, y)},
		{"freed x", "x", gemv(q, N, a, freedX, y)},
		{"foreign x", "x", gemv(q, N, a, foreignX, y)},
		{"short x", "x", gemv(q, N, a, short, y)},
		{"x short for Trans", "x", gemv(q, T, a, x, y)},
		{"nil y", "y", gemv(q, N, a, x, nil)},
		{"foreign y", "y", gemv(q, N, a, x, foreignX)},
		{"short y", "y", gemv(q, N, a, x, short)},
		{"y of an overflowing batch", "y", gemv(q, N, huge, x, y)},
		{"buffer size, bad trans", "trans", func() error {
			_, err := batchlas.GemvBufferSize(q, 'n', complex64(1), a, x, 0.5, y)
			return err
		}},
	}, Watch(a), Watch(x), Watch(y))
	if n, err := batchlas.GemvBufferSize(q, N, 1, a, x, 0.5, y); n != 0 || err != nil {
		t.Errorf("GemvBufferSize on the host = %d, %v; want 0, nil", n, err)
	}
}

func FuzzGemv(f *testing.F) {
	f.Add(4, 3, 0, 0, 2, 3, 4, byte('N'))
	f.Add(4, 3, 5, 23, 3, 4, 3, byte('C'))
	f.Add(0, 3, 0, 0, 2, 0, 3, byte('T'))
	f.Add(3, 3, 0, 0, 2, 2, 3, byte('x'))
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch, nx, ny int, trans byte) {
		a := fuzzMatrix[complex64](q, rows, cols, ld, stride, batch)
		defer freeAll(a)
		// Lengths in whole batches, so that calls with the right lengths are common.
		x, errX := batchlas.NewVector[complex64](q, Small(nx)*Small(batch))
		y, errY := batchlas.NewVector[complex64](q, Small(ny)*Small(batch))
		if a == nil || errX != nil || errY != nil {
			return
		}
		defer x.Free()
		defer y.Free()
		_ = batchlas.Gemv(q, batchlas.Transpose(trans), 1, a, x, 0, y)
	})
}
