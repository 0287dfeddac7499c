// The host side of the CPU emulator: a fake libcuda.so.1 holding every kernel of kernels/,
// compiled by g++ with cuda_emu.h. The Go code opens it in place of the NVIDIA driver (set
// LD_LIBRARY_PATH) and runs unchanged: memory is host memory, streams run in order at once,
// and cuLaunchKernel runs the grid's blocks one after another, each block's threads as
// fibers on the calling thread. A fiber runs until it reaches a barrier or a shuffle; when
// every live thread of the block (or of the warp) waits there, they all go on. A barrier
// that can never complete (one reached by only some threads) aborts the process with the
// kernel's name, which is how a divergent __syncthreads shows up.
//
// Launches must pass their arguments packed through `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER),
// every argument 8 bytes wide (a pointer or a long long): the kernel is then called as a C
// function of that many 64-bit integer arguments.
#include "cuda_emu.h"

#include <dlfcn.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace emu {

Thread *cur;
unsigned char exchangeBuf[1024][32];
uint3 block_idx, block_dim, grid_dim;

namespace {

enum State { Runnable, AtBlock, AtWarp, Done };

struct Fiber {
    Thread t;
    State state;
    void *sp;
    char *stack;
};

const size_t stackBytes = 256 << 10;
std::vector<Fiber> fibers;
void *schedSP;
Fiber *running;
typedef unsigned long long u64;
void *kernelFn;
const u64 *kernelArgs;
int kernelArgc;
const char *kernelName;
std::vector<unsigned char> dynShared;


extern "C" void emu_switch(void **save, void *to);
asm(R"(
.text
.globl emu_switch
.hidden emu_switch
.type emu_switch,@function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
)");

void callKernel() {
    const u64 *a = kernelArgs;
#define A1 a[0]
#define A2 A1, a[1]
#define A3 A2, a[2]
#define A4 A3, a[3]
#define A5 A4, a[4]
#define A6 A5, a[5]
#define A7 A6, a[6]
#define A8 A7, a[7]
#define A9 A8, a[8]
#define A10 A9, a[9]
#define A11 A10, a[10]
#define A12 A11, a[11]
#define A13 A12, a[12]
#define A14 A13, a[13]
#define A15 A14, a[14]
#define A16 A15, a[15]
#define T1 u64
#define T2 T1, u64
#define T3 T2, u64
#define T4 T3, u64
#define T5 T4, u64
#define T6 T5, u64
#define T7 T6, u64
#define T8 T7, u64
#define T9 T8, u64
#define T10 T9, u64
#define T11 T10, u64
#define T12 T11, u64
#define T13 T12, u64
#define T14 T13, u64
#define T15 T14, u64
#define T16 T15, u64
#define CASE(N) \
    case N: ((void (*)(T##N))kernelFn)(A##N); break;
    switch (kernelArgc) {
    case 0: ((void (*)())kernelFn)(); break;
    CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
    CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
    default:
        fprintf(stderr, "emu: %s: %d arguments, at most 16\n", kernelName, kernelArgc);
        abort();
    }
}

// fiberEntry is where a new fiber starts; it never returns.
extern "C" void fiberEntry() {
    callKernel();
    running->state = Done;
    emu_switch(&running->sp, schedSP);
    abort();
}

void yield(State s) {
    running->state = s;
    emu_switch(&running->sp, schedSP);
}

void start(Fiber &f) {
    u64 *top = (u64 *)(f.stack + stackBytes);
    // After the six pops and ret, rsp is 16-byte aligned minus 8, as at a function's entry.
    top -= 2;
    top[0] = (u64)&fiberEntry;
    top -= 6;
    for (int i = 0; i < 6; i++) top[i] = 0;
    f.sp = top;
    f.state = Runnable;
}

[[noreturn]] void deadlock(const char *what) {
    fprintf(stderr, "emu: %s: block (%u,%u,%u): %s\n", kernelName, block_idx.x, block_idx.y, block_idx.z, what);
    abort();
}

void runBlock(int nthreads) {
    for (int i = 0; i < nthreads; i++) start(fibers[i]);
    int live = nthreads;
    const int nwarps = (nthreads + 31) / 32;
    std::vector<int> warpLive(nwarps), warpWait(nwarps);
    for (int w = 0; w < nwarps; w++) warpLive[w] = std::min(32, nthreads - 32 * w);
    while (live > 0) {
        for (int i = 0; i < nthreads; i++) {
            Fiber &f = fibers[i];
            if (f.state != Runnable) continue;
            running = &f;
            cur = &f.t;
            emu_switch(&schedSP, f.sp);
            if (f.state == Done) {
                live--;
                warpLive[f.t.warp]--;
            } else if (f.state == AtWarp) {
                warpWait[f.t.warp]++;
            }
        }
        // Release the warps whose live lanes all wait, then the block if all its live
        // threads wait at __syncthreads. Nothing left to run then means a deadlock.
        for (int w = 0; w < nwarps; w++) {
            if (warpWait[w] == 0 || warpWait[w] != warpLive[w]) continue;
            for (int i = 32 * w; i < nthreads && i < 32 * w + 32; i++)
                if (fibers[i].state == AtWarp) fibers[i].state = Runnable;
            warpWait[w] = 0;
        }
        int atBlock = 0;
        for (int i = 0; i < nthreads; i++) atBlock += fibers[i].state == AtBlock;
        if (atBlock > 0 && atBlock == live)
            for (int i = 0; i < nthreads; i++)
                if (fibers[i].state == AtBlock) fibers[i].state = Runnable;
        bool any = false;
        for (int i = 0; i < nthreads; i++) any |= fibers[i].state == Runnable;
        if (live > 0 && !any) deadlock("threads wait at a barrier or shuffle that not every live thread (of the block or warp) reaches");
    }
}

} // namespace

void syncthreads() { yield(AtBlock); }
void syncwarp() { yield(AtWarp); }

void exchange(const void *v, void *out, int src, int size) {
    const unsigned me = cur->idx, base = me - cur->lane;
    memcpy(exchangeBuf[me], v, size);
    yield(AtWarp);
    memcpy(out, exchangeBuf[base + src], size);
    yield(AtWarp);
}

void *dynamic_shared() { return dynShared.data(); }

long long clock() {
    return (long long)std::chrono::steady_clock::now().time_since_epoch().count() * 4;
}

void launch(void *fn, const char *name, uint3 grid, uint3 block, size_t shared, const u64 *args, int argc) {
    const int n = block.x * block.y * block.z;
    if (fibers.size() < 1024) {
        fibers.resize(1024);
        for (auto &f : fibers) f.stack = (char *)aligned_alloc(64, stackBytes);
    }
    kernelFn = (void *)fn;
    kernelName = name;
    kernelArgs = args;
    kernelArgc = argc;
    grid_dim = grid;
    block_dim = block;
    dynShared.assign(shared + 16, 0xff); // NaN bytes: a read of unwritten shared memory shows
    for (unsigned z = 0; z < grid.z; z++)
        for (unsigned y = 0; y < grid.y; y++)
            for (unsigned x = 0; x < grid.x; x++) {
                block_idx = {x, y, z};
                int i = 0;
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++, i++) {
                            fibers[i].t.tid = {tx, ty, tz};
                            fibers[i].t.idx = i;
                            fibers[i].t.lane = i % 32;
                            fibers[i].t.warp = i / 32;
                        }
                runBlock(n);
            }
}

} // namespace emu

unsigned emu_ballot(int pred) {
    emu::Thread *t = emu::cur;
    const unsigned me = t->idx, base = me - t->lane;
    const unsigned n = std::min(32u, emu::block_dim.x * emu::block_dim.y * emu::block_dim.z - base);
    int mine = pred != 0;
    memcpy(emu::exchangeBuf[me], &mine, 4);
    emu::syncwarp();
    unsigned r = 0;
    for (unsigned l = 0; l < n; l++) {
        int v;
        memcpy(&v, emu::exchangeBuf[base + l], 4);
        r |= unsigned(v != 0) << l;
    }
    emu::syncwarp();
    return r;
}

// ---- the driver API ----

typedef int CUresult;
typedef unsigned long long u64;

namespace {
std::mutex mu;
size_t allocated;
const size_t totalMem = size_t(16) << 30;
struct Func { void *fn; std::string name; };
}

extern "C" {

CUresult cuInit(unsigned) { return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int ordinal) { if (ordinal != 0) return 101; *d = 0; return 0; }
CUresult cuDeviceGetName(char *name, int len, int) {
    snprintf(name, len, "BatchLAS CPU emulator");
    return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int) {
    switch (attr) {
    case 1: *v = 1024; break;    // max threads per block
    case 10: *v = 32; break;     // warp size
    case 16: *v = 4; break;      // multiprocessors
    case 75: *v = 9; break;      // compute capability
    case 76: *v = 0; break;
    case 97: *v = 232448; break; // shared memory per block, opt-in (an H200's)
    default: *v = 0;
    }
    return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int) { *b = totalMem; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) { static int c; *ctx = &c; return 0; }
CUresult cuCtxSetCurrent(void *) { return 0; }
CUresult cuCtxSynchronize() { return 0; }
CUresult cuStreamCreate(void **s, unsigned) { static int st; *s = &st; return 0; }
CUresult cuStreamDestroy_v2(void *) { return 0; }
CUresult cuStreamSynchronize(void *) { return 0; }

CUresult cuMemAlloc_v2(u64 *p, size_t n) {
    std::lock_guard<std::mutex> l(mu);
    if (allocated + n > totalMem) return 2; // CUDA_ERROR_OUT_OF_MEMORY
    size_t *h = (size_t *)aligned_alloc(256, 256 + ((n + 255) & ~size_t(255)));
    if (!h) return 2;
    h[0] = n;
    memset((char *)h + 256, 0xff, n);
    allocated += n;
    *p = (u64)((char *)h + 256);
    return 0;
}
CUresult cuMemFree_v2(u64 p) {
    if (!p) return 0;
    std::lock_guard<std::mutex> l(mu);
    size_t *h = (size_t *)((char *)p - 256);
    allocated -= h[0];
    free(h);
    return 0;
}
CUresult cuMemGetInfo_v2(size_t *fr, size_t *total) {
    std::lock_guard<std::mutex> l(mu);
    *fr = totalMem - allocated;
    *total = totalMem;
    return 0;
}
CUresult cuMemAllocHost_v2(void **p, size_t n) { *p = aligned_alloc(256, (n + 255) & ~size_t(255)); return *p ? 0 : 2; }
CUresult cuMemFreeHost(void *p) { free(p); return 0; }
CUresult cuMemcpyHtoDAsync_v2(u64 dst, const void *src, size_t n, void *) { memcpy((void *)dst, src, n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *dst, u64 src, size_t n, void *) { memcpy(dst, (void *)src, n); return 0; }
CUresult cuMemsetD32Async(u64 dst, unsigned v, size_t n, void *) {
    unsigned *d = (unsigned *)dst;
    for (size_t i = 0; i < n; i++) d[i] = v;
    return 0;
}

CUresult cuModuleLoadData(void **m, const void *) { static int mod; *m = &mod; return 0; }
CUresult cuModuleGetFunction(void **f, void *, const char *name) {
    void *fn = dlsym(RTLD_DEFAULT, name);
    if (!fn) return 500; // CUDA_ERROR_NOT_FOUND
    *f = new Func{fn, name};
    return 0;
}
CUresult cuFuncSetAttribute(void *, int, int) { return 0; }

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *, void **params, void **extra) {
    if (params || !extra) {
        fprintf(stderr, "emu: launches must pass packed arguments through extra\n");
        return 1;
    }
    const u64 *args = nullptr;
    size_t size = 0;
    for (int i = 0; extra[i]; i += 2) {
        if (extra[i] == (void *)1) args = (const u64 *)extra[i + 1];
        else if (extra[i] == (void *)2) size = *(size_t *)extra[i + 1];
        else return 1;
    }
    if (bx * by * bz == 0 || bx * by * bz > 1024 || gx == 0 || gy == 0 || gz == 0 || shared > 232448) return 1;
    Func *fn = (Func *)f;
    std::lock_guard<std::mutex> l(mu);
    emu::launch(fn->fn, fn->name.c_str(), {gx, gy, gz}, {bx, by, bz}, shared, args, (int)(size / 8));
    return 0;
}

CUresult cuEventCreate(void **e, unsigned) { *e = new long long(0); return 0; }
CUresult cuEventDestroy_v2(void *e) { delete (long long *)e; return 0; }
CUresult cuEventRecord(void *e, void *) {
    *(long long *)e = std::chrono::steady_clock::now().time_since_epoch().count();
    return 0;
}
CUresult cuEventSynchronize(void *) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
    *ms = float(*(long long *)b - *(long long *)a) / 1e6f;
    return 0;
}
CUresult cuGetErrorName(CUresult r, const char **s) {
    switch (r) {
    case 0: *s = "CUDA_SUCCESS"; break;
    case 1: *s = "CUDA_ERROR_INVALID_VALUE"; break;
    case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case 500: *s = "CUDA_ERROR_NOT_FOUND"; break;
    default: *s = "CUDA_ERROR_UNKNOWN";
    }
    return 0;
}

} // extern "C"
