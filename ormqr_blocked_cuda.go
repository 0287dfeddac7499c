//go:build cuda

package batchlas

// ormqrBlock is a group of reflectors of the "blocked" family, j0..j0+kk-1 of c: with
// Q = G_1 G_2 ... G_g, G_i the product of group i's reflectors,
//
//	Q C = G_1 (... (G_g C)),   Q^H C = G_g^H (... (G_1^H C)),
//	C Q = ((C G_1) ...) G_g,   C Q^H = ((C G_g^H) ...) G_1^H,
//
// and G_i acts on rows j0:nq of C (Left) or its columns j0:nq (Right) alone, since its
// reflectors are zero above row j0. pieces apply G_i (or G_i^H) to that part of C cut into
// chunks of the other dimension (C's columns for Left, its rows for Right), which are updated
// independently, each by the cta kernel.
type ormqrBlock[T Scalar] struct {
	j0, kk int
	pieces []*ormqrCall[T]
}

// ormqrBlocks splits c (not empty) into groups of w reflectors, w the largest of k halved
// repeatedly for which every group has pieces that the cta kernel runs, each group's part of
// C cut into the widest chunks (all of it, halved repeatedly) that it runs. With more than
// one group, each group's kk taus a matrix are read from groupTau + j0*batch elements (a
// placeholder when 0, for canRun), where ormqrBlocked copies them: the kernel reads a call's
// tau k to a matrix. nil when even one reflector on one column or row does not fit.
func ormqrBlocks[T Scalar](q *Queue, c *ormqrCall[T], groupTau uintptr) []ormqrBlock[T] {
	nq, batch, es := c.nq(), c.c.batch, sizeOf[T]()
	for w := c.k; ; w = (w + 1) / 2 {
		var bs []ormqrBlock[T]
		for j0 := 0; j0 < c.k; j0 += w {
			kk := min(w, c.k-j0)
			tau := c.tau
			if w < c.k {
				tau = &Vector[T]{q: q, mem: &allocation{q: q, ptr: groupTau + uintptr(j0*batch*es), bytes: kk * batch * es}, n: kk * batch}
			}
			pieces := ormqrPieces(q, c, j0, &ormqrCall[T]{side: c.side, trans: c.trans, k: kk, a: c.a.sub(j0, j0, nq-j0, kk), tau: tau})
			if pieces == nil {
				bs = nil
				break
			}
			bs = append(bs, ormqrBlock[T]{j0: j0, kk: kk, pieces: pieces})
		}
		if bs != nil {
			return bs
		}
		if w == 1 {
			return nil
		}
	}
}

// ormqrPieces cuts the part of c's C from row (Left) or column (Right) j0 on into the widest
// chunks of the other dimension that the cta kernel runs with g's reflectors: copies of g,
// each with its chunk as C; nil when a single column or row does not fit.
func ormqrPieces[T Scalar](q *Queue, c *ormqrCall[T], j0 int, g *ormqrCall[T]) []*ormqrCall[T] {
	nq, free := c.nq(), c.c.cols
	if c.side == Right {
		free = c.c.rows
	}
	for cw := free; ; cw = (cw + 1) / 2 {
		var ps []*ormqrCall[T]
		ok := true
		for c0 := 0; c0 < free && ok; c0 += cw {
			p := *g
			if c.side == Left {
				p.c = c.c.sub(j0, c0, nq-j0, min(cw, free-c0))
			} else {
				p.c = c.c.sub(c0, j0, min(cw, free-c0), nq-j0)
			}
			ok = ormqrCTACanRun(q, &p)
			ps = append(ps, &p)
		}
		if ok {
			return ps
		}
		if cw == 1 {
			return nil
		}
	}
}

// ormqrBlockedCanRun: an empty call, or groups and pieces that the cta kernel runs.
func ormqrBlockedCanRun[T Scalar](q *Queue, c *ormqrCall[T]) bool {
	return ormqrEmpty(c) || ormqrBlocks(q, c, 0) != nil
}

// ormqrBlockedBytes is the workspace of the groups' taus: none for one group, which reads
// the call's.
func ormqrBlockedBytes[T Scalar](c *ormqrCall[T], bs []ormqrBlock[T]) int {
	if len(bs) <= 1 {
		return 0
	}
	return carveBytes(c.k * c.c.batch * sizeOf[T]())
}

// ormqrBlockedBufferSize: the groups' taus.
func ormqrBlockedBufferSize[T Scalar](q *Queue, c *ormqrCall[T]) int {
	if ormqrEmpty(c) {
		return 0
	}
	return ormqrBlockedBytes(c, ormqrBlocks(q, c, 0))
}

// ormqrBlocked copies the groups' taus and applies the groups in ormqrBlock's order: the
// last first for Q C and C Q^H, the first first for Q^H C and C Q.
func ormqrBlocked[T Scalar](q *Queue, c *ormqrCall[T]) error {
	if ormqrEmpty(c) {
		return nil
	}
	bs := ormqrBlocks(q, c, 0)
	if bs == nil {
		return &NoRouteError{Op: "ormqr", DType: dtypeName[T](), Backend: q.dev.Backend.String(), Key: c.key().String()}
	}
	if own := ormqrBlockedBytes(c, bs); own > 0 {
		ws, err := q.scratch(own)
		if err != nil {
			return err
		}
		bs = ormqrBlocks(q, c, ws)
		es := uintptr(sizeOf[T]())
		for _, b := range bs {
			if err := copyMat[T](cudaOf(q), ws+uintptr(b.j0*c.c.batch)*es, 1, b.kk, c.tau.devPtr()+uintptr(b.j0)*es, 1, c.k,
				1, b.kk, c.c.batch, 0, 0); err != nil {
				return err
			}
		}
	}
	lastFirst := (c.side == Left) == (c.trans == NoTrans)
	for i := range bs {
		b := bs[i]
		if lastFirst {
			b = bs[len(bs)-1-i]
		}
		for _, p := range b.pieces {
			if err := ormqrCTA(q, p); err != nil {
				return err
			}
		}
	}
	return nil
}
