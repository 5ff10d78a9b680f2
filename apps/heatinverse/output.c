/*
  Results of an inversion: the progress line of every iteration (from the
  problem's history, with the discrepancy principle's stop), one HDF5 file
  with the true (when known), initial and recovered fields, their error, the
  first evaluation's gradient and the history (the library's layout), and an
  XDMF file beside it so ParaView opens the fields directly.
*/
#include "inverse.h"
#include <petscviewerhdf5.h>

/* InvRelativeError - the history's error column: ||x - truth|| / ||truth||, or -1 without a truth */
PetscErrorCode InvRelativeError(RwProblem prob, Vec x, PetscReal *err, void *ctx)
{
  Inverse  *inv = (Inverse *)ctx;
  PetscReal d, t;

  PetscFunctionBegin;
  *err = -1;
  if (!inv->xtrue) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecWAXPY(inv->work, -1, inv->xtrue, x));
  PetscCall(RwVecNormRepro(inv->work, &d));
  PetscCall(RwVecNormRepro(inv->xtrue, &t));
  *err = d / t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvHistoryValue - column name of the history's row r (-1: the last) */
PetscErrorCode InvHistoryValue(Inverse *inv, const char name[], PetscInt r, PetscReal *v)
{
  PetscFunctionBegin;
  PetscCall(RwProblemGetHistoryValues(inv->prob, r, 1, &name, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvMonitor - the compact progress line, after the history's row; stops at the noise level */
PetscErrorCode InvMonitor(Tao tao, void *ctx)
{
  Inverse  *inv = (Inverse *)ctx;
  PetscReal it, J, misfit, gnorm, err, seconds;
  char      es[32] = "n/a";

  PetscFunctionBegin;
  PetscCall(InvHistoryValue(inv, "iteration", -1, &it));
  PetscCall(InvHistoryValue(inv, "J", -1, &J));
  PetscCall(InvHistoryValue(inv, "misfit", -1, &misfit));
  PetscCall(InvHistoryValue(inv, "gradient_norm", -1, &gnorm));
  PetscCall(InvHistoryValue(inv, "error", -1, &err));
  PetscCall(InvHistoryValue(inv, "seconds", -1, &seconds));
  if (err >= 0) PetscCall(PetscSNPrintf(es, sizeof(es), "%.4f", (double)err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iter %3" PetscInt_FMT "  J %.6e  misfit %.6e (%.3g x noise)  |g| %.3e  %s error %s  %6.1f s\n", (PetscInt)it, (double)J, (double)misfit, (double)(misfit / inv->noise), (double)gnorm, InvTargets[inv->target], es, (double)seconds));
  /* the discrepancy principle: fitting the data closer than the noise fits the noise */
  if (inv->discrepancy > 0 && misfit <= inv->discrepancy * inv->noise) {
    inv->atnoise = PETSC_TRUE;
    PetscCall(TaoSetConvergedReason(tao, TAO_CONVERGED_USER));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 adds where the data came from (sensor coordinates) and the misfit's noise level, for the pictures */
static PetscErrorCode WriteExtras(Inverse *inv, const char file[])
{
  hid_t            f, g, space, a;
  hsize_t          sd[2];
  PetscInt         ns, dim;
  const PetscReal *coords;
  DM               da;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMGetDimension(da, &dim));
  PetscCall(RwObservationsGetSensors(inv->obs, 0, &ns, &coords));
  RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDWR, H5P_DEFAULT));
  sd[0] = (hsize_t)ns;
  sd[1] = (hsize_t)dim;
  if (ns) PetscCall(RwH5WriteArray(f, "sensors", 2, sd, coords));
  RwCallHDF5Return(g, H5Gopen2, (f, "history", H5P_DEFAULT));
  RwCallHDF5Return(space, H5Screate, (H5S_SCALAR));
  RwCallHDF5Return(a, H5Acreate2, (g, "misfit_at_noise_level", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5(H5Awrite, (a, H5T_NATIVE_DOUBLE, &inv->noise));
  RwCallHDF5(H5Aclose, (a));
  RwCallHDF5(H5Sclose, (space));
  RwCallHDF5(H5Gclose, (g));
  RwCallHDF5(H5Fclose, (f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The heat model is nondimensional (unit square, unit time scale): every dataset is a pure number */
static PetscErrorCode WriteUnits(Inverse *inv, const char h5[])
{
  const char     *f = InvTargets[inv->target];
  char            p[5][64], l[5][128];
  const char     *what[4] = {"true", "initial", "recovered", "error"}, *lw[4] = {"true %s (that made the data)", "initial guess of %s", "%s recovered from the data", "error of the recovered %s: recovered - true"};
  RwIODatasetInfo info[8];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 4; i++) {
    PetscCall(PetscSNPrintf(p[i], sizeof(p[i]), "%s_%s", f, what[i]));
    PetscCall(PetscSNPrintf(l[i], sizeof(l[i]), lw[i], f));
    info[i] = (RwIODatasetInfo){p[i], "1", l[i]};
  }
  PetscCall(PetscSNPrintf(l[4], sizeof(l[4]), "gradient dJ/d%s of the first evaluation, at the initial guess", f));
  info[4] = (RwIODatasetInfo){"gradient_first", "1", l[4]};
  info[5] = (RwIODatasetInfo){"sensors", "1", "sensor coordinates, a row a sensor, x first"};
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, h5, 6, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvWriteOutput - <prefix>.h5 and <prefix>.xmf: <field>_true, <field>_initial,
  <field>_recovered, <field>_error (recovered - true), gradient_first, /history
*/
PetscErrorCode InvWriteOutput(Inverse *inv, const char prefix[])
{
  char        h5[PETSC_MAX_PATH_LEN], xmf[PETSC_MAX_PATH_LEN], name[4][64];
  const char *names[4], *field = InvTargets[inv->target], *base;
  PetscViewer  v;
  PetscInt     n = 0;
  PetscMPIInt  rank;
  Vec          G0;
  RwOutputFile out;
  const char  *path;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", prefix));
  PetscCall(PetscSNPrintf(xmf, sizeof(xmf), "%s.xmf", prefix));
  /* written whole under a temporary name: a failure leaves no partial file and a kept one as it was */
  PetscCall(RwOutputFileBegin(PETSC_COMM_WORLD, h5, PETSC_FALSE, "-rw_output file", &out, &path));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &v));
  PetscCall(RwIOWriteMetadata(inv->model, v));
  if (inv->xtrue) {
    PetscCall(PetscSNPrintf(name[n], sizeof(name[n]), "%s_true", field));
    PetscCall(RwIOWriteField(inv->model, v, name[n++], inv->xtrue));
  }
  PetscCall(PetscSNPrintf(name[n], sizeof(name[n]), "%s_initial", field));
  PetscCall(RwIOWriteField(inv->model, v, name[n++], inv->xinit));
  PetscCall(PetscSNPrintf(name[n], sizeof(name[n]), "%s_recovered", field));
  PetscCall(RwIOWriteField(inv->model, v, name[n++], inv->x));
  if (inv->xtrue) {
    PetscCall(VecWAXPY(inv->work, -1, inv->xtrue, inv->x));
    PetscCall(PetscSNPrintf(name[n], sizeof(name[n]), "%s_error", field));
    PetscCall(RwIOWriteField(inv->model, v, name[n++], inv->work));
  }
  PetscCall(RwProblemGetFirstEvaluation(inv->prob, NULL, &G0));
  if (G0) PetscCall(RwIOWriteField(inv->model, v, "gradient_first", G0));
  PetscCall(RwProblemHistoryView(inv->prob, v));
  PetscCall(PetscViewerDestroy(&v));
  for (PetscInt i = 0; i < n; i++) names[i] = name[i];
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(WriteExtras(inv, path));
  PetscCall(WriteUnits(inv, path));
  PetscCall(RwOutputFileEnd(&out));
  /* the XDMF file refers to the HDF5 file by its name alone: they sit side by side */
  base = strrchr(h5, '/') ? strrchr(h5, '/') + 1 : h5;
  PetscCall(RwIOWriteXDMF(inv->model, xmf, base, n, names));
  PetscFunctionReturn(PETSC_SUCCESS);
}
