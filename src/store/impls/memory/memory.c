/* The memory store: RAM slots, allocated (and zeroed) once at set-up; writes
   and reads are copies, but a write that gives the slot the caller's vector
   (RwStoreWriteTake()) and a read that frees its slot (RwStoreReadAndFree())
   exchange the caller's vector with the slot's instead. */
#include <rewind/private/storeimpl.h>

typedef struct {
  Vec *slot;
} RwStore_Memory;

static PetscErrorCode RwStoreSetUp_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  /* PETSc zeroes a new vector's array, so every slot is first touched here,
     once, and no sweep pays its page faults (perf: they fall in VecDuplicateVecs) */
  if (store->slots) PetscCall(VecDuplicateVecs(store->templ, (PetscInt)store->slots, &mem->slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreWrite_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  PetscCall(VecCopy(u, mem->slot[slot]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slot keeps the caller's vector and hands its own back, free: the state
   moves without a copy */
static PetscErrorCode RwStoreTake_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, Vec *spare)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  (void)k;
  *spare          = mem->slot[slot];
  mem->slot[slot] = u;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreRead_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  PetscCall(VecCopy(mem->slot[slot], u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slot's vector goes to the caller and the caller's takes its place: the
   state moves without a copy, and the slot, about to be freed, holds junk */
static PetscErrorCode RwStoreSwap_Memory(RwStore store, PetscInt64 slot, Vec *u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;
  Vec             t   = mem->slot[slot];

  PetscFunctionBegin;
  mem->slot[slot] = *u;
  *u              = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreView_Memory(RwStore store, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " RAM slots of %" PetscInt64_FMT " bytes on this rank\n", store->slots, store->bytes));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " writes (%" PetscInt64_FMT " by taking the caller's vector), %" PetscInt64_FMT " reads by copy, %" PetscInt64_FMT " by exchanging vectors (copies avoided)\n", store->counts.writes, store->counts.takes, store->counts.reads, store->counts.swaps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreDestroy_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  if (mem->slot) PetscCall(VecDestroyVecs((PetscInt)store->slots, &mem->slot));
  PetscCall(PetscFree(store->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSTOREMEMORY - "memory": checkpoints in RAM, one preallocated vector per slot

  Level: beginner

.seealso: RwStoreCreate(), RWSTOREHDF5
M*/
PetscErrorCode RwStoreCreate_Memory(RwStore store)
{
  RwStore_Memory *mem;

  PetscFunctionBegin;
  PetscCall(PetscNew(&mem));
  store->data         = mem;
  store->ops->setup   = RwStoreSetUp_Memory;
  store->ops->write   = RwStoreWrite_Memory;
  store->ops->read    = RwStoreRead_Memory;
  store->ops->swap    = RwStoreSwap_Memory;
  store->ops->take    = RwStoreTake_Memory;
  store->ops->view    = RwStoreView_Memory;
  store->ops->destroy = RwStoreDestroy_Memory;
  PetscFunctionReturn(PETSC_SUCCESS);
}
