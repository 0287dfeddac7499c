package tests

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
)

// TestAutoDevice: the device Auto chose is visible: Device.String names it, and on the host
// says in one line why CUDA was not used; the selection trace prints it once.
func TestAutoDevice(t *testing.T) {
	log := routeLog(t)
	setEnv(t, "BATCHLAS_SELECT_TRACE", "1")
	var s string
	for range 2 {
		q, err := batchlas.NewQueue(batchlas.Auto)
		if err != nil {
			t.Fatal(err)
		}
		d := q.Device()
		s = d.String()
		q.Close()
		switch {
		case d.Backend == batchlas.CUDA:
			if d.Fallback != "" || !strings.HasPrefix(s, "cuda ("+d.Name+", "+d.Key) {
				t.Errorf("Auto chose CUDA: Device %q, fallback %q", s, d.Fallback)
			}
		case d.Backend != batchlas.Host:
			t.Fatalf("Auto chose %v", d.Backend)
		case d.Fallback == "" || strings.Contains(d.Fallback, "\n") || strings.Contains(d.Fallback, "batchlas:"):
			t.Errorf("Auto fell back to the host; the reason %q is not one unprefixed line", d.Fallback)
		case s != fmt.Sprintf("host (cpu, %d cores); cuda not used: %s", d.Units, d.Fallback):
			t.Errorf("Device.String of Auto's host queue: %q", s)
		}
	}
	if n := strings.Count(log.String(), "batchlas: device: "+s+"\n"); n != 1 {
		t.Errorf("the trace printed the device %d times, want once:\n%s", n, log)
	}
	h, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if d := h.Device(); d.Fallback != "" || d.String() != fmt.Sprintf("host (cpu, %d cores)", d.Units) {
		t.Errorf("Device.String of a host queue: %q", d.String())
	}
	if s := (batchlas.Device{}).String(); s != "no device" {
		t.Errorf("Device{}.String() = %q", s)
	}
}

// TestNoGPUMessage: asking for a GPU that is not there (CUDA or ROCm without its build tag,
// its runtime or a device) gives an error whose first line says what is missing and what to
// do, short enough to read.
func TestNoGPUMessage(t *testing.T) {
	for _, b := range []batchlas.Backend{batchlas.CUDA, batchlas.ROCm} {
		q, err := batchlas.NewQueue(b)
		if err == nil {
			q.Close()
			continue
		}
		first, rest, _ := strings.Cut(err.Error(), "\n")
		t.Logf("%v: %s", b, first)
		if len(first) > 200 || !strings.HasPrefix(first, "batchlas: ") || !strings.Contains(first, "batchlas.Host") {
			t.Errorf("%v: first line %q: want under 200 characters, naming what is missing and batchlas.Host", b, first)
		}
		for _, line := range strings.Split(rest, "\n") {
			if rest != "" && strings.Count(rest, line) != 1 {
				t.Errorf("%v: line %q repeats", b, line)
			}
		}
	}
}

// TestRequiredBackends fails when a backend that BATCHLAS_TEST_BACKENDS names (comma-separated,
// as Backend.String spells them) has no queue here: CI's emulator and stand-in stages set it,
// so that a library that did not load fails the stage instead of leaving every test of that
// backend unrun.
func TestRequiredBackends(t *testing.T) {
	want := os.Getenv("BATCHLAS_TEST_BACKENDS")
	if want == "" {
		t.Skip("BATCHLAS_TEST_BACKENDS is not set")
	}
	have := map[string]bool{}
	for _, q := range Queues() {
		have[q.Backend().String()] = true
	}
	for _, b := range strings.Split(want, ",") {
		if !have[b] {
			t.Errorf("BATCHLAS_TEST_BACKENDS names %s, but no %s queue opened (%s)", b, b, strings.Join(missing, "; "))
		}
	}
}
