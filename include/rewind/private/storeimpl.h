/* Private RwStore structure, for rewind and for new RwStore types. */
#ifndef REWIND_PRIVATE_STOREIMPL_H
#define REWIND_PRIVATE_STOREIMPL_H

#include <rewind/private/rwimpl.h>

PETSC_EXTERN PetscBool RwStoreRegisterAllCalled;

typedef struct _RwStoreOps *RwStoreOps;
struct _RwStoreOps {
  PetscErrorCode (*setfromoptions)(RwStore, PetscOptionItems *);
  PetscErrorCode (*setup)(RwStore);
  PetscErrorCode (*view)(RwStore, PetscViewer);
  PetscErrorCode (*destroy)(RwStore);
  PetscErrorCode (*write)(RwStore, PetscInt64, PetscInt64, Vec);
  PetscErrorCode (*read)(RwStore, PetscInt64, PetscInt64, Vec);
  PetscErrorCode (*swap)(RwStore, PetscInt64, Vec *); /* exchanges the caller's vector with the slot's; NULL: read, then free */
  PetscErrorCode (*take)(RwStore, PetscInt64, PetscInt64, Vec, Vec *); /* keeps the caller's vector itself, returns one of the store's; NULL: write (copy) */
  PetscErrorCode (*readswap)(RwStore, PetscInt64, PetscInt64, Vec *); /* reads into a vector of the store's and exchanges it with the caller's; the slot keeps its state; NULL: read (copy) */
  PetscErrorCode (*free)(RwStore, PetscInt64);
  PetscErrorCode (*validsteps)(RwStore, PetscInt64[]); /* steps the kept states validly hold; NULL: the step table */
  PetscErrorCode (*getattachment)(RwStore, PetscInt64, PetscInt64[]); /* as kept; NULL: the copy in memory */
  PetscErrorCode (*setsolve)(RwStore);    /* a new solve begins: forget every slot, record store->solve */
  PetscErrorCode (*setcomplete)(RwStore); /* the solve finished: a restart may start it over */
  PetscErrorCode (*sync)(RwStore);        /* every write so far complete and durable; NULL: they are when they return */
  PetscErrorCode (*prefetch)(RwStore, PetscInt64, PetscInt64); /* start reading what a later read of the slot needs; NULL: nothing to gain */
};

PETSC_EXTERN PetscErrorCode RwStoreCreate_Memory(RwStore);
PETSC_EXTERN PetscErrorCode RwStoreSetTypeFromOption(RwStore, RwStoreType, const char[]);
PETSC_EXTERN PetscErrorCode RwStoreLogView_Private(void);
PETSC_EXTERN PetscErrorCode RwStoreCreate_HDF5(RwStore);
/* A memory store's pool: the bytes slot holds there (0: none); the driver's continuation re-plan reads it (src/adjoint/pool.c) */
/* A state's checksum share in the store's layout (RwStoreSetStateLayout()) */
PETSC_EXTERN uint64_t RwStoreChecksumBlock_Private(RwStore, const PetscInt[3], const PetscInt[3], const PetscInt[3], PetscInt, const PetscScalar[]);
PETSC_EXTERN PetscErrorCode RwStorePoolLength_Memory(RwStore, PetscInt64, PetscInt64 *);

/* A compressed state as a store keeps it (src/store/compress/compress.c): the
   bytes in a slot of fixed capacity, their length, a checksum over them, how
   they were encoded, and for zfp the absolute error bound they were made with */
typedef enum {
  RW_CODEC_RAW,   /* the values as they are (zfp's output did not fit) */
  RW_CODEC_BLOSC, /* Blosc: byte shuffle + LZ4, lossless */
  RW_CODEC_ZFP    /* zfp, fixed accuracy */
} RwCodecMethod;
typedef struct {
  size_t        len;
  uint64_t      sum; /* XXH3-64 of the len bytes kept */
  RwCodecMethod method;
  PetscReal     tolabs;
} RwCodecRecord;

typedef struct {
  RwStoreCompressType type;
  PetscReal           tol;           /* zfp: relative to each state's max-norm over the ranks */
  PetscInt            dim, dof;      /* this rank's block of the grid, for zfp */
  PetscBool           planes;        /* its components in planes (RwStoreSetStateLayout()), not interleaved */
  PetscInt            n[3];
  size_t              raw, cap;      /* bytes of a state, of a compressed slot */
  void               *scratch;       /* zfp writes here first: its output may exceed a slot */
  size_t              scratchcap;
  /* the error of the last state kept (issue 36 item 3: src/adjoint/errest.c sums it): zfp decodes what it kept once, into work */
  Vec                 work;
  PetscReal           lastrel; /* |x~ - x|_2 / |x|_2 of the last state kept, exact sums; 0 when kept bitwise */
  PetscBool           tolauto; /* -rw_store_compress_tolerance auto: the driver sets tol before each solve */
  PetscBool           isauto;  /* -rw_store_compress auto: the driver chooses type before set-up (src/adjoint/codecauto.c) */
  PetscBool           tolgiven; /* -rw_store_compress_tolerance was given: auto may choose zfp, a lossy gradient */
} RwCodec;

PETSC_EXTERN PetscErrorCode RwCodecSetUp(RwStore);
PETSC_EXTERN PetscErrorCode RwCodecDestroy(RwCodec *);
PETSC_EXTERN PetscErrorCode RwCodecEncode(RwStore, Vec, void *, RwCodecRecord *);
PETSC_EXTERN PetscErrorCode RwCodecDecode(RwStore, const void *, const RwCodecRecord *, const char[], Vec);
PETSC_EXTERN PetscErrorCode RwCodecDecodeAgree(RwStore, const void *, const RwCodecRecord *, const char[], const char[], Vec);
PETSC_EXTERN PetscErrorCode RwCodecSetFromOptions(RwStore, PetscOptionItems *);
PETSC_EXTERN PetscErrorCode RwCodecToleranceFromOptions(PetscOptionItems *, const char[], const char[], PetscReal *, PetscBool *, PetscBool *);
PETSC_EXTERN PetscErrorCode RwCodecView(RwStore, PetscViewer);

struct _p_RwStore {
  PETSCHEADER(struct _RwStoreOps);
  PetscBool   setupcalled;
  PetscInt64  slots;     /* capacity */
  Vec         templ;     /* the layout of the states kept */
  PetscInt64 *step;      /* step held by each slot, -1 when free */
  PetscInt64  bytes;     /* bytes of one state on this rank */
  RwStoreCounts counts;  /* since the last reset */
  char       *modeltype; /* RwStoreSetInfo(): recorded with each checkpoint */
  PetscReal   dt;        /* time of step k is k dt; 0 when unknown */
  char       *identity;  /* RwStoreSetIdentity(): the problem a kept file belongs to */
  char       *solve;     /* RwStoreSetSolve(): the solve of that problem the slots belong to */
  PetscBool   restart;   /* set-up reopens what a previous run kept */
  PetscInt    nattach;   /* integers kept with every checkpoint (RwStoreSetAttachmentSize()) */
  PetscInt64 *attach;    /* what the next write keeps */
  PetscInt64 *slotattach; /* what each slot keeps, slot by slot */
  RwCodec     codec;     /* -rw_store_compress: how states are kept */
  PetscInt64  pool;      /* RwStoreSetPool(): bytes per rank for compressed states at their real length; 0: fixed slots */
  PetscBool   missed;    /* the last write did not fit in the pool: the slot stays free */
  PetscInt64  partcap;   /* RwStoreSetPartCapacity(): bytes per rank of a compressed hdf5 slot's part; 0: the codec's full capacity */
  RwStoreStateLayout statelayout; /* RwStoreSetStateLayout(): how a state's array holds its components (codec, hdf5 dataspace, checksums) */
  PetscBool   stateshift; /* RwStoreSetStateShift(): a state's component 1 is the previous step's component 0 (the memory store keeps it once) */
  void       *data; /* the type's own state */
};

/* a store whose type is not chosen yet cannot act (store.c, storeio.c) */
#define RwStoreCheckTyped(store) PetscCheck(((PetscObject)(store))->type_name, PetscObjectComm((PetscObject)(store)), PETSC_ERR_ARG_WRONGSTATE, "RwStore has no type: call RwStoreSetType() or RwStoreSetFromOptions() first")

#endif
