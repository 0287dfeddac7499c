# Sourced by the cpu benchmark scripts (cpu_vendor.sh, cpu_auto.sh) from the repository root:
# out (OUT_DIR, default bench/results/cpu, created), reps (REPS, 15) and bin (BIN, or a
# -tags host batchbench built into /tmp/batchbench-host).
out=${OUT_DIR:-bench/results/cpu}
reps=${REPS:-15}
bin=${BIN:-}
if [ -z "$bin" ]; then
	bin=/tmp/batchbench-host
	go build -tags host -o "$bin" ./cmd/batchbench
fi
mkdir -p "$out"
