package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGetriArgs(t *testing.T) {
	q, other := ArgQueues(t)
	a := ArgMatrix[complex128](t, q, 3, 3, 2)
	rect := ArgMatrix[complex128](t, q, 3, 2, 2)
	foreign := ArgMatrix[complex128](t, other, 3, 3, 2)
	ipiv := UploadVector(t, q, []int32{3, 2, 3, 1, 3, 3})
	short := UploadVector(t, q, []int32{3, 2, 3, 1, 3})
	negative := UploadVector(t, q, []int32{3, 2, 3, 1, -3, 3})
	info := PoisonedInfo(t, q, 2)
	shortInfo := PoisonedInfo(t, q, 1)
	RunArgCases(t, q, []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Getri(nil, a, ipiv, info) }},
		{"nil a", "a", func() error { return batchlas.Getri[complex128](q, nil, ipiv, info) }},
		{"foreign a", "a", func() error { return batchlas.Getri(q, foreign, ipiv, info) }},
		{"non-square a", "a", func() error { return batchlas.Getri(q, rect, ipiv, info) }},
		{"nil ipiv", "ipiv", func() error { return batchlas.Getri(q, a, nil, info) }},
		{"short ipiv", "ipiv", func() error { return batchlas.Getri(q, a, short, info) }},
		{"negative pivot", "ipiv", func() error { return batchlas.Getri(q, a, negative, info) }},
		{"nil info", "info", func() error { return batchlas.Getri(q, a, ipiv, nil) }},
		{"short info", "info", func() error { return batchlas.Getri(q, a, ipiv, shortInfo) }},
		{"order: shape of a before ipiv", "a", func() error { return batchlas.Getri(q, rect, short, shortInfo) }},
		{"order: ipiv before info", "ipiv", func() error { return batchlas.Getri(q, a, nil, shortInfo) }},
		{"buffer size, non-square a", "a", func() error {
			_, err := batchlas.GetriBufferSize(q, rect, ipiv, info)
			return err
		}},
	}, Watch(a), Watch(ipiv), Watch(info))
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
