/* RwModel: the class interface. Types live in src/model/impls/<type>/. */
#include <rewind/private/modelimpl.h>

PetscFunctionList RwModelList              = NULL;
PetscBool         RwModelRegisterAllCalled = PETSC_FALSE;

/*@C
  RwModelRegister - adds a model type under a name usable with -rw_model_type

  Not collective

  Input Parameters:
+ name   - the type's name
- create - the constructor, which fills model->ops and model->data

  Level: advanced

.seealso: RwModelRegisterAll(), RwModelSetType()
@*/
PetscErrorCode RwModelRegister(const char name[], PetscErrorCode (*create)(RwModel))
{
  PetscFunctionBegin;
  PetscCall(RwInitializePackage());
  PetscCall(PetscFunctionListAdd(&RwModelList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelRegisterAll - registers the model types built into rewind

  Not collective

  Level: advanced

.seealso: RwModelRegister()
@*/
PetscErrorCode RwModelRegisterAll(void)
{
  PetscFunctionBegin;
  if (RwModelRegisterAllCalled) PetscFunctionReturn(PETSC_SUCCESS);
  RwModelRegisterAllCalled = PETSC_TRUE;
  PetscCall(RwModelRegister(RWMODELHEAT, RwModelCreate_Heat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCreate - creates a model; choose its type with RwModelSetType() or -rw_model_type

  Collective

  Input Parameter:
. comm - the communicator the model's grid is distributed over

  Output Parameter:
. model - the new model

  Level: beginner

.seealso: RwModelSetType(), RwModelSetFromOptions(), RwModelDestroy()
@*/
PetscErrorCode RwModelCreate(MPI_Comm comm, RwModel *model)
{
  RwModel obj;

  PetscFunctionBegin;
  PetscValidPointer(model, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(obj, RW_MODEL_CLASSID, "RwModel", "Differentiable time-stepping model", "RwModel", comm, RwModelDestroy, RwModelView));
  obj->firstbad[0] = obj->firstbad[1] = -1;
  *model = obj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelSetType - chooses the model's physics

  Collective

  Input Parameters:
+ model - the model
- type  - a registered type name

  Options Database Key:
. -rw_model_type <type> - the model type

  Level: beginner

.seealso: RwModelGetType(), RwModelRegister()
@*/
PetscErrorCode RwModelSetType(RwModel model, RwModelType type)
{
  PetscErrorCode (*create)(RwModel) = NULL;
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidCharPointer(type, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)model, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwModelRegisterAll());
  PetscCall(RwTypeFind((PetscObject)model, RwModelList, "-rw_model_type", type, (void (**)(void)) & create));
  PetscTryTypeMethod(model, destroy);
  PetscCall(PetscMemzero(model->ops, sizeof(struct _RwModelOps)));
  model->data        = NULL;
  model->setupcalled = PETSC_FALSE;
  PetscCall(PetscObjectChangeTypeName((PetscObject)model, type));
  PetscCall((*create)(model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetType - the model's type name

  Not collective

  Level: beginner

.seealso: RwModelSetType()
@*/
PetscErrorCode RwModelGetType(RwModel model, RwModelType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidPointer(type, 2);
  *type = ((PetscObject)model)->type_name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetFromOptions - sets the model's type and the type's options from the options database

  Collective

  Options Database Key:
. -rw_model_type <type> - the model type

  Level: beginner

.seealso: RwModelSetType()
@*/
PetscErrorCode RwModelSetFromOptions(RwModel model)
{
  char      type[256];
  PetscBool set;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelRegisterAll());
  PetscObjectOptionsBegin((PetscObject)model);
  PetscCall(PetscOptionsFList("-rw_model_type", "Model type", "RwModelSetType", RwModelList, ((PetscObject)model)->type_name, type, sizeof(type), &set));
  if (set) PetscCall(RwModelSetType(model, type));
  PetscCheck(((PetscObject)model)->type_name, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONGSTATE, "RwModel has no type: call RwModelSetType() or give -rw_model_type");
  {
    PetscReal dt = model->dt;
    PetscCall(PetscOptionsReal("-rw_dt", "Time step (default: chosen by the model type)", "RwModelSetTimeStep", dt, &dt, &set));
    if (set) PetscCall(RwModelSetTimeStep(model, dt));
  }
  PetscTryTypeMethod(model, setfromoptions, PetscOptionsObject);
  PetscCall(PetscObjectProcessOptionsHandlers((PetscObject)model, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetUp - builds the model's grids and operators; called once, later calls do nothing

  Collective

  Level: advanced

.seealso: RwModelSetFromOptions()
@*/
PetscErrorCode RwModelSetUp(RwModel model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (model->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(((PetscObject)model)->type_name, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONGSTATE, "RwModel has no type: call RwModelSetType() or RwModelSetFromOptions() first");
  PetscUseTypeMethod(model, setup);
  PetscCheck(model->da && model->pack, PetscObjectComm((PetscObject)model), PETSC_ERR_PLIB, "RwModel type %s did not create its grid and parameter layout", ((PetscObject)model)->type_name);
  model->setupcalled = PETSC_TRUE;
  PetscCall(PetscObjectViewFromOptions((PetscObject)model, NULL, "-rw_model_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelSetOptionsPrefix - the prefix of every option of the model, its grid (-<prefix>da_grid_x) and its solver (-<prefix>ksp_type)

  Logically collective; before RwModelSetFromOptions()

  Level: intermediate

.seealso: RwModelAppendOptionsPrefix(), RwModelGetOptionsPrefix()
@*/
PetscErrorCode RwModelSetOptionsPrefix(RwModel obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_MODEL_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelAppendOptionsPrefix - appends to the model's options prefix

  Logically collective; before RwModelSetFromOptions()

  Level: intermediate

.seealso: RwModelSetOptionsPrefix()
@*/
PetscErrorCode RwModelAppendOptionsPrefix(RwModel obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_MODEL_CLASSID, 1);
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetOptionsPrefix - the model's options prefix (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwModelGetOptionsPrefix(RwModel obj, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_MODEL_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelView - prints the model's configuration

  Collective

  Level: beginner

.seealso: RwModelCreate()
@*/
PetscErrorCode RwModelView(RwModel model, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)model), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)model, viewer));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscTryTypeMethod(model, view, viewer);
    if (model->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "time step dt = %g%s\n", (double)model->dt, model->dtset ? "" : " (default)"));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelDestroy - frees a model; safe on NULL and on an already destroyed model

  Collective

  Level: beginner

.seealso: RwModelCreate()
@*/
PetscErrorCode RwModelDestroy(RwModel *model)
{
  PetscFunctionBegin;
  if (!model || !*model) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*model, RW_MODEL_CLASSID, 1);
  if (--((PetscObject)(*model))->refct > 0) {
    *model = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscTryTypeMethod(*model, destroy);
  PetscCall(DMDestroy(&(*model)->pack));
  PetscCall(DMDestroy(&(*model)->da));
  PetscCall(PetscHeaderDestroy(model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interface below checks state and dispatches; the physics is in the type. */

#define RwModelCheckSetUp(model) PetscCheck((model)->setupcalled, PetscObjectComm((PetscObject)(model)), PETSC_ERR_ORDER, "Call RwModelSetUp() first")

/*
  RwModelCreatePack_Private - builds the parameter layout: one copy of the
  state grid per field, then the scalars on a DMRedundant owned by rank 0, so
  that TAO sees every global scalar exactly once.
*/
PetscErrorCode RwModelCreatePack_Private(RwModel model)
{
  DM red;

  PetscFunctionBegin;
  PetscCall(DMCompositeCreate(PetscObjectComm((PetscObject)model), &model->pack));
  for (PetscInt i = 0; i < model->nfields; i++) PetscCall(DMCompositeAddDM(model->pack, model->da));
  PetscCall(DMRedundantCreate(PetscObjectComm((PetscObject)model), 0, model->nscalars, &red));
  PetscCall(DMCompositeAddDM(model->pack, red));
  PetscCall(DMDestroy(&red));
  PetscCall(DMSetUp(model->pack));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
  RwModelGetParameterDM - the DMComposite of the parameters: the fields on the
  state's grid, then the global scalars

  Not collective

  Level: intermediate

.seealso: RwModelCreateParameters(), RwModelGetParameterInfo()
@*/
PetscErrorCode RwModelGetParameterDM(RwModel model, DM *pack)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *pack = model->pack;
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
  PetscCall(DMCreateGlobalVector(model->da, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCreateParameters - a new parameter vector (fields and scalars), zero

  Collective

  Level: beginner

.seealso: RwModelGetDefaults(), RwModelGetParameterField()
@*/
PetscErrorCode RwModelCreateParameters(RwModel model, Vec *m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCall(DMCreateGlobalVector(model->pack, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetParameterInfo - the names of the parameter fields and scalars

  Not collective

  Output Parameters:
+ nfields     - number of distributed fields (may be NULL)
. fieldnames  - their names, e.g. kappa and s (may be NULL)
. nscalars    - number of global scalars (may be NULL)
- scalarnames - their names, e.g. r (may be NULL)

  Level: intermediate

.seealso: RwModelGetParameterField(), RwModelGetParameterScalar()
@*/
PetscErrorCode RwModelGetParameterInfo(RwModel model, PetscInt *nfields, const char *const **fieldnames, PetscInt *nscalars, const char *const **scalarnames)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  if (nfields) *nfields = model->nfields;
  if (fieldnames) *fieldnames = model->fieldnames;
  if (nscalars) *nscalars = model->nscalars;
  if (scalarnames) *scalarnames = model->scalarnames;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterField - access to field i of a parameter vector, as a
  vector on the state's grid; give it back with RwModelRestoreParameterField()

  Collective

  Level: intermediate

.seealso: RwModelRestoreParameterField()
@*/
PetscErrorCode RwModelGetParameterField(RwModel model, Vec m, PetscInt i, Vec *field)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCheck(i >= 0 && i < model->nfields, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter field %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", i, model->nfields);
  PetscCall(DMCompositeGetAccessArray(model->pack, m, 1, &i, field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelRestoreParameterField - gives back what RwModelGetParameterField() gave

  Collective

  Level: intermediate

.seealso: RwModelGetParameterField()
@*/
PetscErrorCode RwModelRestoreParameterField(RwModel model, Vec m, PetscInt i, Vec *field)
{
  PetscFunctionBegin;
  PetscCall(DMCompositeRestoreAccessArray(model->pack, m, 1, &i, field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scalars' vector is owned by rank 0; every rank needs their values */
static PetscErrorCode RwModelScalarAccess(RwModel model, Vec m, PetscInt i, PetscReal *get, const PetscReal *set)
{
  PetscInt    which = model->nfields;
  Vec         red;
  PetscScalar *a;
  PetscInt    n;
  PetscReal   v = 0;

  PetscFunctionBegin;
  RwModelCheckSetUp(model);
  PetscCheck(i >= 0 && i < model->nscalars, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter scalar %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", i, model->nscalars);
  PetscCall(DMCompositeGetAccessArray(model->pack, m, 1, &which, &red));
  PetscCall(VecGetLocalSize(red, &n));
  PetscCall(VecGetArray(red, &a));
  if (n) {
    if (set) a[i] = *set;
    v = PetscRealPart(a[i]);
  }
  PetscCall(VecRestoreArray(red, &a));
  PetscCall(DMCompositeRestoreAccessArray(model->pack, m, 1, &which, &red));
  PetscCallMPI(MPI_Bcast(&v, 1, MPIU_REAL, 0, PetscObjectComm((PetscObject)model)));
  if (get) *get = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterScalar - the value of global scalar i in a parameter vector, on every rank

  Collective

  Level: intermediate

.seealso: RwModelSetParameterScalar()
@*/
PetscErrorCode RwModelGetParameterScalar(RwModel model, Vec m, PetscInt i, PetscReal *value)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess(model, m, i, value, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetParameterScalar - sets global scalar i of a parameter vector

  Collective

  Level: intermediate

.seealso: RwModelGetParameterScalar()
@*/
PetscErrorCode RwModelSetParameterScalar(RwModel model, Vec m, PetscInt i, PetscReal value)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess(model, m, i, NULL, &value));
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
  PetscInt     dim, s[3], n[3], p = 0;
  PetscReal    x[3] = {0, 0, 0};
  PetscScalar *a;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  /* the grid, not the whole setup: a type's setup fills its default fields here */
  PetscCheck(model->da, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetUp() first");
  PetscCall(DMDAGetInfo(model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &s[0], &s[1], &s[2], &n[0], &n[1], &n[2]));
  PetscCall(VecGetArray(v, &a));
  for (PetscInt k = s[2]; k < s[2] + n[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + n[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + n[0]; i++) {
        const PetscInt idx[3] = {i, j, k};
        for (PetscInt d = 0; d < dim; d++) PetscUseTypeMethod(model, coordinate, d, idx[d], &x[d]);
        a[p++] = f(dim, x, ctx);
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

/*@
  RwModelSetParameters - the parameters the following steps use; operators
  are rebuilt only when the parameters changed since the last call

  Collective

  Input Parameter:
. m - the parameters; bad values (kappa <= 0, an unstable time step) are errors

  Level: intermediate

.seealso: RwModelStep(), RwModelSetDirection()
@*/
PetscErrorCode RwModelSetParameters(RwModel model, Vec m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidHeaderSpecific(m, VEC_CLASSID, 2);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, setparameters, m);
  model->paramsset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetDirection - the parameter direction dm that tangent steps differentiate along

  Collective

  Level: intermediate

.seealso: RwModelStepTangent()
@*/
PetscErrorCode RwModelSetDirection(RwModel model, Vec dm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidHeaderSpecific(dm, VEC_CLASSID, 2);
  RwModelCheckSetUp(model);
  PetscUseTypeMethod(model, setdirection, dm);
  model->directionset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStep - one forward step, u_k -> u_k+1

  Collective

  Input Parameters:
+ k - the step index
- u - the state u_k

  Output Parameter:
. unew - the state u_k+1 (a different vector)

  Level: intermediate

.seealso: RwModelStepTangent(), RwModelStepAdjoint()
@*/
PetscErrorCode RwModelStep(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() before stepping");
  PetscCall(PetscLogEventBegin(RW_Forward, model, 0, 0, 0));
  PetscUseTypeMethod(model, step, k, u, unew);
  PetscCall(PetscLogEventEnd(RW_Forward, model, 0, 0, 0));
  model->nforward++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStepTangent - the tangent of step k along the direction set by RwModelSetDirection()

  Collective

  Input Parameters:
+ k    - the step index
. u    - u_k
. unew - u_k+1 (implicit schemes need it)
- du   - the tangent state du_k

  Output Parameter:
. dunew - du_k+1

  Level: intermediate

.seealso: RwModelStep(), RwModelStepAdjoint()
@*/
PetscErrorCode RwModelStepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset && model->directionset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() and RwModelSetDirection() before tangent steps");
  PetscCall(PetscLogEventBegin(RW_Tangent, model, 0, 0, 0));
  PetscUseTypeMethod(model, steptangent, k, u, unew, du, dunew);
  PetscCall(PetscLogEventEnd(RW_Tangent, model, 0, 0, 0));
  model->ntangent++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAdjointBegin - zeroes the parameter-gradient accumulators before a reverse sweep

  Collective

  Level: intermediate

.seealso: RwModelStepAdjoint(), RwModelAdjointEnd()
@*/
PetscErrorCode RwModelAdjointBegin(RwModel model)
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() before a reverse sweep");
  PetscUseTypeMethod(model, adjointbegin);
  model->inadjoint = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStepAdjoint - the adjoint of step k: lambda_k = (du_k+1/du_k)^T lambda_k+1,
  and (du_k+1/dm)^T lambda_k+1 added to the parameter gradient

  Collective

  Input Parameters:
+ k    - the step index
. u    - u_k
. unew - u_k+1 (kept by the driver; implicit schemes need it)
- lnew - lambda_k+1

  Output Parameter:
. l - lambda_k (a different vector)

  Level: intermediate

.seealso: RwModelAdjointBegin(), RwModelAdjointEnd()
@*/
PetscErrorCode RwModelStepAdjoint(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec l)
{
  PetscFunctionBegin;
  PetscCheck(model->inadjoint, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelAdjointBegin() before adjoint steps");
  PetscCall(PetscLogEventBegin(RW_Adjoint, model, 0, 0, 0));
  PetscUseTypeMethod(model, stepadjoint, k, u, unew, lnew, l);
  PetscCall(PetscLogEventEnd(RW_Adjoint, model, 0, 0, 0));
  model->nadjoint++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetAdjointAccumulators - the vectors, each on a grid (DMDA), that hold
  everything a reverse sweep has accumulated so far besides lambda: writing them
  and reading them back resumes a reverse sweep exactly

  Not collective

  Output Parameters:
+ n   - how many (at most RW_MODEL_MAX_ACCUMULATORS)
- acc - the model's own vectors, not copies

  Level: developer

.seealso: RwModelAdjointBegin(), RwAdjointSetKeepInterval()
@*/
PetscErrorCode RwModelGetAdjointAccumulators(RwModel model, PetscInt *n, Vec acc[])
{
  RwModelType type;

  PetscFunctionBegin;
  PetscCall(RwModelGetType(model, &type));
  PetscCheck(model->ops->adjointaccumulators, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "Model %s does not expose its adjoint accumulators, so its reverse sweep cannot be kept and resumed (-rw_adjoint_keep_interval)", type);
  PetscUseTypeMethod(model, adjointaccumulators, n, acc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAdjointEnd - writes the accumulated gradient with respect to the parameters into g;
  global scalars are reduced across ranks once, reproducibly

  Collective

  Output Parameter:
. g - a parameter vector

  Level: intermediate

.seealso: RwModelAdjointBegin()
@*/
PetscErrorCode RwModelAdjointEnd(RwModel model, Vec g)
{
  PetscFunctionBegin;
  PetscCheck(model->inadjoint, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelAdjointBegin() first");
  PetscCall(PetscLogEventBegin(RW_Reduce, model, 0, 0, 0));
  PetscUseTypeMethod(model, adjointend, g);
  PetscCall(PetscLogEventEnd(RW_Reduce, model, 0, 0, 0));
  model->inadjoint = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCheckFinite - stops with an error naming the first step whose forward
  state or adjoint state held a NaN or Inf; the kernels note it at no cost and
  this call agrees on it across ranks

  Collective

  Level: intermediate
@*/
PetscErrorCode RwModelCheckFinite(RwModel model)
{
  PetscInt64 bad[2], first[2];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  /* -1 means none: map it above every step so that MIN finds the first */
  for (int i = 0; i < 2; i++) bad[i] = model->firstbad[i] < 0 ? RW_INT64_MAX : model->firstbad[i];
  PetscCallMPI(MPI_Allreduce(bad, first, 2, MPIU_INT64, MPI_MIN, PetscObjectComm((PetscObject)model)));
  PetscCheck(first[0] == RW_INT64_MAX, PetscObjectComm((PetscObject)model), PETSC_ERR_FP, "NaN or Inf in the forward state u_%" PetscInt64_FMT " (computed by step %" PetscInt64_FMT "): check the parameters, the initial state and -rw_dt", first[0], first[0] - 1);
  PetscCheck(first[1] == RW_INT64_MAX, PetscObjectComm((PetscObject)model), PETSC_ERR_FP, "NaN or Inf in the adjoint state lambda_%" PetscInt64_FMT " (computed by the adjoint of step %" PetscInt64_FMT ")", first[1], first[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStepCounts - forward, tangent and adjoint steps taken since creation or the last reset

  Not collective

  Level: intermediate

.seealso: RwModelResetStepCounts()
@*/
PetscErrorCode RwModelGetStepCounts(RwModel model, PetscInt64 *forward, PetscInt64 *tangent, PetscInt64 *adjoint)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (forward) *forward = model->nforward;
  if (tangent) *tangent = model->ntangent;
  if (adjoint) *adjoint = model->nadjoint;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelResetStepCounts - zeroes the step counters and forgets earlier non-finite states

  Not collective

  Level: intermediate

.seealso: RwModelGetStepCounts()
@*/
PetscErrorCode RwModelResetStepCounts(RwModel model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  model->nforward = model->ntangent = model->nadjoint = 0;
  model->firstbad[0] = model->firstbad[1] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}
