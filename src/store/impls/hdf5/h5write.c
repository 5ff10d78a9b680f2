/*
  The hdf5 store's crash-safety protocol: a slot's data are written under a
  valid mark that is off on disk, and the mark goes back on only over
  complete data (RwStoreHDF5WriteBegin says how, doc/notes/checkpoints-internals.md why).
  Writes, with and without a copy, the settle and the one flush each write
  costs, and the marks of a whole solve (a new solve, a completed one).
*/
#include "hdf5impl.h"
#include <signal.h>
#include <string.h>

/* Tests: the process dies as a node failure would */
static void RwStoreHDF5MaybeKill(PetscInt at, PetscInt call)
{
  if (at > 0 && at == call) raise(SIGKILL);
}

/* Why the writer failed: the checkpoint, the call and the system's reason */
static void RwStoreHDF5WriterWhy(RwStore store, int err, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          where[RW_H5_WHERELEN];

  RwStoreHDF5Where(store, h5->pslot, h5->pstep, where, sizeof(where));
  snprintf(msg, RW_H5_MSGLEN, "writing %s failed: %s in the background writer: %s", where, h5->writer.failed, strerror(err));
  RwStoreHDF5WriteHint(store, msg, RW_H5_MSGLEN);
}

/* Finishes the pending write: waits for its data (async), then puts its
   record and valid mark in HDF5's cache.  Called before anything else touches
   the file, so the thread never runs beside another HDF5 call on a slot it
   writes, and nothing reads data still being written */
PetscErrorCode RwStoreHDF5SettleDefer(RwStore store, herr_t *put)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  double        time              = store->dt > 0 ? (double)h5->pstep * (double)store->dt : NAN;
  char          msg[RW_H5_MSGLEN] = "";
  int           err               = 0;

  PetscFunctionBegin;
  if (!h5->pending) PetscFunctionReturn(PETSC_SUCCESS);
  h5->pending = PETSC_FALSE;
  if (h5->inflight) {
    err          = RwH5WriterWait(&h5->writer, &store->counts.seconds_wait);
    h5->inflight = PETSC_FALSE;
    h5->plocal   = h5->writer.local;
    store->counts.seconds_async += h5->writer.seconds;
  }
  RwStoreHDF5MaybeKill(h5->killmark, h5->calls); /* tests: data complete, record not written */
  store->step[h5->pslot] = -1;                   /* until its record is in */
  /* one reduction: the writers' outcome and the state's checksum */
  if (err) RwStoreHDF5WriterWhy(store, err, msg);
  PetscCall(RwStoreHDF5AgreeSum(store, PETSC_ERR_FILE_WRITE, msg, h5->plocal, &h5->psum));
  if (h5->packed) h5->psum = RwH5PackedSum(store, (int)h5->prec.method, (double)h5->prec.tolabs, h5->plen, h5->psums);
  /* the record only goes to HDF5's cache (no communication); its status is agreed by the caller */
  *put                   = RwH5PutRecord(store, h5->dset[h5->pslot], h5->pslot, h5->pstep, time, h5->psum, h5->pattach);
  store->step[h5->pslot] = *put < 0 ? -1 : h5->pstep;
  h5->uncommitted        = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Settles and agrees on the record's status at once */
PetscErrorCode RwStoreHDF5Settle(RwStore store)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  herr_t        put = 0;

  PetscFunctionBegin;
  if (!h5->pending) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreHDF5SettleDefer(store, &put));
  RwH5Try(store, h5->pslot, h5->pstep, RW_H5_WRITE, put);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one flush (and fsync) of a write: it commits the records settled so far,
   the root's generation (the writes committed) and whatever was marked invalid */
static herr_t RwH5Commit(RwStore store, PetscInt64 invalidate, herr_t put)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  int64_t       gen  = h5->generation;
  int           zero = 0;
  herr_t        s    = put, f;

  if (invalidate >= 0) s = RwH5AttrPut(h5->dset[invalidate], "valid", H5T_NATIVE_INT, &zero);
  if (s >= 0) s = h5->hasgen ? RwH5AttrPut(h5->fid, "generation", H5T_NATIVE_INT64, &gen) : RwH5AttrNew(h5->fid, "generation", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &gen);
  f = H5Fflush(h5->fid, H5F_SCOPE_LOCAL); /* collective: made even after a failure above, so no rank waits */
  return s < 0 || f < 0 ? -1 : 0;
}

/* The flush, with slot (>= 0) marked not valid first; one agreement */
static PetscErrorCode RwStoreHDF5FlushAfter(RwStore store, PetscInt64 slot, PetscInt64 k, herr_t put)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  RwH5Try(store, slot, k, RW_H5_WRITE, RwH5Commit(store, slot, put));
  h5->hasgen      = PETSC_TRUE;
  h5->uncommitted = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreHDF5Flush(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscCall(RwStoreHDF5FlushAfter(store, slot, k, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Settles and commits whatever is pending: nothing is left in flight or in HDF5's cache */
PetscErrorCode RwStoreSync_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  if (h5->uncommitted) PetscCall(RwStoreHDF5Flush(store, -1, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data, synchronously: one collective H5Dwrite; -rw_store_hdf5_fail_write
   makes one fail as a full disk would, with its reason on HDF5's error stack */
static herr_t RwStoreHDF5WriteData(RwStore store, PetscInt64 slot, const PetscScalar a[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  return H5Dwrite(h5->dset[slot], H5T_NATIVE_DOUBLE, h5->memspace, h5->filespace, h5->dxpl, a);
}

static herr_t RwStoreHDF5FailWrite(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  if (h5->calls != h5->failwrite) return 0;
  H5Epush2(H5E_DEFAULT, __FILE__, "H5Dwrite", __LINE__, H5E_ERR_CLS, H5E_IO, H5E_WRITEERROR, "No space left on device (simulated by -rw_store_hdf5_fail_write %d)", (int)h5->failwrite);
  return -1;
}

/*
  A write of x_k into slot s, with one flush (one fsync):

  1. the previous write is settled (its data complete, its record and valid
     mark put in HDF5's cache);
  2. valid := 0 on slot s, the root's generation := the writes settled, and
     H5Fflush: this commits the previous write and makes slot s not valid on
     disk before any of its new data reach the file;
  3. the data are written: staged and handed to the writer thread (async),
     or by one collective H5Dwrite;
  4. the record and the valid mark follow at the next settle, once the data
     are complete, and reach the disk at the next flush.

  So the mark on disk is set only over complete data, and the data are
  changed only under a mark that is off on disk.  doc/notes/checkpoints-internals.md has the
  whole argument, with what a crash at each point leaves.  Steps 1 and 2 are
  the same for a write that copies and for one that takes the caller's vector.
*/
PetscErrorCode RwStoreHDF5WriteBegin(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  herr_t        put = 0;

  PetscFunctionBegin;
  if (h5->pending) PetscCall(RwStoreHDF5SettleDefer(store, &put));
  h5->calls++;
  PetscCall(RwStoreHDF5FlushAfter(store, slot, k, put)); /* slot s not valid on disk, the previous write committed */
  if (h5->failwrite) RwH5Try(store, slot, k, RW_H5_WRITE, RwStoreHDF5FailWrite(store));
  h5->generation++;
  h5->written[slot]++; /* a prefetch of the slot's older data is stale from now on */
  h5->pslot = slot;
  h5->pstep = k;
  PetscCall(PetscArraycpy(h5->pattach, store->attach, store->nattach));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreWrite_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_HDF5      *h5 = (RwStore_HDF5 *)store->data;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5WriteBegin(store, slot, k));
  if (h5->async) {
    /* the caller's state may change as soon as this returns: the thread writes a copy */
    PetscCall(VecCopy(u, h5->stage));
    PetscCall(VecGetArrayRead(h5->stage, &a));
    RwStoreHDF5Post(store, slot, a);
    PetscCall(VecRestoreArrayRead(h5->stage, &a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayRead(u, &a));
  h5->plocal = RwStoreChecksumBlock_Private(store, h5->M, h5->start, h5->count, h5->dof, a);
  RwH5Try(store, slot, k, RW_H5_WRITE, RwStoreHDF5WriteData(store, slot, a));
  PetscCall(VecRestoreArrayRead(u, &a));
  h5->pending = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write without the copy (asynchronous writes): the thread writes the
   caller's vector itself, which the caller only reads from now on (the take
   contract), and the vector of the write before, done with since the settle,
   goes back to the caller.  A later copying write goes to the store's own
   staging vector, never to one the caller may still read */
PetscErrorCode RwStoreTake_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, Vec *spare)
{
  RwStore_HDF5      *h5 = (RwStore_HDF5 *)store->data;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5WriteBegin(store, slot, k));
  *spare   = h5->held;
  h5->held = u;
  PetscCall(VecGetArrayRead(u, &a));
  RwStoreHDF5Post(store, slot, a);
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new solve: every slot loses its valid mark before the root names the
   solve, so a crash in between leaves nothing valid under either name */
PetscErrorCode RwStoreSetSolve_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          solve[RW_H5_SOLVELEN] = "";
  int           zero = 0;
  hid_t         t;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  (void)RwStoreHDF5PrefetchWait(store); /* nothing of another solve is read back */
  RwH5Try(store, -1, 0, RW_H5_WRITE, RwH5AttrPut(h5->fid, "complete", H5T_NATIVE_INT, &zero));
  for (PetscInt64 i = 0; i < store->slots; i++) RwH5Try(store, i, -1, RW_H5_WRITE, RwH5AttrPut(h5->dset[i], "valid", H5T_NATIVE_INT, &zero));
  RwH5Try(store, -1, 0, RW_H5_WRITE, H5Fflush(h5->fid, H5F_SCOPE_LOCAL));
  if (store->solve) PetscCall(PetscStrncpy(solve, store->solve, sizeof(solve)));
  RwCallHDF5Return(t, RwH5StringType, (RW_H5_SOLVELEN));
  RwH5Try(store, -1, 0, RW_H5_WRITE, RwH5AttrPut(h5->fid, "solve", t, solve));
  RwCallHDF5(H5Tclose, (t));
  PetscCall(RwStoreHDF5Flush(store, -1, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreSetComplete_HDF5(RwStore store)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  int           one = 1;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  RwH5Try(store, -1, 0, RW_H5_WRITE, RwH5AttrPut(h5->fid, "complete", H5T_NATIVE_INT, &one));
  PetscCall(RwStoreHDF5Flush(store, -1, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
