package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestOrmqrArgs(t *testing.T) {
	q, other := ArgQueues(t)
	L, R, N, C := batchlas.Left, batchlas.Right, batchlas.NoTrans, batchlas.ConjTrans
	a := ArgMatrix[float64](t, q, 5, 3, 3)
	c := ArgMatrix[float64](t, q, 5, 2, 3)
	cr := ArgMatrix[float64](t, q, 2, 5, 3)
	c2 := ArgMatrix[float64](t, q, 5, 2, 2)
	wide := ArgMatrix[float64](t, q, 2, 4, 3)
	foreign := ArgMatrix[float64](t, other, 5, 3, 3)
	foreignC := ArgMatrix[float64](t, other, 5, 2, 3)
	freed := ArgMatrix[float64](t, q, 5, 2, 3)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	tau := UploadVector(t, q, Fill(9, float64(Poison)))
	short := UploadVector(t, q, Fill(8, float64(Poison)))
	za := ArgMatrix[complex128](t, q, 5, 3, 3)
	zc := ArgMatrix[complex128](t, q, 5, 2, 3)
	ztau := UploadVector(t, q, Fill(9, complex128(Poison)))
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Ormqr(nil, L, N, 3, a, tau, c) }},
		{"bad side", "side", func() error { return batchlas.Ormqr(q, 'X', N, 3, a, tau, c) }},
		{"bad trans", "trans", func() error { return batchlas.Ormqr(q, L, 'X', 3, a, tau, c) }},
		{"Trans for complex", "trans", func() error { return batchlas.Ormqr(q, L, batchlas.Trans, 3, za, ztau, zc) }},
		{"nil a", "a", func() error { return batchlas.Ormqr(q, L, N, 3, nil, tau, c) }},
		{"zero a", "a", func() error { return batchlas.Ormqr(q, L, N, 3, &batchlas.Matrix[float64]{}, tau, c) }},
		{"foreign a", "a", func() error { return batchlas.Ormqr(q, L, N, 3, foreign, tau, c) }},
		{"nil c", "c", func() error { return batchlas.Ormqr(q, L, N, 3, a, tau, nil) }},
		{"freed c", "c", func() error { return batchlas.Ormqr(q, L, N, 3, a, tau, freed) }},
		{"foreign c", "c", func() error { return batchlas.Ormqr(q, L, N, 3, a, tau, foreignC) }},
		{"negative k", "k", func() error { return batchlas.Ormqr(q, L, N, -1, a, tau, c) }},
		{"k > a's cols", "k", func() error { return batchlas.Ormqr(q, L, N, 4, a, tau, c) }},
		{"k > a's rows", "k", func() error { return batchlas.Ormqr(q, L, N, 3, wide, tau, c) }},
		{"left: c's rows", "c", func() error { return batchlas.Ormqr(q, L, C, 3, a, tau, cr) }},
		{"right: c's cols", "c", func() error { return batchlas.Ormqr(q, R, C, 3, a, tau, c) }},
		{"batch", "c", func() error { return batchlas.Ormqr(q, L, N, 3, a, tau, c2) }},
		{"nil tau", "tau", func() error { return batchlas.Ormqr(q, L, N, 3, a, nil, c) }},
		{"short tau", "tau", func() error { return batchlas.Ormqr(q, R, N, 3, a, short, cr) }},
		{"side checked before a", "side", func() error { return batchlas.Ormqr(q, 'X', N, 3, nil, tau, c) }},
		{"k checked before c's shape", "k", func() error { return batchlas.Ormqr(q, L, N, 4, a, tau, cr) }},
		{"buffer size, bad trans", "trans", func() error {
			_, err := batchlas.OrmqrBufferSize(q, L, 'X', 3, a, tau, c)
			return err
		}},
	}, Watch(a), Watch(c), Watch(cr), Watch(c2), Watch(tau), Watch(short), Watch(za), Watch(zc), Watch(ztau))
}

func FuzzOrmqr(f *testing.F) {
	f.Add(byte(1), byte('L'), byte('N'), 3, 5, 3, 5, 5, 2, 5, 2, 2, 6)
	f.Add(byte(2), byte('R'), byte('C'), 2, 4, 2, 6, 3, 4, 3, 3, 3, 6)
	f.Add(byte(0), byte('X'), byte('T'), -1, 0, 0, 0, 0, 0, 0, 0, 1, -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, dt, side, trans byte, k, ar, ac, ald, cr, cc, cld, batch, cbatch, tauLen int) {
		fuzzDTypes(dt, func(run fuzzRun) {
			run.ormqr(q, side, trans, k, ar, ac, ald, cr, cc, cld, batch, cbatch, tauLen)
		})
	})
}

func (fuzzOf[T]) ormqr(q *batchlas.Queue, side, trans byte, k, ar, ac, ald, cr, cc, cld, batch, cbatch, tauLen int) {
	a := fuzzMatrix[T](q, ar, ac, ald, 0, batch)
	if a == nil {
		return
	}
	defer a.Free()
	c := fuzzMatrix[T](q, cr, cc, cld, 0, cbatch)
	if c == nil {
		return
	}
	defer c.Free()
	tau, err := batchlas.NewVector[T](q, Small(tauLen))
	if err != nil {
		return
	}
	defer tau.Free()
	_ = batchlas.Ormqr(q, batchlas.Side(side), batchlas.Transpose(trans), Small(k), a, tau, c)
}
