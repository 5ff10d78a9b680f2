"""rwvalid.py FILE: the valid-mark invariant of a rewind checkpoint file.

Prints "generation G" (the root's count of committed writes), then for each
slot "slot_i valid V step K" and whether its data have the recorded checksum
(compressed slots: the lengths of their parts; the run that resumes from the
file checks each part's XXH3 before it decodes it),
and exits with 1 if a slot marked valid holds data of another checksum: what
no crash may ever leave (doc/notes/checkpoints-internals.md, the valid-mark protocol).
"""
import sys

import h5py
import numpy as np


def splitmix64(z):
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def checksum(u):
    """The data checksum of doc/notes/checkpoints-internals.md: a wrapping sum over the values in C order"""
    bits = np.ascontiguousarray(u, dtype="<f8").view("<u8").ravel()
    i = np.arange(bits.size, dtype=np.uint64)
    return int(splitmix64(splitmix64(i) ^ bits).sum(dtype=np.uint64))


def main(path):
    bad = 0
    with h5py.File(path, "r") as f:
        print("generation", int(f.attrs["generation"]))
        for name in sorted((n for n in f if n.startswith("slot_")), key=lambda n: int(n[5:])):
            d = f[name]
            valid, step = int(d.attrs["valid"]), int(d.attrs["step"])
            if "lengths" in d.attrs:  # compressed: each rank's XXH3 is checked by the resumed run, which decodes it
                print(name, "valid", valid, "step", step, "compressed parts of", [int(n) for n in d.attrs["lengths"]], "bytes")
                continue
            same = checksum(d[...]) == int(d.attrs["checksum"])
            print(name, "valid", valid, "step", step, "data of the recorded checksum" if same else "data of another checksum")
            bad += valid == 1 and not same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
