package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

// ArgCase is one bad call of an argument-checking test: Call must fail with an
// invalid-argument error that names Arg.
type ArgCase struct {
	Name string
	Arg  string
	Call func() error
}

// Watched is data whose contents a bad call must leave alone.
type Watched interface {
	snapshot() (string, error)
}

type watchedMatrix[T batchlas.Scalar] struct{ m *batchlas.Matrix[T] }

func (w watchedMatrix[T]) snapshot() (string, error) {
	s, err := w.m.DownloadRaw(nil)
	return fmt.Sprint(s), err
}

type watchedVector[E batchlas.Element] struct{ v *batchlas.Vector[E] }

func (w watchedVector[E]) snapshot() (string, error) {
	s, err := w.v.Download(nil)
	return fmt.Sprint(s), err
}

// Watch returns a matrix or vector to watch.
func Watch[M interface {
	*batchlas.Matrix[float32] | *batchlas.Matrix[float64] | *batchlas.Matrix[complex64] | *batchlas.Matrix[complex128] |
		*batchlas.Vector[float32] | *batchlas.Vector[float64] | *batchlas.Vector[complex64] | *batchlas.Vector[complex128] | *batchlas.Vector[int32]
}](m M) Watched {
	switch v := any(m).(type) {
	case *batchlas.Matrix[float32]:
		return watchedMatrix[float32]{v}
	case *batchlas.Matrix[float64]:
		return watchedMatrix[float64]{v}
	case *batchlas.Matrix[complex64]:
		return watchedMatrix[complex64]{v}
	case *batchlas.Matrix[complex128]:
		return watchedMatrix[complex128]{v}
	case *batchlas.Vector[float32]:
		return watchedVector[float32]{v}
	case *batchlas.Vector[float64]:
		return watchedVector[float64]{v}
	case *batchlas.Vector[complex64]:
		return watchedVector[complex64]{v}
	case *batchlas.Vector[complex128]:
		return watchedVector[complex128]{v}
	}
	return watchedVector[int32]{any(m).(*batchlas.Vector[int32])}
}

// RunArgCases runs each case as a subtest: the call must fail naming its argument, and every
// watched matrix and vector must be unchanged afterwards.
func RunArgCases(t *testing.T, q *batchlas.Queue, cases []ArgCase, watched ...Watched) {
	before := make([]string, len(watched))
	for i, w := range watched {
		s, err := w.snapshot()
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		before[i] = s
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			WantArgErr(t, c.Call(), c.Arg)
			if err := q.Wait(); err != nil {
				t.Fatalf("Wait: %v", err)
			}
			for i, w := range watched {
				if s, err := w.snapshot(); err != nil || s != before[i] {
					t.Fatalf("a rejected call wrote data (watched item %d), err %v", i, err)
				}
			}
		})
	}
}

// ArgQueues returns two distinct host queues, for the argument tests (one owns the data,
// the other is "another queue").
func ArgQueues(t testing.TB) (q, other *batchlas.Queue) {
	t.Helper()
	var err error
	if q, err = batchlas.NewQueue(batchlas.Host); err != nil {
		t.Fatal(err)
	}
	if other, err = batchlas.NewQueue(batchlas.Host); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close(); other.Close() })
	return q, other
}

// ArgMatrix makes a packed matrix of Rand values for an argument test.
func ArgMatrix[T batchlas.Scalar](t testing.TB, q *batchlas.Queue, r, c, batch int) *batchlas.Matrix[T] {
	t.Helper()
	m, err := batchlas.NewMatrix[T](q, r, c, batch)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Upload(Rand[T](NewRand(t), r*c*batch)); err != nil {
		t.Fatal(err)
	}
	return m
}

// FuzzQueue is a host queue for a fuzz target.
func FuzzQueue(f *testing.F) *batchlas.Queue {
	q, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { q.Close() })
	return q
}

// Small folds a fuzzed size into [-2, 40], so that fuzzing explores the rules rather than
// the allocator.
func Small(x int) int {
	if x < -2 || x > 40 {
		x = x%43 - 2
		if x < -2 {
			x += 43
		}
	}
	return x
}

// fuzzMatrix makes a matrix of folded fuzzed sizes (see Small), or returns nil where
// NewMatrixStrided refuses them, which the op under test must reject in turn.
func fuzzMatrix[T batchlas.Scalar](q *batchlas.Queue, rows, cols, ld, stride, batch int) *batchlas.Matrix[T] {
	m, err := batchlas.NewMatrixStrided[T](q, Small(rows), Small(cols), Small(ld), Small(stride), Small(batch))
	if err != nil {
		return nil
	}
	return m
}

func freeAll[T batchlas.Scalar](ms ...*batchlas.Matrix[T]) {
	for _, m := range ms {
		if m != nil {
			m.Free()
		}
	}
}

// FuzzMatrix is fuzzMatrix freed when t ends.
func FuzzMatrix[T batchlas.Scalar](t testing.TB, q *batchlas.Queue, rows, cols, ld, stride, batch int) *batchlas.Matrix[T] {
	m := fuzzMatrix[T](q, rows, cols, ld, stride, batch)
	if m != nil {
		t.Cleanup(func() { m.Free() })
	}
	return m
}

// FuzzVector makes a vector of a folded fuzzed length on q, freed when t ends, or returns nil
// where NewVector refuses the length.
func FuzzVector[E batchlas.Element](t testing.TB, q *batchlas.Queue, n int) *batchlas.Vector[E] {
	v, err := batchlas.NewVector[E](q, Small(n))
	if err != nil {
		return nil
	}
	t.Cleanup(func() { v.Free() })
	return v
}

// MatrixCases are the cases that every matrix argument must refuse: nil, a zero Matrix (not
// made by NewMatrix), freed memory and a matrix of the other queue. call makes the call with
// its matrix, rows-by-cols with batch matrices, as the argument arg and valid others.
func MatrixCases[T batchlas.Scalar](t testing.TB, q, other *batchlas.Queue, arg string, rows, cols, batch int, call func(*batchlas.Matrix[T]) error) []ArgCase {
	t.Helper()
	freed := ArgMatrix[T](t, q, rows, cols, batch)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	foreign := ArgMatrix[T](t, other, rows, cols, batch)
	return []ArgCase{
		{"nil " + arg, arg, func() error { return call(nil) }},
		{"zero " + arg, arg, func() error { return call(&batchlas.Matrix[T]{}) }},
		{"freed " + arg, arg, func() error { return call(freed) }},
		{"foreign " + arg, arg, func() error { return call(foreign) }},
	}
}

// VectorCases are the cases that every vector argument of n elements must refuse: nil, a
// zero Vector (not made by NewVector), freed memory, a vector of the other queue, and one
// element short. call makes the call with its vector as the argument arg and valid others.
func VectorCases[E batchlas.Element](t testing.TB, q, other *batchlas.Queue, arg string, n int, call func(*batchlas.Vector[E]) error) []ArgCase {
	t.Helper()
	freed := UploadVector(t, q, make([]E, n))
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	foreign := UploadVector(t, other, make([]E, n))
	short := UploadVector(t, q, make([]E, n-1))
	return []ArgCase{
		{"nil " + arg, arg, func() error { return call(nil) }},
		{"zero " + arg, arg, func() error { return call(&batchlas.Vector[E]{}) }},
		{"freed " + arg, arg, func() error { return call(freed) }},
		{"foreign " + arg, arg, func() error { return call(foreign) }},
		{"short " + arg, arg, func() error { return call(short) }},
	}
}
