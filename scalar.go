package batchlas

import "unsafe"

// The traits of the element types, every one here: the names, letters and sizes that the
// kernels' entry points, the vendor libraries' function names, the tables and the errors
// spell a type by.

// dtypeName is the short name of an element type used in errors, traces and tables.
func dtypeName[E Element]() string {
	var z E
	switch any(z).(type) {
	case float32:
		return "f32"
	case float64:
		return "f64"
	case complex64:
		return "c64"
	case complex128:
		return "c128"
	}
	return "i32"
}

// dtypeIndex is T's place in the order float32, float64, complex64, complex128, which the
// per-type tables follow.
func dtypeIndex[T Scalar]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 0
	case float64:
		return 1
	case complex64:
		return 2
	}
	return 3
}

// sizeOf is the size of E in bytes.
func sizeOf[E Element]() int {
	var z E
	return int(unsafe.Sizeof(z))
}

// isComplex reports whether T is complex64 or complex128.
func isComplex[T Scalar]() bool { return dtypeIndex[T]() >= 2 }

// isSingle reports whether T's real type is float32 (float32 and complex64).
func isSingle[T Scalar]() bool { return dtypeIndex[T]()%2 == 0 }

// realName is the dtype name of T's real type.
func realName[T Scalar]() string {
	if isSingle[T]() {
		return "f32"
	}
	return "f64"
}

// lapackLetter is the letter of T in the Fortran routines' names: s, d, c or z.
func lapackLetter[T Scalar]() string { return "sdcz"[dtypeIndex[T]():][:1] }
