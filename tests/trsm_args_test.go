package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

// triOp is Trsm or Trmm, which take the same arguments under the same rules.
type triOp[T batchlas.Scalar] func(q *batchlas.Queue, side batchlas.Side, uplo batchlas.Uplo, transA batchlas.Transpose, diag batchlas.Diag, alpha T, a, b *batchlas.Matrix[T]) error

func TestTrsmArgs(t *testing.T) {
	testTriArgs(t, batchlas.Trsm[float32], batchlas.TrsmBufferSize[float32])
}

// testTriArgs runs the bad-argument table of Trsm or Trmm, given the op and its BufferSize.
func testTriArgs[T batchlas.Scalar](t *testing.T, op triOp[T], size func(*batchlas.Queue, batchlas.Side, batchlas.Uplo, batchlas.Transpose, batchlas.Diag, T, *batchlas.Matrix[T], *batchlas.Matrix[T]) (int, error)) {
	q, other := ArgQueues(t)
	const L, R, Lo, N, NU = batchlas.Left, batchlas.Right, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit
	// A is 4x4 and B 4x3, batch 2: side Left fits, side Right does not.
	a := ArgMatrix[T](t, q, 4, 4, 2)
	b := ArgMatrix[T](t, q, 4, 3, 2)
	foreign := ArgMatrix[T](t, other, 4, 4, 2)
	freed := ArgMatrix[T](t, q, 4, 4, 2)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	rect := ArgMatrix[T](t, q, 4, 3, 2)
	a3 := ArgMatrix[T](t, q, 3, 3, 2)
	b1 := ArgMatrix[T](t, q, 4, 3, 1)
	call := func(q *batchlas.Queue, side batchlas.Side, uplo batchlas.Uplo, tr batchlas.Transpose, diag batchlas.Diag, a, b *batchlas.Matrix[T]) func() error {
		return func() error { return op(q, side, uplo, tr, diag, From[T](Alpha), a, b) }
	}
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", call(nil, L, Lo, N, NU, a, b)},
		{"bad side", "side", call(q, 'l', Lo, N, NU, a, b)},
		{"bad uplo", "uplo", call(q, L, 'A', N, NU, a, b)},
		{"bad transA", "transA", call(q, L, Lo, 'X', NU, a, b)},
		{"bad diag", "diag", call(q, L, Lo, N, 'D', a, b)},
		{"nil a", "a", call(q, L, Lo, N, NU, nil, b)},
		{"zero a", "a", call(q, L, Lo, N, NU, &batchlas.Matrix[T]{}, b)},
		{"freed a", "a", call(q, L, Lo, N, NU, freed, b)},
		{"foreign a", "a", call(q, L, Lo, N, NU, foreign, b)},
		{"nil b", "b", call(q, L, Lo, N, NU, a, nil)},
		{"freed b", "b", call(q, L, Lo, N, NU, a, freed)},
		{"foreign b", "b", call(q, L, Lo, N, NU, a, foreign)},
		{"non-square a", "a", call(q, R, Lo, N, NU, rect, b)},
		{"order of a != rows of b", "a", call(q, L, Lo, N, NU, a3, b)},
		{"order of a != cols of b", "a", call(q, R, Lo, N, NU, a, b)},
		{"batch of b", "b", call(q, L, Lo, N, NU, a, b1)},
		{"buffer size, bad side", "side", func() error {
			_, err := size(q, 'l', Lo, N, NU, From[T](Alpha), a, b)
			return err
		}},
	}, WatchMatrix(a), WatchMatrix(b))
	if n, err := size(q, L, Lo, N, NU, From[T](Alpha), a, b); n != 0 || err != nil {
		t.Errorf("BufferSize on the host = %d, %v; want 0, nil", n, err)
	}
}

func FuzzTrsm(f *testing.F) { fuzzTri(f, batchlas.Trsm[complex128]) }

// fuzzTri feeds random argument combinations to Trsm or Trmm.
func fuzzTri(f *testing.F, op triOp[complex128]) {
	f.Add(4, 0, 0, 2, 4, 3, 0, 0, 2, byte('L'), byte('L'), byte('N'), byte('N'))
	f.Add(3, 5, 17, 3, 4, 3, 6, 0, 3, byte('R'), byte('U'), byte('C'), byte('U'))
	f.Add(0, 0, 0, 2, 0, 3, 0, 0, 2, byte('L'), byte('U'), byte('T'), byte('N'))
	f.Add(3, 0, 0, 2, 4, 3, 0, 0, 2, byte('R'), byte('X'), byte('N'), byte('N'))
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, an, ald, ast, ab, br, bc, bld, bst, bb int, side, uplo, trans, diag byte) {
		a := fuzzMatrix[complex128](q, an, an, ald, ast, ab)
		b := fuzzMatrix[complex128](q, br, bc, bld, bst, bb)
		defer freeAll(a, b)
		if a == nil || b == nil {
			return
		}
		_ = op(q, batchlas.Side(side), batchlas.Uplo(uplo), batchlas.Transpose(trans), batchlas.Diag(diag), 1, a, b)
	})
}
