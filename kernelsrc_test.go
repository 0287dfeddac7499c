package batchlas

import (
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// kernelSource is what a kernels/<op>/<name>.cu source defines once its local #includes and
// its macros are expanded: the values of its object-like macros and enumerators, and the
// names of its extern "C" __global__ entry points. It reads the sources as a small C
// preprocessor would, without conditionals (every #ifdef branch counts, a later #define of
// a name wins), which is all the kernels' instantiation macros need.
type kernelSource struct {
	macros  map[string]cMacro
	enums   map[string]string // enumerator -> its value's expression
	entries map[string]bool
	text    []string // the tokens outside directives, in order, includes first
	seen    map[string]bool
}

// cMacro is one #define: params is nil for an object-like macro.
type cMacro struct {
	params []string
	body   []string
}

var (
	cComment  = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cToken    = regexp.MustCompile(`[A-Za-z_]\w*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|##|\S`)
	cDefine   = regexp.MustCompile(`^#\s*define\s+(\w+)(\([^)]*\))?(.*)$`)
	cUndef    = regexp.MustCompile(`^#\s*undef\s+(\w+)`)
	cInclude  = regexp.MustCompile(`^#\s*include\s+"([^"]+)"`)
	cEnum     = regexp.MustCompile(`enum\s*\w*\s*\{([^}]*)\}`)
	cEnumItem = regexp.MustCompile(`^\s*(\w+)\s*(?:=\s*(.+?))?\s*$`)
)

// readKernelSource parses kernels/<path> (and what it includes from the repository).
func readKernelSource(t testing.TB, path string) *kernelSource {
	t.Helper()
	s := &kernelSource{macros: map[string]cMacro{}, enums: map[string]string{}, entries: map[string]bool{}, seen: map[string]bool{}}
	if err := s.read(filepath.Join("kernels", path)); err != nil {
		t.Fatal(err)
	}
	s.findEntries(s.expand(s.text, nil))
	return s
}

func (s *kernelSource) read(path string) error {
	if s.seen[path] {
		return nil
	}
	s.seen[path] = true
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	src := strings.ReplaceAll(string(raw), "\\\n", " ")
	src = cComment.ReplaceAllString(src, " ")
	for _, line := range strings.Split(src, "\n") {
		l := strings.TrimSpace(line)
		if !strings.HasPrefix(l, "#") {
			s.text = append(s.text, cToken.FindAllString(l, -1)...)
			continue
		}
		if m := cInclude.FindStringSubmatch(l); m != nil {
			if err := s.read(filepath.Join(filepath.Dir(path), m[1])); err != nil {
				return err
			}
		} else if m := cDefine.FindStringSubmatch(l); m != nil {
			mac := cMacro{body: cToken.FindAllString(m[3], -1)}
			if m[2] != "" {
				mac.params = []string{}
				for _, p := range strings.Split(strings.Trim(m[2], "()"), ",") {
					if p = strings.TrimSpace(p); p != "" {
						mac.params = append(mac.params, p)
					}
				}
			}
			s.macros[m[1]] = mac
		} else if m := cUndef.FindStringSubmatch(l); m != nil {
			delete(s.macros, m[1])
		}
	}
	for _, e := range cEnum.FindAllStringSubmatch(src, -1) {
		next := "0"
		for _, item := range strings.Split(e[1], ",") {
			m := cEnumItem.FindStringSubmatch(item)
			if m == nil {
				continue
			}
			if m[2] != "" {
				next = m[2]
			}
			s.enums[m[1]] = next
			next = "(" + next + ") + 1"
		}
	}
	return nil
}

// expand replaces the macros in toks, function-like ones with their arguments substituted
// (an argument next to ## is pasted unexpanded), then rescans; off holds the macros being
// expanded, which are not expanded again.
func (s *kernelSource) expand(toks []string, off map[string]bool) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		m, ok := s.macros[toks[i]]
		if !ok || off[toks[i]] || (m.params != nil && (i+1 == len(toks) || toks[i+1] != "(")) {
			out = append(out, toks[i])
			continue
		}
		inner := map[string]bool{toks[i]: true}
		for k := range off {
			inner[k] = true
		}
		body := m.body
		if m.params != nil {
			var args [][]string
			args, i = cArgs(toks, i+1)
			body = s.substitute(m, args, inner)
		}
		out = append(out, s.expand(body, inner)...)
	}
	return out
}

// cArgs splits the parenthesized arguments starting at toks[open] == "(", returning them and
// the index of the closing parenthesis.
func cArgs(toks []string, open int) ([][]string, int) {
	args, cur, depth := [][]string{}, []string{}, 0
	for i := open + 1; i < len(toks); i++ {
		switch t := toks[i]; {
		case t == "(":
			depth++
		case t == ")" && depth == 0:
			return append(args, cur), i
		case t == ")":
			depth--
		case t == "," && depth == 0:
			args, cur = append(args, cur), []string{}
			continue
		}
		cur = append(cur, toks[i])
	}
	return append(args, cur), len(toks) - 1
}

func (s *kernelSource) substitute(m cMacro, args [][]string, off map[string]bool) []string {
	var out []string
	for i, t := range m.body {
		k := indexOf(m.params, t)
		switch {
		case k < 0 || k >= len(args):
			out = append(out, t)
		case (i > 0 && m.body[i-1] == "##") || (i+1 < len(m.body) && m.body[i+1] == "##"):
			out = append(out, args[k]...)
		default:
			out = append(out, s.expand(args[k], off)...)
		}
	}
	var pasted []string
	for i := 0; i < len(out); i++ {
		if out[i] == "##" && len(pasted) > 0 && i+1 < len(out) {
			pasted[len(pasted)-1] += out[i+1]
			i++
			continue
		}
		pasted = append(pasted, out[i])
	}
	return pasted
}

func indexOf(list []string, x string) int {
	for i, v := range list {
		if v == x {
			return i
		}
	}
	return -1
}

// findEntries records NAME of every extern "C" __global__ void [__launch_bounds__(...)] NAME.
func (s *kernelSource) findEntries(toks []string) {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] != "extern" || toks[i+1] != `"C"` {
			continue
		}
		j := i + 2
		for j < len(toks) && (toks[j] == "__global__" || toks[j] == "void") {
			j++
		}
		if j < len(toks) && toks[j] == "__launch_bounds__" {
			_, j = cArgs(toks, j+1)
			j++
		}
		if j < len(toks) {
			s.entries[toks[j]] = true
		}
	}
}

// value is the integer value of object-like macro or enumerator name, with ok false when
// the source defines no such integer.
func (s *kernelSource) value(name string) (v int64, ok bool) {
	expr := s.enums[name]
	if m, isMacro := s.macros[name]; isMacro && m.params == nil {
		expr = strings.Join(s.expand(m.body, nil), " ")
	} else if expr != "" {
		expr = strings.Join(s.expand(cToken.FindAllString(expr, -1), nil), " ")
	}
	if expr == "" {
		return 0, false
	}
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, expr)
	if err != nil || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// kernelSources maps each fatbin named in kernels/MANIFEST to its source under kernels/.
func kernelSources(t testing.TB) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("kernels/MANIFEST")
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			t.Fatalf("kernels/MANIFEST: line %q has no fatbin and source", line)
		}
		srcs[strings.TrimSuffix(f[1], ".fatbin")] = f[2]
	}
	return srcs
}

// TestKernelSourcesParse: every source of the MANIFEST defines entry points, and the
// expansion rebuilds the names the instantiation macros paste (a planted reading of the
// sources, checked against names written out in them).
func TestKernelSourcesParse(t *testing.T) {
	for mod, src := range kernelSources(t) {
		if len(readKernelSource(t, src).entries) == 0 {
			t.Errorf("%s (%s): no extern \"C\" __global__ entry point found", mod, src)
		}
	}
	want := map[string][]string{
		"geqrf/geqrf_tiny.cu":   {"geqrf_tiny_n8_f32", "geqrf_tiny_n16_c64", "geqrf_tiny_n8_c128"},
		"getrf/getrf_tiny.cu":   {"getrf_tiny1_f32", "getrf_tiny4_c128", "getrf_tiny8_f32"},
		"potrf/potrf_tiny.cu":   {"potrf_tiny_w32l_f32", "potrf_tiny_p64u_f32", "potrf_tiny_t4_c128"},
		"syrk/syrk_gram.cu":     {"syrk_gram32_f32", "syrk_gram128_f64"},
		"util/util.cu":          {"fill_ptrs", "spin", "copy_mat_16", "zero_diag_c128"},
		"gesv/gesv_cta.cu":      {"gesv_cta1_f32", "gesv_cta8_c128"},
		"potrf/potrf_warp.cu":   {"potrf_warp_r2_c128"},
		"gesvd/gesvd_jacobi.cu": {"gesvd_jacobi_c64"},
	}
	for src, names := range want {
		s := readKernelSource(t, src)
		for _, n := range names {
			if !s.entries[n] {
				t.Errorf("%s: entry %s not found among %d", src, n, len(s.entries))
			}
		}
		for n := range s.entries {
			if strings.Contains(n, "##") || strings.ContainsAny(n, "()") {
				t.Errorf("%s: unexpanded entry name %q", src, n)
			}
		}
	}
	lu := readKernelSource(t, "getrf/getrf_tiny.cu")
	if v, ok := lu.value("LU_ROWS_MAX"); !ok || v != 32*8 {
		t.Errorf("LU_ROWS_MAX of lu.cuh read as %d, %v; want 256 (32 * LU_CMAX)", v, ok)
	}
	if v, ok := readKernelSource(t, "trmm/trmm_triangular.cu").value("TM_UNIT"); !ok || v != 8 {
		t.Errorf("enumerator TM_UNIT read as %d, %v; want 8", v, ok)
	}
}
