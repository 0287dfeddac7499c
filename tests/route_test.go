package tests

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
	selection "github.com/batchlas/batchlas/select"
	"github.com/batchlas/batchlas/tuned"
)

// Selection's integration tests: the shipped tables, pins, the class
// words, the trace, coverage rows, and every family of every op pinned.

var dtypes = []string{"f32", "f64", "c64", "c128"}

// pinnedSuites runs an op's conformance cases on one queue; TestRouteEveryFamilyPinned runs
// it under each family's pin. probe makes one small call of the op, to learn whether the
// pinned family runs on the queue at all. Every routed op needs an entry.
var pinnedSuites = map[string]struct {
	probe func(q *batchlas.Queue) error
	suite func(t *testing.T, q *batchlas.Queue)
}{
	"potrf": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Potrf(q, batchlas.Lower, probeMatrix[float64](q, 3, 3, 2), probeInfo(q, 2))
		},
		suite: dtypes4(testPotrf[float32], testPotrf[float64], testPotrf[complex64], testPotrf[complex128]),
	},
	"gemm": {
		probe: func(q *batchlas.Queue) error {
			a, b, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c)
		},
		suite: dtypes4(testGemm[float32], testGemm[float64], testGemm[complex64], testGemm[complex128]),
	},
	"gemv": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Gemv(q, batchlas.NoTrans, 1, probeMatrix[float64](q, 3, 3, 2), probeVector[float64](q, 6), 0, probeVector[float64](q, 6))
		},
		suite: dtypes4(testGemv[float32], testGemv[float64], testGemv[complex64], testGemv[complex128]),
	},
	"trsm": {
		probe: func(q *batchlas.Queue) error {
			a, b := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Trsm(q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Unit, 1, a, b)
		},
		suite: dtypes4(testTri[float32](false), testTri[float64](false), testTri[complex64](false), testTri[complex128](false)),
	},
	"trmm": {
		probe: func(q *batchlas.Queue) error {
			a, b := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Trmm(q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Unit, 1, a, b)
		},
		suite: dtypes4(testTri[float32](true), testTri[float64](true), testTri[complex64](true), testTri[complex128](true)),
	},
	"symm": {
		probe: func(q *batchlas.Queue) error {
			a, b, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Symm(q, batchlas.Left, batchlas.Lower, 1, a, b, 0, c)
		},
		suite: dtypes4(testSymm[float32], testSymm[float64], testSymm[complex64], testSymm[complex128]),
	},
	"hemm": {
		probe: func(q *batchlas.Queue) error {
			a, b, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Hemm(q, batchlas.Left, batchlas.Lower, 1, a, b, 0, c)
		},
		suite: dtypes4(testHemm[float32], testHemm[float64], testHemm[complex64], testHemm[complex128]),
	},
	"syrk": {
		probe: func(q *batchlas.Queue) error {
			a, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Syrk(q, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c)
		},
		suite: dtypes4(testSyrk[float32], testSyrk[float64], testSyrk[complex64], testSyrk[complex128]),
	},
	"herk": {
		probe: func(q *batchlas.Queue) error {
			a, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Herk(q, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c)
		},
		suite: dtypes4(testHerk[float32], testHerk[float64], testHerk[complex64], testHerk[complex128]),
	},
	"syr2k": {
		probe: func(q *batchlas.Queue) error {
			a, b, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Syr2k(q, batchlas.Lower, batchlas.NoTrans, 1, a, b, 0, c)
		},
		suite: dtypes4(testSyr2k[float32], testSyr2k[float64], testSyr2k[complex64], testSyr2k[complex128]),
	},
	"her2k": {
		probe: func(q *batchlas.Queue) error {
			a, b, c := probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 3, 2)
			return batchlas.Her2k(q, batchlas.Lower, batchlas.NoTrans, 1, a, b, 0, c)
		},
		suite: dtypes4(testHer2k[float32], testHer2k[float64], testHer2k[complex64], testHer2k[complex128]),
	},
	"potrs": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Potrs(q, batchlas.Lower, probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 1, 2))
		},
		suite: dtypes4(testPotrs[float32], testPotrs[float64], testPotrs[complex64], testPotrs[complex128]),
	},
	"posv": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Posv(q, batchlas.Lower, probeMatrix[float64](q, 3, 3, 2), probeMatrix[float64](q, 3, 1, 2), probeInfo(q, 2))
		},
		suite: dtypes4(testPosv[float32], testPosv[float64], testPosv[complex64], testPosv[complex128]),
	},
	"getrf": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Getrf(q, probeMatrix[float64](q, 3, 3, 2), probeInfo(q, 6), probeInfo(q, 2))
		},
		suite: dtypes4(testGetrf[float32], testGetrf[float64], testGetrf[complex64], testGetrf[complex128]),
	},
	"getrs": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Getrs(q, batchlas.NoTrans, probeMatrix[float64](q, 3, 3, 2), probePivots(q, 3, 2), probeMatrix[float64](q, 3, 1, 2))
		},
		suite: dtypes4(testGetrs[float32], testGetrs[float64], testGetrs[complex64], testGetrs[complex128]),
	},
	"getri": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Getri(q, probeMatrix[float64](q, 3, 3, 2), probePivots(q, 3, 2), probeInfo(q, 2))
		},
		suite: dtypes4(testGetri[float32], testGetri[float64], testGetri[complex64], testGetri[complex128]),
	},
	"gesv": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Gesv(q, probeMatrix[float64](q, 3, 3, 2), probeInfo(q, 6), probeMatrix[float64](q, 3, 1, 2), probeInfo(q, 2))
		},
		suite: dtypes4(testGesv[float32], testGesv[float64], testGesv[complex64], testGesv[complex128]),
	},
	"gesvd": {
		probe: func(q *batchlas.Queue) error {
			// Tall: jacobi:qr=1 refuses square matrices.
			return batchlas.Gesvd(q, batchlas.SVDNone, batchlas.SVDNone, probeMatrix[float64](q, 4, 3, 2), probeVector[float64](q, 6),
				nil, nil, probeInfo(q, 2))
		},
		suite: dtypes4(testGesvd[float32, float32], testGesvd[float64, float64], testGesvd[complex64, float32], testGesvd[complex128, float64]),
	},
	"geqrf": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Geqrf(q, probeMatrix[float64](q, 3, 3, 2), probeVector[float64](q, 6))
		},
		suite: dtypes4(testGeqrf[float32], testGeqrf[float64], testGeqrf[complex64], testGeqrf[complex128]),
	},
	"orgqr": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Orgqr(q, 3, probeMatrix[float64](q, 3, 3, 2), probeVector[float64](q, 6))
		},
		suite: dtypes4(testOrgqr[float32], testOrgqr[float64], testOrgqr[complex64], testOrgqr[complex128]),
	},
	"ormqr": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Ormqr(q, batchlas.Left, batchlas.NoTrans, 3, probeMatrix[float64](q, 3, 3, 2), probeVector[float64](q, 6),
				probeMatrix[float64](q, 3, 2, 2))
		},
		suite: dtypes4(testOrmqr[float32], testOrmqr[float64], testOrmqr[complex64], testOrmqr[complex128]),
	},
	"gels": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Gels(q, batchlas.NoTrans, probeMatrix[float64](q, 3, 2, 2), probeMatrix[float64](q, 3, 1, 2), probeInfo(q, 2))
		},
		suite: dtypes4(testGels[float32], testGels[float64], testGels[complex64], testGels[complex128]),
	},
	"spmm": {
		probe: func(q *batchlas.Queue) error {
			a, err := batchlas.CSRFromDense(q, 3, 3, 2, make([]float64, 18))
			if err != nil {
				return err
			}
			defer a.Free()
			return batchlas.Spmm(q, batchlas.NoTrans, batchlas.NoTrans, 1, a, probeMatrix[float64](q, 3, 3, 2), 0, probeMatrix[float64](q, 3, 3, 2))
		},
		suite: dtypes4(testSpmm[float32], testSpmm[float64], testSpmm[complex64], testSpmm[complex128]),
	},
	"syev": {
		probe: func(q *batchlas.Queue) error {
			return batchlas.Syev(q, batchlas.Vectors, batchlas.Lower, probeMatrix[float64](q, 3, 3, 2), probeVector[float64](q, 6), probeInfo(q, 2))
		},
		suite: dtypes4(testSyev[float32, float32], testSyev[float64, float64], testSyev[complex64, float32], testSyev[complex128, float64]),
	},
}

// dtypes4 runs the four instantiations of a conformance test on one queue.
func dtypes4(f32, f64, c64, c128 func(*testing.T, *batchlas.Queue)) func(*testing.T, *batchlas.Queue) {
	return func(t *testing.T, q *batchlas.Queue) { ForEachDType(t, q, f32, f64, c64, c128) }
}

func probeMatrix[T batchlas.Scalar](q *batchlas.Queue, r, c, batch int) *batchlas.Matrix[T] {
	m, err := batchlas.NewMatrix[T](q, r, c, batch)
	if err != nil {
		panic(err)
	}
	x := make([]T, r*c*batch)
	for b := 0; b < batch; b++ {
		for i := 0; i < min(r, c); i++ {
			x[b*r*c+i*r+i] = 1
		}
	}
	if err := m.Upload(x); err != nil {
		panic(err)
	}
	return m
}

func probeInfo(q *batchlas.Queue, n int) *batchlas.Vector[int32] { return probeVector[int32](q, n) }

// probeVector is a vector of n zeros.
func probeVector[E batchlas.Element](q *batchlas.Queue, n int) *batchlas.Vector[E] {
	v, err := batchlas.NewVector[E](q, n)
	if err != nil {
		panic(err)
	}
	return v
}

// probePivots is the identity permutation of order n for each of batch matrices (1-based).
func probePivots(q *batchlas.Queue, n, batch int) *batchlas.Vector[int32] {
	p := make([]int32, n*batch)
	for i := range p {
		p[i] = int32(i%n + 1)
	}
	v, err := batchlas.NewVector[int32](q, len(p))
	if err != nil {
		panic(err)
	}
	if err := v.Upload(p); err != nil {
		panic(err)
	}
	return v
}

// routeRefused reports whether err is a pinned family refusing the call.
func routeRefused(err error) bool {
	var ae *batchlas.ArgError
	return errors.As(err, &ae) && ae.Arg == "route"
}

// TestRouteEveryFamilyPinned runs each op's conformance cases once per family, pinned, on
// every queue; a family that refuses the probe call on a queue (the vendor family without
// its library, a GPU family on the host) is skipped there, and is checked to refuse with an
// error naming "route".
func TestRouteEveryFamilyPinned(t *testing.T) {
	for _, op := range route.Ops() {
		if _, ok := pinnedSuites[op]; !ok {
			t.Errorf("%s has no entry in pinnedSuites (tests/route_test.go)", op)
		}
	}
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		for _, op := range route.Ops() {
			ps, ok := pinnedSuites[op]
			if !ok {
				continue
			}
			forEachFamily(t, op, func(t *testing.T, fam string) {
				if chosen, err := traced(t, func() error { return ps.probe(q) }); routeRefused(err) {
					t.Skipf("%s cannot run on %s: %v", fam, q.Device().Key, err)
				} else if SkipMiss(t, q, op, err); err != nil {
					t.Fatalf("probe: %v", err)
				} else if !strings.Contains(chosen, "-> "+fam+" ") {
					// The class word "vendor" falls back to auto instead of refusing.
					t.Skipf("%s does not run on %s: %s", fam, q.Device().Key, chosen)
				}
				ps.suite(t, q)
			})
		}
	})
}

// pinFor pins op to spelling until t ends.
func pinFor(t *testing.T, op, spelling string) {
	t.Helper()
	restore, err := route.Pin(op, spelling)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(restore)
}

// fusedFactor names the factorization of a combined driver whose families of the same
// names as the factorization's fuse its code (gesv "regs" and "cta" run getrf's): such a
// family runs only where the factorization's routing picks its namesake, so forEachFamily
// pins the factorization to it as well.
var fusedFactor = map[string]string{"gesv": "getrf"}

// forEachFamily runs f in a subtest op/fam under the pin of each family of op.
func forEachFamily(t *testing.T, op string, f func(t *testing.T, fam string)) {
	t.Helper()
	fams, _, err := route.Candidates(op, "f64")
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range fams {
		t.Run(op+"/"+fam, func(t *testing.T) {
			pinFor(t, op, fam)
			if factor, ok := fusedFactor[op]; ok && fam != "vendor" && fam != "host" {
				if ffams, _, err := route.Candidates(factor, "f64"); err == nil && slices.Contains(ffams, fam) {
					pinFor(t, factor, fam)
				}
			}
			f(t, fam)
		})
	}
}

// TestRouteTables checks every shipped table: its name is <op>.<device>.txt of a routed op,
// it parses, its header names the same op and device, it has rows of known dtypes naming
// only that dtype's families, and its timed rows rank in ascending time, ties apart.
func TestRouteTables(t *testing.T) {
	files, err := fs.Glob(tuned.FS, "*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tables embedded: %v", err)
	}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			op, dev, ok := strings.Cut(strings.TrimSuffix(name, ".txt"), ".")
			if !ok || !slices.Contains(route.Ops(), op) {
				t.Fatalf("not <op>.<device>.txt of a routed op (%v)", route.Ops())
			}
			text, err := fs.ReadFile(tuned.FS, name)
			if err != nil {
				t.Fatal(err)
			}
			tb, err := selection.ParseTable(string(text))
			if err != nil {
				t.Fatal(err)
			}
			if tb.Op != op || tb.Device != dev {
				t.Errorf("header says op=%s device=%s", tb.Op, tb.Device)
			}
			if err := tb.CheckRanks(); err != nil {
				t.Error(err)
			}
			for _, r := range tb.Rows {
				fams, _, err := route.Candidates(op, r.Values[0])
				if err != nil {
					t.Errorf("line %d: %v", r.Line, err)
					continue
				}
				for _, e := range r.Entries {
					if !slices.Contains(fams, e.Spelling.String()) {
						t.Errorf("line %d: %s is not a %s family of %s (%v)", r.Line, e.Spelling, r.Values[0], op, fams)
					}
				}
			}
		})
	}
}

// TestRouteEveryOp checks that every op that declares families (func <op>Families in the
// package's sources) is routed, and ships a cpu table with rows for every dtype.
func TestRouteEveryOp(t *testing.T) {
	srcs, err := filepath.Glob("../*.go")
	if err != nil || len(srcs) == 0 {
		t.Fatalf("package sources not found: %v", err)
	}
	decl := regexp.MustCompile(`(?m)^func (\w+)Families\[`)
	var declared []string
	for _, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			declared = append(declared, string(m[1]))
		}
	}
	if len(declared) == 0 {
		t.Fatal("no <op>Families declarations found")
	}
	for _, op := range declared {
		if !slices.Contains(route.Ops(), op) {
			t.Errorf("%s declares families but is not in routedOps (route_ops.go)", op)
			continue
		}
		text, err := fs.ReadFile(tuned.FS, op+".cpu.txt")
		if err != nil {
			t.Errorf("%s has no tuned/%s.cpu.txt", op, op)
			continue
		}
		tb, err := selection.ParseTable(string(text))
		if err != nil {
			t.Errorf("tuned/%s.cpu.txt: %v", op, err)
			continue
		}
		for _, d := range dtypes {
			if !slices.Contains(tb.DTypes(), d) {
				t.Errorf("tuned/%s.cpu.txt has no %s rows", op, d)
			}
		}
	}
}

// setEnv sets an environment variable for the test and takes a new settings snapshot; the
// cleanup takes one again after the variable is restored.
func setEnv(t *testing.T, name, value string) {
	// Registered before t.Setenv's own cleanup, so that it runs after the restore.
	t.Cleanup(func() { selection.Reload() })
	t.Setenv(name, value)
	selection.Reload()
}

// traced runs f with the trace on and returns the trace and warnings it wrote.
func traced(t *testing.T, f func() error) (string, error) {
	var b bytes.Buffer
	restore := route.SetLog(&b)
	stop := route.Trace()
	err := f()
	stop() // prints the lines still held
	restore()
	return b.String(), err
}

// routeLog captures selection's warnings and trace lines for the test.
func routeLog(t *testing.T) *bytes.Buffer {
	var b bytes.Buffer
	t.Cleanup(route.SetLog(&b))
	return &b
}

func TestRoutePins(t *testing.T) {
	q, _ := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 4, 4, 3)
	info := UploadVector(t, q, Fill(3, int32(Poison)))
	pinned := func(pin string, call func() error) func() error {
		return func() error {
			restore, err := route.Pin("potrf", pin)
			if err != nil {
				return err
			}
			defer restore()
			return call()
		}
	}
	potrf := func() error { return batchlas.Potrf(q, batchlas.Lower, a, info) }
	size := func() error {
		_, err := batchlas.PotrfBufferSize(q, batchlas.Lower, a, info)
		return err
	}
	cases := []ArgCase{
		{"unknown family", "route", pinned("lpanel:panel=8", potrf)},
		{"vendor with fields", "route", pinned("vendor:1", potrf)},
		{"unknown family, sizing", "route", pinned("blocked", size)},
		{"bad spelling", "spelling", pinned("host:x", potrf)},
	}
	RunArgCases(t, q, cases, Watch(a), Watch(info))

	// The environment pin is read through the settings snapshot; a scoped pin wins over it.
	setEnv(t, "BATCHLAS_POTRF_ROUTE", "nosuch")
	WantArgErr(t, potrf(), "route")
	if err := pinned("auto", potrf)(); err != nil {
		t.Errorf("a scoped auto pin over a bad environment pin: %v", err)
	}
	setEnv(t, "BATCHLAS_POTRF_ROUTE", " HOST ")
	if err := potrf(); err != nil {
		t.Errorf("BATCHLAS_POTRF_ROUTE=' HOST ': %v", err)
	}
}

// TestRouteClassWords: native and vendor pins choose in their class, and fall back to auto
// when nothing in the class runs (the warning, given once per process, is tested in
// package selection).
func TestRouteClassWords(t *testing.T) {
	for _, q := range Queues() {
		key := q.Device().Key
		for _, class := range []string{"native", "vendor"} {
			restore, err := route.Pin("potrf", class)
			if err != nil {
				t.Fatal(err)
			}
			out, err := traced(t, func() error { return pinnedSuites["potrf"].probe(q) })
			restore()
			inClass := strings.Contains(out, "[pin "+class+", ")
			switch {
			case err != nil:
				t.Errorf("%s: pin %s: %v", key, class, err)
			case class == "native" && !inClass && q.Backend() != batchlas.ROCm:
				// ROCm queues have vendor families only.
				t.Errorf("%s: a native family runs potrf on every host and CUDA queue, but native fell back:\n%s", key, out)
			case class == "native" && inClass && q.Backend() == batchlas.ROCm:
				t.Errorf("%s: a ROCm queue has no native family, yet the native pin chose in its class:\n%s", key, out)
			case class == "vendor" && novendor && inClass:
				t.Errorf("%s: novendor build, but the vendor pin chose in its class:\n%s", key, out)
			case class == "vendor" && !inClass && strings.Contains(out, "-> vendor"):
				t.Errorf("%s: vendor fell back, yet chose vendor:\n%s", key, out)
			}
		}
	}
}

// TestRouteTrace checks the line BATCHLAS_SELECT_TRACE=1 prints for a call on the host.
// (Folding repeated calls is tested in the root package's TestRouteTraceFolds.)
func TestRouteTrace(t *testing.T) {
	q, _ := ArgQueues(t)
	log := routeLog(t)
	setEnv(t, "BATCHLAS_SELECT_TRACE", "1")
	a, info := probeMatrix[complex128](q, 5, 5, 7), probeInfo(q, 7)
	if err := batchlas.Potrf(q, batchlas.Upper, a, info); err != nil {
		t.Fatal(err)
	}
	if _, err := batchlas.PotrfBufferSize(q, batchlas.Upper, a, info); err != nil {
		t.Fatal(err)
	}
	if err := route.Flush(); err != nil { // the trace holds the last line, to fold repeats
		t.Fatal(err)
	}
	// The choice and its times are the table's (tuned/potrf.cpu.txt is measured), then the
	// time the call took.
	want := regexp.MustCompile(`^potrf c128 uplo=U n=5 batch=7 -> (host|vendor) (untimed|[0-9.]+ ms), (no runner-up|next|tied with) .*\[cpu\].*; took [0-9.e+-]+ ms\n$`)
	if !want.MatchString(log.String()) {
		t.Errorf("trace %q; want one line matching %s (sizing is not traced)", log, want)
	}
}

// TestRouteCoverage checks the reached rows BATCHLAS_COVERAGE_OUT collects.
func TestRouteCoverage(t *testing.T) {
	if err := route.Flush(); err != nil { // rows of earlier tests go to their file
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	setEnv(t, "BATCHLAS_COVERAGE_OUT", file)
	q, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		t.Fatal(err)
	}
	a, info := probeMatrix[float32](q, 2, 2, 3), probeInfo(q, 3)
	for range 3 {
		if err := batchlas.Potrf(q, batchlas.Lower, a, info); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Close(); err != nil { // Close flushes
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := selection.ReadCoverage(f)
	if err != nil {
		t.Fatal(err)
	}
	want := selection.CoverageRow{Kind: "reached", Op: "potrf", DType: "f32", Device: "cpu", Key: "uplo=L n=2 batch=3",
		Chosen: "host", Origin: "native", Table: "cpu", Count: 3}
	if len(rows) != 1 || rows[0] != want {
		t.Errorf("coverage rows %+v, want [%+v]", rows, want)
	}
}
