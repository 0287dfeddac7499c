# The nvcc flags of every fatbin, sourced by build.sh; check_manifest.sh hashes this file with
# each fatbin's sources, so a change of flags marks every fatbin stale.
#
# Machine code for sm_80, sm_89, sm_90 and, where the toolkit knows it (CUDA 12.8 and newer),
# sm_120, plus PTX for compute_80, which the driver compiles for any later GPU. Every image is
# compressed (-compress-all: the fully unrolled kernels' machine code shrinks several times
# over, which keeps the package, and a test binary that embeds it, small).
NVCC_FLAGS=(-fatbin -O3 -std=c++17 -Xptxas -v -Xfatbin -compress-all)
gencode() { # gencode RELEASE: the -gencode list for nvcc of that release (e.g. 13.0, 11.8)
	local r=$1
	GENCODE=(
		-gencode arch=compute_80,code=sm_80
		-gencode arch=compute_89,code=sm_89
		-gencode arch=compute_90,code=sm_90
	)
	if [ "$(printf '%s\n12.8\n' "$r" | sort -V | head -n1)" = 12.8 ]; then
		GENCODE+=(-gencode arch=compute_120,code=sm_120)
	fi
	GENCODE+=(-gencode arch=compute_80,code=compute_80)
}
