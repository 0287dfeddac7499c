package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSyrkArgs(t *testing.T) { testRankArgs[complex128](t, rankOp{name: "syrk"}) }

// testRankArgs checks every argument rule of op, in a complex type so that the rule on the
// transposition is covered.
func testRankArgs[T batchlas.Scalar](t *testing.T, op rankOp) {
	q, other := ArgQueues(t)
	m := argMats[T](t, q, other)
	a, b, c := m["4x3"], m["4x3b"], m["4x4"]
	N, U := batchlas.NoTrans, batchlas.Lower
	allowed, refused := batchlas.Trans, batchlas.ConjTrans
	if op.herm {
		allowed, refused = batchlas.ConjTrans, batchlas.Trans
	}
	run := func(q *batchlas.Queue, uplo batchlas.Uplo, trans batchlas.Transpose, a, b, c *batchlas.Matrix[T]) func() error {
		return func() error {
			_, _, err := runRank(op, q, uplo, trans, 1, a, b, 0, c)
			return err
		}
	}
	cases := []ArgCase{
		{"nil queue", "q", run(nil, U, N, a, b, c)},
		{"bad uplo", "uplo", run(q, 'X', N, a, b, c)},
		{"bad trans", "trans", run(q, U, 'X', a, b, c)},
		{"trans refused for complex types", "trans", run(q, U, refused, a, b, c)},
		{"nil a", "a", run(q, U, N, nil, b, c)},
		{"zero a", "a", run(q, U, N, m["zero"], b, c)},
		{"freed a", "a", run(q, U, N, m["freed"], b, c)},
		{"foreign a", "a", run(q, U, N, m["foreign4x3"], b, c)},
		{"non-square c", "c", run(q, U, N, a, b, m["4x3c"])},
		{"rows of a", "a", run(q, U, N, m["3x4"], m["3x4"], c)},
		{"columns of a", "a", run(q, U, allowed, a, b, c)},
		{"batch of a", "a", run(q, U, N, m["4x3/2"], m["4x3/2"], c)},
		{"order: uplo before trans", "uplo", run(q, 'X', 'X', nil, nil, nil)},
		{"order: trans before a", "trans", run(q, U, 'X', nil, b, c)},
		{"order: c before the shape of a", "c", run(q, U, N, m["3x4"], m["3x4"], nil)},
		{"buffer size, bad uplo", "uplo", func() error { return rankBufferSize(op, q, 'X', N, a, b, c) }},
	}
	if op.two {
		cases = append(cases,
			ArgCase{"b unlike a", "b", run(q, U, N, a, m["4x4b"], c)},
			ArgCase{"batch of b", "b", run(q, U, N, a, m["4x3/2"], c)})
	}
	cases = append(cases, MatrixCases(t, q, other, "c", 4, 4, 3, func(m *batchlas.Matrix[T]) error { return run(q, U, N, a, b, m)() })...)
	if op.two {
		cases = append(cases, MatrixCases(t, q, other, "b", 4, 3, 3, func(m *batchlas.Matrix[T]) error { return run(q, U, N, a, m, c)() })...)
	}
	RunArgCases(t, q, cases, WatchMatrix(a), WatchMatrix(b), WatchMatrix(c))
	if err := rankBufferSize(op, q, U, N, a, b, c); err != nil {
		t.Errorf("%s buffer size: %v", op.name, err)
	}
}

// rankBufferSize calls op's BufferSize and checks that it is 0, as on the host.
func rankBufferSize[T batchlas.Scalar](op rankOp, q *batchlas.Queue, uplo batchlas.Uplo, trans batchlas.Transpose, a, b, c *batchlas.Matrix[T]) error {
	var n int
	var err error
	switch {
	case !op.herm && !op.two:
		n, err = batchlas.SyrkBufferSize(q, uplo, trans, 1, a, 0, c)
	case op.herm && !op.two:
		n, err = batchlas.HerkBufferSize(q, uplo, trans, 1, a, 0, c)
	case !op.herm:
		n, err = batchlas.Syr2kBufferSize(q, uplo, trans, 1, a, b, 0, c)
	default:
		n, err = batchlas.Her2kBufferSize(q, uplo, trans, 1, a, b, 0, c)
	}
	if err == nil && n != 0 {
		return fmt.Errorf("buffer size %d on the host, want 0", n)
	}
	return err
}

func FuzzSyrk(f *testing.F) { fuzzRank[complex128](f, rankOp{name: "syrk"}) }

// fuzzRank feeds random enums and layouts to op, which must never panic.
func fuzzRank[T batchlas.Scalar](f *testing.F, op rankOp) {
	f.Add(byte('L'), byte('N'), 4, 3, 0, 0, 2, 4, 3, 0, 0, 2, 4, 4, 5, 21, 2)
	f.Add(byte('U'), byte('C'), 3, 4, 4, 17, 1, 3, 4, 5, 0, 1, 4, 4, 0, 0, 1)
	f.Add(byte('U'), byte('T'), 0, 4, 0, 0, 3, 0, 4, 0, 0, 3, 4, 4, 0, 0, 3)
	f.Add(byte('X'), byte('Y'), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, uplo, trans byte, ar, ac, ald, ast, ab, br, bc, bld, bst, bb, cr, cc, cld, cst, cb int) {
		a, b, c := fuzzMatrix[T](q, ar, ac, ald, ast, ab), fuzzMatrix[T](q, br, bc, bld, bst, bb), fuzzMatrix[T](q, cr, cc, cld, cst, cb)
		defer freeAll(a, b, c)
		_, _, _ = runRank(op, q, batchlas.Uplo(uplo), batchlas.Transpose(trans), 1, a, b, 0, c)
	})
}
