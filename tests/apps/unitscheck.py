"""Check that an output file of rewind says what it holds.

    python3 unitscheck.py FILE.h5 [FILE.h5 ...]

Every dataset carries non-empty string attributes units and long_name; a
group /history (a table) names its columns in the attribute "columns", one
dataset a column of one length; a gather file (shot<i> groups) holds
shot<i>/observed and shot<i>/predicted of one shape.  Prints one line per
file; exits non-zero naming the first dataset that fails.
"""
import sys

import h5py


def text(a):
    return a.decode() if isinstance(a, bytes) else str(a)


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


for name in sys.argv[1:]:
    with h5py.File(name, "r") as f:
        datasets = []
        f.visititems(lambda p, o: datasets.append(p) if isinstance(o, h5py.Dataset) else None)
        if not datasets:
            fail("%s holds no dataset" % name)
        for p in datasets:
            for a in ("units", "long_name"):
                if not text(f[p].attrs.get(a, "")).strip():
                    fail("%s: dataset %s has no %s attribute" % (name, p, a))
        if "history" in f:
            cols = text(f["history"].attrs.get("columns", "")).split()
            if sorted(cols) != sorted(f["history"].keys()):
                fail("%s: /history's columns attribute %s does not name its datasets %s" % (name, cols, list(f["history"].keys())))
            if len({f["history"][c].shape for c in cols}) != 1:
                fail("%s: /history's columns differ in length" % name)
        shots = [g for g in f if g.startswith("shot")]
        for g in shots:
            if "observed" not in f[g] or "predicted" not in f[g] or f[g]["observed"].shape != f[g]["predicted"].shape:
                fail("%s: group %s lacks observed and predicted gathers of one shape" % (name, g))
        print("ok %s: %d datasets with units and long_name%s%s" % (name, len(datasets), ", /history columns " + " ".join(cols) if "history" in f else "", ", %d shots observed and predicted" % len(shots) if shots else ""))
