package cu

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestEmulatorExportsDriver: every driver function the engine resolves at Open is one that
// the CPU emulator's stand-in libcuda defines, or Open fails under the emulator for all of
// them.
func TestEmulatorExportsDriver(t *testing.T) {
	src, err := os.ReadFile("../../kernels/emu/driver.cc")
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[driver]()
	for i := range typ.NumField() {
		sym := typ.Field(i).Tag.Get("sym")
		if sym == "" {
			t.Errorf("field %s has no sym tag", typ.Field(i).Name)
			continue
		}
		if !strings.Contains(string(src), "CUresult "+sym+"(") {
			t.Errorf("kernels/emu/driver.cc does not define %s", sym)
		}
	}
}
