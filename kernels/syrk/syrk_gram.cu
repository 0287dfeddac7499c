// syrk "gram": the rank-k and rank-2k updates of syrk_tiles.cuh (syrk, herk, syr2k, her2k)
// for C of order n <= 128 (64 for complex types), one block a matrix whose one tile covers
// all of C, so that A (and B) cross from memory once: syrk_gram<E>_<dtype> has tiles of E
// = 32, 64 or 128 (2, 4 or 8 elements a thread each way), the batch in grid x.
// tiles.cuh, which syrk_tiles.cuh builds on, named here so that the MANIFEST hash covers it.
#include "../gemm/tiles.cuh"
#include "syrk_tiles.cuh"

RANK_KERNEL(syrk_gram32_f32, float, 2, 16, false)
RANK_KERNEL(syrk_gram32_f64, double, 2, 16, false)
RANK_KERNEL(syrk_gram32_c64, cfloat, 2, 8, false)
RANK_KERNEL(syrk_gram32_c128, cdouble, 2, 8, false)
RANK_KERNEL(syrk_gram64_f32, float, 4, 16, false)
RANK_KERNEL(syrk_gram64_f64, double, 4, 16, false)
RANK_KERNEL(syrk_gram64_c64, cfloat, 4, 8, false)
RANK_KERNEL(syrk_gram64_c128, cdouble, 4, 8, false)
// 128 for real types only: a complex 8-by-8 accumulator is past the registers of a thread.
RANK_KERNEL(syrk_gram128_f32, float, 8, 8, false)
RANK_KERNEL(syrk_gram128_f64, double, 8, 8, false)
