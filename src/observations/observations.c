/*
  RwObservations: the data of every member of a problem, built by a program
  or read from a file (obsexperiments.c, obsshots.c), and applied to one
  member's solve: its sensors' data (or receivers), its sources, its field
  observations; its known parameters are the caller's to place (a problem
  copies them to the ranks that solve the member).

  A file is read in two steps: RwObservationsLoad() reads what the model's
  defaults come from (grid, steps, dt, dimension) before any model exists,
  RwObservationsSetUp() the rest on the model's grid, checking every item
  against the model and naming the file and the item when it does not fit.
*/
#include <rewind/private/observationsimpl.h>
#include <rewind/io.h>

PetscClassId      RW_OBSERVATIONS_CLASSID;
const char *const RwObservationsSchemas[] = {"experiments", "shots", "RwObservationsSchema", "RW_OBS_", NULL};

/*@C
  RwObservationsCreate - creates an empty set of observations

  Collective

  Input Parameter:
. comm - the ranks that hold it (every rank holds every member's arrays)

  Output Parameter:
. obs - the observations

  Level: intermediate

.seealso: RwObservationsLoad(), RwObservationsSetNumMembers(), RwObservationsSetUp()
@*/
PetscErrorCode RwObservationsCreate(MPI_Comm comm, RwObservations *obs)
{
  RwObservations o;

  PetscFunctionBegin;
  PetscValidPointer(obs, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(o, RW_OBSERVATIONS_CLASSID, "RwObservations", "Observations of a problem's members", "RwObservations", comm, RwObservationsDestroy, RwObservationsView));
  o->schema = RW_OBS_EXPERIMENTS;
  *obs      = o;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define RwObservationsCheckMember(o, e) \
  PetscCheck((e) >= 0 && (e) < (o)->nmembers, PetscObjectComm((PetscObject)(o)), PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT " is not among the %" PetscInt_FMT " members of the observations", (PetscInt)(e), (o)->nmembers)
#define RwObservationsCheckNotSetUp(o) PetscCheck(!(o)->setupcalled, PetscObjectComm((PetscObject)(o)), PETSC_ERR_ORDER, "Observations are fixed once set up")

/*@
  RwObservationsSetNumMembers - the number of members (experiments, shots, trajectories)

  Logically collective; before RwObservationsSetUp()

  Level: intermediate

.seealso: RwObservationsGetNumMembers()
@*/
PetscErrorCode RwObservationsSetNumMembers(RwObservations obs, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckNotSetUp(obs);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_OUTOFRANGE, "Observations need at least 1 member; got %" PetscInt_FMT, n);
  PetscCheck(!obs->m || n == obs->nmembers, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "The observations have %" PetscInt_FMT " members already", obs->nmembers);
  if (!obs->m) PetscCall(PetscCalloc1(n, &obs->m));
  obs->nmembers = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsGetNumMembers - the number of members

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetNumMembers(RwObservations obs, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  *n = obs->nmembers;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsGetFile - the file the observations were loaded from ("" for a program's)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetFile(RwObservations obs, const char *file[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  *file = obs->file;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsGetSchema - the layout the observations are read and written in

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetSchema(RwObservations obs, RwObservationsSchema *schema)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  *schema = obs->schema;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetSteps - the steps at which the point sensors are read, shared by every member

  Collective; every rank passes the same array

  Input Parameters:
+ obs    - the observations
. ntimes - how many
- steps  - the steps, distinct, in 0..n (the order the data follow)

  Level: intermediate

.seealso: RwObservationsSetSensors(), RwObservationsSetData()
@*/
PetscErrorCode RwObservationsSetSteps(RwObservations obs, PetscInt ntimes, const PetscInt64 steps[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckNotSetUp(obs);
  PetscCheck(ntimes >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_OUTOFRANGE, "Observations need at least one step; got %" PetscInt_FMT, ntimes);
  PetscCheck(!obs->steps || ntimes == obs->ntimes, PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_SIZ, "The observations have %" PetscInt_FMT " steps already, and data for them", obs->ntimes);
  if (!obs->steps) PetscCall(PetscMalloc1(ntimes, &obs->steps));
  PetscCall(PetscArraycpy(obs->steps, steps, ntimes));
  obs->ntimes = ntimes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsGetSteps - the steps at which the point sensors are read

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetSteps(RwObservations obs, PetscInt *ntimes, const PetscInt64 *steps[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  if (ntimes) *ntimes = obs->ntimes;
  if (steps) *steps = obs->steps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetSensors - point sensors: shared by every member, or one member's own (a shot's receivers)

  Collective; every rank passes the same array

  Input Parameters:
+ obs      - the observations, with their number of members
. e        - the member, or RW_OBS_ALL_MEMBERS
. nsensors - how many
- coords   - their positions in the model's coordinates, coords[s * dim + d]

  Notes:
  A model reads a sensor from the component of its state that objectives
  observe (RwModelGetStateInfo()), by multilinear interpolation.

  Level: intermediate

.seealso: RwObservationsSetData(), RwObjectiveAddSensors()
@*/
PetscErrorCode RwObservationsSetSensors(RwObservations obs, PetscInt e, PetscInt nsensors, const PetscReal coords[])
{
  PetscInt   *n;
  PetscReal **c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckNotSetUp(obs);
  PetscCheck(obs->dim >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "Set the observations' model first (RwObservationsSetModel()): sensors are points of its domain");
  PetscCheck(nsensors >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_OUTOFRANGE, "Observations need at least one sensor; got %" PetscInt_FMT, nsensors);
  if (e == RW_OBS_ALL_MEMBERS) n = &obs->nsensors, c = &obs->coords;
  else {
    RwObservationsCheckMember(obs, e);
    n = &obs->m[e].nsensors, c = &obs->m[e].coords;
  }
  PetscCall(PetscFree(*c));
  PetscCall(PetscMalloc1(nsensors * obs->dim, c));
  PetscCall(PetscArraycpy(*c, coords, nsensors * obs->dim));
  *n = nsensors;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sensors member e reads: its own, else the shared ones */
static void MemberSensors(RwObservations obs, PetscInt e, PetscInt *n, const PetscReal **c)
{
  *n = obs->m[e].coords ? obs->m[e].nsensors : obs->nsensors;
  *c = obs->m[e].coords ? obs->m[e].coords : obs->coords;
}

/*@C
  RwObservationsGetSensors - the sensors member e reads

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetSensors(RwObservations obs, PetscInt e, PetscInt *nsensors, const PetscReal *coords[])
{
  PetscInt         n;
  const PetscReal *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  MemberSensors(obs, e, &n, &c);
  if (nsensors) *nsensors = n;
  if (coords) *coords = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetData - member e's sensor data and their noise level

  Collective; every rank passes the same array

  Input Parameters:
+ obs   - the observations, with the member's sensors and the steps set
. e     - the member
. data  - data[t * nsensors + s] for the t-th step as given and sensor s
- sigma - the noise level, > 0

  Notes:
  May be called again after set-up (another frequency band of the same
  data): only the values change.

  Level: intermediate

.seealso: RwObservationsSetSensors(), RwObservationsSetSteps()
@*/
PetscErrorCode RwObservationsSetData(RwObservations obs, PetscInt e, const PetscReal data[], PetscReal sigma)
{
  PetscInt         ns;
  const PetscReal *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  MemberSensors(obs, e, &ns, &c);
  PetscCheck(ns >= 1 && obs->ntimes >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "Member %" PetscInt_FMT ": set the sensors and the steps before their data", e);
  PetscCheck(sigma > 0 && PetscIsNormalReal(sigma), PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT ": noise level sigma %g must be > 0", e, (double)sigma);
  if (!obs->m[e].data) PetscCall(PetscMalloc1(obs->ntimes * ns, &obs->m[e].data));
  PetscCall(PetscArraycpy(obs->m[e].data, data, obs->ntimes * ns));
  obs->m[e].sigma = sigma;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsGetData - member e's sensor data, data[t * nsensors + s], and their noise level

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetData(RwObservations obs, PetscInt e, const PetscReal *data[], PetscReal *sigma)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  if (data) *data = obs->m[e].data;
  if (sigma) *sigma = obs->m[e].sigma;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetSources - member e's point sources (a shot's source): the
  model places them before the member's solve (RwModelWaveSetSources())

  Collective; every rank passes the same array

  Level: intermediate
@*/
PetscErrorCode RwObservationsSetSources(RwObservations obs, PetscInt e, PetscInt n, const PetscReal coords[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  PetscCheck(obs->dim >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "Set the observations' model first (RwObservationsSetModel()): sources are points of its domain");
  PetscCall(PetscFree(obs->m[e].src));
  PetscCall(PetscMalloc1(n * obs->dim, &obs->m[e].src));
  PetscCall(PetscArraycpy(obs->m[e].src, coords, n * obs->dim));
  obs->m[e].nsrc = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetStates - member e's whole fields observed at chosen steps (copied)

  Collective

  Input Parameters:
+ obs    - the observations
. e      - the member
. n      - the observed steps
. steps  - the steps, distinct
- states - one field of the parent model's field grid a step

  Level: intermediate

.seealso: RwObjectiveAddFieldObservations()
@*/
PetscErrorCode RwObservationsSetStates(RwObservations obs, PetscInt e, PetscInt n, const PetscInt64 steps[], const Vec states[])
{
  RwObsMember *m;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  m = &obs->m[e];
  if (m->states) PetscCall(VecDestroyVecs(m->nstates, &m->states));
  PetscCall(PetscFree(m->statesteps));
  PetscCall(PetscMalloc1(n, &m->statesteps));
  PetscCall(PetscArraycpy(m->statesteps, steps, n));
  PetscCall(VecDuplicateVecs(states[0], n, &m->states));
  for (PetscInt t = 0; t < n; t++) PetscCall(VecCopy(states[t], m->states[t]));
  m->nstates = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsGetStates - member e's observed fields and their steps (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetStates(RwObservations obs, PetscInt e, PetscInt *n, const PetscInt64 *steps[], const Vec *states[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  if (n) *n = obs->m[e].nstates;
  if (steps) *steps = obs->m[e].statesteps;
  if (states) *states = obs->m[e].states;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The entry of known parameter name for member e, made if absent */
static PetscErrorCode KnownEntry(RwObservations obs, PetscInt e, const char name[], RwObsKnown **k)
{
  PetscFunctionBegin;
  PetscCheck(e == RW_OBS_ALL_MEMBERS || (e >= 0 && e < obs->nmembers), PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT " is not among the %" PetscInt_FMT " members of the observations", e, obs->nmembers);
  for (PetscInt i = 0; i < obs->nknown; i++)
    if (obs->known[i].member == e && !strcmp(obs->known[i].name, name)) {
      *k = &obs->known[i];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  if (obs->nknown == obs->maxknown) {
    obs->maxknown = 2 * obs->maxknown + 4;
    PetscCall(PetscRealloc(sizeof(RwObsKnown) * obs->maxknown, &obs->known));
  }
  *k = &obs->known[obs->nknown++];
  PetscCall(PetscMemzero(*k, sizeof(**k)));
  PetscCall(PetscStrncpy((*k)->name, name, sizeof((*k)->name)));
  (*k)->member = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsSetKnown - a known parameter field (or the initial state, name "u0") of one member or of all

  Collective

  Input Parameters:
+ obs   - the observations
. e     - the member, or RW_OBS_ALL_MEMBERS
. name  - a parameter field of the model (e.g. kappa, s), or u0
- field - its values on the parent model's grid (copied)

  Notes:
  A member's own value stands before the value of all members.

  Level: intermediate

.seealso: RwObservationsSetKnownValues(), RwObservationsGetKnown()
@*/
PetscErrorCode RwObservationsSetKnown(RwObservations obs, PetscInt e, const char name[], Vec field)
{
  RwObsKnown *k;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  PetscValidHeaderSpecific(field, VEC_CLASSID, 4);
  PetscCall(KnownEntry(obs, e, name, &k));
  if (!k->field) PetscCall(VecDuplicate(field, &k->field));
  PetscCall(VecCopy(field, k->field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsSetKnownValues - a known block of global scalars (e.g. r) of one member or of all

  Not collective; every rank passes the same values

  Level: intermediate

.seealso: RwObservationsSetKnown()
@*/
PetscErrorCode RwObservationsSetKnownValues(RwObservations obs, PetscInt e, const char name[], PetscInt n, const PetscReal values[])
{
  RwObsKnown *k;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  PetscCall(KnownEntry(obs, e, name, &k));
  PetscCall(PetscFree(k->values));
  PetscCall(PetscMalloc1(n, &k->values));
  PetscCall(PetscArraycpy(k->values, values, n));
  k->n = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsGetKnown - member e's known value of a parameter, its own or that of all members

  Not collective

  Output Parameters:
+ field  - a field (or u0), or NULL
. values - a block's values, or NULL
- found  - whether the observations know it

  Level: intermediate
@*/
PetscErrorCode RwObservationsGetKnown(RwObservations obs, PetscInt e, const char name[], Vec *field, const PetscReal *values[], PetscBool *found)
{
  RwObsKnown *all = NULL, *own = NULL, *k;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  for (PetscInt i = 0; i < obs->nknown; i++) {
    if (strcmp(obs->known[i].name, name)) continue;
    if (obs->known[i].member == e) own = &obs->known[i];
    if (obs->known[i].member == RW_OBS_ALL_MEMBERS) all = &obs->known[i];
  }
  k      = own ? own : all;
  *found = k ? PETSC_TRUE : PETSC_FALSE;
  if (field) *field = k ? k->field : NULL;
  if (values) *values = k ? k->values : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsLoad - opens an observation file and reads what the model's
  defaults come from: the schema (by its root attributes: experiments, or
  nshots), the members, and the grid, steps, dt and dimension it states

  Collective

  Input Parameters:
+ obs  - the observations, empty
- file - an HDF5 file of rewind's schemas (doc/observations.md)

  Notes:
  RwObservationsSetUp() reads the rest once the model exists.

  Level: intermediate

.seealso: RwObservationsSetModelDefaults(), RwObservationsSetUp()
@*/
PetscErrorCode RwObservationsLoad(RwObservations obs, const char file[])
{
  MPI_Comm  comm;
  PetscBool exp, shots;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)obs);
  PetscCheck(!obs->m && !obs->file[0], comm, PETSC_ERR_ORDER, "RwObservationsLoad(): the observations hold members already");
  PetscCall(PetscStrncpy(obs->file, file, sizeof(obs->file)));
  PetscCall(PetscStrendswith(file, ".sgy", &shots));
  if (!shots) PetscCall(PetscStrendswith(file, ".segy", &shots));
  if (shots) { /* a SEG-Y shot gather: a survey of one shot */
    obs->schema = RW_OBS_SHOTS;
    PetscCall(RwObservationsLoadShots_Private(obs));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscReal v;

    PetscCall(RwIOReadAttribute(comm, file, "/", "experiments", &v, &exp));
    PetscCall(RwIOReadAttribute(comm, file, "/", "nshots", &v, &shots));
  }
  PetscCheck(exp || shots, comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no root attribute experiments (the experiments schema: sensors, fields) or nshots (the shots schema of the wave model); expected one of rewind's schemas (doc/observations.md)", file);
  PetscCheck(!(exp && shots), comm, PETSC_ERR_FILE_UNEXPECTED, "Observations %s have both root attributes experiments and nshots: expected one schema", file);
  obs->schema = exp ? RW_OBS_EXPERIMENTS : RW_OBS_SHOTS;
  if (exp) PetscCall(RwObservationsLoadExperiments_Private(obs));
  else PetscCall(RwObservationsLoadShots_Private(obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetModelDefaults - gives a model, before RwModelSetFromOptions(),
  the defaults a loaded file states: grid sizes, steps, dt, dimension; the
  options override them

  Logically collective

  Level: intermediate

.seealso: RwObservationsLoad(), RwModelSetGridSizes()
@*/
PetscErrorCode RwObservationsSetModelDefaults(RwObservations obs, RwModel model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  if (obs->fdim) {
    PetscCall(RwModelHeatSetDimension(model, obs->fdim));
    PetscCall(RwModelWaveSetDimension(model, obs->fdim));
  }
  if (obs->grid[0]) PetscCall(RwModelSetGridSizes(model, obs->grid));
  if (obs->fsteps) PetscCall(RwModelSetSteps(model, obs->fsteps));
  if (obs->fdt > 0) PetscCall(RwModelSetTimeStep(model, obs->fdt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Steps that a run of n steps holds, distinct */
static PetscErrorCode CheckSteps(RwObservations obs, const char what[], PetscInt n, const PetscInt64 steps[], PetscInt64 nsteps)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)obs);

  PetscFunctionBegin;
  for (PetscInt t = 0; t < n; t++) {
    PetscCheck(steps[t] >= 0 && steps[t] <= nsteps, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: step %" PetscInt64_FMT " (index %" PetscInt_FMT ") lies outside the run of %" PetscInt64_FMT " steps (-rw_steps)", what, steps[t], t, nsteps);
    for (PetscInt u = 0; u < t; u++) PetscCheck(steps[u] != steps[t], comm, PETSC_ERR_ARG_WRONG, "%s: step %" PetscInt64_FMT " appears twice (indices %" PetscInt_FMT " and %" PetscInt_FMT ")", what, steps[t], u, t);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every member fits the model: its sensors and sources inside the domain, data for them, steps within the run */
static PetscErrorCode CheckMembers(RwObservations obs)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)obs);
  PetscInt64 n;
  char       what[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBegin;
  PetscCall(RwModelGetSteps(obs->model, &n));
  if (obs->ntimes) PetscCall(CheckSteps(obs, obs->file[0] ? obs->file : "Observations", obs->ntimes, obs->steps, n));
  if (obs->coords && !obs->file[0]) PetscCall(RwSensorsCheckDomain(obs->model, "Observations", obs->nsensors, obs->coords));
  for (PetscInt e = 0; e < obs->nmembers; e++) {
    RwObsMember     *m = &obs->m[e];
    PetscInt         ns;
    const PetscReal *c;

    MemberSensors(obs, e, &ns, &c);
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s%smember %" PetscInt_FMT, obs->file, obs->file[0] ? ", " : "", e));
    PetscCheck(!ns || m->data, comm, PETSC_ERR_ARG_WRONGSTATE, "Observations of %s: %" PetscInt_FMT " sensors but no data for them", what, ns);
    PetscCheck(!m->data || obs->ntimes, comm, PETSC_ERR_ARG_WRONGSTATE, "Observations of %s: sensor data but no steps they were read at", what);
    if (m->coords) PetscCall(RwSensorsCheckDomain(obs->model, what, m->nsensors, m->coords));
    if (m->nsrc) PetscCall(RwModelWaveCheckPoints(obs->model, "Source", m->nsrc, m->src));
    if (m->nstates) PetscCall(CheckSteps(obs, what, m->nstates, m->statesteps, n));
    PetscCheck(!e || (!m->nstates) == (!obs->m[0].nstates), comm, PETSC_ERR_ARG_WRONGSTATE, "Observations of %s: %s observed fields, member 0 %s: every member needs the same terms", what, m->nstates ? "has" : "has no", m->nstates ? "has none" : "has some");
    PetscCheck(!e || (!ns) == (!obs->m[0].data), comm, PETSC_ERR_ARG_WRONGSTATE, "Observations of %s: %s sensors, member 0 %s: every member needs the same terms", what, ns ? "has" : "has no", ns ? "has none" : "has some");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetModel - the model whose grid the observations' fields and
  sensors belong to: its dimension and domain; a program that builds
  observations sets it first

  Collective

  Input Parameters:
+ obs   - the observations
- model - the model, set up, on the communicator of obs

  Level: intermediate

.seealso: RwObservationsSetUp()
@*/
PetscErrorCode RwObservationsSetModel(RwObservations obs, RwModel model)
{
  PetscInt dim;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 2);
  if (obs->model == model) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!obs->model, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "The observations belong to another model already");
  PetscCheck(model->setupcalled, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "Observations need a model that is set up");
  PetscCall(DMDAGetInfo(model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(!obs->fdim || obs->fdim == dim, PetscObjectComm((PetscObject)obs), PETSC_ERR_ARG_INCOMP, "Observations %s are %" PetscInt_FMT "D; the model is %" PetscInt_FMT "D", obs->file, obs->fdim, dim);
  obs->dim = dim;
  PetscCall(PetscObjectReference((PetscObject)model));
  obs->model = model;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsSetUp - reads the rest of a loaded file on the model's grid
  (sensors, times as steps, data, fields) and checks every member against the
  model: its dimension, domain, steps and dt

  Collective

  Input Parameters:
+ obs   - the observations
- model - the model, set up, on the communicator of obs (its grid holds the fields)

  Level: intermediate

.seealso: RwObservationsLoad(), RwObservationsAddTerms()
@*/
PetscErrorCode RwObservationsSetUp(RwObservations obs, RwModel model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  if (obs->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(obs->nmembers >= 1, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "Observations without members: load a file or set their number first");
  PetscCall(RwObservationsSetModel(obs, model));
  if (obs->file[0] && obs->schema == RW_OBS_EXPERIMENTS) PetscCall(RwObservationsSetUpExperiments_Private(obs));
  if (obs->file[0] && obs->schema == RW_OBS_SHOTS) PetscCall(RwObservationsSetUpShots_Private(obs));
  PetscCall(CheckMembers(obs));
  obs->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsAddTerms - adds to a member's objective the terms the
  observations compare with: point sensors (with member 0's data), field
  observations; the data of member e come with RwObservationsApply()

  Collective on the objective (any communicator: a group's); every rank holds the observations' arrays

  Level: intermediate

.seealso: RwObservationsApply()
@*/
PetscErrorCode RwObservationsAddTerms(RwObservations obs, RwObjective obj)
{
  PetscInt         ns;
  const PetscReal *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  PetscCheck(obs->setupcalled, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call RwObservationsSetUp() first");
  MemberSensors(obs, 0, &ns, &c);
  if (ns) PetscCall(RwObjectiveAddSensors(obj, ns, c, obs->ntimes, obs->steps, obs->m[0].data, obs->m[0].sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The objective's term of a kind: the first with that name */
static PetscErrorCode FindTerm(RwObjective obj, const char name[], PetscInt *i)
{
  PetscFunctionBegin;
  for (*i = 0; *i < obj->nterms; (*i)++)
    if (!strcmp(obj->terms[*i].name, name)) PetscFunctionReturn(PETSC_SUCCESS);
  SETERRQ(PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONGSTATE, "The objective has no %s term: add the observations' terms first (RwObservationsAddTerms())", name);
}

/*@
  RwObservationsApply - member e's point data on a model and its objective:
  the sensors' data (moving them if the member has its own) and its point
  sources; observed fields and known parameters are the caller's to place
  (they live on the parent's grid)

  Collective on the model

  Level: intermediate

.seealso: RwObservationsAddTerms(), RwObjectiveSetFieldObservationData()
@*/
PetscErrorCode RwObservationsApply(RwObservations obs, PetscInt e, RwModel model, RwObjective obj)
{
  RwObsMember *m;
  PetscInt     i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  RwObservationsCheckMember(obs, e);
  m = &obs->m[e];
  if (m->nsrc) PetscCall(RwModelWaveSetSources(model, m->nsrc, m->src));
  if (!m->data) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FindTerm(obj, "sensors", &i));
  if (m->coords) PetscCall(RwTermSensorsSetPoints(obj, &obj->terms[i], m->nsensors, m->coords, m->data, m->sigma));
  else PetscCall(RwObjectiveSetSensorData(obj, i, m->data, m->sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsGetChecksum - a checksum of everything the observations hold,
  the same on any number of ranks: what a resumed optimisation must share

  Collective

  Level: developer
@*/
PetscErrorCode RwObservationsGetChecksum(RwObservations obs, uint64_t *sum)
{
  uint64_t h = RwSplitMix64((uint64_t)obs->nmembers), s;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  h = RwHashBytes(h, obs->steps, sizeof(PetscInt64) * (size_t)obs->ntimes);
  h = RwHashBytes(h, obs->coords, sizeof(PetscReal) * (size_t)(obs->nsensors * obs->dim));
  for (PetscInt e = 0; e < obs->nmembers; e++) {
    RwObsMember     *m = &obs->m[e];
    PetscInt         ns;
    const PetscReal *c;

    MemberSensors(obs, e, &ns, &c);
    h = RwHashBytes(h, m->coords, sizeof(PetscReal) * (size_t)(m->coords ? m->nsensors * obs->dim : 0));
    h = RwHashBytes(h, m->data, sizeof(PetscReal) * (size_t)(m->data ? ns * obs->ntimes : 0));
    h = RwHashBytes(h, &m->sigma, sizeof(m->sigma));
    h = RwHashBytes(h, m->src, sizeof(PetscReal) * (size_t)(m->nsrc * obs->dim));
    h = RwHashBytes(h, m->statesteps, sizeof(PetscInt64) * (size_t)m->nstates);
    for (PetscInt t = 0; t < m->nstates; t++) {
      PetscCall(RwVecChecksum(m->states[t], &s));
      h = RwSplitMix64(h ^ s);
    }
  }
  for (PetscInt i = 0; i < obs->nknown; i++) {
    RwObsKnown *k = &obs->known[i];

    h = RwHashBytes(RwHashBytes(h, k->name, strlen(k->name)), &k->member, sizeof(k->member));
    h = RwHashBytes(h, k->values, sizeof(PetscReal) * (size_t)k->n);
    if (!k->field) continue;
    PetscCall(RwVecChecksum(k->field, &s));
    h = RwSplitMix64(h ^ s);
  }
  *sum = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsWrite - writes the observations in their schema, so that a
  program's problem can be shipped as a file and read back (the same bits)

  Collective

  Input Parameters:
+ obs   - the observations, set up
. model - the model they were set up on
- file  - the file to create

  Level: intermediate

.seealso: RwObservationsLoad()
@*/
PetscErrorCode RwObservationsWrite(RwObservations obs, RwModel model, const char file[])
{
  RwOutputFile out;
  const char  *path;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  PetscCheck(obs->setupcalled, PetscObjectComm((PetscObject)obs), PETSC_ERR_ORDER, "Call RwObservationsSetUp() before RwObservationsWrite()");
  /* the file appears whole or not at all, and a kept one is left as it was on a failure */
  PetscCall(RwOutputFileBegin(PetscObjectComm((PetscObject)obs), file, PETSC_FALSE, "observation file", &out, &path));
  if (obs->schema == RW_OBS_EXPERIMENTS) PetscCall(RwObservationsWriteExperiments_Private(obs, path));
  else PetscCall(RwObservationsWriteShots_Private(obs, path));
  PetscCall(RwOutputFileEnd(&out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObservationsView - what the observations hold

  Collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsView(RwObservations obs, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obs, RW_OBSERVATIONS_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)obs), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "RwObservations (%s schema%s%s): %" PetscInt_FMT " members", RwObservationsSchemas[obs->schema], obs->file[0] ? ", from " : "", obs->file, obs->nmembers));
  if (obs->nmembers && obs->m[0].data) PetscCall(PetscViewerASCIIPrintf(viewer, ", point sensors read at %" PetscInt_FMT " steps", obs->ntimes));
  if (obs->nmembers && obs->m[0].nstates) PetscCall(PetscViewerASCIIPrintf(viewer, ", fields observed at %" PetscInt_FMT " steps", obs->m[0].nstates));
  if (obs->nmembers && obs->m[0].nsrc) PetscCall(PetscViewerASCIIPrintf(viewer, ", %" PetscInt_FMT " point source(s) a member", obs->m[0].nsrc));
  PetscCall(PetscViewerASCIIPrintf(viewer, "; %" PetscInt_FMT " known parameters\n", obs->nknown));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObservationsDestroy - destroys observations; NULL-safe

  Collective

  Level: intermediate
@*/
PetscErrorCode RwObservationsDestroy(RwObservations *obs)
{
  RwObservations o;

  PetscFunctionBegin;
  if (!obs || !*obs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*obs, RW_OBSERVATIONS_CLASSID, 1);
  if (--((PetscObject)(*obs))->refct > 0) {
    *obs = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  o = *obs;
  for (PetscInt e = 0; e < o->nmembers; e++) {
    RwObsMember *m = &o->m[e];

    PetscCall(PetscFree(m->coords));
    PetscCall(PetscFree(m->data));
    PetscCall(PetscFree(m->src));
    PetscCall(PetscFree(m->statesteps));
    if (m->states) PetscCall(VecDestroyVecs(m->nstates, &m->states));
  }
  for (PetscInt i = 0; i < o->nknown; i++) {
    PetscCall(VecDestroy(&o->known[i].field));
    PetscCall(PetscFree(o->known[i].values));
  }
  PetscCall(PetscFree(o->known));
  PetscCall(PetscFree(o->m));
  PetscCall(PetscFree(o->steps));
  PetscCall(PetscFree(o->coords));
  PetscCall(RwModelDestroy(&o->model));
  PetscCall(PetscHeaderDestroy(obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
