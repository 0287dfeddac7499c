package tests

import (
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGesvdArgs(t *testing.T) {
	const all, thin, none = batchlas.SVDAll, batchlas.SVDThin, batchlas.SVDNone
	q, other := ArgQueues(t)
	// a is 5-by-3, so k = 3: U is 5x5 (All) or 5x3 (Thin), V^H 3x3 either way.
	a := ArgMatrix[float64](t, q, 5, 3, 2)
	wide := ArgMatrix[float64](t, q, 3, 5, 2)
	u := ArgMatrix[float64](t, q, 5, 5, 2)
	uThin := ArgMatrix[float64](t, q, 5, 3, 2)
	vt := ArgMatrix[float64](t, q, 3, 3, 2)
	vtWide := ArgMatrix[float64](t, q, 5, 5, 2)
	uShortBatch := ArgMatrix[float64](t, q, 5, 5, 1)
	foreign := ArgMatrix[float64](t, other, 5, 3, 2)
	s := UploadVector(t, q, Fill(6, 0.5))
	short := UploadVector(t, q, Fill(5, 0.5))
	s32 := UploadVector(t, q, Fill[float32](6, 0.5))
	info := UploadVector(t, q, Fill(2, int32(Poison)))
	shortInfo := UploadVector(t, q, Fill(1, int32(Poison)))
	c := ArgMatrix[complex128](t, q, 5, 3, 2)
	cu := ArgMatrix[complex128](t, q, 5, 5, 2)
	cvt := ArgMatrix[complex128](t, q, 3, 3, 2)
	gesvd := func(ju, jv batchlas.SVDJob, a *batchlas.Matrix[float64], s *batchlas.Vector[float64], u, vt *batchlas.Matrix[float64], info *batchlas.Vector[int32]) func() error {
		return func() error { return batchlas.Gesvd(q, ju, jv, a, s, u, vt, info) }
	}
	cases := []ArgCase{
		{"nil queue", "q", func() error { return batchlas.Gesvd(nil, all, all, a, s, u, vt, info) }},
		{"bad jobu", "jobu", gesvd('O', all, a, s, u, vt, info)},
		{"bad jobvt", "jobvt", gesvd(all, 'X', a, s, u, vt, info)},
		{"nil u, Thin", "u", gesvd(thin, all, a, s, nil, vt, info)},
		{"thin u for All", "u", gesvd(all, all, a, s, uThin, vt, info)},
		{"full u for Thin", "u", gesvd(thin, all, a, s, u, vt, info)},
		{"u of another batch", "u", gesvd(all, all, a, s, uShortBatch, vt, info)},
		{"nil vt, Thin", "vt", gesvd(all, thin, a, s, u, nil, info)},
		{"vt of a's rows", "vt", gesvd(none, all, a, s, nil, vtWide, info)},
		// For the wide a, V^H is 5x5 (All) or 3x5 (Thin) and U 3x3.
		{"square vt for wide Thin", "vt", gesvd(none, thin, wide, s, nil, vt, info)},
		{"wide u", "u", gesvd(all, none, wide, s, u, nil, info)},
		{"float32 s for float64 a", "s", func() error { return batchlas.Gesvd(q, none, none, a, s32, nil, nil, info) }},
		{"float32 s for complex128 a", "s", func() error { return batchlas.Gesvd(q, all, all, c, s32, cu, cvt, info) }},
		{"order: jobu before jobvt", "jobu", gesvd('O', 'X', nil, nil, nil, nil, nil)},
		{"order: jobvt before a", "jobvt", gesvd(all, 'X', nil, s, u, vt, info)},
		{"order: a before u", "a", gesvd(all, all, foreign, s, uThin, vt, info)},
		{"order: u before vt", "u", gesvd(all, all, a, s, uThin, nil, info)},
		{"order: factors before s", "vt", gesvd(none, all, a, short, nil, vtWide, info)},
		{"order: s before info", "s", gesvd(none, none, a, short, nil, nil, shortInfo)},
		{"buffer size, bad u", "u", func() error {
			_, err := batchlas.GesvdBufferSize(q, all, all, a, s, uThin, vt, info)
			return err
		}},
	}
	type mat = *batchlas.Matrix[float64]
	type vec = *batchlas.Vector[float64]
	cases = append(cases, MatrixCases(t, q, other, "a", 5, 3, 2, func(m mat) error { return gesvd(all, all, m, s, u, vt, info)() })...)
	cases = append(cases, MatrixCases(t, q, other, "u", 5, 5, 2, func(m mat) error { return gesvd(all, all, a, s, m, vt, info)() })...)
	cases = append(cases, MatrixCases(t, q, other, "vt", 3, 3, 2, func(m mat) error { return gesvd(all, all, a, s, u, m, info)() })...)
	cases = append(cases, VectorCases(t, q, other, "s", 6, func(v vec) error { return gesvd(none, none, a, v, nil, nil, info)() })...)
	cases = append(cases, VectorCases(t, q, other, "info", 2, func(v *batchlas.Vector[int32]) error { return gesvd(none, none, a, s, nil, nil, v)() })...)
	RunArgCases(t, q, cases, Watch(a), Watch(wide), Watch(u), Watch(uThin), Watch(vt), Watch(vtWide), Watch(s), Watch(info), Watch(c))

	// The right shapes pass, with an unreferenced factor nil.
	for _, call := range []func() error{gesvd(thin, none, a, s, uThin, nil, info), gesvd(none, thin, a, s, nil, vt, info)} {
		if err := call(); err != nil {
			t.Errorf("valid call: %v", err)
		}
	}
	if n, err := batchlas.GesvdBufferSize(q, all, all, a, s, u, vt, info); err != nil || n < 0 {
		t.Errorf("GesvdBufferSize: %d, %v", n, err)
	}
}

func FuzzGesvd(f *testing.F) {
	f.Add(5, 3, 5, 15, 2, byte('A'), byte('S'), 5, 5, 3, 3, 6, 2)
	f.Add(3, 5, 3, 15, 1, byte('S'), byte('A'), 3, 3, 5, 5, 3, 1)
	f.Add(0, 0, 0, 0, 0, byte('N'), byte('X'), -1, 0, 0, 0, 0, -1)
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch int, jobu, jobvt byte, ur, uc, vr, vc, sLen, infoLen int) {
		a := FuzzMatrix[complex64](t, q, rows, cols, ld, stride, batch)
		if a == nil {
			return // u and vt take a's batch
		}
		// u and vt: nil for a negative row count, else packed with a's batch or a fuzzed one.
		factor := func(r, c int) *batchlas.Matrix[complex64] {
			if Small(r) < 0 {
				return nil
			}
			m, err := batchlas.NewMatrix[complex64](q, Small(r), Small(c), a.Batch()+Small(c)%2)
			if err != nil {
				return nil
			}
			t.Cleanup(func() { m.Free() })
			return m
		}
		u, vt := factor(ur, uc), factor(vr, vc)
		s, info := FuzzVector[float32](t, q, sLen), FuzzVector[int32](t, q, infoLen)
		_ = batchlas.Gesvd(q, batchlas.SVDJob(jobu), batchlas.SVDJob(jobvt), a, s, u, vt, info)
	})
}
