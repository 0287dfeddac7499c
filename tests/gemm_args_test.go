package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGemmArgs(t *testing.T) {
	q, other := ArgQueues(t)
	const N, T = batchlas.NoTrans, batchlas.Trans
	// C (4x5) = A (4x3) B (3x5), batch 2.
	a := ArgMatrix[float64](t, q, 4, 3, 2)
	b := ArgMatrix[float64](t, q, 3, 5, 2)
	c := ArgMatrix[float64](t, q, 4, 5, 2)
	foreign := ArgMatrix[float64](t, other, 4, 3, 2)
	freed := ArgMatrix[float64](t, q, 4, 5, 2)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	bTall := ArgMatrix[float64](t, q, 4, 5, 2)
	cWide := ArgMatrix[float64](t, q, 4, 6, 2)
	cTall := ArgMatrix[float64](t, q, 5, 5, 2)
	b3 := ArgMatrix[float64](t, q, 3, 5, 3)
	c1 := ArgMatrix[float64](t, q, 4, 5, 1)
	gemm := func(q *batchlas.Queue, tA, tB batchlas.Transpose, a, b, c *batchlas.Matrix[float64]) func() error {
		return func() error { return batchlas.Gemm(q, tA, tB, 2, a, b, 0.5, c) }
	}
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", gemm(nil, N, N, a, b, c)},
		{"bad transA", "transA", gemm(q, 'X', N, a, b, c)},
		{"bad transB", "transB", gemm(q, N, 0, a, b, c)},
		{"nil a", "a", gemm(q, N, N, nil, b, c)},
		{"zero a", "a", gemm(q, N, N, &batchlas.Matrix[float64]{}, b, c)},
		{"freed a", "a", gemm(q, N, N, freed, b, c)},
		{"foreign a", "a", gemm(q, N, N, foreign, b, c)},
		{"nil b", "b", gemm(q, N, N, a, nil, c)},
		{"foreign b", "b", gemm(q, N, N, a, foreign, c)},
		{"nil c", "c", gemm(q, N, N, a, b, nil)},
		{"freed c", "c", gemm(q, N, N, a, b, freed)},
		{"inner sizes differ", "b", gemm(q, N, N, a, bTall, c)},
		{"inner sizes differ after transA", "b", gemm(q, T, N, a, b, c)},
		{"inner sizes differ after transB", "b", gemm(q, N, T, a, b, c)},
		{"c has too many columns", "c", gemm(q, N, N, a, b, cWide)},
		{"c has too many rows", "c", gemm(q, N, N, a, b, cTall)},
		{"batch of b", "b", gemm(q, N, N, a, b3, c)},
		{"batch of c", "c", gemm(q, N, N, a, b, c1)},
		{"buffer size, bad transA", "transA", func() error {
			_, err := batchlas.GemmBufferSize(q, 'X', N, 2, a, b, 0.5, c)
			return err
		}},
	}, Watch(a), Watch(b), Watch(c))
	if n, err := batchlas.GemmBufferSize(q, N, N, 2, a, b, 0.5, c); n != 0 || err != nil {
		t.Errorf("GemmBufferSize on the host = %d, %v; want 0, nil", n, err)
	}
}

func FuzzGemm(f *testing.F) {
	f.Add(4, 3, 0, 0, 2, 3, 5, 0, 0, 2, 4, 5, 0, 0, 2, byte('N'), byte('N'))
	f.Add(3, 4, 5, 0, 3, 5, 3, 0, 17, 3, 4, 5, 6, 40, 3, byte('T'), byte('C'))
	f.Add(0, 3, 0, 0, 1, 3, 0, 0, 0, 1, 0, 0, 0, 0, 2, byte('C'), byte('X'))
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, ar, ac, ald, ast, ab, br, bc, bld, bst, bb, cr, cc, cld, cst, cb int, tA, tB byte) {
		a := fuzzMatrix[complex128](q, ar, ac, ald, ast, ab)
		b := fuzzMatrix[complex128](q, br, bc, bld, bst, bb)
		c := fuzzMatrix[complex128](q, cr, cc, cld, cst, cb)
		defer freeAll(a, b, c)
		if a == nil || b == nil || c == nil {
			return
		}
		_ = batchlas.Gemm(q, batchlas.Transpose(tA), batchlas.Transpose(tB), 1, a, b, 0, c)
	})
}
