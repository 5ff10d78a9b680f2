/* The memory store: RAM slots, allocated once at set-up (touched when first used); writes
   and reads are copies, but a write that gives the slot the caller's vector
   (RwStoreWriteTake()) and a read that frees its slot (RwStoreReadAndFree())
   exchange the caller's vector with the slot's instead.

   The slots' arrays lie in one block aligned to 2 MiB and marked for
   transparent huge pages where the system has them: a sweep that writes or
   reads a new state every step otherwise takes a TLB miss every 4 KiB of it
   (the hardware prefetchers stop at those page edges too): writing 200
   states of 1 MiB in turn took 1.02-1.29x the time of writing two
   alternately with small pages, 1.00-1.08x with huge ones (doc/notes/benchmarks-log.md,
   "Huge-page slots").  Each slot starts 13 cache lines further into its page
   than the one before, so the states a reverse step reads together do not
   share cache sets (src/sys/vecstagger.c).

   With -rw_store_compress a slot is a fixed number of bytes instead of a
   vector: the state's size plus the codec's header, in one block allocated
   at set-up, so the time loop allocates nothing.  A write encodes the
   caller's state into it and a read decodes it after checking its checksum
   (src/store/compress/compress.c); states move by copy, never by exchange.

   With a pool (RwStoreSetPool(): the driver's RAM budget) compressed states
   are kept at their real length in one block of that many bytes, so a
   budget holds as many states as compress into it.  A state goes to the
   first free range that holds it (first fit over the held states in the
   order of their offsets: revolve frees its newest checkpoints first, so
   the free space gathers at the end); it is encoded straight into the range
   when one holds the codec's worst case, else into a staging buffer and
   copied.  A state with no range on some rank is not kept (store->missed,
   agreed over the ranks): the driver re-plans (src/adjoint/pool.c).

   With shared planes (RwStoreSetStateShift(): states of two components in
   planes, the second of step k + 1 the first of step k) a state whose step
   before is held keeps its first plane only, in its slot's part of the first planes' block
   (its second is never touched, so a store-all sweep takes about half the
   memory); a read takes the second plane from the slot of the step
   before.  Only after the write has checked that relation bitwise: a state
   for which it does not hold is kept whole.  A slot about to be freed or
   rewritten first copies its plane into the states that read it.  The
   first planes lie in one block, the second planes in another, so that
   untouched halves cost no memory even with huge pages. */
#include <rewind/private/storeimpl.h>
#include <petscdmda.h>
#include <sys/mman.h>
#include <string.h>

#define RW_STORE_MEMORY_ALIGN ((size_t)2 << 20) /* a huge page on x86-64 and arm64 */

typedef struct {
  Vec           *slot;
  char          *bytes; /* compressed slots: codec.cap bytes each, or the pool */
  RwCodecRecord *rec;   /* what each compressed slot holds */
  size_t        *off;   /* pool: where each held slot's bytes start */
  PetscInt64    *ord;   /* pool: the held slots in the order of their offsets */
  PetscInt64     nord;
  char          *stage; /* pool: codec.cap bytes, where a state goes when no range holds the worst case */
  size_t         used;  /* pool: bytes held */
  PetscInt64    *base;  /* shared planes: the slot whose first plane is this slot's second; -1: the slot holds its whole state */
  PetscInt64    *kept;  /* shared planes: bytes each slot holds */
  PetscInt64     held;  /* and their sum */
  PetscInt       half;  /* values of a plane on this rank; 0: planes are not shared */
  PetscScalar   *plane[2]; /* shared planes: each slot's first plane, its second (a slot that shares it leaves its part untouched) */
} RwStore_Memory;

/* Every slot in one block, not touched here: a slot's pages are first touched
   when a state is first stored in it, so the first step starts at once rather
   than after zeroing every slot (store-all of 2000 states of 2 MiB took 5 s
   before step 1), and a slot never used costs nothing */
static PetscErrorCode MemorySlotsInBlock(RwStore store, RwStore_Memory *mem)
{
  /* consecutive slots start at staggered offsets within a page, so the
     reverse sweep's u_k and u_k+1 do not share cache sets */
  const size_t   stride = RwStaggerStride((size_t)store->bytes), size = stride * (size_t)store->slots;
  const size_t   whole  = (size + RW_STORE_MEMORY_ALIGN - 1) & ~(RW_STORE_MEMORY_ALIGN - 1); /* the last huge page too */
  char          *raw, *a;
  PetscContainer block;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(whole + RW_STORE_MEMORY_ALIGN, &raw));
  a = raw + (RW_STORE_MEMORY_ALIGN - (uintptr_t)raw % RW_STORE_MEMORY_ALIGN) % RW_STORE_MEMORY_ALIGN;
#if defined(MADV_HUGEPAGE)
  (void)madvise(a, whole, MADV_HUGEPAGE); /* advice: where it is refused the block works in small pages */
#endif
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &block));
  PetscCall(PetscContainerSetPointer(block, raw));
  PetscCall(PetscContainerSetUserDestroy(block, PetscContainerUserDestroyDefault)); /* when the last vector made on it is destroyed: a vector may leave the store (RwStoreWriteTake(), RwStoreReadAndFree()) */
  PetscCall(PetscMalloc1(store->slots, &mem->slot));
  for (PetscInt64 i = 0; i < store->slots; i++) PetscCall(RwVecCreateOnArray(store->templ, (PetscScalar *)(a + i * stride), block, &mem->slot[i]));
  PetscCall(PetscContainerDestroy(&block)); /* the slots hold it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreWriteCompressed_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  (void)k;
  PetscCall(RwCodecEncode(store, u, mem->bytes + (size_t)slot * store->codec.cap, &mem->rec[slot]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreReadCompressed_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;
  char            where[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(where, sizeof(where), "checkpoint slot %" PetscInt64_FMT " (step %" PetscInt64_FMT ") of the memory store", slot, k));
  PetscCall(RwCodecDecode(store, mem->bytes + (size_t)slot * store->codec.cap, &mem->rec[slot], where, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pool: the first free range of at least need bytes after the held slots' ranges; *at its
   offset and *pos where it goes in the order, or *pos = -1 when none holds it */
static void PoolFirstFit(RwStore store, RwStore_Memory *mem, size_t need, size_t *at, PetscInt64 *pos)
{
  size_t end = 0;

  for (PetscInt64 i = 0; i <= mem->nord; i++) {
    size_t next = i < mem->nord ? mem->off[mem->ord[i]] : (size_t)store->pool;

    if (next >= end + need) {
      *at  = end;
      *pos = i;
      return;
    }
    if (i < mem->nord) end = mem->off[mem->ord[i]] + mem->rec[mem->ord[i]].len;
  }
  *pos = -1;
}

/* Pool: the slot's range is free again (nothing if it holds none) */
static void PoolRelease(RwStore_Memory *mem, PetscInt64 slot)
{
  for (PetscInt64 i = 0; i < mem->nord; i++)
    if (mem->ord[i] == slot) {
      mem->used -= mem->rec[slot].len;
      memmove(mem->ord + i, mem->ord + i + 1, (size_t)(mem->nord - i - 1) * sizeof(*mem->ord));
      mem->nord--;
      return;
    }
}

/* Pool: the state at its real length in the first range that holds it, if every rank has one */
static PetscErrorCode RwStoreWritePool_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;
  RwCodecRecord   rec;
  size_t          at = 0;
  PetscInt64      pos;
  PetscBool       direct;
  int             fits, all;

  PetscFunctionBegin;
  (void)k;
  PoolRelease(mem, slot);
  PoolFirstFit(store, mem, store->codec.cap, &at, &pos);
  direct = (PetscBool)(pos >= 0); /* room for the worst case: encode in place, no copy */
  PetscCall(RwCodecEncode(store, u, direct ? mem->bytes + at : mem->stage, &rec));
  if (!direct) PoolFirstFit(store, mem, rec.len, &at, &pos);
  fits = pos >= 0;
  PetscCallMPI(MPI_Allreduce(&fits, &all, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)store))); /* the schedule is every rank's */
  if (!all) {
    store->missed = PETSC_TRUE;
    store->counts.pool_misses++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!direct) PetscCall(PetscMemcpy(mem->bytes + at, mem->stage, rec.len));
  memmove(mem->ord + pos + 1, mem->ord + pos, (size_t)(mem->nord - pos) * sizeof(*mem->ord));
  mem->ord[pos]  = slot;
  mem->off[slot] = at;
  mem->rec[slot] = rec;
  mem->nord++;
  mem->used += rec.len;
  store->counts.pool_peak = PetscMax(store->counts.pool_peak, (PetscInt64)mem->used);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreReadPool_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;
  char            where[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(where, sizeof(where), "checkpoint slot %" PetscInt64_FMT " (step %" PetscInt64_FMT ") of the memory store", slot, k));
  PetscCall(RwCodecDecode(store, mem->bytes + mem->off[slot], &mem->rec[slot], where, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreFreePool_Memory(RwStore store, PetscInt64 slot)
{
  PetscFunctionBegin;
  PoolRelease((RwStore_Memory *)store->data, slot);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pool: one block of store->pool bytes, allocated here and first touched by the writes */
static PetscErrorCode RwStoreSetUpPool_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2((size_t)store->pool, &mem->bytes, store->slots, &mem->rec));
  PetscCall(PetscMalloc3(store->slots, &mem->off, store->slots, &mem->ord, store->codec.cap, &mem->stage));
  store->ops->write = RwStoreWritePool_Memory;
  store->ops->read  = RwStoreReadPool_Memory;
  store->ops->free  = RwStoreFreePool_Memory;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Compressed slots: bytes instead of vectors, and copies instead of exchanges */
static PetscErrorCode RwStoreSetUpCompressed_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  PetscCall(RwCodecSetUp(store));
  store->ops->take = NULL;
  store->ops->swap = NULL;
  if (store->pool > 0) {
    PetscCall(RwStoreSetUpPool_Memory(store));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc2((size_t)store->slots * store->codec.cap, &mem->bytes, store->slots, &mem->rec));
  store->ops->write = RwStoreWriteCompressed_Memory;
  store->ops->read  = RwStoreReadCompressed_Memory;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shared planes: slot's state is about to go; a state reading its plane gets a copy of it first */
static PetscErrorCode SharedRelease(RwStore store, PetscInt64 slot)
{
  RwStore_Memory  *mem  = (RwStore_Memory *)store->data;
  const size_t     half = (size_t)mem->half;
  const PetscInt64 hb   = (PetscInt64)(half * sizeof(PetscScalar));

  PetscFunctionBegin;
  for (PetscInt64 i = 0; i < store->slots; i++) {
    if (mem->base[i] != slot) continue;
    PetscCall(PetscArraycpy(mem->plane[1] + (size_t)i * half, mem->plane[0] + (size_t)slot * half, half));
    mem->base[i] = -1;
    mem->kept[i] += hb;
    mem->held += hb;
    store->counts.promoted++;
  }
  mem->held -= mem->kept[slot];
  mem->kept[slot] = 0;
  mem->base[slot] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The held slot of step k - 1 whose first plane is u's second, bitwise; -1: none */
static void SharedBase(RwStore store, PetscInt64 k, const PetscScalar u[], PetscInt64 *base)
{
  RwStore_Memory *mem  = (RwStore_Memory *)store->data;
  const size_t    half = (size_t)mem->half;

  *base = -1;
  for (PetscInt64 j = 0; j < store->slots && k > 0; j++) {
    if (store->step[j] != k - 1) continue;
    if (!memcmp(mem->plane[0] + (size_t)j * half, u + half, half * sizeof(PetscScalar))) *base = j;
    break;
  }
}

static PetscErrorCode RwStoreWriteShared_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory    *mem  = (RwStore_Memory *)store->data;
  const size_t       half = (size_t)mem->half;
  const PetscScalar *a;
  PetscInt64         base;

  PetscFunctionBegin;
  PetscCall(SharedRelease(store, slot));
  PetscCall(VecGetArrayRead(u, &a));
  SharedBase(store, k, a, &base);
  PetscCall(PetscArraycpy(mem->plane[0] + (size_t)slot * half, a, half));
  if (base < 0) PetscCall(PetscArraycpy(mem->plane[1] + (size_t)slot * half, a + half, half));
  PetscCall(VecRestoreArrayRead(u, &a));
  mem->base[slot] = base;
  mem->kept[slot] = (base >= 0 ? 1 : 2) * (PetscInt64)(half * sizeof(PetscScalar));
  mem->held += mem->kept[slot];
  store->counts.shared += base >= 0;
  store->counts.held_peak = PetscMax(store->counts.held_peak, mem->held);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreReadShared_Memory(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_Memory *mem  = (RwStore_Memory *)store->data;
  const size_t    half = (size_t)mem->half;
  PetscScalar    *b;

  PetscFunctionBegin;
  (void)k;
  PetscCall(VecGetArrayWrite(u, &b));
  PetscCall(PetscArraycpy(b, mem->plane[0] + (size_t)slot * half, half));
  if (mem->base[slot] < 0) PetscCall(PetscArraycpy(b + half, mem->plane[1] + (size_t)slot * half, half));
  else PetscCall(PetscArraycpy(b + half, mem->plane[0] + (size_t)mem->base[slot] * half, half));
  PetscCall(VecRestoreArrayWrite(u, &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreFreeShared_Memory(RwStore store, PetscInt64 slot)
{
  PetscFunctionBegin;
  PetscCall(SharedRelease(store, slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new solve: every slot forgotten, none reads another's plane */
static PetscErrorCode RwStoreSetSolveShared_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  for (PetscInt64 i = 0; i < store->slots; i++) mem->base[i] = -1, mem->kept[i] = 0;
  mem->held = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the states share planes: two components in planes, told that they shift */
static PetscErrorCode SharedApplies(RwStore store, PetscBool *yes)
{
  DM        dm;
  PetscBool isda = PETSC_FALSE, plain;
  PetscInt  dof  = 1;

  PetscFunctionBegin;
  PetscCall(VecGetDM(store->templ, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (isda) PetscCall(DMDAGetInfo(dm, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)store->templ, &plain, VECSEQ, VECMPI, "")); /* host arrays */
  *yes = (PetscBool)(store->stateshift && store->statelayout == RW_STORE_STATE_PLANES && dof == 2 && plain);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shared planes: every slot's first plane in one block, its second in
   another, both touched only where written, so a state kept as its first
   plane costs its pages there only (in a slot of a whole state, huge pages
   would have made the untouched half resident all the same); copies
   instead of exchanges, which would move the planes */
static PetscErrorCode RwStoreSetUpShared_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(store->templ, &n));
  mem->half = n / 2;
  PetscCall(PetscMalloc2((size_t)store->slots * (size_t)mem->half, &mem->plane[0], (size_t)store->slots * (size_t)mem->half, &mem->plane[1]));
  PetscCall(PetscMalloc2(store->slots, &mem->base, store->slots, &mem->kept));
  PetscCall(RwStoreSetSolveShared_Memory(store));
  store->ops->write    = RwStoreWriteShared_Memory;
  store->ops->read     = RwStoreReadShared_Memory;
  store->ops->free     = RwStoreFreeShared_Memory;
  store->ops->setsolve = RwStoreSetSolveShared_Memory;
  store->ops->take     = NULL;
  store->ops->swap     = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreSetUp_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;
  PetscBool       plain, shared = PETSC_FALSE;

  PetscFunctionBegin;
  if (!store->slots) PetscFunctionReturn(PETSC_SUCCESS);
  if (store->codec.type == RW_STORE_COMPRESS_NONE) store->pool = 0; /* a pool holds compressed states only */
  if (store->codec.type != RW_STORE_COMPRESS_NONE) {
    PetscCall(RwStoreSetUpCompressed_Memory(store));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SharedApplies(store, &shared));
  if (shared) {
    PetscCall(RwStoreSetUpShared_Memory(store));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* vectors of another type (a device's) are duplicated as PETSc makes them */
  PetscCall(PetscObjectTypeCompareAny((PetscObject)store->templ, &plain, VECSEQ, VECMPI, ""));
  if (plain) PetscCall(MemorySlotsInBlock(store, mem));
  else PetscCall(VecDuplicateVecs(store->templ, (PetscInt)store->slots, &mem->slot));
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
  if (store->pool > 0) {
    RwStore_Memory *mem = (RwStore_Memory *)store->data;

    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " compressed RAM slots (%s) in a pool of %" PetscInt64_FMT " bytes on this rank, each state at its compressed length (states of %" PetscInt64_FMT " bytes; the largest kept %" PetscInt64_FMT ", the pool's peak %" PetscInt64_FMT ", %" PetscInt64_FMT " held now, %" PetscInt64_FMT " writes found no room)\n", store->slots, RwStoreCompressTypes[store->codec.type], store->pool, store->bytes, store->counts.kept_max, store->counts.pool_peak, mem->nord, store->counts.pool_misses));
    PetscCall(RwCodecView(store, viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (store->codec.type != RW_STORE_COMPRESS_NONE) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " compressed RAM slots (%s) of %zu bytes on this rank, for states of %" PetscInt64_FMT " bytes\n", store->slots, RwStoreCompressTypes[store->codec.type], store->codec.cap, store->bytes));
    PetscCall(RwCodecView(store, viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " RAM slots of %" PetscInt64_FMT " bytes on this rank\n", store->slots, store->bytes));
  if (((RwStore_Memory *)store->data)->half) PetscCall(PetscViewerASCIIPrintf(viewer, "planes shared (RwStoreSetStateShift()): %" PetscInt64_FMT " of %" PetscInt64_FMT " writes kept only the state's first plane, %" PetscInt64_FMT " second planes copied back; states held at most %" PetscInt64_FMT " bytes on this rank, %" PetscInt64_FMT " now\n", store->counts.shared, store->counts.writes, store->counts.promoted, store->counts.held_peak, ((RwStore_Memory *)store->data)->held));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " writes (%" PetscInt64_FMT " by taking the caller's vector), %" PetscInt64_FMT " reads by copy, %" PetscInt64_FMT " by exchanging vectors (copies avoided)\n", store->counts.writes, store->counts.takes, store->counts.reads, store->counts.swaps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreDestroy_Memory(RwStore store)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  if (mem->slot) PetscCall(VecDestroyVecs((PetscInt)store->slots, &mem->slot));
  PetscCall(PetscFree2(mem->bytes, mem->rec));
  PetscCall(PetscFree3(mem->off, mem->ord, mem->stage));
  PetscCall(PetscFree2(mem->base, mem->kept));
  PetscCall(PetscFree2(mem->plane[0], mem->plane[1]));
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

/* The bytes slot holds in the pool (0: none, or no pool) */
PetscErrorCode RwStorePoolLength_Memory(RwStore store, PetscInt64 slot, PetscInt64 *len)
{
  RwStore_Memory *mem = (RwStore_Memory *)store->data;

  PetscFunctionBegin;
  *len = 0;
  if (store->pool <= 0 || !mem || !mem->ord) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt64 i = 0; i < mem->nord; i++)
    if (mem->ord[i] == slot) *len = (PetscInt64)mem->rec[slot].len;
  PetscFunctionReturn(PETSC_SUCCESS);
}
