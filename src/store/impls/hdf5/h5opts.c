/*
  The hdf5 store's options: the options database (-rw_store_hdf5_*), the
  file options a driver sets on a store it derives from another, and the tag
  an ensemble member's driver puts in its stores' file names.
*/
#include "hdf5impl.h"

const char *const RwStoreHDF5Comms[] = {"world", "node", "RwStoreHDF5Comm", "RW_H5_", NULL};

/* The file and its fate, for a store the driver derives from another (the reverse-sweep keep) */
PetscErrorCode RwStoreHDF5SetFileOptions_HDF5(RwStore store, const char file[], PetscBool keep, PetscBool overwrite)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the hdf5 store's file before RwStoreSetUp()");
  PetscCall(PetscStrncpy(h5->file, file, sizeof(h5->file)));
  h5->keep      = keep;
  h5->overwrite = overwrite;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreHDF5GetFileOptions_HDF5(RwStore store, const char **file, PetscBool *keep, PetscBool *overwrite)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  *file      = h5->file;
  *keep      = h5->keep;
  *overwrite = h5->overwrite;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreHDF5SetFileOptions - the file of an hdf5 store, whether it is kept at
  the end and whether an existing one may be replaced (-rw_store_hdf5_file,
  -rw_store_keep, -rw_store_overwrite); ignored by other store types

  Logically collective; before RwStoreSetUp()

  Level: developer

.seealso: RwStoreHDF5GetFileOptions(), RWSTOREHDF5
@*/
PetscErrorCode RwStoreHDF5SetFileOptions(RwStore store, const char file[], PetscBool keep, PetscBool overwrite)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscTryMethod(store, "RwStoreHDF5SetFileOptions_C", (RwStore, const char[], PetscBool, PetscBool), (store, file, keep, overwrite));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreHDF5GetFileOptions - the file of an hdf5 store and its fate; *file is NULL for other types

  Not collective

  Level: developer

.seealso: RwStoreHDF5SetFileOptions()
@*/
PetscErrorCode RwStoreHDF5GetFileOptions(RwStore store, const char **file, PetscBool *keep, PetscBool *overwrite)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *file      = NULL;
  *keep      = PETSC_FALSE;
  *overwrite = PETSC_FALSE;
  PetscTryMethod(store, "RwStoreHDF5GetFileOptions_C", (RwStore, const char **, PetscBool *, PetscBool *), (store, file, keep, overwrite));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreHDF5SetFileTag_HDF5(RwStore store, const char tag[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the hdf5 store's file tag before RwStoreSetUp()");
  PetscCall(PetscStrncpy(h5->tag, tag ? tag : "", sizeof(h5->tag)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreHDF5SetFileTag - a tag in the name of the hdf5 store's file,
  whatever gave the name (the default, -rw_store_hdf5_file,
  RwStoreHDF5SetFileOptions()): "ck.h5" tagged m3 is "ck-m3.h5"; ignored by
  other store types

  Logically collective; before RwStoreSetUp()

  Input Parameters:
+ store - the store
- tag   - e.g. "m3", put before the extension of the name's last component; NULL or empty: none

  Notes:
  How the drivers of ensemble members running side by side keep their files
  apart (RwAdjointSetFileTag()) without writing -rw_store_hdf5_file for
  them: the options database holds what the user gave, and error messages
  name the option with the user's value.  A node file (-rw_store_hdf5_comm
  node) gets its suffix after the tag: ck-m3-node0.h5.

  Level: developer

.seealso: RwStoreHDF5SetFileOptions(), RwAdjointSetFileTag(), RwEnsembleGetMemberFileName()
@*/
PetscErrorCode RwStoreHDF5SetFileTag(RwStore store, const char tag[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCall(RwFileTagCheck(PetscObjectComm((PetscObject)store), tag));
  PetscTryMethod(store, "RwStoreHDF5SetFileTag_C", (RwStore, const char[]), (store, tag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreSetFromOptions_HDF5(RwStore store, PetscOptionItems *PetscOptionsObject)
{
  RwStore_HDF5 *h5     = (RwStore_HDF5 *)store->data;
  const char   *prefix = ((PetscObject)store)->prefix ? ((PetscObject)store)->prefix : "";

  PetscFunctionBegin;
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the hdf5 store's options before RwStoreSetUp()");
  PetscOptionsHeadBegin(PetscOptionsObject, "HDF5 checkpoint store options");
  PetscCall(PetscOptionsString("-rw_store_hdf5_file", "Checkpoint file (node files get a -node<i> suffix)", "RWSTOREHDF5", h5->file, h5->file, sizeof(h5->file), NULL));
  PetscCall(PetscOptionsEnum("-rw_store_hdf5_comm", "One file shared by all ranks (world) or one file per node (node)", "RWSTOREHDF5", RwStoreHDF5Comms, (PetscEnum)h5->comm, (PetscEnum *)&h5->comm, NULL));
  PetscCall(PetscOptionsBool("-rw_store_keep", "Keep the checkpoint file at the end (it is removed by default)", "RWSTOREHDF5", h5->keep, &h5->keep, NULL));
  PetscCall(PetscOptionsBool("-rw_store_overwrite", "Replace an existing checkpoint file (without it, a run that does not resume refuses to touch one)", "RWSTOREHDF5", h5->overwrite, &h5->overwrite, NULL));
  PetscCall(RwOptionsInt("-rw_store_hdf5_alignment", "Align checkpoint datasets of at least this many bytes to multiples of it, e.g. the stripe size (0: no alignment)", "RWSTOREHDF5", h5->alignment, &h5->alignment, NULL, 0, PETSC_MAX_INT));
  PetscCall(PetscOptionsBool("-rw_store_hdf5_async", "Write checkpoint data in a background thread while the sweep goes on", "RWSTOREHDF5", h5->async, &h5->async, NULL));
  PetscCall(PetscOptionsBool("-rw_store_hdf5_prefetch", "Read the checkpoint the driver restores next in a background thread while the sweep goes on (needs -rw_store_hdf5_async)", "RWSTOREHDF5", h5->prefetch, &h5->prefetch, NULL));
  PetscCall(RwOptionsInt("-rw_debug_kill_in_write", "Testing: SIGKILL half way through the data of this write (from 1) of the store", "RWSTOREHDF5", h5->killwrite, &h5->killwrite, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_debug_kill_before_mark", "Testing: SIGKILL once the data of this write (from 1) are complete, before its record and valid mark", "RWSTOREHDF5", h5->killmark, &h5->killmark, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_store_hdf5_fail_write", "Debugging: make the k-th write fail as a full disk would (0: never)", "RWSTOREHDF5", h5->failwrite, &h5->failwrite, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_store_hdf5_fail_read", "Debugging: make the k-th prefetched read fail as one from a file cut short would (0: never)", "RWSTOREHDF5", h5->failread, &h5->failread, NULL, 0, PETSC_MAX_INT));
  PetscOptionsHeadEnd();
  /* a collective H5Dwrite's bytes may still be on their way through another rank's MPI-IO when it returns here, so only the writer thread's, whose end the reader waits for, are prefetched */
  if (!h5->async) h5->prefetch = PETSC_FALSE;
  PetscCheck(h5->file[0], PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONG, "-%srw_store_hdf5_file needs a file name", prefix);
  PetscCheck(h5->alignment >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_store_hdf5_alignment %" PetscInt_FMT ": expected a number of bytes >= 0 (0: no alignment)", prefix, h5->alignment);
  PetscCheck(h5->failwrite >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_store_hdf5_fail_write %" PetscInt_FMT ": expected the number of the write to fail, >= 1 (0: none)", prefix, h5->failwrite);
  PetscFunctionReturn(PETSC_SUCCESS);
}
