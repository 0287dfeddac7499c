//go:build !amd64 || purego

package hostpotrf

// Only amd64 has the kernel; elsewhere, and under the purego tag, Enabled is false.
const enabled = false

func lower32(int, *float32, int) int { panic("hostpotrf: no kernel on this CPU") }
