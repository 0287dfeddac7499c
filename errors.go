package batchlas

import (
	"errors"
	"fmt"
	"strings"

	"github.com/batchlas/batchlas/internal/dl"
)

// ErrInvalidArgument is wrapped by every error that reports a bad argument. Such a call
// enqueued nothing and wrote nothing.
var ErrInvalidArgument = errors.New("batchlas: invalid argument")

// ErrClosed is returned when a closed queue, or data that belongs to one, is used.
var ErrClosed = errors.New("batchlas: queue is closed")

// ArgError names the argument of a call that broke a rule.
type ArgError struct {
	Op   string // the operation, e.g. "potrf"
	Arg  string // the argument's name, e.g. "a" or "uplo"
	Rule string // what was wrong, e.g. "ld 3 < rows 4"
}

func (e *ArgError) Error() string {
	if e == nil {
		return "batchlas: <nil ArgError>"
	}
	return fmt.Sprintf("batchlas: %s: argument %s: %s", e.Op, e.Arg, unprefixed(e.Rule))
}

func (e *ArgError) Unwrap() error { return ErrInvalidArgument }

func argErr(op, arg, format string, args ...any) error {
	return &ArgError{Op: op, Arg: arg, Rule: fmt.Sprintf(format, args...)}
}

// NoRouteError reports that no family of an operation can run a call on a queue, for
// example in a novendor build where no native kernel covers the shape yet.
type NoRouteError struct {
	Op      string   // the operation
	DType   string   // f32, f64, c64 or c128
	Backend string   // the queue's backend
	Key     string   // the call's selection key, e.g. "n=64 batch=8192"
	Tried   []string // each family considered and why it refused
}

func (e *NoRouteError) Error() string {
	if e == nil {
		return "batchlas: <nil NoRouteError>"
	}
	return fmt.Sprintf("batchlas: %s: no route for %s %s on %s (tried %s)",
		e.Op, e.DType, e.Key, e.Backend, unprefixed(strings.Join(e.Tried, "; ")))
}

// DeviceError reports a failed driver or library call: its fields are Library (e.g. "cuda",
// "cublas", "cusolver"), Call (the function that failed), Status (its status code) and Name
// (the status' name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"). The libraries' loader (internal/dl)
// makes them.
type DeviceError = dl.Error

// closedError is ErrClosed met by an operation.
type closedError struct{ op string }

func (e *closedError) Error() string { return "batchlas: " + e.op + ": queue is closed" }

func (e *closedError) Unwrap() error { return ErrClosed }

// unprefixed drops the "batchlas: " prefixes of error texts quoted inside another error's
// text, so that every message carries the prefix exactly once, at its start.
func unprefixed(s string) string { return strings.ReplaceAll(s, "batchlas: ", "") }
