package batchlas

import selection "github.com/batchlas/batchlas/select"

// Gesvd computes the singular value decomposition of each m-by-n matrix A_b of the batch a:
//
//	A_b = U_b S_b V_b^H,
//
// with U_b m-by-m and V_b n-by-n unitary (orthogonal, for real types) and S_b m-by-n
// diagonal holding the singular values s_1 >= s_2 >= ... >= s_k >= 0, k = min(m, n).
//
// s must hold at least k*a.Batch() elements of T's real type (float32 for float32 and
// complex64, float64 otherwise); matrix b's singular values go, in descending order, to
// s[b*k : (b+1)*k].
//
// jobu says which columns of U_b are computed:
//
//	SVDAll:  all m; u is m-by-m.
//	SVDThin: the first k; u is m-by-k.
//	SVDNone: none; u is not referenced and may be nil.
//
// jobvt says likewise which rows of V_b^H go to vt: all n (vt is n-by-n), the first k (vt
// is k-by-n) or none (vt is not referenced and may be nil). u and vt must have a's batch.
//
// The contents of a are destroyed. When k = 0 the singular values are empty and a requested
// SVDAll factor is the identity.
//
// info must hold at least a.Batch() elements. On return info[b] is 0 when matrix b was
// decomposed, and i > 0 when i superdiagonals of its intermediate bidiagonal form did not
// converge (LAPACK's meaning; every iteration has a sweep limit, so this returns rather than
// hangs; the CUDA families jacobi and blocked, and the host's one-sided Jacobi for real
// matrices of at most 8 rows and columns with k <= 4, have no bidiagonal form: their i > 0 is
// the number of rotations, at most k, that the last sweep still made). A matrix holding NaN or
// Inf gets NaN in its singular values and in every computed vector, and info[b] = k. The
// other matrices are unaffected.
//
// Errors: a wrapped ErrInvalidArgument for a bad job; a nil, foreign or freed a; a u or vt
// whose shape does not match its job or whose batch differs from a's; an s of the wrong
// real type or too short; a short info. *NoRouteError when no family of the build can run
// the call.
func Gesvd[T Scalar, R Real](q *Queue, jobu, jobvt SVDJob, a *Matrix[T], s *Vector[R], u, vt *Matrix[T], info *Vector[int32]) error {
	c := &gesvdCall[T, R]{jobu: jobu, jobvt: jobvt, a: a, s: s, u: u, vt: vt, info: info}
	if err := c.check(q); err != nil {
		return err
	}
	return dispatch(q, "gesvd", dtypeName[T](), c.key(), gesvdFamilies[T, R](), c)
}

// GesvdBufferSize is the workspace in bytes that Gesvd leases from q's arena for this call.
func GesvdBufferSize[T Scalar, R Real](q *Queue, jobu, jobvt SVDJob, a *Matrix[T], s *Vector[R], u, vt *Matrix[T], info *Vector[int32]) (int, error) {
	c := &gesvdCall[T, R]{jobu: jobu, jobvt: jobvt, a: a, s: s, u: u, vt: vt, info: info}
	if err := c.check(q); err != nil {
		return 0, err
	}
	return bufferSize(q, "gesvd", dtypeName[T](), c.key(), gesvdFamilies[T, R](), c)
}

type gesvdCall[T Scalar, R Real] struct {
	jobu, jobvt SVDJob
	a           *Matrix[T]
	s           *Vector[R]
	u, vt       *Matrix[T]
	info        *Vector[int32]
}

func (c *gesvdCall[T, R]) check(q *Queue) error {
	const op = "gesvd"
	if err := q.usable(op); err != nil {
		return err
	}
	if !c.jobu.valid() {
		return argErr(op, "jobu", "must be SVDNone, SVDThin or SVDAll, got %v", c.jobu)
	}
	if !c.jobvt.valid() {
		return argErr(op, "jobvt", "must be SVDNone, SVDThin or SVDAll, got %v", c.jobvt)
	}
	if err := c.a.check(q, op, "a"); err != nil {
		return err
	}
	m, n := c.a.rows, c.a.cols
	ur, uc, vr, vc := svdShapes(c.jobu, c.jobvt, m, n)
	if err := checkSVDFactor(q, c.jobu, c.u, "u", c.a.batch, ur, uc); err != nil {
		return err
	}
	if err := checkSVDFactor(q, c.jobvt, c.vt, "vt", c.a.batch, vr, vc); err != nil {
		return err
	}
	if dtypeName[R]() != realName[T]() {
		return argErr(op, "s", "singular values of %s matrices are %s, got %s", dtypeName[T](), realName[T](), dtypeName[R]())
	}
	if err := c.s.check(q, op, "s", min(m, n)*c.a.batch); err != nil {
		return err
	}
	return c.info.check(q, op, "info", c.a.batch)
}

// svdShapes are the shapes of the factors that the jobs ask for: U is m-by-m (SVDAll) or
// m-by-k (SVDThin), V^H n-by-n or k-by-n, k = min(m, n); a factor of SVDNone is 0x0.
func svdShapes(jobu, jobvt SVDJob, m, n int) (ur, uc, vr, vc int) {
	k := min(m, n)
	switch jobu {
	case SVDAll:
		ur, uc = m, m
	case SVDThin:
		ur, uc = m, k
	}
	switch jobvt {
	case SVDAll:
		vr, vc = n, n
	case SVDThin:
		vr, vc = k, n
	}
	return ur, uc, vr, vc
}

// checkSVDFactor checks u or vt: unreferenced for SVDNone, else rows-by-cols with batch
// matrices.
func checkSVDFactor[T Scalar](q *Queue, job SVDJob, f *Matrix[T], name string, batch, rows, cols int) error {
	const op = "gesvd"
	if job == SVDNone {
		return nil
	}
	if err := f.check(q, op, name); err != nil {
		return err
	}
	if f.rows != rows || f.cols != cols {
		return argErr(op, name, "job %v needs %dx%d, got %dx%d", job, rows, cols, f.rows, f.cols)
	}
	if f.batch != batch {
		return argErr(op, name, "batch %d != a's batch %d", f.batch, batch)
	}
	return nil
}

// emptyIdentities are the factors that Gesvd of empty matrices (k = 0) sets to the
// identity: each SVDAll one that has rows (u when m > 0, vt when n > 0).
func (c *gesvdCall[T, R]) emptyIdentities() []*Matrix[T] {
	var fs []*Matrix[T]
	for _, f := range []struct {
		job SVDJob
		m   *Matrix[T]
	}{{c.jobu, c.u}, {c.jobvt, c.vt}} {
		if f.job == SVDAll && f.m.rows > 0 {
			fs = append(fs, f.m)
		}
	}
	return fs
}

func (c *gesvdCall[T, R]) key() callKey {
	return shapeKey("jobu", c.jobu, "jobvt", c.jobvt, "m", c.a.rows, "n", c.a.cols, "batch", c.a.batch)
}

func gesvdFamilies[T Scalar, R Real]() []family[gesvdCall[T, R]] {
	return []family[gesvdCall[T, R]]{
		// jacobi:qr=0 decomposes A (A^H when wide) in shared memory; jacobi:qr=1 decomposes
		// the R of its QR factorization there, for tall or wide matrices whose W does not fit;
		// blocked:qr=0 and blocked:qr=1 likewise with the work arrays in global workspace, at
		// any shape (gesvd_cuda.go). blocked:gram=1 first runs block Jacobi sweeps whose Gram
		// matrices, their eigenvectors and the rotations are the public Gemm and Syev over
		// whole rounds of block pairs, then the same kernel as a finishing pass
		// (gesvd_gram_cuda.go); it runs where min(m, n) splits into at least two pairs of
		// blocks of 8, 16 or 32 columns. It comes after gram=0 until the tables say where it
		// is faster (bench/gesvd_gram.sh). A pin "jacobi" or "blocked" is the first.
		gesvdJacobiFamily[T, R]("jacobi", jacobiKind{}),
		gesvdJacobiFamily[T, R]("jacobi", jacobiKind{qr: true}),
		gesvdJacobiFamily[T, R]("blocked", jacobiKind{global: true}),
		gesvdJacobiFamily[T, R]("blocked", jacobiKind{global: true, qr: true}),
		gesvdJacobiFamily[T, R]("blocked", jacobiKind{global: true, gram: true}),
		gesvdJacobiFamily[T, R]("blocked", jacobiKind{global: true, qr: true, gram: true}),
		vendorFamily(gesvdLAPACK[T, R](), gesvdCUDAVendor[T, R](), gesvdROCm[T, R]()),
		hostFamily(gesvdHost[T, R]),
	}
}

// jacobiKind is a member of the jacobi or blocked family: blocked's work arrays are in
// global workspace (global), qr its QR path, gram its block Jacobi sweeps ahead of the kernel.
type jacobiKind struct{ global, qr, gram bool }

// gesvdJacobiFamily is the member qr=0 or qr=1 of the family jacobi, or qr=0|1 with gram=0|1
// of blocked.
func gesvdJacobiFamily[T Scalar, R Real](name string, k jacobiKind) family[gesvdCall[T, R]] {
	fields := []selection.Field{{Name: "qr", Value: b2i(k.qr)}}
	if k.global {
		fields = append(fields, selection.Field{Name: "gram", Value: b2i(k.gram)})
	}
	return family[gesvdCall[T, R]]{name: name, fields: fields, canRun: gesvdJacobiCanRun[T, R](k),
		bufferSize: gesvdJacobiBufferSize[T, R](k), launch: gesvdJacobi[T, R](k)}
}

// b2i is a member's 0/1 field value.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
