/* RwStore: the class interface. Types live in src/store/impls/<type>/. */
#include <rewind/private/storeimpl.h>

PetscFunctionList RwStoreList              = NULL;

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
  PetscCall(RwStoreRegister(RWSTOREMEMORY, RwStoreCreate_Memory));
  PetscCall(RwStoreRegister(RWSTOREHDF5, RwStoreCreate_HDF5));
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
  obj->codec.tol = 1e-6; /* zfp's default relative error bound */
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
  PetscFunctionBegin;
  PetscCall(RwStoreSetTypeFromOption(store, type, "-rw_store_type"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwStoreSetTypeFromOption - RwStoreSetType() for a type that an option other
  than -rw_store_type chose (the driver's -rw_store_disk_type): an unknown
  name is reported under the option the user gave
*/
PetscErrorCode RwStoreSetTypeFromOption(RwStore store, RwStoreType type, const char option[])
{
  PetscErrorCode (*create)(RwStore) = NULL;
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidCharPointer(type, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)store, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreRegisterAll());
  PetscCall(RwTypeFind((PetscObject)store, RwStoreList, option, type, (void (**)(void)) & create));
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

/*@C
  RwStoreSetOptionsPrefix - the prefix of every option of the store

  Logically collective; before RwStoreSetFromOptions()

  Level: intermediate

.seealso: RwStoreAppendOptionsPrefix(), RwStoreGetOptionsPrefix()
@*/
PetscErrorCode RwStoreSetOptionsPrefix(RwStore obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_STORE_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreAppendOptionsPrefix - appends to the store's options prefix

  Logically collective; before RwStoreSetFromOptions()

  Level: intermediate

.seealso: RwStoreSetOptionsPrefix()
@*/
PetscErrorCode RwStoreAppendOptionsPrefix(RwStore obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_STORE_CLASSID, 1);
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreGetOptionsPrefix - the store's options prefix (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwStoreGetOptionsPrefix(RwStore obj, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_STORE_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)obj, prefix));
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
  PetscCall(RwOptionsHelpOnce(PetscOptionsObject)); /* a rank's own store prints its help once, not from every rank */
  PetscCall(PetscOptionsFList("-rw_store_type", "Store type", "RwStoreSetType", RwStoreList, ((PetscObject)store)->type_name, type, sizeof(type), &set));
  if (set) PetscCall(RwStoreSetType(store, type));
  PetscCheck(((PetscObject)store)->type_name, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONGSTATE, "RwStore has no type: call RwStoreSetType() or give -rw_store_type");
  PetscCall(RwCodecSetFromOptions(store, PetscOptionsObject));
  PetscTryTypeMethod(store, setfromoptions, PetscOptionsObject);
  PetscCall(PetscObjectProcessOptionsHandlers((PetscObject)store, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The type's ops are filled in by RwStoreSetType(): before it the store can neither work nor answer for its type */

/*@
  RwStoreSetUp - allocates the store's slots or opens its file; called once, later calls do nothing

  Collective

  Level: advanced

.seealso: RwStoreSetFromOptions()
@*/
PetscErrorCode RwStoreSetUp(RwStore store)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  if (store->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  RwStoreCheckTyped(store);
  PetscCheck(store->templ, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetTemplate() before RwStoreSetUp()");
  PetscCall(PetscLogEventBegin(RW_StoreSetUp, store, 0, 0, 0));
  PetscCall(PetscMalloc1(store->slots, &store->step));
  PetscCall(PetscCalloc2(store->nattach, &store->attach, store->slots * store->nattach, &store->slotattach));
  for (PetscInt64 i = 0; i < store->slots; i++) store->step[i] = -1;
  PetscTryTypeMethod(store, setup);
  PetscCall(PetscLogEventEnd(RW_StoreSetUp, store, 0, 0, 0));
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
  PetscCall(RwCodecDestroy(&(*store)->codec));
  PetscCall(PetscFree((*store)->step));
  PetscCall(PetscFree2((*store)->attach, (*store)->slotattach));
  PetscCall(PetscFree((*store)->modeltype));
  PetscCall(PetscFree((*store)->identity));
  PetscCall(PetscFree((*store)->solve));
  PetscCall(VecDestroy(&(*store)->templ));
  PetscCall(PetscHeaderDestroy(store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- slots, and the checks every store type shares ------------------------ */

/*@
  RwStoreSetSlots - how many states the store can hold at once

  Logically collective

  Level: intermediate

.seealso: RwStoreSetTemplate(), RwStoreWrite()
@*/
PetscErrorCode RwStoreSetSlots(RwStore store, PetscInt64 slots)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(slots >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "Number of store slots %" PetscInt64_FMT " must be >= 0", slots);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the slots before RwStoreSetUp()");
  store->slots = slots;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const RwStoreStateLayouts[] = {"interleaved", "planes", "RwStoreStateLayout", "RW_STORE_STATE_", NULL};

/*@
  RwStoreSetStateLayout - how the states' arrays hold their components: what
  the codec (compressed slots) walks as fields, the hdf5 store's datasets'
  shape, and the layout its files record

  Logically collective; before RwStoreSetUp()

  Input Parameters:
+ store  - the store
- layout - RW_STORE_STATE_INTERLEAVED (the default) or RW_STORE_STATE_PLANES

  Notes:
  The driver sets its stores to its model's layout (RwModelGetStateLayout()).
  An hdf5 file records it in its root attribute "state_layout" (a file
  without one is interleaved) and a file of another layout is refused.
  A state of one component is the same in both layouts.

  Level: intermediate

.seealso: RwStoreGetStateLayout(), RwModelGetStateLayout()
@*/
PetscErrorCode RwStoreSetStateLayout(RwStore store, RwStoreStateLayout layout)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the store's state layout before RwStoreSetUp()");
  PetscCheck(layout == RW_STORE_STATE_INTERLEAVED || layout == RW_STORE_STATE_PLANES, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "Unknown state layout %d: expected interleaved or planes", (int)layout);
  store->statelayout = layout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetStateLayout - how the states' arrays hold their components (RwStoreSetStateLayout())

  Not collective

  Level: intermediate

.seealso: RwStoreSetStateLayout()
@*/
PetscErrorCode RwStoreGetStateLayout(RwStore store, RwStoreStateLayout *layout)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *layout = store->statelayout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetStateShift - whether component 1 of the state of step k + 1 is,
  bit for bit, component 0 of the state of step k (RwModelGetStateShift()):
  with states in planes (RwStoreSetStateLayout()) of two components, an
  uncompressed memory store then keeps a state whose step before it holds
  as its first plane only, and reads the second from that slot: store-all
  and the runs of consecutive steps other schedules keep take about half the
  bytes

  Logically collective; before RwStoreSetUp()

  Notes:
  Each write checks the relation (its second plane against the held
  state's first, bitwise) and keeps the whole state where it does not hold.
  A slot freed or rewritten while the next step's state reads its plane
  copies that plane into it first (RwStoreCounts' promoted; a reverse sweep
  frees k + 1 before k, so store-all and revolve copy none).  Writes and
  reads copy then: the memory store no longer exchanges vectors
  (RwStoreWriteTake(), RwStoreReadAndFree()).  Other stores and codecs keep
  whole states.

  Level: advanced

.seealso: RwStoreSetStateLayout(), RwModelGetStateShift(), RwStoreGetCounts()
@*/
PetscErrorCode RwStoreSetStateShift(RwStore store, PetscBool shift)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the store's state shift before RwStoreSetUp()");
  store->stateshift = shift;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetStateShift - whether the store was told consecutive states share a plane (RwStoreSetStateShift())

  Not collective

  Level: advanced

.seealso: RwStoreSetStateShift()
@*/
PetscErrorCode RwStoreGetStateShift(RwStore store, PetscBool *shift)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *shift = store->stateshift;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's share of a decomposition-independent checksum of a state on
   grid M (block start, count, dof components), in the store's layout: the
   values are hashed at their index in the natural order of the hdf5
   dataset, ((z M_y + y) M_x + x) dof + c interleaved, ((c M_z + z) M_y +
   y) M_x + x in planes (component c's plane as dof M_z z-planes of the grid) */
uint64_t RwStoreChecksumBlock_Private(RwStore store, const PetscInt M[3], const PetscInt start[3], const PetscInt count[3], PetscInt dof, const PetscScalar a[])
{
  PetscInt Mp[3] = {M[0], M[1], M[2] * dof}, sp[3] = {start[0], start[1], start[2]};
  size_t   np    = (size_t)count[0] * (size_t)count[1] * (size_t)count[2];
  uint64_t sum   = 0;

  if (store->statelayout != RW_STORE_STATE_PLANES || dof == 1) return RwChecksumBlock(M, start, count, dof, a);
  for (PetscInt c = 0; c < dof; c++) {
    sp[2] = c * M[2] + start[2];
    sum += RwChecksumBlock(Mp, sp, count, 1, a + c * np);
  }
  return sum;
}

/*@
  RwStoreGetSlots - the store's capacity in states

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwStoreGetSlots(RwStore store, PetscInt64 *slots)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *slots = store->slots;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetTemplate - a vector with the layout of the states to keep

  Collective

  Level: intermediate
@*/
PetscErrorCode RwStoreSetTemplate(RwStore store, Vec templ)
{
  PetscInt n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidHeaderSpecific(templ, VEC_CLASSID, 2);
  PetscCall(PetscObjectReference((PetscObject)templ));
  PetscCall(VecDestroy(&store->templ));
  store->templ = templ;
  PetscCall(VecGetLocalSize(templ, &n));
  store->bytes = (PetscInt64)n * (PetscInt64)sizeof(PetscScalar);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreSetInfo - what the kept states are, recorded with each checkpoint by
  stores that keep them in files

  Logically collective

  Input Parameters:
+ store     - the store
. modeltype - the model's type name (e.g. "heat")
- dt        - the time step: the state of step k is at time k dt

  Level: intermediate

.seealso: RwStoreSetIdentity(), RWSTOREHDF5
@*/
PetscErrorCode RwStoreSetInfo(RwStore store, const char modeltype[], PetscReal dt)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetInfo() before RwStoreSetUp()");
  PetscCall(PetscFree(store->modeltype));
  PetscCall(PetscStrallocpy(modeltype, &store->modeltype));
  store->dt = dt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreSetIdentity - a string naming the problem whose states are kept (model,
  grid, steps, schedule, parameters' checksum), built by the driver

  Logically collective

  Input Parameters:
+ store    - the store
- identity - the string; the same on every rank

  Level: intermediate

  Notes:
  A store keeping its states in a file records the identity in it; a restart
  (RwStoreSetRestart()) refuses a file whose identity differs, so that a run
  never resumes from another problem's checkpoints.

.seealso: RwStoreSetRestart(), RwStoreSetInfo()
@*/
PetscErrorCode RwStoreSetIdentity(RwStore store, const char identity[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetIdentity() before RwStoreSetUp()");
  PetscCall(PetscFree(store->identity));
  PetscCall(PetscStrallocpy(identity, &store->identity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetSolve - which solve of the problem the next states belong to: in an
  optimisation loop each solve (parameters, initial state, data) has its own

  Collective

  Input Parameters:
+ store - the store
- solve - the solve's identity, "name value" items separated by "; "; the same on every rank

  Level: developer

  Notes:
  Before RwStoreSetUp() it says which solve a restart must find in a kept
  file; after, it starts a new solve: a store that keeps a file forgets every
  slot and records the new identity before anything of the solve is written.
  A restart resumes a file only if it holds this very solve; a file that holds
  another solve is started over when that solve completed (RwStoreSetComplete())
  or left nothing valid, and refused otherwise, with the items that differ.

.seealso: RwStoreSetIdentity(), RwStoreSetComplete(), RwStoreSetRestart()
@*/
PetscErrorCode RwStoreSetSolve(RwStore store, const char solve[])
{
  PetscBool same;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCall(PetscStrcmp(store->solve, solve, &same));
  if (store->setupcalled && same) PetscFunctionReturn(PETSC_SUCCESS); /* the solve a restart resumes */
  PetscCall(PetscFree(store->solve));
  PetscCall(PetscStrallocpy(solve, &store->solve));
  if (!store->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt64 i = 0; i < store->slots; i++) store->step[i] = -1;
  PetscTryTypeMethod(store, setsolve);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetComplete - the solve the store's states belong to has finished

  Collective

  Level: developer

.seealso: RwStoreSetSolve()
@*/
PetscErrorCode RwStoreSetComplete(RwStore store)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  PetscTryTypeMethod(store, setcomplete);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetRestart - whether set-up reopens what a previous run of the same
  problem kept, instead of starting empty

  Logically collective

  Input Parameters:
+ store   - the store
- restart - PETSC_TRUE to reopen

  Level: intermediate

  Notes:
  After RwStoreSetUp(), RwStoreGetValidSteps() tells which states survived.
  Stores without persistent storage (memory) simply hold nothing after a restart.

.seealso: RwStoreGetValidSteps(), RwStoreSetIdentity()
@*/
PetscErrorCode RwStoreSetRestart(RwStore store, PetscBool restart)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidLogicalCollectiveBool(store, restart, 2);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetRestart() before RwStoreSetUp()");
  store->restart = restart;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetValidSteps - for each slot, the step whose state it validly holds (-1 for none)

  Collective

  Input Parameter:
. store - the store, set up

  Output Parameter:
. steps - array of length the number of slots

  Level: intermediate

  Notes:
  A store with persistent storage answers from it (for the hdf5 store, the
  valid marks and steps recorded in the file), so after a restart the slots it
  reports can be read with RwStoreRead(); the store's step table is updated to
  match.  Other stores report their step table.

.seealso: RwStoreSetRestart(), RwStoreRead()
@*/
PetscErrorCode RwStoreGetValidSteps(RwStore store, PetscInt64 steps[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  if (store->slots) PetscValidPointer(steps, 2);
  if (store->ops->validsteps) PetscUseTypeMethod(store, validsteps, steps);
  else
    for (PetscInt64 i = 0; i < store->slots; i++) steps[i] = store->step[i];
  for (PetscInt64 i = 0; i < store->slots; i++) store->step[i] = steps[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreIsPersistent - whether the store keeps what it holds beyond the
  process: a later run that calls RwStoreSetRestart() finds its checkpoints
  with RwStoreGetValidSteps() and reads them

  Not collective

  Input Parameter:
. store - the store, of a type

  Output Parameter:
. persistent - PETSC_TRUE for the hdf5 store, PETSC_FALSE for the memory store

  Level: intermediate

  Notes:
  The driver keeps the objective's partial sum with each checkpoint of its
  first forward sweep only in such a store: a killed run resumes from there
  (-rw_restart), and a checkpoint in RAM is lost with it.

.seealso: RwStoreSetRestart(), RwStoreGetValidSteps(), RwStoreSetAttachment()
@*/
PetscErrorCode RwStoreIsPersistent(RwStore store, PetscBool *persistent)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidBoolPointer(persistent, 2);
  RwStoreCheckTyped(store);
  *persistent = store->ops->validsteps ? PETSC_TRUE : PETSC_FALSE; /* a type answers from its own storage only when it outlives the process */
  PetscFunctionReturn(PETSC_SUCCESS);
}
