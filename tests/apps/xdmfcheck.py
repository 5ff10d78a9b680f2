"""Open an XDMF file written by rewind with ParaView's own reader and check it.

    pvpython xdmfcheck.py FILE.xmf DIM [NTIMES]

What ParaView reads must be what rewind meant: the grid spans the model's
directions (x, then y, then z) from the origin over (points - 1) spacings, as
the HDF5 file's metadata attributes say, and lies in the x-y plane for a 2D
model (z = 0); every point array holds the HDF5 dataset's values in natural
order (x fastest); a time series has NTIMES steps at the times of its groups
(step k at k dt).  Prints one line per array checked; exits non-zero on the
first mismatch.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy
from paraview import servermanager as sm
from paraview import simple as pv
from paraview.vtk.util.numpy_support import vtk_to_numpy

xmf, dim = os.path.abspath(sys.argv[1]), int(sys.argv[2])
ntimes = int(sys.argv[3]) if len(sys.argv) > 3 else 0


def fail(msg):
    print("FAIL %s: %s" % (sys.argv[1], msg))
    sys.exit(1)


# the datasets the XDMF file names, per grid (time) and attribute
items = {}
for grid in ET.parse(xmf).getroot().iter("Grid"):
    if grid.get("GridType") != "Uniform":
        continue
    t = grid.find("Time")
    for a in grid.iter("Attribute"):
        h5, path = a.find("DataItem").text.strip().split(":", 1)
        items[(None if t is None else float(t.get("Value")), a.get("Name"))] = (h5, path)
h5file = os.path.join(os.path.dirname(xmf), next(iter(items.values()))[0])
with h5py.File(h5file, "r") as f:
    meta = dict(f.attrs)
if int(meta["dimension"]) != dim:
    fail("the file's metadata says dimension %s, expected %d" % (meta["dimension"], dim))

# what the model's grid is, from the metadata: x, y, z extents and points
axes = "xyz"[:dim]
n = [int(meta["grid_" + a]) for a in axes] + [1] * (3 - dim)
lo = [float(meta["origin_" + a]) for a in axes] + [0.0] * (3 - dim)
hi = [lo[d] + (n[d] - 1) * float(meta["spacing_" + a]) for d, a in enumerate(axes)] + [0.0] * (3 - dim)

reader = pv.Xdmf3ReaderS(FileName=xmf)
reader.UpdatePipelineInformation()
tv = reader.TimestepValues
times = ([tv] if isinstance(tv, float) else list(tv)) if ntimes else [None]  # one time comes as a float
if ntimes:
    dt = float(meta["dt"])
    steps = sorted(int(re.search(r"step_(\d+)", p).group(1)) for (t, _), (_, p) in items.items())
    steps = sorted(set(steps))
    if len(times) != ntimes or len(steps) != ntimes:
        fail("ParaView sees %d times, the file names %d steps: expected %d" % (len(times), len(steps), ntimes))
    if not numpy.allclose(times, [k * dt for k in steps], rtol=1e-12, atol=0):
        fail("times %s, expected step x dt = %s" % (times, [k * dt for k in steps]))
for t in times:
    if t is None:
        reader.UpdatePipeline()
    else:
        reader.UpdatePipeline(t)
    data = sm.Fetch(reader)
    if data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    b = data.GetBounds()
    got = [(b[0], b[1]), (b[2], b[3]), (b[4], b[5])]
    for d in range(3):
        if not numpy.allclose(got[d], (lo[d], hi[d]), rtol=1e-6, atol=1e-6):
            fail("ParaView's %s extent is %s, expected %s (time %s)" % ("xyz"[d], got[d], (lo[d], hi[d]), t))
    if data.GetNumberOfPoints() != n[0] * n[1] * n[2]:
        fail("%d points, expected %d" % (data.GetNumberOfPoints(), n[0] * n[1] * n[2]))
    names = [k for (tt, k) in items if tt == t]
    if not names:
        fail("no field at time %s" % t)
    for name in names:
        arr = data.GetPointData().GetArray(name)
        if arr is None:
            fail("ParaView finds no point array %s (time %s)" % (name, t))
        h5, path = items[(t, name)]
        with h5py.File(os.path.join(os.path.dirname(xmf), h5), "r") as f:
            want = f[path][()].ravel()  # natural order, x fastest, as VTK's points
        if not numpy.array_equal(vtk_to_numpy(arr), want):
            fail("ParaView's %s differs from %s:%s" % (name, h5, path))
        print("ok %s %s: %d x %d x %d points, x %s, y %s, z %s%s" % (os.path.basename(xmf), name, n[0], n[1], n[2], got[0], got[1], got[2], "" if t is None else ", t %.6g" % t))
