//go:build novendor

package tests

const novendor = true
