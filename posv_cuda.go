//go:build cuda

package batchlas

// posvFactor is the potrf family that posv "cta" factors with: the first native one in
// potrf's list (neither vendor nor host) that can run the factorization, called through its
// own launch so that posv follows potrf's kernels; nil when none can.
func posvFactor[T Scalar](q *Queue, c *posvCall[T]) (*family[potrfCall[T]], *potrfCall[T]) {
	pc := &potrfCall[T]{uplo: c.uplo, a: c.a, info: c.info}
	fams := potrfFamilies[T]()
	for i := range fams {
		if f := &fams[i]; !f.vendor && f.name != "host" && f.canRun(q, pc) {
			return f, pc
		}
	}
	return nil, nil
}

// posvCTACanRun: potrf has a native family for a and potrs "cta" can solve b.
func posvCTACanRun[T Scalar](q *Queue, c *posvCall[T]) bool {
	f, _ := posvFactor(q, c)
	return f != nil && triCTAFits[T](q, c.a.rows, c.b.cols, c.a.batch)
}

// posvCTABufferSize is the workspace of the factorization; the solve needs none.
func posvCTABufferSize[T Scalar](q *Queue, c *posvCall[T]) int {
	if f, pc := posvFactor(q, c); f != nil && f.bufferSize != nil {
		return f.bufferSize(q, pc)
	}
	return 0
}

// posvCTA factors with potrf's native family, which writes info, then solves with potrs
// "cta" skipping the matrices whose info is not 0: two launches on the stream.
func posvCTA[T Scalar](q *Queue, c *posvCall[T]) error {
	f, pc := posvFactor(q, c)
	if f == nil {
		return argErr("posv", "route", "cta: potrf has no native family for this call")
	}
	if err := f.launch(q, pc); err != nil {
		return err
	}
	return potrsCTALaunch(q, c.uplo, c.a, c.b, c.info.devPtr())
}
