// Package vendorref lets cmd/batchbench time vendor routines that no family routes to, side
// by side with the families in one process: a build of batchlas that has them
// registers them here, and a nil entry means the build has none.
//
// Such a routine is kept out of the routing because it fails the conformance suite; it is a
// yardstick, not a choice.
package vendorref

// GeqrfBatched runs cuBLAS's cublas<t>geqrfBatched on a *batchlas.Matrix[T] (m >= n) and a
// *batchlas.Vector[T] of min(m, n) taus per matrix, on the queue q (a *batchlas.Queue), for
// T any of the four scalar types. Seen on the H200: it returns NaN tau, or finite wrong
// factors, for matrices scaled near overflow or underflow (1e36 and 1e-36 in float32), which
// is why the vendor geqrf family loops cusolverDn<t>geqrf instead.
var GeqrfBatched func(q, a, tau any) error

// Syev runs one vendor route of the cuSOLVER syev family on a *batchlas.Matrix[T] a, its
// eigenvalues in w (a *batchlas.Vector of T's real type) and info, with the jobz and uplo of
// batchlas.Syev: route "syevj" is cusolverDn<t>syevjBatched (heevj; n <= 32), "xsyev"
// cusolverDnXsyevBatched (whatever workspace it asks), "loop" cusolverDn<t>syevd once per
// matrix. The family chooses among them by n and by XsyevBatched's workspace; this times
// each, including where one fails.
var Syev func(route string, q, jobz, uplo, a, w, info any) error
