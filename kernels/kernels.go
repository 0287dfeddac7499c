// Package kernels holds the images of the native CUDA kernels: one fatbin per family,
// <family>.fatbin, built by build.sh from <op>/<family>.cu (machine code for sm_80, sm_89,
// sm_90 and sm_120, PTX for compute_80; MANIFEST says from which sources and with which
// toolkit) and embedded at build time.
//
// For kernel work on a GPU machine without Go, the environment variable
// BATCHLAS_CUDA_KERNELS may name a folder whose <family>.fatbin files replace the embedded
// ones (build.sh writes them next to itself): a binary built once then runs kernels rebuilt
// there. The binaries of make device-bundle embed empty fatbins and need it.
package kernels

import (
	"embed"
	"os"
	"path/filepath"
)

//go:embed *.fatbin
var fatbins embed.FS

// Image is the fatbin of family: from BATCHLAS_CUDA_KERNELS when that folder has it, else
// the embedded one.
func Image(family string) ([]byte, error) {
	if dir := os.Getenv("BATCHLAS_CUDA_KERNELS"); dir != "" {
		if img, err := os.ReadFile(filepath.Join(dir, family+".fatbin")); err == nil {
			return img, nil
		}
	}
	return fatbins.ReadFile(family + ".fatbin")
}
