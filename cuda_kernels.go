//go:build cuda

package batchlas

import (
	"embed"
	"os"
	"path/filepath"
)

// The native kernels, built by kernels/build.sh into one fatbin per family (machine code for
// sm_80, sm_89, sm_90 and sm_120, PTX for compute_80) and embedded here.
//
// For kernel work on a GPU machine without Go, the environment variable
// BATCHLAS_CUDA_KERNELS may name a folder whose <name>.fatbin files replace the embedded ones
// (kernels/build.sh writes them next to itself): a binary built once then runs kernels
// rebuilt there. The binaries of make device-bundle embed empty fatbins and need it.
//
//go:embed kernels/*.fatbin
var fatbins embed.FS

// gridXMax is the most blocks a grid's x dimension takes (2^31 - 1), where the kernels put
// the batch.
const gridXMax = 1<<31 - 1

// kernelImage is the fatbin named mod: from BATCHLAS_CUDA_KERNELS when that folder has it,
// else the embedded one.
func kernelImage(mod string) ([]byte, error) {
	if dir := os.Getenv("BATCHLAS_CUDA_KERNELS"); dir != "" {
		if img, err := os.ReadFile(filepath.Join(dir, mod+".fatbin")); err == nil {
			return img, nil
		}
	}
	return fatbins.ReadFile("kernels/" + mod + ".fatbin")
}
