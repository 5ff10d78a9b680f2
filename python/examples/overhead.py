"""The Python layer's overhead on a heat gradient, against the C program.

Times, alternately and each the best of --repeat runs with the same options
(by default the 256^2 x 200 heat gradient, revolve with 20 RAM slots):
problem.gradient() from Python; the same C call, RwProblemComputeGradient,
made directly (what the Python layer adds is the difference); and, on one
rank, rewind-gradient's RwProblemEval event (-log_view) as a program of its
own.  A benchmark, not a test:

    python3 overhead.py --gradient apps/rewind-gradient [--repeat 3] [-- extra options]
    mpiexec -n 2 python3 overhead.py                    (no program run on several ranks)
"""
import argparse
import os
import subprocess
import tempfile
import time

import rewind
from rewind._lib import ffi, lib

OPTS = "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 256 -da_grid_y 256 -rw_steps 200 -rw_schedule_type revolve -rw_schedule_ram_slots 20"


def program_seconds(gradient, opts):
    """rewind-gradient's RwProblemEval time, run alone on one rank"""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "log.txt")
        subprocess.run([gradient] + opts.split() + ["-log_view", f":{log}"], check=True, stdout=subprocess.DEVNULL)
        for line in open(log):
            if line.startswith("RwProblemEval "):
                return float(line.split()[3])
    raise RuntimeError("no RwProblemEval event in rewind-gradient's -log_view")


def timed(comm, fn):
    comm.Barrier()
    t = time.perf_counter()
    fn()
    return comm.allreduce(time.perf_counter() - t, op=max)


def per_call(comm, n=2000):
    """What the Python layer adds to one call, in seconds: problem.gradient()
    against the direct C call on a problem so small that the solve costs little"""
    q = rewind.Problem("-rw_model_type heat -rw_heat_dim 1 -da_grid_x 8 -rw_steps 1")
    q.gradient()
    J = ffi.new("PetscReal *")
    best = [float("inf"), float("inf")]
    for _ in range(3):
        best[0] = min(best[0], timed(comm, lambda: [q.gradient() for _ in range(n)]) / n)
        best[1] = min(best[1], timed(comm, lambda: [lib.RwProblemComputeGradient(q._p, J, q._g, q._gu0) for _ in range(n)]) / n)
    q.destroy()
    return best[0] - best[1], best[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gradient", help="the C program, run on one rank")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("extra", nargs="*", help="more options (after --)")
    args = ap.parse_args()
    opts = " ".join([OPTS] + args.extra)
    p = rewind.Problem(opts)
    comm = p.comm
    p.gradient()  # the vectors the Python layer keeps, made once
    J = ffi.new("PetscReal *")
    py, c, prog = [], [], []
    for _ in range(args.repeat):
        py.append(timed(comm, p.gradient))
        c.append(timed(comm, lambda: lib.RwProblemComputeGradient(p._p, J, p._g, p._gu0)))
        if args.gradient and comm.size == 1:
            prog.append(program_seconds(args.gradient, opts))
    p.destroy()
    extra, tiny = per_call(comm)
    if comm.rank == 0:
        print(f"options: {opts} ({comm.size} rank{'s' if comm.size > 1 else ''})")
        print(f"problem.gradient() from Python:          best {min(py):.4f} s of {', '.join('%.4f' % s for s in py)}")
        print(f"RwProblemComputeGradient called directly: best {min(c):.4f} s of {', '.join('%.4f' % s for s in c)}")
        print(f"the Python layer's overhead: {100 * (min(py) / min(c) - 1):+.2f}% (timing noise included)")
        print(f"what the Python layer adds to a call: {1e6 * extra:.1f} us (a 1-step 8-point gradient: {1e6 * tiny:.1f} us in C), "
              f"{100 * extra / min(c):.4f}% of this gradient")
        if prog:
            print(f"rewind-gradient's RwProblemEval:           best {min(prog):.4f} s of {', '.join('%.4f' % s for s in prog)}")
            print(f"problem.gradient() against the program:   {100 * (min(py) / min(prog) - 1):+.2f}%")


if __name__ == "__main__":
    main()
