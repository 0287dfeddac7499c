//go:build cuda

package batchlas

import "testing"

// TestPosvFactorFollowsPotrf checks that posv factors with the potrf family that potrf's own
// routing picks on an H200 (its sm_90 table, or its pin), not the first of potrf's list: at
// n = 48 that is warp, not tiny.
func TestPosvFactorFollowsPotrf(t *testing.T) {
	q := &Queue{dev: Device{Backend: CUDA, Key: "sm_90", Family: "sm", Arch: 90, IsGPU: true, SubGroup: 32,
		SharedMem: 227 << 10, MaxBlock: 1024}}
	call := func(n int) *posvCall[float32] {
		a := &Matrix[float32]{rows: n, cols: n, ld: n, strd: n * n, batch: 8192}
		b := &Matrix[float32]{rows: n, cols: n, ld: n, strd: n * n, batch: 8192}
		return &posvCall[float32]{uplo: Lower, a: a, b: b, info: &Vector[int32]{}}
	}
	name := func(c *posvCall[float32]) string {
		f, _, err := posvFactor(q, c, false)
		if err != nil {
			return "none"
		}
		return f.candidate().Spelling.String()
	}
	for _, n := range []int{16, 32, 48, 64, 200} {
		c := call(n)
		pc := &potrfCall[float32]{uplo: c.uplo, a: c.a, info: c.info}
		f, _, err := selectFamily(q, "potrf", "f32", pc.key(), potrfFamilies[float32](), pc, false)
		if err != nil {
			t.Fatalf("n = %d: potrf routes nowhere: %v", n, err)
		}
		if got, want := name(c), f.candidate().Spelling.String(); got != want {
			t.Errorf("n = %d: posv factors with %s, potrf's routing picks %s", n, got, want)
		}
	}
	// The case that tells the two rules apart: tiny, first in potrf's list, runs n = 48
	// too, but the table ranks warp first there.
	if got := name(call(48)); got != "warp" {
		t.Errorf("n = 48: posv factors with %s, want warp", got)
	}
	restore, err := pinRoute("potrf", "cta:reg=1")
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	if got := name(call(48)); got != "cta:reg=1" {
		t.Errorf("potrf pinned to cta:reg=1: posv factors with %s", got)
	}
}
