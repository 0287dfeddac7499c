package batchlas

import (
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// CSR is a batch of sparse matrices in compressed sparse row form on one queue's device, the
// sparse operand of Spmm. Every matrix is rows-by-cols; each has its own pattern and its own
// number of stored entries (nnz).
//
// Row i of matrix b holds the entries (i, colIdx[b][p]) = values[b][p] for p from
// rowPtr[b][i] to rowPtr[b][i+1]-1, with zero-based column indices. Within a row the column
// indices may come in any order and a column may repeat; repeated entries add up, so the
// matrix is the sum of its stored entries, as in a finite-element assembly. (The vendor family
// of Spmm takes only rows whose indices strictly increase, cuSPARSE's form; the other
// families take any.)
//
// NewCSR and CSRFromDense copy the data to the device; a CSR is not changed afterwards. Beside
// the rows it keeps the same entries ordered by column (the transpose's compressed rows, in
// row order within each column, built once at construction), so that op(A) = A^T and A^H
// are gathers as deterministic as op(A) = A; that costs about twice the memory of the rows.
type CSR[T Scalar] struct {
	q          *Queue
	mem        *allocation
	rows, cols int
	batch      int
	// start[b] is the position of matrix b's first entry in the batch's entry arrays;
	// start[batch] is the batch's total.
	start []int64
	// canonical: the column indices of every row strictly increase (sorted, no repeats).
	canonical bool
	// sameRows: every matrix has the row pointers of the first (as many entries in each
	// row), the one batched form cuSPARSE's SpMM computes right (vendor_cusparse.go).
	sameRows bool
	arr      csrArrays[T] // on a host queue: the arrays; on a device queue: nil slices
	dev      csrDevice    // on a device queue: where the arrays live
}

// csrArrays are a CSR's arrays. The row (and column) pointers are positions in the batch's
// entry arrays, not in the matrix's own: matrix b's row i is [rowPtr[b*(rows+1)+i],
// rowPtr[b*(rows+1)+i+1]).
type csrArrays[T Scalar] struct {
	rowPtr  []int64 // batch*(rows+1)
	colIdx  []int32 // the entries' columns, matrix after matrix
	values  []T
	colPtr  []int64 // batch*(cols+1): the entries in column order
	rowIdx  []int32 // their rows
	valuesT []T     // their values
}

// csrDevice holds the device addresses of a CSR's arrays, and rowOff: each matrix's own row
// pointers as NewCSR took them (int32, starting at 0), the form cuSPARSE reads.
type csrDevice struct {
	rowPtr, colIdx, values, colPtr, rowIdx, valuesT, rowOff uintptr
}

// NewCSR copies a batch of len(rowPtr) sparse rows-by-cols matrices onto q: matrix b is
// rowPtr[b] (rows+1 pointers), colIdx[b] and values[b] (its nnz entries), as CSR describes.
// The slices are not kept.
//
// Errors (a wrapped ErrInvalidArgument naming the first offending matrix and position, and
// nothing allocated): negative rows or cols, or more than 2^31-2; colIdx or values of another
// batch size; a row pointer array not of length rows+1, not starting at 0, decreasing, or
// past its matrix's nnz = len(colIdx[b]), or not ending at it; values[b] of another length
// than colIdx[b]; a column index outside [0, cols).
func NewCSR[T Scalar](q *Queue, rows, cols int, rowPtr, colIdx [][]int32, values [][]T) (*CSR[T], error) {
	const op = "NewCSR"
	if err := q.usable(op); err != nil {
		return nil, err
	}
	if err := csrSizeErr(op, rows, cols); err != nil {
		return nil, err
	}
	switch batch := len(rowPtr); {
	case len(colIdx) != batch:
		return nil, argErr(op, "colIdx", "batch %d != batch of rowPtr %d", len(colIdx), batch)
	case len(values) != batch:
		return nil, argErr(op, "values", "batch %d != batch of rowPtr %d", len(values), batch)
	}
	for b := range rowPtr {
		if err := csrMatrixErr(op, b, rows, cols, rowPtr[b], colIdx[b], len(values[b])); err != nil {
			return nil, err
		}
	}
	a := newCSRHost[T](q, rows, cols, len(rowPtr))
	for b := range rowPtr {
		a.start[b+1] = a.start[b] + int64(len(colIdx[b]))
	}
	if err := a.checkTotal(op); err != nil {
		return nil, err
	}
	a.fill(func(b int) ([]int32, []int32, []T) { return rowPtr[b], colIdx[b], values[b] })
	if err := a.place(op); err != nil {
		return nil, err
	}
	return a, nil
}

// CSRFromDense copies the nonzero elements of batch rows-by-cols dense matrices onto q as a
// CSR, with sorted column indices; dense holds the matrices packed, column-major and
// batch-major as Matrix.Upload takes them (rows*cols*batch elements). NaN is not zero, so it
// is kept.
//
// Errors (a wrapped ErrInvalidArgument): negative sizes, rows or cols above 2^31-2, or a
// dense slice of another length.
func CSRFromDense[T Scalar](q *Queue, rows, cols, batch int, dense []T) (*CSR[T], error) {
	const op = "CSRFromDense"
	if err := q.usable(op); err != nil {
		return nil, err
	}
	if err := csrSizeErr(op, rows, cols); err != nil {
		return nil, err
	}
	if batch < 0 {
		return nil, argErr(op, "batch", "negative batch %d", batch)
	}
	if per := rows * cols; per > 0 && batch > len(dense)/per || len(dense) != per*batch {
		return nil, argErr(op, "dense", "length %d != rows*cols*batch = %d*%d*%d", len(dense), rows, cols, batch)
	}
	rowPtr, colIdx, values := make([][]int32, batch), make([][]int32, batch), make([][]T, batch)
	for b := range batch {
		d := dense[b*rows*cols : (b+1)*rows*cols]
		rp := make([]int32, rows+1)
		for i := range rows {
			for j := range cols {
				if v := d[j*rows+i]; v != 0 {
					colIdx[b] = append(colIdx[b], int32(j))
					values[b] = append(values[b], v)
				}
			}
			rp[i+1] = int32(len(colIdx[b]))
		}
		rowPtr[b] = rp
	}
	return NewCSR(q, rows, cols, rowPtr, colIdx, values)
}

// csrMaxDim bounds rows and cols: indices and per-matrix row pointers are int32.
const csrMaxDim = math.MaxInt32 - 1

func csrSizeErr(op string, rows, cols int) error {
	if rows < 0 || cols < 0 || rows > csrMaxDim || cols > csrMaxDim {
		return argErr(op, "rows, cols", "size %dx%d outside [0, %d]", rows, cols, csrMaxDim)
	}
	return nil
}

// csrMatrixErr checks matrix b: its row pointers, the length of its values, its columns.
func csrMatrixErr(op string, b, rows, cols int, rowPtr, colIdx []int32, nvalues int) error {
	nnz := len(colIdx)
	if len(rowPtr) != rows+1 {
		return argErr(op, "rowPtr", "rowPtr[%d] has length %d, want rows+1 = %d", b, len(rowPtr), rows+1)
	}
	if rowPtr[0] != 0 {
		return argErr(op, "rowPtr", "rowPtr[%d][0] = %d, want 0", b, rowPtr[0])
	}
	for i := 1; i <= rows; i++ {
		switch p := rowPtr[i]; {
		case p < rowPtr[i-1]:
			return argErr(op, "rowPtr", "rowPtr[%d][%d] = %d < rowPtr[%d][%d] = %d: row pointers decrease", b, i, p, b, i-1, rowPtr[i-1])
		case int(p) > nnz:
			return argErr(op, "rowPtr", "rowPtr[%d][%d] = %d is past nnz = len(colIdx[%d]) = %d", b, i, p, b, nnz)
		}
	}
	if int(rowPtr[rows]) != nnz {
		return argErr(op, "rowPtr", "rowPtr[%d][%d] = %d, want nnz = len(colIdx[%d]) = %d", b, rows, rowPtr[rows], b, nnz)
	}
	if nvalues != nnz {
		return argErr(op, "values", "values[%d] has length %d != len(colIdx[%d]) = %d", b, nvalues, b, nnz)
	}
	for p, j := range colIdx {
		if j < 0 || int(j) >= cols {
			return argErr(op, "colIdx", "colIdx[%d][%d] = %d is out of range [0, %d)", b, p, j, cols)
		}
	}
	return nil
}

func newCSRHost[T Scalar](q *Queue, rows, cols, batch int) *CSR[T] {
	return &CSR[T]{q: q, rows: rows, cols: cols, batch: batch, start: make([]int64, batch+1), canonical: true, sameRows: true}
}

// checkTotal refuses a batch whose arrays would not fit in memory.
func (a *CSR[T]) checkTotal(op string) error {
	per := int64(2 * (4 + sizeOf[T]()))
	ptrs := int64(a.batch) * int64(a.rows+a.cols+2)
	if a.start[a.batch] > maxElements/per || ptrs > maxElements/12 {
		return argErr(op, "values", "%d entries in %d matrices do not fit in memory", a.start[a.batch], a.batch)
	}
	return nil
}

// fill builds the host arrays from each matrix's own (validated) arrays, and the column
// order: a counting sort by column, stable, so that each column lists its rows in increasing
// order and a repeated (row, column) keeps its stored order.
func (a *CSR[T]) fill(matrix func(b int) (rowPtr, colIdx []int32, values []T)) {
	total := a.start[a.batch]
	r := csrArrays[T]{rowPtr: make([]int64, a.batch*(a.rows+1)), colIdx: make([]int32, 0, total), values: make([]T, 0, total),
		colPtr: make([]int64, a.batch*(a.cols+1)), rowIdx: make([]int32, total), valuesT: make([]T, total)}
	var first []int32 // matrix 0's row pointers
	for b := range a.batch {
		rp, ci, vs := matrix(b)
		if b == 0 {
			first = rp
		} else if !slices.Equal(rp, first) {
			a.sameRows = false
		}
		base := a.start[b]
		r.colIdx = append(r.colIdx, ci...)
		r.values = append(r.values, vs...)
		ptr, cp := r.rowPtr[b*(a.rows+1):(b+1)*(a.rows+1)], r.colPtr[b*(a.cols+1):(b+1)*(a.cols+1)]
		for i, p := range rp {
			ptr[i] = base + int64(p)
		}
		for _, j := range ci {
			cp[j+1]++
		}
		cp[0] = base
		for j := 1; j <= a.cols; j++ {
			cp[j] += cp[j-1]
		}
		next := append([]int64(nil), cp[:a.cols]...)
		for i := range a.rows {
			for p := rp[i]; p < rp[i+1]; p++ {
				j := ci[p]
				if p > rp[i] && j <= ci[p-1] {
					a.canonical = false
				}
				r.rowIdx[next[j]] = int32(i)
				r.valuesT[next[j]] = vs[p]
				next[j]++
			}
		}
	}
	a.arr = r
}

// place keeps the arrays on a host queue, or copies them into one allocation on a device
// queue and drops the host copy.
func (a *CSR[T]) place(op string) error {
	r := &a.arr
	d, dev := a.q.eng.(devEngine)
	var rowOff []int32
	if dev {
		rowOff = make([]int32, len(r.rowPtr))
		for b := range a.batch {
			for i := 0; i <= a.rows; i++ {
				k := b*(a.rows+1) + i
				rowOff[k] = int32(r.rowPtr[k] - a.start[b])
			}
		}
	}
	parts := [][]byte{bytesOf(r.rowPtr), bytesOf(r.colIdx), bytesOf(r.values), bytesOf(r.colPtr), bytesOf(r.rowIdx),
		bytesOf(r.valuesT), bytesOf(rowOff)}
	total := 0
	for _, p := range parts {
		total += alignUp(len(p), 256)
	}
	mem, err := newAllocation(a.q, op, total)
	if err != nil {
		return err
	}
	a.mem = mem
	if !dev {
		return nil
	}
	ptrs := []*uintptr{&a.dev.rowPtr, &a.dev.colIdx, &a.dev.values, &a.dev.colPtr, &a.dev.rowIdx, &a.dev.valuesT, &a.dev.rowOff}
	off := 0
	for i, p := range parts {
		*ptrs[i] = mem.ptr + uintptr(off)
		if len(p) > 0 {
			if err := d.upload(*ptrs[i], p); err != nil {
				mem.free()
				return err
			}
		}
		off += alignUp(len(p), 256)
	}
	a.arr = csrArrays[T]{}
	return nil
}

// alignUp rounds n up to a multiple of a.
func alignUp(n, a int) int { return (n + a - 1) / a * a }

// bytesOf views a slice's elements as bytes.
func bytesOf[E any](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// Rows is the number of rows of each matrix.
func (a *CSR[T]) Rows() int { return a.rows }

// Cols is the number of columns of each matrix.
func (a *CSR[T]) Cols() int { return a.cols }

// Batch is the number of matrices.
func (a *CSR[T]) Batch() int { return a.batch }

// Queue is the queue the matrices live on.
func (a *CSR[T]) Queue() *Queue { return a.q }

// NNZ returns each matrix's number of stored entries (repeats included).
func (a *CSR[T]) NNZ() []int {
	n := make([]int, a.batch)
	for b := range n {
		n[b] = int(a.start[b+1] - a.start[b])
	}
	return n
}

// String describes the batch.
func (a *CSR[T]) String() string {
	total := int64(0)
	if len(a.start) > 0 { // a CSR not made by NewCSR has none
		total = a.start[a.batch]
	}
	return fmt.Sprintf("CSR[%s](%dx%d batch=%d nnz=%d)", dtypeName[T](), a.rows, a.cols, a.batch, total)
}

// Free releases the matrices' memory. Using a afterwards returns an error.
func (a *CSR[T]) Free() error {
	if err := a.usable("Free", "a"); err != nil {
		return err
	}
	a.arr = csrArrays[T]{}
	return a.mem.free()
}

func (a *CSR[T]) usable(op, name string) error {
	if a == nil {
		return argErr(op, name, "nil CSR")
	}
	if a.q == nil || a.mem == nil {
		return argErr(op, name, "CSR not made by NewCSR or CSRFromDense")
	}
	if err := a.q.usable(op); err != nil {
		return err
	}
	if a.mem.freed.Load() {
		return argErr(op, name, "CSR memory was freed")
	}
	return nil
}

// check validates a as an argument of an operation on q.
func (a *CSR[T]) check(q *Queue, op, name string) error {
	if err := a.usable(op, name); err != nil {
		return err
	}
	if a.q != q {
		return argErr(op, name, "CSR belongs to another queue")
	}
	return nil
}

// Download returns copies of the matrices' arrays as NewCSR takes them: each matrix's row
// pointers from 0, its column indices and values in their stored order.
func (a *CSR[T]) Download() (rowPtr, colIdx [][]int32, values [][]T, err error) {
	if err := a.usable("Download", "a"); err != nil {
		return nil, nil, nil, err
	}
	total := a.start[a.batch]
	ptr, ci, vs := a.arr.rowPtr, a.arr.colIdx, a.arr.values
	if d, ok := a.q.eng.(devEngine); ok {
		ptr, ci, vs = make([]int64, a.batch*(a.rows+1)), make([]int32, total), make([]T, total)
		for _, c := range []struct {
			dst []byte
			src uintptr
		}{{bytesOf(ptr), a.dev.rowPtr}, {bytesOf(ci), a.dev.colIdx}, {bytesOf(vs), a.dev.values}} {
			if len(c.dst) > 0 {
				if err := d.download(c.dst, c.src); err != nil {
					return nil, nil, nil, err
				}
			}
		}
	}
	rowPtr, colIdx, values = make([][]int32, a.batch), make([][]int32, a.batch), make([][]T, a.batch)
	for b := range a.batch {
		lo, hi := a.start[b], a.start[b+1]
		rowPtr[b] = make([]int32, a.rows+1)
		for i := range rowPtr[b] {
			rowPtr[b][i] = int32(ptr[b*(a.rows+1)+i] - lo)
		}
		colIdx[b] = append([]int32{}, ci[lo:hi]...)
		values[b] = append([]T{}, vs[lo:hi]...)
	}
	return rowPtr, colIdx, values, nil
}
