/*
  rewind-heat-inverse's files beside its observations (which the library
  reads and writes, doc/observations.md): the starting conductivity
  (-rw_kappa0), the truth a data file may hold (/<field>_true), and the
  embedded problem's observations written with their truth (-rw_obs_write).
*/
#include "inverse.h"
#include <petscviewerhdf5.h>

/*
  -rw_kappa0: the starting conductivity, dataset /kappa.  TAO would clip a
  start outside the bounds [kmin, kmax] in silence, so it is refused with the
  first offending point, or with clip (-rw_kappa0_clip) clipped with a warning
  that says how many points moved.
*/
PetscErrorCode InvReadStart(Inverse *inv, const char file[], PetscReal kmin, PetscReal kmax, PetscBool clip)
{
  PetscInt64 nout, ijk[3];
  PetscInt   c;
  PetscReal  v;
  char       what[256];

  PetscFunctionBegin;
  PetscCall(RwIOReadField(inv->model, file, "/kappa", inv->xinit));
  PetscCall(RwIOFieldFindOutside(inv->model, inv->xinit, kmin, kmax, &nout, ijk, &c, &v));
  if (!nout) PetscFunctionReturn(PETSC_SUCCESS);
  /* C's %g: PETSc's prints 2 as "2." */
  snprintf(what, sizeof(what), "%lld values of /kappa in %s outside the bounds [%g, %g] (-rw_kappa_min, -rw_kappa_max); the first in natural order is %g at grid point (%lld, %lld, %lld)", (long long)nout, file, (double)kmin, (double)kmax, (double)v, (long long)ijk[0], (long long)ijk[1], (long long)ijk[2]);
  PetscCheck(clip, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "-rw_kappa0 %s: %s. Give a start within the bounds, or -rw_kappa0_clip to clip it", file, what);
  {
    PetscScalar *a;
    PetscInt     n;

    PetscCall(VecGetLocalSize(inv->xinit, &n));
    PetscCall(VecGetArray(inv->xinit, &a));
    for (PetscInt i = 0; i < n; i++) a[i] = PetscMin(PetscMax(PetscRealPart(a[i]), kmin), kmax);
    PetscCall(VecRestoreArray(inv->xinit, &a));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "rewind: warning: -rw_kappa0_clip clipped %s\n", what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvReadTruth - /<field>_true of a data file, to report the error, if it has one */
PetscErrorCode InvReadTruth(Inverse *inv, const char file[])
{
  char      truth[64];
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(truth, sizeof(truth), "/%s_true", InvTargets[inv->target]));
  PetscCall(RwIOHasDataset(PETSC_COMM_WORLD, file, truth, &found));
  if (!found) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwModelCreateState(inv->model, &inv->xtrue));
  PetscCall(RwIOReadField(inv->model, file, truth, inv->xtrue));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvWriteObservations - the problem's observations in the experiments schema,
  with the truth beside them, so that the default problem can be shipped as a
  file and run from it
*/
PetscErrorCode InvWriteObservations(Inverse *inv, const char file[])
{
  PetscViewer v;
  char        name[64];

  PetscFunctionBegin;
  PetscCall(RwObservationsWrite(inv->obs, inv->model, file));
  if (!inv->xtrue) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, file, FILE_MODE_APPEND, &v));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_true", InvTargets[inv->target]));
  PetscCall(RwIOWriteField(inv->model, v, name, inv->xtrue));
  PetscCall(PetscViewerDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
