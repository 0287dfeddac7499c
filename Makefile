# Build, test and vet targets; see README.md.
GO ?= go
TAGSETS := "" host cuda rocm novendor "cuda novendor" "cuda rocm host" "host novendor" purego
DEV := .dev

.PHONY: build test vet vet-all-tags bench fuzz device-bundle census

build:
	CGO_ENABLED=0 $(GO) build ./...

# The README's test command.
test:
	CGO_ENABLED=0 $(GO) test ./...

vet: vet-all-tags

vet-all-tags:
	@for t in $(TAGSETS); do echo "vet tags='$$t'"; CGO_ENABLED=0 $(GO) vet -tags "$$t" ./... || exit 1; done

# Short fuzzing of the argument validators and of the spelling and table parsers.
fuzz:
	@for p in ./tests ./select; do for f in $$($(GO) test -list 'Fuzz.*' $$p | grep ^Fuzz); do \
		$(GO) test -run xxx -fuzz "^$$f$$" -fuzztime 10s $$p || exit 1; done; done

bench:
	$(GO) run ./cmd/batchbench

# Cross-compiles the cuda conformance suite and batchbench into $(DEV)/ (git-ignored) for a
# GPU machine that has no Go; README.md, "On a GPU machine", has the commands that run them
# there. The binaries leave the fatbins out (an -overlay empties kernels/*.fatbin for the
# build), which keeps the bundle small: there they read the kernels from
# BATCHLAS_CUDA_KERNELS, the checkout's kernels/ or a fresh build of it (bench/device.sh).
device-bundle:
	mkdir -p $(DEV)
	: >$(DEV)/empty
	printf '{"Replace":{%s}}' "$$(for f in kernels/*.fatbin; do printf '"%s":"%s",' "$$PWD/$$f" "$$PWD/$(DEV)/empty"; done | sed 's/,$$//')" >$(DEV)/overlay.json
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) test -c -overlay $(DEV)/overlay.json -ldflags "-s -w" -tags cuda -o $(DEV)/tests.test ./tests
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) test -c -overlay $(DEV)/overlay.json -ldflags "-s -w" -tags "cuda novendor" -o $(DEV)/census.test ./tests
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) test -c -overlay $(DEV)/overlay.json -ldflags "-s -w" -tags cuda -o $(DEV)/root.test .
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -overlay $(DEV)/overlay.json -tags cuda -ldflags "-s -w -X main.commit=$$(git rev-parse --short HEAD)" -o $(DEV)/batchbench ./cmd/batchbench
	rm -rf $(DEV)/kernels

# The vendor-free census: the conformance suite built with -tags novendor (plus CENSUS_TAGS,
# e.g. cuda), and every call that no native family could run.
census:
	$(GO) run ./vendorfree $(CENSUS_TAGS)
