// The stand-in for libamdhip64: exactly the HIP runtime functions internal/hip resolves, on
// the CPU. Device memory is host memory mapped for each allocation (up to kGuarded at once)
// so that it ends, after a slack of one page, at an inaccessible page (and is unmapped when
// freed): an access further past the end of an allocation, or after its hipFree, faults at
// the access, not later in someone else's memory. The slack is for the system BLAS: Debian
// 12's OpenBLAS 0.3.21 reads past the arrays it is given (its Haswell complex gemv kernel, a
// known defect of that release, under cheev and cgesvd; here cgels read 16 bytes past a
// 3-by-7 A, and cheev, in the suite, reached the guard page after a slack of 256 bytes).
// Copies are memcpy, streams and events run nothing (every call of the stand-in libraries
// completes before it returns), and the one device is "BatchLAS ROCm stand-in" with
// gcnArchName gfx90a.
#include <sys/mman.h>
#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include "roc.h"

namespace {
const size_t kMemory = size_t(16) << 30;
const size_t kSlack = 4096; // bytes between an allocation's end and its inaccessible page
// The mappings of live allocations: the address hipMalloc returned, to the mapping's start
// and length.
std::mutex mu;
std::map<void *, std::pair<void *, size_t>> live;
const size_t kGuarded = 16384; // the most guarded allocations live at once
double now_ms() {
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
} // namespace

extern "C" {
hipError_t hipInit(unsigned) { return 0; }
const char *hipGetErrorName(hipError_t e) {
	switch (e) {
	case 0: return "hipSuccess";
	case 1: return "hipErrorInvalidValue";
	case 2: return "hipErrorOutOfMemory";
	case 101: return "hipErrorInvalidDevice";
	}
	return "hipErrorUnknown";
}
hipError_t hipRuntimeGetVersion(int *v) { *v = 60000000; return 0; }
hipError_t hipGetDeviceCount(int *n) { *n = 1; return 0; }
hipError_t hipSetDevice(int d) { return d == 0 ? 0 : 101; }
// hipGetDeviceProperties writes the name at offset 0 and gcnArchName further on; the Go side
// reads nothing else of the struct.
hipError_t hipGetDeviceProperties(void *props, int d) {
	if (d != 0) return 101;
	char *p = static_cast<char *>(props);
	memset(p, 0, 1472);
	strcpy(p, "BatchLAS ROCm stand-in");
	strcpy(p + 1160, "gfx90a:sramecc+:xnack-");
	return 0;
}
hipError_t hipDeviceGetAttribute(int *v, int attr, int d) {
	if (d != 0) return 101;
	switch (attr) {
	case 56: *v = 1024; return 0;  // max threads per block
	case 87: *v = 64; return 0;    // warp size
	case 63: *v = 110; return 0;   // compute units
	case 74: *v = 65536; return 0; // shared memory per block
	}
	return 1;
}
hipError_t hipDeviceTotalMem(size_t *b, int d) { *b = kMemory; return d == 0 ? 0 : 101; }
hipError_t hipMemGetInfo(size_t *f, size_t *t) { *f = kMemory; *t = kMemory; return 0; }
// hipMalloc maps the allocation's pages and one more, inaccessible, after them; the address
// it returns is 16-byte aligned and its n bytes (rounded up to 16) and the slack end at that
// page. Each such allocation is two of the process's memory maps, and the kernel allows
// 65530 by default (vm.max_map_count; the suite once ran out with every allocation guarded):
// past kGuarded live guarded allocations, the rest come from malloc, with the slack.
hipError_t hipMalloc(void **p, size_t n) {
	const size_t page = size_t(sysconf(_SC_PAGESIZE)), used = (n + 15) / 16 * 16 + kSlack;
	std::lock_guard<std::mutex> g(mu);
	if (live.size() >= kGuarded) {
		*p = aligned_alloc(256, (used + 255) / 256 * 256);
		return *p ? 0 : 2;
	}
	const size_t len = (used + page - 1) / page * page + page;
	char *m = static_cast<char *>(mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	if (m == MAP_FAILED) return 2;
	mprotect(m + len - page, page, PROT_NONE);
	*p = m + len - page - used;
	live[*p] = {m, len};
	return 0;
}
hipError_t hipFree(void *p) {
	if (!p) return 0;
	std::lock_guard<std::mutex> g(mu);
	auto it = live.find(p);
	if (it == live.end()) {
		free(p);
		return 0;
	}
	munmap(it->second.first, it->second.second);
	live.erase(it);
	return 0;
}
hipError_t hipMemcpyAsync(void *d, const void *s, size_t n, int, hipStream_t) { memmove(d, s, n); return 0; }
hipError_t hipMemsetD32Async(void *p, int v, size_t n, hipStream_t) {
	uint32_t *w = static_cast<uint32_t *>(p);
	for (size_t i = 0; i < n; i++) w[i] = uint32_t(v);
	return 0;
}
hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned) { *s = new int(0); return 0; }
hipError_t hipStreamDestroy(hipStream_t s) { delete static_cast<int *>(s); return 0; }
hipError_t hipStreamSynchronize(hipStream_t) { return 0; }
hipError_t hipEventCreate(hipEvent_t *e) { *e = new double(0); return 0; }
hipError_t hipEventDestroy(hipEvent_t e) { delete static_cast<double *>(e); return 0; }
hipError_t hipEventRecord(hipEvent_t e, hipStream_t) { *static_cast<double *>(e) = now_ms(); return 0; }
hipError_t hipEventSynchronize(hipEvent_t) { return 0; }
hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b) {
	*ms = float(*static_cast<double *>(b) - *static_cast<double *>(a));
	return 0;
}
}
