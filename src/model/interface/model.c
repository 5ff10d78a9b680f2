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
  PetscCall(RwModelRegister(RWMODELWAVE, RwModelCreate_Wave));
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

/*@C
  RwModelLoadPlugin - loads a model type compiled as a shared library: opens
  it and calls its RwModelPluginRegister(), which registers its types with
  RwModelRegister(); the library stays loaded until the process ends

  Collective (every rank loads it)

  Input Parameter:
. path - the shared library, e.g. ./libmymodel.so

  Options Database Key:
. -rw_model_plugin <path> - a library to load before the type is chosen

  Level: advanced

.seealso: RwModelRegister(), RwModelSetFromOptions()
@*/
PetscErrorCode RwModelLoadPlugin(MPI_Comm comm, const char path[])
{
  PetscDLHandle handle;
  void         *sym = NULL;
  PetscBool     exists;

  PetscFunctionBegin;
  PetscCall(PetscTestFile(path, 'r', &exists));
  PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "Model plugin %s (-rw_model_plugin) cannot be read", path);
  PetscCall(PetscDLOpen(path, PETSC_DL_DECIDE, &handle));
  PetscCall(PetscDLSym(handle, "RwModelPluginRegister", &sym));
  PetscCheck(sym, comm, PETSC_ERR_ARG_WRONG, "Model plugin %s has no function RwModelPluginRegister(void): it must define one that calls RwModelRegister()", path);
  PetscCall((*(PetscErrorCode(*)(void))sym)());
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
  PetscCall(PetscOptionsEList("-rw_kernel_isa", "Instruction set of the stencil kernels: auto (the best this CPU has), portable, avx2, avx512", "RwModelSetFromOptions", choices, RW_KERNEL_ISA_N + 1, choices[0], &c, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  if (c == 0) model->isa = RwKernelISABest();
  else {
    PetscCall(RwKernelISACheck(PetscObjectComm((PetscObject)model), "-rw_kernel_isa", (RwKernelISA)(c - 1)));
    model->isa = (RwKernelISA)(c - 1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_kernel_stream_stores <MiB>: from which output size a rank the kernels
   write with streaming stores (RwModelStreamStores()); -1 never */
static PetscErrorCode RwModelStreamStoresFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  PetscInt  mib = model->streammin < 0 ? -1 : (PetscInt)(model->streammin >> 20);
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-rw_kernel_stream_stores", "Output size a rank, in MiB, from which the kernels write it with streaming stores, past the caches (0: always; -1: never)", "RwModelSetFromOptions", mib, &mib, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(mib >= -1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "-rw_kernel_stream_stores %" PetscInt_FMT ": give a size in MiB >= 0, or -1 for never", mib);
  model->streammin = mib < 0 ? -1 : (PetscInt64)mib << 20;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_model_step_block <T>: forward steps fused into one pass over the grid
   (RwModelStepBlock()); unset, the type's choice, resolved at set-up */
static PetscErrorCode RwModelStepBlockFromOptions(RwModel model, PetscOptionItems *PetscOptionsObject)
{
  PetscInt  T = model->stepblock;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-rw_model_step_block", "Forward steps fused into one pass over the grid where the model type can (1: one step a pass; unset: the type's choice)", "RwModelStepBlock", T, &T, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(T >= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "-rw_model_step_block %" PetscInt_FMT ": give 1 (one step a pass) or more", T);
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
- -rw_model_step_block <T> - forward steps fused into one pass over the grid where the type can (RwModelStepBlock(); 1: none)

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
    PetscCall(PetscOptionsReal("-rw_dt", "Time step, in the model's time unit, > 0 (unset: the model type's for the grid; -help prints the one used under 'values used' once the grid is built)", "RwModelSetTimeStep", dt, &dt, &set));
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
    model->isa = RwKernelISABest();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscEListFind(RW_KERNEL_ISA_N, RwKernelISANames, isa, &i, &found));
  PetscCheck(found, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "RwModelSetKernelISA: unknown instruction set \"%s\"; use auto, portable, avx2 or avx512", isa);
  PetscCall(RwKernelISACheck(PetscObjectComm((PetscObject)model), "RwModelSetKernelISA", (RwKernelISA)i));
  model->isa = (RwKernelISA)i;
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

/* The interface below checks state and dispatches; the physics is in the type. */

#define RwModelCheckSetUp(model) PetscCheck((model)->setupcalled, PetscObjectComm((PetscObject)(model)), PETSC_ERR_ORDER, "Call RwModelSetUp() first")

/*@C
  RwModelAddParameterBlock - declares a named block of replicated global
  scalars, in a type's setup before RwModelCreatePack_Private()

  Not collective

  Input Parameters:
+ model - the model
. name  - the block's name (in views, identities and files)
. size  - scalars in the block; for a time-indexed block, values per step
- timeindexed - the block holds size values for each of the n steps of a run
                (RwModelSetSteps()), step k -> k+1 using [k size, (k + 1) size)

  Level: developer

.seealso: RwModelGetParameterBlockInfo(), RwModelSetSteps()
@*/
PetscErrorCode RwModelAddParameterBlock(RwModel model, const char name[], PetscInt size, PetscBool timeindexed)
{
  RwModelBlock *b = &model->blocks[model->nblocks];

  PetscFunctionBegin;
  PetscCheck(!model->pack, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Parameter block %s added after the parameter layout was built", name);
  PetscCheck(model->nblocks < RW_MODEL_MAX_BLOCKS, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "At most %d parameter blocks", RW_MODEL_MAX_BLOCKS);
  PetscCheck(size >= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter block %s has size %" PetscInt_FMT ": it must be at least 1", name, size);
  PetscCheck(!timeindexed || (PetscInt64)size * model->n <= PETSC_MAX_INT, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Time-indexed block %s: %" PetscInt_FMT " values for each of %" PetscInt64_FMT " steps do not fit a PetscInt", name, size, model->n);
  PetscCall(PetscStrncpy(b->name, name, sizeof(b->name)));
  b->perstep = timeindexed ? size : 0;
  b->size    = timeindexed ? size * (PetscInt)model->n : size;
  b->offset  = model->nscalars;
  model->nscalars += b->size;
  model->nblocks++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwModelCreatePack_Private - builds the parameter layout: one field grid per
  field, then every block's scalars on one DMRedundant owned by rank 0, so
  that TAO sees every global scalar exactly once.  Also what the driver uses
  of every block: the replicated values and the exact gradient sums.
*/
PetscErrorCode RwModelCreatePack_Private(RwModel model)
{
  DM red;

  PetscFunctionBegin;
  if (!model->fda) {
    PetscCheck(model->dof == 1, PetscObjectComm((PetscObject)model), PETSC_ERR_PLIB, "A model with %" PetscInt_FMT " state components must set its field grid (model->fda)", model->dof);
    PetscCall(PetscObjectReference((PetscObject)model->da));
    model->fda = model->da;
  }
  PetscCheck(model->observed >= 0 && model->observed < model->dof, PetscObjectComm((PetscObject)model), PETSC_ERR_PLIB, "Observed component %" PetscInt_FMT " of %" PetscInt_FMT, model->observed, model->dof);
  PetscCall(DMCompositeCreate(PetscObjectComm((PetscObject)model), &model->pack));
  for (PetscInt i = 0; i < model->nfields; i++) PetscCall(DMCompositeAddDM(model->pack, model->fda));
  PetscCall(DMRedundantCreate(PetscObjectComm((PetscObject)model), 0, model->nscalars, &red));
  PetscCall(DMCompositeAddDM(model->pack, red));
  PetscCall(DMDestroy(&red));
  PetscCall(DMSetUp(model->pack));
  PetscCall(PetscCalloc3(model->nscalars + 1, &model->scalars, model->nscalars + 1, &model->dscalars, model->nscalars + 1, &model->gtotal));
  PetscCall(RwReproSumCreate(PetscMax(model->nscalars, 1), &model->gsum));
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
  RwModelGetParameterInfo - the parameter fields' names and the number of blocks of global scalars

  Not collective

  Output Parameters:
+ nfields    - number of distributed fields (may be NULL)
. fieldnames - their names, e.g. kappa and s (may be NULL)
- nblocks    - number of blocks of replicated scalars (may be NULL); see RwModelGetParameterBlockInfo()

  Level: intermediate

.seealso: RwModelGetParameterField(), RwModelGetParameterBlockInfo()
@*/
PetscErrorCode RwModelGetParameterInfo(RwModel model, PetscInt *nfields, const char *const **fieldnames, PetscInt *nblocks)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  if (nfields) *nfields = model->nfields;
  if (fieldnames) *fieldnames = model->fieldnames;
  if (nblocks) *nblocks = model->nblocks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetParameterBlockInfo - what block b of global scalars is

  Not collective

  Output Parameters:
+ name    - its name (may be NULL)
. size    - its number of scalars (may be NULL)
. perstep - for a time-indexed block the values per step, so that size = perstep n; 0 otherwise (may be NULL)
- offset  - the index of its first scalar among all blocks', for RwModelGetParameterScalar() (may be NULL)

  Level: intermediate

.seealso: RwModelGetParameterBlock(), RwModelFindParameterBlock()
@*/
PetscErrorCode RwModelGetParameterBlockInfo(RwModel model, PetscInt b, const char **name, PetscInt *size, PetscInt *perstep, PetscInt *offset)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  PetscCheck(b >= 0 && b < model->nblocks, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter block %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", b, model->nblocks);
  if (name) *name = model->blocks[b].name;
  if (size) *size = model->blocks[b].size;
  if (perstep) *perstep = model->blocks[b].perstep;
  if (offset) *offset = model->blocks[b].offset;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelFindParameterBlock - the index of the block called name, or -1

  Not collective

  Level: intermediate

.seealso: RwModelGetParameterBlockInfo()
@*/
PetscErrorCode RwModelFindParameterBlock(RwModel model, const char name[], PetscInt *b)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *b = -1;
  for (PetscInt i = 0; i < model->nblocks && *b < 0; i++) {
    PetscCall(PetscStrcmp(model->blocks[i].name, name, &same));
    if (same) *b = i;
  }
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

/* The scalars' vector is owned by rank 0; every rank needs their values:
   scalars [first, first + n) are read (one broadcast) or written (none: rank
   0 writes what every rank passed) */
static PetscErrorCode RwModelScalarAccess(RwModel model, Vec m, PetscInt first, PetscInt n, PetscReal *get, const PetscReal *set)
{
  PetscInt     which = model->nfields, nlocal;
  Vec          red;
  PetscScalar *a;

  PetscFunctionBegin;
  RwModelCheckSetUp(model);
  PetscCheck(first >= 0 && n >= 0 && first + n <= model->nscalars, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Parameter scalars [%" PetscInt_FMT ", %" PetscInt_FMT ") out of range [0, %" PetscInt_FMT ")", first, first + n, model->nscalars);
  PetscCall(DMCompositeGetAccessArray(model->pack, m, 1, &which, &red));
  PetscCall(VecGetLocalSize(red, &nlocal));
  PetscCall(VecGetArray(red, &a));
  if (nlocal) {
    for (PetscInt i = 0; set && i < n; i++) a[first + i] = set[i];
    for (PetscInt i = 0; get && i < n; i++) get[i] = PetscRealPart(a[first + i]);
  }
  PetscCall(VecRestoreArray(red, &a));
  PetscCall(DMCompositeRestoreAccessArray(model->pack, m, 1, &which, &red));
  if (get && n) {
    PetscMPIInt count;

    PetscCall(PetscMPIIntCast(n, &count));
    PetscCallMPI(MPI_Bcast(get, count, MPIU_REAL, 0, PetscObjectComm((PetscObject)model)));
    model->nbroadcasts++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetParameterBlockValues - the values of block b that the model uses
  now (from the last RwModelSetParameters()), the same on every rank, with no
  communication: what objective terms that depend on the scalars read

  Not collective

  Output Parameter:
. values - the block's values, owned by the model

  Level: intermediate

.seealso: RwModelSetParameters(), RwModelGetParameterBlock()
@*/
PetscErrorCode RwModelGetParameterBlockValues(RwModel model, PetscInt b, const PetscReal *values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, NULL));
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() first");
  *values = RwModelBlockValues(model, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterBlock - the values of block b of a parameter vector, on every rank

  Collective; one broadcast

  Output Parameter:
. values - the block's size values (RwModelGetParameterBlockInfo())

  Level: intermediate

.seealso: RwModelSetParameterBlock()
@*/
PetscErrorCode RwModelGetParameterBlock(RwModel model, Vec m, PetscInt b, PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, NULL));
  PetscCall(RwModelScalarAccess(model, m, model->blocks[b].offset, model->blocks[b].size, values, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetParameterBlock - sets block b of a parameter vector

  Collective; every rank passes the same values (rank 0's are kept), no communication

  Level: intermediate

.seealso: RwModelGetParameterBlock()
@*/
PetscErrorCode RwModelSetParameterBlock(RwModel model, Vec m, PetscInt b, const PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, NULL));
  PetscCall(RwModelScalarAccess(model, m, model->blocks[b].offset, model->blocks[b].size, NULL, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetParameterScalars - every block's scalars of a parameter vector, in block order, on every rank

  Collective; one broadcast

  Output Parameter:
. values - nscalars values, the sum of the blocks' sizes

  Level: intermediate

.seealso: RwModelGetParameterBlock()
@*/
PetscErrorCode RwModelGetParameterScalars(RwModel model, Vec m, PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess(model, m, 0, model->nscalars, values, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetParameterScalars - sets every block's scalars of a parameter vector, in block order

  Collective; every rank passes the same values (rank 0's are kept), no communication

  Level: intermediate

.seealso: RwModelGetParameterScalars()
@*/
PetscErrorCode RwModelSetParameterScalars(RwModel model, Vec m, const PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCall(RwModelScalarAccess(model, m, 0, model->nscalars, NULL, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetNumParameterScalars - the number of global scalars, every block's

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwModelGetNumParameterScalars(RwModel model, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *n = model->nscalars;
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
  PetscCall(RwModelScalarAccess(model, m, i, 1, value, NULL));
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
  PetscCall(RwModelScalarAccess(model, m, i, 1, NULL, &value));
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

/*@
  RwModelSetGridSizes - a program's default number of grid points per
  direction, before -da_grid_x, -da_grid_y, -da_grid_z override it (0: the type's default)

  Logically collective; before RwModelSetUp()

  Level: intermediate

.seealso: RwModelSetSteps()
@*/
PetscErrorCode RwModelSetGridSizes(RwModel model, const PetscInt M[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCheck(!model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Set the default grid size before RwModelSetUp()");
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(M[d] >= 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Grid size %" PetscInt_FMT " in direction %c must be >= 0 (0: the type's default)", M[d], "xyz"[d]);
    model->gridsize[d] = M[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelSetActiveParameters - the parameters whose gradient is wanted, by
  name (fields and blocks); a reverse sweep may skip the others' accumulators,
  and their part of the gradient is zero

  Logically collective; after RwModelSetUp()

  Input Parameters:
+ model - the model
. n     - the number of names, or -1 for every parameter
- names - field or block names, e.g. kappa

  Options Database Key:
. -rw_adjoint_active <names> - the same, read by the driver (RwAdjointSetFromOptions())

  Level: intermediate

  Notes:
  The initial state's gradient, lambda_0, is always computed.  The
  inversion of one field is the use: heat's adjoint then skips the
  accumulators of s and r (32 of its 80 bytes a point and step).

.seealso: RwAdjointSolve()
@*/
PetscErrorCode RwModelSetActiveParameters(RwModel model, PetscInt n, const char *const names[])
{
  PetscInt np;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  np = model->nfields + model->nblocks;
  PetscCheck(np <= 16, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "At most 16 parameters can be marked active");
  for (PetscInt p = 0; p < np; p++) model->inactive[p] = n < 0 ? PETSC_FALSE : PETSC_TRUE;
  for (PetscInt i = 0; i < n; i++) {
    PetscBool found = PETSC_FALSE, same;

    for (PetscInt f = 0; f < model->nfields && !found; f++) {
      PetscCall(PetscStrcmp(names[i], model->fieldnames[f], &same));
      if (same) model->inactive[f] = PETSC_FALSE, found = PETSC_TRUE;
    }
    for (PetscInt b = 0; b < model->nblocks && !found; b++) {
      PetscCall(PetscStrcmp(names[i], model->blocks[b].name, &same));
      if (same) model->inactive[model->nfields + b] = PETSC_FALSE, found = PETSC_TRUE;
    }
    PetscCheck(found, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_UNKNOWN_TYPE, "-rw_adjoint_active: the model has no parameter %s (its fields and blocks are listed by -rw_model_view)", names[i]);
  }
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
  PetscCall(RwModelScalarAccess(model, m, 0, model->nscalars, model->scalars, NULL));
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
  PetscCall(RwModelScalarAccess(model, dm, 0, model->nscalars, model->dscalars, NULL));
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
  RwModelStepBlock - T forward steps, u_k -> u_k+1 -> ... -> u_k+T, in one
  pass over the grid where the model type fuses them

  Collective

  Input Parameters:
+ k - the first step's index
. T - how many steps, 1 up to RwModelGetStepBlock()'s
- u - the state u_k

  Output Parameter:
. unew - u_k+1 .. u_k+T, T vectors different from u and from each other

  Notes:
  Each u_k+t holds the bits RwModelStep() would give it.  A pass that
  reads its input once for T steps moves less memory per step: the fused
  steps read u_k+t from cache.  The non-finite check (RwModelCheckFinite())
  names the first bad step as for single steps.

  Level: intermediate

.seealso: RwModelStep(), RwModelGetStepBlock()
@*/
PetscErrorCode RwModelStepBlock(RwModel model, PetscInt64 k, PetscInt T, Vec u, Vec unew[])
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() before stepping");
  PetscCheck(T >= 1 && T <= model->stepblock, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "A block of %" PetscInt_FMT " steps: this model fuses 1 to %" PetscInt_FMT " (-rw_model_step_block)", T, model->stepblock);
  if (T == 1) {
    PetscCall(RwModelStep(model, k, u, unew[0]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(RW_Forward, model, 0, 0, 0));
  PetscUseTypeMethod(model, stepblock, k, T, u, unew);
  PetscCall(PetscLogEventEnd(RW_Forward, model, 0, 0, 0));
  model->nforward += T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStepBlock - the most forward steps RwModelStepBlock() takes in
  one pass: what the type fuses, or -rw_model_step_block

  Not collective

  Output Parameter:
. T - 1 where the type fuses none

  Level: intermediate

.seealso: RwModelStepBlock()
@*/
PetscErrorCode RwModelGetStepBlock(RwModel model, PetscInt *T)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *T = model->stepblock;
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
  PetscCall(RwReproSumReset(model->gsum));
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
  RwModelAddScalarGradient - adds one term of dJ/d(scalar i of block b) in a
  reverse sweep; the terms are summed exactly and reduced once at
  RwModelAdjointEnd(), so the gradient is bitwise the same on any number of ranks

  Not collective

  Level: developer

.seealso: RwModelAddScalarGradientArray()
@*/
PetscErrorCode RwModelAddScalarGradient(RwModel model, PetscInt b, PetscInt i, PetscReal v)
{
  PetscFunctionBegin;
  PetscAssert(b >= 0 && b < model->nblocks && i >= 0 && i < model->blocks[b].size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Scalar %" PetscInt_FMT " of block %" PetscInt_FMT " out of range", i, b);
  PetscCall(RwReproSumAdd(model->gsum, model->blocks[b].offset + i, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAddScalarGradientArray - adds m terms of dJ/d(scalar i of block b), exactly

  Not collective

  Level: developer

.seealso: RwModelAddScalarGradient()
@*/
PetscErrorCode RwModelAddScalarGradientArray(RwModel model, PetscInt b, PetscInt i, PetscInt m, const PetscReal v[])
{
  PetscFunctionBegin;
  PetscAssert(b >= 0 && b < model->nblocks && i >= 0 && i < model->blocks[b].size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Scalar %" PetscInt_FMT " of block %" PetscInt_FMT " out of range", i, b);
  PetscCall(RwReproSumAddArray(model->gsum, model->blocks[b].offset + i, m, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The exact sums of the type's scalar-gradient terms, reduced once, added to g's scalars */
static PetscErrorCode RwModelReduceScalarGradient(RwModel model, Vec g)
{
  PetscInt     which = model->nfields, nlocal;
  Vec          red;
  PetscScalar *a;

  PetscFunctionBegin;
  if (!model->nscalars) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwReproSumAllreduce(model->gsum, PetscObjectComm((PetscObject)model), model->gtotal));
  PetscCall(DMCompositeGetAccessArray(model->pack, g, 1, &which, &red));
  PetscCall(VecGetLocalSize(red, &nlocal));
  PetscCall(VecGetArray(red, &a));
  for (PetscInt b = 0; b < model->nblocks && nlocal; b++) { /* an inactive block's gradient is zero, whatever the type set */
    const PetscInt o = model->blocks[b].offset;

    for (PetscInt i = 0; i < model->blocks[b].size; i++) a[o + i] = model->inactive[model->nfields + b] ? 0 : a[o + i] + model->gtotal[o + i];
  }
  PetscCall(VecRestoreArray(red, &a));
  PetscCall(DMCompositeRestoreAccessArray(model->pack, g, 1, &which, &red));
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
  PetscCall(VecSet(g, 0));
  PetscUseTypeMethod(model, adjointend, g);
  PetscCall(RwModelReduceScalarGradient(model, g));
  for (PetscInt f = 0; f < model->nfields; f++) {
    Vec v;

    if (!model->inactive[f]) continue;
    PetscCall(RwModelGetParameterField(model, g, f, &v));
    PetscCall(VecSet(v, 0));
    PetscCall(RwModelRestoreParameterField(model, g, f, &v));
  }

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
