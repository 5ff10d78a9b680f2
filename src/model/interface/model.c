/*
  RwModel: the class itself -- registering types, creating a model, choosing
  its type, reading its options, setting it up, viewing and destroying it.
  What a model holds is split by concern, as SLEPc splits a class, so that a
  reader finds one concern per file:
    model.c        the class: register, create, type, options, set-up, view, destroy
    modelgrid.c    the state and where it lives: grids, coordinates, ghosts, the time grid
    modellayout.c  the parameter layout: fields and blocks of global scalars in one DMComposite
    modelstep.c    the stepping interface the driver calls: forward, tangent, adjoint, counts
    modelplugin.c  loading model types from shared libraries
  Types live in src/model/impls/<type>/.
*/
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
  PetscCall(RwModelRegister(RWMODELWAVE, RwModelCreate_Wave));
  PetscCall(RwModelRegister(RWMODELL96, RwModelCreate_L96));
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
  obj->dof         = 1;
  obj->n           = 100;
  obj->isa         = RwKernelISABest();
  obj->isaauto     = PETSC_TRUE;
  obj->streammin   = (PetscInt64)RW_STREAM_MIN_MIB << 20;
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

/* -rw_kernel_isa: auto (the best this CPU runs), or an instruction set it must have */
static PetscErrorCode RwModelKernelISAFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  const char *choices[RW_KERNEL_ISA_N + 1] = {"auto"};
  PetscInt    c = 0;
  PetscBool   set;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < RW_KERNEL_ISA_N; i++) choices[i + 1] = RwKernelISANames[i];
  PetscCall(PetscOptionsEList("-rw_kernel_isa", "Instruction set of the stencil kernels: auto (the best this CPU has; a type may run a narrower set per kernel where it measured faster), or portable, avx2, avx512 for every kernel", "RwModelSetFromOptions", choices, RW_KERNEL_ISA_N + 1, choices[0], &c, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  if (c == 0) model->isa = RwKernelISABest();
  else {
    PetscCall(RwKernelISACheck(PetscObjectComm((PetscObject)model), "-rw_kernel_isa", (RwKernelISA)(c - 1)));
    model->isa = (RwKernelISA)(c - 1);
  }
  model->isaauto = c == 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_kernel_stream_stores <MiB>: from which output size a rank the kernels
   write with streaming stores (RwModelStreamStores()); -1 never */
static PetscErrorCode RwModelStreamStoresFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  PetscInt  mib = model->streammin < 0 ? -1 : (PetscInt)(model->streammin >> 20);
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(RwOptionsInt("-rw_kernel_stream_stores", "Output size a rank, in MiB, from which the kernels write it with streaming stores, past the caches (0: always; -1: never)", "RwModelSetFromOptions", mib, &mib, &set, -1, PETSC_MAX_INT));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  model->streammin = mib < 0 ? -1 : (PetscInt64)mib << 20;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_hugepages <bool>: whether the large arrays allocated from now on ask
   for transparent huge pages (RwHugePagesSet(): a process-wide setting, as
   the arrays of the driver and stores allocated after the model follow it) */
static PetscErrorCode RwModelHugePagesFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  PetscBool on, set;

  PetscFunctionBegin;
  PetscCall(RwHugePagesGet(&on, NULL, 0, NULL, NULL));
  PetscCall(RwOptionsBool("-rw_hugepages", "Large arrays (states, fields, work vectors of 2 MiB or more) ask the kernel for transparent huge pages (off by default: the wave step measured no faster; doc/notes/wave-3d-profile.md); -rw_model_view says what was granted", "RwHugePagesSet", on, &on, &set));
  if (set) PetscCall(RwHugePagesSet(on));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_model_step_block <T>: forward steps fused into one pass over the grid
   (RwModelStepBlock()); unset, the type's choice, resolved at set-up */
static PetscErrorCode RwModelStepBlockFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  PetscInt  T = model->stepblock;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(RwOptionsInt("-rw_model_step_block", "Forward steps fused into one pass over the grid where the model type can (1: one step a pass; unset: the type's choice)", "RwModelStepBlock", T, &T, &set, 1, RW_MODEL_MAX_STEP_BLOCK));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  model->stepblock = T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetFromOptions - sets the model's type and the type's options from the options database

  Collective

  Options Database Key:
+ -rw_model_type <type>   - the model type
. -rw_model_plugin <lib> - a shared library of model types to load first (RwModelLoadPlugin())
. -rw_steps <n>          - the number of steps of a run
. -rw_dt <dt>            - the time step
. -rw_kernel_isa <isa>   - the kernels' instruction set (RwModelSetKernelISA())
. -rw_kernel_stream_stores <MiB> - output size a rank from which kernels that can write it with streaming stores do (0: always; -1: never)
. -rw_model_step_block <T> - forward steps fused into one pass over the grid where the type can (RwModelStepBlock(); 1: none)
- -rw_hugepages <bool>   - large arrays ask for transparent huge pages (RwHugePagesSet(); default false)

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
  {
    char plugin[PETSC_MAX_PATH_LEN];

    PetscCall(PetscOptionsString("-rw_model_plugin", "A shared library of model types to load (its RwModelPluginRegister() is called)", "RwModelLoadPlugin", "", plugin, sizeof(plugin), &set));
    if (set) PetscCall(RwModelLoadPlugin(PetscObjectComm((PetscObject)model), plugin));
  }
  PetscCall(PetscOptionsFList("-rw_model_type", "Model type", "RwModelSetType", RwModelList, ((PetscObject)model)->type_name, type, sizeof(type), &set));
  if (set) PetscCall(RwModelSetType(model, type));
  PetscCheck(((PetscObject)model)->type_name, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_WRONGSTATE, "RwModel has no type: call RwModelSetType() or give -rw_model_type");
  {
    PetscReal dt = model->dt;
    PetscCall(RwOptionsReal("-rw_dt", "Time step, in the model's time unit (unset: the model type's for the grid; -help prints the one used under 'values used' once the grid is built)", "RwModelSetTimeStep", dt, &dt, &set, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
    if (set) PetscCall(RwModelSetTimeStep(model, dt));
  }
  {
    PetscInt64 n = model->n;
    PetscCall(RwOptionsInt64("-rw_steps", "Number of time steps of a run", "RwModelSetSteps", n, &n, &set, 1, PETSC_MAX_INT));
    if (set) PetscCall(RwModelSetSteps(model, n));
  }
  PetscCall(RwModelKernelISAFromOptions(model, PetscOptionsObject));
  PetscCall(RwModelStreamStoresFromOptions(model, PetscOptionsObject));
  PetscCall(RwModelStepBlockFromOptions(model, PetscOptionsObject));
  PetscCall(RwModelHugePagesFromOptions(model, PetscOptionsObject));
  PetscTryTypeMethod(model, setfromoptions, PetscOptionsObject);
  PetscCall(PetscObjectProcessOptionsHandlers((PetscObject)model, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -help: the time step the run will use, which the options block could only show as 0 before the grid was built */
static PetscErrorCode RwModelHelpUsed(RwModel model)
{
  PetscBool   help;
  const char *prefix;
  PetscReal   T;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasHelp(((PetscObject)model)->options, &help));
  if (!help) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
  T = model->dt * (PetscReal)model->n;
  PetscCall((*PetscHelpPrintf)(PetscObjectComm((PetscObject)model), "RwModel %s: values used (grid built)\n", ((PetscObject)model)->type_name));
  PetscCall((*PetscHelpPrintf)(PetscObjectComm((PetscObject)model), "  -%srw_dt <%g>: time step used (%s)\n", prefix ? prefix : "", (double)model->dt, model->dtset ? "given" : "the model type's default for this grid"));
  PetscCall((*PetscHelpPrintf)(PetscObjectComm((PetscObject)model), "  -%srw_steps <%" PetscInt64_FMT ">: steps used, to time T = %g\n", prefix ? prefix : "", model->n, (double)T));
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
  /* a type that fuses steps resolved -rw_model_step_block in its set-up */
  PetscCheck(model->stepblock <= 1 || model->ops->stepblock, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "-rw_model_step_block %" PetscInt_FMT ": the %s model does not fuse steps; give 1", model->stepblock, ((PetscObject)model)->type_name);
  if (!model->ops->stepblock) model->stepblock = 1;
  model->setupcalled = PETSC_TRUE;
  PetscCall(RwModelHelpUsed(model));
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
  RwModelSetKernelISA - chooses the instruction set the model's kernels run with; every choice gives the same bits

  Collective

  Input Parameters:
+ model - the model
- isa - "auto" (the best this CPU has), "portable", "avx2" or "avx512"

  Options Database Key:
. -rw_kernel_isa <auto,portable,avx2,avx512> - the same

  Notes:
  Under "auto" a type may run a narrower set for a kernel where that set
  measured faster (the wave model's forms, -rw_wave_kernel_choice); a set
  named here runs every kernel that has a variant in it.

  Level: intermediate

.seealso: RwModelGetKernelISA(), RwModelSetFromOptions()
@*/
PetscErrorCode RwModelSetKernelISA(RwModel model, const char isa[])
{
  PetscBool auto_, found;
  PetscInt  i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(PetscStrcmp(isa, "auto", &auto_));
  if (auto_) {
    model->isa     = RwKernelISABest();
    model->isaauto = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscEListFind(RW_KERNEL_ISA_N, RwKernelISANames, isa, &i, &found));
  PetscCheck(found, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "RwModelSetKernelISA: unknown instruction set \"%s\"; use auto, portable, avx2 or avx512", isa);
  PetscCall(RwKernelISACheck(PetscObjectComm((PetscObject)model), "RwModelSetKernelISA", (RwKernelISA)i));
  model->isa     = (RwKernelISA)i;
  model->isaauto = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetKernelISA - the instruction set the model's kernels run with: "portable", "avx2" or "avx512"

  Not Collective

  Input Parameter:
. model - the model

  Output Parameter:
. isa - its name

  Options Database Key:
. -rw_kernel_isa <auto,portable,avx2,avx512> - auto (default): the best this CPU has

  Level: intermediate

.seealso: RwModelSetFromOptions(), RwModelView()
@*/
PetscErrorCode RwModelGetKernelISA(RwModel model, const char *isa[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidPointer(isa, 2);
  *isa = RwKernelISANames[model->isa];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetKernelISAAuto - whether the model's instruction set is auto's
  (the best this CPU has, a type free to run a narrower set per kernel
  where it measured faster) rather than one named for every kernel

  Not Collective

  Input Parameter:
. model - the model

  Output Parameter:
. isauto - PETSC_TRUE under -rw_kernel_isa auto (the default)

  Level: advanced

.seealso: RwModelSetKernelISA(), RwModelGetKernelISA()
@*/
PetscErrorCode RwModelGetKernelISAAuto(RwModel model, PetscBool *isauto)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidBoolPointer(isauto, 2);
  *isauto = model->isaauto;
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
    {
      char list[64];
      PetscCall(RwKernelISAList(list, sizeof(list)));
      PetscCall(PetscViewerASCIIPrintf(viewer, "kernels: %s instruction set%s (available here: %s)\n", RwKernelISANames[model->isa], model->isa == RwKernelISABest() ? ", the best available" : "", list));
      if (model->streammin < 0) PetscCall(PetscViewerASCIIPrintf(viewer, "kernels: no streaming stores\n"));
      else PetscCall(PetscViewerASCIIPrintf(viewer, "kernels: streaming stores for outputs of %" PetscInt64_FMT " MiB a rank or more\n", model->streammin >> 20));
      if (model->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "forward: %" PetscInt_FMT " step%s a pass over the grid (-rw_model_step_block)\n", model->stepblock, model->stepblock > 1 ? "s" : ""));
      if (model->setupcalled) PetscCall(RwHugePagesView(viewer));
    }
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
  PetscCall(DMDestroy(&(*model)->fda));
  PetscCall(DMDestroy(&(*model)->da));
  PetscCall(PetscFree3((*model)->scalars, (*model)->dscalars, (*model)->gtotal));
  PetscCall(RwReproSumDestroy(&(*model)->gsum));
  PetscCall(PetscHeaderDestroy(model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetIdentity - what makes two runs of this model type the same
  problem beyond its grid and time step, as text (the discretisation, a
  linear solver as configured); what checkpoint files and run journals
  record.  Empty for a type that says nothing more

  Not collective

  Input Parameters:
+ model - the model, set up
- len   - the size of text

  Output Parameter:
. text - the identity

  Level: intermediate
@*/
PetscErrorCode RwModelGetIdentity(RwModel model, char text[], size_t len)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  if (len) text[0] = 0;
  if (model->ops->identity) PetscCall((*model->ops->identity)(model, text, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
