package tests

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/cblas64"
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
)

// gonumLayout is the padded batch the gonum conversions are tested on, so that a conversion
// that ignored ld or stride would be caught.
var gonumLayout = Layout{Rows: 4, Cols: 3, LDPad: 2, StridePad: 3, Batch: 3}

// strided returns r*c random values in row-major order with row stride c+2, the padding NaN,
// as gonum's sub-matrices are laid out.
func strided[T batchlas.Scalar](rng *rand.Rand, r, c int) []T {
	d := Fill((r-1)*(c+2)+c, NaN[T]())
	v := Rand[T](rng, r*c)
	for i := 0; i < r; i++ {
		copy(d[i*(c+2):i*(c+2)+c], v[i*c:])
	}
	return d
}

// checkMatrixB fails t unless matrix b of got holds at(i, j) bitwise, and the rest of the
// span is unchanged from before.
func checkMatrixB[T batchlas.Scalar](t *testing.T, what string, before, got Stored[T], b int, at func(i, j int) T) {
	t.Helper()
	Untouched(t, before, got, func(bb, i, j int) bool { return bb == b })
	for j := 0; j < got.Cols; j++ {
		for i := 0; i < got.Rows; i++ {
			if !sameBits(got.At(b, i, j), at(i, j)) {
				t.Fatalf("%s: element (%d, %d) of matrix %d is %v, want %v", what, i, j, b, got.At(b, i, j), at(i, j))
			}
		}
	}
}

// TestGonumDense round-trips mat.Dense values with a row stride through one matrix of a
// padded batch and through the whole batch: bitwise, and nothing else written.
func TestGonumDense(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		rng := NewRand(t)
		l := gonumLayout
		ds := make([]*mat.Dense, l.Batch)
		for b := range ds {
			ds[b] = mat.NewDense(l.Rows, l.Cols+2, Rand[float64](rng, l.Rows*(l.Cols+2))).Slice(0, l.Rows, 1, l.Cols+1).(*mat.Dense)
		}
		before := NewStored[float64](l)
		m := Upload(t, q, before)
		defer m.Free()
		if err := batchlas.FromDense(m, 1, ds[0]); err != nil {
			t.Fatal(err)
		}
		checkMatrixB(t, "FromDense", before, Download(t, q, m, l), 1, ds[0].At)
		one, err := batchlas.ToDense(m, 1)
		if err != nil {
			t.Fatal(err)
		}
		sameDense(t, "ToDense", one, ds[0])

		if err := batchlas.FromDenses(m, ds); err != nil {
			t.Fatal(err)
		}
		got := Download(t, q, m, l)
		Untouched(t, before, got, nil)
		back, err := batchlas.ToDenses(m)
		if err != nil {
			t.Fatal(err)
		}
		for b := range ds {
			checkMatrixB(t, "FromDenses", got, got, b, ds[b].At)
			sameDense(t, "ToDenses", back[b], ds[b])
		}
	})
}

func sameDense(t *testing.T, what string, got, want mat.Matrix) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: %dx%d, want %dx%d", what, gr, gc, r, c)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if !sameBits(got.At(i, j), want.At(i, j)) {
				t.Fatalf("%s: element (%d, %d) is %v, want %v", what, i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}

// TestGonumSymDense writes SymDense values (both triangles) into a padded batch and reads
// each triangle back: bitwise, and the triangle not named is not read.
func TestGonumSymDense(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		rng := NewRand(t)
		l := Layout{Rows: 4, Cols: 4, LDPad: 1, StridePad: 2, Batch: 3}
		ss := make([]*mat.SymDense, l.Batch)
		for b := range ss {
			ss[b] = mat.NewSymDense(l.Rows, Rand[float64](rng, l.Rows*l.Rows))
		}
		before := NewStored[float64](l)
		m := Upload(t, q, before)
		defer m.Free()
		if err := batchlas.FromSymDense(m, 2, ss[1]); err != nil {
			t.Fatal(err)
		}
		checkMatrixB(t, "FromSymDense", before, Download(t, q, m, l), 2, ss[1].At)
		if err := batchlas.FromSymDenses(m, ss); err != nil {
			t.Fatal(err)
		}
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			// Poison the other triangle: a conversion that read it would return NaN.
			s := Download(t, q, m, l)
			for b := 0; b < l.Batch; b++ {
				for j := 0; j < l.Cols; j++ {
					for i := 0; i < l.Rows; i++ {
						if !InTriangle(uplo == batchlas.Lower, i, j) {
							s.Set(b, i, j, NaN[float64]())
						}
					}
				}
			}
			half := Upload(t, q, s)
			back, err := batchlas.ToSymDenses(half, uplo)
			if err != nil {
				t.Fatal(err)
			}
			one, err := batchlas.ToSymDense(half, 1, uplo)
			if err != nil {
				t.Fatal(err)
			}
			for b := range ss {
				sameDense(t, "ToSymDenses "+uplo.String(), back[b], ss[b])
			}
			sameDense(t, "ToSymDense "+uplo.String(), one, ss[1])
			half.Free()
		}
	})
}

// TestGonumCDense round-trips mat.CDense values through one matrix and the whole batch.
func TestGonumCDense(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		rng := NewRand(t)
		l := gonumLayout
		cs := make([]*mat.CDense, l.Batch)
		for b := range cs {
			cs[b] = mat.NewCDense(l.Rows, l.Cols, Rand[complex128](rng, l.Rows*l.Cols))
		}
		before := NewStored[complex128](l)
		m := Upload(t, q, before)
		defer m.Free()
		if err := batchlas.FromCDense(m, 0, cs[2]); err != nil {
			t.Fatal(err)
		}
		checkMatrixB(t, "FromCDense", before, Download(t, q, m, l), 0, cs[2].At)
		one, err := batchlas.ToCDense(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		sameCDense(t, "ToCDense", one, cs[2])
		if err := batchlas.FromCDenses(m, cs); err != nil {
			t.Fatal(err)
		}
		back, err := batchlas.ToCDenses(m)
		if err != nil {
			t.Fatal(err)
		}
		got := Download(t, q, m, l)
		Untouched(t, before, got, nil)
		for b := range cs {
			checkMatrixB(t, "FromCDenses", got, got, b, cs[b].At)
			sameCDense(t, "ToCDenses", back[b], cs[b])
		}
	})
}

func sameCDense(t *testing.T, what string, got, want *mat.CDense) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: %dx%d, want %dx%d", what, gr, gc, r, c)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if !sameBits(got.At(i, j), want.At(i, j)) {
				t.Fatalf("%s: element (%d, %d) is %v, want %v", what, i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}

// TestGonumGeneral round-trips blas32, blas64, cblas64 and cblas128 General values with a
// row stride past the columns through one matrix of a padded batch.
func TestGonumGeneral(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		l := gonumLayout
		t.Run("f32", func(t *testing.T) {
			g := blas32.General{Rows: l.Rows, Cols: l.Cols, Stride: l.Cols + 2, Data: strided[float32](NewRand(t), l.Rows, l.Cols)}
			checkGeneral(t, q, g.Data, g.Stride, func(m *batchlas.Matrix[float32]) error { return batchlas.FromGeneral32(m, 1, g) },
				func(m *batchlas.Matrix[float32]) ([]float32, int, error) {
					h, err := batchlas.ToGeneral32(m, 1)
					return h.Data, h.Stride, err
				})
		})
		t.Run("f64", func(t *testing.T) {
			g := blas64.General{Rows: l.Rows, Cols: l.Cols, Stride: l.Cols + 2, Data: strided[float64](NewRand(t), l.Rows, l.Cols)}
			checkGeneral(t, q, g.Data, g.Stride, func(m *batchlas.Matrix[float64]) error { return batchlas.FromGeneral64(m, 1, g) },
				func(m *batchlas.Matrix[float64]) ([]float64, int, error) {
					h, err := batchlas.ToGeneral64(m, 1)
					return h.Data, h.Stride, err
				})
		})
		t.Run("c64", func(t *testing.T) {
			g := cblas64.General{Rows: l.Rows, Cols: l.Cols, Stride: l.Cols + 2, Data: strided[complex64](NewRand(t), l.Rows, l.Cols)}
			checkGeneral(t, q, g.Data, g.Stride, func(m *batchlas.Matrix[complex64]) error { return batchlas.FromCGeneral64(m, 1, g) },
				func(m *batchlas.Matrix[complex64]) ([]complex64, int, error) {
					h, err := batchlas.ToCGeneral64(m, 1)
					return h.Data, h.Stride, err
				})
		})
		t.Run("c128", func(t *testing.T) {
			g := cblas128.General{Rows: l.Rows, Cols: l.Cols, Stride: l.Cols + 2, Data: strided[complex128](NewRand(t), l.Rows, l.Cols)}
			checkGeneral(t, q, g.Data, g.Stride, func(m *batchlas.Matrix[complex128]) error { return batchlas.FromCGeneral128(m, 1, g) },
				func(m *batchlas.Matrix[complex128]) ([]complex128, int, error) {
					h, err := batchlas.ToCGeneral128(m, 1)
					return h.Data, h.Stride, err
				})
		})
	})
}

// checkGeneral runs one General round trip: from writes data (row-major, row stride ld) into
// matrix 1 of a poisoned padded batch, to reads it back as packed row-major data.
func checkGeneral[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, data []T, ld int, from func(*batchlas.Matrix[T]) error, to func(*batchlas.Matrix[T]) ([]T, int, error)) {
	l := gonumLayout
	before := NewStored[T](l)
	m := Upload(t, q, before)
	defer m.Free()
	if err := from(m); err != nil {
		t.Fatal(err)
	}
	checkMatrixB(t, "From", before, Download(t, q, m, l), 1, func(i, j int) T { return data[i*ld+j] })
	back, stride, err := to(m)
	if err != nil {
		t.Fatal(err)
	}
	if stride != l.Cols || len(back) != l.Rows*l.Cols {
		t.Fatalf("To: stride %d and %d elements, want %d and %d", stride, len(back), l.Cols, l.Rows*l.Cols)
	}
	for i := 0; i < l.Rows; i++ {
		for j := 0; j < l.Cols; j++ {
			if !sameBits(back[i*stride+j], data[i*ld+j]) {
				t.Fatalf("To: element (%d, %d) is %v, want %v", i, j, back[i*stride+j], data[i*ld+j])
			}
		}
	}
}

// TestGonumArgs checks the rejected conversions: each names its argument and writes nothing.
func TestGonumArgs(t *testing.T) {
	q, _ := ArgQueues(t)
	m := ArgMatrix[float64](t, q, 3, 2, 4)
	sq := ArgMatrix[float64](t, q, 3, 3, 2)
	empty := ArgMatrix[float64](t, q, 0, 2, 2)
	c := ArgMatrix[complex128](t, q, 3, 2, 2)
	right := mat.NewDense(3, 2, nil)
	cases := []ArgCase{
		{"nil dense", "d", func() error { return batchlas.FromDense(m, 0, nil) }},
		{"dense shape", "d", func() error { return batchlas.FromDense(m, 0, mat.NewDense(2, 3, nil)) }},
		{"dense b", "b", func() error { return batchlas.FromDense(m, 4, right) }},
		{"nil m", "m", func() error { return batchlas.FromDense(nil, 0, right) }},
		{"denses count", "ds", func() error { return batchlas.FromDenses(m, []*mat.Dense{right}) }},
		{"denses nil", "ds", func() error { return batchlas.FromDenses(m, []*mat.Dense{right, right, nil, right}) }},
		{"denses shape", "ds", func() error {
			return batchlas.FromDenses(m, []*mat.Dense{right, right, mat.NewDense(3, 3, nil), right})
		}},
		{"to empty", "m", func() error { _, err := batchlas.ToDense(empty, 0); return err }},
		{"tos empty", "m", func() error { _, err := batchlas.ToDenses(empty); return err }},
		{"sym not square", "m", func() error { _, err := batchlas.ToSymDense(m, 0, batchlas.Lower); return err }},
		{"sym uplo", "uplo", func() error { _, err := batchlas.ToSymDenses(sq, 'X'); return err }},
		{"sym shape", "s", func() error { return batchlas.FromSymDense(sq, 0, mat.NewSymDense(2, nil)) }},
		{"syms nil", "ss", func() error { return batchlas.FromSymDenses(sq, []*mat.SymDense{nil, nil}) }},
		{"cdense shape", "c", func() error { return batchlas.FromCDense(c, 0, mat.NewCDense(2, 2, nil)) }},
		{"cdenses count", "cs", func() error { return batchlas.FromCDenses(c, nil) }},
		{"general shape", "g", func() error {
			return batchlas.FromGeneral64(m, 0, blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: make([]float64, 4)})
		}},
		{"general short", "g", func() error {
			return batchlas.FromGeneral64(m, 0, blas64.General{Rows: 3, Cols: 2, Stride: 2, Data: make([]float64, 5)})
		}},
		{"general stride", "ld", func() error {
			return batchlas.FromGeneral64(m, 0, blas64.General{Rows: 3, Cols: 2, Stride: 1, Data: make([]float64, 6)})
		}},
		{"to general b", "b", func() error { _, err := batchlas.ToGeneral64(m, -1); return err }},
	}
	RunArgCases(t, q, cases, Watch(m), Watch(sq), Watch(c))
}

// hermConv is one dtype's pair of Hermitian conversions, with gonum's Hermitian value as
// order, stride, data and triangle.
type hermConv[T batchlas.Complex] struct {
	from func(m *batchlas.Matrix[T], b, n, stride int, data []T, upper bool) error
	to   func(m *batchlas.Matrix[T], b int, uplo batchlas.Uplo) (n, stride int, data []T, upper bool, err error)
}

var herm128 = hermConv[complex128]{
	from: func(m *batchlas.Matrix[complex128], b, n, stride int, data []complex128, upper bool) error {
		return batchlas.FromHermitian128(m, b, cblas128.Hermitian{N: n, Stride: stride, Data: data, Uplo: gonumUplo(upper)})
	},
	to: func(m *batchlas.Matrix[complex128], b int, uplo batchlas.Uplo) (int, int, []complex128, bool, error) {
		h, err := batchlas.ToHermitian128(m, b, uplo)
		return h.N, h.Stride, h.Data, h.Uplo == blas.Upper, err
	},
}

var herm64 = hermConv[complex64]{
	from: func(m *batchlas.Matrix[complex64], b, n, stride int, data []complex64, upper bool) error {
		return batchlas.FromHermitian64(m, b, cblas64.Hermitian{N: n, Stride: stride, Data: data, Uplo: gonumUplo(upper)})
	},
	to: func(m *batchlas.Matrix[complex64], b int, uplo batchlas.Uplo) (int, int, []complex64, bool, error) {
		h, err := batchlas.ToHermitian64(m, b, uplo)
		return h.N, h.Stride, h.Data, h.Uplo == blas.Upper, err
	},
}

func gonumUplo(upper bool) blas.Uplo {
	if upper {
		return blas.Upper
	}
	return blas.Lower
}

// TestGonumHermitian writes cblas Hermitian values (row stride padded, the unused triangle
// and the padding NaN) into matrix b of a padded batch, both triangles, and reads each
// triangle back: bitwise, nothing else written, the triangle not named not read.
func TestGonumHermitian(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		t.Run("c128", func(t *testing.T) { testGonumHermitian(t, q, herm128) })
		t.Run("c64", func(t *testing.T) { testGonumHermitian(t, q, herm64) })
	})
}

func testGonumHermitian[T batchlas.Complex](t *testing.T, q *batchlas.Queue, c hermConv[T]) {
	rng := NewRand(t)
	const n, stride = 4, 6
	l := Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 2, Batch: 3}
	for _, upper := range []bool{false, true} {
		data := Rand[T](rng, (n-1)*stride+n)
		stored := func(i, j int) bool { return j < n && (i == j || (j > i) == upper) } // row-major (i, j)
		for k := range data {
			if !stored(k/stride, k%stride) {
				data[k] = NaN[T]()
			}
		}
		want := func(i, j int) T { // the Hermitian matrix that data holds
			if stored(i, j) {
				return data[i*stride+j]
			}
			return conj(data[j*stride+i])
		}
		before := NewStored[T](l)
		m := Upload(t, q, before)
		if err := c.from(m, 1, n, stride, data, upper); err != nil {
			t.Fatal(err)
		}
		got := Download(t, q, m, l)
		checkMatrixB(t, "FromHermitian", before, got, 1, want)
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			half := got
			half.S = append([]T(nil), got.S...)
			for j := 0; j < n; j++ {
				for i := 0; i < n; i++ {
					if !InTriangle(uplo == batchlas.Lower, i, j) {
						half.Set(1, i, j, NaN[T]())
					}
				}
			}
			hm := Upload(t, q, half)
			hn, hs, hd, hup, err := c.to(hm, 1, uplo)
			if err != nil {
				t.Fatal(err)
			}
			if hn != n || hs != n || hup != (uplo == batchlas.Upper) || len(hd) != n*n {
				t.Fatalf("ToHermitian %v: N %d, Stride %d, upper %v, %d elements", uplo, hn, hs, hup, len(hd))
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					w := want(i, j)
					if !InTriangle(uplo == batchlas.Lower, i, j) {
						w = 0
					}
					if !sameBits(hd[i*n+j], w) {
						t.Fatalf("ToHermitian %v: element (%d, %d) is %v, want %v", uplo, i, j, hd[i*n+j], w)
					}
				}
			}
			hm.Free()
		}
		for _, bad := range []struct {
			what   string
			n, str int
			data   []T
		}{{"order", n + 1, stride, data}, {"stride", n, n - 1, data}, {"short data", n, stride, data[:len(data)-1]}} {
			if err := c.from(m, 1, bad.n, bad.str, bad.data, upper); !errors.Is(err, batchlas.ErrInvalidArgument) {
				t.Errorf("FromHermitian with a bad %s: %v, want ErrInvalidArgument", bad.what, err)
			}
		}
		Untouched(t, got, Download(t, q, m, l), nil)
		m.Free()
	}
	if err := c.from(nil, 0, n, stride, make([]T, n*stride), false); !errors.Is(err, batchlas.ErrInvalidArgument) {
		t.Errorf("FromHermitian on a nil matrix: %v, want ErrInvalidArgument", err)
	}
	if _, _, _, _, err := c.to(nil, 0, batchlas.Lower); !errors.Is(err, batchlas.ErrInvalidArgument) {
		t.Errorf("ToHermitian on a nil matrix: %v, want ErrInvalidArgument", err)
	}
}

func conj[T batchlas.Complex](x T) T {
	c := complex128(x)
	return T(complex(real(c), -imag(c)))
}
