/*
  Private to the hdf5 store (src/store/impls/hdf5/): its data, and what its
  files share.  hdf5.c describes the store and holds its life cycle; the
  rest is split by concern, one a file:

    h5attr.c     typed attributes, HDF5 calls only (no MPI, no PETSc errors)
    h5agree.c    failures agreed across ranks, and the words of their messages
    h5record.c   a slot's record: what its data are, whether they may be trusted
    h5setup.c    set-up: the grid, the ranks sharing a file, a new file
    h5restart.c  a file reopened for a restart, checked before it is trusted
    h5write.c    writes: the crash-safety protocol (write, then mark valid)
    h5read.c     reads, the valid steps, the attachments
    h5async.c    the store's side of its background threads (prefetch included)
    h5writer.c   the threads themselves: POSIX calls only (h5writer.h)
    h5opts.c     options
    h5view.c     the view

  Only RwStoreCreate_HDF5(), RwStoreHDF5Set/GetFileOptions() and RwStoreHDF5SetFileTag() leave the
  library; what the files share is PETSC_INTERN, everything else static.
*/
#ifndef REWIND_STORE_HDF5IMPL_H
#define REWIND_STORE_HDF5IMPL_H

#include <rewind/private/storeimpl.h>
#include "h5writer.h"
#include <stdint.h>

#if !defined(PETSC_USE_REAL_DOUBLE) || defined(PETSC_USE_COMPLEX)
  #error "the hdf5 store keeps real double-precision states"
#endif

#define RW_H5_WHERELEN (PETSC_MAX_PATH_LEN + 128)
#define RW_H5_MSGLEN   (2 * PETSC_MAX_PATH_LEN + 1024)
#define RW_H5_FORMAT "rewind checkpoints 2" /* 2: checksummed HDF5 metadata, record checksums, per-solve identity */
#define RW_H5_SOLVELEN 1024 /* the root's "solve" is rewritten in place: a fixed size */

typedef enum {
  RW_H5_WORLD,
  RW_H5_NODE
} RwStoreHDF5Comm;

/* What a failing HDF5 call was doing, for the message and the error code */
typedef enum {
  RW_H5_CREATE,
  RW_H5_OPEN,
  RW_H5_WRITE,
  RW_H5_READ,
  RW_H5_CLOSE
} RwH5Doing;

typedef struct {
  /* options */
  char            file[PETSC_MAX_PATH_LEN]; /* -rw_store_hdf5_file */
  char            tag[RW_FILE_TAG_LEN];     /* RwStoreHDF5SetFileTag(): the file is file with -<tag> (an ensemble member's) */
  RwStoreHDF5Comm comm;                     /* -rw_store_hdf5_comm */
  PetscBool       keep;                     /* -rw_store_keep */
  PetscBool       overwrite;                /* -rw_store_overwrite: replace an existing file */
  PetscInt        alignment;                /* -rw_store_hdf5_alignment; 0: none */
  PetscInt        failwrite;                /* -rw_store_hdf5_fail_write; 0: never */
  PetscInt        failread, prefetched;     /* -rw_store_hdf5_fail_read; 0: never; the prefetches posted so far */
  PetscBool       async;                    /* -rw_store_hdf5_async: a background thread writes the data */
  PetscBool       prefetch;                 /* -rw_store_hdf5_prefetch: a background thread reads the slot the driver restores next */
  PetscInt        killwrite, killmark;      /* -rw_debug_kill_in_write, -rw_debug_kill_before_mark; 0: never */
  /* the file */
  char      path[PETSC_MAX_PATH_LEN]; /* this rank's file: file, or file with its node's suffix */
  MPI_Comm  fcomm;                    /* the ranks sharing the file */
  PetscInt  node, nodes;
  hid_t     fid, dxpl, rdxpl, memspace, filespace, *dset; /* dxpl: collective writes; rdxpl: independent reads */
  int64_t  *attach; /* a slot's attachment as read back, before its record checksum vouches for it */
  PetscBool opened;
  RwFileLock lock; /* path.lock, held by the file's first rank from set-up to close */
  PetscBool owned; /* created here, or reopened and found to be this problem's: removed at the end unless kept */
  char      filesolve[RW_H5_SOLVELEN]; /* a reopened file's solve, and whether it completed */
  int       filecomplete;
  /* the grid, x first; a plain vector is a 1D grid */
  PetscInt dim, dof, M[3], start[3], count[3], n;
  int      frank; /* the datasets' rank and shape, and this rank's hyperslab */
  hsize_t  fdims[4], fstart[4], fcount[4];
  RwH5Runs    runs;     /* this rank's runs of bytes in a slot, for the threads */
  /* the write whose record is not yet in the file (see RwStoreWrite_HDF5) */
  RwH5Writer  writer;   /* the background thread, when async */
  Vec         stage;    /* the store's copy of a state it writes (RwStoreWrite) */
  Vec         held;     /* a state it took (RwStoreWriteTake), or its spare before any: handed back at the next take */
  haddr_t    *offset;   /* each slot's data in the file */
  PetscBool   inflight; /* the thread is writing the pending write's data */
  PetscBool   pending;  /* a write's data are written, or being written, and its record is not */
  PetscBool   uncommitted; /* a record is in HDF5's cache but not yet flushed */
  PetscInt64  pslot, pstep;
  uint64_t    plocal, psum; /* the pending state's checksum: this rank's part, the whole */
  int64_t    *pattach;  /* the pending write's attachment */
  int64_t     generation; /* writes started in this file's life; the root's "generation": those committed */
  /* the prefetch (RwStorePrefetch_HDF5): the reader thread reads one slot ahead of its restore */
  RwH5Writer   reader;
  Vec          rbuf;     /* what it read; RwStoreReadSwap gives it away and keeps the caller's vector instead */
  int64_t     *written;  /* each slot's writes in this store's life: a prefetch of an older one is stale */
  PetscBool    fposted;  /* a prefetch was posted and not yet used or discarded */
  PetscInt64   fslot, fstep;
  int64_t      fwritten; /* written[fslot] when it was posted */
  PetscBool   hasgen;     /* the root has "generation" (a file of an earlier rewind may not) */
  /* compressed slots (-rw_store_compress, h5packed.c): a byte dataset per slot, each rank's part at a fixed offset */
  PetscBool     packed;
  PetscMPIInt   fsize, fme;  /* the ranks sharing the file, and this one among them */
  hsize_t       cofs;        /* this rank's part's first byte in a slot: the capacities of the ranks before it */
  size_t        part;        /* this rank's part's bytes: the codec's capacity, or the planned size (RwStoreSetPartCapacity()) */
  char         *cbuf, *rcbuf; /* the compressed bytes of the state written (the writer's stage), of one read */
  int64_t      *plen, *rlen; /* each rank's length: of the pending write, as read back */
  uint64_t     *psums, *rsums; /* and its XXH3-64 */
  uint64_t     *gather;      /* a write's (length, sum) of every rank */
  RwCodecRecord prec;        /* this rank's part of the pending write */
  RwCodecRecord rrec;        /* the encoding and bound of the last record read (its length and sum: rlen, rsums) */
  /* counters */
  PetscInt       calls; /* writes attempted */
} RwStore_HDF5;

/* The fixed and the changing attributes of one slot, as read back */
typedef struct {
  int         valid;
  int64_t     step, dim, dof, grid[3];
  double      time;
  uint64_t    checksum, record;
  int64_t    *attach;  /* nattach values, in a buffer of the store's */
  int         encoding; /* compressed slots: how the parts were encoded (RwCodecMethod) */
  double      tolabs;   /* and zfp's absolute error bound */
  const char *missing; /* the first attribute absent or a list of another length */
} RwH5Record;

/* The layout a file of this store records and is read in: a state of one
   component is the same in both, and is recorded interleaved */
static inline RwStoreStateLayout RwH5StateLayout(RwStore store)
{
  return ((RwStore_HDF5 *)store->data)->dof > 1 ? store->statelayout : RW_STORE_STATE_INTERLEAVED;
}

/* Like RwCallHDF5(), for a call (or helper) made by every rank, returning a handle or a status */
#define RwH5Try(store, slot, k, doing, call) PetscCall(RwStoreHDF5Check(store, slot, k, doing, (call) < 0 ? -1 : 0))
#define RwH5TryReturn(ret, store, slot, k, doing, call) \
  do { \
    ret = (call); \
    PetscCall(RwStoreHDF5Check(store, slot, k, doing, (ret) < 0 ? -1 : 0)); \
  } while (0)

/* h5attr.c: typed attributes: HDF5 calls only, a negative status on failure (agree on it with RwH5Try) */
PETSC_INTERN herr_t RwH5AttrPut(hid_t, const char[], hid_t, const void *);
PETSC_INTERN herr_t RwH5AttrNew(hid_t, const char[], hid_t, hid_t, hsize_t, const void *);
PETSC_INTERN hid_t RwH5StringType(size_t);
PETSC_INTERN herr_t RwH5AttrNewString(hid_t, const char[], const char[]);
PETSC_INTERN htri_t RwH5CheckType(hid_t, hid_t, const char[], char[], size_t);
PETSC_INTERN herr_t RwH5AttrGet(hid_t, const char[], hid_t, hsize_t, void *);
/* an attribute to read: name, memory type, values (0: a scalar), where */
typedef struct {
  const char *name;
  hid_t       type;
  hsize_t     n;
  void       *buf;
} RwH5AttrItem;
PETSC_INTERN herr_t RwH5AttrGetItems(hid_t, size_t, const RwH5AttrItem[], const char **);
PETSC_INTERN herr_t RwH5AttrGetString(hid_t, const char[], char[], size_t);

/* h5agree.c: failures agreed across ranks, and the words of their messages */
PETSC_INTERN PetscErrorCode RwStoreHDF5Check(RwStore, PetscInt64, PetscInt64, RwH5Doing, herr_t);
PETSC_INTERN void RwStoreHDF5Option(RwStore, const char[], char[], size_t);
PETSC_INTERN void RwStoreHDF5Where(RwStore, PetscInt64, PetscInt64, char[], size_t);
PETSC_INTERN void RwStoreHDF5WriteHint(RwStore, char[], size_t);
PETSC_INTERN PetscErrorCode RwStoreHDF5Why(RwStore, PetscInt64, PetscInt64, RwH5Doing, herr_t, char[]);
PETSC_INTERN void RwH5Shape(int, const hsize_t[], char[], size_t);
PETSC_INTERN PetscErrorCode RwStoreHDF5AgreeSum(RwStore, PetscErrorCode, char[], uint64_t, uint64_t *);

/* h5record.c: a slot's record: what its data are and whether they may be trusted */
PETSC_INTERN uint64_t RwH5RecordSum(int64_t, int64_t, double, uint64_t, PetscInt, const int64_t[]);
PETSC_INTERN herr_t RwH5PutRecord(RwStore, hid_t, int64_t, int64_t, double, uint64_t, const int64_t[]);
PETSC_INTERN PetscErrorCode RwStoreHDF5GetRecord(RwStore, PetscInt64, PetscInt64, RwH5Record *, char[]);
PETSC_INTERN PetscErrorCode RwStoreHDF5GetValidRecord(RwStore, PetscInt64, PetscInt64, RwH5Record *, char[]);
PETSC_INTERN PetscErrorCode RwStoreHDF5CheckRecord(RwStore, PetscInt64, PetscInt64, uint64_t *, char[]);

/* h5setup.c: set-up: the grid, the ranks of a file, a new file */
PETSC_INTERN PetscErrorCode RwStoreHDF5Lock(RwStore);
PETSC_INTERN PetscErrorCode RwStoreHDF5CheckPath(RwStore);
PETSC_INTERN PetscErrorCode RwStoreHDF5OpenFile(RwStore);
PETSC_INTERN PetscErrorCode RwStoreHDF5GatherBlocks(RwStore, int64_t **, PetscMPIInt *);
PETSC_INTERN PetscErrorCode RwStoreSetUp_HDF5(RwStore);

/* h5restart.c: a file reopened for a restart, checked before anything in it is trusted */
PETSC_INTERN PetscErrorCode RwStoreHDF5CheckSuperblock(RwStore);
PETSC_INTERN PetscErrorCode RwStoreHDF5OpenFailed(RwStore, PetscBool);
PETSC_INTERN PetscErrorCode RwStoreHDF5ReopenFile(RwStore);

/* h5write.c: writes and the crash-safety protocol: data under a mark off on disk, then the mark */
PETSC_INTERN PetscErrorCode RwStoreHDF5SettleDefer(RwStore, herr_t *);
PETSC_INTERN PetscErrorCode RwStoreHDF5WriteBegin(RwStore, PetscInt64, PetscInt64);
PETSC_INTERN PetscErrorCode RwStoreHDF5Settle(RwStore);
PETSC_INTERN PetscErrorCode RwStoreSync_HDF5(RwStore);
PETSC_INTERN PetscErrorCode RwStoreWrite_HDF5(RwStore, PetscInt64, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode RwStoreTake_HDF5(RwStore, PetscInt64, PetscInt64, Vec, Vec *);
PETSC_INTERN PetscErrorCode RwStoreSetSolve_HDF5(RwStore);
PETSC_INTERN PetscErrorCode RwStoreSetComplete_HDF5(RwStore);

/* h5read.c: reads, valid steps and attachments */
PETSC_INTERN PetscErrorCode RwStoreRead_HDF5(RwStore, PetscInt64, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode RwStoreReadSwap_HDF5(RwStore, PetscInt64, PetscInt64, Vec *);
PETSC_INTERN PetscErrorCode RwStoreGetValidSteps_HDF5(RwStore, PetscInt64[]);
PETSC_INTERN PetscErrorCode RwStoreGetAttachment_HDF5(RwStore, PetscInt64, PetscInt64[]);

/* h5async.c: the store's side of the background writer and reader (h5writer.c) */
PETSC_INTERN PetscErrorCode RwStoreHDF5StartWriter(RwStore);
PETSC_INTERN void RwStoreHDF5Post(RwStore, PetscInt64, const PetscScalar *);
PETSC_INTERN int RwStoreHDF5PrefetchWait(RwStore);
PETSC_INTERN PetscErrorCode RwStorePrefetch_HDF5(RwStore, PetscInt64, PetscInt64);
PETSC_INTERN PetscErrorCode RwStoreHDF5TakePrefetch(RwStore, Vec *, PetscBool);

/* h5opts.c: options; the names of -rw_store_hdf5_comm's values, which the file's root records */
PETSC_INTERN const char *const RwStoreHDF5Comms[];
PETSC_INTERN PetscErrorCode RwStoreHDF5SetFileOptions_HDF5(RwStore, const char[], PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode RwStoreHDF5GetFileOptions_HDF5(RwStore, const char **, PetscBool *, PetscBool *);
PETSC_INTERN PetscErrorCode RwStoreHDF5SetFileTag_HDF5(RwStore, const char[]);
PETSC_INTERN PetscErrorCode RwStoreSetFromOptions_HDF5(RwStore, PetscOptionItems *);

/* h5packed.c: compressed slots, each rank's bytes in its fixed part of a byte dataset */
PETSC_INTERN PetscErrorCode RwStoreHDF5PackedSetUp(RwStore);
PETSC_INTERN PetscErrorCode RwStoreHDF5PackedSelection(RwStore);
PETSC_INTERN herr_t RwH5PackedNewRoot(RwStore, hid_t);
PETSC_INTERN herr_t RwH5PackedNewSlot(RwStore, hid_t);
PETSC_INTERN herr_t RwH5PackedPutRecord(RwStore, hid_t);
PETSC_INTERN herr_t RwH5PackedGetRecord(RwStore, hid_t, RwH5Record *);
PETSC_INTERN uint64_t RwH5PackedSum(RwStore, int, double, const int64_t[], const uint64_t[]);
PETSC_INTERN PetscErrorCode RwStoreHDF5PackedCheckRoot(RwStore, char[]);
PETSC_INTERN PetscErrorCode RwStoreWritePacked_HDF5(RwStore, PetscInt64, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode RwStoreHDF5PackedRead(RwStore, PetscInt64, PetscInt64, Vec, char[]);
PETSC_INTERN PetscErrorCode RwStoreHDF5PackedDestroy(RwStore);

/* h5view.c: the view */
PETSC_INTERN PetscErrorCode RwStoreView_HDF5(RwStore, PetscViewer);

#endif
