/*
  The hdf5 store's set-up: the global grid and this rank's block, the ranks
  that share a file, each rank's part of a dataset, and a new file with every
  dataset and attribute created and allocated, so that the time loop only
  writes.  A file reopened for a restart is checked in h5restart.c.
*/
#include "hdf5impl.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <petscdmda.h>

/* The global grid and this rank's block, from the template's DMDA */
static PetscErrorCode RwStoreHDF5Layout(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  DM            dm;
  PetscBool     isda = PETSC_FALSE;
  PetscInt      lo, hi, nlocal;

  PetscFunctionBegin;
  PetscCall(VecGetDM(store->templ, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  for (int d = 0; d < 3; d++) {
    h5->M[d]     = 1;
    h5->start[d] = 0;
    h5->count[d] = 1;
  }
  if (isda) {
    PetscCall(DMDAGetInfo(dm, &h5->dim, &h5->M[0], &h5->M[1], &h5->M[2], NULL, NULL, NULL, &h5->dof, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(dm, &h5->start[0], &h5->start[1], &h5->start[2], &h5->count[0], &h5->count[1], &h5->count[2]));
  } else { /* a plain vector: a 1D grid in the order of its ownership ranges */
    PetscCall(VecGetSize(store->templ, &h5->M[0]));
    PetscCall(VecGetOwnershipRange(store->templ, &lo, &hi));
    h5->dim      = 1;
    h5->dof      = 1;
    h5->start[0] = lo;
    h5->count[0] = hi - lo;
  }
  h5->n = h5->count[0] * h5->count[1] * h5->count[2] * h5->dof;
  PetscCall(VecGetLocalSize(store->templ, &nlocal));
  PetscCheck(nlocal == h5->n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The store's template has %" PetscInt_FMT " local values but its DMDA block has %" PetscInt_FMT, nlocal, h5->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ranks sharing a file and its name: ck.h5 for all ranks, ck-node<i>.h5
   per node; a tagged store's ck-m3.h5, ck-m3-node<i>.h5 */
static PetscErrorCode RwStoreHDF5FileComm(RwStore store)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)store), leaders;
  PetscMPIInt   rank, frank, node = 0, nodes = 1;
  size_t        len;
  PetscBool     h5ext;
  char          file[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(RwFileNameTag(h5->file, h5->tag, file, sizeof(file)));
  PetscCall(PetscStrncpy(h5->path, file, sizeof(h5->path)));
  if (h5->comm == RW_H5_WORLD) {
    PetscCallMPI(MPI_Comm_dup(comm, &h5->fcomm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &h5->fcomm));
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  /* nodes are numbered in the order of their first ranks */
  PetscCallMPI(MPI_Comm_split(comm, frank ? MPI_UNDEFINED : 0, rank, &leaders));
  if (leaders != MPI_COMM_NULL) {
    PetscCallMPI(MPI_Comm_rank(leaders, &node));
    PetscCallMPI(MPI_Comm_size(leaders, &nodes));
    PetscCallMPI(MPI_Comm_free(&leaders));
  }
  PetscCallMPI(MPI_Bcast(&node, 1, MPI_INT, 0, h5->fcomm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nodes, 1, MPI_INT, MPI_MAX, comm));
  h5->node  = node;
  h5->nodes = nodes;
  PetscCall(PetscStrendswith(file, ".h5", &h5ext));
  PetscCall(PetscStrlen(file, &len));
  if (h5ext) len -= 3;
  PetscCall(PetscSNPrintf(h5->path, sizeof(h5->path), "%.*s-node%d%s", (int)len, file, node, h5ext ? ".h5" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The datasets' shape and this rank's part: its DMDA block in a grid-shaped
   dataset (z, y, x, then the component when interleaved; the component
   first, then z, y, x in planes), or its contiguous run, in rank order, in a
   node file's 1D dataset */
static PetscErrorCode RwStoreHDF5Selection(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  PetscInt64    n = h5->n, offset = 0, total = 0;
  PetscMPIInt   frank;
  PetscBool     planes = (PetscBool)(RwH5StateLayout(store) == RW_STORE_STATE_PLANES);

  PetscFunctionBegin;
  if (h5->comm == RW_H5_NODE) {
    PetscCallMPI(MPI_Exscan(&n, &offset, 1, MPIU_INT64, MPI_SUM, h5->fcomm));
    PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
    if (!frank) offset = 0; /* MPI leaves rank 0's result undefined */
    PetscCallMPI(MPI_Allreduce(&n, &total, 1, MPIU_INT64, MPI_SUM, h5->fcomm));
    h5->frank     = 1;
    h5->fdims[0]  = (hsize_t)total;
    h5->fstart[0] = (hsize_t)offset;
    h5->fcount[0] = (hsize_t)n;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  h5->frank = 0;
  if (planes) { /* component first: each component's values a field of the grid's shape */
    h5->fdims[0]  = (hsize_t)h5->dof;
    h5->fstart[0] = 0;
    h5->fcount[0] = (hsize_t)h5->dof;
    h5->frank     = 1;
  }
  for (PetscInt d = h5->dim - 1; d >= 0; d--, h5->frank++) {
    h5->fdims[h5->frank]  = (hsize_t)h5->M[d];
    h5->fstart[h5->frank] = (hsize_t)h5->start[d];
    h5->fcount[h5->frank] = (hsize_t)h5->count[d];
  }
  if (h5->dof > 1 && !planes) {
    h5->fdims[h5->frank]  = (hsize_t)h5->dof;
    h5->fstart[h5->frank] = 0;
    h5->fcount[h5->frank] = (hsize_t)h5->dof;
    h5->frank++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file is this run's until it closes: a second run on it is refused
   before it could truncate it or read its half-written checkpoints */
PetscErrorCode RwStoreHDF5Lock(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          what[RW_H5_WHERELEN], opt[256];
  PetscMPIInt   frank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  RwStoreHDF5Option(store, "-rw_store_hdf5_file", opt, sizeof(opt));
  PetscCall(PetscSNPrintf(what, sizeof(what), "Checkpoint file %s (%s)", h5->path, opt));
  PetscCall(RwFileLockAcquire(PetscObjectComm((PetscObject)store), (PetscBool)!frank, h5->path, what, &h5->lock));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 of each file tries what HDF5 is about to do, so that a bad path is
   reported with the system's reason and the option that chose it */
PetscErrorCode RwStoreHDF5CheckPath(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "", opt[256];
  PetscMPIInt   frank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  if (!frank) {
    int fd = -1, ok;

    if (store->restart) ok = access(h5->path, R_OK | W_OK) == 0;
    else if (!h5->overwrite && !access(h5->path, F_OK)) {
      RwStoreHDF5Option(store, "-rw_store_hdf5_file", opt, sizeof(opt));
      snprintf(msg, sizeof(msg), "Checkpoint file %s (%s) exists and may hold checkpoints a run kept: resume from it with -rw_restart, replace it with -rw_store_overwrite, or choose another file; it is left as it is", h5->path, opt);
      ok = 1;
    } else ok = (fd = open(h5->path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0;
    if (!ok) {
      RwStoreHDF5Option(store, "-rw_store_hdf5_file", opt, sizeof(opt));
      snprintf(msg, sizeof(msg), "Cannot %s checkpoint file %s%s (%s %s): %s", store->restart ? "reopen" : "create", h5->path, store->restart ? " for a restart" : "", opt, h5->file, strerror(errno));
    }
    if (fd >= 0) close(fd);
  }
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_OPEN, msg, RW_H5_MSGLEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file format of HDF5 1.8 (superblock 2, object headers 2): every piece
   of metadata carries a checksum that HDF5 verifies when it reads it, so a
   damaged header is refused instead of decoded; attributes stay in the
   object header (compact), which that checksum covers */
#define RW_H5_MAX_COMPACT 64
static PetscErrorCode RwStoreHDF5Format(hid_t fapl, hid_t ocpl)
{
  PetscFunctionBegin;
  if (fapl >= 0) RwCallHDF5(H5Pset_libver_bounds, (fapl, H5F_LIBVER_V18, H5F_LIBVER_V18));
  if (ocpl >= 0) RwCallHDF5(H5Pset_attr_phase_change, (ocpl, RW_H5_MAX_COMPACT, RW_H5_MAX_COMPACT - 8));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective MPI-IO, collective metadata, and the alignment striped file systems want */
PetscErrorCode RwStoreHDF5OpenFile(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  hid_t         fapl, fcpl, es = H5I_INVALID_HID;

  PetscFunctionBegin;
  if (store->restart) PetscCall(RwStoreHDF5CheckSuperblock(store));
  RwCallHDF5Return(fapl, H5Pcreate, (H5P_FILE_ACCESS));
  RwCallHDF5Return(fcpl, H5Pcreate, (H5P_FILE_CREATE));
  RwCallHDF5(H5Pset_fapl_mpio, (fapl, h5->fcomm, MPI_INFO_NULL));
  RwCallHDF5(H5Pset_all_coll_metadata_ops, (fapl, 1));
  RwCallHDF5(H5Pset_coll_metadata_write, (fapl, 1));
  PetscCall(RwStoreHDF5Format(fapl, fcpl));
  if (h5->alignment > 0) RwCallHDF5(H5Pset_alignment, (fapl, (hsize_t)h5->alignment, (hsize_t)h5->alignment));
  if (store->restart) h5->fid = H5Fopen(h5->path, H5F_ACC_RDWR, fapl);
  else h5->fid = H5Fcreate(h5->path, H5F_ACC_TRUNC, fcpl, fapl);
  if (h5->fid < 0) es = H5Eget_current_stack(); /* HDF5's reason, which the closes would clear */
  RwCallHDF5(H5Pclose, (fapl));
  RwCallHDF5(H5Pclose, (fcpl));
  if (es >= 0) H5Eset_current_stack(es);
  if (store->restart) PetscCall(RwStoreHDF5OpenFailed(store, (PetscBool)(h5->fid < 0)));
  else RwH5Try(store, -1, 0, RW_H5_CREATE, h5->fid);
  h5->opened = PETSC_TRUE;
  h5->owned  = (PetscBool)!store->restart;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Node files record every rank's block, since only the same blocks can read them back */
PetscErrorCode RwStoreHDF5GatherBlocks(RwStore store, int64_t **blocks, PetscMPIInt *nf)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  int64_t       mine[6];

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    mine[d]     = h5->start[d];
    mine[3 + d] = h5->count[d];
  }
  PetscCallMPI(MPI_Comm_size(h5->fcomm, nf));
  PetscCall(PetscMalloc1(6 * (size_t)*nf, blocks));
  PetscCallMPI(MPI_Allgather(mine, 6, MPI_INT64_T, *blocks, 6, MPI_INT64_T, h5->fcomm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The root's "solve" (fixed size, so that a new solve rewrites it in place) and "complete" */
static herr_t RwH5NewSolve(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          solve[RW_H5_SOLVELEN] = "";
  int           complete = 0;
  hid_t         t = RwH5StringType(RW_H5_SOLVELEN);
  herr_t        s;

  if (t < 0) return -1;
  if (store->solve) strncpy(solve, store->solve, sizeof(solve) - 1);
  s = RwH5AttrNew(h5->fid, "solve", t, t, 0, solve);
  if (H5Tclose(t) < 0) s = -1;
  return s < 0 ? -1 : RwH5AttrNew(h5->fid, "complete", H5T_STD_I32LE, H5T_NATIVE_INT, 0, &complete);
}

static herr_t RwH5NewRoot(RwStore store, const int64_t blocks[], PetscMPIInt nf)
{
  RwStore_HDF5 *h5    = (RwStore_HDF5 *)store->data;
  int64_t       slots = store->slots, node = h5->node, nodes = h5->nodes;
  herr_t        s     = 0;

  s |= RwH5AttrNewString(h5->fid, "format", RW_H5_FORMAT);
  s |= RwH5AttrNewString(h5->fid, "identity", store->identity ? store->identity : "");
  s |= RwH5AttrNew(h5->fid, "slots", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &slots);
  s |= RwH5AttrNew(h5->fid, "generation", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &h5->generation);
  h5->hasgen = PETSC_TRUE;
  s |= RwH5NewSolve(store);
  s |= RwH5AttrNewString(h5->fid, "layout", RwStoreHDF5Comms[h5->comm]);
  s |= RwH5AttrNewString(h5->fid, "state_layout", RwStoreStateLayouts[RwH5StateLayout(store)]);
  if (h5->comm == RW_H5_NODE) {
    s |= RwH5AttrNew(h5->fid, "node", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &node);
    s |= RwH5AttrNew(h5->fid, "nodes", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &nodes);
  }
  if (blocks) s |= RwH5AttrNew(h5->fid, "blocks", H5T_STD_I64LE, H5T_NATIVE_INT64, 6 * (hsize_t)nf, blocks);
  s |= RwH5PackedNewRoot(store, h5->fid);
  return s < 0 ? -1 : 0;
}

/* One slot's dataset with all its attributes; the changing ones say "nothing valid yet" */
static herr_t RwH5NewSlot(RwStore store, PetscInt64 slot, hid_t space, hid_t dcpl)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          name[64];
  int64_t       dim = h5->dim, dof = h5->dof, grid[3] = {h5->M[0], h5->M[1], h5->M[2]}, step = -1;
  double        time     = NAN;
  uint64_t      checksum = 0, record = RwH5RecordSum(slot, step, time, checksum, store->nattach, store->attach);
  int           valid    = 0;
  hid_t         d;
  herr_t        s = 0;

  snprintf(name, sizeof(name), "slot_%" PetscInt64_FMT, slot);
  h5->dset[slot] = d = H5Dcreate2(h5->fid, name, h5->packed ? H5T_STD_U8LE : H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (d < 0) return -1;
  if (h5->packed) s |= RwH5PackedNewSlot(store, d);
  s |= RwH5AttrNewString(d, "model", store->modeltype ? store->modeltype : "unknown");
  s |= RwH5AttrNew(d, "dim", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &dim);
  s |= RwH5AttrNew(d, "grid", H5T_STD_I64LE, H5T_NATIVE_INT64, (hsize_t)dim, grid);
  s |= RwH5AttrNew(d, "dof", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &dof);
  s |= RwH5AttrNew(d, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &step);
  s |= RwH5AttrNew(d, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &time);
  s |= RwH5AttrNew(d, "checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64, 0, &checksum);
  s |= RwH5AttrNew(d, "valid", H5T_STD_I32LE, H5T_NATIVE_INT, 0, &valid);
  if (store->nattach) s |= RwH5AttrNew(d, "attachment", H5T_STD_I64LE, H5T_NATIVE_INT64, (hsize_t)store->nattach, store->attach);
  s |= RwH5AttrNew(d, "record_checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64, 0, &record);
  return s < 0 ? -1 : 0;
}

/* A new file: root attributes and every slot's dataset, allocated now (no fill:
   the space is written by the first store) so the time loop creates nothing */
static PetscErrorCode RwStoreHDF5CreateFile(RwStore store)
{
  RwStore_HDF5 *h5     = (RwStore_HDF5 *)store->data;
  int64_t      *blocks = NULL;
  PetscMPIInt   nf     = 0;
  hid_t         space, dcpl;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5OpenFile(store));
  if (h5->comm == RW_H5_NODE || h5->packed) PetscCall(RwStoreHDF5GatherBlocks(store, &blocks, &nf)); /* only these blocks can read the file back */
  RwH5Try(store, -1, 0, RW_H5_CREATE, RwH5NewRoot(store, blocks, nf));
  PetscCall(PetscFree(blocks));
  RwCallHDF5Return(space, H5Screate_simple, (h5->frank, h5->fdims, NULL));
  RwCallHDF5Return(dcpl, H5Pcreate, (H5P_DATASET_CREATE));
  RwCallHDF5(H5Pset_alloc_time, (dcpl, H5D_ALLOC_TIME_EARLY));
  RwCallHDF5(H5Pset_fill_time, (dcpl, H5D_FILL_TIME_NEVER));
  PetscCall(RwStoreHDF5Format(H5I_INVALID_HID, dcpl));
  for (PetscInt64 i = 0; i < store->slots; i++) RwH5Try(store, i, -1, RW_H5_CREATE, RwH5NewSlot(store, i, space, dcpl));
  RwCallHDF5(H5Pclose, (dcpl));
  RwCallHDF5(H5Sclose, (space));
  RwH5Try(store, -1, 0, RW_H5_CREATE, H5Fflush(h5->fid, H5F_SCOPE_LOCAL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new file that could not be made whole (a full disk, a quota) holds no
   checkpoint: it is removed, not left for a restart to trip over */
static PetscErrorCode RwStoreHDF5CreateNew(RwStore store)
{
  RwStore_HDF5  *h5 = (RwStore_HDF5 *)store->data;
  PetscErrorCode ierr;
  PetscMPIInt    frank;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5CheckPath(store)); /* from here on the file is this run's */
  ierr = RwStoreHDF5CreateFile(store);
  if (ierr) {
    PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
    if (!frank) (void)unlink(h5->path);
    h5->owned = PETSC_FALSE;
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's part of a dataset, and collective transfers */
static PetscErrorCode RwStoreHDF5Spaces(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  hsize_t       n  = h5->packed ? (hsize_t)h5->part : (hsize_t)PetscMax(h5->n, 1);

  PetscFunctionBegin;
  RwCallHDF5Return(h5->memspace, H5Screate_simple, (1, &n, NULL));
  RwCallHDF5Return(h5->filespace, H5Screate_simple, (h5->frank, h5->fdims, NULL));
  if (h5->n) RwCallHDF5(H5Sselect_hyperslab, (h5->filespace, H5S_SELECT_SET, h5->fstart, NULL, h5->fcount, NULL));
  else {
    RwCallHDF5(H5Sselect_none, (h5->memspace));
    RwCallHDF5(H5Sselect_none, (h5->filespace));
  }
  RwCallHDF5Return(h5->dxpl, H5Pcreate, (H5P_DATASET_XFER));
  RwCallHDF5(H5Pset_dxpl_mpio, (h5->dxpl, H5FD_MPIO_COLLECTIVE));
  RwCallHDF5Return(h5->rdxpl, H5Pcreate, (H5P_DATASET_XFER));
  RwCallHDF5(H5Pset_dxpl_mpio, (h5->rdxpl, H5FD_MPIO_INDEPENDENT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreSetUp_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Layout(store));
  PetscCall(RwStoreHDF5FileComm(store));
  if (store->codec.type != RW_STORE_COMPRESS_NONE) PetscCall(RwStoreHDF5PackedSetUp(store)); /* h5packed.c */
  else PetscCall(RwStoreHDF5Selection(store));
  PetscCall(PetscMalloc1(PetscMax(store->slots, 1), &h5->dset));
  PetscCall(PetscMalloc1(PetscMax(store->nattach, 1), &h5->attach));
  for (PetscInt64 i = 0; i < store->slots; i++) h5->dset[i] = H5I_INVALID_HID;
  PetscCall(RwStoreHDF5Lock(store));
  if (store->restart) PetscCall(RwStoreHDF5ReopenFile(store));
  else PetscCall(RwStoreHDF5CreateNew(store));
  PetscCall(RwStoreHDF5Spaces(store));
  PetscCall(RwStoreHDF5StartWriter(store));
  /* without the copies only where a thread writes or reads a vector of the store's */
  store->ops->write    = h5->packed ? RwStoreWritePacked_HDF5 : RwStoreWrite_HDF5;
  store->ops->take     = h5->async && !h5->packed ? RwStoreTake_HDF5 : NULL;
  store->ops->readswap = h5->prefetch ? RwStoreReadSwap_HDF5 : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
