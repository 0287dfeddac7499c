//go:build amd64 && !purego

package hostkern

import "golang.org/x/sys/cpu"

var enabled = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// lower32AVX2 is potrf_amd64.s's kernel (see gen_potrf.go).
//
//go:noescape
func lower32AVX2(n int, a *float32, lda int) int

func lower32(n int, a *float32, lda int) int { return lower32AVX2(n, a, lda) }

// getrf4x4AVX2 and getrf4x8AVX2 are getrf_amd64.s's kernels (see gen_getrf.go).
//
//go:noescape
func getrf4x4AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x8AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

func getrf4(n int, a *[4][]float64, lda int, s *Getrf4Scratch) int {
	k := getrf4x4AVX2
	if n == 8 {
		k = getrf4x8AVX2
	}
	return k(&a[0][0], &a[1][0], &a[2][0], &a[3][0], lda, &s.buf[0], &s.piv[0])
}
