//go:build cuda

package batchlas

// posvFactor is the potrf family that posv "cta" factors with: the one potrf's own routing
// (its pin, its table) picks when its vendor and host families are taken as unable to run,
// called through its own launch so that posv factors as potrf would; nil when none can. The
// list stays whole, so that every entry of potrf's tables still names a candidate. The
// answer is kept in c: the first of a call's canRun, bufferSize and launch chooses.
func posvFactor[T Scalar](q *Queue, c *posvCall[T]) (*family[potrfCall[T]], *potrfCall[T]) {
	pc := c.potrf()
	if !c.factorChosen {
		fams := potrfFamilies[T]()
		for i := range fams {
			if fams[i].vendor || fams[i].name == "host" {
				fams[i].canRun = func(*Queue, *potrfCall[T]) bool { return false }
			}
		}
		c.factor, _, _ = selectFamily(q, "potrf", dtypeName[T](), pc.key(), fams, pc, false)
		c.factorChosen = true
	}
	if c.factor == nil {
		return nil, nil
	}
	return c.factor, pc
}

// potrf is the factorization of c's matrix as a potrf call.
func (c *posvCall[T]) potrf() *potrfCall[T] {
	return &potrfCall[T]{uplo: c.uplo, a: c.a, info: c.info}
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
