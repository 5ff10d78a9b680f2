/* Private RwAdjoint structure. */
#ifndef REWIND_PRIVATE_ADJOINTIMPL_H
#define REWIND_PRIVATE_ADJOINTIMPL_H

#include <rewind/private/objectiveimpl.h>
#include <rewind/adjoint.h>
#include <rewind/verify.h>
#include <rewind/horizon.h>
#include <signal.h>

PETSC_EXTERN PetscClassId RW_ADJOINT_CLASSID;

struct _RwAdjointOps {
  PetscErrorCode (*view)(RwAdjoint, PetscViewer);
};

#define RW_ADJOINT_MAX_MONITORS 5
#define RW_ADJOINT_CODEC_AUTO   3 /* -rw_store_disk_compress auto (adj->diskcompress) */

/* The default schedule's choice by predicted time (RwAdjointChooseByTime_Private()) */
typedef struct {
  PetscBool  pending;    /* store-all was the default because it fits: measure at the first solve */
  PetscBool  measured;   /* the choice below was made */
  PetscInt64 maxslots;   /* the states the budget holds */
  PetscInt64 slots;      /* revolve's best slot count; 0: none tried */
  PetscBool  revolve;    /* revolve replaced store-all */
  PetscReal  step, fresh, warm; /* seconds: a forward step, a state copied into untouched memory, into touched memory */
  PetscReal  storeall, best;    /* predicted seconds of the forward sweeps: store-all, revolve with slots */
  PetscReal  rent;       /* seconds revolve's solves spent recomputing so far */
  PetscBool  bought;     /* they reached store-all's touches: later solves keep every state */
} RwAdjointTimeChoice;

/* The gradient error lossy checkpoints cause, to first order (errest.c, issue 36 item 3) */
typedef struct {
  PetscBool  on;                   /* a level keeps its states lossily (zfp): estimate */
  PetscInt64 nslots[RW_NUM_LEVELS];
  PetscReal *rel[RW_NUM_LEVELS];   /* each slot's state: its relative error against the exact trajectory */
  PetscReal  relW;                 /* the working state's */
  PetscReal  num, den;             /* over the reverse steps k: sum of rel_k w_k, and of w_k = |lambda_k+1| |x_k| */
  PetscInt64 lossy;                /* reverse steps that read a state with an error */
  PetscReal  estimate;             /* num / den at the end of the last solve */
  PetscReal  tol;                  /* the zfp tolerance of the first lossy level, for the view */
  /* -rw_store_compress_tolerance auto */
  PetscReal  rtol;                 /* -rw_adjoint_gradient_rtol: the estimate the tolerance aims below */
  PetscBool  diskauto;             /* -rw_store_disk_compress_tolerance auto */
  PetscBool  isauto[RW_NUM_LEVELS];
  PetscReal  next[RW_NUM_LEVELS];  /* the tolerance the next solve takes; 0: none yet (the pilot) */
} RwAdjointErrest;

struct _p_RwAdjoint {
  PETSCHEADER(struct _RwAdjointOps);
  RwModel         model;
  RwObjective     obj;
  RwSchedule      sched;
  RwStore         store[RW_NUM_LEVELS];
  char            storetype[RW_NUM_LEVELS][64]; /* -rw_store_type, -rw_store_disk_type */
  PetscInt        diskcompress; /* -rw_store_disk_compress: the disk level's codec (RwStoreCompressType, or RW_ADJOINT_CODEC_AUTO); -1: as -rw_store_compress */
  PetscReal       disktol;      /* -rw_store_disk_compress_tolerance; 0: as -rw_store_compress_tolerance */
  PetscInt64      n;
  PetscInt64      checkinterval; /* steps between collective NaN/Inf checks */
  PetscBool       setupcalled;
  PetscBool       restart;       /* -rw_restart: resume the first forward sweep from kept checkpoints */
  PetscBool       usemeasured;   /* -rw_adjoint_measured_costs: re-plan with the costs measured */
  PetscReal       ramfraction;   /* -rw_checkpoint_ram_fraction: of the node's available memory, the default RAM budget */
  PetscInt64      nodememory;    /* -rw_checkpoint_node_memory: the node's memory for it (0: MemAvailable) */
  PetscInt64      defaultbudget; /* the default RAM budget per rank the schedule got (0: none) */
  RwAdjointTimeChoice bytime;    /* store-all by default: kept or replaced by revolve at the first solve, by predicted time (budget.c) */
  PetscInt64      killat;        /* -rw_debug_kill_at_step: SIGKILL itself there (tests of restart) */
  PetscInt64      killreverse;   /* -rw_debug_kill_at_reverse: ... after reversing this step */
  PetscInt64      killaction;    /* -rw_debug_kill_at_action: ... before this schedule action */
  PetscInt64      killkeep;      /* -rw_debug_kill_in_keep: ... half way through writing this keep (from 1) */
  PetscInt64      killsolve;     /* -rw_debug_kill_solve: the solve (from 0) in which the kills fire */
  PetscInt64      solves;
  PetscInt        nattach;       /* kept with each checkpoint: [valid flag, the objective's exact state] */
  PetscInt64     *attach;
  char           *problem;       /* the stores' identity: RwAdjointGetIdentity()'s with the schedule (made once) */
  char            modelid[512];  /* the model's identity at RwAdjointSetUp(): the problem's; what a solve changes after (a shot's sources, a band's wavelet) is the solve's */
  char            solve[1024];   /* this solve's parameters, initial state, objective data and model */
  PetscReal      *scalars;       /* a solve's parameter scalars, read for its identity: nscalars (+1, never empty), made at set-up */
  /* the reverse-sweep keep (keep.c): lambda_k, x_k and the model's accumulators, double-buffered */
  PetscInt64      keepinterval;  /* -rw_adjoint_keep_interval: reverse steps between keeps; 0: none */
  PetscReal       keepseconds;   /* -rw_adjoint_keep_seconds: seconds between keeps; 0: none */
  char            keepfile[PETSC_MAX_PATH_LEN]; /* -rw_adjoint_keep_file; default from the checkpoint file */
  char            filetag[RW_FILE_TAG_LEN];     /* RwAdjointSetFileTag(): in the names of the stores' and the keep's files */
  RwStore         keep[2];       /* [0]: states (lambda, x) x 2 buffers; [1]: accumulators x 2 buffers */
  PetscInt64     *keepattach;    /* [sequence, step k, action index, the objective's exact state...] */
  PetscInt        keepobj;        /* integers of the objective's state in keepattach */
  PetscInt64      keepseq;       /* keeps written in this solve */
  PetscLogDouble  keeplast;      /* when the last keep was written */
  /* monitors (monitor.c) */
  PetscErrorCode (*monitor[RW_ADJOINT_MAX_MONITORS])(RwAdjoint, RwAdjointPhase, PetscInt64, Vec, void *);
  void           *monitorctx[RW_ADJOINT_MAX_MONITORS];
  PetscErrorCode (*monitordestroy[RW_ADJOINT_MAX_MONITORS])(void **);
  PetscInt        nmonitors;
  PetscInt64      monitortotal, monitordone; /* steps the solve takes in all, and so far */
  PetscLogDouble  monitorstart;
  /* stopping a run while it runs (stop.c): -rw_steps is then an upper bound (online schedule) */
  PetscErrorCode (*stoptest)(RwAdjoint, PetscInt64, Vec, Vec, PetscBool *, void *);
  void           *stopctx;
  PetscReal       stopsteady;    /* -rw_adjoint_stop_steady: stop when max |u_k - u_k-1| <= this; 0: not */
  Vec             W, N, T;       /* working state x_w, next state x_k+1, scratch */
  Vec             X[RW_MODEL_MAX_STEP_BLOCK - 1]; /* a block of forward steps' outputs after the first (RwModelStepBlock()): block - 1 of them */
  PetscInt        block;         /* the most forward steps a pass takes (RwModelGetStepBlock()); 1: one a pass */
  Vec             lent, spare;   /* the one of W, N, T, X a memory slot holds (RwStoreWriteTake()): read, never written;
                                    and the free vector the store gave for it, which replaces it before a write */
  Vec             lam[2];        /* lambda_k+1 and lambda_k */
  Vec             dW, dT;        /* tangent states */
  RwAdjointCounts counts;
  /* the adjoint's growth over a reverse sweep (src/horizon/growth.c, issue 34) */
  PetscBool       horizonon;     /* -rw_adjoint_horizon: measure it */
  PetscReal       horizonwarn;   /* -rw_adjoint_horizon_warn: e-foldings past which to warn; 0: never */
  RwHorizonGrowth horizon;
  RwReproSum      horizonacc;    /* |lambda_k+1|^2 and |A_k^T lambda_k+1|^2, made once: no allocation in the reverse sweep */
  /* a solve in two parts (solve.c, issue 35): the run RwAdjointSolveForward() left at x_n for RwAdjointSolveReverse() */
  struct _RwAdjointPending *pending;
  RwAdjointErrest errest;        /* the gradient error of lossy checkpoints (errest.c, issue 36 item 3) */
  /* compressed states at their real length in the RAM budget (pool.c, issue 36) */
  RwAdjointPoolInfo pool;
  PetscInt64        poolf0;    /* the model's forward steps when the solve began */
  PetscInt64       *poolmiss;  /* per RAM slot: the step of the state it should hold but found no room, -1 if none */
  PetscInt64        poolslots; /* entries of poolmiss */
  PetscInt64        poolnext[2]; /* the plan of the solves to come after one with states larger than planned: slots, bytes a state (0: unchanged) */
  PetscBool         poolreplan; /* -rw_checkpoint_replan: a state with no room in the first sweep re-plans (else it is recomputed where restored) */
  /* a re-plan that keeps the states held (pool.c, issue 36) */
  PetscBool         poolcontinue;  /* -rw_checkpoint_replan continue (default): re-plan from the states held, not from x_0 */
  PetscBool         shareplanes;   /* -rw_checkpoint_share_planes: the memory store keeps the plane consecutive states share once (where the model declares the shift) */
  RwSchedule        poolcont;      /* the continuation the solve follows since its last re-plan; NULL: adj->sched */
  PetscInt64        poolcontsteps; /* its forward steps, predicted */
  /* a disk budget at the compressed size: the hdf5 disk store's parts (pooldisk.c, issue 36) */
  RwAdjointPoolInfo disk;
  PetscInt64       *diskmiss;  /* per disk slot: the step of the state larger than its part, -1 if none */
  PetscInt64        diskslots; /* entries of diskmiss */
  Vec               diskx0;    /* the solve's x_0, for a first plan of the disk level made during it */
  PetscBool         diskfull;  /* a re-plan found no gain left: the disk level's parts are the full capacity again */
  /* -rw_store_compress auto (codecauto.c, issue 36) */
  RwAdjointCodecChoice codecchoice[RW_NUM_LEVELS];
  PetscInt64           codecpred[3][RW_NUM_LEVELS][2]; /* per candidate: the stores and restores its schedule predicts, per level */
  PetscBool            codecremake; /* the last solve chose another RAM codec: the store is made again at the next solve */
  PetscReal            codecstep;  /* -rw_debug_auto_step_seconds: testing, a forward step's seconds instead of the measured (0: measured) */
};

/* The state of one reversal: where the working state is, how far the forward sweep has come */
typedef struct {
  Vec        u0;
  PetscInt64 w;       /* W holds x_w; -1: undefined (after a REVERSE) */
  PetscInt64 reached; /* the furthest state whose objective terms are in J */
  PetscBool  reversing;
  PetscInt64 action;  /* actions of the schedule taken so far */
  PetscInt64 n;       /* the run's last step: the driver's n, or where a stop test ended it */
  PetscBool  lastkept; /* the first sweep ended at x_n: N holds x_n and W x_(n-1), no step to take */
  PetscBool  scheduled; /* the run follows the schedule (RwAdjointSolve()): a stop goes to it */
  PetscBool  hasnext; /* the driver looked at the schedule's next action, kept in next */
  RwAction   next;
  PetscBool  replanned; /* the last STORE found no room in the compressed RAM pool: the sweep started again from x_0 with a new schedule (pool.c) */
} RwRun;

/* Exchanges two Vec handles: the driver moves states between its buffers without copying */
#define RwVecSwap(a, b) \
  do { \
    Vec t_ = (a); \
    (a)    = (b); \
    (b)    = t_; \
  } while (0)

/* The debugging kills of restart tests fire in one solve only */
static inline void RwAdjointMaybeKill(RwAdjoint adj, PetscInt64 at, PetscInt64 now)
{
  if (PetscUnlikely(at >= 0 && now == at && adj->solves == adj->killsolve)) raise(SIGKILL);
}

#define RW_KEEP_HEADER 4 /* sequence, step, action index, the run's last step (an online run's stop); the objective's state follows, then the model's scalar-gradient sums */

/* the class's files (adjoint.c lists them): set-up, identity, executor, solve, resume */
PETSC_INTERN PetscErrorCode RwAdjointCreateStores_Private(RwAdjoint, Vec);
PETSC_INTERN PetscErrorCode RwAdjointReplan_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwTaylorTestRun_Private(PetscReal, PetscReal, PetscErrorCode (*)(PetscReal, void *, PetscReal *), void *, RwTaylorTest *);
PETSC_INTERN PetscErrorCode RwAdjointProblemIdentity_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointSolveIdentity_Private(RwAdjoint, Vec, Vec);
PETSC_INTERN void           RwAdjointOwnAll_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointCheckFiniteEvery_Private(RwAdjoint, PetscInt64);
PETSC_INTERN PetscErrorCode RwAdjointExecuteNext_Private(RwAdjoint, RwRun *, RwAction *);
PETSC_INTERN PetscErrorCode RwAdjointBeginRun_Private(RwAdjoint, Vec, Vec, PetscInt64 *);
PETSC_INTERN PetscErrorCode RwAdjointResume_Private(RwAdjoint, RwRun *);
PETSC_INTERN PetscErrorCode RwAdjointMonitorCall_Private(RwAdjoint, RwAdjointPhase, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode RwAdjointMonitorBegin_Private(RwAdjoint, PetscInt64);
PETSC_INTERN PetscErrorCode RwAdjointMonitorSkip_Private(RwAdjoint, PetscInt64);
PETSC_INTERN PetscErrorCode RwAdjointMonitorSetFromOptions_Private(RwAdjoint, PetscOptionItems *);
/* src/horizon/growth.c: the adjoint's growth and the horizon warning (issue 34) */
PETSC_INTERN PetscErrorCode RwAdjointHorizonSetFromOptions_Private(RwAdjoint, PetscOptionItems *);
PETSC_INTERN PetscErrorCode RwAdjointHorizonBegin_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointHorizonRecord_Private(RwAdjoint, PetscInt64, Vec, Vec);
PETSC_INTERN PetscErrorCode RwAdjointHorizonView_Private(RwAdjoint, PetscViewer);
PETSC_INTERN PetscErrorCode RwAdjointDefaultBudget_Private(RwAdjoint, PetscBool);
PETSC_INTERN PetscErrorCode RwAdjointChooseByTime_Private(RwAdjoint, Vec);
PETSC_INTERN PetscErrorCode RwAdjointRentOrBuy_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointViewTimeChoice_Private(RwAdjoint, PetscViewer);
PETSC_INTERN PetscErrorCode RwAdjointAdvance_Private(RwAdjoint, RwRun *, PetscInt64, PetscInt64);
PETSC_INTERN PetscErrorCode RwAdjointStore_Private(RwAdjoint, RwRun *, const RwAction *);
PETSC_INTERN PetscErrorCode RwAdjointStopCheck_Private(RwAdjoint, PetscInt64, PetscBool *);
PETSC_INTERN PetscErrorCode RwAdjointStopSetFromOptions_Private(RwAdjoint, PetscOptionItems *);
PETSC_INTERN PetscErrorCode RwAdjointStopDescribe_Private(RwAdjoint, char[], size_t);
PETSC_INTERN PetscErrorCode RwAdjointKeepCreate_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointKeepBegin_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointKeepStep_Private(RwAdjoint, RwRun *, PetscInt64);
PETSC_INTERN PetscErrorCode RwAdjointKeepEnd_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointKeepResume_Private(RwAdjoint, RwRun *, PetscBool *);
/* solve.c: a solve in two parts (issue 35) */
PETSC_INTERN PetscErrorCode RwAdjointSolveCancel_Private(RwAdjoint, PetscBool);
PETSC_INTERN PetscErrorCode RwAdjointReachEnd_Private(RwAdjoint, RwRun *, PetscInt64);
PETSC_INTERN PetscErrorCode RwAdjointPeekNext_Private(RwAdjoint, RwRun *);
/* errest.c: the gradient error of lossy checkpoints (issue 36 item 3) */
PETSC_INTERN PetscErrorCode RwAdjointErrestBegin_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointErrestSlots_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointErrestStore_Private(RwAdjoint, const RwAction *);
PETSC_INTERN void           RwAdjointErrestRestore_Private(RwAdjoint, const RwAction *);
PETSC_INTERN PetscErrorCode RwAdjointErrestReverse_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointErrestEnd_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointErrestView_Private(RwAdjoint, PetscViewer);
PETSC_INTERN PetscErrorCode RwAdjointErrestDestroy_Private(RwAdjoint);
/* pool.c: a RAM budget planned at the compressed size, re-planned when states compress worse (issue 36) */
PETSC_INTERN PetscErrorCode RwAdjointPoolPlan_Private(RwAdjoint, RwStore, Vec);
PETSC_INTERN PetscErrorCode RwAdjointPoolReplan_Private(RwAdjoint, PetscBool);
PETSC_INTERN PetscErrorCode RwAdjointPoolMissed_Private(RwAdjoint, const RwAction *, PetscBool, PetscBool *);
PETSC_INTERN PetscErrorCode RwAdjointPoolNearest_Private(RwAdjoint, PetscInt64, PetscInt *, PetscInt64 *, PetscInt64 *);
PETSC_INTERN PetscErrorCode RwAdjointPoolBegin_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointPoolEnd_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointPoolView_Private(RwAdjoint, PetscViewer);
PETSC_INTERN PetscErrorCode RwAdjointPoolContinue_Private(RwAdjoint, const RwAction *, PetscBool *);
PETSC_INTERN PetscErrorCode RwAdjointPoolReplanFromOptions_Private(RwAdjoint, PetscOptionItems *);
PETSC_INTERN RwSchedule     RwAdjointPoolSchedule_Private(RwAdjoint);
/* pooldisk.c: a disk budget planned at the compressed size (issue 36) */
PETSC_INTERN PetscErrorCode RwAdjointDiskPoolPlan_Private(RwAdjoint, RwStore, Vec);
PETSC_INTERN PetscErrorCode RwAdjointDiskPoolMissed_Private(RwAdjoint, const RwAction *, PetscBool, PetscBool *);
PETSC_INTERN PetscInt64    *RwAdjointDiskPoolMiss_Private(RwAdjoint, const RwAction *);
PETSC_INTERN PetscErrorCode RwAdjointDiskPoolReplan_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointDiskPoolBegin_Private(RwAdjoint, Vec);
PETSC_INTERN PetscErrorCode RwAdjointDiskPoolEnd_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointDiskPoolView_Private(RwAdjoint, PetscViewer);
PETSC_INTERN PetscErrorCode RwAdjointStoreMake_Private(RwAdjoint, PetscInt, PetscInt64, Vec);
/* codecauto.c: -rw_store_compress auto, the codec per level from measured costs (issue 36) */
PETSC_INTERN PetscErrorCode RwAdjointPoolWouldApply_Private(RwAdjoint, RwStore, PetscBool *);
PETSC_INTERN PetscErrorCode RwAdjointPoolPredict_Private(RwAdjoint, PetscInt64, RwScheduleCounts *);
PETSC_INTERN PetscErrorCode RwAdjointErrestTolerance_Private(RwAdjoint, PetscInt, RwStore, PetscReal *);
PETSC_INTERN PetscErrorCode RwAdjointCodecAuto_Private(RwAdjoint, PetscInt, RwStore, Vec);
PETSC_INTERN PetscErrorCode RwAdjointCodecAutoEnd_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointCodecAutoBegin_Private(RwAdjoint);
PETSC_INTERN PetscErrorCode RwAdjointCodecAutoView_Private(RwAdjoint, PetscViewer);
/* issue 37 item 1 (h-store): the model's state layout, which every store of its states is set to (setup.c) */
PETSC_INTERN PetscErrorCode RwAdjointStoreStateLayout_Private(RwAdjoint, RwStore);

#endif
