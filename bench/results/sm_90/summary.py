#!/usr/bin/env python3
"""Writes bench/results/sm_90/SUMMARY.md from the per-op JSON lines beside it.

    python3 bench/results/sm_90/summary.py > bench/results/sm_90/SUMMARY.md

Per shape (dtype, jobz for syev, n, batch) of <op>.jsonl: each arm's time is the mean of its two
orders' medians (as bench/totable and bench/ratios take it; an arm timed in one order only, or
whose line carries an error, is left out); the best vendor route is the fastest of the arm
"vendor" and the ref: arms (cuSOLVER's or cuBLAS's other batched routes, timed beside it); the
best native arm is the fastest of the rest (auto, the router's own choice, is not counted); % of
the floor is that native arm's roof_pct (the memory-roof time over its time), the mean of its
two orders.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

OPS = [
    ("syev", "Eigenvalues and vectors of Hermitian matrices (jobz V) or values only (N)"),
    ("gesvd", "Thin SVD (jobu = jobvt = S) of square matrices"),
    ("gels", "Least squares, 2n-by-n A, one right-hand side"),
    ("potrf", "Cholesky, lower"),
    ("getrf", "LU with partial pivoting, square"),
    ("geqrf", "QR, square"),
    ("trsm", "Triangular solve, Left Lower NoTrans NonUnit, n right-hand sides"),
]

# Arms that older lines spell otherwise, as bench/totable reads them.
RENAMED = {"getrf": {"warp": "warp:smem=0"}}

ARM_NOTES = {
    "syev": "vendor is the line of the route the vendor family takes (syevjBatched to n = 32, "
    "XsyevBatched above; the per-matrix heevd loop at complex64 n = 80 batch 1024), copied into "
    "the table's source from the ref: arm it ran as; ref:syevj and ref:xsyev are those two "
    "batched routes, each timed on its own.",
    "getrf": "The a02cde5 lines spell warp:smem=0 \"warp\" (its name then).",
    "geqrf": "vendor is the family's route (a per-matrix cusolverDn geqrf loop); ref:cublas is "
    "cublas<t>geqrfBatched, the batched route the issue's targets name.",
}


def fmt(ms):
    return f"{ms:.4g}"


def summarize(op):
    rows, order = {}, []
    with open(os.path.join(HERE, op + ".jsonl")) as fh:
        for raw in fh:
            l = json.loads(raw)
            if l.get("error") or not l.get("verified"):
                continue
            shape = (l["dtype"], l.get("jobz", ""), l["n"], l["batch"])
            if shape not in rows:
                rows[shape] = {}
                order.append(shape)
            arm = RENAMED.get(op, {}).get(l["arm"], l["arm"])
            rows[shape].setdefault(arm, {})[l["order"]] = l  # the last line of a cell wins
    out = []
    for shape in order:
        vendor, native = None, None
        for arm, by in rows[shape].items():
            if "AB" not in by or "BA" not in by or arm == "auto":
                continue
            ms = (by["AB"]["ms"] + by["BA"]["ms"]) / 2
            roof = (by["AB"].get("roof_pct", float("nan")) + by["BA"].get("roof_pct", float("nan"))) / 2
            if arm == "vendor" or arm.startswith("ref:"):
                if vendor is None or ms < vendor[1]:
                    vendor = (arm, ms)
            elif native is None or ms < native[1]:
                native = (arm, ms, roof)
        out.append((shape, vendor, native))
    rank = {"f32": 0, "f64": 1, "c64": 2, "c128": 3}
    out.sort(key=lambda r: ({"V": 0, "": 0, "N": 1}[r[0][1]], rank[r[0][0]], r[0][2], r[0][3]))
    return out


def main():
    w = sys.stdout.write
    w("# sm_90 summary: the best vendor route against the best native family\n\n")
    w("Made by `python3 bench/results/sm_90/summary.py > bench/results/sm_90/SUMMARY.md` from the\n")
    w("per-op JSON lines of this folder (`<op>.jsonl`: the lines the tuned/<op>.sm_90.txt rows are\n")
    w("made from, with the ref: and auto lines of the same runs). NVIDIA H200, CUDA 13.0, the\n")
    w("commits each line names (see `../README.md`). A time (ms) is the mean of the two orders'\n")
    w("medians; the best vendor route is the fastest of `vendor` and the `ref:` arms, the best\n")
    w("native family the fastest of the others (`auto` left out); vendor/native above 1 means\n")
    w("the native family is faster. % of the floor is the native arm's roof_pct: the time that\n")
    w("moving its bytes once at the memory roof (4.3 TB/s) would take, over its time. \"-\": not\n")
    w("timed in both orders at that shape (or the arm could not run it).\n\n")
    w("The narratives of the rounds, with what limits each target, are `issue26/README.md` (syev,\n")
    w("gesvd, gels) and `issue6/README.md` (potrf, getrf, geqrf, trsm and the solves); the issue 6\n")
    w("targets were measured again on the shipped fatbins in `issue6/session8_final.jsonl` and\n")
    w("`issue26/round7_check.jsonl` (within 0.8% of it).\n")
    for op, what in OPS:
        rows = summarize(op)
        w(f"\n## {op}\n\n{what}.")
        if op in ARM_NOTES:
            w(" " + ARM_NOTES[op])
        w("\n\n")
        jobz = op == "syev"
        head = ["dtype"] + (["jobz"] if jobz else []) + ["n", "batch", "best vendor ms (route)",
                                                          "best native ms (family)", "vendor/native", "% of the floor"]
        w("| " + " | ".join(head) + " |\n")
        w("|" + " --- |" * len(head) + "\n")
        for (dtype, jz, n, batch), vendor, native in rows:
            cells = [dtype] + ([jz] if jobz else []) + [str(n), str(batch)]
            cells.append(f"{fmt(vendor[1])} ({vendor[0]})" if vendor else "-")
            cells.append(f"{fmt(native[1])} ({native[0]})" if native else "-")
            cells.append(f"{vendor[1] / native[1]:.2f}x" if vendor and native else "-")
            roof = native[2] if native else float("nan")
            cells.append("-" if roof != roof else f"{roof:.1f}" if roof >= 1 else f"{roof:.2g}")
            w("| " + " | ".join(cells) + " |\n")


if __name__ == "__main__":
    main()
