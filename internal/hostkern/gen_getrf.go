//go:build ignore

// gen_getrf writes getrf_amd64.s, the package's batch-interleaved LU kernels:
//
//	go run gen_getrf.go
//
// getrf4xNAVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int factors four
// column-major order-N float64 matrices (2 <= N <= 8) at once, matrix m in lane m of every
// vector: the matrices are loaded and transposed by 4-by-4 blocks into buf (element (i, j)
// of the four at buf[4(jL+i):], L = N rounded up to a multiple of 4, then the pivot rows at
// buf[4LN + 4k:]; a last block of fewer than four rows is read and written under a mask),
// factored there
// column by column (the largest |a_ik| by compares and blends, the rows swapped lane by lane
// by blends on the pivot's index, the column scaled by one reciprocal, the rank-one update
// as a multiply and a subtraction, as the root package's scalar kernels do, so the factors
// are theirs to the bit), and only then transposed back into a0..a3, with the 0-based pivot
// rows at piv[4k + m]. A pivot that the scalar kernels leave to getf2's careful path (below
// the safe minimum before the last column, zero in it) stops the store: the kernel returns
// the mask of such lanes with a0..a3 and piv untouched.
package main

import (
	"bytes"
	"fmt"
	"os"
)

var w bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&w, "\t"+format+"\n", args...) }

// transpose turns the rows in Y0-Y3 into the columns in Y4-Y7 (4-by-4 float64), with Y8-Y11.
func transpose() {
	p("VUNPCKLPD Y1, Y0, Y8")
	p("VUNPCKHPD Y1, Y0, Y9")
	p("VUNPCKLPD Y3, Y2, Y10")
	p("VUNPCKHPD Y3, Y2, Y11")
	p("VPERM2F128 $0x20, Y10, Y8, Y4")
	p("VPERM2F128 $0x20, Y11, Y9, Y5")
	p("VPERM2F128 $0x31, Y10, Y8, Y6")
	p("VPERM2F128 $0x31, Y11, Y9, Y7")
}

func kernel(n int) {
	ld := (n + 3) &^ 3 // buf's rows a column: n rounded up to whole blocks
	off := func(i, j int) int { return (j*ld + i) * 32 }
	pv := func(k int) int { return (ld*n + k) * 32 }
	mats := []string{"R9", "R10", "R11", "R12"}
	name := fmt.Sprintf("getrf4x%dAVX2", n)
	fmt.Fprintf(&w, "// func %s(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int\n", name)
	fmt.Fprintf(&w, "TEXT ·%s(SB), NOSPLIT, $0-64\n", name)
	for m, r := range mats {
		p("MOVQ a%d+%d(FP), %s", m, 8*m, r)
	}
	p("MOVQ lda+32(FP), DI")
	p("SHLQ $3, DI")
	p("MOVQ buf+40(FP), BX")
	p("MOVQ $15, R13 // lanes whose pivots have all passed")
	p("VMOVUPD absmask<>(SB), Y15")
	// A column's offset in every matrix is CX.
	column := func(rows func(j, rb int)) {
		p("XORQ CX, CX")
		for j := 0; j < n; j++ {
			for rb := 0; rb < (n+3)/4; rb++ {
				rows(j, rb)
			}
			if j < n-1 {
				p("ADDQ DI, CX")
			}
		}
	}
	// The last row block of a matrix of order n = 4q + r, r > 0, is read and written under
	// the mask of its r rows (Y12 while the matrices move): the rows past n are the caller's.
	partial := func(rb int) bool { return n%4 != 0 && rb == n/4 }
	if n%4 != 0 {
		p("VMOVUPD rows<>+%d(SB), Y12", 32*(n%4))
	}
	column(func(j, rb int) {
		for m, r := range mats {
			if partial(rb) {
				p("VMASKMOVPD %d(%s)(CX*1), Y12, Y%d", 32*rb, r, m)
			} else {
				p("VMOVUPD %d(%s)(CX*1), Y%d", 32*rb, r, m)
			}
		}
		transpose()
		for r := 0; r < 4; r++ {
			p("VMOVUPD Y%d, %d(BX)", 4+r, off(4*rb+r, j))
		}
	})
	for k := 0; k < n; k++ {
		fmt.Fprintf(&w, "\t// column %d\n", k)
		p("VMOVUPD %d(BX), Y0", off(k, k))
		p("VANDPD Y15, Y0, Y0")
		p("VBROADCASTSD idx<>+%d(SB), Y1", 8*k)
		for i := k + 1; i < n; i++ {
			p("VMOVUPD %d(BX), Y2", off(i, k))
			p("VANDPD Y15, Y2, Y2")
			p("VCMPPD $0x1e, Y0, Y2, Y3 // |a_ik| > big, ordered: a NaN never wins")
			p("VBLENDVPD Y3, Y2, Y0, Y0")
			p("VBROADCASTSD idx<>+%d(SB), Y4", 8*i)
			p("VBLENDVPD Y3, Y4, Y1, Y1")
		}
		p("VMOVUPD Y1, %d(BX)", pv(k))
		if k == n-1 {
			p("VMOVUPD %d(BX), Y0", off(k, k))
			p("VANDPD Y15, Y0, Y2")
			p("VXORPD Y3, Y3, Y3")
			p("VCMPPD $0x04, Y3, Y2, Y3 // |d| != 0, unordered: a NaN passes")
			p("VMOVMSKPD Y3, AX")
			p("ANDQ AX, R13")
			break
		}
		// Y5.. hold the masks of the lanes whose pivot is row i.
		mask := func(i int) int { return 5 + i - k - 1 }
		for i := k + 1; i < n; i++ {
			p("VBROADCASTSD idx<>+%d(SB), Y4", 8*i)
			p("VCMPPD $0x00, Y4, Y1, Y%d", mask(i))
		}
		for c := 0; c < n; c++ {
			p("VMOVUPD %d(BX), Y12", off(k, c))
			p("VMOVAPD Y12, Y13")
			for i := k + 1; i < n; i++ {
				p("VMOVUPD %d(BX), Y14", off(i, c))
				p("VBLENDVPD Y%d, Y14, Y13, Y13", mask(i))
				p("VBLENDVPD Y%d, Y12, Y14, Y14", mask(i))
				p("VMOVUPD Y14, %d(BX)", off(i, c))
			}
			p("VMOVUPD Y13, %d(BX)", off(k, c))
		}
		p("VMOVUPD %d(BX), Y0", off(k, k))
		p("VANDPD Y15, Y0, Y2")
		p("VBROADCASTSD sfmin<>(SB), Y3")
		p("VCMPPD $0x1d, Y3, Y2, Y3 // |d| >= sfmin, ordered: a NaN fails")
		p("VMOVMSKPD Y3, AX")
		p("ANDQ AX, R13")
		p("VBROADCASTSD one<>(SB), Y3")
		p("VDIVPD Y0, Y3, Y1")
		l := func(i int) int { return 2 + i - k - 1 }
		for i := k + 1; i < n; i++ {
			p("VMULPD %d(BX), Y1, Y%d", off(i, k), l(i))
			p("VMOVUPD Y%d, %d(BX)", l(i), off(i, k))
		}
		for c := k + 1; c < n; c++ {
			p("VMOVUPD %d(BX), Y9", off(k, c))
			for i := k + 1; i < n; i++ {
				p("VMULPD Y9, Y%d, Y11", l(i))
				p("VMOVUPD %d(BX), Y10", off(i, c))
				p("VSUBPD Y11, Y10, Y10")
				p("VMOVUPD Y10, %d(BX)", off(i, c))
			}
		}
	}
	p("CMPQ R13, $15")
	p("JNE %s_bad", name)
	if n%4 != 0 {
		p("VMOVUPD rows<>+%d(SB), Y12", 32*(n%4))
	}
	column(func(j, rb int) {
		for r := 0; r < 4; r++ {
			p("VMOVUPD %d(BX), Y%d", off(4*rb+r, j), r)
		}
		transpose()
		for m, r := range mats {
			if partial(rb) {
				p("VMASKMOVPD Y%d, Y12, %d(%s)(CX*1)", 4+m, 32*rb, r)
			} else {
				p("VMOVUPD Y%d, %d(%s)(CX*1)", 4+m, 32*rb, r)
			}
		}
	})
	p("MOVQ piv+48(FP), DX")
	for k := 0; k < n; k++ {
		p("VCVTTPD2DQY %d(BX), X0", pv(k))
		p("VMOVDQU X0, %d(DX)", 16*k)
	}
	p("MOVQ $0, ret+56(FP)")
	p("VZEROUPPER")
	p("RET")
	fmt.Fprintf(&w, "%s_bad:\n", name)
	p("XORQ $15, R13")
	p("MOVQ R13, ret+56(FP)")
	p("VZEROUPPER")
	p("RET")
	fmt.Fprintln(&w)
}

func main() {
	w.WriteString("// Code generated by gen_getrf.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n\n")
	w.WriteString("DATA absmask<>+0(SB)/8, $0x7fffffffffffffff\nDATA absmask<>+8(SB)/8, $0x7fffffffffffffff\n")
	w.WriteString("DATA absmask<>+16(SB)/8, $0x7fffffffffffffff\nDATA absmask<>+24(SB)/8, $0x7fffffffffffffff\n")
	w.WriteString("GLOBL absmask<>(SB), RODATA|NOPTR, $32\n\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&w, "DATA idx<>+%d(SB)/8, $%d.0\n", 8*i, i)
	}
	w.WriteString("GLOBL idx<>(SB), RODATA|NOPTR, $64\n\n")
	w.WriteString("DATA one<>+0(SB)/8, $1.0\nGLOBL one<>(SB), RODATA|NOPTR, $8\n\n")
	w.WriteString("// The safe minimum of float64, 2^-1022, as the root package's safeMin.\n")
	w.WriteString("DATA sfmin<>+0(SB)/8, $0x0010000000000000\nGLOBL sfmin<>(SB), RODATA|NOPTR, $8\n\n")
	// rows<>+32r: the mask of the first r of four float64 lanes, r = 1, 2, 3.
	for r := 1; r < 4; r++ {
		for l := 0; l < 4; l++ {
			v := "0x0000000000000000"
			if l < r {
				v = "0xffffffffffffffff"
			}
			fmt.Fprintf(&w, "DATA rows<>+%d(SB)/8, $%s\n", 32*r+8*l, v)
		}
	}
	w.WriteString("GLOBL rows<>(SB), RODATA|NOPTR, $128\n\n")
	for n := 2; n <= 8; n++ {
		kernel(n)
	}
	if err := os.WriteFile("getrf_amd64.s", w.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
