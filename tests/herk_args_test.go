package tests

import "testing"

func TestHerkArgs(t *testing.T) { testRankArgs[complex64](t, rankOp{name: "herk", herm: true}) }

func FuzzHerk(f *testing.F) { fuzzRank[complex64](f, rankOp{name: "herk", herm: true}) }
