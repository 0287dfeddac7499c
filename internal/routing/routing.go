// Package routing is the link between the root package, which owns the families of every
// op, and package route, the tuners' facade over them: the root package registers its
// selection library and its candidate listing here when it is initialized, so that route
// can reach them without the root package exporting them.
package routing

import selection "github.com/batchlas/batchlas/select"

// Library is the root package's selection library: the embedded tables, the warnings given,
// the trace and the coverage rows.
var Library *selection.Library

// Candidates lists op's candidates for dtype in list order; known is false for an op that
// does not route, and the list nil for a dtype it does not have.
var Candidates func(op, dtype string) (cands []selection.Candidate, known bool)

// Ops lists, sorted, the ops that route.
var Ops func() []string
