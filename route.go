package batchlas

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/batchlas/batchlas/internal/routing"
	selection "github.com/batchlas/batchlas/select"
	"github.com/batchlas/batchlas/tuned"
)

// Families and routing.
//
// Each op lists its families in its own file; the list order is the tie order of its tables
// and, unless a family sets resort, its last-resort order. Every call goes public function ->
// check -> dispatch -> selection.Library.Choose -> the family's launch, and <Op>BufferSize
// goes through the same choice. Conventions shared by every op:
//
//   - "host": the pure-Go family, runs on host queues.
//   - "vendor": the vendor library of the queue's backend (the system LAPACK on a host queue
//     built with the host tag, cuBLAS/cuSOLVER on a CUDA queue), with vendor: true, built by
//     vendorFamily from the backends' parts (<op>LAPACK, ...) that the vendor_*.go files
//     define with exact stub complements, so that novendor builds compile it out (canRun
//     false). The pin word "vendor" is the class: it falls back to auto when no vendor family
//     can run.
//   - native GPU families (e.g. "tiny", "cta") call <op>_cuda.go functions, stubbed likewise.

// family is one way to run an operation: a native kernel, a vendor library call or the host
// code. C is the operation's call record, which holds its checked arguments.
type family[C any] struct {
	name string // the family's name; with fields, its spelling is name:field=value...
	// fields are the integer parameters of a family with several members, e.g. panel=8 of
	// "lpanel:panel=8"; launch is a closure over them.
	fields []selection.Field
	vendor bool // the family calls a vendor library
	// resort is the last-resort rank: lower goes first, equal ranks keep the list order.
	resort int
	// backend is the backend whose queues the family runs on (runs checks it, so that canRun
	// need not): the zero value, Auto, is nativeBackend, that of the native kernels and of
	// the CUDA vendor parts. hostFamily sets Host; everyBackend leaves it to canRun (the
	// vendor family, whose parts each run on their own; gels's qr driver).
	backend Backend
	// canRun is true exactly when launch accepts the call on a queue of the family's
	// backend: correctness, never speed.
	canRun func(q *Queue, c *C) bool
	// bufferSize is the workspace in bytes that launch leases from the queue; nil means none.
	bufferSize func(q *Queue, c *C) int
	launch     func(q *Queue, c *C) error
	// why, when not nil, says why the family cannot run on q at all (its library is not
	// installed), for the trace; "" when it can.
	why func(q *Queue) string
}

// nativeBackend is the backend of the families that declare none: the native kernels are
// CUDA's.
const nativeBackend = CUDA

// everyBackend is the backend of a family that runs on queues of every backend.
const everyBackend Backend = -1

// runs is the one check of the backend a family runs on, ahead of its canRun.
func (f *family[C]) runs(q *Queue, c *C) bool {
	b := f.backend
	if b == Auto {
		b = nativeBackend
	}
	return (b == everyBackend || q.dev.Backend == b) && f.canRun(q, c)
}

// hostFamily is the family "host" of an op: launch, the pure-Go routine, on every host
// queue.
func hostFamily[C any](launch func(q *Queue, c *C) error) family[C] {
	return family[C]{name: "host", backend: Host, canRun: func(*Queue, *C) bool { return true }, launch: launch}
}

func (f *family[C]) candidate() selection.Candidate {
	return selection.Candidate{Spelling: selection.Spelling{Family: f.name, Fields: f.fields}, Vendor: f.vendor, Resort: f.resort}
}

// routes holds the embedded tuned/ tables, the warnings given, the trace and the coverage
// rows; package route reaches it through internal/routing.
var routes = selection.NewLibrary(tuned.FS)

func init() {
	routing.Library = routes
	routing.Ops = routedOpNames
	routing.Candidates = func(op, dtype string) ([]selection.Candidate, bool) {
		cands, ok := routedOps[op]
		if !ok {
			return nil, false
		}
		return cands(dtype), true
	}
}

// pinRoute is route.Pin, for this package's own tests.
func pinRoute(op, spelling string) (restore func(), err error) {
	if strings.TrimSpace(op) == "" {
		return nil, argErr("route.Pin", "op", "empty op name")
	}
	restore, err = selection.Pin(op, spelling)
	if err != nil {
		return nil, argErr("route.Pin", "spelling", "%v", err)
	}
	return restore, nil
}

// selectFamily picks the family that runs c (selection's rules: pin, tables, last resort). A
// launch (record) is counted in the coverage rows and traced: done takes the time the launch
// took; sizing passes record false and gets a done that does nothing. It leaves out the check
// of the environment's route variables (dispatch and bufferSize make it), for the
// families that route a sub-call through another op's families (posvFactor, gesvFactor): a
// package-level family list may refer to it without an initialization cycle through
// routedOpNames.
func selectFamily[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C, record bool) (*family[C], func(float64), error) {
	r := &selection.Request{Op: op, DType: dtype, Key: key.kvs(), Device: selDevice(q.dev), Depth: int(q.nested.Load()),
		Cands: make([]selection.Candidate, len(fams)), CanRun: func(i int) bool { return fams[i].runs(q, c) },
		Why: func(i int) string {
			if fams[i].why == nil {
				return ""
			}
			return fams[i].why(q)
		}}
	for i := range fams {
		r.Cands[i] = fams[i].candidate()
	}
	d, err := routes.Choose(r)
	var pe *selection.PinError
	var me *selection.MissError
	switch {
	case errors.As(err, &pe):
		return nil, nil, argErr(op, "route", "%v", pe)
	case errors.As(err, &me):
		if record {
			routes.Miss(r)
		}
		return nil, nil, &NoRouteError{Op: op, DType: dtype, Backend: q.dev.Backend.String(), Key: key.String(), Tried: me.Tried}
	case err != nil:
		return nil, nil, err
	}
	done := func(float64) {}
	if record {
		done = routes.Report(r, d)
	}
	return &fams[d.Index], done, nil
}

// factored turns f, a family of a combined driver (posv, gesv) that solves with the factors
// its matrices already hold, into the whole driver: the factorization runs first, on the
// family that the factorization's own routing (its pin, its tables, its last resort, on every
// backend) chooses, so that the driver leaves exactly the factors that the factorization op
// would. factor answers that family and the call it gets; it is asked afresh each time, so
// that canRun, bufferSize and launch agree with no state kept between them.
func factored[C, F any](f family[C], factor func(q *Queue, c *C, record bool) (*family[F], *F, error)) family[C] {
	solveCanRun, solveSize, solve := f.canRun, f.bufferSize, f.launch
	f.canRun = func(q *Queue, c *C) bool {
		if !solveCanRun(q, c) {
			return false
		}
		_, _, err := factor(q, c, false)
		return err == nil
	}
	f.bufferSize = func(q *Queue, c *C) int {
		n := 0
		if solveSize != nil {
			n = solveSize(q, c)
		}
		if ff, fc, err := factor(q, c, false); err == nil && ff.bufferSize != nil {
			n = max(n, ff.bufferSize(q, fc))
		}
		return n
	}
	f.launch = func(q *Queue, c *C) error {
		ff, fc, err := factor(q, c, true)
		if err != nil {
			return err
		}
		if err := ff.launch(q, fc); err != nil {
			return err
		}
		return solve(q, c)
	}
	return f
}

// factorPinRefusal is the error of a combined driver's factorization routing (posvFactor,
// gesvFactor) when it is a pin's refusal (an error naming the route), else nil. The driver
// refuses the call with it, as the pinned factorization itself does: no family of the
// driver can run while its factorization is pinned to a family that cannot, and that is the
// pin's doing, not a shape that the build has no route for (a NoRouteError, which the
// vendor-free census counts as a miss).
func factorPinRefusal[F, C any](_ *family[F], _ *C, err error) error {
	var ae *ArgError
	if errors.As(err, &ae) && ae.Arg == "route" {
		return err
	}
	return nil
}

// warnUnknownRoutes warns once of BATCHLAS_<OP>_ROUTE variables that name no op.
func warnUnknownRoutes() {
	if len(selection.Current().Routes) == 0 {
		return
	}
	if bad := selection.UnknownRoutes(routedOpNames()); len(bad) > 0 {
		routes.WarnOnce("env "+strings.Join(bad, " "), "batchlas: %s: no such op; ignored (ops: %s)",
			strings.Join(bad, ", "), strings.Join(routedOpNames(), ", "))
	}
}

// dispatch chooses a family for c and launches it, on a device queue holding the queue's
// call lock (oplock.go) so that another goroutine's call cannot interleave its steps. Under
// the trace it also waits for the launch and gives the trace the wall time of launch and
// wait, the time the caller sees.
func dispatch[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) error {
	warnUnknownRoutes()
	if !q.isHost() {
		defer q.calls.hold()()
	}
	return dispatchNested(q, op, dtype, key, fams, c)
}

// dispatchNested is dispatch without the check of the environment's route variables, for a
// family whose steps are other ops' calls (gesvd's jacobi:qr=1 calling geqrf and ormqr),
// which routes them as those ops would: for the reason selectFamily gives.
func dispatchNested[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) error {
	f, done, err := selectFamily(q, op, dtype, key, fams, c, true)
	if err != nil {
		return err
	}
	// A family that calls other ops (a blocked driver calling Potrf) gets its trace lines
	// indented under its own.
	q.nested.Add(1)
	defer q.nested.Add(-1)
	if !selection.Current().Trace {
		return f.launch(q, c)
	}
	start := time.Now()
	err = f.launch(q, c)
	if err == nil {
		err = q.Wait()
	}
	ms := math.NaN()
	if err == nil {
		ms = float64(time.Since(start).Nanoseconds()) / 1e6
	}
	done(ms)
	return err
}

// nestedCall is a step of a driver family that is a call of another op (a blocked
// factorization's Trsm, Herk and Gemm), routed by that op's own routing.
type nestedCall struct {
	routed func(q *Queue) bool  // the op's routing has a family for it
	bytes  func(q *Queue) int   // the workspace that family leases
	run    func(q *Queue) error // checks the call and dispatches it (dispatchNested)
}

// nested makes the nestedCall of c, a call of op whose check is check.
func nested[C any](op, dtype string, key callKey, fams []family[C], c *C, check func(*C, *Queue) error) nestedCall {
	return nestedCall{
		routed: func(q *Queue) bool {
			_, _, err := selectFamily(q, op, dtype, key, fams, c, false)
			return err == nil
		},
		bytes: func(q *Queue) int {
			n, _ := bufferSizeNested(q, op, dtype, key, fams, c)
			return n
		},
		run: func(q *Queue) error {
			if err := check(c, q); err != nil {
				return err
			}
			return dispatchNested(q, op, dtype, key, fams, c)
		},
	}
}

// nestedBytes is the most workspace that one of calls leases.
func nestedBytes(q *Queue, calls []nestedCall) int {
	need := 0
	for _, c := range calls {
		need = max(need, c.bytes(q))
	}
	return need
}

// firstRunnable is the first of fams that can run c, nil when none can: a blocked driver's
// leaf, chosen among its op's single-kernel families without routing (a pin of the op must
// not reach the driver's own steps).
func firstRunnable[C any](q *Queue, fams []family[C], c *C) *family[C] {
	for i := range fams {
		if fams[i].runs(q, c) {
			return &fams[i]
		}
	}
	return nil
}

// stepsBytes is the most workspace that one nested call of a driver's steps leases; calls
// gives a step's nested calls.
func stepsBytes[S any](q *Queue, steps []S, calls func(S) []nestedCall) int {
	need := 0
	for _, st := range steps {
		need = max(need, nestedBytes(q, calls(st)))
	}
	return need
}

// runNested runs calls in order.
func runNested(q *Queue, calls []nestedCall) error {
	for _, c := range calls {
		if err := c.run(q); err != nil {
			return err
		}
	}
	return nil
}

// trsmNested, herkNested and gemmNested are the nestedCalls of those ops' calls.
func trsmNested[T Scalar](c *trsmCall[T]) nestedCall {
	return nested("trsm", dtypeName[T](), c.key(), trsmFamilies[T](), c, (*trsmCall[T]).check)
}

func herkNested[T Scalar](c *herkCall[T]) nestedCall {
	return nested("herk", dtypeName[T](), c.key(), herkFamilies[T](), c, (*herkCall[T]).check)
}

func gemmNested[T Scalar](c *gemmCall[T]) nestedCall {
	return nested("gemm", dtypeName[T](), c.key(), gemmFamilies[T](), c, (*gemmCall[T]).check)
}

// bufferSize answers the workspace that the family chosen for c needs.
func bufferSize[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) (int, error) {
	warnUnknownRoutes()
	return bufferSizeNested(q, op, dtype, key, fams, c)
}

// bufferSizeNested is bufferSize as dispatchNested is dispatch.
func bufferSizeNested[C any](q *Queue, op, dtype string, key callKey, fams []family[C], c *C) (int, error) {
	f, _, err := selectFamily(q, op, dtype, key, fams, c, false)
	if err != nil || f.bufferSize == nil {
		return 0, err
	}
	return f.bufferSize(q, c), nil
}

// selDevice is the device as selection sees it.
func selDevice(d Device) selection.Device {
	return selection.Device{Key: d.Key, Family: d.Family, Arch: d.Arch, IsGPU: d.IsGPU, SG32: d.SubGroup == 32,
		Vendor: vendorBuilt, SharedMem: int64(d.SharedMem), MaxWG: d.MaxBlock}
}

// setRouteLog is route.SetLog, for this package's own tests.
func setRouteLog(w io.Writer) (restore func()) { return routes.SetOutput(w) }

// routedOpNames lists, sorted, the operations that choose among families.
func routedOpNames() []string {
	ops := make([]string, 0, len(routedOps))
	for op := range routedOps {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return ops
}

// perDType returns the candidates of an op generic over Scalar, given its four
// instantiations of <op>Families.
func perDType[A, B, C, D any](f32 func() []family[A], f64 func() []family[B], c64 func() []family[C],
	c128 func() []family[D]) func(dtype string) []selection.Candidate {
	return func(dtype string) []selection.Candidate {
		switch dtype {
		case "f32":
			return candidatesOf(f32())
		case "f64":
			return candidatesOf(f64())
		case "c64":
			return candidatesOf(c64())
		case "c128":
			return candidatesOf(c128())
		}
		return nil
	}
}

func candidatesOf[C any](fams []family[C]) []selection.Candidate {
	cs := make([]selection.Candidate, len(fams))
	for i := range fams {
		cs[i] = fams[i].candidate()
	}
	return cs
}

// callKey is a call's selection key: named values (enums as their letters, sizes as ints)
// in the order the op's tables declare them.
type callKey []keyVal

type keyVal struct {
	name string
	val  any
}

// shapeKey builds a key from alternating names and values.
func shapeKey(kv ...any) callKey {
	k := make(callKey, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		k = append(k, keyVal{name: kv[i].(string), val: kv[i+1]})
	}
	return k
}

func (k callKey) kvs() []selection.KV {
	kv := make([]selection.KV, len(k))
	for i, v := range k {
		kv[i] = selection.KV{Name: v.name, Value: fmt.Sprint(v.val)}
	}
	return kv
}

func (k callKey) String() string {
	s := ""
	for i, kv := range k {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s=%v", kv.name, kv.val)
	}
	return s
}
