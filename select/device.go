// Package selection chooses, for each call of an operation, which of the op's families runs
// it. It is generic over the op: an op describes its families as Candidates (a spelling and
// whether it is a vendor library) and answers can_run through a callback; selection does the
// rest in one place: pins, the measured tables of tuned/, borrowing another device's table,
// the last-resort order, the trace and the coverage rows.
//
// The rules, in the order Choose applies them:
//
//  1. A pin (Pin, or BATCHLAS_<OP>_ROUTE) names the family: a spelling such as
//     "lpanel:panel=8", or a class word: "native" (the best runnable non-vendor family),
//     "vendor", or "auto". A pin that does not name a family of the op, or whose family
//     cannot run the call, is an error; a class word with nothing runnable in its class falls
//     back to auto with a warning.
//  2. For each table in borrow order, the nearest row to the call's key; the first candidate
//     of that row that can run wins.
//  3. The first runnable candidate in the op's last-resort order.
//  4. Otherwise there is no route: ErrNoRoute, and a miss row in the coverage file.
//
// can_run decides correctness only; speed lives only in the tables.
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
