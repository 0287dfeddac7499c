//go:build !novendor

package batchlas

// vendorBuilt says whether the build may hold vendor families (novendor compiles them out).
const vendorBuilt = true
