/* RwStore: the class interface. Types live in src/store/impls/<type>/. */
#include <rewind/private/storeimpl.h>

PetscFunctionList RwStoreList              = NULL;
PetscBool         RwStoreRegisterAllCalled = PETSC_FALSE;

/*@C
  RwStoreRegister - adds a store type under a name usable with -rw_store_type

  Not collective

  Input Parameters:
+ name   - the type's name
- create - the constructor, which fills store->ops and store->data

  Level: advanced

.seealso: RwStoreRegisterAll(), RwStoreSetType()
@*/
PetscErrorCode RwStoreRegister(const char name[], PetscErrorCode (*create)(RwStore))
{
  PetscFunctionBegin;
  PetscCall(RwInitializePackage());
  PetscCall(PetscFunctionListAdd(&RwStoreList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreRegisterAll - registers the store types built into rewind

  Not collective

  Level: advanced

.seealso: RwStoreRegister()
@*/
PetscErrorCode RwStoreRegisterAll(void)
{
  PetscFunctionBegin;
  if (RwStoreRegisterAllCalled) PetscFunctionReturn(PETSC_SUCCESS);
  RwStoreRegisterAllCalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreCreate - creates a store; choose its type with RwStoreSetType() or -rw_store_type

  Collective

  Input Parameter:
. comm - the communicator of the states it keeps

  Output Parameter:
. store - the new store

  Level: beginner

.seealso: RwStoreSetType(), RwStoreSetFromOptions(), RwStoreDestroy()
@*/
PetscErrorCode RwStoreCreate(MPI_Comm comm, RwStore *store)
{
  RwStore obj;

  PetscFunctionBegin;
  PetscValidPointer(store, 2);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(obj, RW_STORE_CLASSID, "RwStore", "Checkpoint store", "RwStore", comm, RwStoreDestroy, RwStoreView));
  *store = obj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreSetType - chooses where checkpoints are kept

  Collective

  Input Parameters:
+ store - the store
- type  - a registered type name

  Options Database Key:
. -rw_store_type <type> - the store type

  Level: beginner

.seealso: RwStoreGetType(), RwStoreRegister()
@*/
PetscErrorCode RwStoreSetType(RwStore store, RwStoreType type)
{
  PetscErrorCode (*create)(RwStore) = NULL;
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidCharPointer(type, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)store, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreRegisterAll());
  PetscCall(RwTypeFind((PetscObject)store, RwStoreList, "-rw_store_type", type, (void (**)(void)) & create));
  PetscTryTypeMethod(store, destroy);
  PetscCall(PetscMemzero(store->ops, sizeof(struct _RwStoreOps)));
  store->data        = NULL;
  store->setupcalled = PETSC_FALSE;
  PetscCall(PetscObjectChangeTypeName((PetscObject)store, type));
  PetscCall((*create)(store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreGetType - the store's type name

  Not collective

  Level: beginner

.seealso: RwStoreSetType()
@*/
PetscErrorCode RwStoreGetType(RwStore store, RwStoreType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidPointer(type, 2);
  *type = ((PetscObject)store)->type_name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetFromOptions - sets the store's type and the type's options from the options database

  Collective

  Options Database Key:
. -rw_store_type <type> - the store type

  Level: beginner

.seealso: RwStoreSetType()
@*/
PetscErrorCode RwStoreSetFromOptions(RwStore store)
{
  char      type[256];
  PetscBool set;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCall(RwStoreRegisterAll());
  PetscObjectOptionsBegin((PetscObject)store);
  PetscCall(PetscOptionsFList("-rw_store_type", "Store type", "RwStoreSetType", RwStoreList, ((PetscObject)store)->type_name, type, sizeof(type), &set));
  if (set) PetscCall(RwStoreSetType(store, type));
  PetscCheck(((PetscObject)store)->type_name, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONGSTATE, "RwStore has no type: call RwStoreSetType() or give -rw_store_type");
  PetscTryTypeMethod(store, setfromoptions, PetscOptionsObject);
  PetscCall(PetscObjectProcessOptionsHandlers((PetscObject)store, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetUp - allocates the store.s slots or opens its file; called once, later calls do nothing

  Collective

  Level: advanced

.seealso: RwStoreSetFromOptions()
@*/
PetscErrorCode RwStoreSetUp(RwStore store)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  if (store->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(((PetscObject)store)->type_name, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONGSTATE, "RwStore has no type: call RwStoreSetType() or RwStoreSetFromOptions() first");
  PetscTryTypeMethod(store, setup);
  store->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreView - prints the store's configuration

  Collective

  Level: beginner

.seealso: RwStoreCreate()
@*/
PetscErrorCode RwStoreView(RwStore store, PetscViewer viewer)
{
  PetscBool isascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)store), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  if (isascii) {
    PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)store, viewer));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscTryTypeMethod(store, view, viewer);
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreDestroy - frees a store; safe on NULL and on an already destroyed store

  Collective

  Level: beginner

.seealso: RwStoreCreate()
@*/
PetscErrorCode RwStoreDestroy(RwStore *store)
{
  PetscFunctionBegin;
  if (!store || !*store) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*store, RW_STORE_CLASSID, 1);
  if (--((PetscObject)(*store))->refct > 0) {
    *store = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscTryTypeMethod(*store, destroy);
  PetscCall(PetscHeaderDestroy(store));
  PetscFunctionReturn(PETSC_SUCCESS);
}
