/*
  The experiments schema (doc/observations.md): point sensors and whole
  fields of any model, member by member.

    /                          attribute experiments (count); optional grid_x, grid_y, grid_z,
                               steps, dt: the defaults of -da_grid_*, -rw_steps, -rw_dt
    /sensors                   nsensors x dim, the model's coordinates (optional)
    /times                     ntimes, multiples of dt within the run
    /experiment_<e>/data       ntimes x nsensors (with /sensors); attribute sigma > 0
    /experiment_<e>/states/<t> a field observed at /times[t] (optional, every member or none)
    /experiment_<e>/<p>        member e's known parameter p: a field on the grid, a block's
                               values, or u0; "source" is heat's s (the name files always had)
    /<p>                       a known parameter of every member
  An initial state no dataset gives is zero.  Fields have the grid's shape,
  slowest direction first.
*/
#include <rewind/private/observationsimpl.h>
#include <rewind/io.h>
#include <petscviewerhdf5.h>

/* The schema's name for a parameter in a file: heat's s is "source" under an experiment */
static const char *FileName(const char name[], PetscBool member)
{
  return member && !strcmp(name, "s") ? "source" : name;
}

PetscErrorCode RwObservationsLoadExperiments_Private(RwObservations obs)
{
  MPI_Comm          comm = PetscObjectComm((PetscObject)obs);
  const char *const attr[] = {"grid_x", "grid_y", "grid_z"};
  PetscInt64        k;
  PetscBool         found;

  PetscFunctionBegin;
  PetscCall(RwIOReadAttributeInt(comm, obs->file, "/", "experiments", 1, PETSC_MAX_INT, &k, &found));
  PetscCall(RwObservationsSetNumMembers(obs, (PetscInt)k));
  for (int d = 0; d < 3; d++) { /* grid sizes: whole numbers, checked as they are read */
    PetscCall(RwIOReadAttributeInt(comm, obs->file, "/", attr[d], 1, PETSC_MAX_INT, &k, &found));
    if (!found) break;
    obs->grid[d] = (PetscInt)k;
    obs->fdim    = d + 1;
  }
  PetscCall(RwIOReadAttributeInt(comm, obs->file, "/", "steps", 1, PETSC_MAX_INT, &obs->fsteps, &found));
  PetscCall(RwIOReadAttribute(comm, obs->file, "/", "dt", &obs->fdt, &found));
  PetscCheck(!found || obs->fdt > 0, comm, PETSC_ERR_FILE_UNEXPECTED, "Root attribute dt of %s is %g: expected a time step > 0", obs->file, (double)obs->fdt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /times as steps of the model: each a multiple of dt within the run */
static PetscErrorCode ReadTimes(RwObservations obs)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt64 want[1] = {-1}, dims[1], n;
  PetscReal *t, dt;

  PetscFunctionBegin;
  PetscCall(RwModelGetTimeStep(obs->model, &dt));
  PetscCall(RwModelGetSteps(obs->model, &n));
  PetscCall(RwIOReadArray(comm, obs->file, "/times", 1, want, dims, &t));
  PetscCheck(dims[0] > 0, comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s holds no time", obs->file);
  obs->ntimes = (PetscInt)dims[0];
  PetscCall(PetscMalloc1(obs->ntimes, &obs->steps));
  for (PetscInt i = 0; i < obs->ntimes; i++) {
    PetscReal k = t[i] / dt;
    /* checked in floating point first: the cast of a time far outside the run is undefined */
    PetscCheck(k > -0.5 && k < (PetscReal)n + 0.5, comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s: time %g (index %" PetscInt_FMT ") lies outside the run [0, %g] (-rw_steps %" PetscInt64_FMT ", -rw_dt %g)", obs->file, (double)t[i], i, (double)(n * dt), n, (double)dt);
    obs->steps[i] = (PetscInt64)PetscFloorReal(k + 0.5);
    PetscCheck(PetscAbsReal(k - (PetscReal)obs->steps[i]) <= 1e-6 * PetscMax(1, k), comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset /times in %s: time %g (index %" PetscInt_FMT ") is not a multiple of the time step %g (-rw_dt)", obs->file, (double)t[i], i, (double)dt);
  }
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadSensors(RwObservations obs)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt64 want[2] = {-1, obs->dim}, dims[2];
  char       what[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBegin;
  PetscCall(RwIOReadArray(comm, obs->file, "/sensors", 2, want, dims, &obs->coords));
  obs->nsensors = (PetscInt)dims[0];
  PetscCheck(obs->nsensors > 0, comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset /sensors in %s holds no sensor", obs->file);
  PetscCall(PetscSNPrintf(what, sizeof(what), "Dataset /sensors in %s", obs->file));
  PetscCall(RwSensorsCheckDomain(obs->model, what, obs->nsensors, obs->coords));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadData(RwObservations obs, PetscInt e)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)obs);
  RwObsMember *m   = &obs->m[e];
  PetscInt64  want[2] = {obs->ntimes, obs->nsensors};
  PetscBool   found;
  char        path[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/data", e));
  PetscCall(RwIOReadArray(comm, obs->file, path, 2, want, NULL, &m->data));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT, e));
  PetscCall(RwIOReadAttribute(comm, obs->file, path, "sigma", &m->sigma, &found));
  PetscCheck(found && m->sigma > 0, comm, PETSC_ERR_FILE_UNEXPECTED, "Group %s in %s needs an attribute sigma > 0 (the noise level of its data)", path, obs->file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Member e's observed fields, /experiment_<e>/states/<t>, at /times */
static PetscErrorCode ReadStates(RwObservations obs, PetscInt e, PetscBool *has)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)obs);
  RwObsMember *m    = &obs->m[e];
  char         path[96];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/states", e));
  PetscCall(RwIOHasDataset(comm, obs->file, path, has));
  if (!*has) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(obs->ntimes, comm, PETSC_ERR_FILE_UNEXPECTED, "Group %s in %s: observed fields need the times they were observed at (/times)", path, obs->file);
  m->nstates = obs->ntimes;
  PetscCall(PetscMalloc1(m->nstates, &m->statesteps));
  PetscCall(PetscArraycpy(m->statesteps, obs->steps, m->nstates));
  PetscCall(PetscMalloc1(m->nstates, &m->states));
  for (PetscInt t = 0; t < m->nstates; t++) {
    PetscCall(RwModelCreateField(obs->model, &m->states[t]));
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/states/%" PetscInt_FMT, e, t));
    PetscCall(RwIOReadField(obs->model, obs->file, path, m->states[t]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A known field (or u0) at path, if the file has it */
static PetscErrorCode ReadKnownField(RwObservations obs, PetscInt e, const char name[], const char path[], PetscBool u0, PetscBool *has)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(RwIOHasDataset(PetscObjectComm((PetscObject)obs), obs->file, path, has));
  if (!*has) PetscFunctionReturn(PETSC_SUCCESS);
  if (u0) PetscCall(RwModelCreateState(obs->model, &f));
  else PetscCall(RwModelCreateField(obs->model, &f));
  PetscCall(RwIOReadField(obs->model, obs->file, path, f));
  PetscCall(RwObservationsSetKnown(obs, e, name, f));
  PetscCall(VecDestroy(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A known block of global scalars at path, if the file has it: its size values */
static PetscErrorCode ReadKnownBlock(RwObservations obs, PetscInt e, const char name[], PetscInt size, const char path[])
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt64 want[1] = {size};
  PetscReal *v;
  PetscBool  has;

  PetscFunctionBegin;
  PetscCall(RwIOHasDataset(comm, obs->file, path, &has));
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwIOReadArray(comm, obs->file, path, 1, want, NULL, &v));
  PetscCall(RwObservationsSetKnownValues(obs, e, name, size, v));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The known parameters of member e (RW_OBS_ALL_MEMBERS: the root's) */
static PetscErrorCode ReadKnown(RwObservations obs, PetscInt e)
{
  PetscInt           nf, nb;
  const char *const *fields;
  char               path[128];
  PetscBool          has;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterInfo(obs->model, &nf, &fields, &nb));
  for (PetscInt f = 0; f <= nf; f++) {
    const char *name = f < nf ? fields[f] : "u0";

    if (e == RW_OBS_ALL_MEMBERS) PetscCall(PetscSNPrintf(path, sizeof(path), "/%s", name));
    else PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/%s", e, FileName(name, PETSC_TRUE)));
    PetscCall(ReadKnownField(obs, e, name, path, (PetscBool)(f == nf), &has));
  }
  for (PetscInt b = 0; b < nb; b++) {
    const char *name;
    PetscInt    size;

    PetscCall(RwModelGetParameterBlockInfo(obs->model, b, &name, &size, NULL, NULL));
    if (e == RW_OBS_ALL_MEMBERS) PetscCall(PetscSNPrintf(path, sizeof(path), "/%s", name));
    else PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/%s", e, name));
    PetscCall(ReadKnownBlock(obs, e, name, size, path));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schema's initial state where the file gives none: zero */
static PetscErrorCode DefaultU0(RwObservations obs)
{
  Vec       z;
  PetscBool has;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < obs->nknown; i++)
    if (obs->known[i].member == RW_OBS_ALL_MEMBERS && !strcmp(obs->known[i].name, "u0")) PetscFunctionReturn(PETSC_SUCCESS);
  has = PETSC_TRUE;
  for (PetscInt e = 0; e < obs->nmembers && has; e++) {
    has = PETSC_FALSE;
    for (PetscInt i = 0; i < obs->nknown && !has; i++) has = (PetscBool)(obs->known[i].member == e && !strcmp(obs->known[i].name, "u0"));
  }
  if (has) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwModelCreateState(obs->model, &z));
  PetscCall(VecSet(z, 0));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "u0", z));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwObservationsSetUpExperiments_Private(RwObservations obs)
{
  PetscBool sensors, times, states;

  PetscFunctionBegin;
  PetscCall(RwIOHasDataset(PetscObjectComm((PetscObject)obs), obs->file, "/sensors", &sensors));
  PetscCall(RwIOHasDataset(PetscObjectComm((PetscObject)obs), obs->file, "/times", &times));
  if (times || sensors) PetscCall(ReadTimes(obs)); /* sensors without times: RwIOReadArray() says what is missing */
  if (sensors) PetscCall(ReadSensors(obs));
  PetscCall(ReadKnown(obs, RW_OBS_ALL_MEMBERS));
  for (PetscInt e = 0; e < obs->nmembers; e++) {
    if (sensors) PetscCall(ReadData(obs, e));
    PetscCall(ReadStates(obs, e, &states));
    PetscCall(ReadKnown(obs, e));
  }
  PetscCall(DefaultU0(obs));
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

/* The fields, collectively: each member's known fields and observed states, then the shared ones */
static PetscErrorCode WriteFields(RwObservations obs, const char file[])
{
  PetscViewer v;
  char        path[96];

  PetscFunctionBegin;
  PetscCall(PetscViewerHDF5Open(PetscObjectComm((PetscObject)obs), file, FILE_MODE_WRITE, &v));
  for (PetscInt e = 0; e < obs->nmembers; e++) {
    RwObsMember *m = &obs->m[e];

    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT, e));
    PetscCall(PetscViewerHDF5PushGroup(v, path));
    for (PetscInt i = 0; i < obs->nknown; i++)
      if (obs->known[i].member == e && obs->known[i].field) PetscCall(RwIOWriteField(obs->model, v, FileName(obs->known[i].name, PETSC_TRUE), obs->known[i].field));
    PetscCall(PetscViewerHDF5PopGroup(v));
    if (!m->nstates) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/states", e));
    PetscCall(PetscViewerHDF5PushGroup(v, path));
    for (PetscInt t = 0; t < m->nstates; t++) {
      char name[32];

      PetscCall(PetscSNPrintf(name, sizeof(name), "%" PetscInt_FMT, t));
      PetscCall(RwIOWriteField(obs->model, v, name, m->states[t]));
    }
    PetscCall(PetscViewerHDF5PopGroup(v));
  }
  for (PetscInt i = 0; i < obs->nknown; i++)
    if (obs->known[i].member == RW_OBS_ALL_MEMBERS && obs->known[i].field) PetscCall(RwIOWriteField(obs->model, v, obs->known[i].name, obs->known[i].field));
  PetscCall(PetscViewerDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The steps of /times: the sensors', else the observed fields' alone, which
  the schema reads at /times: every member's must be those
*/
static PetscErrorCode TimesSteps(RwObservations obs, PetscInt *n, const PetscInt64 *steps[])
{
  PetscFunctionBegin;
  *n = obs->ntimes, *steps = obs->steps;
  if (!*n) *n = obs->m[0].nstates, *steps = obs->m[0].statesteps;
  for (PetscInt e = 0; e < obs->nmembers; e++) {
    RwObsMember *m    = &obs->m[e];
    PetscBool    same = (PetscBool)(m->nstates == *n);

    for (PetscInt t = 0; same && t < *n; t++) same = (PetscBool)(m->statesteps[t] == (*steps)[t]);
    PetscCheck(!m->nstates || same, PetscObjectComm((PetscObject)obs), PETSC_ERR_SUP, "The experiments schema holds observed fields at the times of /times: member %" PetscInt_FMT "'s fields are observed at other steps than %s", e, obs->ntimes ? "those the sensors are read at" : "member 0's");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: the small arrays and attributes, added to the file the fields went into */
static PetscErrorCode WriteArrays(RwObservations obs, const char file[], PetscInt ntimes, const PetscInt64 steps[])
{
  hid_t      f;
  hsize_t    ds[2];
  char       path[96];
  PetscInt   M[3];
  PetscReal  dt;
  PetscInt64 n;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(obs->model->da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(RwModelGetTimeStep(obs->model, &dt));
  PetscCall(RwModelGetSteps(obs->model, &n));
  RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDWR, H5P_DEFAULT));
  if (obs->coords) {
    ds[0] = (hsize_t)obs->nsensors, ds[1] = (hsize_t)obs->dim;
    PetscCall(RwH5WriteArray(f, "/sensors", 2, ds, obs->coords));
  }
  if (ntimes) {
    PetscReal *t;

    PetscCall(PetscMalloc1(ntimes, &t));
    for (PetscInt i = 0; i < ntimes; i++) t[i] = steps[i] * dt;
    ds[0] = (hsize_t)ntimes;
    PetscCall(RwH5WriteArray(f, "/times", 1, ds, t));
    PetscCall(PetscFree(t));
  }
  for (PetscInt e = 0; e < obs->nmembers; e++) {
    if (!obs->m[e].data) continue;
    ds[0] = (hsize_t)obs->ntimes, ds[1] = (hsize_t)obs->nsensors;
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/data", e));
    PetscCall(RwH5WriteArray(f, path, 2, ds, obs->m[e].data));
    PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT, e));
    PetscCall(WriteAttribute(f, path, "sigma", obs->m[e].sigma));
  }
  for (PetscInt i = 0; i < obs->nknown; i++) {
    RwObsKnown *k = &obs->known[i];

    if (!k->values) continue;
    if (k->member == RW_OBS_ALL_MEMBERS) PetscCall(PetscSNPrintf(path, sizeof(path), "/%s", k->name));
    else PetscCall(PetscSNPrintf(path, sizeof(path), "/experiment_%" PetscInt_FMT "/%s", k->member, k->name));
    ds[0] = (hsize_t)k->n;
    PetscCall(RwH5WriteArray(f, path, 1, ds, k->values));
  }
  PetscCall(WriteAttribute(f, "/", "experiments", (PetscReal)obs->nmembers));
  PetscCall(WriteAttribute(f, "/", "dt", dt));
  PetscCall(WriteAttribute(f, "/", "steps", (PetscReal)n));
  for (PetscInt d = 0; d < obs->dim; d++) {
    char name[16];

    PetscCall(PetscSNPrintf(name, sizeof(name), "grid_%c", "xyz"[d]));
    PetscCall(WriteAttribute(f, "/", name, (PetscReal)M[d]));
  }
  RwCallHDF5(H5Fclose, (f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwObservationsWriteExperiments_Private(RwObservations obs, const char file[])
{
  PetscMPIInt       rank;
  PetscInt          ntimes;
  const PetscInt64 *steps;

  PetscFunctionBegin;
  PetscCheck(obs->nsensors || !obs->m[0].coords, PetscObjectComm((PetscObject)obs), PETSC_ERR_SUP, "The experiments schema holds sensors shared by every member; these members have their own (write them as shots)");
  PetscCall(TimesSteps(obs, &ntimes, &steps));
  PetscCall(WriteFields(obs, file));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)obs), &rank));
  if (!rank) PetscCall(WriteArrays(obs, file, ntimes, steps));
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)obs)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
