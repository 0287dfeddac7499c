package batchlas

import (
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Scalar is the element type of a matrix.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Element is the element type of a vector: a scalar, or int32 for pivots and info.
type Element interface {
	Scalar | int32
}

// Real is the real type of a scalar: float32 for float32 and complex64, float64 otherwise.
type Real interface {
	float32 | float64
}

// allocation is one block of memory on a queue's device, shared by every view into it.
type allocation struct {
	q     *Queue
	ptr   uintptr // device address; 0 on the host and for empty allocations
	bytes int
	freed atomic.Bool // read without q.mu by every argument check
}

// newAllocation allocates bytes on q for op. It checks q again under q.mu, since Close may
// have run after the caller's check and must free every allocation of the queue.
func newAllocation(q *Queue, op string, bytes int) (*allocation, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if err := q.usable(op); err != nil {
		return nil, err
	}
	a := &allocation{q: q, bytes: bytes}
	if d, ok := q.eng.(devEngine); ok && bytes > 0 {
		p, err := d.alloc(bytes)
		if err != nil {
			return nil, err
		}
		a.ptr = p
	}
	q.allocs[a] = struct{}{}
	return a, nil
}

// release frees the memory; the caller holds q.mu.
func (a *allocation) release() error {
	if a.freed.Swap(true) {
		return nil
	}
	if d, ok := a.q.eng.(devEngine); ok && a.ptr != 0 {
		return d.free(a.ptr)
	}
	return nil
}

func (a *allocation) free() error {
	a.q.mu.Lock()
	defer a.q.mu.Unlock()
	delete(a.q.allocs, a)
	return a.release()
}

// Matrix is a batch of equally shaped matrices on one queue's device, column-major and
// batch-major: element (i, j) of matrix b is at b*Stride() + j*LD() + i. Views share memory
// with the matrix they were taken from.
type Matrix[T Scalar] struct {
	q     *Queue
	mem   *allocation
	data  []T // the whole allocation on a host queue; nil on a device queue
	off   int // element offset of element (0, 0) of matrix 0
	rows  int
	cols  int
	ld    int
	strd  int
	batch int
}

// NewMatrix allocates batch packed rows-by-cols matrices on q.
func NewMatrix[T Scalar](q *Queue, rows, cols, batch int) (*Matrix[T], error) {
	return NewMatrixStrided[T](q, rows, cols, 0, 0, batch)
}

// NewMatrixStrided allocates batch rows-by-cols matrices with leading dimension ld and
// stride elements between consecutive matrices. ld 0 means max(1, rows); stride 0 means
// ld*cols.
func NewMatrixStrided[T Scalar](q *Queue, rows, cols, ld, stride, batch int) (*Matrix[T], error) {
	const op = "NewMatrix"
	if err := q.usable(op); err != nil {
		return nil, err
	}
	if ld == 0 {
		ld = max(1, rows)
	}
	if stride == 0 {
		stride = ld * cols
	}
	m := &Matrix[T]{q: q, rows: rows, cols: cols, ld: ld, strd: stride, batch: batch}
	if err := m.shapeErr(op, ""); err != nil {
		return nil, err
	}
	n := m.extent()
	if n > maxElements/sizeOf[T]() {
		return nil, argErr(op, "rows, cols, batch", "%d elements of %d bytes do not fit in memory", n, sizeOf[T]())
	}
	if err := q.fits(op, "rows, cols, batch", n*sizeOf[T]()); err != nil {
		return nil, err
	}
	mem, err := newAllocation(q, op, n*sizeOf[T]())
	if err != nil {
		return nil, err
	}
	m.mem = mem
	if _, dev := q.eng.(devEngine); !dev {
		m.data = make([]T, n)
	}
	return m, nil
}

// maxElements bounds an allocation so that byte offsets never overflow.
const maxElements = 1 << 52

// shapeErr checks the layout rules that every matrix obeys. It names the argument name, or
// the offending field when name is empty (as for NewMatrixStrided's own arguments).
func (m *Matrix[T]) shapeErr(op, name string) error {
	field, rule := m.layoutRule()
	if rule == "" {
		return nil
	}
	if name == "" {
		name = field
	}
	return argErr(op, name, "%s", rule)
}

func (m *Matrix[T]) layoutRule() (field, rule string) {
	switch {
	case m.rows < 0 || m.cols < 0:
		return "rows, cols", fmt.Sprintf("negative size %dx%d", m.rows, m.cols)
	case m.batch < 0:
		return "batch", fmt.Sprintf("negative batch %d", m.batch)
	case m.ld < max(1, m.rows):
		return "ld", fmt.Sprintf("ld %d < max(1, rows %d)", m.ld, m.rows)
	case m.strd < m.ld*m.cols:
		return "stride", fmt.Sprintf("stride %d < ld*cols = %d", m.strd, m.ld*m.cols)
	case m.rows > maxElements || m.cols > maxElements || m.batch > maxElements ||
		m.ld > maxElements/max(1, m.cols) || m.strd > maxElements/max(1, m.batch):
		return "stride", "extent overflows"
	}
	return "", ""
}

// extent is the number of elements from element (0, 0) of matrix 0 to one past the last
// element of the last matrix; 0 for an empty matrix.
func (m *Matrix[T]) extent() int {
	if m.rows == 0 || m.cols == 0 || m.batch == 0 {
		return 0
	}
	return (m.batch-1)*m.strd + (m.cols-1)*m.ld + m.rows
}

// Rows is the number of rows of each matrix; 0 for a nil matrix, as for LD, Stride, Cols
// and Batch.
func (m *Matrix[T]) Rows() int {
	if m == nil {
		return 0
	}
	return m.rows
}

// Cols is the number of columns of each matrix.
func (m *Matrix[T]) Cols() int {
	if m == nil {
		return 0
	}
	return m.cols
}

// LD is the leading dimension: elements between the starts of consecutive columns.
func (m *Matrix[T]) LD() int {
	if m == nil {
		return 0
	}
	return m.ld
}

// Stride is the number of elements between the starts of consecutive matrices.
func (m *Matrix[T]) Stride() int {
	if m == nil {
		return 0
	}
	return m.strd
}

// Batch is the number of matrices.
func (m *Matrix[T]) Batch() int {
	if m == nil {
		return 0
	}
	return m.batch
}

// Queue is the queue the matrix lives on; nil for a nil matrix.
func (m *Matrix[T]) Queue() *Queue {
	if m == nil {
		return nil
	}
	return m.q
}

// View returns the r-by-c sub-matrix whose element (0, 0) is element (i, j) of each matrix.
// It shares memory with m.
func (m *Matrix[T]) View(i, j, r, c int) (*Matrix[T], error) {
	const op = "View"
	if err := m.usable(op, "m"); err != nil {
		return nil, err
	}
	// r > rows-i, not i+r > rows, so that huge arguments cannot overflow past the check.
	if i < 0 || j < 0 || r < 0 || c < 0 || i > m.rows || j > m.cols || r > m.rows-i || c > m.cols-j {
		return nil, argErr(op, "i, j, r, c", "view (%d, %d) of size %dx%d outside %dx%d", i, j, r, c, m.rows, m.cols)
	}
	return m.sub(i, j, r, c), nil
}

// sub is View without its checks, for a driver's views of operands it has checked.
func (m *Matrix[T]) sub(i, j, r, c int) *Matrix[T] {
	v := *m
	v.off += j*m.ld + i
	v.rows, v.cols = r, c
	return &v
}

// Slice returns the matrices from, ..., to-1 of the batch. It shares memory with m.
func (m *Matrix[T]) Slice(from, to int) (*Matrix[T], error) {
	const op = "Slice"
	if err := m.usable(op, "m"); err != nil {
		return nil, err
	}
	if from < 0 || to < from || to > m.batch {
		return nil, argErr(op, "from, to", "range [%d, %d) outside batch %d", from, to, m.batch)
	}
	v := *m
	v.off += from * m.strd
	v.batch = to - from
	return &v, nil
}

// Free releases the matrix's memory, and that of every view sharing it. Using any of them
// afterwards returns an error.
func (m *Matrix[T]) Free() error {
	if err := m.usable("Free", "m"); err != nil {
		return err
	}
	m.data = nil
	return m.mem.free()
}

// usable checks that m exists and that its memory and queue are alive.
func (m *Matrix[T]) usable(op, name string) error {
	if m == nil {
		return argErr(op, name, "nil matrix")
	}
	if m.q == nil || m.mem == nil {
		return argErr(op, name, "matrix not made by NewMatrix")
	}
	if err := m.q.usable(op); err != nil {
		return err
	}
	if m.mem.freed.Load() {
		return argErr(op, name, "matrix memory was freed")
	}
	return nil
}

// check validates m as an argument of an operation on q.
func (m *Matrix[T]) check(q *Queue, op, name string) error {
	if err := m.usable(op, name); err != nil {
		return err
	}
	if m.q != q {
		return argErr(op, name, "matrix belongs to another queue")
	}
	if err := m.shapeErr(op, name); err != nil {
		return err
	}
	// An empty matrix reads nothing, so it may start anywhere: Slice(batch, batch) of a
	// matrix with ld > rows starts past the end of the allocation.
	if e := m.extent(); m.off < 0 || e > 0 && m.off+e > m.mem.bytes/sizeOf[T]() {
		return argErr(op, name, "layout reaches outside its allocation")
	}
	return nil
}

// checkOwn validates m as the receiver of a data-moving method.
func (m *Matrix[T]) checkOwn(op string) error {
	if m == nil {
		return argErr(op, "m", "nil matrix")
	}
	return m.check(m.q, op, "m")
}

// Upload copies src, which holds the matrices packed (rows*cols*batch elements,
// column-major, batch-major), into m. Elements of m outside its rows and columns (ld > rows,
// stride > ld*cols) are not touched.
func (m *Matrix[T]) Upload(src []T) error {
	const op = "Upload"
	if err := m.checkOwn(op); err != nil {
		return err
	}
	if len(src) != m.rows*m.cols*m.batch {
		return argErr(op, "src", "length %d != rows*cols*batch = %d", len(src), m.rows*m.cols*m.batch)
	}
	if m.data != nil {
		m.eachColumn(func(k, e int) { copy(m.data[e:e+m.rows], src[k:]) })
		return nil
	}
	return m.deviceCopy(src, true)
}

// Download copies m into dst, packed, and returns it; dst nil or too short is replaced by a
// new slice.
func (m *Matrix[T]) Download(dst []T) ([]T, error) {
	const op = "Download"
	if err := m.checkOwn(op); err != nil {
		return nil, err
	}
	n := m.rows * m.cols * m.batch
	if len(dst) < n {
		dst = make([]T, n)
	}
	dst = dst[:n]
	if m.data != nil {
		m.eachColumn(func(k, e int) { copy(dst[k:k+m.rows], m.data[e:]) })
		return dst, nil
	}
	return dst, m.deviceCopy(dst, false)
}

// eachColumn calls f with the packed offset and the storage offset of every column.
func (m *Matrix[T]) eachColumn(f func(packed, stored int)) {
	if m.extent() == 0 {
		return // no storage: the offsets of a 0-row matrix's columns point past it
	}
	k := 0
	for b := 0; b < m.batch; b++ {
		for j := 0; j < m.cols; j++ {
			f(k, m.off+b*m.strd+j*m.ld)
			k += m.rows
		}
	}
}

// deviceCopy moves packed host data to or from a device matrix. Contiguous storage (packed,
// or one matrix with ld == rows) moves in one copy; otherwise the whole span is staged so
// that elements between columns survive.
func (m *Matrix[T]) deviceCopy(host []T, up bool) error {
	d := m.q.eng.(devEngine)
	if len(host) == 0 {
		return nil
	}
	es := sizeOf[T]()
	base := m.mem.ptr + uintptr(m.off*es)
	if m.ld == m.rows && (m.batch == 1 || m.strd == m.rows*m.cols) {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&host[0])), len(host)*es)
		if up {
			return d.upload(base, b)
		}
		return d.download(b, base)
	}
	span := make([]T, m.extent())
	sb := unsafe.Slice((*byte)(unsafe.Pointer(&span[0])), len(span)*es)
	if err := d.download(sb, base); err != nil {
		return err
	}
	if !up {
		m.eachColumn(func(k, e int) { e -= m.off; copy(host[k:k+m.rows], span[e:]) })
		return nil
	}
	m.eachColumn(func(k, e int) { e -= m.off; copy(span[e:e+m.rows], host[k:]) })
	return d.upload(base, sb)
}

// devPtr is the device address of element (0, 0) of matrix 0.
func (m *Matrix[T]) devPtr() uintptr { return m.mem.ptr + uintptr(m.off*sizeOf[T]()) }

// devAt is the device address of matrix b of the batch.
func (m *Matrix[T]) devAt(b int) uintptr { return m.devPtr() + uintptr(b*m.strd*sizeOf[T]()) }

// mat is matrix b's storage on a host queue, from its element (0, 0) to the end of the
// allocation; empty for an empty matrix, whose stride may point past the allocation.
func (m *Matrix[T]) mat(b int) []T {
	if k := m.off + b*m.strd; k < len(m.data) {
		return m.data[k:]
	}
	return nil
}

// String describes the matrix's layout.
func (m *Matrix[T]) String() string {
	if m == nil {
		return fmt.Sprintf("Matrix[%s](nil)", dtypeName[T]())
	}
	return fmt.Sprintf("Matrix[%s](%dx%d ld=%d stride=%d batch=%d)", dtypeName[T](), m.rows, m.cols, m.ld, m.strd, m.batch)
}

// Vector is a packed array on a queue's device: per-matrix vectors (eigenvalues, singular
// values, tau, pivots, info) laid end to end, matrix b's part starting at b times its length.
type Vector[E Element] struct {
	q    *Queue
	mem  *allocation
	data []E
	off  int
	n    int
}

// NewVector allocates a vector of n elements on q.
func NewVector[E Element](q *Queue, n int) (*Vector[E], error) {
	const op = "NewVector"
	if err := q.usable(op); err != nil {
		return nil, err
	}
	if n < 0 || n > maxElements/sizeOf[E]() {
		return nil, argErr(op, "n", "length %d out of range", n)
	}
	if err := q.fits(op, "n", n*sizeOf[E]()); err != nil {
		return nil, err
	}
	mem, err := newAllocation(q, op, n*sizeOf[E]())
	if err != nil {
		return nil, err
	}
	v := &Vector[E]{q: q, mem: mem, n: n}
	if _, dev := q.eng.(devEngine); !dev {
		v.data = make([]E, n)
	}
	return v, nil
}

// Len is the number of elements; 0 for a nil vector.
func (v *Vector[E]) Len() int {
	if v == nil {
		return 0
	}
	return v.n
}

// Queue is the queue the vector lives on; nil for a nil vector.
func (v *Vector[E]) Queue() *Queue {
	if v == nil {
		return nil
	}
	return v.q
}

// Slice returns elements from, ..., to-1, sharing memory with v.
func (v *Vector[E]) Slice(from, to int) (*Vector[E], error) {
	const op = "Slice"
	if err := v.usable(op, "v"); err != nil {
		return nil, err
	}
	if from < 0 || to < from || to > v.n {
		return nil, argErr(op, "from, to", "range [%d, %d) outside length %d", from, to, v.n)
	}
	w := *v
	w.off += from
	w.n = to - from
	return &w, nil
}

// Free releases the vector's memory, and that of every slice sharing it.
func (v *Vector[E]) Free() error {
	if err := v.usable("Free", "v"); err != nil {
		return err
	}
	v.data = nil
	return v.mem.free()
}

func (v *Vector[E]) usable(op, name string) error {
	if v == nil {
		return argErr(op, name, "nil vector")
	}
	if v.q == nil || v.mem == nil {
		return argErr(op, name, "vector not made by NewVector")
	}
	if err := v.q.usable(op); err != nil {
		return err
	}
	if v.mem.freed.Load() {
		return argErr(op, name, "vector memory was freed")
	}
	return nil
}

// check validates v as an argument of an operation on q that uses its first need elements.
func (v *Vector[E]) check(q *Queue, op, name string, need int) error {
	if err := v.usable(op, name); err != nil {
		return err
	}
	if v.q != q {
		return argErr(op, name, "vector belongs to another queue")
	}
	if v.off < 0 || v.n < 0 || v.off+v.n > v.mem.bytes/sizeOf[E]() {
		return argErr(op, name, "layout reaches outside its allocation")
	}
	if v.n < need {
		return argErr(op, name, "length %d < %d", v.n, need)
	}
	return nil
}

// checkOwn validates v as the receiver of a data-moving method.
func (v *Vector[E]) checkOwn(op string) error {
	if v == nil {
		return argErr(op, "v", "nil vector")
	}
	return v.check(v.q, op, "v", 0)
}

// Upload copies src into the vector; len(src) must equal Len.
func (v *Vector[E]) Upload(src []E) error {
	const op = "Upload"
	if err := v.checkOwn(op); err != nil {
		return err
	}
	if len(src) != v.n {
		return argErr(op, "src", "length %d != vector length %d", len(src), v.n)
	}
	if v.data != nil {
		copy(v.data[v.off:], src)
		return nil
	}
	if v.n == 0 {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), v.n*sizeOf[E]())
	return v.q.eng.(devEngine).upload(v.devPtr(), b)
}

// Download copies the vector into dst and returns it; dst nil or too short is replaced.
func (v *Vector[E]) Download(dst []E) ([]E, error) {
	const op = "Download"
	if err := v.checkOwn(op); err != nil {
		return nil, err
	}
	if len(dst) < v.n {
		dst = make([]E, v.n)
	}
	dst = dst[:v.n]
	if v.data != nil {
		copy(dst, v.data[v.off:])
		return dst, nil
	}
	if v.n == 0 {
		return dst, nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), v.n*sizeOf[E]())
	return dst, v.q.eng.(devEngine).download(b, v.devPtr())
}

func (v *Vector[E]) devPtr() uintptr { return v.mem.ptr + uintptr(v.off*sizeOf[E]()) }

// host is the vector's storage on a host queue.
func (v *Vector[E]) host() []E { return v.data[v.off : v.off+v.n] }

// UploadRaw copies src into m's storage span in m's own layout: element (i, j) of matrix b
// is src[b*Stride() + j*LD() + i], and the elements between columns and between matrices
// are copied too. len(src) must be the span's length, (batch-1)*stride + (cols-1)*ld + rows
// (0 for an empty matrix).
func (m *Matrix[T]) UploadRaw(src []T) error {
	const op = "UploadRaw"
	if err := m.checkOwn(op); err != nil {
		return err
	}
	if len(src) != m.extent() {
		return argErr(op, "src", "length %d != span %d", len(src), m.extent())
	}
	if len(src) == 0 {
		return nil
	}
	if m.data != nil {
		copy(m.data[m.off:], src)
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), len(src)*sizeOf[T]())
	return m.q.eng.(devEngine).upload(m.devPtr(), b)
}

// DownloadRaw copies m's storage span, in m's own layout, into dst and returns it; dst nil
// or too short is replaced by a new slice.
func (m *Matrix[T]) DownloadRaw(dst []T) ([]T, error) {
	const op = "DownloadRaw"
	if err := m.checkOwn(op); err != nil {
		return nil, err
	}
	n := m.extent()
	if len(dst) < n {
		dst = make([]T, n)
	}
	dst = dst[:n]
	if n == 0 {
		return dst, nil
	}
	if m.data != nil {
		copy(dst, m.data[m.off:])
		return dst, nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), n*sizeOf[T]())
	return dst, m.q.eng.(devEngine).download(b, m.devPtr())
}
