package batchlas

import (
	"bytes"
	"fmt"
	"testing"
)

// Sizing: <Op>BufferSize answers what the chosen family leases, and
// the family is right whatever the workspace holds. The queue's arena is reserved to exactly
// that size and filled with 0xFF bytes (NaN in every float type) before the call; the call
// must not grow the arena, and its outputs must equal those of the same call on a fresh queue
// whose arena was filled with zeros. Runs on every backend this build and machine offer (the
// host families lease nothing, so there the sizes are 0 and the check is that they stay 0).
func TestSizingExactPoisonedArena(t *testing.T) {
	for _, b := range []Backend{Host, CUDA, ROCm} {
		if q, err := NewQueue(b); err != nil {
			t.Logf("%v not tested: %v", b, err)
			continue
		} else {
			q.Close()
		}
		for _, c := range sizingCases {
			t.Run(fmt.Sprintf("%v/%s", b, c.name), func(t *testing.T) {
				size, poisoned := sizingRun(t, b, c.call, 0xFF)
				size0, clean := sizingRun(t, b, c.call, 0)
				if size != size0 {
					t.Fatalf("BufferSize answered %d, then %d for the same call", size, size0)
				}
				if poisoned != clean {
					t.Errorf("outputs depend on the workspace's contents (size %d)", size)
				}
				t.Logf("workspace %d bytes", size)
			})
		}
	}
}

// sizingCall makes a call's inputs on q and returns its BufferSize, the call, and a reader
// of every output.
type sizingCall func(q *Queue) (size func() (int, error), run func() error, outputs func() (string, error), err error)

// sizingRun runs call on a fresh queue of backend b whose arena holds exactly BufferSize
// bytes of fill, and returns the size and the outputs.
func sizingRun(t *testing.T, b Backend, call sizingCall, fill byte) (int, string) {
	t.Helper()
	q, err := NewQueue(b)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	sizeOf, run, outputs, err := call(q)
	if err != nil {
		t.Fatal(err)
	}
	size, err := sizeOf()
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Reserve(size); err != nil {
		t.Fatal(err)
	}
	if err := fillArena(q, fill); err != nil {
		t.Fatal(err)
	}
	if err := run(); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := q.WorkspaceSize(); got != size {
		t.Fatalf("BufferSize answered %d bytes, the call grew the workspace to %d", size, got)
	}
	out, err := outputs()
	if err != nil {
		t.Fatal(err)
	}
	return size, out
}

// fillArena writes fill into every byte of q's arena.
func fillArena(q *Queue, fill byte) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.arena.bytes == 0 {
		return nil
	}
	buf := bytes.Repeat([]byte{fill}, q.arena.bytes)
	if d, ok := q.eng.(devEngine); ok {
		return d.upload(q.arena.ptr, buf)
	}
	copy(q.arena.host, buf)
	return nil
}

// sizingMatrix is a batch of r-by-c matrices holding a fixed pattern, with n added to the
// diagonal so that square ones are Hermitian-positive-definite-like in their lower triangle
// and far from singular.
func sizingMatrix[T Scalar](q *Queue, r, c, batch int) (*Matrix[T], error) {
	m, err := NewMatrix[T](q, r, c, batch)
	if err != nil {
		return nil, err
	}
	data := make([]T, r*c*batch)
	for k := range data {
		i, j := k%r, (k/r)%c
		x := float64((k*7919)%97)/97 - 0.5
		if i == j {
			x += float64(max(r, c))
		}
		data[k] = scalarOf[T](x, float64((k*104729)%89)/89-0.5)
	}
	return m, m.Upload(data)
}

// sizingVector is n values of tau-like size (between 1 and 2).
func sizingVector[T Scalar](q *Queue, n int) (*Vector[T], error) {
	v, err := NewVector[T](q, n)
	if err != nil {
		return nil, err
	}
	x := make([]T, n)
	for k := range x {
		x[k] = scalarOf[T](1+float64(k%7)/7, 0)
	}
	return v, v.Upload(x)
}

func dump(xs ...interface{ dl() (string, error) }) (string, error) {
	s := ""
	for _, x := range xs {
		d, err := x.dl()
		if err != nil {
			return "", err
		}
		s += d + "\n"
	}
	return s, nil
}

func (m *Matrix[T]) dl() (string, error) {
	d, err := m.Download(nil)
	return fmt.Sprint(d), err
}

func (v *Vector[E]) dl() (string, error) {
	d, err := v.Download(nil)
	return fmt.Sprint(d), err
}

const sizingBatch = 300

var sizingCases = []struct {
	name string
	call sizingCall
}{
	{"potrf_f64_n24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[float64](q, 24, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		info, err := NewVector[int32](q, sizingBatch)
		return func() (int, error) { return PotrfBufferSize(q, Lower, a, info) },
			func() error { return Potrf(q, Lower, a, info) },
			func() (string, error) { return dump(a, info) }, err
	}},
	{"getrf_f32_n24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[float32](q, 24, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		ipiv, _ := NewVector[int32](q, 24*sizingBatch)
		info, err := NewVector[int32](q, sizingBatch)
		return func() (int, error) { return GetrfBufferSize(q, a, ipiv, info) },
			func() error { return Getrf(q, a, ipiv, info) },
			func() (string, error) { return dump(a, ipiv, info) }, err
	}},
	{"gesv_c64_n24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[complex64](q, 24, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		b, _ := sizingMatrix[complex64](q, 24, 3, sizingBatch)
		ipiv, _ := NewVector[int32](q, 24*sizingBatch)
		info, err := NewVector[int32](q, sizingBatch)
		return func() (int, error) { return GesvBufferSize(q, a, ipiv, b, info) },
			func() error { return Gesv(q, a, ipiv, b, info) },
			func() (string, error) { return dump(a, b, ipiv, info) }, err
	}},
	// Gels's "qr" family keeps its temporaries in the arena past its sub-calls' part.
	{"gels_f64_30x24_N", gelsSizing[float64](NoTrans, 30, 24, 2)},
	{"gels_c64_12x20_N", gelsSizing[complex64](NoTrans, 12, 20, 3)},
	{"gels_c128_12x20_C", gelsSizing[complex128](ConjTrans, 12, 20, 1)},
	{"geqrf_f64_30x24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[float64](q, 30, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		tau, err := NewVector[float64](q, 24*sizingBatch)
		return func() (int, error) { return GeqrfBufferSize(q, a, tau) },
			func() error { return Geqrf(q, a, tau) },
			func() (string, error) { return dump(a, tau) }, err
	}},
	{"potrs_c128_n24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[complex128](q, 24, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		b, err := sizingMatrix[complex128](q, 24, 2, sizingBatch)
		return func() (int, error) { return PotrsBufferSize(q, Lower, a, b) },
			func() error { return Potrs(q, Lower, a, b) },
			func() (string, error) { return dump(b) }, err
	}},
	{"orgqr_c64_30x24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[complex64](q, 30, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		tau, err := sizingVector[complex64](q, 24*sizingBatch)
		return func() (int, error) { return OrgqrBufferSize(q, 24, a, tau) },
			func() error { return Orgqr(q, 24, a, tau) },
			func() (string, error) { return dump(a) }, err
	}},
	{"ormqr_f32_30x24", func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[float32](q, 30, 24, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		cm, _ := sizingMatrix[float32](q, 30, 5, sizingBatch)
		tau, err := sizingVector[float32](q, 24*sizingBatch)
		return func() (int, error) { return OrmqrBufferSize(q, Left, Trans, 24, a, tau, cm) },
			func() error { return Ormqr(q, Left, Trans, 24, a, tau, cm) },
			func() (string, error) { return dump(cm) }, err
	}},
	sizingSyev(24), sizingSyev(40), sizingGesvd(24), sizingGesvd(40), sizingGesvdPinned("jacobi:qr=1", 20, 8), sizingGesvdPinned("jacobi:qr=1", 8, 20),
	sizingGesvdPinned("blocked:qr=0", 20, 8), sizingGesvdPinned("blocked:qr=0", 8, 20), sizingGesvdPinned("blocked:qr=1", 20, 8),
	sizingGesvdPinned("blocked:qr=0:gram=1", 32, 40), sizingGesvdPinned("blocked:qr=1:gram=1", 40, 32),
}

// sizingSyev covers both CUDA eigensolver routes: Jacobi for n <= 32, the general one above.
func sizingSyev(n int) struct {
	name string
	call sizingCall
} {
	return struct {
		name string
		call sizingCall
	}{fmt.Sprintf("syev_f64_n%d", n), func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[float64](q, n, n, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		w, _ := NewVector[float64](q, n*sizingBatch)
		info, err := NewVector[int32](q, sizingBatch)
		return func() (int, error) { return SyevBufferSize(q, Vectors, Lower, a, w, info) },
			func() error { return Syev(q, Vectors, Lower, a, w, info) },
			func() (string, error) { return dump(a, w, info) }, err
	}}
}

// sizingGesvd covers the Jacobi SVD (m, n <= 32) and the route above it.
func sizingGesvd(n int) struct {
	name string
	call sizingCall
} {
	return struct {
		name string
		call sizingCall
	}{fmt.Sprintf("gesvd_f32_n%d", n), func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[float32](q, n, n, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		s, _ := NewVector[float32](q, n*sizingBatch)
		u, _ := NewMatrix[float32](q, n, n, sizingBatch)
		vt, _ := NewMatrix[float32](q, n, n, sizingBatch)
		info, err := NewVector[int32](q, sizingBatch)
		return func() (int, error) { return GesvdBufferSize(q, SVDThin, SVDThin, a, s, u, vt, info) },
			func() error { return Gesvd(q, SVDThin, SVDThin, a, s, u, vt, info) },
			func() (string, error) { return dump(s, u, vt, info) }, err
	}}
}

// gelsSizing is a sizing case of Gels on m-by-n matrices with nrhs right-hand sides.
func gelsSizing[T Scalar](trans Transpose, m, n, nrhs int) sizingCall {
	return func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		a, err := sizingMatrix[T](q, m, n, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		b, _ := sizingMatrix[T](q, max(m, n), nrhs, sizingBatch)
		info, err := NewVector[int32](q, sizingBatch)
		return func() (int, error) { return GelsBufferSize(q, trans, a, b, info) },
			func() error { return Gels(q, trans, a, b, info) },
			func() (string, error) { return dump(a, b, info) }, err
	}
}

// sizingGesvdPinned covers gesvd's family pin on a CUDA queue (pinned there; the host routes
// as usual): the qr=1 members' workspace holds their own parts and, past them, their geqrf
// and ormqr calls'; blocked's holds its work arrays.
func sizingGesvdPinned(pin string, m, n int) struct {
	name string
	call sizingCall
} {
	return struct {
		name string
		call sizingCall
	}{fmt.Sprintf("gesvd_%s_c64_%dx%d", pin, m, n), func(q *Queue) (func() (int, error), func() error, func() (string, error), error) {
		pinned := func(f func() error) error {
			if q.dev.Backend != CUDA {
				return f()
			}
			restore, err := pinRoute("gesvd", pin)
			if err != nil {
				return err
			}
			defer restore()
			return f()
		}
		k := min(m, n)
		a, err := sizingMatrix[complex64](q, m, n, sizingBatch)
		if err != nil {
			return nil, nil, nil, err
		}
		s, _ := NewVector[float32](q, k*sizingBatch)
		u, _ := NewMatrix[complex64](q, m, m, sizingBatch)
		vt, _ := NewMatrix[complex64](q, k, n, sizingBatch)
		info, err := NewVector[int32](q, sizingBatch)
		return func() (size int, err error) {
				err = pinned(func() (err error) { size, err = GesvdBufferSize(q, SVDAll, SVDThin, a, s, u, vt, info); return err })
				return size, err
			},
			func() error { return pinned(func() error { return Gesvd(q, SVDAll, SVDThin, a, s, u, vt, info) }) },
			func() (string, error) { return dump(s, u, vt, info) }, err
	}}
}
