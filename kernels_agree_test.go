//go:build cuda

package batchlas

import (
	"fmt"
	"os"
	"sort"
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
// points and the literal by which it spells them, and every name the Go side can produce
// there, over the dtypes and the variants its shape functions and bounds allow.
type kernelLaunch struct {
	mod, goFile, spelled string
	names                func() []string
}

// perDtype is the names f gives for each scalar type.
func perDtype(f func(dt string, size int, cplx bool) []string) func() []string {
	return func() []string {
		var out []string
		out = append(out, f("f32", 4, false)...)
		out = append(out, f("f64", 8, false)...)
		out = append(out, f("c64", 8, true)...)
		return append(out, f("c128", 16, true)...)
	}
}

// typed is perDtype for a generic name function.
func typed(f32, f64, c64, c128 func() []string) func() []string {
	return func() []string { return append(append(append(f32(), f64()...), c64()...), c128()...) }
}

func each(prefixes ...string) func() []string {
	return perDtype(func(dt string, _ int, _ bool) []string {
		var out []string
		for _, p := range prefixes {
			out = append(out, p+dt)
		}
		return out
	})
}

// sizes is the names f gives for n = 1..top(dt).
func sizes(top func(dt string, size int) int, f func(dt string, n int) string) func() []string {
	return perDtype(func(dt string, size int, _ bool) []string {
		seen := map[string]bool{}
		var out []string
		for n := 1; n <= top(dt, size); n++ {
			if s := f(dt, n); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out
	})
}

func fixed(n int) func(string, int) int { return func(string, int) int { return n } }

func potrfTinyNames[T Scalar]() []string {
	var out []string
	for n := 1; n <= potrfTinyMax[T](); n++ {
		k, _, _, _ := potrfTinyShape[T](n)
		if k == "t4" {
			out = append(out, "potrf_tiny_t4_"+dtypeName[T]())
		} else {
			out = append(out, "potrf_tiny_"+k+"l_"+dtypeName[T](), "potrf_tiny_"+k+"u_"+dtypeName[T]())
		}
	}
	return out
}

func potrfWarpNames[T Scalar]() []string {
	var out []string
	for n := 1; n <= potrfWarpMax; n++ {
		k, _ := potrfWarpShape[T](n)
		out = append(out, "potrf_warp_"+k+"_"+dtypeName[T]())
	}
	return out
}

func geqrfCTANames[T Scalar]() []string {
	var out []string
	for r := 1; r <= 256; r++ {
		for c := 1; c <= r && c <= 64; c++ {
			out = append(out, geqrfCTAKernel[T](qrCTALayout(r, c, sizeOf[T](), isComplex[T]())))
		}
	}
	return out
}

func geqrfTinyNames[T Scalar]() []string {
	var out []string
	for n := 1; n <= geqrfTinyMax[T](); n++ {
		g, _, _ := geqrfTinyShape[T](n, n)
		out = append(out, fmt.Sprintf("geqrf_tiny_n%d_%s", g, dtypeName[T]()))
	}
	return out
}

func potrfCTANames[T Scalar]() []string {
	k, _, _ := potrfCTAShape(1, false)
	out := []string{k + dtypeName[T]()}
	if dtypeName[T]() != "c128" { // potrfCTACanRun keeps complex128 off the register kernel
		k, _, _ = potrfCTAShape(1, true)
		out = append(out, k+dtypeName[T]())
	}
	return out
}

func gramNames[T Scalar]() []string {
	var out []string
	for n := 1; n <= 128; n++ {
		if e := gramEdge[T](n); e > 0 {
			out = append(out, fmt.Sprintf("syrk_gram%d_%s", e, dtypeName[T]()))
		}
	}
	return out
}

func syevTinyNames[T Scalar]() []string {
	var out []string
	for n := 1; n <= syevTinyMax[T](); n++ {
		out = append(out, fmt.Sprintf("syev_tiny%d_%s", n, dtypeName[T]()))
	}
	return out
}

var kernelLaunches = []kernelLaunch{
	{"getrf_blocked", "getrf_blocked_cuda.go", `"getrf_panel_"`, each("getrf_panel_")},
	{"getrf_blocked", "getrf_blocked_cuda.go", `"lu_laswp_%d"`, perDtype(func(_ string, size int, _ bool) []string {
		return []string{fmt.Sprintf("lu_laswp_%d", size)}
	})},
	{"util", "backend_cuda.go", `"fill_ptrs"`, func() []string { return []string{"fill_ptrs"} }},
	{"util", "backend_cuda.go", `"spin"`, func() []string { return []string{"spin"} }},
	{"util", "backend_cuda.go", `"copy_mat_%d"`, perDtype(func(_ string, size int, _ bool) []string {
		return []string{fmt.Sprintf("copy_mat_%d", size)}
	})},
	{"util", "gels_cuda.go", `"zero_diag_"`, each("zero_diag_")},
	{"util", "potrf_blocked_cuda.go", `"info_step"`, func() []string { return []string{"info_step"} }},
	{"util", "backend_cuda.go", `"scale_mat_"`, each("scale_mat_")},
	{"util", "vendor_cusolver_eig.go", `"nonfinite_mark_"`, each("nonfinite_mark_")},
	{"gemm_tiled", "gemm_cuda.go", `"gemm_tiled_"`, each("gemm_tiled_")},
	{"gemm_small", "gemm_cuda.go", `"gemm_small_"`, each("gemm_small_")},
	{"gemv_direct", "gemv_cuda.go", `"gemv_direct_"`, each("gemv_direct_")},
	{"spmm_direct", "spmm_cuda.go", `"spmm_direct_"`, each("spmm_direct_")},
	{"symm_tiled", "symm_cuda.go", `"symm_tiled_"`, each("symm_tiled_left_", "symm_tiled_right_")},
	{"trmm_triangular", "trmm_cuda.go", `"trmm_triangular_"`, each("trmm_triangular_left_", "trmm_triangular_right_")},
	{"trsm_cta", "trsm_cuda.go", `"trsm_cta_"`, each("trsm_cta_")},
	{"potrs_cta", "potrs_cuda.go", `"potrs_cta_"`, each("potrs_cta_")},
	{"orgqr_cta", "orgqr_cuda.go", `"orgqr_cta_"`, each("orgqr_cta_")},
	{"ormqr_cta", "ormqr_cuda.go", `"ormqr_cta_"`, each("ormqr_cta_")},
	{"geqrf_cta", "geqrf_cuda.go", `"geqrf_cta_"`, typed(geqrfCTANames[float32], geqrfCTANames[float64], geqrfCTANames[complex64], geqrfCTANames[complex128])},
	{"geqrf_tiny", "geqrf_cuda.go", `"geqrf_tiny_n%d_%s"`, typed(geqrfTinyNames[float32], geqrfTinyNames[float64], geqrfTinyNames[complex64], geqrfTinyNames[complex128])},
	{"getrf_tiny", "getrf_cuda.go", `"getrf_tiny%d_%s"`, sizes(func(_ string, size int) int {
		n := 0
		for (n+1)*(n+1)*size <= getrfTinyBytes {
			n++
		}
		return n
	}, func(dt string, n int) string { return fmt.Sprintf("getrf_tiny%d_%s", n, dt) })},
	{"getrf_warp", "getrf_cuda.go", `"getrf_warp%d_%s"`, sizes(func(dt string, _ int) int {
		return map[string]int{"f32": getrfWarpMax[float32](), "f64": getrfWarpMax[float64](), "c64": getrfWarpMax[complex64](), "c128": getrfWarpMax[complex128]()}[dt]
	}, func(dt string, n int) string { return fmt.Sprintf("getrf_warp%d_%s", (n+31)/32, dt) })},
	{"getrf_warp", "getrf_cuda.go", `"getrf_warp_smem_"`, each("getrf_warp_smem_")},
	{"getrf_regs", "getrf_cuda.go", `"getrf_regs%d_%s"`, sizes(fixed(getrfRegsMax), func(dt string, n int) string {
		return fmt.Sprintf("getrf_regs%d_%s", (n+31)/32, dt)
	})},
	{"getrf_cta", "getrf_cuda.go", `"getrf_cta_"`, each("getrf_cta_")},
	{"gesv_regs", "gesv_cuda.go", `"gesv_regs%d_%s"`, sizes(fixed(getrfRegsMax), func(dt string, n int) string {
		return fmt.Sprintf("gesv_regs%d_%s", (n+31)/32, dt)
	})},
	{"gesv_cta", "gesv_cuda.go", `"gesv_cta%d_%s"`, sizes(fixed(luRowsMax), func(dt string, n int) string {
		return fmt.Sprintf("gesv_cta%d_%s", luSolveRows(n), dt)
	})},
	{"getrs_cta", "getrs_cuda.go", `"getrs_cta%d_%s"`, sizes(fixed(luRowsMax), func(dt string, n int) string {
		return fmt.Sprintf("getrs_cta%d_%s", luSolveRows(n), dt)
	})},
	{"getri_cta", "getri_cuda.go", `"getri_cta%d_%s"`, sizes(fixed(luRowsMax), func(dt string, n int) string {
		return fmt.Sprintf("getri_cta%d_%s", luSolveRows(n), dt)
	})},
	{"potrf_tiny", "potrf_cuda.go", `"potrf_tiny_"`, typed(potrfTinyNames[float32], potrfTinyNames[float64], potrfTinyNames[complex64], potrfTinyNames[complex128])},
	{"potrf_warp", "potrf_cuda.go", `"potrf_warp_"`, typed(potrfWarpNames[float32], potrfWarpNames[float64], potrfWarpNames[complex64], potrfWarpNames[complex128])},
	{"potrf_cta", "potrf_cuda.go", `"potrf_cta_"`, typed(potrfCTANames[float32], potrfCTANames[float64], potrfCTANames[complex64], potrfCTANames[complex128])},
	{"syrk_gram", "syrk_cuda.go", `"syrk_gram%d_%s"`, typed(gramNames[float32], gramNames[float64], gramNames[complex64], gramNames[complex128])},
	{"syrk_triangular", "syrk_cuda.go", `"syrk_triangular_"`, each("syrk_triangular_")},
	{"gesvd_jacobi", "gesvd_cuda.go", `"gesvd_jacobi"`, each("gesvd_jacobi_")},
	{"gesvd_blocked", "gesvd_cuda.go", `"gesvd_blocked"`, each("gesvd_blocked_")},
	{"syev_tiny", "syev_cuda.go", `"syev_tiny%d_%s"`, typed(syevTinyNames[float32], syevTinyNames[float64], syevTinyNames[complex64], syevTinyNames[complex128])},
	{"syev_jacobi", "syev_cuda.go", `"syev_jacobi_"`, each("syev_jacobi_")},
	{"syev_cta", "syev_cuda.go", `"syev_cta_bisect_"`, each("syev_cta_", "syev_cta_bisect_")},
	{"syev_blocked", "syev_blocked_cuda.go", `"syev_blocked_bisect_"`, each("syev_blocked_load_", "syev_blocked_panel_", "syev_blocked_solve_", "syev_blocked_bisect_")},
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
		for _, n := range l.names() {
			used[l.mod][n] = true
			if !defined[l.mod].entries[n] {
				t.Errorf("%s can launch %s of %s.fatbin, which kernels/%s does not define", l.goFile, n, l.mod, src)
			}
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
