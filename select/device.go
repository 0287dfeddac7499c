package selection

import (
	"strconv"
	"strings"
)

// Device holds the facts about a device that selection uses.
type Device struct {
	Key       string // table key: "sm_90", "gfx90a", "intel_<id>", "cpu"
	Family    string // "sm", "gfx", "intel" or "cpu"
	Arch      int    // 90 for sm_90 and gfx90a, 1100 for gfx1100; 0 for the CPU
	IsGPU     bool
	SG32      bool  // the device runs sub-groups (warps) of 32
	Vendor    bool  // the build has the vendor libraries of this device's backend
	SharedMem int64 // bytes of shared memory one work-group may use
	MaxWG     int   // work-items in one work-group
}

// ParseDeviceKey splits a table device key into its family and arch number: "sm_90" is
// ("sm", 90), "gfx90a" is ("gfx", 90), "gfx1100" is ("gfx", 1100), "cpu" is ("cpu", 0). A key
// of no known shape is its own family with arch 0.
func ParseDeviceKey(key string) (family string, arch int) {
	key = strings.ToLower(strings.TrimSpace(key))
	for _, f := range []string{"sm_", "gfx", "intel_"} {
		if rest, ok := strings.CutPrefix(key, f); ok {
			return strings.TrimSuffix(f, "_"), leadingInt(rest)
		}
	}
	return key, 0
}

func leadingInt(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		return 0
	}
	return n
}
