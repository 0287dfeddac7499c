package tests

import "testing"

func TestHer2kArgs(t *testing.T) {
	testRankArgs[complex64](t, rankOp{name: "her2k", herm: true, two: true})
}

func FuzzHer2k(f *testing.F) { fuzzRank[complex128](f, rankOp{name: "her2k", herm: true, two: true}) }
