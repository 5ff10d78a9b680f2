"""An ensemble problem's gradient from Python equals rewind-gradient's (its
file, argv[1], written with the same options argv[2]) bit for bit; the
problem's rewind.Ensemble has argv[3] groups and gives each its members;
a rewind.Ensemble of its own splits the ranks the same way; outputs of
several members are refused on every rank, naming -rw_obs_member."""
import sys

import h5py
import numpy as np

import rewind
from pytest_lib import check, comm, done, raises

OPTS, G = sys.argv[2], int(sys.argv[3])
ref = h5py.File(sys.argv[1], "r")

p = rewind.Problem(OPTS)
J, grad = p.gradient()
(xs, ys, _), (xm, ym, _) = p.corners()
check(p.members == 4, f"the observations' 4 experiments are the problem's members ({p.members})")
check(J == ref.attrs["J"], f"J {J!r} of {p.members} members in {G} groups equals rewind-gradient's {ref.attrs['J']!r}")
for name in p.fields + ["u0"]:
    want = ref["dJd" + name][()][ys:ys + ym, xs:xs + xm].ravel()
    check(np.array_equal(grad[name], want), f"dJd{name} equals rewind-gradient's bit for bit")

e = p.getEnsemble()
group, ngroups = e.getGroup()
sub = e.getSubComm()
check(ngroups == G and sub.size == comm.size // G, f"the problem's ensemble: {ngroups} groups of {sub.size} ranks")
check(e.getMembers() == list(range(group, 4, G)), f"group {group} solves members {e.getMembers()}")
e.view()
e.destroy()
e.destroy()  # NULL-safe
J2, _ = p.gradient()
check(J2 == J, "the problem outlives its ensemble's mirror")

own = rewind.Ensemble().create().setSize(5).setGroups(comm.size).setUp()
g, n = own.getGroup()
check((g, n) == (comm.rank, comm.size) and own.getMembers() == list(range(comm.rank, 5, comm.size)),
      f"an ensemble of 5 members on {comm.size} groups: rank {comm.rank} solves {own.getMembers()}")
own.destroy()
raises(ValueError, "call create() first", rewind.Ensemble().setUp)

raises(rewind.RewindError, "-rw_obs_member", p.outputs)
p.destroy()
done()
