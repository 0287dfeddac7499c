//go:build cuda

package batchlas

import "math"

// Rules shared by the group-of-lanes kernels, potrf "tiny" and geqrf "tiny" (a group of
// lanes per matrix, each lane walking a row across the matrix's columns; kernels/common/
// smem.cuh's col_at and opaque_row).

// groupLanes is the group of such a kernel for order n: the least of 8, 16, 32 and 64
// lanes that holds n rows.
func groupLanes(n int) int {
	g := 8
	for g < n {
		g *= 2
	}
	return g
}

// groupLdFits: the kernels form a column's address from a 32-bit ld, so ld must fit one.
func groupLdFits(ld int) bool { return ld <= math.MaxUint32 }
