/* Private RwModel structure, for rewind and for new model types. */
#ifndef REWIND_PRIVATE_MODELIMPL_H
#define REWIND_PRIVATE_MODELIMPL_H

#include <rewind/private/rwimpl.h>
#include <rewind/private/kernelisaimpl.h>
#include <petscdmda.h>
#include <petscdmcomposite.h>
#include <petscdmredundant.h>

PETSC_EXTERN PetscBool RwModelRegisterAllCalled;
PETSC_EXTERN PetscErrorCode RwModelCreate_Heat(RwModel);
PETSC_EXTERN PetscErrorCode RwModelCreate_Wave(RwModel);
PETSC_EXTERN PetscErrorCode RwModelCreate_L96(RwModel);

typedef struct _RwModelOps *RwModelOps;
struct _RwModelOps {
  PetscErrorCode (*setfromoptions)(RwModel, PetscOptionItems *);
  PetscErrorCode (*setup)(RwModel);
  PetscErrorCode (*view)(RwModel, PetscViewer);
  PetscErrorCode (*destroy)(RwModel);
  PetscErrorCode (*defaults)(RwModel, Vec, Vec, Vec);
  PetscErrorCode (*coordinate)(RwModel, PetscInt, PetscInt, PetscReal *);
  PetscErrorCode (*ghostrule)(RwModel, PetscInt, PetscBool *, PetscReal *);
  PetscErrorCode (*identity)(RwModel, char[], size_t); /* what makes two runs the same problem, beyond grid and dt */
  PetscErrorCode (*globaltolocal)(RwModel, Vec, Vec, PetscBool);
  PetscErrorCode (*setparameters)(RwModel, Vec);
  PetscErrorCode (*setdirection)(RwModel, Vec);
  PetscErrorCode (*step)(RwModel, PetscInt64, Vec, Vec);
  PetscErrorCode (*stepblock)(RwModel, PetscInt64, PetscInt, Vec, Vec[]); /* T > 1 steps in one pass over the grid (RwModelStepBlock()) */
  PetscErrorCode (*steptangent)(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
  PetscErrorCode (*adjointbegin)(RwModel);
  PetscErrorCode (*stepadjoint)(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
  PetscErrorCode (*adjointend)(RwModel, Vec);
  PetscErrorCode (*adjointaccumulators)(RwModel, PetscInt *, Vec[]); /* the gradient so far, on grids: a resumed reverse sweep reloads them */
};

#define RW_MODEL_MAX_BLOCKS 16

/* How a state array (a rank's owned part, or its ghosted copy) holds the
   components: interleaved at every point (every type today), or in planes,
   one block of the array's points per component (issue 37 item 1: not yet
   declared by any type) */
typedef enum {
  RW_MODEL_STATE_INTERLEAVED,
  RW_MODEL_STATE_PLANES
} RwModelStateLayout;

/* A named block of replicated global scalars (a decay rate, network weights),
   or a time-indexed block: perstep values for each step k = 0..n-1, the value
   step k -> k+1 uses at [k * perstep, (k + 1) * perstep) */
typedef struct {
  char     name[64];
  PetscInt size;    /* scalars in the block */
  PetscInt perstep; /* time-indexed: values per step (size = perstep n); 0: constant in time */
  PetscInt offset;  /* its first scalar among all blocks' */
} RwModelBlock;

struct _p_RwModel {
  PETSCHEADER(struct _RwModelOps);
  PetscBool          setupcalled;
  DM                 da;          /* the state's grid, dof components a point; built by the type's setup */
  DM                 fda;         /* the parameter fields' grid: dof 1, da's decomposition (da itself when dof is 1) */
  DM                 pack;        /* parameters: fields on fda, then every block's scalars on one DMRedundant */
  PetscInt           dof;         /* state components (default 1) */
  const char *const *compnames;   /* their names, e.g. u, v (NULL: "u" for one component) */
  PetscInt           observed;    /* the component that objectives (terminal misfit, sensors) observe */
  PetscInt           nfields;     /* distributed parameter fields */
  PetscBool          inactive[16]; /* parameters whose gradient is not wanted: fields, then blocks (RwModelSetActiveParameters()) */
  const char *const *fieldnames;  /* e.g. kappa, s */
  RwModelBlock       blocks[RW_MODEL_MAX_BLOCKS];
  PetscInt           nblocks;
  PetscInt           nscalars;    /* replicated global scalars: every block's, in block order */
  PetscReal         *scalars;     /* their values from RwModelSetParameters(), on every rank */
  PetscReal         *dscalars;    /* their direction from RwModelSetDirection(), on every rank */
  PetscReal         *gtotal;      /* gsum reduced, at RwModelAdjointEnd() */
  RwReproSum         gsum;        /* dJ/d(scalar) terms the type adds in a reverse sweep (RwModelAddScalarGradient()) */
  PetscInt64         nbroadcasts; /* broadcasts of scalars, for tests: O(blocks) per parameter set */
  PetscInt           gridsize[3]; /* default grid points per direction (0: the type's), before -da_grid_x ... */
  PetscInt           procs[3];    /* default ranks per direction (0: PETSc decides), before -da_processors_x ... */
  PetscReal          dt;
  PetscBool          dtset;       /* dt given by the user rather than chosen by the type */
  PetscInt64         n;           /* steps of a run: the time grid is t_k = k dt, k = 0..n */
  PetscReal          cellvolume;  /* h^d: the quadrature weight of one grid point */
  PetscBool          paramsset, directionset, inadjoint;
  PetscInt64         nforward, ntangent, nadjoint; /* steps taken, for the driver's counts */
  PetscInt64         firstbad[2]; /* first forward / adjoint step whose result was not finite; -1: none */
  void              *stencil;     /* the shared grid layer (RwStencil) if the type is built on it: the default coordinate, ghost-rule and halo ops */
  RwKernelISA        isa;         /* the instruction set the type's kernels run with (-rw_kernel_isa) */
  PetscBool          isaauto;     /* isa is auto's (the best this CPU has): a type may run a narrower set per kernel where it measured faster (wave) */
  PetscInt64         streammin;   /* bytes a rank from which a kernel's output is streamed (-rw_kernel_stream_stores); -1: never */
  PetscBool          depthlast;   /* the last direction is depth, growing downwards (the wave's): outputs draw it downwards */
  PetscInt           stepblock;   /* forward steps fused into one pass (-rw_model_step_block): before set-up 0 for the type's choice; after, 1 or what ops->stepblock fuses */
  RwModelStateLayout statelayout; /* how a state array holds the components (RwModelGetStateLayout()); the type's set-up declares it */
  PetscBool          stateshift;  /* component 1 of the state after a step is component 0 of the state before (RwModelGetStateShift()); the type's set-up declares it */
  void              *data;        /* the type's own state */
};

/* Records that the result of step k (forward: u_k+1, adjoint: lambda_k) holds a
   NaN or Inf; kernels detect it for free and RwModelCheckFinite() reports it */
static inline void RwModelFlagNonFinite(RwModel model, PetscInt which, PetscInt64 k, PetscReal probe)
{
  if (PetscUnlikely(PetscIsInfOrNanReal(probe)) && model->firstbad[which] < 0) model->firstbad[which] = k;
}

/* The default of -rw_kernel_stream_stores, MiB a rank */
#define RW_STREAM_MIN_MIB 8

/* Whether a kernel writes its output of nbytes on this rank, at out, with
   streaming stores (RwStreamPair(), kernelisaimpl.h): at least the model's
   threshold (-rw_kernel_stream_stores) and out 16-byte aligned.  The base's
   alignment is every point's for a state of two components (16 bytes a
   point, the wave's); a one-component output's rows would need a peel */
static inline PetscBool RwModelStreamStores(RwModel model, PetscInt64 nbytes, const void *out)
{
  return (PetscBool)(model->streammin >= 0 && nbytes >= model->streammin && (uintptr_t)out % 16 == 0);
}

PETSC_EXTERN PetscErrorCode RwModelCreatePack_Private(RwModel);
/* h-readers (issue 37 item 1): a test's switch of the declared state layout */
PETSC_EXTERN PetscErrorCode RwModelSetStateLayout_Private(RwModel, RwModelStateLayout);
PETSC_EXTERN PetscErrorCode RwModelAddParameterBlock(RwModel, const char[], PetscInt, PetscBool);
PETSC_EXTERN PetscErrorCode RwModelAddScalarGradient(RwModel, PetscInt, PetscInt, PetscReal);
PETSC_EXTERN PetscErrorCode RwModelAddScalarGradientArray(RwModel, PetscInt, PetscInt, PetscInt, const PetscReal[]);

/* The class's calls that need a built model stop with this (src/model/interface/) */
#define RwModelCheckSetUp(model) PetscCheck((model)->setupcalled, PetscObjectComm((PetscObject)(model)), PETSC_ERR_ORDER, "Call RwModelSetUp() first")

/* A type's own public calls (RwModelWaveSetSources() ...) dispatch to what
   the type composed under name "_C" at create, as PetscUseMethod() does; a
   model whose type did not compose it stops with an error that names the
   call and the type it needs, not PETSc's "Cannot locate function" */
#define RwModelUseMethod(model, type, name, argtypes, args) \
  do { \
    PetscErrorCode(*rw_f_) argtypes = NULL; \
    PetscCall(PetscObjectQueryFunction((PetscObject)(model), name "_C", &rw_f_)); \
    PetscCheck(rw_f_, PetscObjectComm((PetscObject)(model)), PETSC_ERR_ARG_WRONG, name "() needs a model of type %s, not %s", type, ((PetscObject)(model))->type_name ? ((PetscObject)(model))->type_name : "(no type)"); \
    PetscCall((*rw_f_)args); \
  } while (0)

/* Scalars [first, first + n) of a parameter vector: read into get on every
   rank (one broadcast), or written from set (rank 0 keeps what every rank
   passed); the layout's accessors and RwModelSetParameters() share it */
PETSC_INTERN PetscErrorCode RwModelScalarAccess_Private(RwModel, Vec, PetscInt, PetscInt, PetscReal *, const PetscReal *);
PETSC_INTERN PetscErrorCode RwModelTimeStep_Private(RwModel, PetscInt64, Vec, Vec, PetscReal *);

/* Values of block b from the last RwModelSetParameters() (or the direction's), the same on every rank */
static inline const PetscReal *RwModelBlockValues(RwModel model, PetscInt b)
{
  return model->scalars + model->blocks[b].offset;
}
static inline const PetscReal *RwModelBlockDirection(RwModel model, PetscInt b)
{
  return model->dscalars + model->blocks[b].offset;
}

#define RW_MODEL_MAX_ACCUMULATORS 16
PETSC_EXTERN PetscErrorCode RwModelGetAdjointAccumulators(RwModel, PetscInt *, Vec[]);

/* The exact scalar-gradient sums of a reverse sweep, kept and put back by a resumed one (modelkeep.c) */
PETSC_EXTERN PetscErrorCode RwModelGetScalarGradientStateSize(RwModel, PetscInt *);
PETSC_EXTERN PetscErrorCode RwModelExportScalarGradient(RwModel, PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwModelImportScalarGradient(RwModel, const PetscInt64[]);

#endif
