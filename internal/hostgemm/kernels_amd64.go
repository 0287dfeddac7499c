//go:build amd64 && !purego

package hostgemm

import "golang.org/x/sys/cpu"

// The microkernels of kernels_amd64.s (see gen_kernels.go for what they compute).

//go:noescape
func dkernAVX2(k int, a, b, c *float64, ldc int, alpha float64)

//go:noescape
func skernAVX2(k int, a, b, c *float32, ldc int, alpha float32)

//go:noescape
func dkernAVX512(k int, a, b, c *float64, ldc int, alpha float64)

//go:noescape
func skernAVX512(k int, a, b, c *float32, ldc int, alpha float32)

// Blocking: kc rows of a B panel (nr*kc elements) stay in L1 while a kernel streams an A
// panel; an mc-by-kc block of A stays in L2 (1 MiB per core or more on every AVX-512 CPU,
// 256 KiB on the oldest AVX2 ones); the kc-by-nc block of B in L3.
var (
	d64AVX2   = &kernel[float64]{name: "avx2", mr: 8, nr: 6, mc: 96, kc: 256, nc: 2046, fn: dkernAVX2}
	s32AVX2   = &kernel[float32]{name: "avx2", mr: 16, nr: 6, mc: 96, kc: 256, nc: 2046, fn: skernAVX2}
	d64AVX512 = &kernel[float64]{name: "avx512", mr: 16, nr: 12, mc: 96, kc: 192, nc: 2040, fn: dkernAVX512}
	s32AVX512 = &kernel[float32]{name: "avx512", mr: 32, nr: 12, mc: 192, kc: 256, nc: 2040, fn: skernAVX512}
)

// kernels64 and kernels32 are the kernels this CPU can run, the fastest first. AVX-512 needs
// the operating system to save the ZMM state, which x/sys/cpu folds into HasAVX512F.
func kernels64() []*kernel[float64] {
	var ks []*kernel[float64]
	if cpu.X86.HasAVX512F {
		ks = append(ks, d64AVX512)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, d64AVX2)
	}
	return ks
}

func kernels32() []*kernel[float32] {
	var ks []*kernel[float32]
	if cpu.X86.HasAVX512F {
		ks = append(ks, s32AVX512)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, s32AVX2)
	}
	return ks
}
