/*
  A checkpoint file reopened for a restart (-rw_restart): nothing in it is
  trusted before it is checked.  The superblock before HDF5 decodes it, then
  the root (format, state layout, problem, slots, layout, a node file's
  blocks), each slot's dataset, and the solve it holds: a file resumes only
  the solve that was interrupted, and another problem's or solve's file, or
  a file of states in another layout, is left as it is.
*/
#include "hdf5impl.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rank 0 of a file to reopen looks at its superblock before HDF5 does: a
   file without checksummed metadata (an older rewind's, or not rewind's) is
   refused unread, since HDF5 1.10 can crash decoding a damaged header */
PetscErrorCode RwStoreHDF5CheckSuperblock(RwStore store)
{
  RwStore_HDF5       *h5                = (RwStore_HDF5 *)store->data;
  static const char   sig[8]            = {'\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n'};
  char                msg[RW_H5_MSGLEN] = "";
  unsigned char       sb[9];
  PetscMPIInt         frank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  if (!frank) {
    int         fd = open(h5->path, O_RDONLY);
    struct stat st;
    ssize_t     got = fd < 0 ? -1 : read(fd, sb, sizeof(sb));

    if (fd < 0 || fstat(fd, &st)) snprintf(msg, sizeof(msg), "Cannot read checkpoint file %s for a restart: %s", h5->path, strerror(errno));
    else if (got < (ssize_t)sizeof(sb) || memcmp(sb, sig, sizeof(sig))) snprintf(msg, sizeof(msg), "File %s is truncated or not an HDF5 file: %lld bytes, without HDF5's signature at the start", h5->path, (long long)st.st_size);
    else if (sb[8] < 2) snprintf(msg, sizeof(msg), "File %s is not a rewind checkpoint file of this version (format \"%s\"): its HDF5 superblock has version %d, expected 2 or more, whose metadata carries checksums; it is not opened, since HDF5 could not verify it", h5->path, RW_H5_FORMAT, (int)sb[8]);
    if (fd >= 0) close(fd);
  }
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* H5Fopen failed on some rank: most often a file cut short (a full disk, a
   copy interrupted) or damaged metadata; say so with its size and HDF5's
   reason.  Where MPI-IO itself could not open the file, HDF5 read none of
   it: that says nothing of the file (an Open MPI singleton run beside
   others that share its session directory fails so, t307) */
PetscErrorCode RwStoreHDF5OpenFailed(RwStore store, PetscBool failed)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "", why[256];
  struct stat   st;

  PetscFunctionBegin;
  if (failed) {
    PetscCall(RwHDF5ErrorMessage(why, sizeof(why)));
    if (stat(h5->path, &st)) snprintf(msg, sizeof(msg), "opening file %s failed: %s (%s)", h5->path, why, strerror(errno));
    else if (strstr(why, "MPI_File_open failed")) snprintf(msg, sizeof(msg), "MPI-IO could not open checkpoint file %s (%lld bytes) for a restart, so none of it was read: %s; the MPI library's own message, above, says why", h5->path, (long long)st.st_size, why);
    else snprintf(msg, sizeof(msg), "File %s is truncated, damaged or not an HDF5 file: %lld bytes, and HDF5 cannot open it: %s", h5->path, (long long)st.st_size, why);
  }
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_OPEN, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A node file can only be read back by the ranks, with the blocks, that wrote it */
static PetscErrorCode RwStoreHDF5CheckBlocks(RwStore store, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  int64_t      *mine, *rec;
  PetscMPIInt   nf, frank;
  herr_t        s;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5GatherBlocks(store, &mine, &nf));
  PetscCall(PetscMalloc1(6 * (size_t)nf, &rec));
  s = RwH5AttrGet(h5->fid, "blocks", H5T_NATIVE_INT64, 6 * (hsize_t)nf, rec);
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  RwH5Try(store, -1, 0, RW_H5_OPEN, s);
  if (s > 0 || memcmp(rec + 6 * frank, mine + 6 * frank, 6 * sizeof(int64_t)))
    snprintf(msg, RW_H5_MSGLEN, "%s %s was written with another decomposition than this run's %d ranks%s (rank %d's block differs): restoring from %s needs the same ranks, nodes and grid decomposition%s", h5->packed ? "Compressed checkpoint file" : "Node file", h5->path, nf, h5->comm == RW_H5_NODE ? " on this node" : "", frank, h5->packed ? "compressed slots (-rw_store_compress), whose bytes are each rank's block," : "node files (-rw_store_hdf5_comm node)", h5->packed ? "" : "; use -rw_store_hdf5_comm world to restore on other rank counts");
  PetscCall(PetscFree(mine));
  PetscCall(PetscFree(rec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The root's "state_layout" (RwStoreSetStateLayout()); a file without one
   was written before layouts were recorded, when every state interleaved */
static herr_t RwH5GetStateLayout(hid_t fid, char buf[], size_t len, int *has)
{
  htri_t e = H5Aexists(fid, "state_layout");

  *has = e > 0;
  if (e < 0) return -1;
  if (!e) {
    snprintf(buf, len, "%s", RwStoreStateLayouts[RW_STORE_STATE_INTERLEAVED]);
    return 0;
  }
  return RwH5AttrGetString(fid, "state_layout", buf, len);
}

/* The root of a file to restart from: ours, of this state layout, this problem's, as many slots, same layout */
static PetscErrorCode RwStoreHDF5CheckRoot(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "", format[64], layout[16], statelayout[32], *identity;
  size_t        len;
  int64_t       slots = -1;
  herr_t        gen;
  int           hasattr = 0;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(store->identity, &len));
  PetscCall(PetscMalloc1(len + 2, &identity)); /* one more: a longer identity in the file shows as different */
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "format", format, sizeof(format)));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "identity", identity, len + 2));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "layout", layout, sizeof(layout)));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5GetStateLayout(h5->fid, statelayout, sizeof(statelayout), &hasattr));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "slots", H5T_NATIVE_INT64, 0, &slots));
  RwH5TryReturn(gen, store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "generation", H5T_NATIVE_INT64, 0, &h5->generation));
  h5->hasgen = (PetscBool)(gen == 0);
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "solve", h5->filesolve, sizeof(h5->filesolve)));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "complete", H5T_NATIVE_INT, 0, &h5->filecomplete));
  if (strcmp(format, RW_H5_FORMAT)) snprintf(msg, sizeof(msg), "File %s is not a rewind checkpoint file: its root attribute \"format\" is \"%s\", expected \"%s\"", h5->path, format, RW_H5_FORMAT);
  else if (strcmp(statelayout, RwStoreStateLayouts[RwH5StateLayout(store)])) snprintf(msg, sizeof(msg), "File %s holds states in the %s layout (root attribute \"state_layout\"%s), this run's model keeps them in the %s layout: it cannot be read back as this run's states; it is left as it is", h5->path, statelayout, hasattr ? "" : " absent: a file written before layouts were recorded", RwStoreStateLayouts[RwH5StateLayout(store)]);
  else if (strcmp(identity, store->identity)) {
    char diff[RW_H5_MSGLEN / 2];

    RwIdentityDiff(identity, store->identity, diff, sizeof(diff));
    snprintf(msg, sizeof(msg), "File %s belongs to a different problem (%s); it is left as it is", h5->path, diff);
  }
  else if (strcmp(layout, RwStoreHDF5Comms[h5->comm])) snprintf(msg, sizeof(msg), "File %s was written with -rw_store_hdf5_comm %s, this run uses %s", h5->path, layout, RwStoreHDF5Comms[h5->comm]);
  else PetscCall(RwStoreHDF5PackedCheckRoot(store, msg)); /* before the slots: another codec or part size also changes their count */
  if (!msg[0] && slots != store->slots) snprintf(msg, sizeof(msg), "File %s holds %" PetscInt64_FMT " checkpoint slots, this run uses %" PetscInt64_FMT, h5->path, (PetscInt64)slots, store->slots);
  if (!msg[0] && (h5->comm == RW_H5_NODE || h5->packed)) PetscCall(RwStoreHDF5CheckBlocks(store, msg));
  PetscCall(PetscFree(identity));
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why a slot's dataset is not one of this run's states (8-byte IEEE floats,
   a simple dataspace of this shape), in msg; empty when it is */
static PetscErrorCode RwStoreHDF5CheckSlot(RwStore store, PetscInt64 slot, char msg[])
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  hid_t         dset = h5->dset[slot], space, type;
  hsize_t       dims[8];
  int           rank = -1;
  char          what[RW_H5_WHERELEN], why[RW_H5_MSGLEN] = "", have[128], want[128];
  htri_t        isfloat, hasattach;
  hssize_t      nattach = 0;

  PetscFunctionBegin;
  RwCallHDF5Return(type, H5Dget_type, (dset));
  snprintf(what, sizeof(what), "Dataset /slot_%" PetscInt64_FMT " in file %s", slot, h5->path);
  isfloat = RwH5CheckType(type, h5->packed ? H5T_NATIVE_UCHAR : H5T_NATIVE_DOUBLE, what, why, sizeof(why)); /* compressed slots are bytes */
  RwCallHDF5(H5Tclose, (type));
  RwCallHDF5Return(space, H5Dget_space, (dset));
  if (H5Sget_simple_extent_type(space) == H5S_SIMPLE) rank = H5Sget_simple_extent_ndims(space);
  if (rank > 0 && rank <= 8) RwCallHDF5Return(rank, H5Sget_simple_extent_dims, (space, dims, NULL));
  RwCallHDF5(H5Sclose, (space));
  RwCallHDF5Return(hasattach, H5Aexists, (dset, "attachment"));
  if (hasattach > 0) { /* what the run keeps beside each state (the objective's partial sums, ...): its length is the layout's */
    hid_t a, sp;

    RwCallHDF5Return(a, H5Aopen, (dset, "attachment", H5P_DEFAULT));
    RwCallHDF5Return(sp, H5Aget_space, (a));
    RwCallHDF5Return(nattach, H5Sget_simple_extent_npoints, (sp));
    RwCallHDF5(H5Sclose, (sp));
    RwCallHDF5(H5Aclose, (a));
  }
  if (isfloat <= 0) snprintf(msg, RW_H5_MSGLEN, "%s", why);
  else if (rank != h5->frank || memcmp(dims, h5->fdims, (size_t)rank * sizeof(hsize_t))) {
    RwH5Shape(rank < 0 || rank > 8 ? 0 : rank, dims, have, sizeof(have));
    RwH5Shape(h5->frank, h5->fdims, want, sizeof(want));
    snprintf(msg, RW_H5_MSGLEN, "%s has shape %s, but this run's states have shape %s", what, rank < 0 ? "(not a simple dataspace)" : have, want);
  } else if (nattach != (hssize_t)store->nattach)
    snprintf(msg, RW_H5_MSGLEN, "%s keeps %lld values beside its state, this run keeps %lld: it was written by another version of rewind or for an objective with other terms; it is left as it is", what, (long long)nattach, (long long)store->nattach);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slots' datasets of a file to restart from, each one of this run's states */
static PetscErrorCode RwStoreHDF5OpenSlots(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  for (PetscInt64 i = 0; i < store->slots; i++) {
    char name[64], msg[RW_H5_MSGLEN] = "";

    snprintf(name, sizeof(name), "slot_%" PetscInt64_FMT, i);
    RwH5TryReturn(h5->dset[i], store, i, -1, RW_H5_OPEN, H5Dopen2(h5->fid, name, H5P_DEFAULT));
    PetscCall(RwStoreHDF5CheckSlot(store, i, msg));
    PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A file of this problem resumes only the solve it holds.  Another solve's
   file is started over if that solve completed or left no valid slot (nothing
   is lost), and refused otherwise: it is the data of an interrupted solve */
static PetscErrorCode RwStoreHDF5CheckSolve(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)store);
  char          mine[RW_H5_SOLVELEN] = "", msg[RW_H5_MSGLEN] = "", diff[RW_H5_MSGLEN / 2];
  PetscInt64    nvalid = 0, *steps;

  PetscFunctionBegin;
  if (store->solve) PetscCall(PetscStrncpy(mine, store->solve, sizeof(mine)));
  if (!strcmp(mine, h5->filesolve)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(PetscMax(store->slots, 1), &steps));
  PetscCall(RwStoreGetValidSteps_HDF5(store, steps));
  for (PetscInt64 i = 0; i < store->slots; i++) nvalid += steps[i] >= 0;
  PetscCall(PetscFree(steps));
  RwIdentityDiff(h5->filesolve, mine, diff, sizeof(diff));
  if (h5->filecomplete == 1 || !nvalid) {
    PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: checkpoint file %s holds %s solve of this problem (%s); it has nothing to resume and is started over\n", h5->path, h5->filecomplete == 1 ? "a completed" : "no valid checkpoint of another", diff));
    for (PetscInt64 i = 0; i < store->slots; i++) store->step[i] = -1;
    PetscCall(RwStoreSetSolve_HDF5(store));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  snprintf(msg, sizeof(msg), "File %s holds %" PetscInt64_FMT " checkpoints of an interrupted solve of this problem that is not this one (%s): -rw_restart resumes only the solve that was interrupted; the file is left as it is", h5->path, nvalid, diff);
  PetscCall(RwErrorAgree(comm, RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Another problem's file is refused, and left alone */
PetscErrorCode RwStoreHDF5ReopenFile(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCheck(store->identity, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "A restart must check the file belongs to this problem: call RwStoreSetIdentity() before RwStoreSetUp()");
  PetscCall(RwStoreHDF5CheckPath(store));
  PetscCall(RwStoreHDF5OpenFile(store));
  PetscCall(RwStoreHDF5CheckRoot(store));
  PetscCall(RwStoreHDF5OpenSlots(store));
  h5->owned = PETSC_TRUE;
  PetscCall(RwStoreHDF5CheckSolve(store));
  PetscFunctionReturn(PETSC_SUCCESS);
}
