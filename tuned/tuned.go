// Package tuned holds the routing tables that selection reads: tuned/<op>.<device>.txt, one
// per op and device key ("cpu", "sm_90", ...), in the format described in package
// selection. They are embedded at build time; BATCHLAS_TUNED_DIR replaces them at run time.
// Rows marked "transcribed" are untimed preference orders, waiting for a measurement (cmd/batchbench, then bench/totable).
package tuned

import "embed"

// FS holds the table files.
//
//go:embed *.txt
var FS embed.FS
