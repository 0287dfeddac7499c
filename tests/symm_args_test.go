package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSymmArgs(t *testing.T) {
	testMultiplyArgs(t, "symm", batchlas.Symm[float64], batchlas.SymmBufferSize[float64])
}

// testMultiplyArgs checks every argument rule of symm or hemm.
func testMultiplyArgs[T batchlas.Scalar](t *testing.T, op string,
	call func(*batchlas.Queue, batchlas.Side, batchlas.Uplo, T, *batchlas.Matrix[T], *batchlas.Matrix[T], T, *batchlas.Matrix[T]) error,
	size func(*batchlas.Queue, batchlas.Side, batchlas.Uplo, T, *batchlas.Matrix[T], *batchlas.Matrix[T], T, *batchlas.Matrix[T]) (int, error)) {
	q, other := ArgQueues(t)
	m := argMats[T](t, q, other)
	a, b, c := m["4x4"], m["4x3"], m["4x3c"]
	L, U := batchlas.Left, batchlas.Lower
	cases := []ArgCase{
		{"nil queue", "q", func() error { return call(nil, L, U, 1, a, b, 0, c) }},
		{"bad side", "side", func() error { return call(q, 'X', U, 1, a, b, 0, c) }},
		{"bad uplo", "uplo", func() error { return call(q, L, 'X', 1, a, b, 0, c) }},
		{"nil a", "a", func() error { return call(q, L, U, 1, nil, b, 0, c) }},
		{"zero a", "a", func() error { return call(q, L, U, 1, m["zero"], b, 0, c) }},
		{"freed a", "a", func() error { return call(q, L, U, 1, m["freed"], b, 0, c) }},
		{"foreign a", "a", func() error { return call(q, L, U, 1, m["foreign"], b, 0, c) }},
		{"non-square a", "a", func() error { return call(q, L, U, 1, b, b, 0, c) }},
		{"a of the wrong order, left", "a", func() error { return call(q, L, U, 1, m["3x3"], b, 0, c) }},
		{"a of the wrong order, right", "a", func() error { return call(q, batchlas.Right, U, 1, a, b, 0, c) }},
		{"b unlike c", "b", func() error { return call(q, L, U, 1, a, m["4x4b"], 0, c) }},
		{"batch of a", "a", func() error { return call(q, L, U, 1, m["4x4/2"], b, 0, c) }},
		{"batch of b", "b", func() error { return call(q, L, U, 1, a, m["4x3/2"], 0, c) }},
		{"order: side before uplo", "side", func() error { return call(q, 'X', 'X', 1, nil, nil, 0, nil) }},
		{"order: uplo before a", "uplo", func() error { return call(q, L, 'X', 1, nil, b, 0, c) }},
		{"order: c before the shape of a", "c", func() error { return call(q, L, U, 1, b, b, 0, nil) }},
		{"buffer size, bad side", "side", func() error {
			_, err := size(q, 'X', U, 1, a, b, 0, c)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "b", 4, 3, 3, func(m *batchlas.Matrix[T]) error { return call(q, L, U, 1, a, m, 0, c) })...)
	cases = append(cases, MatrixCases(t, q, other, "c", 4, 3, 3, func(m *batchlas.Matrix[T]) error { return call(q, L, U, 1, a, b, 1, m) })...)
	RunArgCases(t, q, cases, WatchMatrix(a), WatchMatrix(b), WatchMatrix(c))
	if n, err := size(q, L, U, 1, a, b, 0, c); n != 0 || err != nil {
		t.Errorf("%s buffer size on the host: %d, %v; want 0, nil", op, n, err)
	}
}

// argMats makes the matrices of the level-3 argument tests on q, named by their shape:
// "RxC" (batch 3; a letter suffix for a second one), "RxC/2" (batch 2), "foreign" and
// "foreign4x3" (on other), "freed" and "zero" (4x4, unusable).
func argMats[T batchlas.Scalar](t *testing.T, q, other *batchlas.Queue) map[string]*batchlas.Matrix[T] {
	m := map[string]*batchlas.Matrix[T]{
		"4x4": ArgMatrix[T](t, q, 4, 4, 3), "4x4b": ArgMatrix[T](t, q, 4, 4, 3),
		"4x3": ArgMatrix[T](t, q, 4, 3, 3), "4x3b": ArgMatrix[T](t, q, 4, 3, 3), "4x3c": ArgMatrix[T](t, q, 4, 3, 3),
		"3x4": ArgMatrix[T](t, q, 3, 4, 3), "3x3": ArgMatrix[T](t, q, 3, 3, 3),
		"4x4/2": ArgMatrix[T](t, q, 4, 4, 2), "4x3/2": ArgMatrix[T](t, q, 4, 3, 2),
		"foreign": ArgMatrix[T](t, other, 4, 4, 3), "foreign4x3": ArgMatrix[T](t, other, 4, 3, 3),
		"freed": ArgMatrix[T](t, q, 4, 4, 3), "zero": {},
	}
	if err := m["freed"].Free(); err != nil {
		t.Fatal(err)
	}
	return m
}

func FuzzSymm(f *testing.F) {
	fuzzMultiply(f, batchlas.Symm[float64])
}

// fuzzMultiply feeds random enums and layouts to symm or hemm, which must never panic.
func fuzzMultiply[T batchlas.Scalar](f *testing.F, call func(*batchlas.Queue, batchlas.Side, batchlas.Uplo, T, *batchlas.Matrix[T], *batchlas.Matrix[T], T, *batchlas.Matrix[T]) error) {
	f.Add(byte('L'), byte('U'), 4, 4, 0, 0, 2, 4, 3, 0, 0, 2, 4, 3, 5, 20, 2)
	f.Add(byte('R'), byte('L'), 3, 3, 4, 13, 1, 2, 3, 2, 6, 1, 2, 3, 0, 0, 1)
	f.Add(byte('X'), byte('Y'), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, side, uplo byte, ar, ac, ald, ast, ab, br, bc, bld, bst, bb, cr, cc, cld, cst, cb int) {
		a, b, c := fuzzMatrix[T](q, ar, ac, ald, ast, ab), fuzzMatrix[T](q, br, bc, bld, bst, bb), fuzzMatrix[T](q, cr, cc, cld, cst, cb)
		defer freeAll(a, b, c)
		_ = call(q, batchlas.Side(side), batchlas.Uplo(uplo), 1, a, b, 0, c)
	})
}
