package tests

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/batchlas/batchlas"
)

// TestSharedStorage runs the triangular ops on two views that share storage and whose
// triangles are disjoint: the lower triangle of A, the first n columns of an n-by-(n+1)
// storage, and the upper triangle of B, the view one column to the right. The docs say each
// op touches only its triangle, so two calls from two goroutines at once must give what
// they give one after the other, bit for bit, and the race detector (.ci/run runs this test
// under go test -race) must see no conflicting access. An op that only reads its triangle runs
// beside Potrf writing the other one.
func TestSharedStorage(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testShared[float32, float32], testShared[float64, float64], testShared[complex64, float32], testShared[complex128, float64])
	})
}

// sharedCall is one op's call on the view v and its own operands, made with rng; writes says
// whether it writes its triangle of v (or only reads it).
type sharedCall[T batchlas.Scalar] struct {
	op     string
	writes bool
	call   func(rng *rand.Rand, uplo batchlas.Uplo, v *batchlas.Matrix[T]) (error, []func() []byte)
}

const sharedN, sharedBatch = 24, 24

func testShared[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue) {
	n, nb := sharedN, sharedBatch
	rect := func(rng *rand.Rand, r, c int) *batchlas.Matrix[T] {
		return Upload(t, q, RandStored[T](rng, Layout{Rows: r, Cols: c, Batch: nb}))
	}
	mat := downloadBytes[T]
	vec := func(v *batchlas.Vector[int32]) func() []byte {
		return func() []byte { return fpBytes(DownloadVector(t, q, v)) }
	}
	info := func() *batchlas.Vector[int32] { return PoisonedInfo(t, q, nb) }
	alpha, beta := From[T](Alpha), From[T](Beta)
	type outs = []func() []byte
	potrf := sharedCall[T]{"potrf", true, func(_ *rand.Rand, u batchlas.Uplo, v *batchlas.Matrix[T]) (error, outs) {
		i := info()
		return batchlas.Potrf(q, u, v, i), outs{vec(i)}
	}}
	solve := func(op string, f func(u batchlas.Uplo, v, b *batchlas.Matrix[T]) error) sharedCall[T] {
		return sharedCall[T]{op, false, func(rng *rand.Rand, u batchlas.Uplo, v *batchlas.Matrix[T]) (error, outs) {
			b := rect(rng, n, 3)
			return f(u, v, b), outs{mat(b)}
		}}
	}
	// multiply: B and C are separate, for the docs promise nothing when they alias (and a
	// multithreaded BLAS's symm on aliased operands differs from run to run).
	multiply := func(op string, f func(u batchlas.Uplo, v, b, c *batchlas.Matrix[T]) error) sharedCall[T] {
		return sharedCall[T]{op, false, func(rng *rand.Rand, u batchlas.Uplo, v *batchlas.Matrix[T]) (error, outs) {
			b, c := rect(rng, n, 3), rect(rng, n, 3)
			return f(u, v, b, c), outs{mat(c)}
		}}
	}
	rank := func(op string, f func(u batchlas.Uplo, a, b, c *batchlas.Matrix[T]) error) sharedCall[T] {
		return sharedCall[T]{op, true, func(rng *rand.Rand, u batchlas.Uplo, v *batchlas.Matrix[T]) (error, outs) {
			a, b := rect(rng, n, 4), rect(rng, n, 4)
			return f(u, a, b, v), nil
		}}
	}
	calls := []sharedCall[T]{
		potrf,
		{"posv", true, func(rng *rand.Rand, u batchlas.Uplo, v *batchlas.Matrix[T]) (error, outs) {
			b, i := rect(rng, n, 3), info()
			return batchlas.Posv(q, u, v, b, i), outs{mat(b), vec(i)}
		}},
		{"syev", true, func(_ *rand.Rand, u batchlas.Uplo, v *batchlas.Matrix[T]) (error, outs) {
			w, err := batchlas.NewVector[R](q, n*nb)
			if err != nil {
				t.Fatal(err)
			}
			i := info()
			return batchlas.Syev(q, batchlas.NoVectors, u, v, w, i), outs{func() []byte { return fpBytes(DownloadVector(t, q, w)) }, vec(i)}
		}},
		solve("potrs", func(u batchlas.Uplo, v, b *batchlas.Matrix[T]) error { return batchlas.Potrs(q, u, v, b) }),
		solve("trsm", func(u batchlas.Uplo, v, b *batchlas.Matrix[T]) error {
			return batchlas.Trsm(q, batchlas.Left, u, batchlas.ConjTrans, batchlas.NonUnit, alpha, v, b)
		}),
		solve("trmm", func(u batchlas.Uplo, v, b *batchlas.Matrix[T]) error {
			return batchlas.Trmm(q, batchlas.Left, u, batchlas.NoTrans, batchlas.NonUnit, alpha, v, b)
		}),
		multiply("symm", func(u batchlas.Uplo, v, b, c *batchlas.Matrix[T]) error {
			return batchlas.Symm(q, batchlas.Left, u, alpha, v, b, beta, c)
		}),
		multiply("hemm", func(u batchlas.Uplo, v, b, c *batchlas.Matrix[T]) error {
			return batchlas.Hemm(q, batchlas.Left, u, alpha, v, b, beta, c)
		}),
		rank("syrk", func(u batchlas.Uplo, a, _, c *batchlas.Matrix[T]) error {
			return batchlas.Syrk(q, u, batchlas.NoTrans, alpha, a, beta, c)
		}),
		rank("herk", func(u batchlas.Uplo, a, _, c *batchlas.Matrix[T]) error {
			return batchlas.Herk(q, u, batchlas.NoTrans, real(Alpha), a, real(Beta), c)
		}),
		rank("syr2k", func(u batchlas.Uplo, a, b, c *batchlas.Matrix[T]) error {
			return batchlas.Syr2k(q, u, batchlas.NoTrans, alpha, a, b, beta, c)
		}),
		rank("her2k", func(u batchlas.Uplo, a, b, c *batchlas.Matrix[T]) error {
			return batchlas.Her2k(q, u, batchlas.NoTrans, alpha, a, b, real(Beta), c)
		}),
	}
	for _, c := range calls {
		pairs := [][2]sharedCall[T]{{c, c}}
		if !c.writes {
			pairs = [][2]sharedCall[T]{{c, potrf}, {potrf, c}}
		}
		for _, p := range pairs {
			t.Run(p[0].op+"_L_"+p[1].op+"_U", func(t *testing.T) {
				var got [2][][]byte
				for r, together := range []bool{false, true} {
					got[r] = runShared(t, q, p, together)
				}
				for i := range got[0] {
					if !bytes.Equal(got[0][i], got[1][i]) {
						t.Errorf("output %d differs between the calls one after the other and at once", i)
					}
				}
			})
		}
	}
}

// runShared makes the shared storage (the lower triangle of A and the upper one of B hold
// Hermitian positive definite matrices, so that every op of the test can run on either) and
// runs p[0] on A's lower triangle and p[1] on B's upper one, together or one after the other;
// it returns the storage and every output as bytes.
func runShared[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, p [2]sharedCall[T], together bool) [][]byte {
	n, nb := sharedN, sharedBatch
	rng := NewRand(t)
	l := Layout{Rows: n, Cols: n + 1, LDPad: 1, Batch: nb}
	s := NewStored[T](l)
	for b := 0; b < nb; b++ {
		lo, up := RandSPD[T](rng, n), RandSPD[T](rng, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				if i >= j {
					s.Set(b, i, j, From[T](lo.At(i, j)))
				}
				if i <= j {
					s.Set(b, i, j+1, From[T](up.At(i, j)))
				}
			}
		}
	}
	m := Upload(t, q, s)
	var views [2]*batchlas.Matrix[T]
	for k := range views {
		v, err := m.View(0, k, n, n)
		if err != nil {
			t.Fatal(err)
		}
		views[k] = v
	}
	var outs [2][]func() []byte
	var errs [2]error
	var run [2]func()
	for k, u := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		sub := rand.New(rand.NewPCG(uint64(k), rng.Uint64())) // each side's own operands
		run[k] = func() { errs[k], outs[k] = p[k].call(sub, u, views[k]) }
	}
	if together {
		var wg sync.WaitGroup
		for _, f := range run {
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		}
		wg.Wait()
	} else {
		run[0]()
		run[1]()
	}
	for k, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", p[k].op, err)
		}
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	all := [][]byte{downloadBytes(m)()}
	for _, o := range outs {
		for _, f := range o {
			all = append(all, f())
		}
	}
	return all
}

// downloadBytes returns a function that downloads m's storage span as bytes.
func downloadBytes[T batchlas.Scalar](m *batchlas.Matrix[T]) func() []byte {
	return func() []byte {
		s, err := m.DownloadRaw(nil)
		if err != nil {
			panic(err)
		}
		return fpBytes(s)
	}
}
