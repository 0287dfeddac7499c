#!/usr/bin/env python3
"""Stacked np.linalg on small matrices: the numpy column of issue 23's tiny-matrix target.

    OPENBLAS_NUM_THREADS=1 python3 bench/numpy_tiny.py [batch ...]

For n = 3, 4, 8 and each batch (default 32768), times cholesky (of A A^T + n I), LU (SciPy's
lu_factor, which takes one matrix: a Python loop over the batch, as a numpy user writes it;
skipped without SciPy), QR (mode "raw": Householder vectors and tau, LAPACK geqrf's output),
eigh (values and vectors) and svd (full_matrices=False, thin U and V^T, as batchbench's gesvd)
on float64 stacks of shape (batch, n, n), and prints one JSON line per (op, n, batch): the
median of 15 runs in ms per call and in microseconds per matrix, and verify_err, the largest
residual of the decomposition scaled by n eps max|a_ij| (LU on the first 64 matrices; null
for QR's raw form, which is not checked here).
"""

import json
import sys
import time

import numpy as np

try:
    import scipy.linalg as sla
except ImportError:  # no LU arm
    sla = None

EPS = np.finfo(np.float64).eps


def median_ms(f, reps=15):
    f()  # warm up
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    return ts[len(ts) // 2], (ts[-1] - ts[0]) / ts[len(ts) // 2]


def scaled(resid, a, n):
    return float(np.max(resid / (n * EPS * np.max(np.abs(a), axis=(-2, -1)))))


def main():
    batches = [int(b) for b in sys.argv[1:]] or [32768]
    rng = np.random.default_rng(23)
    for batch in batches:
        for n in (3, 4, 8):
            g = rng.uniform(-1, 1, size=(batch, n, n))
            spd = g @ np.swapaxes(g, -1, -2) + n * np.eye(n)
            sym = (g + np.swapaxes(g, -1, -2)) / 2
            out = {}

            def chol():
                out["l"] = np.linalg.cholesky(spd)

            def lu():
                out["lu"] = [sla.lu_factor(m, check_finite=False) for m in g]

            def qr():
                out["qr"] = np.linalg.qr(g, mode="raw")

            def eigh():
                out["eigh"] = np.linalg.eigh(sym)

            def svd():
                out["svd"] = np.linalg.svd(g, full_matrices=False)

            checks = {
                "potrf": (chol, lambda: scaled(np.abs(out["l"] @ np.swapaxes(out["l"], -1, -2) - spd).max(axis=(-2, -1)), spd, n)),
                "geqrf": (qr, lambda: None),  # the raw Householder form is not checked here
                "syev": (eigh, lambda: scaled(np.abs(sym @ out["eigh"][1] - out["eigh"][1] * out["eigh"][0][..., None, :]).max(axis=(-2, -1)), sym, n)),
                "gesvd": (svd, lambda: scaled(np.abs((out["svd"][0] * out["svd"][1][..., None, :]) @ out["svd"][2] - g).max(axis=(-2, -1)), g, n)),
            }
            if sla is not None:
                def lu_check():
                    worst = 0.0
                    for m, (f, piv) in zip(g[:64], out["lu"][:64]):
                        p, l, u = sla.lu(m)
                        worst = max(worst, float(np.abs(p @ l @ u - m).max() / (n * EPS * np.abs(m).max())))
                    return worst
                checks["getrf"] = (lu, lu_check)
            for op in ("potrf", "getrf", "geqrf", "syev", "gesvd"):
                if op not in checks:
                    continue
                run, check = checks[op]
                ms, spread = median_ms(run)
                line = {"arm": "numpy", "op": op, "dtype": "f64", "n": n, "batch": batch, "ms": ms,
                        "spread": spread, "us_per_matrix": ms * 1e3 / batch, "verify_err": check(),
                        "numpy": np.__version__, "threads": "OPENBLAS_NUM_THREADS=1",
                        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                if op == "getrf":
                    line["note"] = "scipy.linalg.lu_factor in a Python loop (no stacked LU in numpy or SciPy 1.10)"
                if op == "geqrf":
                    line["note"] = "np.linalg.qr(mode='raw'), stacked"
                print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
