/*
  What a gradient costs: RwAdjointSolve time over RwAdjointForward time (J
  alone) for checkpointing schedules and stores, with the forward steps the
  driver took against the schedule's prediction.  Built-in cases run the 2D
  explicit heat problem of -rw_bench_gradient_grid; the "options" case runs
  the problem and schedule the options database describes, through the
  RwProblem rewind-gradient solves (the scaling studies of jobs/ use it).
*/
#include "bench.h"
#include <petscdmda.h>
#include <unistd.h>

PetscErrorCode BenchForwardRun(void *ctx, PetscInt calls)
{
  BenchProblem *p = (BenchProblem *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointForward(p->adj, p->m, p->u0, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchGradientRun(void *ctx, PetscInt calls)
{
  BenchProblem *p = (BenchProblem *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointSolve(p->adj, p->m, p->u0, NULL, p->g, p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem's adjoint with the driver options opts, its forward sweep timed
   once (*fwd <= 0: it does not depend on the schedule) and its gradient into tg */
PetscErrorCode BenchGradientTime(const BenchConfig *cfg, BenchProblem *p, const char opts[], PetscReal *fwd, BenchTiming *tg)
{
  BenchTiming tf;

  PetscFunctionBegin;
  PetscCall(BenchProblemAdjoint(p, opts));
  if (*fwd <= 0) {
    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchForwardRun, p, &tf));
    *fwd = tf.best;
  }
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchGradientRun, p, tg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A gradient row's first columns: its name, the grid, the steps, the schedule */
PetscErrorCode BenchGradientRowBegin(BenchResults res, BenchProblem *p, const char name[])
{
  RwSchedule     sched;
  RwScheduleType type;
  PetscInt64     n;
  char           grid[64];

  PetscFunctionBegin;
  PetscCall(RwAdjointGetSchedule(p->adj, &sched));
  PetscCall(RwScheduleGetType(sched, &type));
  PetscCall(RwAdjointGetSteps(p->adj, &n));
  PetscCall(BenchGridName(p->model, grid, sizeof(grid)));
  PetscCall(BenchRow(res, "%s", name));
  PetscCall(BenchText(res, "grid", grid));
  PetscCall(BenchInt(res, "steps", n));
  PetscCall(BenchText(res, "schedule", type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How much of the hdf5 stores' background work the last gradient did not
   wait for (summed over ranks and levels): 1 - waited / the threads' time,
   for the asynchronous writes and for the prefetched reads */
static PetscErrorCode GradOverlap(BenchResults res, RwAdjoint adj)
{
  double mine[6] = {0, 0, 0, 0, 0, 0}, all[6];

  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    RwStore       store;
    RwStoreCounts c;

    PetscCall(RwAdjointGetStore(adj, l, &store));
    if (!store) continue;
    PetscCall(RwStoreGetCounts(store, &c));
    mine[0] += (double)c.bytes_async;
    mine[1] += c.seconds_async;
    mine[2] += c.seconds_wait;
    mine[3] += (double)c.prefetch_hits;
    mine[4] += c.seconds_prefetch;
    mine[5] += c.seconds_prefetch_wait;
  }
  PetscCall(MPIU_Allreduce(mine, all, 6, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)adj)));
  if (all[0] <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BenchReal(res, "waited", "s", all[2]));
  PetscCall(BenchReal(res, "overlap", "%", all[1] > 0 ? 100 * PetscMax(0.0, 1 - all[2] / all[1]) : 0.0));
  PetscCall(BenchReal(res, "read_waited", "s", all[5]));
  PetscCall(BenchReal(res, "read_overlap", "%", all[4] > 0 ? 100 * PetscMax(0.0, 1 - all[5] / all[4]) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One row: gradient time over forward time, steps taken against steps predicted (p's driver's last solve) */
static PetscErrorCode GradRow(BenchResults res, BenchProblem *p, const char *name, PetscReal fwd, const BenchTiming *tg, RwAdjointCounts *counts)
{
  RwSchedule       sched;
  RwScheduleCounts pred;
  RwStore          store;
  RwStoreType      stype = "none", dtype = "";
  PetscBool        h5;
  char             stores[64];

  PetscFunctionBegin;
  PetscCall(RwAdjointGetCounts(p->adj, counts));
  PetscCall(RwAdjointGetSchedule(p->adj, &sched));
  PetscCall(RwScheduleGetPrediction(sched, &pred));
  PetscCall(RwAdjointGetStore(p->adj, RW_LEVEL_RAM, &store));
  if (store) PetscCall(RwStoreGetType(store, &stype));
  PetscCall(PetscStrcmp(stype, RWSTOREHDF5, &h5));
  PetscCall(RwAdjointGetStore(p->adj, RW_LEVEL_DISK, &store));
  if (store) PetscCall(RwStoreGetType(store, &dtype));
  PetscCall(PetscSNPrintf(stores, sizeof(stores), "%s%s%s", stype, store ? "+" : "", store ? dtype : ""));
  PetscCall(BenchGradientRowBegin(res, p, name));
  PetscCall(BenchText(res, "store", stores));
  PetscCall(BenchReal(res, "forward", "s", fwd));
  PetscCall(BenchReal(res, "gradient", "s", tg->best));
  PetscCall(BenchReal(res, "ratio", "", tg->best / fwd));
  PetscCall(BenchReal(res, "first", "s", tg->first));
  PetscCall(BenchInt(res, "fwd_steps", counts->forward_steps));
  PetscCall(BenchInt(res, "predicted", pred.forward_steps));
  PetscCall(BenchInt(res, "disk_writes", counts->stores[RW_LEVEL_DISK] + (h5 ? counts->stores[RW_LEVEL_RAM] : 0)));
  PetscCall(BenchReal(res, "in_forward", "s", counts->seconds_forward));
  PetscCall(BenchReal(res, "in_reverse", "s", counts->seconds_reverse));
  PetscCall(BenchReal(res, "store_restore", "s", counts->seconds_store[RW_LEVEL_RAM] + counts->seconds_store[RW_LEVEL_DISK] + counts->seconds_restore[RW_LEVEL_RAM] + counts->seconds_restore[RW_LEVEL_DISK]));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(tg)));
  PetscCall(GradOverlap(res, p->adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A built-in case: its driver from opts, timed, and its row */
static PetscErrorCode GradCase(const BenchConfig *cfg, BenchResults res, BenchProblem *p, const char *name, const char *opts, PetscReal *fwd, RwAdjointCounts *counts)
{
  BenchTiming tg;

  PetscFunctionBegin;
  PetscCall(BenchGradientTime(cfg, p, opts, fwd, &tg));
  PetscCall(GradRow(res, p, name, *fwd, &tg, counts));
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

/* -rw_bench_weak: a block of -rw_bench_weak_grid per rank, the ranks split
   per direction as GradSplitRanks() does; the program's defaults of the
   options case's models (RwProblemSetModelDefaults()), which -da_grid_* and
   -da_processors_* would override */
typedef struct {
  PetscInt dim, block[3], p[3], M[3];
} GradWeak;

static PetscErrorCode GradWeakDefaults(RwModel model, void *ctx)
{
  GradWeak   *w = (GradWeak *)ctx;
  PetscMPIInt size, world;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)model), &size));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &world));
  PetscCheck(size == world, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-rw_bench_weak gives every rank a block of one grid: it does not combine with -rw_ensemble_groups");
  PetscCall(RwModelSetGridSizes(model, w->M));
  PetscCall(RwModelSetProcessors(model, w->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GradWeakSetUp(const BenchConfig *cfg, GradWeak *w)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCheck(cfg->nweak_grid > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_bench_weak needs the grid of one rank: give -rw_bench_weak_grid nx,ny[,nz]");
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  w->dim = cfg->nweak_grid;
  GradSplitRanks(size, w->dim, w->p);
  for (PetscInt d = 0; d < 3; d++) {
    w->block[d] = d < w->dim ? cfg->weak_grid[d] : 0;
    w->M[d]     = w->block[d] * w->p[d];
    if (d >= w->dim) w->p[d] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model got the weak grid and a block per rank, unless options overrode them */
static PetscErrorCode GradWeakCheck(const GradWeak *w, RwModel model)
{
  DM       da;
  PetscInt dim, M[3], p[3];

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(model, &da));
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(dim == w->dim, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_bench_weak_grid gives %" PetscInt_FMT " sides, the model's grid is %" PetscInt_FMT "D: give one side per direction", w->dim, dim);
  for (PetscInt d = 0; d < dim; d++)
    PetscCheck(M[d] == w->M[d] && p[d] == w->p[d], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_bench_weak_grid: %" PetscInt_FMT " ranks along %c of a block of %" PetscInt_FMT " points each make %" PetscInt_FMT " points; the model has %" PetscInt_FMT " on %" PetscInt_FMT " ranks: -da_grid_%c or -da_processors_%c override the weak grid; give one rank's block with -rw_bench_weak_grid alone",
               w->p[d], "xyz"[d], w->block[d], w->M[d], M[d], p[d], "xyz"[d], "xyz"[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options case: the problem rewind-gradient solves (RwProblem: the
   model, objective and driver of the options, -rw_obs's members on
   -rw_ensemble_groups), its gradient on the parent's grids; the row shows
   this group's driver */
typedef struct {
  RwProblem prob;
  Vec       g, gu0;
} GradOptions;

/* The forward sweeps of the problem: each group its members', round by round */
static PetscErrorCode GradOptionsForward(void *ctx, PetscInt calls)
{
  GradOptions *o = (GradOptions *)ctx;
  RwEnsemble   ens;
  RwAdjoint    adj;
  PetscInt     nr, e;
  Vec          m, u0;

  PetscFunctionBegin;
  PetscCall(RwProblemGetEnsemble(o->prob, &ens));
  PetscCall(RwEnsembleGetRounds(ens, &nr));
  PetscCall(RwProblemGetMemberSolver(o->prob, NULL, NULL, &adj));
  for (PetscInt i = 0; i < calls; i++)
    for (PetscInt r = 0; r < nr; r++) {
      PetscCall(RwEnsembleGetRoundMember(ens, r, &e));
      if (e < 0) continue;
      PetscCall(RwProblemGetMemberParameters(o->prob, e, &m, &u0));
      PetscCall(RwAdjointForward(adj, m, u0, NULL, NULL));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J and the gradient of the whole problem: what rewind-gradient computes */
static PetscErrorCode GradOptionsGradient(void *ctx, PetscInt calls)
{
  GradOptions *o = (GradOptions *)ctx;
  PetscReal    J;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwProblemComputeGradient(o->prob, &J, o->g, o->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GradOptionsCase(const BenchConfig *cfg, BenchResults res)
{
  GradOptions     o;
  GradWeak        w;
  BenchProblem    view = {0};
  BenchTiming     tf, tg;
  RwModel         model;
  RwAdjointCounts counts;

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &o.prob));
  if (cfg->weak) {
    PetscCall(GradWeakSetUp(cfg, &w));
    PetscCall(RwProblemSetModelDefaults(o.prob, GradWeakDefaults, &w));
  }
  PetscCall(RwProblemSetFromOptions(o.prob));
  PetscCall(RwProblemSetUp(o.prob));
  PetscCall(RwProblemGetModel(o.prob, &model));
  if (cfg->weak) PetscCall(GradWeakCheck(&w, model));
  PetscCall(RwModelCreateParameters(model, &o.g));
  PetscCall(RwModelCreateState(model, &o.gu0));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, GradOptionsForward, &o, &tf));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, GradOptionsGradient, &o, &tg));
  PetscCall(RwProblemGetMemberSolver(o.prob, &view.model, NULL, &view.adj));
  PetscCall(GradRow(res, &view, cfg->weak ? "options (weak)" : "options", tf.best, &tg, &counts));
  PetscCall(VecDestroy(&o.g));
  PetscCall(VecDestroy(&o.gu0));
  PetscCall(RwProblemDestroy(&o.prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* revolve/hdf5 keeping its reverse sweep about ten times (-rw_adjoint_keep_interval):
   what one keep costs, in seconds, bytes and forward steps */
static PetscErrorCode GradKeepCase(const BenchConfig *cfg, BenchResults res, BenchProblem *p, const char steps[], const char file[], PetscReal *fwd)
{
  RwAdjointCounts counts;
  PetscInt        interval = PetscMax(cfg->gradient_steps / 10, 1);
  PetscReal       per;
  char            opts[1024], name[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots %" PetscInt_FMT " -rw_store_type hdf5 -rw_store_hdf5_file %s -rw_adjoint_keep_interval %" PetscInt_FMT, steps, cfg->revolve_slots[0], file, interval));
  PetscCall(PetscSNPrintf(name, sizeof(name), "revolve/hdf5 s=%" PetscInt_FMT " keep=%" PetscInt_FMT, cfg->revolve_slots[0], interval));
  PetscCall(GradCase(cfg, res, p, name, opts, fwd, &counts));
  per = counts.keeps ? counts.seconds_keep / counts.keeps : 0;
  PetscCall(BenchNote(res, "keep=%" PetscInt_FMT ": %" PetscInt64_FMT " keeps of the reverse sweep in the last gradient, %.4g MB and %.4g ms each on rank 0 = %.3g forward steps each", interval, counts.keeps, counts.keeps ? counts.bytes_kept / 1e6 / counts.keeps : 0.0, 1e3 * per, per / (*fwd / cfg->gradient_steps)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The built-in cases on the 2D explicit problem; multilevel's disk costs are
   those the revolve/hdf5 case measured, in forward steps */
static PetscErrorCode GradBuiltinCases(const BenchConfig *cfg, BenchResults res)
{
  BenchProblem     p;
  RwModel         model;
  RwAdjointCounts counts;
  const PetscInt  M[2] = {cfg->gradient_grid, cfg->gradient_grid}, s0 = cfg->revolve_slots[0];
  PetscReal       fwd = 0, wd = 1, rd = 1;
  char            file[PETSC_MAX_PATH_LEN], name[64], opts[1024], steps[64];

  PetscFunctionBegin;
  PetscCall(BenchHeatModel(PETSC_COMM_WORLD, 2, "explicit", M, &model));
  PetscCall(BenchProblemCreate(model, &p));
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
    /* the single-level hdf5 store is level 0: its seconds tell what a disk checkpoint costs */
    wd = (counts.seconds_store[RW_LEVEL_RAM] / PetscMax(counts.stores[RW_LEVEL_RAM], 1)) / (fwd / cfg->gradient_steps);
    rd = (counts.seconds_restore[RW_LEVEL_RAM] / PetscMax(counts.restores[RW_LEVEL_RAM], 1)) / (fwd / cfg->gradient_steps);
  }
  if (cfg->gradient[BENCH_MULTILEVEL]) {
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_schedule_type multilevel -rw_schedule_ram_slots %" PetscInt_FMT " -rw_schedule_disk_slots inf -rw_schedule_costs 1,1,%g,%g -rw_store_disk_type hdf5 -rw_store_hdf5_file %s", steps, s0, (double)wd, (double)rd, file));
    PetscCall(PetscSNPrintf(name, sizeof(name), "multilevel ram=%" PetscInt_FMT " disk=inf", s0));
    PetscCall(GradCase(cfg, res, &p, name, opts, &fwd, &counts));
    PetscCall(BenchNote(res, "multilevel costs uf,ub,wd,rd = 1,1,%.3g,%.3g: disk write and read in forward steps, as the revolve/hdf5 case measured them (1,1 if it did not run)", (double)wd, (double)rd));
  }
  if (cfg->gradient[BENCH_KEEP]) PetscCall(GradKeepCase(cfg, res, &p, steps, file, &fwd));
  if (cfg->gradient[BENCH_DEFAULT]) { /* no schedule named: the driver's default, chosen by predicted time at the first solve */
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s -rw_store_type memory", steps));
    PetscCall(GradCase(cfg, res, &p, "default", opts, &fwd, &counts));
    PetscCall(BenchNote(res, "default: no -rw_schedule_type; the schedule column is what the driver chose at its first solve, by predicted time (RwAdjointView says why); after revolve's recomputations reach the predicted price of store-all's first touches, later solves keep every state"));
  }
  PetscCall(BenchProblemDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ranks outside a measurement wait here without spinning, so that they leave
   their cores (and memory bandwidth) to the ranks that measure */
static PetscErrorCode GradWaitAll(void)
{
  MPI_Request req;
  int         done = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Ibarrier(PETSC_COMM_WORLD, &req));
  PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
  while (!done) {
    usleep(200);
    PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Weak scaling inside one run: ranks [0, p) solve p blocks of the grid while
  the others sleep, for p = 1, 2, 4, ... and all; a block is the built-in
  grid's share of one rank of the whole run (rounded down), so p = all is
  the storeall case.  The rank counts take turns within every repetition, so that a slow period
  of a shared machine falls on all of them; efficiency = time on 1 rank /
  time on p ranks, each the best of its repetitions.
*/
#define GRAD_MAXCOUNTS 32
static PetscErrorCode GradWeakCases(const BenchConfig *cfg, BenchResults res)
{
  PetscMPIInt size, rank, count[GRAD_MAXCOUNTS];
  PetscInt    n = 0;
  BenchProblem prob[GRAD_MAXCOUNTS];
  MPI_Comm    sub[GRAD_MAXCOUNTS];
  PetscReal   best[GRAD_MAXCOUNTS][2];
  BenchConfig once = *cfg;
  char        opts[128], grid[64];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCheck(cfg->gradient_grid >= size, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-rw_bench_gradient_grid %" PetscInt_FMT ": the weak case needs a row of the grid per rank, %d ranks", cfg->gradient_grid, size);
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-rw_steps %" PetscInt_FMT " -rw_schedule_type storeall -rw_store_type memory", cfg->gradient_steps));
  for (PetscMPIInt p = 1; p <= size && n < GRAD_MAXCOUNTS; p = p < size && 2 * p > size ? size : 2 * p, n++) {
    const PetscInt M[2] = {cfg->gradient_grid, p * (cfg->gradient_grid / size)};

    count[n]   = p;
    best[n][0] = best[n][1] = PETSC_MAX_REAL;
    PetscCallMPI(MPI_Comm_split(PETSC_COMM_WORLD, rank < p ? 0 : MPI_UNDEFINED, rank, &sub[n]));
    if (rank >= p) continue;
    PetscCall(BenchHeatModel(sub[n], 2, "explicit", M, &prob[n].model));
    PetscCall(BenchProblemCreate(prob[n].model, &prob[n]));
    PetscCall(BenchProblemAdjoint(&prob[n], opts));
  }
  once.repeat = 1;
  for (PetscInt r = 0; r < cfg->repeat; r++)
    for (PetscInt i = 0; i < n; i++) {
      BenchTiming tf, tg;
      PetscReal   t[2] = {0, 0};

      if (rank < count[i]) {
        PetscCall(BenchTime(sub[i], &once, BenchForwardRun, &prob[i], &tf));
        PetscCall(BenchTime(sub[i], &once, BenchGradientRun, &prob[i], &tg));
        t[0] = tf.best;
        t[1] = tg.best;
      }
      PetscCall(GradWaitAll());
      PetscCallMPI(MPI_Bcast(t, 2, MPIU_REAL, 0, PETSC_COMM_WORLD));
      best[i][0] = PetscMin(best[i][0], t[0]);
      best[i][1] = PetscMin(best[i][1], t[1]);
    }
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscSNPrintf(grid, sizeof(grid), "%" PetscInt_FMT "x%" PetscInt_FMT, cfg->gradient_grid, count[i] * (cfg->gradient_grid / size)));
    PetscCall(BenchRow(res, "weak %d/%d ranks", count[i], size));
    PetscCall(BenchText(res, "grid", grid));
    PetscCall(BenchReal(res, "forward", "s", best[i][0]));
    PetscCall(BenchReal(res, "gradient", "s", best[i][1]));
    PetscCall(BenchReal(res, "ratio", "", best[i][1] / best[i][0]));
    PetscCall(BenchReal(res, "efficiency_forward", "", best[0][0] / best[i][0]));
    PetscCall(BenchReal(res, "efficiency_gradient", "", best[0][1] / best[i][1]));
    if (rank >= count[i]) continue;
    PetscCall(BenchProblemDestroy(&prob[i]));
    PetscCallMPI(MPI_Comm_free(&sub[i]));
  }
  PetscCall(BenchNote(res, "weak p/N: ranks [0, p) solve a %" PetscInt_FMT " x %" PetscInt_FMT " block each (storeall, %" PetscInt_FMT " steps) while the others sleep, the rank counts in turn within each of %" PetscInt_FMT " repetitions; efficiency = best time on 1 rank / best time on p ranks", cfg->gradient_grid, cfg->gradient_grid / size, cfg->gradient_steps, cfg->repeat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const BenchGradientCases[] = {"storeall", "revolve", "revolve-hdf5", "multilevel", "keep", "default", "weak", "options"};

PetscErrorCode BenchGradient(const BenchConfig *cfg, BenchResults res)
{
  PetscBool builtin = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(BenchSectionBegin(res, "gradient", "gradient time / forward time by schedule and store"));
  for (PetscInt c = 0; c < BENCH_WEAK; c++) builtin = (PetscBool)(builtin || cfg->gradient[c]);
  if (builtin) PetscCall(GradBuiltinCases(cfg, res));
  if (cfg->gradient[BENCH_WEAK]) PetscCall(GradWeakCases(cfg, res));
  if (cfg->gradient[BENCH_OPTIONS]) PetscCall(GradOptionsCase(cfg, res));
  PetscCall(BenchNote(res, "forward: RwAdjointForward (J alone, nothing stored); gradient: RwAdjointSolve (J, dJ/dm, dJ/du0), best of %" PetscInt_FMT "; fwd_steps: forward steps the driver took, predicted: RwScheduleGetPrediction", cfg->repeat));
  if (cfg->gradient[BENCH_OPTIONS]) PetscCall(BenchNote(res, "options: forward: RwAdjointForward of every member of the problem, each group its own; gradient: RwProblemComputeGradient (rewind-gradient's J and gradient, summed over the members); the other columns: this group's driver, its last solve"));
  PetscCall(BenchNote(res, "first: seconds of the first gradient of a new driver, not in the best of: its stores' memory is touched for the first time (a run of rewind-gradient is one such solve)"));
  PetscCall(BenchNote(res, "in_forward, in_reverse, store_restore: seconds of the last gradient in ADVANCE, REVERSE (adjoint steps, the first forward step) and STORE/RESTORE actions (RwAdjointGetCounts)"));
  PetscCall(BenchNote(res, "waited, overlap (hdf5 stores with -rw_store_hdf5_async, the default): seconds the last gradient waited for the background writers, and 1 - waited / the writers' seconds, summed over ranks (the store's view gives the MB)"));
  PetscCall(BenchNote(res, "read_waited, read_overlap (hdf5 stores with -rw_store_hdf5_prefetch, the default): the same for the background readers that prefetch the next restore (the store's view gives the reads they served)"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
