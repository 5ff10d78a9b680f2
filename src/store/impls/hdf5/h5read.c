/*
  The hdf5 store's reads: a slot's record checked, its data read (from the
  prefetch or the file, each rank its own part), and the checksum of what was
  read agreed and compared with the record's, in one reduction.  Also the
  valid steps a restart resumes from, and the integers kept with a slot.
*/
#include "hdf5impl.h"
#include <errno.h>
#include <string.h>

/* This rank's part of slot into *u, and its checksum: from the prefetch if it
   holds the slot's last write, else from the file; a failure goes to msg */
static PetscErrorCode RwStoreHDF5ReadData(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u, PetscBool swap, uint64_t *local, char msg[], PetscErrorCode *code)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  PetscBool     hit = (PetscBool)(h5->fposted && h5->fslot == slot && h5->fstep == k && h5->fwritten == h5->written[slot]);
  char          where[RW_H5_WHERELEN];
  PetscScalar  *a;
  herr_t        status;
  int           err;

  PetscFunctionBegin;
  if (hit) {
    err = RwStoreHDF5PrefetchWait(store);
    if (err && !msg[0]) {
      RwStoreHDF5Where(store, slot, k, where, sizeof(where));
      snprintf(msg, RW_H5_MSGLEN, "reading %s failed: %s in the prefetching reader: %s%s", where, h5->reader.failed, strerror(err), err == EIO ? " (the file ends inside the checkpoint: truncated?)" : "");
      *code = PETSC_ERR_FILE_READ;
    }
    PetscCall(RwStoreHDF5TakePrefetch(store, u, swap));
    *local = h5->reader.local;
    store->counts.prefetch_hits++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayWrite(*u, &a));
  status = H5Dread(h5->dset[slot], H5T_NATIVE_DOUBLE, h5->memspace, h5->filespace, h5->rdxpl, a);
  if (!msg[0] && status < 0) {
    PetscCall(RwStoreHDF5Why(store, slot, k, RW_H5_READ, status, msg));
    *code = PETSC_ERR_FILE_READ;
  }
  *local = RwStoreChecksumBlock_Private(store, h5->M, h5->start, h5->count, h5->dof, a);
  PetscCall(VecRestoreArrayWrite(*u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Only a read of the slot being written waits for its write (and settles
   it); the writer runs on beside a read of another slot, whose bytes it
   does not touch */
static PetscErrorCode RwStoreHDF5Read(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u, PetscBool swap)
{
  RwStore_HDF5  *h5                = (RwStore_HDF5 *)store->data;
  char           msg[RW_H5_MSGLEN] = "", where[RW_H5_WHERELEN];
  uint64_t       recorded = 0, sum, local = 0;
  PetscErrorCode code     = PETSC_ERR_FILE_UNEXPECTED;
  herr_t         put      = 0;

  PetscFunctionBegin;
  if (h5->pending && h5->pslot == slot) PetscCall(RwStoreHDF5SettleDefer(store, &put));
  if (put < 0) PetscCall(RwStoreHDF5Why(store, h5->pslot, h5->pstep, RW_H5_WRITE, put, msg));
  /* one reduction for the record's verdict, the read's and the data's checksum:
     each rank reads its own part (independent I/O, no exchange between ranks) */
  if (!msg[0]) PetscCall(RwStoreHDF5CheckRecord(store, slot, k, &recorded, msg));
  if (h5->packed) {
    PetscCall(RwStoreHDF5PackedRead(store, slot, k, *u, msg));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwStoreHDF5ReadData(store, slot, k, u, swap, &local, msg, &code));
  PetscCall(RwStoreHDF5AgreeSum(store, code, msg, local, &sum));
  if (sum != recorded) { /* the same verdict on every rank of a world file */
    RwStoreHDF5Where(store, slot, k, where, sizeof(where));
    snprintf(msg, sizeof(msg), "%s: checksum 0x%016llx of the data read differs from 0x%016llx recorded: the file is corrupted", where, (unsigned long long)sum, (unsigned long long)recorded);
  }
  if (h5->comm == RW_H5_NODE) PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN)); /* another node may differ */
  else PetscCheck(!msg[0], PetscObjectComm((PetscObject)store), PETSC_ERR_FILE_UNEXPECTED, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreRead_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Read(store, slot, k, &u, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A read that gives the caller the prefetch buffer itself, when it holds the slot */
PetscErrorCode RwStoreReadSwap_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Read(store, slot, k, u, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A slot holds a step when its file marks it valid; a slot marked valid
   whose record is damaged is refused here, before anything trusts its step.
   Node files answer for their node only, so a step counts when every node's
   file holds it */
PetscErrorCode RwStoreGetValidSteps_HDF5(RwStore store, PetscInt64 steps[])
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)store);
  PetscInt64 *lo, *hi;
  RwH5Record  r;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  for (PetscInt64 i = 0; i < store->slots; i++) {
    char msg[RW_H5_MSGLEN] = "";

    PetscCall(RwStoreHDF5GetRecord(store, i, -1, &r, msg));
    steps[i] = r.valid ? (PetscInt64)r.step : -1;
    PetscCall(RwErrorAgree(comm, RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN));
  }
  PetscCall(PetscMalloc2(store->slots, &lo, store->slots, &hi));
  PetscCallMPI(MPI_Allreduce(steps, lo, (PetscMPIInt)store->slots, MPIU_INT64, MPI_MIN, comm));
  PetscCallMPI(MPI_Allreduce(steps, hi, (PetscMPIInt)store->slots, MPIU_INT64, MPI_MAX, comm));
  for (PetscInt64 i = 0; i < store->slots; i++) steps[i] = lo[i] == hi[i] ? lo[i] : -1;
  PetscCall(PetscFree2(lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integers kept with a slot's checkpoint, as the file holds them, once
   its record checksum vouches for them */
PetscErrorCode RwStoreGetAttachment_HDF5(RwStore store, PetscInt64 slot, PetscInt64 data[])
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  RwH5Record    r;

  PetscFunctionBegin;
  if (!store->nattach) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreHDF5Settle(store));
  PetscCall(RwStoreHDF5GetValidRecord(store, slot, store->step[slot], &r, msg));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN));
  PetscCall(PetscArraycpy(data, h5->attach, store->nattach));
  PetscFunctionReturn(PETSC_SUCCESS);
}
