/*
  The hdf5 store's view: the file, the slots' shape, and what the writes,
  the background writers, the reads and the prefetch did, summed or timed
  over the ranks.
*/
#include "hdf5impl.h"

/* "<MB> in <s> s (<MB/s> MB/s)" for n transfers of the whole state, timed on the slowest rank */
static PetscErrorCode RwStoreHDF5Rate(RwStore store, PetscInt64 n, PetscLogDouble t, char buf[], size_t len)
{
  PetscInt       N;
  PetscLogDouble tmax;
  double         mb;

  PetscFunctionBegin;
  PetscCall(VecGetSize(store->templ, &N));
  PetscCall(MPIU_Allreduce(&t, &tmax, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, PetscObjectComm((PetscObject)store)));
  mb = (double)n * (double)N * sizeof(PetscScalar) / 1e6;
  PetscCall(PetscSNPrintf(buf, len, "%.4g MB in %.3g s (%.4g MB/s)", mb, tmax, tmax > 0 ? mb / tmax : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the background writer did and how much of it the sweep did not wait for, summed over ranks */
static PetscErrorCode RwStoreHDF5ViewAsync(RwStore store, PetscViewer viewer)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  double        mine[3] = {(double)store->counts.bytes_async, store->counts.seconds_async, store->counts.seconds_wait}, all[3];

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(mine, all, 3, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)store)));
  if (!h5->async) PetscCall(PetscViewerASCIIPrintf(viewer, "synchronous writes (-rw_store_hdf5_async 0)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "asynchronous: %.4g MB written by the background writers in %.3g s, the sweep waited %.3g s for them: overlap %.1f%%\n", all[0] / 1e6, all[1], all[2], all[1] > 0 ? 100.0 * PetscMax(0.0, 1.0 - all[2] / all[1]) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How many reads the prefetch served and how much of its reading the sweep did not wait for, summed over ranks */
static PetscErrorCode RwStoreHDF5ViewPrefetch(RwStore store, PetscViewer viewer)
{
  RwStore_HDF5 *h5      = (RwStore_HDF5 *)store->data;
  double        mine[4] = {(double)store->counts.prefetches, (double)store->counts.prefetch_hits, store->counts.seconds_prefetch, store->counts.seconds_prefetch_wait}, all[4];
  PetscMPIInt   size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)store), &size));
  PetscCall(MPIU_Allreduce(mine, all, 4, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)store)));
  if (!h5->prefetch) PetscCall(PetscViewerASCIIPrintf(viewer, "no prefetch (-rw_store_hdf5_prefetch 0, synchronous writes or compressed slots)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "prefetch: %.0f of %.0f prefetched checkpoints used by the reads (the others were rewritten first), read by the background readers in %.3g s, the sweep waited %.3g s for them: overlap %.1f%%\n", all[1] / size, all[0] / size, all[2], all[3], all[2] > 0 ? 100.0 * PetscMax(0.0, 1.0 - all[3] / all[2]) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreView_HDF5(RwStore store, PetscViewer viewer)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          shape[128], rate[128], align[64] = "";

  PetscFunctionBegin;
  if (!store->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "file %s%s%s (%s), not set up\n", h5->file, h5->tag[0] ? " tagged " : "", h5->tag, RwStoreHDF5Comms[h5->comm]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h5->comm == RW_H5_NODE) PetscCall(PetscViewerASCIIPrintf(viewer, "one file per node: %" PetscInt_FMT " files like %s, %s at the end\n", h5->nodes, h5->path, h5->keep ? "kept" : "removed"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "file %s shared by all ranks, %s at the end\n", h5->path, h5->keep ? "kept" : "removed"));
  RwH5Shape(h5->frank, h5->fdims, shape, sizeof(shape));
  if (h5->alignment) PetscCall(PetscSNPrintf(align, sizeof(align), ", aligned to %" PetscInt_FMT " bytes", h5->alignment));
  if (h5->packed) PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " compressed slots (%s): datasets /slot_<i> of %s bytes, %zu a rank%s for states of %" PetscInt64_FMT " bytes%s%s\n", store->slots, RwStoreCompressTypes[store->codec.type], shape, h5->part, store->partcap ? " (planned at the compressed size)" : "", store->bytes, align, store->restart ? ", reopened for a restart" : ""));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " slots: datasets /slot_<i> of %s doubles%s%s\n", store->slots, shape, align, store->restart ? ", reopened for a restart" : ""));
  if (RwH5StateLayout(store) == RW_STORE_STATE_PLANES) PetscCall(PetscViewerASCIIPrintf(viewer, "states in planes (root attribute state_layout): each component a field of the grid's shape\n"));
  PetscCall(RwStoreHDF5Rate(store, store->counts.writes, store->counts.seconds_write, rate, sizeof(rate)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "written: %" PetscInt64_FMT " checkpoints, %s, one fsync each\n", store->counts.writes, rate));
  PetscCall(RwStoreHDF5ViewAsync(store, viewer));
  PetscCall(RwStoreHDF5Rate(store, store->counts.reads, store->counts.seconds_read, rate, sizeof(rate)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "read: %" PetscInt64_FMT " checkpoints, %s, checksums verified\n", store->counts.reads, rate));
  PetscCall(RwStoreHDF5ViewPrefetch(store, viewer));
  if (h5->packed) PetscCall(RwCodecView(store, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
