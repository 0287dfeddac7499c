package tests

import (
	"errors"
	"testing"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
)

// TestNilReceivers calls every exported method of Matrix, Vector and Queue on a nil and on
// a zero value (not made by NewMatrix, NewVector or NewQueue): the accessors answer zero
// values, everything else an invalid-argument error naming the receiver; nothing panics.
func TestNilReceivers(t *testing.T) {
	for name, m := range map[string]*batchlas.Matrix[complex64]{"nil": nil, "zero": {}} {
		t.Run(name+" matrix", func(t *testing.T) {
			WantArgErr(t, m.Upload(nil), "m")
			WantArgErr(t, m.UploadRaw(nil), "m")
			_, err := m.Download(nil)
			WantArgErr(t, err, "m")
			_, err = m.DownloadRaw(nil)
			WantArgErr(t, err, "m")
			_, err = m.View(0, 0, 0, 0)
			WantArgErr(t, err, "m")
			_, err = m.Slice(0, 0)
			WantArgErr(t, err, "m")
			WantArgErr(t, m.Free(), "m")
			if m.Rows()|m.Cols()|m.LD()|m.Stride()|m.Batch() != 0 || m.Queue() != nil {
				t.Errorf("accessors of a %s matrix: %d %d %d %d %d %v", name, m.Rows(), m.Cols(), m.LD(), m.Stride(), m.Batch(), m.Queue())
			}
			_ = m.String()
		})
	}
	for name, v := range map[string]*batchlas.Vector[int32]{"nil": nil, "zero": {}} {
		t.Run(name+" vector", func(t *testing.T) {
			WantArgErr(t, v.Upload(nil), "v")
			_, err := v.Download(nil)
			WantArgErr(t, err, "v")
			_, err = v.Slice(0, 0)
			WantArgErr(t, err, "v")
			WantArgErr(t, v.Free(), "v")
			if v.Len() != 0 || v.Queue() != nil {
				t.Errorf("accessors of a %s vector: %d %v", name, v.Len(), v.Queue())
			}
		})
	}
	for name, q := range map[string]*batchlas.Queue{"nil": nil, "zero": {}} {
		t.Run(name+" queue", func(t *testing.T) {
			WantArgErr(t, q.Wait(), "q")
			WantArgErr(t, q.Reserve(8), "q")
			_, _, err := q.MemInfo()
			WantArgErr(t, err, "q")
			_, err = q.Elapsed(func() error { return nil })
			WantArgErr(t, err, "q")
			_, err = batchlas.NewMatrix[float64](q, 2, 2, 1)
			WantArgErr(t, err, "q")
			_, err = batchlas.NewMatrixStrided[float64](q, 2, 2, 3, 7, 1)
			WantArgErr(t, err, "q")
			_, err = batchlas.NewVector[float64](q, 2)
			WantArgErr(t, err, "q")
			if d := q.Device(); d != (batchlas.Device{}) || q.Backend() != batchlas.Auto || q.WorkspaceSize() != 0 {
				t.Errorf("accessors of a %s queue: %+v %v %d", name, d, q.Backend(), q.WorkspaceSize())
			}
			if err := q.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			for op, err := range nilCalls(q) {
				WantArgErr(t, err, "q")
				if err == nil {
					t.Errorf("%s on a %s queue: no error", op, name)
				}
			}
		})
	}
	q, _ := ArgQueues(t)
	_, err := q.Elapsed(nil)
	WantArgErr(t, err, "f")
	// Every op with a live queue and nil (or, for optional outputs, absent) data.
	for op, err := range nilCalls(q) {
		if !errors.Is(err, batchlas.ErrInvalidArgument) {
			t.Errorf("%s with nil matrices: %v, want an invalid-argument error", op, err)
		}
	}
	// The zero values of the routing functions' arguments.
	_, err = route.Pin("", "")
	WantArgErr(t, err, "op")
	_, _, err = route.Candidates("", "")
	WantArgErr(t, err, "op")
	_, _, err = route.Candidates("potrf", "")
	WantArgErr(t, err, "dtype")
	restore := route.SetLog(nil) // nil: the trace goes nowhere, and nothing panics
	setEnv(t, "BATCHLAS_SELECT_TRACE", "1")
	if err := pinnedSuites["potrf"].probe(q); err != nil {
		t.Errorf("a traced call with the route log set to nil: %v", err)
	}
	restore()
}

// nilCalls calls every op (and its BufferSize) on q with nil matrices and vectors.
func nilCalls(q *batchlas.Queue) map[string]error {
	type M = *batchlas.Matrix[float64]
	type V = *batchlas.Vector[float64]
	type I = *batchlas.Vector[int32]
	L, U, N, Lf := batchlas.Lower, batchlas.Upper, batchlas.NoTrans, batchlas.Left
	size := func(_ int, err error) error { return err }
	return map[string]error{
		"Gemm":            batchlas.Gemm(q, N, N, 1, M(nil), nil, 0, nil),
		"GemmBufferSize":  size(batchlas.GemmBufferSize(q, N, N, 1, M(nil), nil, 0, nil)),
		"Gemv":            batchlas.Gemv(q, N, 1, M(nil), V(nil), 0, nil),
		"GemvBufferSize":  size(batchlas.GemvBufferSize(q, N, 1, M(nil), V(nil), 0, nil)),
		"Trsm":            batchlas.Trsm(q, Lf, L, N, batchlas.NonUnit, 1, M(nil), nil),
		"TrsmBufferSize":  size(batchlas.TrsmBufferSize(q, Lf, L, N, batchlas.NonUnit, 1, M(nil), nil)),
		"Trmm":            batchlas.Trmm(q, Lf, L, N, batchlas.NonUnit, 1, M(nil), nil),
		"TrmmBufferSize":  size(batchlas.TrmmBufferSize(q, Lf, L, N, batchlas.NonUnit, 1, M(nil), nil)),
		"Symm":            batchlas.Symm(q, Lf, L, 1, M(nil), nil, 0, nil),
		"SymmBufferSize":  size(batchlas.SymmBufferSize(q, Lf, L, 1, M(nil), nil, 0, nil)),
		"Hemm":            batchlas.Hemm(q, Lf, L, 1, M(nil), nil, 0, nil),
		"HemmBufferSize":  size(batchlas.HemmBufferSize(q, Lf, L, 1, M(nil), nil, 0, nil)),
		"Syrk":            batchlas.Syrk(q, U, N, 1, M(nil), 0, nil),
		"SyrkBufferSize":  size(batchlas.SyrkBufferSize(q, U, N, 1, M(nil), 0, nil)),
		"Herk":            batchlas.Herk(q, U, N, 1, M(nil), 0, nil),
		"HerkBufferSize":  size(batchlas.HerkBufferSize(q, U, N, 1, M(nil), 0, nil)),
		"Syr2k":           batchlas.Syr2k(q, U, N, 1, M(nil), nil, 0, nil),
		"Syr2kBufferSize": size(batchlas.Syr2kBufferSize(q, U, N, 1, M(nil), nil, 0, nil)),
		"Her2k":           batchlas.Her2k(q, U, N, 1, M(nil), nil, 0, nil),
		"Her2kBufferSize": size(batchlas.Her2kBufferSize(q, U, N, 1, M(nil), nil, 0, nil)),
		"Potrf":           batchlas.Potrf(q, L, M(nil), nil),
		"PotrfBufferSize": size(batchlas.PotrfBufferSize(q, L, M(nil), nil)),
		"Potrs":           batchlas.Potrs(q, L, M(nil), nil),
		"PotrsBufferSize": size(batchlas.PotrsBufferSize(q, L, M(nil), nil)),
		"Posv":            batchlas.Posv(q, L, M(nil), nil, nil),
		"PosvBufferSize":  size(batchlas.PosvBufferSize(q, L, M(nil), nil, nil)),
		"Getrf":           batchlas.Getrf(q, M(nil), nil, nil),
		"GetrfBufferSize": size(batchlas.GetrfBufferSize(q, M(nil), nil, nil)),
		"Getrs":           batchlas.Getrs(q, N, M(nil), nil, nil),
		"GetrsBufferSize": size(batchlas.GetrsBufferSize(q, N, M(nil), nil, nil)),
		"Gesv":            batchlas.Gesv(q, M(nil), nil, nil, nil),
		"GesvBufferSize":  size(batchlas.GesvBufferSize(q, M(nil), nil, nil, nil)),
		"Getri":           batchlas.Getri(q, M(nil), nil, nil),
		"GetriBufferSize": size(batchlas.GetriBufferSize(q, M(nil), nil, nil)),
		"Geqrf":           batchlas.Geqrf(q, M(nil), nil),
		"GeqrfBufferSize": size(batchlas.GeqrfBufferSize(q, M(nil), nil)),
		"Orgqr":           batchlas.Orgqr(q, 0, M(nil), nil),
		"OrgqrBufferSize": size(batchlas.OrgqrBufferSize(q, 0, M(nil), nil)),
		"Ormqr":           batchlas.Ormqr(q, Lf, N, 0, M(nil), nil, nil),
		"OrmqrBufferSize": size(batchlas.OrmqrBufferSize(q, Lf, N, 0, M(nil), nil, nil)),
		"Syev":            batchlas.Syev(q, batchlas.Vectors, L, M(nil), V(nil), I(nil)),
		"SyevBufferSize":  size(batchlas.SyevBufferSize(q, batchlas.Vectors, L, M(nil), V(nil), I(nil))),
		"Gesvd":           batchlas.Gesvd(q, batchlas.SVDAll, batchlas.SVDAll, M(nil), V(nil), nil, nil, I(nil)),
		"GesvdBufferSize": size(batchlas.GesvdBufferSize(q, batchlas.SVDAll, batchlas.SVDAll, M(nil), V(nil), nil, nil, I(nil))),
	}
}
