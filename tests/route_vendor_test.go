//go:build !novendor

package tests

// novendor says whether this build compiled the vendor families out.
const novendor = false
