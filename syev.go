package batchlas

import selection "github.com/batchlas/batchlas/select"

// Syev computes all eigenvalues and, optionally, the eigenvectors of each Hermitian
// (symmetric, for real types) n-by-n matrix A_b of the batch a:
//
//	A_b = V_b diag(w_b) V_b^H,    V_b^H V_b = I,
//
// with the eigenvalues w_b real and in ascending order. Only the uplo triangle of each A_b
// is read; the imaginary parts of its diagonal are taken as zero.
//
// w receives the eigenvalues, n per matrix laid end to end (matrix b's start at b*n); its
// element type R must be T's real type: float32 for float32 and complex64, float64 for
// float64 and complex128. With jobz Vectors each A_b is overwritten by its orthonormal
// eigenvectors, column i belonging to w_b[i]. With jobz NoVectors the uplo triangle of A_b,
// diagonal included, is destroyed, as in LAPACK; the other triangle is not written either
// way.
//
// info must hold at least a.Batch() elements. On return info[b] is 0 when matrix b
// converged, and i > 0 when the iteration failed: for the QL/QR solvers, i off-diagonal
// elements of an intermediate tridiagonal form did not converge to zero (LAPACK's meaning);
// for bisection and inverse iteration, the inverse iteration of i eigenvectors did not
// converge in 5 steps (LAPACK's stein); for the Jacobi families, i rows still held an
// element right of the diagonal above the convergence threshold. That matrix's results are then unreliable and the others are
// unaffected. The iteration is bounded (30n QL/QR steps in all, or 30 Jacobi sweeps), so it
// never hangs. A matrix holding NaN or Inf in its uplo triangle is not iterated: its
// eigenvalues (and eigenvectors) are NaN and its info is n-1, the count of off-diagonal
// elements that did not converge (0 when n = 1).
//
// The host backend computes float64 by reducing A_b to tridiagonal form (as LAPACK's
// dsytrd, blocked, its rank-2k updates on the host's assembly gemm; gonum's Dsytrd for an
// upper triangle without vectors, for n <= 32 and where that gemm is missing) and, without
// vectors, solving that by gonum's Dsterf (QL/QR). With vectors, from n = 32 on, it gets the
// eigenvalues of each unreduced block of the tridiagonal matrix by Dsterf and its
// eigenvectors by inverse iteration (as LAPACK's stein, info counting both kinds of failure),
// and applies the reflectors to them by blocks on gemm; below 32 it runs gonum's Dorgtr and
// Dsteqr, as gonum's Dsyev. float32 runs the same way on a float64 copy, so
// float32 is computed in float64; real
// matrices of order n <= 2 run cyclic Jacobi in float64 instead, with the rotations and
// stopping rule of the CUDA Jacobi families below (info as theirs), and those of order 3 to 8
// a fixed-size Householder reduction and implicit QL (EISPACK's tql2) on stack arrays in
// float64 (info as Dsteqr's). For
// complex types it reduces A_b to a real tridiagonal matrix by Householder reflections (as
// LAPACK's zhetd2, in complex128; complex64 on a complex128 copy), solves that in float64 as
// the real types do (Dsterf without vectors; Dsterf and inverse iteration with them), and
// back-transforms the real eigenvectors by blocks of reflectors on gemm. The eigenvalues are accurate to a small
// multiple of eps ||A_b||; a part of the spectrum below about 1e-122 ||A_b|| that the
// tridiagonal form splits off comes back as zeros.
//
// On a CUDA queue the native families for small n are Jacobi solvers: "tiny" (a thread per
// matrix, n <= 8 for float32, 6 for float64 and complex64, 4 for complex128) and "jacobi" (a
// warp per matrix in shared memory, n <= 64); cyclic or parallel-order two-sided Jacobi, the
// eigenvalues accurate to a small multiple of eps ||A_b||. Above them "cta" (one block per
// matrix in shared memory) and "blocked" (any n up to 46340, about n^2 + 4*32n elements of T
// per matrix of workspace) reduce A_b to tridiagonal form by Householder reflections, solve
// that by implicit QL/QR (members tri=0) or by bisection and inverse iteration (tri=1, as
// LAPACK's stebz and stein, every thread of the block at once; 4n reals per thread of
// workspace with vectors) and back-transform, computing in T. blocked reduces 32 columns at a
// time (LAPACK's latrd, a block per matrix) and leaves the trailing updates to Syr2k or Her2k
// and the back-transform to Gemm, which route themselves (their workspace is part of
// SyevBufferSize's).
//
// Errors: a wrapped ErrInvalidArgument for a bad jobz or uplo, a nil, foreign or non-square
// a, a w of the wrong element type or shorter than n*batch, or a short info; *NoRouteError
// when no family of the build can run the call.
func Syev[T Scalar, R Real](q *Queue, jobz Job, uplo Uplo, a *Matrix[T], w *Vector[R], info *Vector[int32]) error {
	c := &syevCall[T, R]{jobz: jobz, uplo: uplo, a: a, w: w, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "syev", dtypeName[T](), c.key(), syevFamilies[T, R](), c)
}

// SyevBufferSize is the workspace in bytes that Syev leases from q's arena for this call.
func SyevBufferSize[T Scalar, R Real](q *Queue, jobz Job, uplo Uplo, a *Matrix[T], w *Vector[R], info *Vector[int32]) (int, error) {
	c := &syevCall[T, R]{jobz: jobz, uplo: uplo, a: a, w: w, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "syev", dtypeName[T](), c.key(), syevFamilies[T, R](), c)
}

type syevCall[T Scalar, R Real] struct {
	jobz Job
	uplo Uplo
	a    *Matrix[T]
	w    *Vector[R]
	info *Vector[int32]
}

func (c *syevCall[T, R]) check(q *Queue) error {
	const op = "syev"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.jobz.valid() {
		return argErr(op, "jobz", "must be Vectors or NoVectors, got %v", c.jobz)
	}
	if !c.uplo.valid() {
		return argErr(op, "uplo", "must be Lower or Upper, got %v", c.uplo)
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	if c.a.rows != c.a.cols {
		return argErr(op, "a", "not square: %dx%d", c.a.rows, c.a.cols)
	}
	if want := realName[T](); dtypeName[R]() != want {
		return argErr(op, "w", "element type %s is not the real type %s of a's %s", dtypeName[R](), want, dtypeName[T]())
	}
	// The layout rules bound rows*cols*batch, so n*batch cannot overflow.
	if err := c.w.check(q, op, "w", c.a.rows*c.a.batch); err != nil {
		return err
	}
	return c.info.check(q, op, "info", c.a.batch)
}

func (c *syevCall[T, R]) key() callKey {
	return shapeKey("jobz", c.jobz, "uplo", c.uplo, "n", c.a.rows, "batch", c.a.batch)
}

func syevFamilies[T Scalar, R Real]() []family[syevCall[T, R]] {
	return []family[syevCall[T, R]]{
		{name: "tiny", canRun: syevTinyCanRun[T, R], launch: syevTiny[T, R]},
		{name: "jacobi", canRun: syevJacobiCanRun[T, R], launch: syevJacobi[T, R]},
		// cta: one block per matrix in shared memory, computing in T; blocked: any order, its
		// working copy in global workspace, reduced by panels (syev_blocked_cuda.go). Their
		// tridiagonal solver: tri=0 implicit QL/QR, tri=1 bisection and inverse iteration. A
		// pin "cta" or "blocked" is tri=0.
		syevTri("cta", false, syevCTACanRun[T, R], syevCTABufferSize[T, R], syevCTA[T, R]),
		syevTri("cta", true, syevCTACanRun[T, R], syevCTABufferSize[T, R], syevCTA[T, R]),
		syevTri("blocked", false, syevBlockedCanRun[T, R], syevBlockedBufferSize[T, R], syevBlocked[T, R]),
		syevTri("blocked", true, syevBlockedCanRun[T, R], syevBlockedBufferSize[T, R], syevBlocked[T, R]),
		vendorFamily(syevLAPACK[T, R](), syevCUDAVendor[T, R](), syevROCm[T, R]()),
		hostFamily(syevHost[T, R]),
	}
}

// syevTri is the member tri=0 (QL/QR) or tri=1 (bisect) of the family name, whose workspace
// and launch depend on the member.
func syevTri[T Scalar, R Real](name string, bisect bool, canRun func(*Queue, *syevCall[T, R]) bool,
	size func(bool) func(*Queue, *syevCall[T, R]) int, launch func(bool) func(*Queue, *syevCall[T, R]) error) family[syevCall[T, R]] {
	tri := 0
	if bisect {
		tri = 1
	}
	return family[syevCall[T, R]]{name: name, fields: []selection.Field{{Name: "tri", Value: tri}},
		canRun: canRun, bufferSize: size(bisect), launch: launch(bisect)}
}
