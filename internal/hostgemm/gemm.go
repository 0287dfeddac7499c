// Package hostgemm is the host backend's matrix multiply: C = alpha op(A) op(B) + beta C on
// column-major matrices, blocked as GotoBLAS and BLIS are (a kc-by-nc block of B and an
// mc-by-kc block of A packed into panels, an assembly microkernel for each mr-by-nr tile of
// C). Complex products run on the real kernels by the 1m method: with A's real and
// imaginary parts laid out as the real 2m-by-2k matrix [ar -ai; ai ar] (per element), the
// interleaved storage of B and C is already the real 2k-by-n and 2m-by-n matrices whose
// real product is the complex one, with no extra flops.
//
// Enabled reports whether this CPU has a kernel; where it has none (other architectures,
// x86 without AVX2 and FMA) the callers run their portable code instead.
package hostgemm

//go:generate go run gen_kernels.go

import (
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/blas"
)

// kernel is a microkernel with its tile (mr-by-nr) and blocking sizes; mc is a multiple of
// mr, nc of nr, and mr and kc are even (the 1m method packs complex pairs).
type kernel[F float32 | float64] struct {
	name       string
	mr, nr     int
	mc, kc, nc int
	fn         func(k int, a, b, c *F, ldc int, alpha F)
	pool       sync.Pool // of *buffers[F]
}

// buffers is one goroutine's packing space.
type buffers[F float32 | float64] struct{ a, b, tile []F }

var (
	k64 = first(kernels64())
	k32 = first(kernels32())
)

func first[F float32 | float64](ks []*kernel[F]) *kernel[F] {
	if len(ks) == 0 {
		return nil
	}
	return ks[0]
}

// Enabled reports whether Gemm may be called: this CPU has microkernels for both precisions.
func Enabled() bool { return k64 != nil && k32 != nil }

// Gemm computes C = alpha op(A) op(B) + beta C for the column-major m-by-n C, op(A) m-by-k
// and op(B) k-by-n; ConjTrans is Trans for real types. As in BLAS, A and B are not read
// when alpha is 0 or k is 0, and C is not read when beta is 0. Only Enabled callers may
// call it.
func Gemm[T float32 | float64 | complex64 | complex128](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	scale(beta, m, n, c, ldc)
	if alpha == 0 || k == 0 {
		return
	}
	switch a := any(a).(type) {
	case []float64:
		realGemm(k64, tA, tB, m, n, k, any(alpha).(float64), a, lda, any(b).([]float64), ldb, any(c).([]float64), ldc)
	case []float32:
		realGemm(k32, tA, tB, m, n, k, any(alpha).(float32), a, lda, any(b).([]float32), ldb, any(c).([]float32), ldc)
	case []complex128:
		cplxGemm(k64, tA, tB, m, n, k, any(alpha).(complex128), a, lda, any(b).([]complex128), ldb, any(c).([]complex128), ldc)
	case []complex64:
		cplxGemm(k32, tA, tB, m, n, k, any(alpha).(complex64), a, lda, any(b).([]complex64), ldb, any(c).([]complex64), ldc)
	}
}

// scale sets the r-by-c x to beta x; beta = 0 clears it without reading it.
func scale[T float32 | float64 | complex64 | complex128](beta T, r, c int, x []T, ldx int) {
	if beta == 1 {
		return
	}
	for j := 0; j < c; j++ {
		col := x[j*ldx : j*ldx+r]
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}

// packer packs rows [r0, r0+rs) and depth [p0, p0+kc) of an operand into w-wide panels of
// dst: panel q holds rows r0+q*w.. as kc groups of w values, rows past rs as zeros.
type packer[F float32 | float64] func(dst []F, r0, p0, rs, kc, w int)

// realGemm is C += alpha op(A) op(B) for real types.
func realGemm[F float32 | float64](kn *kernel[F], tA, tB blas.Transpose, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, c []F, ldc int) {
	// Element (i, p) of op(A) is a[i*ia + p*pa]; element (j, p) of op(B)^T is b[j*jb + p*pb].
	ia, pa := 1, lda
	if tA != blas.NoTrans {
		ia, pa = lda, 1
	}
	jb, pb := ldb, 1
	if tB != blas.NoTrans {
		jb, pb = 1, ldb
	}
	run(kn, m, n, k, stridedPacker(a, ia, pa), stridedPacker(b, jb, pb), alpha, c, ldc, whole)
}

// stridedPacker packs the operand whose element (r, p) is x[r*sr + p*sp]. One of the
// strides is 1: with sr = 1 each group of w values is a copy, otherwise the rows are read
// once, in order, four at a time, and scattered w apart.
func stridedPacker[F float32 | float64](x []F, sr, sp int) packer[F] {
	return func(dst []F, r0, p0, rs, kc, w int) {
		for q := 0; q < rs; q += w {
			d := dst[q*kc : (q+w)*kc]
			rows := min(w, rs-q)
			base := (r0+q)*sr + p0*sp
			if sr == 1 {
				for p := 0; p < kc; p++ {
					dp := d[p*w : (p+1)*w]
					copy(dp, x[base+p*sp:base+p*sp+rows])
					clear(dp[rows:])
				}
				continue
			}
			// Four rows at a time: four reads streams, four adjacent writes.
			r := 0
			for ; r+4 <= rows; r += 4 {
				x0 := x[base+r*sr : base+r*sr+kc]
				x1 := x[base+(r+1)*sr : base+(r+1)*sr+kc]
				x2 := x[base+(r+2)*sr : base+(r+2)*sr+kc]
				x3 := x[base+(r+3)*sr : base+(r+3)*sr+kc]
				for p := range x0 {
					dp := d[p*w+r : p*w+r+4]
					dp[0], dp[1], dp[2], dp[3] = x0[p], x1[p], x2[p], x3[p]
				}
			}
			for ; r < rows; r++ {
				for p, v := range x[base+r*sr : base+r*sr+kc] {
					d[p*w+r] = v
				}
			}
			if rows < w {
				for p := 0; p < kc; p++ {
					clear(d[p*w+rows : (p+1)*w])
				}
			}
		}
	}
}

// cplxGemm is C += alpha op(A) op(B) for complex types by the 1m method (see the package
// doc): alpha is folded into the packed A, so the real kernel runs with alpha = 1.
func cplxGemm[C complex64 | complex128, F float32 | float64](kn *kernel[F], tA, tB blas.Transpose, m, n, k int, alpha C, a []C, lda int, b []C, ldb int, c []C, ldc int) {
	ia, pa := 1, lda
	if tA != blas.NoTrans {
		ia, pa = lda, 1
	}
	jb, pb := ldb, 1
	if tB != blas.NoTrans {
		jb, pb = 1, ldb
	}
	packA := func(dst []F, r0, p0, rs, kc, w int) {
		// Real rows and depth are even: complex row i is real rows 2i, 2i+1, complex depth
		// p real depths 2p (ar, ai) and 2p+1 (-ai, ar).
		for q := 0; q < rs; q += w {
			d := dst[q*kc : (q+w)*kc]
			rows := min(w, rs-q) / 2
			for r := 0; r < rows; r++ {
				src := a[(r0/2+q/2+r)*ia+(p0/2)*pa:]
				for p := 0; p < kc/2; p++ {
					v := src[p*pa]
					if tA == blas.ConjTrans {
						v = conj(v)
					}
					if alpha != 1 {
						v *= alpha
					}
					re, im := F(real(complex128(v))), F(imag(complex128(v)))
					d0, d1 := d[2*p*w+2*r:], d[(2*p+1)*w+2*r:]
					d0[0], d0[1] = re, im
					d1[0], d1[1] = -im, re
				}
			}
			for p := 0; p < kc; p++ {
				clear(d[p*w+2*rows : (p+1)*w])
			}
		}
	}
	packB := func(dst []F, r0, p0, rs, kc, w int) {
		// Columns are complex columns; complex depth p is real depths 2p (br) and 2p+1 (bi).
		for q := 0; q < rs; q += w {
			d := dst[q*kc : (q+w)*kc]
			cols := min(w, rs-q)
			for r := 0; r < cols; r++ {
				src := b[(r0+q+r)*jb+(p0/2)*pb:]
				for p := 0; p < kc/2; p++ {
					v := complex128(src[p*pb])
					im := imag(v)
					if tB == blas.ConjTrans {
						im = -im
					}
					d[2*p*w+r], d[(2*p+1)*w+r] = F(real(v)), F(im)
				}
			}
			for p := 0; p < kc; p++ {
				clear(d[p*w+cols : (p+1)*w])
			}
		}
	}
	cr := unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(c))), 2*len(c))
	run(kn, 2*m, n, 2*k, packA, packB, 1, cr, 2*ldc, whole)
}

func conj[C complex64 | complex128](v C) C {
	z := complex128(v)
	return C(complex(real(z), -imag(z)))
}

// part names the part of C that run writes: all of it, or the lower or upper triangle of
// a square C (diagonal included).
type part int

const (
	whole part = iota
	lowerPart
	upperPart
)

// keeps reports whether the part holds element (i, j) of C, by its diagonal offset i - j.
func (t part) keeps(diff int) bool {
	return t == whole || t == lowerPart && diff >= 0 || t == upperPart && diff <= 0
}

// run is C += alpha op(A) op(B) over the blocks and tiles of the kernel, on the part t of C
// only: blocks and tiles outside it are skipped, and tiles that cross the diagonal go
// through the tile buffer.
func run[F float32 | float64](kn *kernel[F], m, n, k int, packA, packB packer[F], alpha F, c []F, ldc int, t part) {
	buf, _ := kn.pool.Get().(*buffers[F])
	if buf == nil {
		buf = &buffers[F]{tile: make([]F, kn.mr*kn.nr)}
	}
	defer kn.pool.Put(buf)
	mcMax := min(kn.mc, roundUp(m, kn.mr))
	kcMax := min(kn.kc, k)
	ncMax := min(kn.nc, roundUp(n, kn.nr))
	buf.a = grow(buf.a, mcMax*kcMax)
	buf.b = grow(buf.b, kcMax*ncMax)
	for jc := 0; jc < n; jc += kn.nc {
		nc := min(kn.nc, n-jc)
		for pc := 0; pc < k; pc += kn.kc {
			kc := min(kn.kc, k-pc)
			packB(buf.b, jc, pc, nc, kc, kn.nr)
			for ic := 0; ic < m; ic += kn.mc {
				mc := min(kn.mc, m-ic)
				if !t.keeps(ic+mc-1-jc) && !t.keeps(ic-(jc+nc-1)) {
					continue
				}
				packA(buf.a, ic, pc, mc, kc, kn.mr)
				kn.macro(mc, nc, kc, buf, c[ic+jc*ldc:], ldc, alpha, t, ic-jc)
			}
		}
	}
}

// macro runs the kernel on every tile of an mc-by-nc block of C from packed blocks, for the
// part t of C, the block's first element lying d below C's diagonal; edge tiles and tiles
// that cross the diagonal go through buf.tile.
func (kn *kernel[F]) macro(mc, nc, kc int, buf *buffers[F], c []F, ldc int, alpha F, t part, d int) {
	mr, nr, tile := kn.mr, kn.nr, buf.tile
	for jr := 0; jr < nc; jr += nr {
		cols := min(nr, nc-jr)
		bp := &buf.b[jr*kc]
		for ir := 0; ir < mc; ir += mr {
			rows := min(mr, mc-ir)
			// The tile's elements lie lo to hi below the diagonal.
			lo, hi := d+ir-(jr+cols-1), d+ir+rows-1-jr
			if !t.keeps(lo) && !t.keeps(hi) {
				continue
			}
			ap := &buf.a[ir*kc]
			all := t.keeps(lo) && t.keeps(hi)
			if rows == mr && cols == nr && all {
				kn.fn(kc, ap, bp, &c[ir+jr*ldc], ldc, alpha)
				continue
			}
			clear(tile)
			kn.fn(kc, ap, bp, &tile[0], mr, alpha)
			for j := 0; j < cols; j++ {
				cj, tj := c[ir+(jr+j)*ldc:][:rows], tile[j*mr:][:rows]
				if all {
					for i, v := range tj {
						cj[i] += v
					}
					continue
				}
				for i, v := range tj {
					if t.keeps(d + ir + i - (jr + j)) {
						cj[i] += v
					}
				}
			}
		}
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }

func grow[F any](s []F, n int) []F {
	if cap(s) < n {
		return make([]F, n)
	}
	return s[:n]
}
