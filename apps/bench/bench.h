/*
  rewind-bench: shared declarations of its sections (the files of apps/bench).

  Every figure is measured in one process, so ratios between figures hold on a
  noisy machine.  A section adds rows to a BenchResults table: a case name and
  named values (numbers with units, or text); rank 0 prints each section's
  rows as a table, and the whole table goes to CSV or JSON on request.
  doc/benchmarks.md says what every figure counts.
*/
#ifndef REWIND_BENCH_H
#define REWIND_BENCH_H

#include <rewind.h>

/* The cases of the gradient section, in the order they run */
typedef enum {
  BENCH_STOREALL,
  BENCH_REVOLVE,
  BENCH_REVOLVE_HDF5,
  BENCH_MULTILEVEL,
  BENCH_KEEP,
  BENCH_DEFAULT,
  BENCH_WEAK,
  BENCH_OPTIONS,
  BENCH_NGRADIENT
} BenchGradientCase;
PETSC_INTERN const char *const BenchGradientCases[];

/* What each section measures and how big; presets by -rw_bench_size, each
   field overridable by its own option (rewind-bench.c) */
typedef struct {
  PetscInt  size;              /* preset: 0 tiny, 1 small, 2 large */
  PetscInt  stream_n;          /* doubles per array per rank */
  PetscInt  kernel_grid[4];    /* 2D sides; 1D and 3D use as many points */
  PetscInt  nkernel_grid;
  PetscInt  kernel_dims[3], nkernel_dims;
  PetscBool kernel_explicit, kernel_implicit;
  PetscInt  kernel_implicit_max; /* largest 2D side of the implicit cases */
  PetscReal seconds;           /* least seconds of one timed measurement */
  PetscInt  repeat;            /* timed repetitions; the best is kept */
  PetscInt  gradient_grid, gradient_steps;
  PetscInt  revolve_slots[4], nrevolve_slots;
  PetscBool weak;              /* the options case's grid has a block of weak_grid per rank */
  PetscInt  weak_grid[3], nweak_grid;
  PetscInt  io_grid, io_slots;
  PetscInt  peer_grid, peer_steps;
  PetscInt  sum_terms, sum_repeat, sum_reduce_repeat;
  PetscInt  wave_grid2[4], nwave_grid2; /* wave: 2D sides of the step cases */
  PetscInt  wave_grid3;                 /* and the 3D side */
  PetscInt  wave_orders[3], nwave_orders;
  PetscInt  wave_gradient_grid, wave_gradient_steps;
  PetscInt  wave_gradient_grid3;         /* the 3D store-all gradient's side (0: none) */
  PetscInt  wave_fwi3d_grid, wave_fwi3d_steps; /* the 3D FWI gradient: physical points a side (0: none), steps */
  PetscReal wave_record;                 /* ms of the embedded FWI problem's shots */
  PetscBool compression[3];              /* compression section's parts: codecs (same slots), error (the tolerance sweep), budget (the same bytes) */
  char      dir[PETSC_MAX_PATH_LEN]; /* for checkpoint and plain-write files */
  PetscBool gradient[BENCH_NGRADIENT]; /* the cases to run */
} BenchConfig;

/* ---- results: rows of named values (results.c) ---- */
typedef struct _n_BenchResults *BenchResults;
PETSC_INTERN PetscErrorCode BenchResultsCreate(MPI_Comm, BenchResults *);
PETSC_INTERN PetscErrorCode BenchResultsDestroy(BenchResults *);
PETSC_INTERN PetscErrorCode BenchSectionBegin(BenchResults, const char[], const char[]);
PETSC_INTERN PetscErrorCode BenchSectionEnd(BenchResults);
PETSC_INTERN PetscErrorCode BenchNote(BenchResults, const char[], ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
PETSC_INTERN PetscErrorCode BenchRow(BenchResults, const char[], ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
PETSC_INTERN PetscErrorCode BenchReal(BenchResults, const char[], const char[], PetscReal);
PETSC_INTERN PetscErrorCode BenchInt(BenchResults, const char[], PetscInt64);
PETSC_INTERN PetscErrorCode BenchText(BenchResults, const char[], const char[]);
PETSC_INTERN PetscErrorCode BenchLastRowName(BenchResults, char[], size_t);
PETSC_INTERN PetscErrorCode BenchLookup(BenchResults, const char[], const char[], const char[], PetscReal *);
PETSC_INTERN PetscErrorCode BenchCopyBandwidth(BenchResults, PetscReal *);
PETSC_INTERN PetscErrorCode BenchCopyBest(BenchResults, PetscReal *);
PETSC_INTERN PetscErrorCode BenchResultsWrite(BenchResults, const char[]);

/* ---- measurement helpers (util.c) ---- */
/* A model's default problem (kappa, u0, a terminal misfit to the default
   target) and a driver for it, with the gradients it fills */
typedef struct {
  RwModel     model;
  RwObjective obj;
  Vec         m, u0, target, g, gu0;
  RwAdjoint   adj;
} BenchProblem;
PETSC_INTERN PetscErrorCode BenchProblemCreate(RwModel, BenchProblem *);
PETSC_INTERN PetscErrorCode BenchProblemAdjoint(BenchProblem *, const char[]);
PETSC_INTERN PetscErrorCode BenchProblemDestroy(BenchProblem *);
typedef PetscErrorCode (*BenchFn)(void *, PetscInt);
typedef struct {
  PetscReal best, worst; /* seconds per call of the slowest rank: best and worst repetition */
  PetscReal first;       /* seconds of the first call, untimed in best and worst: what a new object pays once (a driver's first touch of its stores) */
  PetscInt  calls;       /* calls per repetition */
} BenchTiming;
PETSC_INTERN PetscErrorCode BenchTime(MPI_Comm, const BenchConfig *, BenchFn, void *, BenchTiming *);
PETSC_INTERN PetscReal      BenchSpread(const BenchTiming *);
PETSC_INTERN PetscErrorCode BenchOptionsPush(PetscOptions *, const char[], ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
PETSC_INTERN PetscErrorCode BenchOptionsPop(PetscOptions *);
PETSC_INTERN PetscErrorCode BenchHeatModel(MPI_Comm, PetscInt, const char[], const PetscInt[], RwModel *);
PETSC_INTERN PetscErrorCode BenchGridName(RwModel, char[], size_t);
PETSC_INTERN PetscErrorCode BenchPath(const BenchConfig *, const char[], char[], size_t);
/* One step of a model timed from fixed random states, in one of its forms
   (kernels.c; the heat and wave sections use it) */
typedef enum {
  BENCH_STEP_FORWARD,
  BENCH_STEP_TANGENT,
  BENCH_STEP_ADJOINT,
  BENCH_STEP_EXCHANGE, /* RwModelGlobalToLocal: a full copy with ghosts (sensors, regularisers); passes exchange ghosts only */
  BENCH_STEP_PAIR,     /* RwModelStepBlock(): two forward steps in one pass, u_k -> w, dw (a call takes two steps) */
  BENCH_STEP_BLOCK     /* RwModelStepBlock(): depth forward steps in one pass, u_k -> out[] (a call takes depth steps) */
} BenchStepForm;
typedef struct {
  RwModel       model;
  Vec           u, w, du, dw, l, lw; /* u_k, u_k+1, their tangents, lambda_k+1, lambda_k */
  Vec           loc;                  /* u with ghosts (the exchange form) */
  BenchStepForm form;
  PetscInt      depth;                          /* the block form's steps a call */
  Vec           out[RW_MODEL_MAX_STEP_BLOCK];   /* and its outputs (the caller's) */
} BenchStepCtx;
PETSC_INTERN PetscErrorCode BenchStepRun(void *, PetscInt);
PETSC_INTERN PetscErrorCode BenchStepStates(RwModel, BenchStepCtx *);
PETSC_INTERN PetscErrorCode BenchStepParameters(RwModel, Vec *, Vec *);
PETSC_INTERN PetscErrorCode BenchStepDestroy(BenchStepCtx *);
/* A BenchProblem's forward run and gradient (gradient.c; the wave section uses them) */
PETSC_INTERN PetscErrorCode BenchForwardRun(void *, PetscInt);
PETSC_INTERN PetscErrorCode BenchGradientRun(void *, PetscInt);
PETSC_INTERN PetscErrorCode BenchGradientTime(const BenchConfig *, BenchProblem *, const char[], PetscReal *, BenchTiming *);
PETSC_INTERN PetscErrorCode BenchGradientRowBegin(BenchResults, BenchProblem *, const char[]);
PETSC_INTERN PetscErrorCode BenchSetRow(const BenchConfig *, BenchResults, RwModel, BenchFn, void *, const char[], const char[], PetscReal, PetscReal, PetscReal, PetscReal, PetscBool);
PETSC_INTERN PetscErrorCode BenchPortableRow(const BenchConfig *, BenchResults, RwModel, BenchFn, void *, PetscReal, PetscReal, PetscReal, PetscReal, PetscBool);
PETSC_INTERN PetscErrorCode BenchParseNames(const char[], const char[], PetscInt, const char *const[], PetscBool[]);

/* ---- the sections ---- */
PETSC_INTERN PetscErrorCode BenchStream(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchCopyNear(const BenchConfig *, PetscReal *);
PETSC_INTERN PetscErrorCode BenchKernels(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchGradient(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchIO(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchCompression(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchPeer(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchSum(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchWave(const BenchConfig *, BenchResults);
/* the wave section's shots (waveshots.c): rewind-fwi's 2D problem, the 3D gradient against its roofline */
PETSC_INTERN PetscErrorCode BenchWaveShots(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchWaveFwi3D(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchTargets(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchHybrid(const BenchConfig *, BenchResults);
PETSC_INTERN PetscErrorCode BenchHybridHelp(const BenchConfig *);

#endif
