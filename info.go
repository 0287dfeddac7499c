package batchlas

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// InfoError reports the matrices of a batch whose info value is not zero: numerical failures
// (not positive definite, singular, no convergence) that an op records per matrix instead of
// returning an error. The other matrices' results are right.
type InfoError struct {
	Op     string  // the operation that wrote the info, lower case, e.g. "potrf"
	Info   []int32 // the raw info values, one per matrix
	Failed []int   // the matrices b with Info[b] != 0, ascending
}

// infoMeanings says, per op, what info = k > 0 means, in LAPACK's words; %d is k.
var infoMeanings = map[string]string{
	"potrf": "the leading minor of order %d is not positive definite; the factorization is incomplete",
	"posv":  "the leading minor of order %d is not positive definite; B is not solved",
	"getrf": "U(%[1]d,%[1]d) is exactly zero: the matrix is singular",
	"gesv":  "U(%[1]d,%[1]d) is exactly zero: the matrix is singular; B is not solved",
	"getri": "U(%[1]d,%[1]d) is exactly zero: the matrix is singular and is not inverted",
	"gels":  "R(%[1]d,%[1]d) is exactly zero: the matrix does not have full rank; B is not solved",
	"syev":  "%d off-diagonal elements of the tridiagonal form did not converge",
	"gesvd": "%d superdiagonals of the bidiagonal form did not converge",
}

// listed is how many failing matrices Error names before it counts the rest.
const listed = 8

func (e *InfoError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "batchlas: %s: %d of %d matrices failed", e.Op, len(e.Failed), len(e.Info))
	for i, m := range e.Failed {
		if i == listed {
			fmt.Fprintf(&b, "; and %d more", len(e.Failed)-listed)
			break
		}
		fmt.Fprintf(&b, "; matrix %d: %s", m, e.Meaning(m))
	}
	return b.String()
}

// Meaning says what Info[b] means for Op: "" for 0 (success).
func (e *InfoError) Meaning(b int) string {
	switch k := e.Info[b]; {
	case k == 0:
		return ""
	case k < 0:
		// batchlas reports bad arguments as errors, so a negative value was never written by
		// the op: most likely the vector was not the op's info, or was read before the op ran.
		return fmt.Sprintf("info %d is not an op's result (no op of this package writes a negative info)", k)
	default:
		return fmt.Sprintf(infoMeanings[e.Op], k)
	}
}

// CheckInfo downloads an op's info vector and returns nil when every value is zero, an
// *InfoError listing the failing matrices with LAPACK's meaning of their values for op
// (potrf, posv, getrf, gesv, getri, gels, syev or gesvd, in any case) otherwise, or the
// download's error. Like any download it waits for the work enqueued before it.
func CheckInfo(op string, info *Vector[int32]) error {
	const name = "CheckInfo"
	if _, err := infoOp(name, op); err != nil {
		return err
	}
	if err := info.checkOwn(name); err != nil {
		return err
	}
	vals, err := info.Download(nil)
	if err != nil {
		return err
	}
	return CheckInfoValues(op, vals)
}

// CheckInfoValues is CheckInfo for info values already on the host; the *InfoError keeps
// the slice.
func CheckInfoValues(op string, info []int32) error {
	op, err := infoOp("CheckInfoValues", op)
	if err != nil {
		return err
	}
	var failed []int
	for b, k := range info {
		if k != 0 {
			failed = append(failed, b)
		}
	}
	if failed == nil {
		return nil
	}
	return &InfoError{Op: op, Info: info, Failed: failed}
}

func infoOp(name, op string) (string, error) {
	op = strings.ToLower(op)
	if _, ok := infoMeanings[op]; !ok {
		return "", argErr(name, "op", "%q writes no info (ops with info: %s)", op, strings.Join(slices.Sorted(maps.Keys(infoMeanings)), ", "))
	}
	return op, nil
}
