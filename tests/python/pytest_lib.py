"""What the Python tests share: checks that every rank agrees on (a failure on
one rank fails all of them, and none waits for another in a collective)."""
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
failures = 0


def check(cond, message):
    """cond must hold on every rank; prints the message of the ranks where it does not"""
    global failures
    ok = comm.allreduce(1 if cond else 0, op=MPI.MIN)
    if not cond:
        print(f"FAIL [rank {comm.rank}]: {message}", flush=True)
    if not ok:
        failures += 1
    elif comm.rank == 0:
        print(f"ok: {message}", flush=True)


def raises(exc, fragment, fn, *args, **kw):
    """fn(*args) raises exc with a message containing fragment, on every rank"""
    try:
        fn(*args, **kw)
    except exc as e:
        check(fragment in str(e), f"{exc.__name__} says {fragment!r} (got: {e})")
        return
    check(False, f"{exc.__name__} containing {fragment!r} expected; nothing was raised")


def done():
    if comm.rank == 0:
        print("PASS" if not failures else f"{failures} checks FAILED", flush=True)
    sys.exit(1 if failures else 0)
