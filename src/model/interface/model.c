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
  PetscTryTypeMethod(model, setup);
  model->setupcalled = PETSC_TRUE;
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
  PetscCall(PetscHeaderDestroy(model));
  PetscFunctionReturn(PETSC_SUCCESS);
}
