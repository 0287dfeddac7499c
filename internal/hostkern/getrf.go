package hostkern

// Getrf4Scratch is Getrf4's work space: the four matrices interleaved, and their pivots.
type Getrf4Scratch struct {
	buf [4 * (8*8 + 8)]float64
	piv [4 * 8]int32
}

// Getrf4MinN and Getrf4MaxN bound the orders that Getrf4 takes.
const Getrf4MinN, Getrf4MaxN = 2, 8

// Getrf4 factors the four column-major order-n float64 matrices a[m] (Getrf4MinN <= n <=
// Getrf4MaxN, leading
// dimension lda >= n) as P L U with partial pivoting, in place, and writes each one's
// 1-based pivot rows to ipiv[m][:n]: the factors and pivots of the root package's scalar
// kernels, to the bit. It returns false, with nothing written, when one of the four has a
// pivot that those kernels leave to getf2's careful path (a pivot below the safe minimum
// before the last column, a zero one in it, or a NaN before the last column); the caller
// then factors the four one by one. Only Enabled callers may call it.
func Getrf4(n int, a *[4][]float64, lda int, ipiv *[4][]int32, s *Getrf4Scratch) bool {
	if n < Getrf4MinN || n > Getrf4MaxN || lda < n {
		panic("hostkern: bad Getrf4 arguments")
	}
	for m := range a {
		if len(a[m]) < (n-1)*lda+n || len(ipiv[m]) < n {
			panic("hostkern: bad Getrf4 arguments")
		}
	}
	if getrf4(n, a, lda, s) != 0 {
		return false
	}
	for m := range ipiv {
		for k := range ipiv[m][:n] {
			ipiv[m][k] = s.piv[4*k+m] + 1
		}
	}
	return true
}
