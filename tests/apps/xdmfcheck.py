"""Open an XDMF file written by rewind with each of ParaView's XDMF readers and check it.

    pvpython xdmfcheck.py FILE.xmf DIM [NTIMES]

What ParaView reads must be what rewind meant, whichever reader the user
picks (the legacy "XDMF Reader", the first ParaView offers, and the Xdmf3
readers S and T): the grid spans the model's directions (x, then y, then z)
from the origin over (points - 1) spacings, as the HDF5 file's metadata
attributes say, and lies in the x-y plane for a 2D model (z = 0); the
direction named by the metadata's depth_axis, if any, is drawn downwards
(ParaView's coordinate is minus the depth: the first row is on top); every
point array holds the HDF5 dataset's values in natural order (x fastest), one
value a point; a time series has NTIMES steps at the times of its groups
(step k at k dt).  FILE.xmf is opened as given (a relative path from another
directory must resolve).  Prints one line per reader and array checked;
exits non-zero on the first mismatch.
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

xmf, dim = sys.argv[1], int(sys.argv[2])
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
down = "xyz".find(meta["depth_axis"].decode() if isinstance(meta.get("depth_axis"), bytes) else meta.get("depth_axis", "-"))
if down >= 0:  # drawn downwards: ParaView's coordinate is -depth, the first row on top
    lo[down], hi[down] = -hi[down], -lo[down]


def check(readername):
    if readername == "XDMFReader":
        reader = pv.XDMFReader(FileNames=[xmf])
    else:
        reader = getattr(pv, readername)(FileName=[xmf])
    reader.UpdatePipelineInformation()
    for t in timesof(reader):
        checktime(readername, reader, t)
    pv.Delete(reader)


def timesof(reader):
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
    return times


def checktime(readername, reader, t):
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
            fail("%s: ParaView's %s extent is %s, expected %s (time %s)" % (readername, "xyz"[d], got[d], (lo[d], hi[d]), t))
    if down >= 0 and n[down] > 1:
        step = [1, n[0], n[0] * n[1]][down]
        if not data.GetPoint(0)[down] > data.GetPoint(step)[down]:
            fail("%s: depth (%s) points upwards: the first row is at %g, the second at %g" % (readername, "xyz"[down], data.GetPoint(0)[down], data.GetPoint(step)[down]))
    if data.GetNumberOfPoints() != n[0] * n[1] * n[2]:
        fail("%s: %d points, expected %d" % (readername, data.GetNumberOfPoints(), n[0] * n[1] * n[2]))
    names = [k for (tt, k) in items if tt == t]
    if not names:
        fail("%s: no field at time %s" % (readername, t))
    for name in names:
        arr = data.GetPointData().GetArray(name)
        if arr is None:
            fail("%s finds no point array %s (time %s)" % (readername, name, t))
        h5, path = items[(t, name)]
        with h5py.File(os.path.join(os.path.dirname(xmf), h5), "r") as f:
            want = f[path][()].ravel()  # natural order, x fastest, as VTK's points
        if arr.GetNumberOfTuples() != want.size or not numpy.array_equal(vtk_to_numpy(arr), want):
            fail("%s: ParaView's %s (%d values) differs from %s:%s (%d values)" % (readername, name, arr.GetNumberOfTuples(), h5, path, want.size))
        print("ok %s %s %s: %d x %d x %d points, x %s, y %s, z %s%s" % (readername, os.path.basename(xmf), name, n[0], n[1], n[2], got[0], got[1], got[2], "" if t is None else ", t %.6g" % t))


for r in ("XDMFReader", "Xdmf3ReaderS", "Xdmf3ReaderT"):
    check(r)
