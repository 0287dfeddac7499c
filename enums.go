package batchlas

import "fmt"

// Uplo names the triangle of a matrix that an operation reads or writes.
type Uplo byte

const (
	Lower Uplo = 'L' // the lower triangle, diagonal included
	Upper Uplo = 'U' // the upper triangle, diagonal included
)

func (u Uplo) valid() bool { return u == Lower || u == Upper }

func (u Uplo) String() string {
	if u.valid() {
		return string(rune(u))
	}
	return fmt.Sprintf("Uplo(%d)", byte(u))
}

// Transpose names op(A): A, A^T or A^H.
type Transpose byte

const (
	NoTrans   Transpose = 'N' // op(A) = A
	Trans     Transpose = 'T' // op(A) = A^T
	ConjTrans Transpose = 'C' // op(A) = A^H; A^T for real types
)

func (t Transpose) valid() bool { return t == NoTrans || t == Trans || t == ConjTrans }

func (t Transpose) String() string {
	if t.valid() {
		return string(rune(t))
	}
	return fmt.Sprintf("Transpose(%d)", byte(t))
}

// Side says whether a matrix multiplies from the left or from the right.
type Side byte

const (
	Left  Side = 'L' // op(A) B
	Right Side = 'R' // B op(A)
)

func (s Side) valid() bool { return s == Left || s == Right }

func (s Side) String() string {
	if s.valid() {
		return string(rune(s))
	}
	return fmt.Sprintf("Side(%d)", byte(s))
}

// Diag says whether a triangular matrix has a unit diagonal that is not read.
type Diag byte

const (
	NonUnit Diag = 'N' // the diagonal is read
	Unit    Diag = 'U' // the diagonal is taken as ones and not read
)

func (d Diag) valid() bool { return d == NonUnit || d == Unit }

func (d Diag) String() string {
	if d.valid() {
		return string(rune(d))
	}
	return fmt.Sprintf("Diag(%d)", byte(d))
}

// Job says whether an eigensolver computes eigenvectors.
type Job byte

const (
	NoVectors Job = 'N' // eigenvalues only
	Vectors   Job = 'V' // eigenvalues and eigenvectors
)

func (j Job) valid() bool { return j == NoVectors || j == Vectors }

func (j Job) String() string {
	if j.valid() {
		return string(rune(j))
	}
	return fmt.Sprintf("Job(%d)", byte(j))
}

// SVDJob says which singular vectors Gesvd computes.
type SVDJob byte

const (
	SVDNone SVDJob = 'N' // no singular vectors
	SVDThin SVDJob = 'S' // the first min(m, n) columns of U (rows of V^H)
	SVDAll  SVDJob = 'A' // all m columns of U (all n rows of V^H)
)

func (j SVDJob) valid() bool { return j == SVDNone || j == SVDThin || j == SVDAll }

func (j SVDJob) String() string {
	if j.valid() {
		return string(rune(j))
	}
	return fmt.Sprintf("SVDJob(%d)", byte(j))
}
