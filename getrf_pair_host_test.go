package batchlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/hostkern"
)

// TestGetrfPair checks that getrfPairUnrolled's kernels give each of their two matrices
// exactly (bit for bit: pivots, factors, info) what getf2 gives it alone, in float64 and
// float32, on random pairs and on pairs where one matrix has a zero column, a tiny
// (subnormal) pivot, a NaN or an Inf, which send the pair to the single-matrix kernels.
func TestGetrfPair(t *testing.T) {
	for n := 1; n <= smallMax; n++ {
		if getrfPairUnrolled[float64](n) == nil {
			continue
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			checkGetrfPair[float64](t, n)
			checkGetrfPair[float32](t, n)
		})
	}
}

func checkGetrfPair[F float32 | float64](t *testing.T, n int) {
	rng := rand.New(rand.NewPCG(9, uint64(n)))
	lda := n + 2
	random := func() []F {
		a := make([]F, lda*n)
		for i := range a {
			a[i] = F(rng.Float64()*2 - 1)
		}
		return a
	}
	specials := getrfSpecials[F](n, lda)
	pair := getrfPairUnrolled[F](n)
	for name, spoil := range specials {
		for _, which := range []int{0, 1} {
			in := [2][]F{random(), random()}
			spoil(in[which])
			var want [2][]F
			var wantPiv [2][]int32
			var wantInfo [2]int
			for m := 0; m < 2; m++ {
				want[m] = append([]F(nil), in[m]...)
				wantPiv[m] = make([]int32, n)
				wantInfo[m] = getf2(n, n, want[m], lda, wantPiv[m])
			}
			got := [2][]F{append([]F(nil), in[0]...), append([]F(nil), in[1]...)}
			piv := [2][]int32{make([]int32, n), make([]int32, n)}
			i0, i1 := pair(got[0], got[1], lda, piv[0], piv[1])
			gotInfo := [2]int{i0, i1}
			for m := 0; m < 2; m++ {
				if gotInfo[m] != wantInfo[m] {
					t.Fatalf("%s in matrix %d: matrix %d info %d, getf2 %d", name, which, m, gotInfo[m], wantInfo[m])
				}
				for i := range piv[m] {
					if piv[m][i] != wantPiv[m][i] {
						t.Fatalf("%s in matrix %d: matrix %d pivots %v, getf2 %v", name, which, m, piv[m], wantPiv[m])
					}
				}
				for i := range got[m] {
					if math.Float64bits(float64(got[m][i])) != math.Float64bits(float64(want[m][i])) && !(got[m][i] != got[m][i] && want[m][i] != want[m][i]) {
						t.Fatalf("%s in matrix %d: matrix %d element %d = %g, getf2 %g", name, which, m, i, got[m][i], want[m][i])
					}
				}
			}
		}
	}
}

// getrfSpecials spoil a matrix (order n >= 2, leading dimension lda) in the ways that send the
// small kernels to getf2's careful path, and "random" leaves it as it is.
func getrfSpecials[F float32 | float64](n, lda int) map[string]func(a []F) {
	tiny := F(0x1p-1060)
	if _, ok := any(tiny).(float32); ok {
		tiny = F(0x1p-140)
	}
	return map[string]func(a []F){
		"random":       func([]F) {},
		"zero_column":  func(a []F) { c := min(3, n-1); clear(a[c*lda : c*lda+n]) },
		"tiny_pivot":   func(a []F) { scaleCol(a[0:n], tiny) },
		"nan":          func(a []F) { a[min(1, n-1)*lda+min(2, n-1)] = F(math.NaN()) },
		"inf":          func(a []F) { a[min(2, n-1)*lda+min(1, n-1)] = F(math.Inf(-1)) },
		"zero":         func(a []F) { clear(a) },
		"equal_pivots": func(a []F) { a[0], a[1] = 1, -1 },
	}
}

// TestGetrfQuads checks getrfHost's four-at-a-time path (getrfQuads, float64 n = 3 to 8)
// through the public call: a batch of 4k+3 matrices at lda > n with a stride gap, large enough
// for hostBatch's chunks to hold groups of four, one matrix of several groups spoiled by a
// getrfSpecials case (that group then goes one by one), every matrix's
// factors, pivots and info equal to getf2's alone to the bit, the gaps untouched.
func TestGetrfQuads(t *testing.T) {
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	for n := getrfQuadMin; n <= hostkern.Getrf4MaxN; n++ {
		lda, rng := n+1, rand.New(rand.NewPCG(5, uint64(n)))
		stride := lda*n + 3
		specials := getrfSpecials[float64](n, lda)
		names := []string{"random"}
		for name := range specials {
			names = append(names, name)
		}
		batch := 4*64 + 3
		raw := make([]float64, stride*(batch-1)+(n-1)*lda+n)
		for i := range raw {
			raw[i] = rng.Float64()*2 - 1
		}
		for g, name := range names {
			b := 28*g + g%4
			specials[name](raw[b*stride : b*stride+lda*n])
		}
		a, err := NewMatrixStrided[float64](q, n, n, lda, stride, batch)
		if err != nil {
			t.Fatal(err)
		}
		ipiv, _ := NewVector[int32](q, n*batch)
		info, _ := NewVector[int32](q, batch)
		if err := a.UploadRaw(raw); err != nil {
			t.Fatal(err)
		}
		if err := Getrf(q, a, ipiv, info); err != nil {
			t.Fatal(err)
		}
		got, _ := a.DownloadRaw(nil)
		gotPiv, _ := ipiv.Download(nil)
		gotInfo, _ := info.Download(nil)
		for b := 0; b < batch; b++ {
			want := append([]float64(nil), raw[b*stride:min((b+1)*stride, len(raw))]...)
			wantPiv := make([]int32, n)
			wantInfo := getf2(n, n, want, lda, wantPiv)
			if int(gotInfo[b]) != wantInfo {
				t.Fatalf("n=%d matrix %d: info %d, getf2 %d", n, b, gotInfo[b], wantInfo)
			}
			for k := range wantPiv {
				if gotPiv[b*n+k] != wantPiv[k] {
					t.Fatalf("n=%d matrix %d: pivots %v, getf2 %v", n, b, gotPiv[b*n:(b+1)*n], wantPiv)
				}
			}
			for i, w := range want {
				g := got[b*stride+i]
				if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
					t.Fatalf("n=%d matrix %d: element %d = %g, getf2 %g", n, b, i, g, w)
				}
			}
		}
	}
}

func scaleCol[F float32 | float64](c []F, s F) {
	for i := range c {
		c[i] *= s
	}
}
