/*
  The hdf5 store's failures, agreed across ranks: every rank makes every HDF5
  call, and a failure on any rank is raised on all of them with the same
  message (RwErrorAgree() with RW_AGREE_ANY, over the store's communicator),
  naming the file, the checkpoint and HDF5's (or the system's) reason.  Also
  the reduction that carries a state's checksum and the agreement in one
  collective call, and the phrases the messages share.
*/
#include "hdf5impl.h"

/* What a failing HDF5 call was doing (RwH5Doing), for the message and the error code */
static const char *const    RwH5Verbs[] = {"creating", "opening", "writing", "reading", "closing"};
static const PetscErrorCode RwH5Codes[] = {PETSC_ERR_FILE_WRITE, PETSC_ERR_FILE_OPEN, PETSC_ERR_FILE_WRITE, PETSC_ERR_FILE_READ, PETSC_ERR_FILE_WRITE};

/* "-<prefix>rw_store_hdf5_file", as the user types it */
void RwStoreHDF5Option(RwStore store, const char name[], char buf[], size_t len)
{
  const char *prefix = ((PetscObject)store)->prefix;

  snprintf(buf, len, "-%s%s", prefix ? prefix : "", name + 1);
}

/* "checkpoint /slot_3 in file ck.h5 (step 12)"; without the step when it is
   not known (k < 0), "file ck.h5" for the file as a whole (slot < 0) */
void RwStoreHDF5Where(RwStore store, PetscInt64 slot, PetscInt64 k, char buf[], size_t len)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  if (slot < 0) snprintf(buf, len, "file %s", h5->path);
  else if (k < 0) snprintf(buf, len, "checkpoint /slot_%" PetscInt64_FMT " in file %s", slot, h5->path);
  else snprintf(buf, len, "checkpoint /slot_%" PetscInt64_FMT " in file %s (step %" PetscInt64_FMT ")", slot, h5->path, k);
}

/* A failed write most often means a full disk, a read-only file system or a quota: say which, as the file system tells */
void RwStoreHDF5WriteHint(RwStore store, char msg[], size_t len)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          why[256];

  snprintf(msg + strlen(msg), len - strlen(msg), "; the checkpoint is not valid");
  RwFileSystemReason(h5->path, why, sizeof(why));
  snprintf(msg + strlen(msg), len - strlen(msg), " (%s)", why[0] ? why : "the file system has room: is the disk over quota?");
}

/* Agrees on the status of an HDF5 call every rank made; a failure is reported
   with the file, the checkpoint and HDF5's own explanation */
PetscErrorCode RwStoreHDF5Why(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Doing doing, herr_t status, char msg[])
{
  PetscFunctionBegin;
  if (PetscUnlikely(status < 0)) {
    char where[RW_H5_WHERELEN], why[256];

    PetscCall(RwHDF5ErrorMessage(why, sizeof(why)));
    RwStoreHDF5Where(store, slot, k, where, sizeof(where));
    snprintf(msg, RW_H5_MSGLEN, "%s %s failed: %s", RwH5Verbs[doing], where, why);
    if (doing == RW_H5_WRITE) RwStoreHDF5WriteHint(store, msg, RW_H5_MSGLEN);
    else if (strstr(why, "metadata checksum")) snprintf(msg + strlen(msg), RW_H5_MSGLEN - strlen(msg), ": the file is damaged");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreHDF5Check(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Doing doing, herr_t status)
{
  char msg[RW_H5_MSGLEN] = "";

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Why(store, slot, k, doing, status, msg));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, RwH5Codes[doing], msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "4096 x 4096 x 3" */
void RwH5Shape(int rank, const hsize_t dims[], char buf[], size_t len)
{
  buf[0] = 0;
  for (int i = 0; i < rank; i++) snprintf(buf + strlen(buf), len - strlen(buf), "%s%llu", i ? " x " : "", (unsigned long long)dims[i]);
}

/* The checksum of the state over the file's ranks, from this rank's part
   local, and the agreement on msg, in one reduction when the file is the
   store's communicator's (world files): a store operation then costs one
   collective call, not two.  Node files reduce over the node, then agree. */
PetscErrorCode RwStoreHDF5AgreeSum(RwStore store, PetscErrorCode code, char msg[], uint64_t local, uint64_t *sum)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  uint64_t      in[2] = {local, msg[0] ? 1 : 0}, out[2];

  PetscFunctionBegin;
  if (h5->comm == RW_H5_NODE) {
    PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, code, msg, RW_H5_MSGLEN));
    PetscCallMPI(MPI_Allreduce(&local, sum, 1, MPI_UINT64_T, MPI_SUM, h5->fcomm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_SUM, h5->fcomm));
  if (out[1]) PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, code, msg, RW_H5_MSGLEN)); /* some rank failed: raise its message everywhere */
  *sum = out[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}
