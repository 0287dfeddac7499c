//go:build cuda

package batchlas

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestKernelConstantsAgree: every Go constant that mirrors a value of the kernel sources
// (a block size, a bound, a flag bit) equals it as the sources define it.
func TestKernelConstantsAgree(t *testing.T) {
	for _, c := range []struct {
		goName string
		goVal  int
		src    string // a source under kernels/ whose expansion defines name
		name   string
	}{
		{"tileThreads", tileThreads, "gemm/gemm_tiled.cu", "TILE_THREADS"},
		{"tfATrans", tfATrans, "gemm/gemm_tiled.cu", "TF_A_TRANS"},
		{"tfAConj", tfAConj, "gemm/gemm_tiled.cu", "TF_A_CONJ"},
		{"tfBTrans", tfBTrans, "gemm/gemm_tiled.cu", "TF_B_TRANS"},
		{"tfBConj", tfBConj, "gemm/gemm_tiled.cu", "TF_B_CONJ"},
		{"gemvThreads", gemvThreads, "gemv/gemv_direct.cu", "GEMV_THREADS"},
		{"rkTrans", rkTrans, "syrk/syrk_gram.cu", "RK_TRANS"},
		{"rkLower", rkLower, "syrk/syrk_gram.cu", "RK_LOWER"},
		{"rkHerm", rkHerm, "syrk/syrk_gram.cu", "RK_HERM"},
		{"rkTwo", rkTwo, "syrk/syrk_gram.cu", "RK_TWO"},
		{"spmmTransB", spmmTransB, "spmm/spmm_direct.cu", "SPMM_TRANS_B"},
		{"spmmConjB", spmmConjB, "spmm/spmm_direct.cu", "SPMM_CONJ_B"},
		{"spmmConjA", spmmConjA, "spmm/spmm_direct.cu", "SPMM_CONJ_A"},
		{"triLeft", triLeft, "trsm/trsm_cta.cu", "TRI_LEFT"},
		{"triLower", triLower, "trsm/trsm_cta.cu", "TRI_LOWER"},
		{"triTrans", triTrans, "trsm/trsm_cta.cu", "TRI_TRANS"},
		{"triConj", triConj, "trsm/trsm_cta.cu", "TRI_CONJ"},
		{"triUnit", triUnit, "trsm/trsm_cta.cu", "TRI_UNIT"},
		{"triMaxThreads", triMaxThreads, "trsm/trsm_cta.cu", "TRI_THREADS"},
		{"triMaxThreads", triMaxThreads, "potrs/potrs_cta.cu", "TRI_THREADS"},
		{"geqrfTinyWarps", geqrfTinyWarps, "geqrf/geqrf_tiny.cu", "TINY_QR_WARPS"},
		{"luRowsMax", luRowsMax, "getrf/getrf_cta.cu", "LU_ROWS_MAX"},
		{"luSolveValues", luSolveValues, "getrs/getrs_cta.cu", "LU_SOLVE_VALUES"},
		{"luRegCols", luRegCols, "getrf/getrf_regs.cu", "LU_REG_COLS"},
		{"getrfWarpMatrices", getrfWarpMatrices, "getrf/getrf_warp.cu", "WARP_MATRICES"},
		{"potrfTinyThreadWarps", potrfTinyThreadWarps, "potrf/potrf_tiny.cu", "TINY_THREAD_WARPS"},
		{"potrfTinyWarpWarps", potrfTinyWarpWarps, "potrf/potrf_tiny.cu", "TINY_WARP_WARPS"},
		{"potrfWarpWarps", potrfWarpWarps, "potrf/potrf_warp.cu", "WARP_WARPS"},
		{"potrfCTATiles", potrfCTATiles, "potrf/potrf_cta.cu", "CTA_TPT"},
		{"jacobiThreads", jacobiThreads, "gesvd/gesvd_jacobi.cu", "JACOBI_THREADS"},
		{"jacobiWide", jacobiWide, "gesvd/gesvd_jacobi.cu", "JACOBI_WIDE"},
		{"jacobiAdjoint", jacobiAdjoint, "gesvd/gesvd_jacobi.cu", "JACOBI_ADJOINT"},
		{"jacobiUpper", jacobiUpper, "gesvd/gesvd_jacobi.cu", "JACOBI_UPPER"},
		{"jacobiRight", jacobiRight, "gesvd/gesvd_jacobi.cu", "JACOBI_RIGHT"},
		{"copyIfOK", copyIfOK, "util/util.cu", "COPY_IF_OK"},
		{"copyIfFailed", copyIfFailed, "util/util.cu", "COPY_IF_FAILED"},
		{"copyTranspose", copyTranspose, "util/util.cu", "COPY_TRANSPOSE"},
		{"copyConj", copyConj, "util/util.cu", "COPY_CONJ"},
		{"copyLower", copyLower, "util/util.cu", "COPY_LOWER"},
		{"copyUpper", copyUpper, "util/util.cu", "COPY_UPPER"},
		{"syevTinyThreads", syevTinyThreads, "syev/syev_tiny.cu", "TINY_THREADS"},
		{"syevNB", syevNB, "syev/syev_blocked.cu", "SYEV_NB"},
		{"syevCTAMaxThreads", syevCTAMaxThreads, "syev/syev_cta.cu", "SYEV_CTA_MAX_THREADS"},
		{"syevBackRows", syevBackRows, "syev/syev.cuh", "SYEV_BACK_ROWS"},
		{"syevCTAMaxThreads", syevCTAMaxThreads, "syev/syev_blocked.cu", "SYEV_BLOCKED_THREADS"},
		{"scaleLower", scaleLower, "util/util.cu", "SCALE_LOWER"},
		{"scaleUpper", scaleUpper, "util/util.cu", "SCALE_UPPER"},
		{"scaleHerm", scaleHerm, "util/util.cu", "SCALE_HERM"},
		{"gvTrans", gvTrans, "gemv/gemv_direct.cu", "GV_TRANS"},
		{"gvConj", gvConj, "gemv/gemv_direct.cu", "GV_CONJ"},
		{"syLower", syLower, "symm/symm_tiled.cu", "SY_LOWER"},
		{"syHerm", syHerm, "symm/symm_tiled.cu", "SY_HERM"},
		{"tmLower", tmLower, "trmm/trmm_triangular.cu", "TM_LOWER"},
		{"tmTrans", tmTrans, "trmm/trmm_triangular.cu", "TM_TRANS"},
		{"tmConj", tmConj, "trmm/trmm_triangular.cu", "TM_CONJ"},
		{"tmUnit", tmUnit, "trmm/trmm_triangular.cu", "TM_UNIT"},
		{"luNoTrans", luNoTrans, "getrs/getrs_cta.cu", "LU_NOTRANS"},
		{"luTrans", luTrans, "getrs/getrs_cta.cu", "LU_TRANS"},
		{"luConjTrans", luConjTrans, "getrs/getrs_cta.cu", "LU_CONJTRANS"},
		{"getrfPanelThreads", getrfPanelThreads, "getrf/getrf_blocked.cu", "PANEL_THREADS"},
		{"getrfWarpSmemPanel", getrfWarpSmemPanel, "getrf/getrf_warp.cu", "SMEM_PANEL"},
		{"potrfPanel", potrfPanel, "potrf/potrf_cta.cu", "CTA_PANEL"},
		{"potrfPanel", potrfPanel, "potrf/potrf_warp.cu", "CTA_PANEL"},
		{"potrfCTAMaxThreads", potrfCTAMaxThreads, "potrf/potrf_cta.cu", "CTA_MAX_THREADS"},
	} {
		v, ok := readKernelSource(t, c.src).value(c.name)
		if !ok {
			t.Errorf("%s: kernels/%s defines no integer %s", c.goName, c.src, c.name)
		} else if int64(c.goVal) != v {
			t.Errorf("%s = %d, but %s of kernels/%s is %d", c.goName, c.goVal, c.name, c.src, v)
		}
	}
}

// kernelLaunch is one launch site: the fatbin it loads, the Go file that names its entry
// points and the text by which it spells them (a literal, or the call of the function that
// builds them), and every entry point the Go side can name there, over the dtypes and the
// shapes that its canRun rules and shape functions allow, each with its block.
type kernelLaunch struct {
	mod, goFile, spelled string
	uses                 func() []kernelUse
}

// kernelUse is an entry point and the threads of a block that a launch gives it: 0 where
// that block is a constant of the launch site's own and the kernel declares no
// __launch_bounds__ to hold it to. exact: the kernel's own arithmetic assumes the block its
// __launch_bounds__ declares, so the launch must give exactly that.
type kernelUse struct {
	name    string
	threads int
	exact   bool
}

// kernelQueue is a CUDA queue for the canRun rules and shape functions that ask the device:
// CUDA's 32-lane warps and 1024-thread blocks, and more shared memory than any device has,
// so that the shapes are those that some device may run (an H200's 227 KB holds no
// complex128 solve of order past 224, the orders of getrs_cta8_c128 and its like).
var kernelQueue = &Queue{dev: Device{Backend: CUDA, Key: "sm_90", SubGroup: 32, SharedMem: 1 << 24, MaxBlock: 1024}}

// shaped is one packed m-by-n matrix that holds no memory: the operand of a call whose shape
// alone is asked about.
func shaped[T Scalar](m, n int) *Matrix[T] {
	return &Matrix[T]{rows: m, cols: n, ld: max(m, 1), strd: m * n, batch: 1}
}

// orders calls f(m, n) for 1 <= m, n <= top.
func orders(top int, f func(m, n int)) {
	for m := 1; m <= top; m++ {
		for n := 1; n <= top; n++ {
			f(m, n)
		}
	}
}

// typed is the uses of a generic enumeration, for each scalar type.
func typed(f32, f64, c64, c128 func() []kernelUse) func() []kernelUse {
	return func() []kernelUse { return append(append(append(f32(), f64()...), c64()...), c128()...) }
}

var dtypes = []struct {
	name string
	size int
}{{"f32", 4}, {"f64", 8}, {"c64", 8}, {"c128", 16}}

// each is prefix + dtype for every prefix and dtype, launched with blocks of threads.
func each(threads int, prefixes ...string) func() []kernelUse {
	return func() []kernelUse {
		var out []kernelUse
		for _, dt := range dtypes {
			for _, p := range prefixes {
				out = append(out, kernelUse{name: p + dt.name, threads: threads})
			}
		}
		return out
	}
}

// bySize is the names that format gives the dtypes' element sizes (a kernel that moves
// elements as bits), with blocks the launch site's own.
func bySize(format string) func() []kernelUse {
	return func() []kernelUse {
		var out []kernelUse
		for _, dt := range dtypes {
			out = append(out, kernelUse{name: fmt.Sprintf(format, dt.size)})
		}
		return out
	}
}

func one(name string) func() []kernelUse {
	return func() []kernelUse { return []kernelUse{{name: name}} }
}

func gemmSmallUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(24, func(m, n int) {
		for _, batch := range []int{1, 3, 1000} {
			if team, mats, _, ok := gemmSmallShape(kernelQueue, m, n, 4, batch, sizeOf[T]()); ok {
				out = append(out, kernelUse{name: "gemm_small_" + dtypeName[T](), threads: team * mats})
			}
		}
	})
	return out
}

// triUses is the blocks of a "cta" triangular kernel, trsm's or potrs's.
func triUses[T Scalar](prefix string) func() []kernelUse {
	return func() []kernelUse {
		var out []kernelUse
		for n := 1; n <= 160; n++ {
			for vectors := 1; vectors <= 72; vectors++ {
				if s, ok := triCTAShape(kernelQueue, n, vectors, sizeOf[T]()); ok {
					out = append(out, kernelUse{name: prefix + dtypeName[T](), threads: s.team * s.matrices})
				}
			}
		}
		return out
	}
}

func geqrfCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(256, func(m, n int) {
		if c := (&geqrfCall[T]{a: shaped[T](m, n)}); geqrfCTACanRun(kernelQueue, c) {
			l := geqrfCTAShape(c)
			out = append(out, kernelUse{name: geqrfCTAKernel[T](l), threads: l.threads})
		}
	})
	return out
}

func orgqrCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(256, func(m, n int) {
		if c := (&orgqrCall[T]{k: min(m, n), a: shaped[T](m, n)}); n <= m && orgqrCTACanRun(kernelQueue, c) {
			out = append(out, kernelUse{name: "orgqr_cta_" + dtypeName[T](), threads: orgqrCTAShape(c).threads})
		}
	})
	return out
}

func ormqrCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(192, func(m, n int) {
		for _, side := range []Side{Left, Right} {
			c := &ormqrCall[T]{side: side, trans: NoTrans, k: min(m, n, 16), c: shaped[T](m, n)}
			c.a = shaped[T](c.nq(), c.k)
			if ormqrCTACanRun(kernelQueue, c) {
				out = append(out, kernelUse{name: "ormqr_cta_" + dtypeName[T](), threads: ormqrCTAShape(c).threads})
			}
		}
	})
	return out
}

func geqrfTinyUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(24, func(m, n int) {
		if geqrfTinyCanRun(kernelQueue, &geqrfCall[T]{a: shaped[T](m, n)}) {
			group, _, _ := geqrfTinyShape[T](m, n)
			out = append(out, kernelUse{name: geqrfTinyKernel[T](group), threads: 32 * geqrfTinyWarps})
		}
	})
	return out
}

func getrfTinyUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 16; n++ {
		if getrfTinyCanRun(kernelQueue, &getrfCall[T]{a: shaped[T](n, n)}) {
			out = append(out, kernelUse{name: getrfTinyKernel[T](n), threads: getrfTinyThreads[T](n), exact: true})
		}
	}
	return out
}

func getrfWarpUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(96, func(m, n int) {
		if getrfWarpCanRun(kernelQueue, &getrfCall[T]{a: shaped[T](m, n)}) {
			out = append(out, kernelUse{name: luRowGroupsKernel[T]("getrf_warp", max(m, n)), threads: 32 * getrfWarpMatrices})
		}
	})
	return out
}

func getrfWarpSmemUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(96, func(m, n int) {
		if getrfWarpSmemCanRun(kernelQueue, &getrfCall[T]{a: shaped[T](m, n)}) {
			_, _, _, per := getrfWarpSmemShape[T](m, n)
			out = append(out, kernelUse{name: "getrf_warp_smem_" + dtypeName[T](), threads: 32 * per})
		}
	})
	return out
}

func getrfRegsUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(96, func(m, n int) {
		if getrfRegsCanRun(kernelQueue, &getrfCall[T]{a: shaped[T](m, n)}) {
			out = append(out, kernelUse{name: luRowGroupsKernel[T]("getrf_regs", m), threads: luRegsThreads(n)})
		}
	})
	return out
}

func getrfCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	orders(288, func(m, n int) {
		if getrfCTACanRun(kernelQueue, &getrfCall[T]{a: shaped[T](m, n)}) {
			out = append(out, kernelUse{name: "getrf_cta_" + dtypeName[T](), threads: 32 * luWarps(n)})
		}
	})
	return out
}

// gesvRegsUses: where gesv_regs's factorization fits (getrf's routing, which gesvRegsCanRun
// asks too, narrows it further).
func gesvRegsUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 96; n++ {
		c := &gesvCall[T]{a: shaped[T](n, n), b: shaped[T](n, 1)}
		if n <= getrfRegsMax && luCTAFits(kernelQueue, n, gesvRegsShared(c)) {
			out = append(out, kernelUse{name: luRowGroupsKernel[T]("gesv_regs", n), threads: luRegsThreads(n)})
		}
	}
	return out
}

// gesvCTAUses: where gesv_cta's shared memory fits (getrf's routing decides whether it runs).
func gesvCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 288; n++ {
		if c := (&gesvCall[T]{a: shaped[T](n, n), b: shaped[T](n, 1)}); luCTAFits(kernelQueue, n, gesvCTAShared(c)) {
			out = append(out, kernelUse{name: luSolveKernel[T]("gesv_cta", n), threads: 32 * luWarps(n)})
		}
	}
	return out
}

func getrsCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 288; n++ {
		for cols := 1; cols <= 72; cols++ {
			if getrsCTACanRun(kernelQueue, &getrsCall[T]{a: shaped[T](n, n), b: shaped[T](n, cols)}) {
				out = append(out, kernelUse{name: luSolveKernel[T]("getrs_cta", n), threads: 32 * luSolveWarps(n, cols)})
			}
		}
	}
	return out
}

func getriCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 288; n++ {
		if getriCTACanRun(kernelQueue, &getriCall[T]{a: shaped[T](n, n)}) {
			out = append(out, kernelUse{name: luSolveKernel[T]("getri_cta", n), threads: 32 * luSolveWarps(n, n)})
		}
	}
	return out
}

func potrfTinyUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 96; n++ {
		for _, uplo := range []Uplo{Lower, Upper} {
			if potrfTinyCanRun(kernelQueue, &potrfCall[T]{uplo: uplo, a: shaped[T](n, n)}) {
				_, threads, _, _ := potrfTinyShape[T](n)
				out = append(out, kernelUse{name: potrfTinyKernel[T](n, uplo), threads: threads})
			}
		}
	}
	return out
}

func potrfWarpUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 96; n++ {
		if potrfWarpCanRun(kernelQueue, &potrfCall[T]{a: shaped[T](n, n)}) {
			kernel, _ := potrfWarpShape[T](n)
			out = append(out, kernelUse{name: kernel, threads: 32 * potrfWarpWarps})
		}
	}
	return out
}

func potrfCTAUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 400; n++ {
		for _, reg := range []bool{false, true} {
			if potrfCTACanRun[T](reg)(kernelQueue, &potrfCall[T]{a: shaped[T](n, n)}) {
				kernel, threads, _ := potrfCTAShape(n, reg)
				out = append(out, kernelUse{name: kernel + dtypeName[T](), threads: threads})
			}
		}
	}
	return out
}

func gramUses[T Scalar]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 192; n++ {
		if gramEdge[T](n) > 0 {
			out = append(out, kernelUse{name: gramKernel[T](n), threads: tileThreads})
		}
	}
	return out
}

// gesvdUses is the blocks of a one-sided Jacobi kernel over the plans' orders n and heights
// mw, with and without the right factor: gesvd_jacobi (global false) where its pairs fit a
// block and its arrays the shared memory, gesvd_blocked everywhere.
func gesvdUses[T Scalar](global bool) func() []kernelUse {
	prefix := "gesvd_jacobi_"
	if global {
		prefix = "gesvd_blocked_"
	}
	return func() []kernelUse {
		var out []kernelUse
		for n := 1; n <= 320; n++ {
			for _, mw := range []int{n, n + 1, 2 * n, 8 * n} {
				for _, right := range []bool{false, true} {
					p := jacobiPlan{global: global, n: n, mw: mw, mo: mw, right: right}
					if !global && !gesvdJacobiFits[T](kernelQueue, p) {
						continue
					}
					threads, _ := gesvdJacobiShape[T](p)
					out = append(out, kernelUse{name: prefix + dtypeName[T](), threads: threads})
				}
			}
		}
		return out
	}
}

func syevTinyUses[T Scalar, R Real]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 16; n++ {
		if syevTinyCanRun(kernelQueue, &syevCall[T, R]{a: shaped[T](n, n)}) {
			out = append(out, kernelUse{name: syevTinyKernel[T](n), threads: syevTinyThreads})
		}
	}
	return out
}

func syevJacobiUses[T Scalar, R Real]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 96; n++ {
		for _, jobz := range []Job{NoVectors, Vectors} {
			if c := (&syevCall[T, R]{jobz: jobz, a: shaped[T](n, n)}); syevJacobiCanRun(kernelQueue, c) {
				warps, _ := syevJacobiShape(kernelQueue, c)
				out = append(out, kernelUse{name: "syev_jacobi_" + dtypeName[T](), threads: 32 * warps})
			}
		}
	}
	return out
}

// syevCTAUses: the cta family's kernels, QL/QR and bisection, where their shared memory
// fits, with syevCTAThreads(n) threads.
func syevCTAUses[T Scalar, R Real]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 320; n++ {
		if syevCTACanRun(kernelQueue, &syevCall[T, R]{a: shaped[T](n, n)}) {
			for _, k := range []string{"syev_cta_", "syev_cta_bisect_"} {
				out = append(out, kernelUse{name: k + dtypeName[T](), threads: syevCTAThreads(n)})
			}
		}
	}
	return out
}

// syevBlockedUses: the blocked family's kernels, which run the cta family's block at any
// order.
func syevBlockedUses[T Scalar, R Real]() []kernelUse {
	var out []kernelUse
	for n := 1; n <= 600; n++ {
		if syevBlockedCanRun(kernelQueue, &syevCall[T, R]{a: shaped[T](n, n)}) {
			for _, k := range []string{"load_", "panel_", "solve_", "bisect_"} {
				out = append(out, kernelUse{name: "syev_blocked_" + k + dtypeName[T](), threads: syevCTAThreads(n)})
			}
		}
	}
	return out
}

var kernelLaunches = []kernelLaunch{
	{"getrf_blocked", "getrf_blocked_cuda.go", `"getrf_panel_"`, each(getrfPanelThreads, "getrf_panel_")},
	{"getrf_blocked", "getrf_blocked_cuda.go", `"lu_laswp_%d"`, bySize("lu_laswp_%d")},
	{"util", "backend_cuda.go", `"fill_ptrs"`, one("fill_ptrs")},
	{"util", "backend_cuda.go", `"spin"`, one("spin")},
	{"util", "backend_cuda.go", `"copy_mat_%d"`, bySize("copy_mat_%d")},
	{"util", "gels_cuda.go", `"zero_diag_"`, each(0, "zero_diag_")},
	{"util", "potrf_blocked_cuda.go", `"info_step"`, one("info_step")},
	{"util", "backend_cuda.go", `"scale_mat_"`, each(0, "scale_mat_")},
	{"util", "vendor_cusolver_eig.go", `"nonfinite_mark_"`, each(0, "nonfinite_mark_")},
	{"gemm_tiled", "gemm_cuda.go", `"gemm_tiled_"`, each(tileThreads, "gemm_tiled_")},
	{"gemm_small", "gemm_cuda.go", `"gemm_small_"`, typed(gemmSmallUses[float32], gemmSmallUses[float64], gemmSmallUses[complex64], gemmSmallUses[complex128])},
	{"gemv_direct", "gemv_cuda.go", `"gemv_direct_"`, each(gemvThreads, "gemv_direct_")},
	{"spmm_direct", "spmm_cuda.go", `"spmm_direct_"`, each(32*spmmWarps, "spmm_direct_")},
	{"symm_tiled", "symm_cuda.go", `"symm_tiled_"`, each(tileThreads, "symm_tiled_left_", "symm_tiled_right_")},
	{"trmm_triangular", "trmm_cuda.go", `"trmm_triangular_"`, each(tileThreads, "trmm_triangular_left_", "trmm_triangular_right_")},
	{"trsm_cta", "trsm_cuda.go", `"trsm_cta_"`, typed(triUses[float32]("trsm_cta_"), triUses[float64]("trsm_cta_"), triUses[complex64]("trsm_cta_"), triUses[complex128]("trsm_cta_"))},
	{"potrs_cta", "potrs_cuda.go", `"potrs_cta_"`, typed(triUses[float32]("potrs_cta_"), triUses[float64]("potrs_cta_"), triUses[complex64]("potrs_cta_"), triUses[complex128]("potrs_cta_"))},
	{"orgqr_cta", "orgqr_cuda.go", `"orgqr_cta_"`, typed(orgqrCTAUses[float32], orgqrCTAUses[float64], orgqrCTAUses[complex64], orgqrCTAUses[complex128])},
	{"ormqr_cta", "ormqr_cuda.go", `"ormqr_cta_"`, typed(ormqrCTAUses[float32], ormqrCTAUses[float64], ormqrCTAUses[complex64], ormqrCTAUses[complex128])},
	{"geqrf_cta", "geqrf_cuda.go", `geqrfCTAKernel[T](l)`, typed(geqrfCTAUses[float32], geqrfCTAUses[float64], geqrfCTAUses[complex64], geqrfCTAUses[complex128])},
	{"geqrf_tiny", "geqrf_cuda.go", `geqrfTinyKernel[T](group)`, typed(geqrfTinyUses[float32], geqrfTinyUses[float64], geqrfTinyUses[complex64], geqrfTinyUses[complex128])},
	{"getrf_tiny", "getrf_cuda.go", `getrfTinyKernel[T](a.rows)`, typed(getrfTinyUses[float32], getrfTinyUses[float64], getrfTinyUses[complex64], getrfTinyUses[complex128])},
	{"getrf_warp", "getrf_cuda.go", `luRowGroupsKernel[T]("getrf_warp"`, typed(getrfWarpUses[float32], getrfWarpUses[float64], getrfWarpUses[complex64], getrfWarpUses[complex128])},
	{"getrf_warp", "getrf_cuda.go", `"getrf_warp_smem_"`, typed(getrfWarpSmemUses[float32], getrfWarpSmemUses[float64], getrfWarpSmemUses[complex64], getrfWarpSmemUses[complex128])},
	{"getrf_regs", "getrf_cuda.go", `luRowGroupsKernel[T]("getrf_regs"`, typed(getrfRegsUses[float32], getrfRegsUses[float64], getrfRegsUses[complex64], getrfRegsUses[complex128])},
	{"getrf_cta", "getrf_cuda.go", `"getrf_cta_"`, typed(getrfCTAUses[float32], getrfCTAUses[float64], getrfCTAUses[complex64], getrfCTAUses[complex128])},
	{"gesv_regs", "gesv_cuda.go", `luRowGroupsKernel[T]("gesv_regs"`, typed(gesvRegsUses[float32], gesvRegsUses[float64], gesvRegsUses[complex64], gesvRegsUses[complex128])},
	{"gesv_cta", "gesv_cuda.go", `luSolveKernel[T]("gesv_cta"`, typed(gesvCTAUses[float32], gesvCTAUses[float64], gesvCTAUses[complex64], gesvCTAUses[complex128])},
	{"getrs_cta", "getrs_cuda.go", `luSolveKernel[T]("getrs_cta"`, typed(getrsCTAUses[float32], getrsCTAUses[float64], getrsCTAUses[complex64], getrsCTAUses[complex128])},
	{"getri_cta", "getri_cuda.go", `luSolveKernel[T]("getri_cta"`, typed(getriCTAUses[float32], getriCTAUses[float64], getriCTAUses[complex64], getriCTAUses[complex128])},
	{"potrf_tiny", "potrf_cuda.go", `potrfTinyKernel[T](a.rows, c.uplo)`, typed(potrfTinyUses[float32], potrfTinyUses[float64], potrfTinyUses[complex64], potrfTinyUses[complex128])},
	{"potrf_warp", "potrf_cuda.go", `potrfWarpShape[T](a.rows)`, typed(potrfWarpUses[float32], potrfWarpUses[float64], potrfWarpUses[complex64], potrfWarpUses[complex128])},
	{"potrf_cta", "potrf_cuda.go", `potrfCTAShape(a.rows, reg)`, typed(potrfCTAUses[float32], potrfCTAUses[float64], potrfCTAUses[complex64], potrfCTAUses[complex128])},
	{"syrk_gram", "syrk_cuda.go", `gramKernel[T](n)`, typed(gramUses[float32], gramUses[float64], gramUses[complex64], gramUses[complex128])},
	{"syrk_triangular", "syrk_cuda.go", `"syrk_triangular_"`, each(tileThreads, "syrk_triangular_")},
	{"gesvd_jacobi", "gesvd_cuda.go", `"gesvd_jacobi"`, typed(gesvdUses[float32](false), gesvdUses[float64](false), gesvdUses[complex64](false), gesvdUses[complex128](false))},
	{"gesvd_blocked", "gesvd_cuda.go", `"gesvd_blocked"`, typed(gesvdUses[float32](true), gesvdUses[float64](true), gesvdUses[complex64](true), gesvdUses[complex128](true))},
	{"syev_tiny", "syev_cuda.go", `syevTinyKernel[T](c.a.rows)`, typed(syevTinyUses[float32, float32], syevTinyUses[float64, float64], syevTinyUses[complex64, float32], syevTinyUses[complex128, float64])},
	{"syev_jacobi", "syev_cuda.go", `"syev_jacobi_"`, typed(syevJacobiUses[float32, float32], syevJacobiUses[float64, float64], syevJacobiUses[complex64, float32], syevJacobiUses[complex128, float64])},
	{"syev_cta", "syev_cuda.go", `"syev_cta_bisect_"`, typed(syevCTAUses[float32, float32], syevCTAUses[float64, float64], syevCTAUses[complex64, float32], syevCTAUses[complex128, float64])},
	{"syev_blocked", "syev_blocked_cuda.go", `"syev_blocked_bisect_"`, typed(syevBlockedUses[float32, float32], syevBlockedUses[float64, float64], syevBlockedUses[complex64, float32], syevBlockedUses[complex128, float64])},
}

// unlaunchedKernels are entry points the sources still build although no launch site names
// them: nonfinite_new served a vendor QR path that no longer exists; it goes with the next
// rebuild of util.fatbin by nvcc 13.0 (an 11.8 rebuild would drop sm_120).
var unlaunchedKernels = map[string]bool{
	"nonfinite_new_f32": true, "nonfinite_new_f64": true, "nonfinite_new_c64": true, "nonfinite_new_c128": true,
}

// TestKernelNamesAgree: every entry point a launch site can name exists in the source of the
// fatbin it loads, the launch site still spells its names as listed, and every entry point
// of every fatbin has a launch site that names it (no kernel is built that Go never runs).
func TestKernelNamesAgree(t *testing.T) {
	srcs := kernelSources(t)
	defined := map[string]*kernelSource{}
	used := map[string]map[string]bool{}
	for _, l := range kernelLaunches {
		src, ok := srcs[l.mod]
		if !ok {
			t.Errorf("%s launches fatbin %s, which kernels/MANIFEST does not list", l.goFile, l.mod)
			continue
		}
		if defined[l.mod] == nil {
			defined[l.mod], used[l.mod] = readKernelSource(t, src), map[string]bool{}
		}
		if goSrc, err := os.ReadFile(l.goFile); err != nil || !strings.Contains(string(goSrc), l.spelled) {
			t.Errorf("%s no longer spells kernel names as %s (%v): update kernelLaunches", l.goFile, l.spelled, err)
		}
		uses := l.uses()
		if len(uses) == 0 {
			t.Errorf("%s: no entry point of %s.fatbin listed for %s", l.goFile, l.mod, l.spelled)
		}
		for _, u := range uses {
			if !used[l.mod][u.name] && !defined[l.mod].entries[u.name] {
				t.Errorf("%s can launch %s of %s.fatbin, which kernels/%s does not define", l.goFile, u.name, l.mod, src)
			}
			used[l.mod][u.name] = true
		}
	}
	for mod, s := range defined {
		var unused []string
		for n := range s.entries {
			if !used[mod][n] && !unlaunchedKernels[n] {
				unused = append(unused, n)
			}
		}
		sort.Strings(unused)
		if len(unused) > 0 {
			t.Errorf("%s.fatbin defines entry points no launch site names: %v", mod, unused)
		}
	}
	for mod := range srcs {
		if defined[mod] == nil {
			t.Errorf("kernels/MANIFEST lists %s.fatbin, which no launch site in kernelLaunches loads", mod)
		}
	}
}

// TestKernelBlocksAgree: no launch gives an entry point more threads than its
// __launch_bounds__ declares (the launch would fail on the GPU; the CPU emulator does not
// check), each kernel that declares one has its launch's block listed, and a kernel whose
// arithmetic assumes its bound's block (kernelUse.exact) gets exactly that.
func TestKernelBlocksAgree(t *testing.T) {
	srcs := kernelSources(t)
	read := map[string]*kernelSource{}
	for _, l := range kernelLaunches {
		if read[l.mod] == nil {
			read[l.mod] = readKernelSource(t, srcs[l.mod])
		}
		widest := map[string]kernelUse{}
		for _, u := range l.uses() {
			w, seen := widest[u.name]
			if seen && w.exact && u.threads != w.threads {
				t.Errorf("%s launches %s with blocks of %d and %d threads", l.goFile, u.name, w.threads, u.threads)
			}
			if !seen || u.threads > w.threads {
				widest[u.name] = u
			}
		}
		for name, u := range widest {
			checkBlock(t, l, read[l.mod], u, name)
		}
	}
}

// checkBlock checks the widest block u that launch l gives entry point name against the
// __launch_bounds__ of src.
func checkBlock(t *testing.T, l kernelLaunch, src *kernelSource, u kernelUse, name string) {
	bound, declared, ok := src.maxThreads(name)
	switch {
	case !declared && u.exact:
		t.Errorf("%s: %s is listed as taking its __launch_bounds__' block, but declares none", l.goFile, name)
	case !declared:
	case !ok:
		t.Errorf("kernels/%s.cu: the __launch_bounds__ of %s (%s) is no integer this test can evaluate", l.mod, name,
			strings.Join(src.bounds[name], " "))
	case u.threads == 0:
		t.Errorf("%s: the block of %s is not listed in kernelLaunches, and it declares __launch_bounds__(%d)", l.goFile, name, bound)
	case int64(u.threads) > bound:
		t.Errorf("%s launches %s with %d threads, past its __launch_bounds__(%d) in the source of %s.fatbin", l.goFile, name, u.threads, bound, l.mod)
	case u.exact && int64(u.threads) != bound:
		t.Errorf("%s launches %s with %d threads, but the kernel assumes its __launch_bounds__(%d)", l.goFile, name, u.threads, bound)
	}
}

// TestQRRegRowsAgree: qrCTARegRows are the register layouts that with_rpl of
// kernels/common/householder.cuh dispatches, in its order.
func TestQRRegRowsAgree(t *testing.T) {
	raw, err := os.ReadFile("kernels/common/householder.cuh")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)bool with_rpl\(int rpl, F f\) \{(.*?)\n\}`).FindSubmatch(raw)
	if body == nil {
		t.Fatal("kernels/common/householder.cuh: no with_rpl(int rpl, F f) found")
	}
	var cases []int
	for _, m := range regexp.MustCompile(`case (\d+):`).FindAllSubmatch(body[1], -1) {
		v, _ := strconv.Atoi(string(m[1]))
		cases = append(cases, v)
	}
	if !slices.Equal(cases, qrCTARegRows[:]) {
		t.Errorf("qrCTARegRows = %v, but with_rpl of kernels/common/householder.cuh dispatches %v", qrCTARegRows, cases)
	}
}
