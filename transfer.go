package batchlas

import "fmt"

// Order is the layout of host data: column-major as in LAPACK and this package, or
// row-major as in Go's [][]T habits and gonum's General types.
type Order byte

const (
	ColMajor Order = 'C' // element (i, j) at j*ld + i
	RowMajor Order = 'R' // element (i, j) at i*ld + j
)

func (o Order) valid() bool { return o == ColMajor || o == RowMajor }

func (o Order) String() string {
	if o.valid() {
		return string(rune(o))
	}
	return fmt.Sprintf("Order(%d)", byte(o))
}

// UploadMatrix copies src into matrix b of m alone; the other matrices are neither read nor
// written, and on a device queue only matrix b's storage moves. Element (i, j) is
// src[j*ld + i] in ColMajor order and src[i*ld + j] in RowMajor order; ld 0 means packed
// (rows or cols). len(src) must reach the last element.
func (m *Matrix[T]) UploadMatrix(b int, order Order, src []T, ld int) error {
	return m.putMatrix("UploadMatrix", "src", b, order, src, ld)
}

// DownloadMatrix copies matrix b of m alone into dst, in order with leading dimension ld
// (0: packed), and returns it; dst nil or too short is replaced by a new slice. Elements of
// dst between the rows or columns are not touched. On a device queue only matrix b's storage
// moves.
func (m *Matrix[T]) DownloadMatrix(b int, order Order, dst []T, ld int) ([]T, error) {
	return m.getMatrix("DownloadMatrix", b, order, dst, ld)
}

func (m *Matrix[T]) putMatrix(op, arg string, b int, order Order, src []T, ld int) error {
	one, ld, err := m.oneMatrix(op, arg, b, order, ld, len(src))
	if err != nil {
		return err
	}
	if order == ColMajor && ld == m.rows {
		return one.Upload(src[:m.rows*m.cols])
	}
	packed := make([]T, m.rows*m.cols)
	repack(packed, m.rows, src, ld, order, true)
	return one.Upload(packed)
}

func (m *Matrix[T]) getMatrix(op string, b int, order Order, dst []T, ld int) ([]T, error) {
	one, ld, err := m.oneMatrix(op, "dst", b, order, ld, -1)
	if err != nil {
		return nil, err
	}
	if n := hostSpan(order, m.rows, m.cols, ld); len(dst) < n {
		dst = make([]T, n)
	}
	if order == ColMajor && ld == m.rows {
		_, err := one.Download(dst[:m.rows*m.cols])
		return dst, err
	}
	packed, err := one.Download(nil)
	if err != nil {
		return nil, err
	}
	repack(packed, m.rows, dst, ld, order, false)
	return dst, nil
}

// UploadRowMajor copies src, which holds the matrices packed in row-major order (element
// (i, j) of matrix b at b*rows*cols + i*cols + j), into m, transposing on the host. It is
// Upload for data laid out as gonum's and C's matrices are.
func (m *Matrix[T]) UploadRowMajor(src []T) error {
	const op = "UploadRowMajor"
	if err := m.checkOwn(op); err != nil {
		return err
	}
	k := m.rows * m.cols
	if len(src) != k*m.batch {
		return argErr(op, "src", "length %d != rows*cols*batch = %d", len(src), k*m.batch)
	}
	return m.putAll(func(b int) ([]T, int) { return src[b*k:], m.cols })
}

// DownloadRowMajor copies m into dst packed in row-major order (UploadRowMajor's layout) and
// returns it; dst nil or too short is replaced by a new slice.
func (m *Matrix[T]) DownloadRowMajor(dst []T) ([]T, error) {
	if err := m.checkOwn("DownloadRowMajor"); err != nil {
		return nil, err
	}
	k := m.rows * m.cols
	if len(dst) < k*m.batch {
		dst = make([]T, k*m.batch)
	}
	dst = dst[:k*m.batch]
	return dst, m.getAll(func(b int) ([]T, int) { return dst[b*k:], m.cols })
}

// putAll uploads the whole batch in one copy from row-major host matrices: part(b) is
// matrix b's data and leading dimension. The caller has checked m and the parts' shapes.
func (m *Matrix[T]) putAll(part func(b int) ([]T, int)) error {
	k := m.rows * m.cols
	packed := make([]T, k*m.batch)
	for b := 0; b < m.batch && k > 0; b++ {
		h, ld := part(b)
		repack(packed[b*k:(b+1)*k], m.rows, h, ld, RowMajor, true)
	}
	return m.Upload(packed)
}

// getAll downloads the whole batch in one copy into row-major host matrices, as putAll.
func (m *Matrix[T]) getAll(part func(b int) ([]T, int)) error {
	packed, err := m.Download(nil)
	if err != nil {
		return err
	}
	k := m.rows * m.cols
	for b := 0; b < m.batch && k > 0; b++ {
		h, ld := part(b)
		repack(packed[b*k:(b+1)*k], m.rows, h, ld, RowMajor, false)
	}
	return nil
}

// oneMatrix checks the arguments of a one-matrix copy and returns matrix b as a view, with
// ld resolved. have is the length of the host slice named host, or -1 when it may be
// replaced.
func (m *Matrix[T]) oneMatrix(op, host string, b int, order Order, ld int, have int) (*Matrix[T], int, error) {
	if err := m.checkOwn(op); err != nil {
		return nil, 0, err
	}
	if b < 0 || b >= m.batch {
		return nil, 0, argErr(op, "b", "matrix %d outside batch %d", b, m.batch)
	}
	if !order.valid() {
		return nil, 0, argErr(op, "order", "%v is not ColMajor or RowMajor", order)
	}
	inner := m.rows
	if order == RowMajor {
		inner = m.cols
	}
	if ld == 0 {
		ld = max(1, inner)
	}
	if ld < max(1, inner) {
		return nil, 0, argErr(op, "ld", "ld %d < %d in %v order", ld, max(1, inner), order)
	}
	if n := hostSpan(order, m.rows, m.cols, ld); have >= 0 && have < n {
		return nil, 0, argErr(op, host, "length %d < %d", have, n)
	}
	v := *m
	v.off += b * m.strd
	v.batch = 1
	return &v, ld, nil
}

// hostSpan is the length of host data holding a rows-by-cols matrix in order with leading
// dimension ld: up to one past its last element.
func hostSpan(order Order, rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	if order == RowMajor {
		return (rows-1)*ld + cols
	}
	return (cols-1)*ld + rows
}

// repack moves one matrix between packed column-major data p (rows rows) and h, laid out in
// order with leading dimension ld: from h into p when in is true, else from p into h.
func repack[T any](p []T, rows int, h []T, ld int, order Order, in bool) {
	if rows == 0 {
		return
	}
	cols := len(p) / rows
	for j := 0; j < cols; j++ {
		for i := 0; i < rows; i++ {
			k := j*ld + i
			if order == RowMajor {
				k = i*ld + j
			}
			if in {
				p[j*rows+i] = h[k]
			} else {
				h[k] = p[j*rows+i]
			}
		}
	}
}

// Part returns matrix b's part of a vector that holds per elements per matrix (eigenvalues,
// singular values, tau, pivots, info): elements b*per, ..., (b+1)*per-1, sharing memory
// with v. Its Download reads only that part.
func (v *Vector[E]) Part(b, per int) (*Vector[E], error) {
	const op = "Part"
	if err := v.usable(op, "v"); err != nil {
		return nil, err
	}
	if per < 0 || b < 0 || per > 0 && b >= v.n/per {
		return nil, argErr(op, "b, per", "part %d of %d elements outside length %d", b, per, v.n)
	}
	return v.Slice(b*per, (b+1)*per)
}

// DownloadParts downloads the first per*k elements of v, k = Len/per, as k slices of per
// elements each, slice b being matrix b's part; they share one backing array.
func (v *Vector[E]) DownloadParts(per int) ([][]E, error) {
	const op = "DownloadParts"
	if err := v.usable(op, "v"); err != nil {
		return nil, err
	}
	if per <= 0 {
		return nil, argErr(op, "per", "per %d <= 0", per)
	}
	head, err := v.Slice(0, v.n/per*per)
	if err != nil {
		return nil, err
	}
	all, err := head.Download(nil)
	if err != nil {
		return nil, err
	}
	parts := make([][]E, v.n/per)
	for b := range parts {
		parts[b] = all[b*per : (b+1)*per : (b+1)*per]
	}
	return parts, nil
}
