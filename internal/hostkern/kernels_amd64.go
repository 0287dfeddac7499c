//go:build amd64 && !purego

package hostkern

import "golang.org/x/sys/cpu"

var enabled = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// lower32AVX2 is potrf_amd64.s's kernel (see gen_potrf.go).
//
//go:noescape
func lower32AVX2(n int, a *float32, lda int) int

func lower32(n int, a *float32, lda int) int { return lower32AVX2(n, a, lda) }

// getrf4x2AVX2 to getrf4x8AVX2 are getrf_amd64.s's kernels (see gen_getrf.go), one an order.

//go:noescape
func getrf4x2AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x3AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x4AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x5AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x6AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x7AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

//go:noescape
func getrf4x8AVX2(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int

var getrf4Kernels = [...]func(a0, a1, a2, a3 *float64, lda int, buf *float64, piv *int32) int{
	2: getrf4x2AVX2, 3: getrf4x3AVX2, 4: getrf4x4AVX2, 5: getrf4x5AVX2,
	6: getrf4x6AVX2, 7: getrf4x7AVX2, 8: getrf4x8AVX2,
}

func getrf4(n int, a *[4][]float64, lda int, s *Getrf4Scratch) int {
	return getrf4Kernels[n](&a[0][0], &a[1][0], &a[2][0], &a[3][0], lda, &s.buf[0], &s.piv[0])
}
