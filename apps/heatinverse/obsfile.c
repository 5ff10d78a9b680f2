/*
  Observations in HDF5 (the schema is in doc/inverse.md):

    /                      attribute experiments (count), attribute dt (informative)
    /sensors               nsensors x dim   coordinates in the unit box
    /times                 ntimes           observation times, multiples of the time step
    /experiment_<e>/data   ntimes x nsensors
    /experiment_<e>        attribute sigma  the noise level, > 0
    /experiment_<e>/source grid, optional   the experiment's source (default 0)
    /experiment_<e>/u0     grid, optional   its initial state (default 0)
    /kappa                 grid             the known conductivity (-rw_invert s or u0)
    /<field>_true          grid, optional   the truth, to report errors

  Root attributes grid_x, grid_y (grid_z), steps and dt, when present, are
  the defaults of -da_grid_x, ..., -rw_steps and -rw_dt.  Fields have the
  grid's shape, slowest direction first.  Everything is
  checked before use; a mismatch names the dataset and the expected shape.
*/
#include "inverse.h"
#include <petscviewerhdf5.h>

static PetscErrorCode GridDimension(Inverse *inv, PetscInt *dim)
{
  DM da;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDAGetInfo(da, dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadSensors(Inverse *inv, const char file[], PetscInt dim)
{
  PetscInt64 want[2] = {-1, dim}, dims[2];
  PetscReal *c;

  PetscFunctionBegin;
  PetscCall(RwIOReadArray(PETSC_COMM_WORLD, file, "/sensors", 2, want, dims, &c));
  inv->nsensors = (PetscInt)dims[0];
  PetscCheck(inv->nsensors > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Dataset /sensors in %s holds no sensor", file);
  for (PetscInt s = 0; s < inv->nsensors; s++)
    for (PetscInt d = 0; d < dim; d++) PetscCheck(c[s * dim + d] >= 0 && c[s * dim + d] <= 1, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Dataset /sensors in %s: sensor %" PetscInt_FMT " has coordinate %g in direction %c, outside the unit box [0, 1]", file, s, (double)c[s * dim + d], "xyz"[d]);
  inv->coords = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Observation times become steps: each must be a multiple of dt within the run */
static PetscErrorCode ReadTimes(Inverse *inv, const char file[], PetscReal dt, PetscInt64 n)
{
  PetscInt64 want[1] = {-1}, dims[1];
  PetscReal *t;

  PetscFunctionBegin;
  PetscCall(RwIOReadArray(PETSC_COMM_WORLD, file, "/times", 1, want, dims, &t));
  inv->ntimes = (PetscInt)dims[0];
  PetscCheck(inv->ntimes > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s holds no time", file);
  PetscCall(PetscMalloc1(inv->ntimes, &inv->steps));
  for (PetscInt i = 0; i < inv->ntimes; i++) {
    PetscReal k = t[i] / dt;
    /* checked in floating point first: the cast of a time far outside the run is undefined */
    PetscCheck(k > -0.5 && k < (PetscReal)n + 0.5, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s: time %g (index %" PetscInt_FMT ") lies outside the run [0, %g] (-rw_steps %" PetscInt64_FMT ", -rw_dt %g)", file, (double)t[i], i, (double)(n * dt), n, (double)dt);
    inv->steps[i] = (PetscInt64)PetscFloorReal(k + 0.5);
    PetscCheck(PetscAbsReal(k - (PetscReal)inv->steps[i]) <= 1e-6 * PetscMax(1, k), PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s: time %g (index %" PetscInt_FMT ") is not a multiple of the time step %g (-rw_dt)", file, (double)t[i], i, (double)dt);
    PetscCheck(inv->steps[i] >= 0 && inv->steps[i] <= n, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s: time %g (index %" PetscInt_FMT ") lies outside the run [0, %g] (-rw_steps %" PetscInt64_FMT ", -rw_dt %g)", file, (double)t[i], i, (double)(n * dt), n, (double)dt);
  }
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An optional field: read if present, else zero */
static PetscErrorCode ReadOptionalField(Inverse *inv, const char file[], const char path[], Vec f)
{
  PetscBool has;

  PetscFunctionBegin;
  PetscCall(RwIOHasDataset(PETSC_COMM_WORLD, file, path, &has));
  if (has) PetscCall(RwIOReadField(inv->model, file, path, f));
  else PetscCall(VecSet(f, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadExperiment(Inverse *inv, const char file[], PetscInt e)
{
  InvExperiment *x = &inv->exp[e];
  char           path[PETSC_MAX_PATH_LEN];
  PetscInt64     want[2] = {inv->ntimes, inv->nsensors};
  PetscBool      found;
  Vec            f;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/data", e));
  PetscCall(RwIOReadArray(PETSC_COMM_WORLD, file, path, 2, want, NULL, &x->data));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT, e));
  PetscCall(RwIOReadAttribute(PETSC_COMM_WORLD, file, path, "sigma", &x->sigma, &found));
  PetscCheck(found && x->sigma > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Group %s in %s needs an attribute sigma > 0 (the noise level of its data)", path, file);
  PetscCall(RwModelCreateParameters(inv->model, &x->m));
  PetscCall(RwModelCreateState(inv->model, &x->u0));
  PetscCall(RwModelGetParameterField(inv->model, x->m, 1, &f));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/source", e));
  PetscCall(ReadOptionalField(inv, file, path, f));
  PetscCall(RwModelRestoreParameterField(inv->model, x->m, 1, &f));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/u0", e));
  PetscCall(ReadOptionalField(inv, file, path, x->u0));
  if (inv->target != INV_KAPPA) { /* the conductivity is known */
    PetscCall(RwModelGetParameterField(inv->model, x->m, 0, &f));
    PetscCall(RwIOReadField(inv->model, file, "/kappa", f));
    PetscCall(RwModelRestoreParameterField(inv->model, x->m, 0, &f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvReadObservations - the sensors, times, experiments and data of -rw_obs;
  the truth too, when the file has it.  Observation times must lie in the run
  of n steps.
*/
PetscErrorCode InvReadObservations(Inverse *inv, const char file[], PetscInt64 n)
{
  PetscReal count, dt;
  PetscBool found;
  PetscInt  dim;
  char      truth[64];

  PetscFunctionBegin;
  PetscCall(RwIOReadAttribute(PETSC_COMM_WORLD, file, "/", "experiments", &count, &found));
  PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "File %s needs a root attribute experiments (the number of experiment_<e> groups)", file);
  PetscCheck(count >= 1 && count <= INV_MAXEXP && count == PetscFloorReal(count), PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Root attribute experiments of %s is %g: expected an integer in 1..%d", file, (double)count, INV_MAXEXP);
  inv->nexp = (PetscInt)count;
  PetscCall(GridDimension(inv, &dim));
  PetscCall(RwModelGetTimeStep(inv->model, &dt));
  PetscCall(ReadSensors(inv, file, dim));
  PetscCall(ReadTimes(inv, file, dt, n));
  inv->nobs = inv->nsensors * inv->ntimes;
  for (PetscInt e = 0; e < inv->nexp; e++) PetscCall(ReadExperiment(inv, file, e));
  PetscCall(PetscSNPrintf(truth, sizeof(truth), "/%s_true", InvTargets[inv->target]));
  PetscCall(RwIOHasDataset(PETSC_COMM_WORLD, file, truth, &found));
  if (found) {
    PetscCall(VecDuplicate(inv->x, &inv->xtrue));
    PetscCall(RwIOReadField(inv->model, file, truth, inv->xtrue));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

static PetscErrorCode WriteAttribute(hid_t f, const char object[], const char name[], PetscReal v)
{
  hid_t space, a;

  PetscFunctionBegin;
  RwCallHDF5Return(space, H5Screate, (H5S_SCALAR));
  RwCallHDF5Return(a, H5Acreate_by_name, (f, object, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5(H5Awrite, (a, H5T_NATIVE_DOUBLE, &v));
  RwCallHDF5(H5Aclose, (a));
  RwCallHDF5(H5Sclose, (space));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 adds the small arrays and attributes to the file the fields went into */
static PetscErrorCode WriteArrays(Inverse *inv, const char file[], PetscInt dim, const PetscInt M[], PetscReal dt, PetscInt64 n)
{
  hid_t   f;
  hsize_t ds[2];
  char    path[64];

  PetscFunctionBegin;
  RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDWR, H5P_DEFAULT));
  ds[0] = (hsize_t)inv->nsensors;
  ds[1] = (hsize_t)dim;
  PetscCall(RwH5WriteArray(f, "/sensors", 2, ds, inv->coords));
  {
    PetscReal *t;
    PetscCall(PetscMalloc1(inv->ntimes, &t));
    for (PetscInt i = 0; i < inv->ntimes; i++) t[i] = inv->steps[i] * dt;
    ds[0] = (hsize_t)inv->ntimes;
    PetscCall(RwH5WriteArray(f, "/times", 1, ds, t));
    PetscCall(PetscFree(t));
  }
  for (PetscInt e = 0; e < inv->nexp; e++) {
    ds[0] = (hsize_t)inv->ntimes;
    ds[1] = (hsize_t)inv->nsensors;
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/data", e));
    PetscCall(RwH5WriteArray(f, path, 2, ds, inv->exp[e].data));
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT, e));
    PetscCall(WriteAttribute(f, path, "sigma", inv->exp[e].sigma));
  }
  PetscCall(WriteAttribute(f, "/", "experiments", (PetscReal)inv->nexp));
  PetscCall(WriteAttribute(f, "/", "dt", dt));
  PetscCall(WriteAttribute(f, "/", "steps", (PetscReal)n));
  for (PetscInt d = 0; d < dim; d++) {
    char name[16];
    PetscCall(PetscSNPrintf(name, sizeof(name), "grid_%c", "xyz"[d]));
    PetscCall(WriteAttribute(f, "/", name, (PetscReal)M[d]));
  }
  RwCallHDF5(H5Fclose, (f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvWriteObservations - the problem's observations in the -rw_obs schema, so
  that the default problem can be shipped as a file and run from it
*/
PetscErrorCode InvWriteObservations(Inverse *inv, const char file[])
{
  PetscViewer v;
  PetscInt    dim, M[3];
  PetscReal   dt;
  PetscInt64  n;
  PetscMPIInt rank;
  char        path[64];
  Vec         f;
  DM          da;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(RwModelGetTimeStep(inv->model, &dt));
  PetscCall(RwAdjointGetSteps(inv->adj, &n));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, file, FILE_MODE_WRITE, &v));
  for (PetscInt e = 0; e < inv->nexp; e++) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT, e));
    PetscCall(PetscViewerHDF5PushGroup(v, path));
    PetscCall(RwModelGetParameterField(inv->model, inv->exp[e].m, 1, &f));
    PetscCall(RwIOWriteField(inv->model, v, "source", f));
    PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[e].m, 1, &f));
    PetscCall(RwIOWriteField(inv->model, v, "u0", inv->exp[e].u0));
    PetscCall(PetscViewerHDF5PopGroup(v));
  }
  if (inv->target != INV_KAPPA) { /* the known conductivity; in kappa mode it is the unknown */
    PetscCall(RwModelGetParameterField(inv->model, inv->exp[0].m, 0, &f));
    PetscCall(RwIOWriteField(inv->model, v, "kappa", f));
    PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[0].m, 0, &f));
  }
  if (inv->xtrue) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s_true", InvTargets[inv->target]));
    PetscCall(RwIOWriteField(inv->model, v, path, inv->xtrue));
  }
  PetscCall(PetscViewerDestroy(&v));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(WriteArrays(inv, file, dim, M, dt, n));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}
