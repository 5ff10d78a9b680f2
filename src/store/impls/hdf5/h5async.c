/*
  The hdf5 store's side of its background threads (h5writer.c): the runs of
  bytes and file offsets they need, fixed at set-up, their start, the post of
  a write, and the prefetch (RwStorePrefetch) with its wait and its hand-over
  to a read.  The threads call neither HDF5 nor MPI; this side does, on the
  main thread.
*/
#include "hdf5impl.h"
#include <string.h>

/* This rank's runs of bytes in a slot's contiguous dataset: the x-rows of its
   block (in planes, component 0's rows, then component 1's), merged where they follow each other in the file (a block of whole
   rows is one run), or its part of a node file */
static PetscErrorCode RwStoreHDF5Runs(RwStore store)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  RwH5Runs     *w    = &h5->runs;
  PetscBool     planes = (PetscBool)(RwH5StateLayout(store) == RW_STORE_STATE_PLANES);
  PetscInt      nc     = planes ? h5->dof : 1, pd = planes ? 1 : h5->dof; /* planes: a component's rows after the other's */
  size_t        row    = (size_t)(h5->count[0] * pd) * sizeof(double);
  PetscInt      rows   = h5->comm == RW_H5_NODE ? 1 : h5->count[1] * h5->count[2] * nc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(PetscMax(rows, 1), &w->runoff, PetscMax(rows, 1), &w->runlen));
  if (h5->packed) { /* compressed slots: one run, its length set by each write (h5packed.c) */
    w->runoff[0] = (off_t)h5->cofs;
    w->runlen[0] = w->bytes = 0;
    w->nruns     = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  w->nruns = 0;
  w->bytes = (size_t)h5->n * sizeof(double);
  if (!h5->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (h5->comm == RW_H5_NODE) {
    w->runoff[0] = (off_t)(h5->fstart[0] * sizeof(double));
    w->runlen[0] = w->bytes;
    w->nruns     = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt c = 0; c < nc; c++) {
    for (PetscInt z = 0; z < h5->count[2]; z++) {
      for (PetscInt y = 0; y < h5->count[1]; y++) {
        off_t off = (off_t)((((c * h5->M[2] + h5->start[2] + z) * h5->M[1] + h5->start[1] + y) * h5->M[0] + h5->start[0]) * pd) * (off_t)sizeof(double);

        if (w->nruns && w->runoff[w->nruns - 1] + (off_t)w->runlen[w->nruns - 1] == off) w->runlen[w->nruns - 1] += row;
        else {
          w->runoff[w->nruns] = off;
          w->runlen[w->nruns++] = row;
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The writer copies raw doubles to the slots' file offsets: little-endian
   IEEE doubles (the datasets' type) in contiguous, allocated datasets */
static PetscErrorCode RwStoreHDF5Offsets(RwStore store, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  htri_t        le;

  PetscFunctionBegin;
  RwCallHDF5Return(le, H5Tequal, (H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE));
  if (!le) snprintf(msg, RW_H5_MSGLEN, "The asynchronous hdf5 store writes raw doubles into file %s, but this machine's doubles are not the file's little-endian IEEE doubles: use -rw_store_hdf5_async 0", h5->path);
  for (PetscInt64 i = 0; le && i < store->slots; i++) {
    h5->offset[i] = H5Dget_offset(h5->dset[i]);
    if (h5->offset[i] == HADDR_UNDEF && !msg[0]) snprintf(msg, RW_H5_MSGLEN, "Dataset /slot_%" PetscInt64_FMT " in file %s has no contiguous storage allocated in the file, which the asynchronous writer needs: use -rw_store_hdf5_async 0", i, h5->path);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reader's checksum of this rank's part, on its own thread: a pure function of the block */
static uint64_t RwStoreHDF5SumBlock(void *ctx, const char *buf)
{
  RwStore       store = (RwStore)ctx;
  RwStore_HDF5 *h5    = (RwStore_HDF5 *)store->data;

  return RwStoreChecksumBlock_Private(store, h5->M, h5->start, h5->count, h5->dof, (const PetscScalar *)buf);
}

/* Compressed slots: the writer's bytes were summed when they were encoded */
static uint64_t RwStoreHDF5SumNone(void *ctx, const char *buf)
{
  (void)ctx, (void)buf;
  return 0;
}

/* The bytes of one of the store's vectors, which its threads use between
   calls: plain host vectors (like the template), whose arrays never move */
static PetscErrorCode RwStoreHDF5Array(Vec v, char **bytes)
{
  PetscScalar *a, *keep;

  PetscFunctionBegin;
  PetscCall(VecGetArray(v, &a));
  keep = a;
  PetscCall(VecRestoreArray(v, &a));
  *bytes = (char *)keep;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The prefetch's buffer and thread (-rw_store_hdf5_prefetch), which share the writer's runs */
static PetscErrorCode RwStoreHDF5StartReader(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  int           e;

  PetscFunctionBegin;
  if (!h5->prefetch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwVecDuplicateStaggered(store->templ, &h5->rbuf)); /* staggered as the driver's states: swapped into the sweep */
  PetscCall(RwStoreHDF5Array(h5->rbuf, &h5->reader.buf));
  h5->reader.runs   = &h5->runs;
  h5->reader.sum    = RwStoreHDF5SumBlock;
  h5->reader.sumctx = store;
  if ((e = RwH5ReaderStart(&h5->reader, h5->path))) snprintf(msg, sizeof(msg), "Cannot start the prefetching reader of checkpoint file %s: %s", h5->path, strerror(e));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_SYS, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The staging buffer and the thread, when writes are asynchronous */
PetscErrorCode RwStoreHDF5StartWriter(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  int           e;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(store->nattach, 1), &h5->pattach));
  PetscCall(PetscCalloc1(PetscMax(store->slots, 1), &h5->written));
  if (!h5->async && !h5->prefetch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(PetscMax(store->slots, 1), &h5->offset));
  PetscCall(RwStoreHDF5Offsets(store, msg));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_SUP, msg, RW_H5_MSGLEN));
  PetscCall(RwStoreHDF5Runs(store));
  h5->writer.runs = &h5->runs;
  PetscCall(RwStoreHDF5StartReader(store));
  if (!h5->async) PetscFunctionReturn(PETSC_SUCCESS);
  if (!h5->packed) { /* compressed slots: the writer writes the encoded bytes (h5packed.c), whose sums are made with them */
    PetscCall(RwVecDuplicateStaggered(store->templ, &h5->stage));
    PetscCall(RwVecDuplicateStaggered(store->templ, &h5->held)); /* handed to the sweep by the first take */
  }
  h5->writer.sum    = h5->packed ? RwStoreHDF5SumNone : RwStoreHDF5SumBlock;
  h5->writer.sumctx = store;
  if ((e = RwH5WriterStart(&h5->writer, h5->path))) snprintf(msg, sizeof(msg), "Cannot start the asynchronous writer of checkpoint file %s: %s", h5->path, strerror(e));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_SYS, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 3 when asynchronous: the thread writes the state at data, which nobody changes until the next settle */
void RwStoreHDF5Post(RwStore store, PetscInt64 slot, const PetscScalar *data)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  h5->writer.stage = (const char *)data;
  RwH5WriterPost(&h5->writer, (off_t)h5->offset[slot], h5->killwrite > 0 && h5->killwrite == h5->calls);
  h5->inflight = PETSC_TRUE;
  h5->pending  = PETSC_TRUE;
  store->counts.bytes_async += h5->packed ? (PetscInt64)h5->prec.len : store->bytes;
}

/* Waits for the prefetch in flight, if any, and forgets it: its errno, 0 if it succeeded */
int RwStoreHDF5PrefetchWait(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  int           err;

  if (!h5->fposted) return 0;
  err         = RwH5WriterWait(&h5->reader, &store->counts.seconds_prefetch_wait);
  h5->fposted = PETSC_FALSE;
  store->counts.seconds_prefetch += h5->reader.seconds;
  return err;
}

/*
  A prefetch: the reader thread reads slot s into the store's read buffer and
  checksums this rank's part while the sweep goes on; the read of step k from
  s then waits for it, checks the record as any read does, agrees on the
  checksum and copies.  If the write of s is in flight, the reader starts once
  the writer has written its bytes.  The prefetch belongs to the write of s it
  followed: if s is written again before the read (written[s] changes), it is
  stale and the read goes to the file, so a prefetched slot overwritten
  before it is read is never returned.  One prefetch at a time.
*/
PetscErrorCode RwStorePrefetch_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  long          ticket;

  PetscFunctionBegin;
  if (!h5->prefetch) PetscFunctionReturn(PETSC_SUCCESS);
  if (h5->fposted && h5->fslot == slot && h5->fstep == k && h5->fwritten == h5->written[slot]) PetscFunctionReturn(PETSC_SUCCESS); /* on its way */
  (void)RwStoreHDF5PrefetchWait(store); /* a prefetch never used: its outcome does not matter */
  ticket = h5->inflight && h5->pslot == slot ? h5->writer.posted : 0;
  h5->prefetched++;
  RwH5ReaderPost(&h5->reader, (off_t)h5->offset[slot], &h5->writer, ticket, h5->failread > 0 && h5->failread == h5->prefetched);
  h5->fposted  = PETSC_TRUE;
  h5->fslot    = slot;
  h5->fstep    = k;
  h5->fwritten = h5->written[slot];
  store->counts.prefetches++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The prefetched state into *u: copied, or with swap the read buffer itself,
   the caller's vector becoming the next buffer (the reader is idle now) */
PetscErrorCode RwStoreHDF5TakePrefetch(RwStore store, Vec *u, PetscBool swap)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  Vec           t  = *u;

  PetscFunctionBegin;
  if (!swap) {
    PetscCall(VecCopy(h5->rbuf, *u));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *u       = h5->rbuf;
  h5->rbuf = t;
  PetscCall(PetscObjectStateIncrease((PetscObject)*u)); /* the reader wrote its array behind PETSc's back */
  PetscCall(RwStoreHDF5Array(h5->rbuf, &h5->reader.buf));
  store->counts.swaps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
