package batchlas

import (
	"fmt"
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
// its macros are expanded: the values of its object-like macros and enumerators, the names
// of its extern "C" __global__ entry points and their __launch_bounds__, and its constexpr
// int functions of int parameters whose body is one return. It reads the sources as a small
// C preprocessor would, without conditionals (every #ifdef branch counts, a later #define of
// a name wins), which is all the kernels' instantiation macros need.
type kernelSource struct {
	macros  map[string]cMacro
	funcs   map[string]cMacro // constexpr functions, read as macros whose arguments are values
	enums   map[string]string // enumerator -> its value's expression
	entries map[string]bool
	bounds  map[string][]string // entry point -> the first argument of its __launch_bounds__
	text    []string            // the tokens outside directives, in order, includes first
	seen    map[string]bool
}

// cMacro is one #define: params is nil for an object-like macro.
type cMacro struct {
	params []string
	body   []string
}

var (
	cComment  = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cToken    = regexp.MustCompile(`[A-Za-z_]\w*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|##|<<|>>|<=|>=|==|!=|&&|\|\||\S`)
	cDefine   = regexp.MustCompile(`^#\s*define\s+(\w+)(\([^)]*\))?(.*)$`)
	cUndef    = regexp.MustCompile(`^#\s*undef\s+(\w+)`)
	cInclude  = regexp.MustCompile(`^#\s*include\s+"([^"]+)"`)
	cEnum     = regexp.MustCompile(`enum\s*\w*\s*\{([^}]*)\}`)
	cEnumItem = regexp.MustCompile(`^\s*(\w+)\s*(?:=\s*(.+?))?\s*$`)
	cFunc     = regexp.MustCompile(`constexpr\s+int\s+(\w+)\s*\(((?:\s*int\s+\w+\s*,?)*)\)\s*\{\s*return\s+([^;]+);\s*\}`)
)

// readKernelSource parses kernels/<path> (and what it includes from the repository).
func readKernelSource(t testing.TB, path string) *kernelSource {
	t.Helper()
	s := &kernelSource{macros: map[string]cMacro{}, funcs: map[string]cMacro{}, enums: map[string]string{},
		entries: map[string]bool{}, bounds: map[string][]string{}, seen: map[string]bool{}}
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
	for _, f := range cFunc.FindAllStringSubmatch(src, -1) {
		fn := cMacro{params: []string{}, body: cToken.FindAllString(f[3], -1)}
		for _, p := range strings.Split(f[2], ",") {
			if w := strings.Fields(p); len(w) == 2 {
				fn.params = append(fn.params, w[1])
			}
		}
		s.funcs[f[1]] = fn
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

// findEntries records NAME of every extern "C" __global__ void [__launch_bounds__(...)] NAME,
// and the bound's most threads.
func (s *kernelSource) findEntries(toks []string) {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] != "extern" || toks[i+1] != `"C"` {
			continue
		}
		j := i + 2
		for j < len(toks) && (toks[j] == "__global__" || toks[j] == "void") {
			j++
		}
		var bound []string
		if j < len(toks) && toks[j] == "__launch_bounds__" {
			var args [][]string
			args, j = cArgs(toks, j+1)
			bound = args[0]
			j++
		}
		if j < len(toks) {
			s.entries[toks[j]] = true
			if bound != nil {
				s.bounds[toks[j]] = bound
			}
		}
	}
}

// maxThreads is the most threads a block of entry point name may have: ok false when its
// __launch_bounds__ is absent, declared says whether one is there at all.
func (s *kernelSource) maxThreads(name string) (v int64, declared, ok bool) {
	bound, declared := s.bounds[name]
	if !declared {
		return 0, false, false
	}
	v, ok = s.eval(bound)
	return v, true, ok
}

// value is the integer value of object-like macro or enumerator name, with ok false when
// the source defines no such integer.
func (s *kernelSource) value(name string) (v int64, ok bool) {
	if m, isMacro := s.macros[name]; isMacro && m.params == nil {
		return s.eval(m.body)
	}
	if expr, isEnum := s.enums[name]; isEnum {
		return s.eval(cToken.FindAllString(expr, -1))
	}
	return 0, false
}

// cSizes are the bytes of the element types the kernels are instantiated for.
var cSizes = map[string]string{"float": "4", "double": "8", "cfloat": "8", "cdouble": "16",
	"unsigned": "4", "float2": "8", "double2": "16"}

// eval is the integer value of the C constant expression toks: its macros and constexpr
// functions expanded, sizeof of an element type, int casts and ?: understood.
func (s *kernelSource) eval(toks []string) (int64, bool) {
	toks = s.expand(toks, nil)
	for depth := 0; depth < 8; depth++ {
		var called bool
		if toks, called = s.call(toks); !called {
			break
		}
	}
	var out []string
	for i := 0; i < len(toks); i++ {
		switch {
		case i+3 < len(toks) && toks[i] == "sizeof" && toks[i+1] == "(" && cSizes[toks[i+2]] != "" && toks[i+3] == ")":
			out, i = append(out, cSizes[toks[i+2]]), i+3
		case i+2 < len(toks) && toks[i] == "(" && toks[i+1] == "int" && toks[i+2] == ")":
			i += 2
		default:
			out = append(out, toks[i])
		}
	}
	v := cConditional(out)
	if v == nil || v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// call replaces each call of a constexpr function in toks by its body, each argument in
// parentheses (a value, not a macro argument's tokens), and reports whether it replaced one.
func (s *kernelSource) call(toks []string) ([]string, bool) {
	var out []string
	called := false
	for i := 0; i < len(toks); i++ {
		f, ok := s.funcs[toks[i]]
		if !ok || i+1 == len(toks) || toks[i+1] != "(" {
			out = append(out, toks[i])
			continue
		}
		args, end := cArgs(toks, i+1)
		out = append(out, "(")
		for _, t := range f.body {
			if k := indexOf(f.params, t); k >= 0 && k < len(args) {
				out = append(append(append(out, "("), args[k]...), ")")
			} else {
				out = append(out, t)
			}
		}
		out, i, called = append(out, ")"), end, true
	}
	return out, called
}

// cConditional evaluates toks, C's c ? a : b included (Go has no such operator), as a Go
// constant expression; nil when it is none.
func cConditional(toks []string) constant.Value {
	for len(toks) > 1 && toks[0] == "(" && cClose(toks, 0) == len(toks)-1 {
		toks = toks[1 : len(toks)-1]
	}
	q, colon, depth, nested := -1, -1, 0, 0
	for i, t := range toks {
		switch {
		case t == "(":
			depth++
		case t == ")":
			depth--
		case depth > 0:
		case t == "?" && q < 0:
			q = i
		case t == "?":
			nested++
		case t == ":" && q >= 0 && nested > 0:
			nested--
		case t == ":" && q >= 0 && colon < 0:
			colon = i
		}
	}
	if q < 0 {
		tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, strings.Join(toks, " "))
		if err != nil {
			return nil
		}
		return tv.Value
	}
	if colon < 0 {
		return nil
	}
	c := cConditional(toks[:q])
	if c != nil && c.Kind() == constant.Int { // C's truth of an integer
		c = constant.MakeBool(constant.Sign(c) != 0)
	}
	if c == nil || c.Kind() != constant.Bool {
		return nil
	}
	if constant.BoolVal(c) {
		return cConditional(toks[q+1 : colon])
	}
	return cConditional(toks[colon+1:])
}

// cClose is the index of the parenthesis that closes toks[open].
func cClose(toks []string, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
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
	for _, c := range []struct {
		src, entry string
		want       int64 // 0: no __launch_bounds__
	}{
		{"getrf/getrf_tiny.cu", "getrf_tiny8_f32", 128}, // tiny_threads(8, sizeof(float)), a constexpr ?:
		{"potrf/potrf_tiny.cu", "potrf_tiny_w64l_f64", 64},
		{"potrf/potrf_tiny.cu", "potrf_tiny_t4_c128", 64}, // 32 * TINY_THREAD_WARPS
		{"geqrf/geqrf_cta.cu", "geqrf_cta_r32_f32", 128},
		{"syev/syev_jacobi.cu", "syev_jacobi_f32", 0},
	} {
		v, declared, ok := readKernelSource(t, c.src).maxThreads(c.entry)
		if declared != (c.want > 0) || declared && (!ok || v != c.want) {
			t.Errorf("%s: __launch_bounds__ of %s read as %d (declared %v, %v); want %d", c.src, c.entry, v, declared, ok, c.want)
		}
	}
	for expr, want := range map[string]int64{"1 < 2 ? 3 : 4": 3, "1 > 2 ? 3 : 2 > 1 ? 5 : 6": 5, "(0 ? 7 : 8)": 8,
		"(2 >= 2) ? 1 ? 9 : 10 : 11": 9, "3 * (1 << 2)": 12} {
		v := cConditional(cToken.FindAllString(expr, -1))
		if v == nil || v.Kind() != constant.Int || constant.ToInt(v).String() != fmt.Sprint(want) {
			t.Errorf("%s evaluated as %v; want %d", expr, v, want)
		}
	}
}
