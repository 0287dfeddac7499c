package batchlas

import selection "github.com/batchlas/batchlas/select"

// routedOps lists every op that dispatches through selection, with its candidates per
// dtype. A new op adds its line here and ships tuned/<op>.cpu.txt; tests/route_test.go
// fails until both exist.
var routedOps = map[string]func(dtype string) []selection.Candidate{
	"potrf": perDType(potrfFamilies[float32], potrfFamilies[float64], potrfFamilies[complex64], potrfFamilies[complex128]),
}
