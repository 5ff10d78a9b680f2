/*
  The hdf5 store: checkpoints in one parallel HDF5 file shared by all ranks
  (or one file per node), one dataset per slot shaped like the global grid.
  doc/notes/checkpoints-internals.md describes the file for its readers (h5dump, h5py).

    /            attributes format, identity, slots, layout (node files: node,
                 nodes, blocks)
    /slot_<i>    the state of slot i in natural grid order, shape (z, y, x) with
                 dof as a last dimension when dof > 1; attributes model, dim,
                 grid, dof (fixed at set-up) and step, time, checksum, valid

  Datasets and attributes are all created at set-up: the time loop only writes.
  A write clears the slot's valid mark and flushes once (which also commits
  the previous write's record and mark), writes the data (in a background
  thread), and puts its record and mark in once the data are complete, so a
  crash at any moment leaves the slot either valid with complete data or not
  valid (h5write.c, doc/notes/checkpoints-internals.md).  A read checks the mark, step, grid and dof, and the checksum of what
  it read.

  The checksum does not depend on the decomposition: the sum, modulo 2^64, of
  splitmix64(splitmix64(i) ^ bits(v)) over the values v and their natural
  indices i = ((z ny + y) nx + x) dof + c, reduced with a wrapping MPI_SUM.

  Every rank makes every HDF5 call; a failure anywhere is agreed over the
  store's communicator before it is raised, so no rank is left waiting in a
  later collective call, and every rank reports the same cause.

  This file holds the type's life cycle (create, close, destroy); hdf5impl.h
  lists the files that hold the rest, one concern each.
*/
#include "hdf5impl.h"
#include <errno.h>
#include <unistd.h>

/* Closes every handle even when one fails; the file is removed unless kept or not ours */
static PetscErrorCode RwStoreHDF5Close(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  herr_t        s                 = 0;
  PetscMPIInt   frank;
  int           e;

  PetscFunctionBegin;
  if (h5->opened) PetscCall(RwStoreSync_HDF5(store));
  (void)RwStoreHDF5PrefetchWait(store); /* first: a prefetch may wait for the writer */
  if ((e = RwH5WriterStop(&h5->reader))) snprintf(msg, sizeof(msg), "Closing the prefetching reader's handle of checkpoint file %s failed: %s", h5->path, strerror(e));
  if ((e = RwH5WriterStop(&h5->writer))) snprintf(msg, sizeof(msg), "Closing the asynchronous writer's handle of checkpoint file %s failed: %s", h5->path, strerror(e));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_WRITE, msg, RW_H5_MSGLEN));
  for (PetscInt64 i = 0; h5->dset && i < store->slots; i++)
    if (h5->dset[i] >= 0) s |= H5Dclose(h5->dset[i]);
  if (h5->memspace > 0) s |= H5Sclose(h5->memspace);
  if (h5->filespace > 0) s |= H5Sclose(h5->filespace);
  if (h5->dxpl > 0) s |= H5Pclose(h5->dxpl);
  if (h5->rdxpl > 0) s |= H5Pclose(h5->rdxpl);
  if (h5->opened) s |= H5Fclose(h5->fid);
  RwH5Try(store, -1, 0, RW_H5_CLOSE, s < 0 ? -1 : 0);
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  if (h5->owned && !h5->keep && !frank && unlink(h5->path) && errno != ENOENT) snprintf(msg, sizeof(msg), "Cannot remove checkpoint file %s at the end (use -rw_store_keep to keep it): %s", h5->path, strerror(errno));
  h5->opened = h5->owned = PETSC_FALSE;
  PetscCall(RwFileLockRelease(&h5->lock));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_WRITE, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreDestroy_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  if (h5->fcomm != MPI_COMM_NULL) {
    PetscCall(RwStoreHDF5Close(store));
    PetscCallMPI(MPI_Comm_free(&h5->fcomm));
  }
  PetscCall(PetscFree(h5->dset));
  PetscCall(RwStoreHDF5PackedDestroy(store));
  PetscCall(PetscFree(h5->attach));
  PetscCall(PetscFree(h5->pattach));
  PetscCall(PetscFree(h5->offset));
  PetscCall(VecDestroy(&h5->stage));
  PetscCall(VecDestroy(&h5->held));
  PetscCall(VecDestroy(&h5->rbuf));
  PetscCall(PetscFree(h5->written));
  PetscCall(PetscFree2(h5->runs.runoff, h5->runs.runlen));
  PetscCall(PetscFree(store->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5SetFileOptions_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5GetFileOptions_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5SetFileTag_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSTOREHDF5 - "hdf5": checkpoints in a parallel HDF5 file, one dataset per
  slot shaped like the global grid, written by a background thread (or
  collectively), read with independent MPI-IO; each
  checkpoint records its step, time, grid and a checksum independent of the
  decomposition, and is marked valid only once written and flushed.

  Options Database Keys:
+ -rw_store_hdf5_file <name>           - the file (default rewind-checkpoints.h5 in the working directory)
. -rw_store_hdf5_comm <world,node>     - one file shared by all ranks (default), or one file per node (name-node<i>.h5), which only the same decomposition can read back
. -rw_store_keep                       - keep the file at the end (by default RwStoreDestroy() removes it)
. -rw_store_overwrite                  - replace an existing file (by default a run that does not resume refuses to touch it)
. -rw_store_hdf5_alignment <bytes>     - align datasets of at least that size to multiples of it (the stripe size of a parallel file system); default none
. -rw_store_hdf5_async <bool>          - a background thread writes each checkpoint's data while the sweep goes on (default true)
. -rw_store_hdf5_prefetch <bool>       - a background thread reads the checkpoint the driver restores next (RwStorePrefetch()) while the sweep goes on (default true; needs async writes)
. -rw_debug_kill_in_write <k>          - testing: SIGKILL half way through the data of the k-th write
. -rw_debug_kill_before_mark <k>       - testing: SIGKILL once the k-th write's data are complete, before its valid mark
. -rw_store_hdf5_fail_write <k>        - debugging: the k-th write fails as a full disk would
- -rw_store_hdf5_fail_read <k>         - debugging: the k-th prefetched read fails as one from a file cut short would

  Level: beginner

  Notes:
  A file written on P ranks (world layout) can be restored on any number of
  ranks.  The file layout is described in doc/notes/checkpoints-internals.md.

.seealso: RwStoreCreate(), RWSTOREMEMORY, RwStoreSetRestart(), RwStoreSetIdentity(), RwStoreSetInfo()
M*/
PetscErrorCode RwStoreCreate_HDF5(RwStore store)
{
  RwStore_HDF5 *h5;

  PetscFunctionBegin;
  PetscCall(PetscNew(&h5));
  PetscCall(PetscStrncpy(h5->file, "rewind-checkpoints.h5", sizeof(h5->file)));
  h5->fcomm               = MPI_COMM_NULL;
  h5->fid                 = H5I_INVALID_HID;
  h5->memspace            = H5I_INVALID_HID;
  h5->filespace           = H5I_INVALID_HID;
  h5->dxpl                = H5I_INVALID_HID;
  h5->rdxpl               = H5I_INVALID_HID;
  h5->async               = PETSC_TRUE;
  h5->prefetch            = PETSC_TRUE;
  h5->writer.fd           = -1;
  h5->reader.fd           = -1;
  store->data             = h5;
  store->ops->setfromoptions = RwStoreSetFromOptions_HDF5;
  store->ops->setup          = RwStoreSetUp_HDF5;
  store->ops->write          = RwStoreWrite_HDF5;
  store->ops->read           = RwStoreRead_HDF5;
  store->ops->getattachment  = RwStoreGetAttachment_HDF5;
  store->ops->validsteps     = RwStoreGetValidSteps_HDF5;
  store->ops->setsolve       = RwStoreSetSolve_HDF5;
  store->ops->setcomplete    = RwStoreSetComplete_HDF5;
  store->ops->sync           = RwStoreSync_HDF5;
  store->ops->prefetch       = RwStorePrefetch_HDF5;
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5SetFileOptions_C", RwStoreHDF5SetFileOptions_HDF5));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5GetFileOptions_C", RwStoreHDF5GetFileOptions_HDF5));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5SetFileTag_C", RwStoreHDF5SetFileTag_HDF5));
  store->ops->view           = RwStoreView_HDF5;
  store->ops->destroy        = RwStoreDestroy_HDF5;
  PetscFunctionReturn(PETSC_SUCCESS);
}
