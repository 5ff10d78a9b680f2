/*
  RwModel's state and where it lives: the state's grid and the field grid,
  new states and fields, coordinates and ghost rules, halo exchanges, the
  cell volume, the time grid (dt and the number of steps, which the model,
  the objective, the schedule and the driver all read from here), and the
  type's default problem on them.  Apart from the class and the stepping so
  that what a discretisation is reads in one place.
*/
#include <rewind/private/modelimpl.h>

/*@
  RwModelGetStateDM - the DMDA on which the model's state lives

  Not collective

  Output Parameter:
. da - the grid, owned by the model

  Level: intermediate

.seealso: RwModelCreateState(), RwModelGetParameterDM()
@*/
PetscErrorCode RwModelGetStateDM(RwModel model, DM *da)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *da = model->da;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetFieldDM - the grid of one field (one value per point of the
  state's grid): each parameter field, a terminal misfit's target
  (RwModelCreateField()); the state's DMDA itself for a one-component state

  Not collective

  Level: intermediate

.seealso: RwModelCreateField(), RwModelGetStateDM()
@*/
PetscErrorCode RwModelGetFieldDM(RwModel model, DM *fda)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *fda = model->fda;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCreateState - a new state vector, zero

  Collective

  Level: beginner

.seealso: RwModelCreateParameters()
@*/
PetscErrorCode RwModelCreateState(RwModel model, Vec *u)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCall(RwDMCreateVecStaggered(model->da, PETSC_FALSE, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetDefaults - the type's default parameters, initial state and target
  field (for the terminal misfit); any argument may be NULL

  Collective

  Level: beginner

.seealso: RwModelCreateParameters(), RwModelCreateState()
@*/
PetscErrorCode RwModelGetDefaults(RwModel model, Vec m, Vec u0, Vec target)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, defaults, m, u0, target);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetCoordinates - the coordinate of grid index i along direction dir

  Not collective

  Level: intermediate

.seealso: RwModelGetCellVolume()
@*/
PetscErrorCode RwModelGetCoordinates(RwModel model, PetscInt dir, PetscInt i, PetscReal *x)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, coordinate, dir, i, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelFillField - sets a field on the state's grid from a function of the coordinates

  Collective

  Input Parameters:
+ model - the model, set up
. v     - a state or a parameter field
. f     - f(dim, x, ctx): the value at the point x (x[d] for d < dim)
- ctx   - passed to f

  Level: intermediate

.seealso: RwModelGetCoordinates()
@*/
PetscErrorCode RwModelFillField(RwModel model, Vec v, PetscReal (*f)(PetscInt, const PetscReal[], void *), void *ctx)
{
  PetscInt     dim, s[3], n[3], p = 0, nlocal, bs;
  PetscReal    x[3] = {0, 0, 0};
  PetscScalar *a;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  /* the grid, not the whole setup: a type's setup fills its default fields here */
  PetscCheck(model->da, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetUp() first");
  PetscCall(DMDAGetInfo(model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &s[0], &s[1], &s[2], &n[0], &n[1], &n[2]));
  /* a field has one value a point, a state dof: each component gets f */
  PetscCall(VecGetLocalSize(v, &nlocal));
  bs = (n[0] * n[1] * n[2] != 0) ? nlocal / (n[0] * n[1] * n[2]) : 1;
  PetscCheck(bs * n[0] * n[1] * n[2] == nlocal, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "RwModelFillField: a vector of local size %" PetscInt_FMT " is neither a field nor a state of this model", nlocal);
  PetscCall(VecGetArray(v, &a));
  for (PetscInt k = s[2]; k < s[2] + n[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + n[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + n[0]; i++) {
        const PetscInt idx[3] = {i, j, k};
        PetscReal      val;

        for (PetscInt d = 0; d < dim; d++) PetscUseTypeMethod(model, coordinate, d, idx[d], &x[d]);
        val = f(dim, x, ctx);
        for (PetscInt c = 0; c < bs; c++) a[p++] = val;
      }
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetGhostRule - how the state's ghosts beyond the boundary in direction
  dir relate to the grid: periodic (wrap around), or a mirror of the adjacent
  value times sign (-1 for a zero value on the boundary face, +1 for zero flux)

  Not collective

  Level: developer

.seealso: RwModelGlobalToLocal()
@*/
PetscErrorCode RwModelGetGhostRule(RwModel model, PetscInt dir, PetscBool *periodic, PetscReal *sign)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, ghostrule, dir, periodic, sign);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetCellVolume - the volume h^d that one grid point stands for

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwModelGetCellVolume(RwModel model, PetscReal *vol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *vol = model->cellvolume;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetTimeStep - sets the time step; by default the type chooses a stable one

  Logically collective

  Options Database Key:
. -rw_dt <dt> - the time step

  Level: beginner

.seealso: RwModelGetTimeStep()
@*/
PetscErrorCode RwModelSetTimeStep(RwModel model, PetscReal dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCheck(dt > 0 && PetscIsNormalReal(dt), PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Time step -rw_dt %g must be a positive number", (double)dt);
  model->dt        = dt;
  model->dtset     = PETSC_TRUE;
  model->paramsset = PETSC_FALSE; /* operators depend on dt */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetTimeStep - the time step

  Not collective

  Level: beginner

.seealso: RwModelSetTimeStep()
@*/
PetscErrorCode RwModelGetTimeStep(RwModel model, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *dt = model->dt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A program's default per direction (v into dst), which options override; before set-up */
static PetscErrorCode RwModelSetDefaultPerDirection(RwModel model, const char what[], const char zero[], const PetscInt v[3], PetscInt dst[3])
{
  PetscFunctionBegin;
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Set the default %s before RwModelSetUp()", what);
  for (PetscInt d = 0; d < 3; d++) PetscCheck(v[d] >= 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Default %s %" PetscInt_FMT " in direction %c must be >= 0 (0: %s)", what, v[d], "xyz"[d], zero);
  for (PetscInt d = 0; d < 3; d++) dst[d] = v[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetGridSizes - a program's default number of grid points per
  direction, before -da_grid_x, -da_grid_y, -da_grid_z override it (0: the type's default)

  Logically collective; before RwModelSetUp()

  Level: intermediate

  Notes:
  Every type built on the shared grid layer (heat, wave, a user's type that
  calls RwStencilSetUp()) takes its grid from here; for the wave model the
  sizes count the whole grid, absorbing layers included.

.seealso: RwModelSetSteps(), RwModelSetProcessors()
@*/
PetscErrorCode RwModelSetGridSizes(RwModel model, const PetscInt M[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelSetDefaultPerDirection(model, "grid size", "the type's default", M, model->gridsize));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetProcessors - a program's default number of ranks per direction
  of the grid, before -da_processors_x, -da_processors_y, -da_processors_z
  override it (0: PETSc decides)

  Logically collective; before RwModelSetUp()

  Level: advanced

  Notes:
  For a grid whose every rank must own one given block (a weak-scaling
  study); the product over the grid's directions must be the number of ranks.

.seealso: RwModelSetGridSizes()
@*/
PetscErrorCode RwModelSetProcessors(RwModel model, const PetscInt p[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelSetDefaultPerDirection(model, "number of ranks", "PETSc decides", p, model->procs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetSteps - the number of steps n of a run: with dt, the time grid
  that the model, the objective, the schedule and the driver all read from here

  Logically collective; before RwModelSetUp() for a model with time-indexed parameter blocks

  Options Database Key:
. -rw_steps <n> - the number of steps

  Level: beginner

.seealso: RwModelGetSteps(), RwModelSetTimeStep()
@*/
PetscErrorCode RwModelSetSteps(RwModel model, PetscInt64 n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Number of steps -rw_steps %" PetscInt64_FMT " must be at least 1", n);
  if (n == model->n) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt b = 0; b < model->nblocks; b++)
    PetscCheck(!model->pack || !model->blocks[b].perstep, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "The parameter layout has a value per step for %" PetscInt64_FMT " steps in block %s: set the number of steps (-rw_steps %" PetscInt64_FMT ") before RwModelSetUp()", model->n, model->blocks[b].name, n);
  model->n = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetSteps - the number of steps n of a run

  Not collective

  Level: beginner

.seealso: RwModelSetSteps()
@*/
PetscErrorCode RwModelGetSteps(RwModel model, PetscInt64 *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  *n = model->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetStateInfo - the state's components and the one objectives observe

  Not collective

  Output Parameters:
+ dof      - components a grid point (may be NULL)
. names    - their names (may be NULL)
- observed - the component that terminal misfits and sensors read (may be NULL)

  Level: intermediate

.seealso: RwModelSetObservedComponent()
@*/
PetscErrorCode RwModelGetStateInfo(RwModel model, PetscInt *dof, const char *const **names, PetscInt *observed)
{
  static const char *const one[] = {"u"};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (dof) *dof = model->dof;
  if (names) *names = model->compnames ? model->compnames : one;
  if (observed) *observed = model->observed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetStateLayout - where component comp of the state's points lies
  in an array of npoints points of the state's grid (a rank's owned part,
  or its ghosted copy): point i's value is a[offset + i stride]

  Not collective

  Input Parameters:
+ model   - the model
. comp    - the component, 0 to dof - 1
- npoints - the points the array holds (unused where the components interleave)

  Output Parameters:
+ stride - scalars from one point's value to the next
- offset - the first point's

  Notes:
  Objective terms, points (receivers, sensors, sources) and anything else
  that indexes a state by hand ask here, so that a type whose state holds
  its components in planes (each rank's u_k block, then its u_k-1 block)
  needs no change in them.  Every type interleaves today (stride dof,
  offset comp; model->statelayout).

  Level: developer

.seealso: RwModelGetStateInfo()
@*/
PetscErrorCode RwModelGetStateLayout(RwModel model, PetscInt comp, PetscInt npoints, PetscInt *stride, PetscInt *offset)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCheck(comp >= 0 && comp < model->dof, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "State component %" PetscInt_FMT ": the state has components 0 to %" PetscInt_FMT, comp, model->dof - 1);
  if (model->statelayout == RW_MODEL_STATE_PLANES) *stride = 1, *offset = comp * npoints;
  else *stride = model->dof, *offset = comp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwModelSetStateLayout_Private - declares how the model's state arrays hold
  their components, for tests only: a type's set-up declares its own layout
  (model->statelayout).  The tests of the readers (points, outputs, python)
  switch an interleaved type to planes and fill its states through
  RwModelSetStateComponent(), to check that every reader follows the layout
  without stepping the model in it.

  Not collective; after RwModelSetUp()

  Level: developer
*/
PetscErrorCode RwModelSetStateLayout_Private(RwModel model, RwModelStateLayout layout)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCheck(layout == RW_MODEL_STATE_INTERLEAVED || layout == RW_MODEL_STATE_PLANES, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "State layout %d: expected interleaved (%d) or planes (%d)", (int)layout, (int)RW_MODEL_STATE_INTERLEAVED, (int)RW_MODEL_STATE_PLANES);
  model->statelayout = layout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies component comp of state u to field f (tofield), or f into it */
static PetscErrorCode RwModelCopyComponent(RwModel model, Vec u, PetscInt comp, Vec f, PetscBool tofield)
{
  PetscInt     n, nu, stride, offset;
  PetscScalar *a, *b;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetLocalSize(u, &nu));
  PetscCheck(nu == n * model->dof, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "A state component of %" PetscInt_FMT " values on this rank against a state of %" PetscInt_FMT ": expected a field of the state's grid (RwModelCreateField()) and a state (RwModelCreateState())", n, nu);
  PetscCall(RwModelGetStateLayout(model, comp, n, &stride, &offset));
  PetscCall(VecGetArray(u, &a));
  PetscCall(VecGetArray(f, &b));
  if (tofield)
    for (PetscInt i = 0; i < n; i++) b[i] = a[offset + i * stride];
  else
    for (PetscInt i = 0; i < n; i++) a[offset + i * stride] = b[i];
  PetscCall(VecRestoreArray(f, &b));
  PetscCall(VecRestoreArray(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStateShift - whether component 1 of the state after a step is,
  bit for bit, component 0 of the state before it (a wave's (u_k+1, u_k)
  after (u_k, u_k-1)): consecutive checkpoints then share a plane, which a
  store may keep once (RwStoreSetStateShift())

  Not collective

  Output Parameter:
. shift - declared by the type's set-up; PETSC_FALSE for every type that does not

  Level: developer

.seealso: RwModelGetStateLayout(), RwStoreSetStateShift()
@*/
PetscErrorCode RwModelGetStateShift(RwModel model, PetscBool *shift)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  *shift = (PetscBool)(model->stateshift && model->dof > 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStateComponent - component comp of state u into field f (as
  VecStrideGather() for interleaved components; any layout the type declares)

  Not collective

  Level: developer

.seealso: RwModelSetStateComponent(), RwModelGetStateLayout()
@*/
PetscErrorCode RwModelGetStateComponent(RwModel model, Vec u, PetscInt comp, Vec f)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelCopyComponent(model, u, comp, f, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetStateComponent - field f into component comp of state u, the
  other components untouched (as VecStrideScatter() for interleaved components)

  Not collective

  Level: developer

.seealso: RwModelGetStateComponent(), RwModelGetStateLayout()
@*/
PetscErrorCode RwModelSetStateComponent(RwModel model, Vec f, PetscInt comp, Vec u)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelCopyComponent(model, u, comp, f, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* State u (the declared layout) to w interleaved (get), or w into u */
static PetscErrorCode RwModelInterleave(RwModel model, Vec u, Vec w, PetscBool get)
{
  PetscInt     nu, nw, n, stride, offset, dof = model->dof;
  PetscScalar *a, *b;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &nu));
  PetscCall(VecGetLocalSize(w, &nw));
  PetscCheck(nu == nw && nu % dof == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Two states of %" PetscInt_FMT " and %" PetscInt_FMT " values on this rank: expected two vectors of the state's grid (%" PetscInt_FMT " components a point)", nu, nw, dof);
  if (model->statelayout == RW_MODEL_STATE_INTERLEAVED) { /* already the interleaved order: a copy */
    PetscCall(get ? VecCopy(u, w) : VecCopy(w, u));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  n = nu / dof;
  PetscCall(VecGetArray(u, &a));
  PetscCall(VecGetArray(w, &b));
  for (PetscInt c = 0; c < dof; c++) {
    PetscCall(RwModelGetStateLayout(model, c, n, &stride, &offset));
    if (get)
      for (PetscInt i = 0; i < n; i++) b[i * dof + c] = a[offset + i * stride];
    else
      for (PetscInt i = 0; i < n; i++) a[offset + i * stride] = b[i * dof + c];
  }
  PetscCall(VecRestoreArray(w, &b));
  PetscCall(VecRestoreArray(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStateInterleaved - state u's values into w with the components
  interleaved at every point, whatever layout the model declares

  Not collective

  Input Parameters:
+ model - the model, set up
- u     - a state (RwModelCreateState())

  Output Parameter:
. w - a vector of the state's grid: point i's component c at w[i dof + c]

  Notes:
  The order a DMDA's natural ordering (DMDAGlobalToNatural()) and PETSc's
  strided calls assume, so that a state moved between two decompositions
  (the ensemble's groups, RwEnsembleSetStateDM()) or kept in natural order
  (a u0 unknown, its journal) does not depend on the layout: a state whose
  components lie in planes (each rank's u_k block, then its u_k-1 block)
  is ordered by the rank's own point count.  A copy for an interleaved type.

  Level: developer

.seealso: RwModelSetStateInterleaved(), RwModelGetStateLayout()
@*/
PetscErrorCode RwModelGetStateInterleaved(RwModel model, Vec u, Vec w)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelInterleave(model, u, w, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetStateInterleaved - state u from w, whose components are
  interleaved at every point, into the layout the model declares

  Not collective

  Level: developer

.seealso: RwModelGetStateInterleaved()
@*/
PetscErrorCode RwModelSetStateInterleaved(RwModel model, Vec w, Vec u)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelInterleave(model, u, w, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetObservedComponent - the state component that objectives observe (the type chooses a default)

  Logically collective; before objective terms are added

  Level: intermediate

.seealso: RwModelGetStateInfo()
@*/
PetscErrorCode RwModelSetObservedComponent(RwModel model, PetscInt c)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCheck(c >= 0 && c < model->dof, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Component %" PetscInt_FMT ": the state has components 0 to %" PetscInt_FMT, c, model->dof - 1);
  model->observed = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCreateField - a new vector on the field grid (one value a point: a
  parameter field, or one component of the state such as a terminal target), zero

  Collective

  Level: intermediate

.seealso: RwModelCreateState()
@*/
PetscErrorCode RwModelCreateField(RwModel model, Vec *f)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCall(RwDMCreateVecStaggered(model->fda, PETSC_FALSE, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStateBytes - bytes of one state: the most any rank holds, and the whole grid

  Collective

  Output Parameters:
+ rankmax - the largest local state over the ranks, in bytes (sizes RAM checkpoints)
- total   - the global state in bytes (sizes disk checkpoints)

  Level: intermediate
@*/
PetscErrorCode RwModelGetStateBytes(RwModel model, PetscInt64 *rankmax, PetscInt64 *total)
{
  Vec        u;
  PetscInt   n, N;
  PetscInt64 local;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCall(DMGetGlobalVector(model->da, &u));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetSize(u, &N));
  PetscCall(DMRestoreGlobalVector(model->da, &u));
  local = (PetscInt64)n * (PetscInt64)sizeof(PetscScalar);
  if (rankmax) PetscCallMPI(MPI_Allreduce(&local, rankmax, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)model)));
  if (total) *total = (PetscInt64)N * (PetscInt64)sizeof(PetscScalar);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGlobalToLocal - the state with its ghost points, including those
  beyond physical boundaries filled by the model's boundary conditions

  Collective

  Input Parameter:
. u - a state

  Output Parameter:
. uloc - a local (ghosted) vector of the state's DMDA

  Level: developer
@*/
PetscErrorCode RwModelGlobalToLocal(RwModel model, Vec u, Vec uloc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, globaltolocal, u, uloc, PETSC_TRUE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelFieldGlobalToLocal - a parameter field with its ghost points; beyond
  physical boundaries the ghosts mirror the adjacent value (a field such as
  kappa has no boundary value of its own)

  Collective

  Input Parameter:
. f - a field on the state's grid

  Output Parameter:
. floc - a local (ghosted) vector of the state's DMDA

  Level: developer

.seealso: RwModelGlobalToLocal()
@*/
PetscErrorCode RwModelFieldGlobalToLocal(RwModel model, Vec f, Vec floc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, globaltolocal, f, floc, PETSC_FALSE);
  PetscFunctionReturn(PETSC_SUCCESS);
}
