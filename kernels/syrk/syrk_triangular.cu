// syrk "triangular": the rank-k and rank-2k updates of syrk_tiles.cuh (syrk, herk, syr2k,
// her2k) for any order n: 64-by-64 tiles, only the T(T+1)/2 tiles of the uplo triangle
// launched (T = ceil(n/64)), the blocks over (tile, matrix) in grid x.
// tiles.cuh, which syrk_tiles.cuh builds on, named here so that the MANIFEST hash covers it.
#include "../gemm/tiles.cuh"
#include "syrk_tiles.cuh"

RANK_KERNEL(syrk_triangular_f32, float, 4, 16, true)
RANK_KERNEL(syrk_triangular_f64, double, 4, 16, true)
RANK_KERNEL(syrk_triangular_c64, cfloat, 4, 8, true)
RANK_KERNEL(syrk_triangular_c128, cdouble, 4, 8, true)
