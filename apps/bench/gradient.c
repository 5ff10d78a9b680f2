/*
  What a gradient costs: RwAdjointSolve time over RwAdjointForward time (J
  alone) for checkpointing schedules and stores, with the forward steps the
  driver took against the schedule's prediction.  Built-in cases run the 2D
  explicit heat problem of -rw_bench_gradient_grid; the "options" case runs
  the problem and schedule the options database describes, as
  rewind-gradient would (the scaling studies of jobs/ use it).
*/
#include "bench.h"
#include <petscdmda.h>

typedef struct {
  RwModel     model;
  RwObjective obj;
  Vec         m, u0, target, g, gu0;
  RwAdjoint   adj;
} GradProblem;

static PetscErrorCode GradForward(void *ctx, PetscInt calls)
{
  GradProblem *p = (GradProblem *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointForward(p->adj, p->m, p->u0, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GradSolve(void *ctx, PetscInt calls)
{
  GradProblem *p = (GradProblem *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointSolve(p->adj, p->m, p->u0, NULL, p->g, p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The default problem of a set-up model: kappa, u0, the target of a terminal misfit */
static PetscErrorCode GradProblemCreate(RwModel model, GradProblem *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->model = model;
  PetscCall(RwModelCreateParameters(model, &p->m));
  PetscCall(RwModelCreateState(model, &p->u0));
  PetscCall(RwModelCreateState(model, &p->target));
  PetscCall(RwModelGetDefaults(model, p->m, p->u0, p->target));
  PetscCall(RwObjectiveCreate(model, &p->obj));
  PetscCall(RwObjectiveAddTerminalMisfit(p->obj, p->target, 1.0));
  PetscCall(VecDuplicate(p->m, &p->g));
  PetscCall(VecDuplicate(p->u0, &p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GradProblemDestroy(GradProblem *p)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointDestroy(&p->adj));
  PetscCall(RwObjectiveDestroy(&p->obj));
  PetscCall(VecDestroy(&p->m));
  PetscCall(VecDestroy(&p->u0));
  PetscCall(VecDestroy(&p->target));
  PetscCall(VecDestroy(&p->g));
  PetscCall(VecDestroy(&p->gu0));
  PetscCall(RwModelDestroy(&p->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A driver from the options in opts (a built-in case), or from the options database (opts NULL) */
static PetscErrorCode GradAdjoint(GradProblem *p, const char *opts)
{
  PetscOptions o = NULL;

  PetscFunctionBegin;
  PetscCall(RwAdjointDestroy(&p->adj));
  if (opts) PetscCall(BenchOptionsPush(&o, "%s", opts));
  PetscCall(RwAdjointCreate(p->model, p->obj, &p->adj));
  PetscCall(RwAdjointSetFromOptions(p->adj));
  PetscCall(RwAdjointSetUp(p->adj));
  if (opts) PetscCall(BenchOptionsPop(&o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One row: gradient time over forward time, steps taken against steps predicted */
static PetscErrorCode GradCase(const BenchConfig *cfg, BenchResults res, GradProblem *p, const char *name, const char *opts, PetscReal *fwd, RwAdjointCounts *counts)
{
  BenchTiming      tf, tg;
  RwSchedule       sched;
  RwScheduleCounts pred;
  RwScheduleType   type;
  RwStore          store;
  RwStoreType      stype = "none", dtype = "";
  PetscInt64       n;
  PetscBool        h5;
  char             grid[64], stores[64];

  PetscFunctionBegin;
  PetscCall(GradAdjoint(p, opts));
  if (*fwd <= 0) { /* the forward sweep does not depend on the schedule: timed once */
    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, GradForward, p, &tf));
    *fwd = tf.best;
  }
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, GradSolve, p, &tg));
  PetscCall(RwAdjointGetCounts(p->adj, counts));
  PetscCall(RwAdjointGetSchedule(p->adj, &sched));
  PetscCall(RwScheduleGetPrediction(sched, &pred));
  PetscCall(RwScheduleGetType(sched, &type));
  PetscCall(RwAdjointGetStore(p->adj, RW_LEVEL_RAM, &store));
  if (store) PetscCall(RwStoreGetType(store, &stype));
  PetscCall(PetscStrcmp(stype, RWSTOREHDF5, &h5));
  PetscCall(RwAdjointGetStore(p->adj, RW_LEVEL_DISK, &store));
  if (store) PetscCall(RwStoreGetType(store, &dtype));
  PetscCall(PetscSNPrintf(stores, sizeof(stores), "%s%s%s", stype, store ? "+" : "", store ? dtype : ""));
  PetscCall(RwAdjointGetSteps(p->adj, &n));
  PetscCall(BenchGridName(p->model, grid, sizeof(grid)));
  PetscCall(BenchRow(res, "%s", name));
  PetscCall(BenchText(res, "grid", grid));
  PetscCall(BenchInt(res, "steps", n));
  PetscCall(BenchText(res, "schedule", type));
  PetscCall(BenchText(res, "store", stores));
  PetscCall(BenchReal(res, "forward", "s", *fwd));
  PetscCall(BenchReal(res, "gradient", "s", tg.best));
  PetscCall(BenchReal(res, "ratio", "", tg.best / *fwd));
  PetscCall(BenchInt(res, "fwd_steps", counts->forward_steps));
  PetscCall(BenchInt(res, "predicted", pred.forward_steps));
  PetscCall(BenchInt(res, "disk_writes", counts->stores[RW_LEVEL_DISK] + (h5 ? counts->stores[RW_LEVEL_RAM] : 0)));
  PetscCall(BenchReal(res, "in_forward", "s", counts->seconds_forward));
  PetscCall(BenchReal(res, "in_reverse", "s", counts->seconds_reverse));
  PetscCall(BenchReal(res, "store_restore", "s", counts->seconds_store + counts->seconds_restore));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(&tg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Processors per direction for P ranks in dim directions, as even as possible */
static void GradSplitRanks(PetscMPIInt P, PetscInt dim, PetscInt p[3])
{
  p[0] = p[1] = p[2] = 1;
  for (PetscMPIInt f = P; f > 1; f--) /* prime factors, largest first, to the smallest count */
    while (P % f == 0) {
      PetscInt d = 0;
      for (PetscInt e = 1; e < dim; e++)
        if (p[e] < p[d]) d = e;
      p[d] *= f;
      P /= f;
    }
}

/* -rw_bench_weak: -da_grid_* give one rank's grid; the run's grid has a block per rank */
static PetscErrorCode GradWeakGrid(void)
{
  PetscInt    dim = 2, p[3], M;
  PetscMPIInt size;
  char        opt[32], val[32];
  PetscBool   set;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rw_heat_dim", &dim, NULL));
  GradSplitRanks(size, dim, p);
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-da_grid_%c", "xyz"[d]));
    PetscCall(PetscOptionsGetInt(NULL, NULL, opt, &M, &set));
    PetscCheck(set, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_bench_weak needs the grid of one rank: give %s", opt);
    PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, M * p[d]));
    PetscCall(PetscOptionsSetValue(NULL, opt, val));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-da_processors_%c", "xyz"[d]));
    PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, p[d]));
    PetscCall(PetscOptionsSetValue(NULL, opt, val));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options case: problem, steps, schedule and stores all from the options database */
static PetscErrorCode GradOptionsCase(const BenchConfig *cfg, BenchResults res)
{
  GradProblem     p;
  RwModel         model;
  RwAdjointCounts counts;
  PetscReal       fwd = 0;

  PetscFunctionBegin;
  if (cfg->weak) PetscCall(GradWeakGrid());
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, &model));
  PetscCall(RwModelSetType(model, RWMODELHEAT));
  PetscCall(RwModelSetFromOptions(model));
  PetscCall(RwModelSetUp(model));
  PetscCall(GradProblemCreate(model, &p));
  PetscCall(GradCase(cfg, res, &p, cfg->weak ? "options (weak)" : "options", NULL, &fwd, &counts));
  PetscCall(GradProblemDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The built-in cases on the 2D explicit problem; multilevel's disk costs are
   those the revolve/hdf5 case measured, in forward steps */
static PetscErrorCode GradBuiltinCases(const BenchConfig *cfg, BenchResults res)
{
  GradProblem     p;
  RwModel         model;
  RwAdjointCounts counts;
  const PetscInt  M[2] = {cfg->gradient_grid, cfg->gradient_grid}, s0 = cfg->revolve_slots[0];
  PetscReal       fwd = 0, wd = 1, rd = 1;
  char            file[PETSC_MAX_PATH_LEN], name[64], opts[1024], steps[64];

  PetscFunctionBegin;
  PetscCall(BenchHeatModel(PETSC_COMM_WORLD, 2, "explicit", M, &model));
  PetscCall(GradProblemCreate(model, &p));
  PetscCall(BenchPath(cfg, "rewind-bench-checkpoints.h5", file, sizeof(file)));
  PetscCall(PetscSNPrintf(steps, sizeof(steps), "-rw_steps %" PetscInt_FMT, cfg->gradient_steps));
  if (cfg->gradient[BENCH_STOREALL]) {
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_schedule_type storeall -rw_store_type memory", steps));
    PetscCall(GradCase(cfg, res, &p, "storeall/memory", opts, &fwd, &counts));
  }
  for (PetscInt s = 0; cfg->gradient[BENCH_REVOLVE] && s < cfg->nrevolve_slots; s++) {
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots %" PetscInt_FMT " -rw_store_type memory", steps, cfg->revolve_slots[s]));
    PetscCall(PetscSNPrintf(name, sizeof(name), "revolve/memory s=%" PetscInt_FMT, cfg->revolve_slots[s]));
    PetscCall(GradCase(cfg, res, &p, name, opts, &fwd, &counts));
  }
  if (cfg->gradient[BENCH_REVOLVE_HDF5]) {
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots %" PetscInt_FMT " -rw_store_type hdf5 -rw_store_hdf5_file %s", steps, s0, file));
    PetscCall(PetscSNPrintf(name, sizeof(name), "revolve/hdf5 s=%" PetscInt_FMT, s0));
    PetscCall(GradCase(cfg, res, &p, name, opts, &fwd, &counts));
    wd = (counts.seconds_store / PetscMax(counts.stores[RW_LEVEL_RAM], 1)) / (fwd / cfg->gradient_steps);
    rd = (counts.seconds_restore / PetscMax(counts.restores[RW_LEVEL_RAM], 1)) / (fwd / cfg->gradient_steps);
  }
  if (cfg->gradient[BENCH_MULTILEVEL]) {
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_schedule_type multilevel -rw_schedule_ram_slots %" PetscInt_FMT " -rw_schedule_disk_slots inf -rw_schedule_costs 1,1,%g,%g -rw_store_disk_type hdf5 -rw_store_hdf5_file %s", steps, s0, (double)wd, (double)rd, file));
    PetscCall(PetscSNPrintf(name, sizeof(name), "multilevel ram=%" PetscInt_FMT " disk=inf", s0));
    PetscCall(GradCase(cfg, res, &p, name, opts, &fwd, &counts));
    PetscCall(BenchNote(res, "multilevel costs uf,ub,wd,rd = 1,1,%.3g,%.3g: disk write and read in forward steps, as the revolve/hdf5 case measured them (1,1 if it did not run)", (double)wd, (double)rd));
  }
  PetscCall(GradProblemDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const BenchGradientCases[] = {"storeall", "revolve", "revolve-hdf5", "multilevel", "options"};

PetscErrorCode BenchGradient(const BenchConfig *cfg, BenchResults res)
{
  PetscBool builtin = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(BenchSectionBegin(res, "gradient", "gradient time / forward time by schedule and store"));
  for (PetscInt c = 0; c < BENCH_OPTIONS; c++) builtin = (PetscBool)(builtin || cfg->gradient[c]);
  if (builtin) PetscCall(GradBuiltinCases(cfg, res));
  if (cfg->gradient[BENCH_OPTIONS]) PetscCall(GradOptionsCase(cfg, res));
  PetscCall(BenchNote(res, "forward: RwAdjointForward (J alone, nothing stored); gradient: RwAdjointSolve (J, dJ/dm, dJ/du0), best of %" PetscInt_FMT "; fwd_steps: forward steps the driver took, predicted: RwScheduleGetPrediction", cfg->repeat));
  PetscCall(BenchNote(res, "in_forward, in_reverse, store_restore: seconds of the last gradient in ADVANCE, REVERSE (adjoint steps, the first forward step) and STORE/RESTORE actions (RwAdjointGetCounts)"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
