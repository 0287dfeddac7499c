package batchlas

// trmmHost multiplies every matrix of the batch with gonum's ?trmm, in the matrix's own
// precision (recursively on the packed gemm above triLeaf, triRec); see triHost for the
// row-major mapping.
func trmmHost[T Scalar](_ *Queue, c *trmmCall[T]) error {
	trmm, _ := triFuncs[T]()
	triHost(&c.triCall, false, trmm)
	return nil
}
