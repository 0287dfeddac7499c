package batchlas

import selection "github.com/batchlas/batchlas/select"

// routedOps lists every op that dispatches through selection, with its candidates per
// dtype. A new op needs three lines, and tests/route_test.go fails until it has them: its
// entry here, tuned/<op>.cpu.txt (untimed rows "| host - # transcribed" over its key, until
// cmd/batchbench and bench/totable measure it), and its entry in pinnedSuites in tests/route_test.go.
var routedOps = map[string]func(dtype string) []selection.Candidate{
	"potrf": perDType(potrfFamilies[float32], potrfFamilies[float64], potrfFamilies[complex64], potrfFamilies[complex128]),
	"gemm":  perDType(gemmFamilies[float32], gemmFamilies[float64], gemmFamilies[complex64], gemmFamilies[complex128]),
	"gemv":  perDType(gemvFamilies[float32], gemvFamilies[float64], gemvFamilies[complex64], gemvFamilies[complex128]),
	"trsm":  perDType(trsmFamilies[float32], trsmFamilies[float64], trsmFamilies[complex64], trsmFamilies[complex128]),
	"trmm":  perDType(trmmFamilies[float32], trmmFamilies[float64], trmmFamilies[complex64], trmmFamilies[complex128]),
	"symm":  perDType(symmFamilies[float32], symmFamilies[float64], symmFamilies[complex64], symmFamilies[complex128]),
	"hemm":  perDType(hemmFamilies[float32], hemmFamilies[float64], hemmFamilies[complex64], hemmFamilies[complex128]),
	"syrk":  perDType(syrkFamilies[float32], syrkFamilies[float64], syrkFamilies[complex64], syrkFamilies[complex128]),
	"herk":  perDType(herkFamilies[float32], herkFamilies[float64], herkFamilies[complex64], herkFamilies[complex128]),
	"syr2k": perDType(syr2kFamilies[float32], syr2kFamilies[float64], syr2kFamilies[complex64], syr2kFamilies[complex128]),
	"her2k": perDType(her2kFamilies[float32], her2kFamilies[float64], her2kFamilies[complex64], her2kFamilies[complex128]),
	"potrs": perDType(potrsFamilies[float32], potrsFamilies[float64], potrsFamilies[complex64], potrsFamilies[complex128]),
	"posv":  perDType(posvFamilies[float32], posvFamilies[float64], posvFamilies[complex64], posvFamilies[complex128]),
	"getrf": perDType(getrfFamilies[float32], getrfFamilies[float64], getrfFamilies[complex64], getrfFamilies[complex128]),
	"getrs": perDType(getrsFamilies[float32], getrsFamilies[float64], getrsFamilies[complex64], getrsFamilies[complex128]),
	"getri": perDType(getriFamilies[float32], getriFamilies[float64], getriFamilies[complex64], getriFamilies[complex128]),
	"gesv":  perDType(gesvFamilies[float32], gesvFamilies[float64], gesvFamilies[complex64], gesvFamilies[complex128]),
	"geqrf": perDType(geqrfFamilies[float32], geqrfFamilies[float64], geqrfFamilies[complex64], geqrfFamilies[complex128]),
	"orgqr": perDType(orgqrFamilies[float32], orgqrFamilies[float64], orgqrFamilies[complex64], orgqrFamilies[complex128]),
	"ormqr": perDType(ormqrFamilies[float32], ormqrFamilies[float64], ormqrFamilies[complex64], ormqrFamilies[complex128]),
	"gels":  perDType(gelsFamilies[float32], gelsFamilies[float64], gelsFamilies[complex64], gelsFamilies[complex128]),
	"syev": perDType(syevFamilies[float32, float32], syevFamilies[float64, float64], syevFamilies[complex64, float32],
		syevFamilies[complex128, float64]),
	"spmm": perDType(spmmFamilies[float32], spmmFamilies[float64], spmmFamilies[complex64], spmmFamilies[complex128]),
	"gesvd": perDType(gesvdFamilies[float32, float32], gesvdFamilies[float64, float64], gesvdFamilies[complex64, float32],
		gesvdFamilies[complex128, float64]),
}
