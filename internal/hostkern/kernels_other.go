//go:build !amd64 || purego

package hostkern

// Only amd64 has the kernels; elsewhere, and under the purego tag, Enabled is false.
const enabled = false

func lower32(int, *float32, int) int { panic("hostkern: no kernel on this CPU") }

func getrf4(int, *[4][]float64, int, *Getrf4Scratch) int { panic("hostkern: no kernel on this CPU") }
