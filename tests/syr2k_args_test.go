package tests

import "testing"

func TestSyr2kArgs(t *testing.T) { testRankArgs[complex64](t, rankOp{name: "syr2k", two: true}) }

func FuzzSyr2k(f *testing.F) { fuzzRank[float32](f, rankOp{name: "syr2k", two: true}) }
