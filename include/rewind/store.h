/* RwStore: keeps checkpointed states for one level (RAM or parallel HDF5). */
#ifndef REWIND_STORE_H
#define REWIND_STORE_H

#include <petscvec.h>

/*S
  RwStore - keeps checkpointed states for one level (RAM or parallel HDF5).

  Level: beginner

.seealso: RwStoreCreate(), RwStoreSetType(), RwStoreType
S*/
typedef struct _p_RwStore *RwStore;

/*J
  RwStoreType - name of a RwStore implementation, chosen with -rw_store_type

  Level: beginner

.seealso: RwStoreSetType(), RwStoreRegister()
J*/
typedef const char *RwStoreType;
#define RWSTOREMEMORY "memory"
#define RWSTOREHDF5   "hdf5"

PETSC_EXTERN PetscFunctionList RwStoreList;
PETSC_EXTERN PetscErrorCode    RwStoreRegister(const char[], PetscErrorCode (*)(RwStore));
PETSC_EXTERN PetscErrorCode    RwStoreRegisterAll(void);

PETSC_EXTERN PetscErrorCode RwStoreCreate(MPI_Comm, RwStore *);
PETSC_EXTERN PetscErrorCode RwStoreSetType(RwStore, RwStoreType);
PETSC_EXTERN PetscErrorCode RwStoreGetType(RwStore, RwStoreType *);
PETSC_EXTERN PetscErrorCode RwStoreSetFromOptions(RwStore);
PETSC_EXTERN PetscErrorCode RwStoreSetOptionsPrefix(RwStore, const char[]);
PETSC_EXTERN PetscErrorCode RwStoreAppendOptionsPrefix(RwStore, const char[]);
PETSC_EXTERN PetscErrorCode RwStoreGetOptionsPrefix(RwStore, const char *[]);
PETSC_EXTERN PetscErrorCode RwStoreSetUp(RwStore);
PETSC_EXTERN PetscErrorCode RwStoreSetSlots(RwStore, PetscInt64);
PETSC_EXTERN PetscErrorCode RwStoreGetSlots(RwStore, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwStoreSetTemplate(RwStore, Vec);
PETSC_EXTERN PetscErrorCode RwStoreSetInfo(RwStore, const char[], PetscReal);
PETSC_EXTERN PetscErrorCode RwStoreSetIdentity(RwStore, const char[]);
PETSC_EXTERN PetscErrorCode RwStoreSetSolve(RwStore, const char[]);
PETSC_EXTERN PetscErrorCode RwStoreSetComplete(RwStore);
PETSC_EXTERN PetscErrorCode RwStoreHDF5SetFileOptions(RwStore, const char[], PetscBool, PetscBool);
PETSC_EXTERN PetscErrorCode RwStoreHDF5GetFileOptions(RwStore, const char **, PetscBool *, PetscBool *);
PETSC_EXTERN PetscErrorCode RwStoreHDF5SetFileTag(RwStore, const char[]);
PETSC_EXTERN PetscErrorCode RwStoreSetRestart(RwStore, PetscBool);
PETSC_EXTERN PetscErrorCode RwStoreGetValidSteps(RwStore, PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwStoreIsPersistent(RwStore, PetscBool *);
PETSC_EXTERN PetscErrorCode RwStoreSetAttachmentSize(RwStore, PetscInt);
PETSC_EXTERN PetscErrorCode RwStoreSetAttachment(RwStore, const PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwStoreGetAttachment(RwStore, PetscInt64, PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwStoreWrite(RwStore, PetscInt64, PetscInt64, Vec);
PETSC_EXTERN PetscErrorCode RwStoreWriteTake(RwStore, PetscInt64, PetscInt64, Vec, Vec *);
PETSC_EXTERN PetscErrorCode RwStoreRead(RwStore, PetscInt64, PetscInt64, Vec);
PETSC_EXTERN PetscErrorCode RwStoreReadAndFree(RwStore, PetscInt64, PetscInt64, Vec *);
PETSC_EXTERN PetscErrorCode RwStoreReadSwap(RwStore, PetscInt64, PetscInt64, Vec *);
PETSC_EXTERN PetscErrorCode RwStoreFree(RwStore, PetscInt64);
PETSC_EXTERN PetscErrorCode RwStoreSync(RwStore);
PETSC_EXTERN PetscErrorCode RwStorePrefetch(RwStore, PetscInt64, PetscInt64);
PETSC_EXTERN PetscErrorCode RwStoreCanPrefetch(RwStore, PetscBool *);

/*E
  RwStoreCompressType - how a store keeps its states: as they are, losslessly
  compressed (byte shuffle + LZ4, through Blosc), or by zfp within a tolerance

  Level: intermediate

.seealso: RwStoreSetCompress(), -rw_store_compress
E*/
typedef enum {
  RW_STORE_COMPRESS_NONE,
  RW_STORE_COMPRESS_LOSSLESS,
  RW_STORE_COMPRESS_ZFP
} RwStoreCompressType;
PETSC_EXTERN const char *const RwStoreCompressTypes[];
PETSC_EXTERN PetscErrorCode    RwStoreSetCompress(RwStore, RwStoreCompressType, PetscReal);
PETSC_EXTERN PetscErrorCode    RwStoreGetCompress(RwStore, RwStoreCompressType *, PetscReal *);
PETSC_EXTERN PetscErrorCode    RwStoreGetWriteError(RwStore, PetscReal *); /* issue 36 item 3 */
PETSC_EXTERN PetscErrorCode    RwStoreSetCompressTolerance(RwStore, PetscReal);
PETSC_EXTERN PetscErrorCode    RwStoreSetCompressToleranceAuto(RwStore, PetscBool);
PETSC_EXTERN PetscErrorCode    RwStoreGetCompressToleranceAuto(RwStore, PetscBool *);
/* -rw_store_compress auto: the driver chooses the codec (issue 36) */
PETSC_EXTERN PetscErrorCode    RwStoreSetCompressAuto(RwStore, PetscBool, PetscBool);
PETSC_EXTERN PetscErrorCode    RwStoreGetCompressAuto(RwStore, PetscBool *, PetscBool *);
/* compressed states at their real length in a byte pool (issue 36 item 2) */
PETSC_EXTERN PetscErrorCode RwStoreSetPool(RwStore, PetscInt64);
PETSC_EXTERN PetscErrorCode RwStoreGetPool(RwStore, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwStoreTryWrite(RwStore, PetscInt64, PetscInt64, Vec, PetscBool *);
PETSC_EXTERN PetscErrorCode RwStoreCompressedSize(RwStore, Vec, PetscInt64 *);
/* compressed hdf5 slots whose parts are sized at a planned compressed size (issue 36, disk budgets) */
PETSC_EXTERN PetscErrorCode RwStoreSetPartCapacity(RwStore, PetscInt64);
PETSC_EXTERN PetscErrorCode RwStoreGetPartCapacity(RwStore, PetscInt64 *);
/*E
  RwStoreStateLayout - how a state's array holds its components: interleaved
  at every point (every model's default), or in planes (each rank's block of
  component 0, then of component 1, ...; RwModelGetStateLayout())

  Level: intermediate

.seealso: RwStoreSetStateLayout()
E*/
typedef enum {
  RW_STORE_STATE_INTERLEAVED,
  RW_STORE_STATE_PLANES
} RwStoreStateLayout;
PETSC_EXTERN const char *const RwStoreStateLayouts[];
PETSC_EXTERN PetscErrorCode    RwStoreSetStateLayout(RwStore, RwStoreStateLayout);
PETSC_EXTERN PetscErrorCode    RwStoreGetStateLayout(RwStore, RwStoreStateLayout *);
PETSC_EXTERN PetscErrorCode    RwStoreSetStateShift(RwStore, PetscBool);
PETSC_EXTERN PetscErrorCode    RwStoreGetStateShift(RwStore, PetscBool *);
/*S
  RwStoreCounts - what a store did since its last RwStoreResetCounts(), on this rank

  Level: intermediate
S*/
typedef struct {
  PetscInt64 writes, reads;
  PetscInt64 bytes_written, bytes_read;
  PetscReal  seconds_write, seconds_read;
  PetscInt64 bytes_async;   /* written by a background writer while the caller went on */
  PetscReal  seconds_async; /* the writer's time on them */
  PetscReal  seconds_wait;  /* the caller's time waiting for it (part of seconds_write, seconds_read) */
  PetscInt64 swaps;         /* reads that exchanged vectors instead of copying (RwStoreReadAndFree(), RwStoreReadSwap(); hdf5: among reads) */
  PetscInt64 takes;         /* writes that kept the caller's vector instead of copying it (RwStoreWriteTake()), among writes */
  PetscInt64 prefetches;    /* RwStorePrefetch() calls that started a background read */
  PetscInt64 prefetch_hits; /* reads served from one (the others' slots were rewritten first, or never read) */
  PetscReal  seconds_prefetch;      /* the background reader's time on them */
  PetscReal  seconds_prefetch_wait; /* the caller's time waiting for it (part of seconds_read) */
  PetscInt64 bytes_kept;            /* compressed stores: what the writes' states took once compressed (bytes_written before) */
  PetscReal  seconds_compress;      /* compressed stores: their time compressing (part of seconds_write) */
  PetscReal  seconds_decompress;    /* and decompressing (part of seconds_read) */
  PetscReal  max_error;             /* zfp: the largest absolute error bound of a state written (tolerance times its max-norm) */
  PetscInt64 kept_max;              /* compressed stores: the largest state once compressed */
  PetscInt64 pool_peak;             /* pooled stores (RwStoreSetPool()): the most bytes the pool held at once */
  PetscInt64 pool_misses;           /* pooled stores: writes refused because the state did not fit (RwStoreTryWrite()) */
  PetscInt64 shared;                /* the memory store with shared planes (RwStoreSetStateShift()): writes that kept only the state's first plane, its second being the previous step's first */
  PetscInt64 promoted;              /* and states whose second plane was copied in because the slot holding it was freed or rewritten first */
  PetscInt64 held_peak;             /* and the most bytes of states its slots held at once on this rank */
} RwStoreCounts;

PETSC_EXTERN PetscErrorCode RwStoreGetCounts(RwStore, RwStoreCounts *);
PETSC_EXTERN PetscErrorCode RwStoreResetCounts(RwStore);
PETSC_EXTERN PetscErrorCode RwStoreView(RwStore, PetscViewer);
PETSC_EXTERN PetscErrorCode RwStoreDestroy(RwStore *);

#endif
