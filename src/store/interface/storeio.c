/*
  RwStore: reads, writes and frees of slots, with what they cost (the counts
  each store keeps and the traffic by type that -log_view prints).
*/
#include <rewind/private/storeimpl.h>

/* Checkpoint traffic of the whole run by store type, for -log_view */
#define RW_STORE_MAX_TYPES 8
typedef struct {
  char           type[32];
  PetscInt64     writes, reads, bwrite, bread;
  PetscInt64     cwrites, creads; /* collective calls: counted on the first rank of each store's communicator */
  PetscLogDouble twrite, tread;
} RwStoreTraffic;
static RwStoreTraffic rw_traffic[RW_STORE_MAX_TYPES];

static RwStoreTraffic *RwStoreTrafficOf(RwStore store)
{
  const char *type = ((PetscObject)store)->type_name;

  for (int i = 0; i < RW_STORE_MAX_TYPES; i++) {
    if (!rw_traffic[i].type[0]) PetscStrncpy(rw_traffic[i].type, type, sizeof(rw_traffic[i].type));
    if (!strcmp(rw_traffic[i].type, type)) return &rw_traffic[i];
  }
  return &rw_traffic[RW_STORE_MAX_TYPES - 1];
}

/* Counts one write (or read) of a state that took t seconds, in the store and in the run's totals */
static void RwStoreCount(RwStore store, PetscBool write, PetscLogDouble t)
{
  RwStoreTraffic *traffic = RwStoreTrafficOf(store);
  RwStoreCounts  *c       = &store->counts;
  PetscMPIInt     rank;

  /* stores on different communicators (ensemble groups) each count their own collective calls */
  (void)MPI_Comm_rank(PetscObjectComm((PetscObject)store), &rank);
  if (!rank) {
    if (write) traffic->cwrites++;
    else traffic->creads++;
  }

  if (write) {
    c->writes++;
    c->bytes_written += store->bytes;
    c->seconds_write += t;
    traffic->writes++;
    traffic->bwrite += store->bytes;
    traffic->twrite += t;
  } else {
    c->reads++;
    c->bytes_read += store->bytes;
    c->seconds_read += t;
    traffic->reads++;
    traffic->bread += store->bytes;
    traffic->tread += t;
  }
}

/*
  The store types any rank used, in rank order of first use: the same table
  on every rank, even when ensemble groups used different stores or none
*/
static PetscErrorCode RwStoreTrafficTypes(MPI_Comm comm, char types[RW_STORE_MAX_TYPES][32], int *ntypes)
{
  char        mine[RW_STORE_MAX_TYPES][32], *all;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(mine, sizeof(mine)));
  for (int i = 0; i < RW_STORE_MAX_TYPES; i++) PetscCall(PetscStrncpy(mine[i], rw_traffic[i].type, sizeof(mine[i])));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc1((size_t)size * sizeof(mine), &all));
  PetscCallMPI(MPI_Allgather(mine, (PetscMPIInt)sizeof(mine), MPI_CHAR, all, (PetscMPIInt)sizeof(mine), MPI_CHAR, comm));
  *ntypes = 0;
  for (PetscMPIInt r = 0; r < size; r++) {
    for (int i = 0; i < RW_STORE_MAX_TYPES; i++) {
      const char *t   = all + ((size_t)r * RW_STORE_MAX_TYPES + i) * 32;
      PetscBool   dup = PETSC_FALSE;

      if (!t[0]) break;
      for (int k = 0; k < *ntypes; k++) dup = (PetscBool)(dup || !strcmp(types[k], t));
      if (!dup && *ntypes < RW_STORE_MAX_TYPES) PetscCall(PetscStrncpy(types[(*ntypes)++], t, 32));
    }
  }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwStoreLogView_Private - with -log_view, a table of the checkpoint traffic of
  the run (summed over ranks) beside PETSc's events RwStoreWrite/RwStoreRead,
  whose columns have no room for bytes.  Collective on PETSC_COMM_WORLD (every
  rank reaches PetscFinalize()), whichever stores this rank used, if any.
*/
PetscErrorCode RwStoreLogView_Private(void)
{
  PetscBool  view;
  PetscInt64 n[4], all[4];
  double     t[2], tmax[2];
  char       types[RW_STORE_MAX_TYPES][32];
  int        ntypes = 0;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-log_view", &view));
  if (!view) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreTrafficTypes(PETSC_COMM_WORLD, types, &ntypes));
  if (!ntypes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nrewind checkpoint traffic (bytes summed over ranks; rates from the slowest rank's time in RwStoreWrite/RwStoreRead):\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-8s %10s %12s %10s %10s %12s %10s\n", "store", "writes", "MB written", "MB/s", "reads", "MB read", "MB/s"));
  for (int k = 0; k < ntypes; k++) {
    static const RwStoreTraffic none;
    const RwStoreTraffic       *r = &none;

    for (int i = 0; i < RW_STORE_MAX_TYPES; i++)
      if (!strcmp(rw_traffic[i].type, types[k])) r = &rw_traffic[i];
    /* each write is one collective call of its store's communicator */
    n[0] = r->cwrites, n[1] = r->bwrite, n[2] = r->creads, n[3] = r->bread;
    t[0] = r->twrite, t[1] = r->tread;
    PetscCallMPI(MPI_Allreduce(n, all, 4, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-8s %10" PetscInt64_FMT " %12.4g %10.4g %10" PetscInt64_FMT " %12.4g %10.4g\n", types[k], all[0], all[1] / 1e6, tmax[0] > 0 ? all[1] / 1e6 / tmax[0] : 0.0, all[2], all[3] / 1e6, tmax[1] > 0 ? all[3] / 1e6 / tmax[1] : 0.0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscBool         RwStoreRegisterAllCalled = PETSC_FALSE;

#define RwStoreCheckSlot(store, slot) \
  PetscCheck((slot) >= 0 && (slot) < (store)->slots, PetscObjectComm((PetscObject)(store)), PETSC_ERR_ARG_OUTOFRANGE, "Checkpoint slot %" PetscInt64_FMT " out of range [0, %" PetscInt64_FMT ") of the %s store", (PetscInt64)(slot), (store)->slots, ((PetscObject)(store))->type_name)

/* A read of step k from a slot: the store is set up and the slot holds step k */
static PetscErrorCode RwStoreCheckReadable(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  RwStoreCheckSlot(store, slot);
  PetscCheck(store->step[slot] >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONGSTATE, "Checkpoint slot %" PetscInt64_FMT " of the %s store holds no valid state, not step %" PetscInt64_FMT, slot, ((PetscObject)store)->type_name, k);
  PetscCheck(store->step[slot] == k, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONGSTATE, "Checkpoint slot %" PetscInt64_FMT " of the %s store holds step %" PetscInt64_FMT ", not step %" PetscInt64_FMT, slot, ((PetscObject)store)->type_name, store->step[slot], k);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetAttachmentSize - how many integers every checkpoint keeps beside its state

  Logically collective; before RwStoreSetUp()

  Level: developer

  Notes:
  The driver keeps there the exact partial sum of the objective up to the
  checkpoint's step, so that a run resumed from a checkpoint obtains J bit for bit.

.seealso: RwStoreSetAttachment(), RwStoreGetAttachment()
@*/
PetscErrorCode RwStoreSetAttachmentSize(RwStore store, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the attachment size before RwStoreSetUp()");
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "Attachment size %" PetscInt_FMT " must be >= 0", n);
  store->nattach = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetAttachment - the integers the next RwStoreWrite() keeps with its state;
  the same on every rank

  Not collective

  Level: developer

.seealso: RwStoreSetAttachmentSize(), RwStoreGetAttachment()
@*/
PetscErrorCode RwStoreSetAttachment(RwStore store, const PetscInt64 data[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  PetscCall(PetscArraycpy(store->attach, data, store->nattach));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetAttachment - the integers kept with the checkpoint of a slot

  Collective

  Level: developer

.seealso: RwStoreSetAttachment()
@*/
PetscErrorCode RwStoreGetAttachment(RwStore store, PetscInt64 slot, PetscInt64 data[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  RwStoreCheckSlot(store, slot);
  if (store->ops->getattachment) PetscUseTypeMethod(store, getattachment, slot, data);
  else PetscCall(PetscArraycpy(data, store->slotattach + slot * store->nattach, store->nattach));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A read, timed and counted: a copy into *u, or, with swap and a store that
   can, an exchange of *u for a vector of the store's holding x_k */
static PetscErrorCode RwStoreReadCounted(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u, PetscBool swap)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(RwStoreCheckReadable(store, slot, k));
  PetscCall(PetscLogEventBegin(RW_StoreRead, store, *u, 0, 0));
  PetscCall(PetscTime(&t0));
  if (swap) PetscUseTypeMethod(store, readswap, slot, k, u);
  else PetscUseTypeMethod(store, read, slot, k, *u);
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventEnd(RW_StoreRead, store, *u, 0, 0));
  RwStoreCount(store, PETSC_FALSE, t1 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The store and the caller's vector handle of a read that may exchange vectors */
static PetscErrorCode RwStoreCheckReadArgs(RwStore store, Vec *u)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidPointer(u, 4);
  PetscValidHeaderSpecific(*u, VEC_CLASSID, 4);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A vector the caller hands to the store for keeps has the template's local size */
static PetscErrorCode RwStoreCheckLike(RwStore store, Vec u, const char fn[])
{
  PetscInt n, m;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetLocalSize(store->templ, &m));
  PetscCheck(n == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s(): the vector has %" PetscInt_FMT " local values, the store's states %" PetscInt_FMT, fn, n, m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write of u into a slot, by the type's take (spare non-NULL and the type
   has one: the slot keeps u itself and *spare gets its old vector) or by its
   copying write; the slot is valid only once the state and attachment are in */
static PetscErrorCode RwStoreWriteSlot(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, Vec *spare)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidHeaderSpecific(u, VEC_CLASSID, 4);
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  RwStoreCheckSlot(store, slot);
  PetscCall(PetscLogEventBegin(RW_StoreWrite, store, u, 0, 0));
  PetscCall(PetscTime(&t0));
  store->step[slot] = -1; /* not valid until written */
  store->missed     = PETSC_FALSE;
  if (spare && store->ops->take) {
    PetscCall(RwStoreCheckLike(store, u, "RwStoreWriteTake"));
    PetscUseTypeMethod(store, take, slot, k, u, spare);
    store->counts.takes++;
  } else PetscUseTypeMethod(store, write, slot, k, u);
  if (!store->missed) { /* a pool too full for the state leaves the slot free */
    PetscCall(PetscArraycpy(store->slotattach + slot * store->nattach, store->attach, store->nattach));
    store->step[slot] = k;
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventEnd(RW_StoreWrite, store, u, 0, 0));
  RwStoreCount(store, PETSC_TRUE, t1 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write that had to keep its state: a pool too full for it is an error naming the sizes */
static PetscErrorCode RwStoreCheckKept(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscCheck(!store->missed, PetscObjectComm((PetscObject)store), PETSC_ERR_MEM, "Checkpoint of step %" PetscInt64_FMT " into slot %" PetscInt64_FMT ": the compressed state does not fit in the store's pool of %" PetscInt64_FMT " bytes per rank beside the states it holds (the largest state compressed to %" PetscInt64_FMT " bytes); plan fewer slots or give a larger -rw_checkpoint_ram", k, slot, store->pool, store->counts.kept_max);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreTryWrite - keeps state u, which is x_k, in a slot if it fits: a store
  with a byte pool (RwStoreSetPool()) keeps each compressed state at its real
  length, and a state may find no room left; the slot then stays free

  Collective: every rank gets the same answer

  Input Parameters:
+ store - the store
. slot  - 0 <= slot < slots; any state it held is replaced (freed first)
. k     - the step of u
- u     - the state

  Output Parameter:
. kept - PETSC_FALSE when the state did not fit (on some rank); a store without a pool always keeps it

  Level: advanced

.seealso: RwStoreSetPool(), RwStoreWrite()
@*/
PetscErrorCode RwStoreTryWrite(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, PetscBool *kept)
{
  PetscFunctionBegin;
  PetscValidPointer(kept, 5);
  PetscCall(RwStoreWriteSlot(store, slot, k, u, NULL));
  *kept = (PetscBool)!store->missed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetPool - keeps compressed states at their real length in one block
  of bytes per rank, allocated at set-up, instead of in fixed slots of the
  uncompressed size: a byte budget then holds as many states as compress into it

  Logically collective; before RwStoreSetUp()

  Input Parameters:
+ store - the store, a memory store with -rw_store_compress lossless or zfp
- bytes - the pool's bytes on each rank; 0: fixed slots (the default)

  Notes:
  The slots stay the schedule's numbering, at most RwStoreSetSlots() of them
  held at once; a state is placed at the first free range that holds it.  A
  write with no such range on some rank keeps nothing (RwStoreTryWrite() says
  so; RwStoreWrite() stops with an error): the driver then re-plans with the
  sizes it measured.  The driver gives its RAM budget (-rw_checkpoint_ram) here.

  Level: advanced

.seealso: RwStoreTryWrite(), RwStoreSetCompress(), RwScheduleSetBudget()
@*/
PetscErrorCode RwStoreSetPool(RwStore store, PetscInt64 bytes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the pool before RwStoreSetUp()");
  PetscCheck(bytes >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "Pool of %" PetscInt64_FMT " bytes; expected bytes >= 0", bytes);
  store->pool = bytes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetPool - the pool's bytes per rank (0: fixed slots, or a store that keeps no pool)

  Not collective

  Level: advanced

.seealso: RwStoreSetPool()
@*/
PetscErrorCode RwStoreGetPool(RwStore store, PetscInt64 *bytes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *bytes = store->setupcalled ? store->pool : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreWrite - keeps state u, which is x_k, in a slot

  Collective

  Input Parameters:
+ store - the store
. slot  - 0 <= slot < slots; any state it held is replaced
. k     - the step of u
- u     - the state

  Level: intermediate

.seealso: RwStoreRead(), RwStoreFree(), RwStoreWriteTake()
@*/
PetscErrorCode RwStoreWrite(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreWriteSlot(store, slot, k, u, NULL));
  PetscCall(RwStoreCheckKept(store, slot, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreWriteTake - keeps state u, which is x_k, in a slot without copying it
  where the store can: the slot keeps the vector u itself

  Collective

  Input Parameters:
+ store - the store
. slot  - 0 <= slot < slots; any state it held is replaced
. k     - the step of u
- u     - the state, like the store's template

  Output Parameter:
. spare - for the memory store and the asynchronous hdf5 store, a vector of the
          store's (the slot's old one; the hdf5 store's vector of the write before,
          or a spare of its own), with the template's layout and undefined values,
          that the caller owns from now on in place of u; NULL for other stores,
          which copy u as RwStoreWrite() does and leave it the caller's

  Level: intermediate

  Notes:
  When spare is not NULL, u belongs to the slot: the caller may go on reading it
  (the next step's input), but must never write into it, nor hand it to the
  store again, nor destroy it; it drops its handle when it no longer reads it.
  The state kept is bitwise u, as with RwStoreWrite(); RwStoreGetCounts()
  counts the copies avoided as takes.

.seealso: RwStoreWrite(), RwStoreReadAndFree()
@*/
PetscErrorCode RwStoreWriteTake(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, Vec *spare)
{
  PetscFunctionBegin;
  PetscValidPointer(spare, 5);
  *spare = NULL;
  PetscCall(RwStoreWriteSlot(store, slot, k, u, spare));
  PetscCall(RwStoreCheckKept(store, slot, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreRead - copies the state x_k kept in a slot into u

  Collective

  Input Parameters:
+ store - the store
. slot  - the slot
- k     - the step the slot must hold; anything else is an error

  Output Parameter:
. u - the state

  Level: intermediate

.seealso: RwStoreWrite()
@*/
PetscErrorCode RwStoreRead(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCall(RwStoreReadCounted(store, slot, k, &u, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreReadAndFree - gives the state x_k kept in a slot to the caller and frees the slot

  Collective

  Input Parameters:
+ store - the store
. slot  - the slot
. k     - the step the slot must hold; anything else is an error
- u     - the caller's vector, like the store's template

  Output Parameter:
. u - a vector holding x_k: for the memory store, the slot's own vector, the
      caller's taking its place in the slot (no copy); for other stores, as
      RwStoreReadSwap() gives it

  Level: intermediate

  Notes:
  For a caller that frees the slot right after reading it (a schedule's last
  RESTORE of a slot before its FREE); the results are bitwise those of
  RwStoreRead().  RwStoreGetCounts() counts the copies avoided as swaps.

.seealso: RwStoreRead(), RwStoreFree()
@*/
PetscErrorCode RwStoreReadAndFree(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreCheckReadArgs(store, u));
  if (!store->ops->swap) {
    PetscCall(RwStoreReadSwap(store, slot, k, u));
    PetscCall(RwStoreFree(store, slot));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwStoreCheckLike(store, *u, "RwStoreReadAndFree"));
  PetscCall(RwStoreCheckReadable(store, slot, k));
  PetscUseTypeMethod(store, swap, slot, u);
  store->step[slot] = -1;
  store->counts.swaps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreReadSwap - gives the state x_k kept in a slot to the caller, by
  exchanging vectors where the store can; the slot keeps its state

  Collective

  Input Parameters:
+ store      - the store
. slot, k    - as for RwStoreRead()
- u          - the caller's vector, like the store's template

  Output Parameter:
. u - a vector holding x_k: for the hdf5 store with a prefetch of the slot
      (-rw_store_hdf5_prefetch), the store's read buffer, the caller's vector
      becoming the store's next one (no copy); otherwise the caller's vector, read into

  Level: intermediate

  Notes:
  The results are bitwise those of RwStoreRead(); the vector given back has
  the template's layout.  RwStoreGetCounts() counts the copies avoided as swaps.

.seealso: RwStoreRead(), RwStoreReadAndFree()
@*/
PetscErrorCode RwStoreReadSwap(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreCheckReadArgs(store, u));
  if (store->ops->readswap) PetscCall(RwStoreCheckLike(store, *u, "RwStoreReadSwap"));
  PetscCall(RwStoreReadCounted(store, slot, k, u, (PetscBool)(store->ops->readswap != NULL)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreFree - releases a slot

  Collective

  Level: intermediate

.seealso: RwStoreWrite()
@*/
PetscErrorCode RwStoreFree(RwStore store, PetscInt64 slot)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  RwStoreCheckSlot(store, slot);
  PetscTryTypeMethod(store, free, slot);
  store->step[slot] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSync - waits for the writes in flight and makes every write so far
  durable: a crash after it returns keeps them all valid

  Collective

  Level: advanced

  Notes:
  The hdf5 store commits a write's valid mark with the flush of its next
  write (one fsync per write, doc/notes/checkpoints-internals.md); the driver syncs where a
  group of writes must survive together, such as a keep of the reverse sweep.

.seealso: RwStoreWrite()
@*/
PetscErrorCode RwStoreSync(RwStore store)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  PetscCall(PetscTime(&t0));
  PetscTryTypeMethod(store, sync);
  PetscCall(PetscTime(&t1));
  store->counts.seconds_write += t1 - t0; /* it finishes writes: their waits (seconds_wait) are part of seconds_write */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStorePrefetch - tells the store that the next read of a slot will ask for
  step k, so that it can start reading it now

  Logically collective (every rank makes the same calls; no communication)

  Input Parameters:
+ store - the store
. slot  - the slot, which holds step k (its last write)
- k     - the step

  Level: advanced

  Notes:
  A hint: the results are the same with or without it.  The hdf5 store reads
  the slot in a background thread (-rw_store_hdf5_prefetch) and the read then
  waits for it; a write of the slot before the read makes the prefetch stale,
  and the read goes to the file.  The driver calls it for the schedule's next
  RESTORE of a level once no STORE to that slot comes before it.  Other stores,
  or a slot that does not hold step k, ignore it.

.seealso: RwStoreRead(), RwStoreGetCounts()
@*/
PetscErrorCode RwStorePrefetch(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetUp() first");
  RwStoreCheckSlot(store, slot);
  if (store->step[slot] != k) PetscFunctionReturn(PETSC_SUCCESS);
  PetscTryTypeMethod(store, prefetch, slot, k);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreCanPrefetch - whether the store's type can act on RwStorePrefetch()
  hints: the driver looks ahead in the schedule for the next read only then

  Not collective

  Input Parameter:
. store - the store, of a type

  Output Parameter:
. can - PETSC_TRUE for the hdf5 store (which may still have its prefetch
        turned off, -rw_store_hdf5_prefetch 0), PETSC_FALSE for the memory store

  Level: advanced

.seealso: RwStorePrefetch()
@*/
PetscErrorCode RwStoreCanPrefetch(RwStore store, PetscBool *can)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscValidBoolPointer(can, 2);
  RwStoreCheckTyped(store);
  *can = store->ops->prefetch ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetCounts - writes and reads, their bytes and seconds (this rank's) since the last reset

  Not collective

  Output Parameter:
. counts - the counts

  Level: intermediate

.seealso: RwStoreResetCounts()
@*/
PetscErrorCode RwStoreGetCounts(RwStore store, RwStoreCounts *counts)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *counts = store->counts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreResetCounts - zeroes the counters

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwStoreResetCounts(RwStore store)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCall(PetscMemzero(&store->counts, sizeof(store->counts)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
