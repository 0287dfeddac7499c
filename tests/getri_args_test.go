package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetriArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[complex128](t, q, 3, 3, 2)
	rect := ArgMatrix[complex128](t, q, 3, 2, 2)
	ipiv := UploadVector(t, q, []int32{3, 2, 3, 1, 3, 3})
	short := UploadVector(t, q, []int32{3, 2, 3, 1, 3})
	negative := UploadVector(t, q, []int32{3, 2, 3, 1, -3, 3})
	info := PoisonedInfo(t, q, 2)
	shortInfo := PoisonedInfo(t, q, 1)
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Getri(nil, a, ipiv, info) }},
		{"non-square a", "a", func() error { return batchlas.Getri(q, rect, ipiv, info) }},
		{"negative pivot", "ipiv", func() error { return batchlas.Getri(q, a, negative, info) }},
		{"order: shape of a before ipiv", "a", func() error { return batchlas.Getri(q, rect, short, shortInfo) }},
		{"order: ipiv before info", "ipiv", func() error { return batchlas.Getri(q, a, nil, shortInfo) }},
		{"buffer size, non-square a", "a", func() error {
			_, err := batchlas.GetriBufferSize(q, rect, ipiv, info)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "a", 3, 3, 2, func(m *batchlas.Matrix[complex128]) error { return batchlas.Getri(q, m, ipiv, info) })...)
	cases = append(cases, VectorCases(t, q, other, "ipiv", 6, func(v *batchlas.Vector[int32]) error { return batchlas.Getri(q, a, v, info) })...)
	cases = append(cases, VectorCases(t, q, other, "info", 2, func(v *batchlas.Vector[int32]) error { return batchlas.Getri(q, a, ipiv, v) })...)
	RunArgCases(t, q, cases, Watch(a), Watch(ipiv), Watch(info))
}

func FuzzGetri(f *testing.F) {
	f.Add(3, 3, 3, 9, 2, 6, 2, int32(3))
	f.Add(0, 0, 0, 0, 0, -1, -1, int32(0))
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch, pivLen, infoLen int, piv int32) {
		a := FuzzMatrix[float64](t, q, rows, cols, ld, stride, batch)
		_ = batchlas.Getri(q, a, fuzzPivots(t, q, pivLen, piv), FuzzVector[int32](t, q, infoLen))
	})
}
