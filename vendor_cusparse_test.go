//go:build cuda && !novendor

package batchlas

import "testing"

// TestSpmmGroup: the vendor Spmm makes one strided-batched cuSPARSE call only for a batch
// whose matrices all have the first one's row pointers and a B of more than one column, and
// one call per matrix otherwise, equal nnz or not (the CSRs are made on a host queue; nothing
// reaches a device).
func TestSpmmGroup(t *testing.T) {
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	same := [][]int32{{0, 2, 2, 3}, {0, 2, 2, 3}, {0, 2, 2, 3}}
	for _, c := range []struct {
		name           string
		rowPtr, colIdx [][]int32
		n, want        int
	}{
		{"the same rows", same, [][]int32{{0, 1, 2}, {1, 2, 0}, {0, 2, 1}}, 2, 3},
		{"the same rows, one column", same, [][]int32{{0, 1, 2}, {1, 2, 0}, {0, 2, 1}}, 1, 1},
		{"equal nnz, other rows", [][]int32{{0, 2, 2, 3}, {0, 1, 2, 3}, {0, 2, 2, 3}}, [][]int32{{0, 1, 2}, {1, 2, 0}, {0, 2, 1}}, 4, 1},
		{"nnz differs", [][]int32{{0, 2, 2, 3}, {0, 2, 2, 2}, {0, 2, 2, 3}}, [][]int32{{0, 1, 2}, {1, 2}, {0, 2, 1}}, 4, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			vals := make([][]float64, len(c.colIdx))
			for b := range vals {
				vals[b] = make([]float64, len(c.colIdx[b]))
			}
			a, err := NewCSR(q, 3, 3, c.rowPtr, c.colIdx, vals)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Free()
			s := &spmmCall[float64]{transA: NoTrans, transB: NoTrans, a: a, b: &Matrix[float64]{rows: 3, cols: c.n, ld: 3, strd: 3 * c.n, batch: 3}}
			if got := spmmGroup(s); got != c.want {
				t.Errorf("spmmGroup = %d, want %d", got, c.want)
			}
		})
	}
}
