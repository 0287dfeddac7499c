//go:build amd64 && !purego

package hostpotrf

import "golang.org/x/sys/cpu"

var enabled = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// lower32AVX2 is potrf_amd64.s's kernel (see gen_potrf.go).
//
//go:noescape
func lower32AVX2(n int, a *float32, lda int) int

func lower32(n int, a *float32, lda int) int { return lower32AVX2(n, a, lda) }
