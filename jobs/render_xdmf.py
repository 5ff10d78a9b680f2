"""Render a field of an XDMF file written by rewind with ParaView, to a PNG.

    pvpython jobs/render_xdmf.py result.xmf kappa_recovered result-paraview.png [TIME]

(on a machine without a display: xvfb-run -a pvpython ...).  The field is
coloured on the grid as ParaView opens it, seen from +z for a 1D or 2D
model, with a labelled colorbar and the axes; TIME picks a state of a time
series (-rw_adjoint_monitor_solution), the last by default.
"""
import os
import sys

if len(sys.argv) < 4:
    sys.exit("usage: pvpython render_xdmf.py FILE.xmf FIELD OUT.png [TIME]")
# ParaView's renderer needs an X display here and crashes without one: say so first
if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    sys.exit("render_xdmf.py: no display (DISPLAY is not set) and ParaView needs one to render; "
             "run it under a virtual X server: xvfb-run -a pvpython %s (Debian package xvfb)" % " ".join(sys.argv))

from paraview import simple as pv  # noqa: E402



def depth_axis(xmf):
    """the direction the HDF5 file's metadata names as depth (depth_axis), or None"""
    import re
    import h5py

    m = re.search(r'Format="HDF">([^:<]+):', open(xmf).read())
    if not m:
        return None
    with h5py.File(os.path.join(os.path.dirname(xmf), m.group(1)), "r") as f:
        a = f.attrs.get("depth_axis")
    return a.decode() if isinstance(a, bytes) else a


xmf, field, png = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
reader = pv.Xdmf3ReaderS(FileName=xmf)
reader.UpdatePipelineInformation()
tv = reader.TimestepValues
times = [tv] if isinstance(tv, float) else list(tv or [])  # one time comes as a float
time = float(sys.argv[4]) if len(sys.argv) > 4 else (times[-1] if times else None)
reader.UpdatePipeline(time) if time is not None else reader.UpdatePipeline()
if field not in reader.PointData.keys():
    sys.exit("render_xdmf.py: %s has no field %s; it has %s" % (sys.argv[1], field, ", ".join(reader.PointData.keys())))
view = pv.CreateView("RenderView")
view.ViewSize = [900, 700]
if time is not None:
    view.ViewTime = time
shown = pv.Show(reader, view)
pv.ColorBy(shown, ("POINTS", field))
shown.RescaleTransferFunctionToDataRange(True, False)
bar = pv.GetScalarBar(pv.GetColorTransferFunction(field), view)
bar.Title = field
bar.ComponentTitle = ""
bar.Visibility = 1
view.OrientationAxesVisibility = 1
view.AxesGrid.Visibility = 1
titles = {"x": "x", "y": "y", "z": "z"}
down = depth_axis(xmf)
if down:  # rewind drew depth downwards: the coordinate is minus the depth
    titles[down] = "-depth"
view.AxesGrid.XTitle, view.AxesGrid.YTitle, view.AxesGrid.ZTitle = titles["x"], titles["y"], titles["z"]
title = pv.Text(Text="%s%s" % (os.path.basename(sys.argv[1]), "" if time is None else ", t = %g" % time))
pv.Show(title, view).WindowLocation = "Upper Center"
view.InteractionMode = "2D" if reader.GetDataInformation().GetBounds()[5] == reader.GetDataInformation().GetBounds()[4] else "3D"
pv.ResetCamera(view)
pv.SaveScreenshot(png, view, ImageResolution=[900, 700])
print("render_xdmf.py: wrote %s (%s%s)" % (png, field, "" if time is None else " at t = %g" % time))
