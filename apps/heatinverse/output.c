/*
  Results of an inversion: one HDF5 file with the true (when known), initial
  and recovered fields and their error, and the history of every iteration;
  an XDMF file beside it so ParaView opens the fields directly.
*/
#include "inverse.h"
#include <petscviewerhdf5.h>

/* The relative error ||x - truth|| / ||truth||, or -1 without a truth */
static PetscErrorCode RelativeError(Inverse *inv, PetscReal *err)
{
  PetscReal d, t;

  PetscFunctionBegin;
  *err = -1;
  if (!inv->xtrue) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecWAXPY(inv->gx, -1, inv->xtrue, inv->x));
  PetscCall(RwVecNormRepro(inv->gx, &d));
  PetscCall(RwVecNormRepro(inv->xtrue, &t));
  *err = d / t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One line per iteration on rank 0; the history grows once per iteration, outside any time loop */
PetscErrorCode InvHistoryRecord(Inverse *inv, PetscInt it, PetscReal J, PetscReal gnorm)
{
  InvHistory    *h = &inv->hist;
  PetscLogDouble now;
  PetscReal      err;
  char           es[32] = "n/a";

  PetscFunctionBegin;
  PetscCall(RelativeError(inv, &err));
  if (err >= 0) PetscCall(PetscSNPrintf(es, sizeof(es), "%.4f", (double)err));
  PetscCall(PetscTime(&now));
  PetscCall(PetscRealloc(sizeof(PetscReal) * (h->n + 1), &h->J));
  PetscCall(PetscRealloc(sizeof(PetscReal) * (h->n + 1), &h->misfit));
  PetscCall(PetscRealloc(sizeof(PetscReal) * (h->n + 1), &h->gnorm));
  PetscCall(PetscRealloc(sizeof(PetscReal) * (h->n + 1), &h->error));
  PetscCall(PetscRealloc(sizeof(PetscReal) * (h->n + 1), &h->seconds));
  h->J[h->n]       = J;
  h->misfit[h->n]  = inv->misfit;
  h->gnorm[h->n]   = gnorm;
  h->error[h->n]   = err;
  h->seconds[h->n] = now - inv->t0;
  h->n++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iter %3" PetscInt_FMT "  J %.6e  misfit %.6e (%.3g x noise)  |g| %.3e  %s error %s  %6.1f s\n", it, (double)J, (double)inv->misfit, (double)(inv->misfit / (0.5 * inv->nexp * inv->nobs)), (double)gnorm, InvTargets[inv->target], es, (double)(now - inv->t0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteHistory(Inverse *inv, const char file[])
{
  hid_t             f, g, space;
  hsize_t           n = (hsize_t)inv->hist.n;
  const char *const names[] = {"J", "misfit", "gradient_norm", "error", "seconds"};
  const PetscReal  *data[]  = {inv->hist.J, inv->hist.misfit, inv->hist.gnorm, inv->hist.error, inv->hist.seconds};

  PetscFunctionBegin;
  RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDWR, H5P_DEFAULT));
  RwCallHDF5Return(g, H5Gcreate2, (f, "history", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  for (int i = 0; i < 5; i++) PetscCall(RwH5WriteArray(g, names[i], 1, &n, data[i]));
  {
    /* where the data came from, for the pictures: sensor coordinates, one row a sensor */
    PetscInt dim;
    hsize_t  sd[2];

    DM       da;

    PetscCall(RwModelGetStateDM(inv->model, &da));
    PetscCall(DMGetDimension(da, &dim));
    sd[0] = (hsize_t)inv->nsensors;
    sd[1] = (hsize_t)dim;
    PetscCall(RwH5WriteArray(f, "sensors", 2, sd, inv->coords));
  }
  {
    /* what a reader needs to judge the misfit: its expected value at the noise level */
    PetscReal noise = 0.5 * inv->nexp * inv->nobs;
    hid_t     a;
    RwCallHDF5Return(space, H5Screate, (H5S_SCALAR));
    RwCallHDF5Return(a, H5Acreate2, (g, "misfit_at_noise_level", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT));
    RwCallHDF5(H5Awrite, (a, H5T_NATIVE_DOUBLE, &noise));
    RwCallHDF5(H5Aclose, (a));
    RwCallHDF5(H5Sclose, (space));
  }
  RwCallHDF5(H5Gclose, (g));
  RwCallHDF5(H5Fclose, (f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvWriteOutput - <prefix>.h5 and <prefix>.xmf: <field>_true, <field>_initial,
  <field>_recovered, <field>_error (recovered - true) and /history
*/
PetscErrorCode InvWriteOutput(Inverse *inv, const char prefix[])
{
  char        h5[PETSC_MAX_PATH_LEN], xmf[PETSC_MAX_PATH_LEN], name[4][64];
  const char *names[4], *field = InvTargets[inv->target], *base;
  PetscViewer v;
  PetscInt    n = 0;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", prefix));
  PetscCall(PetscSNPrintf(xmf, sizeof(xmf), "%s.xmf", prefix));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, h5, FILE_MODE_WRITE, &v));
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
    PetscCall(VecWAXPY(inv->gx, -1, inv->xtrue, inv->x));
    PetscCall(PetscSNPrintf(name[n], sizeof(name[n]), "%s_error", field));
    PetscCall(RwIOWriteField(inv->model, v, name[n++], inv->gx));
  }
  PetscCall(PetscViewerDestroy(&v));
  for (PetscInt i = 0; i < n; i++) names[i] = name[i];
  /* the XDMF file refers to the HDF5 file by its name alone: they sit side by side */
  base = strrchr(h5, '/') ? strrchr(h5, '/') + 1 : h5;
  PetscCall(RwIOWriteXDMF(inv->model, xmf, base, n, names));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(WriteHistory(inv, h5));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}
