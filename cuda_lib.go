//go:build cuda

package batchlas

import "github.com/batchlas/batchlas/internal/dl"

// cudaLibDirs are the folders tried, after the loader's own search, for the CUDA libraries:
// the driver's usual homes and the toolkit's.
var cudaLibDirs = []string{
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib",
	"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/wsl/lib",
}

// openLib opens the first of names that loads (dl.Open over cudaLibDirs).
func openLib(lib, missing string, names ...string) (*dl.Lib, error) {
	return dl.Open(lib, missing, cudaLibDirs, names...)
}
