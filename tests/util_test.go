package tests

import "math"

func nan() float64 { return math.NaN() }

func keys[V any](m map[int]V) []int {
	var k []int
	for b := range m {
		k = append(k, b)
	}
	return k
}
