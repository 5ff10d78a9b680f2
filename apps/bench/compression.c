/*
  Compressed checkpoints (-rw_store_compress, doc/checkpoints.md): for heat
  (explicit and Crank-Nicolson), heat with a network and wave (2D, order 8),
  the gradient of a revolve schedule with the same RAM slots kept as they
  are, losslessly and by zfp at 1e-6: its time and its ratio to the
  uncompressed one, the compression ratio of the states the sweep stored,
  the codec's throughput per core (bytes of states over this rank's seconds
  compressing or decompressing them, the slowest rank's), and the relative
  2-norm error of dJ/dm against the uncompressed gradient.  The same slots,
  not the same bytes.  The same bytes: for Crank-Nicolson heat and wave, the
  gradient at one RAM budget of about 1/50 of the states uncompressed,
  revolve, none, lossless and zfp auto (rtol 1e-6), the budget bought at
  the compressed size (the pool): its slots, forward steps, time and error.
  Then, for heat and wave, the gradient error of zfp against its tolerance,
  1e-3 .. 1e-9: measured, and as the solve estimated it
  (RwAdjointGetGradientErrorEstimate()); and tolerance auto for an rtol of
  1e-6, its second solve (the first runs at the pilot): the tolerance it
  took, the estimate and the measured error.  jobs/plot_compression.py
  draws the sweep (log-log).
*/
#include "bench.h"

typedef struct {
  const char *name, *type, *options;
  PetscBool   wave;
} CompressCase;

static const CompressCase cases[] = {
  {"heat",         RWMODELHEAT, "-rw_heat_dim 2 -rw_heat_scheme explicit -rw_heat_bc periodic",                       PETSC_FALSE},
  {"heat-cn",      RWMODELHEAT, "-rw_heat_dim 2 -rw_heat_scheme crank-nicolson -rw_heat_bc periodic",                 PETSC_FALSE},
  {"heat-network", RWMODELHEAT, "-rw_heat_dim 2 -rw_heat_scheme explicit -rw_heat_nn -rw_nn_layers 1,8,8,1",          PETSC_FALSE},
  {"wave",         RWMODELWAVE, "-rw_wave_dim 2 -rw_wave_space_order 8",                                             PETSC_TRUE },
};

static const char *codecs[] = {"none", "lossless", "zfp -rw_store_compress_tolerance 1e-6"};

static PetscErrorCode CompressModel(const CompressCase *c, PetscInt side, RwModel *model)
{
  PetscOptions opts;

  PetscFunctionBegin;
  PetscCall(BenchOptionsPush(&opts, "%s -da_grid_x %" PetscInt_FMT " -da_grid_y %" PetscInt_FMT, c->options, side, side));
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, model));
  PetscCall(RwModelSetType(*model, c->type));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscCall(BenchOptionsPop(&opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The driver of one codec; its first solve, under the options, makes the stores that read them */
static PetscErrorCode CompressDriver(BenchProblem *p, PetscInt steps, PetscInt slots, const char codec[])
{
  PetscOptions opts;

  PetscFunctionBegin;
  PetscCall(BenchOptionsPush(&opts, "-rw_steps %" PetscInt_FMT " -rw_schedule_type revolve -rw_schedule_ram_slots %" PetscInt_FMT " -rw_store_type memory -rw_store_compress %s", steps, slots, codec));
  PetscCall(BenchProblemAdjoint(p, NULL));
  PetscCall(RwAdjointSolve(p->adj, p->m, p->u0, NULL, p->g, p->gu0));
  PetscCall(BenchOptionsPop(&opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ratio and per-core GB/s of the RAM store's codec over the solves so far (slowest rank's seconds) */
static PetscErrorCode CompressCounts(BenchProblem *p, PetscReal *ratio, PetscReal *cgbs, PetscReal *dgbs)
{
  RwStore       store;
  RwStoreCounts c;
  double        t[2], tmax[2];

  PetscFunctionBegin;
  PetscCall(RwAdjointGetStore(p->adj, 0, &store));
  PetscCall(RwStoreGetCounts(store, &c));
  t[0] = c.seconds_compress, t[1] = c.seconds_decompress;
  PetscCallMPI(MPI_Allreduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  *ratio = c.bytes_kept > 0 ? (PetscReal)c.bytes_written / (PetscReal)c.bytes_kept : 1;
  *cgbs  = tmax[0] > 0 ? c.bytes_written / tmax[0] / 1e9 : 0;
  *dgbs  = tmax[1] > 0 ? c.bytes_read / tmax[1] / 1e9 : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first codec (none) keeps its gradient as the reference g0, of norm ng;
   err: this codec's distance from it (p->g is overwritten) */
static PetscErrorCode CompressAgainstNone(BenchProblem *p, int k, Vec g0, PetscReal *ng, PetscReal *err)
{
  PetscFunctionBegin;
  if (!k) {
    PetscCall(VecCopy(p->g, g0));
    PetscCall(VecNorm(g0, NORM_2, ng));
  }
  PetscCall(VecAXPY(p->g, -1, g0));
  PetscCall(VecNorm(p->g, NORM_2, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompressRun(const BenchConfig *cfg, BenchResults res, const CompressCase *c)
{
  const PetscInt side  = c->wave ? cfg->wave_gradient_grid : cfg->gradient_grid;
  const PetscInt steps = c->wave ? cfg->wave_gradient_steps : cfg->gradient_steps;
  BenchProblem   p;
  RwModel        model;
  Vec            g0;
  PetscReal      t0 = 0, ratio, cgbs, dgbs, err, ng;
  BenchTiming    t;
  char           grid[64];

  PetscFunctionBegin;
  PetscCall(CompressModel(c, side, &model));
  PetscCall(BenchProblemCreate(model, &p));
  PetscCall(BenchGridName(p.model, grid, sizeof(grid)));
  PetscCall(VecDuplicate(p.g, &g0));
  for (int k = 0; k < 3; k++) {
    PetscCall(CompressDriver(&p, steps, cfg->revolve_slots[0], codecs[k]));
    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchGradientRun, &p, &t));
    if (!k) t0 = t.best;
    PetscCall(CompressCounts(&p, &ratio, &cgbs, &dgbs));
    PetscCall(CompressAgainstNone(&p, k, g0, &ng, &err));
    PetscCall(BenchRow(res, "%s %s", c->name, k == 2 ? "zfp 1e-6" : codecs[k]));
    PetscCall(BenchText(res, "grid", grid));
    PetscCall(BenchInt(res, "steps", steps));
    PetscCall(BenchInt(res, "slots", cfg->revolve_slots[0]));
    PetscCall(BenchReal(res, "gradient", "s", t.best));
    PetscCall(BenchReal(res, "of_none", "", t.best / t0));
    PetscCall(BenchReal(res, "ratio", "", ratio));
    PetscCall(BenchReal(res, "compress", "GB/s", cgbs));
    PetscCall(BenchReal(res, "decompress", "GB/s", dgbs));
    PetscCall(BenchReal(res, "grad_err", "", ng > 0 ? err / ng : 0));
  }
  PetscCall(VecDestroy(&g0));
  PetscCall(BenchProblemDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The budget rows' codecs: zfp's tolerance from the gradient's wanted accuracy */
static const char *budgetcodecs[] = {"none", "lossless", "zfp -rw_store_compress_tolerance auto -rw_adjoint_gradient_rtol 1e-6", "auto", "auto -rw_store_compress_tolerance auto -rw_adjoint_gradient_rtol 1e-6"};
static const char *budgetnames[]  = {"none", "lossless", "zfp auto", "auto", "auto lossy"};

/* The gradient at a fixed RAM budget of about 1/50 of the states
   uncompressed (at least one), revolve: compression buys slots at the
   compressed size (the pool, doc/checkpoints.md) and so saves forward steps.
   Each codec's first solve, under the options, plans (zfp auto: the pilot);
   the timed ones are the later solves. */
static PetscErrorCode CompressBudgetRun(const BenchConfig *cfg, BenchResults res, const CompressCase *c)
{
  const PetscInt side  = c->wave ? cfg->wave_gradient_grid : cfg->gradient_grid;
  const PetscInt steps = c->wave ? cfg->wave_gradient_steps : cfg->gradient_steps;
  const PetscInt fit   = PetscMax(1, (steps + 1 + 25) / 50);
  BenchProblem   p;
  RwModel        model;
  Vec            g0;
  PetscReal      t0 = 0, ratio, cgbs, dgbs, err, ng = 0;
  PetscInt64     per, total;
  BenchTiming    t;
  PetscOptions   opts;

  PetscFunctionBegin;
  PetscCall(CompressModel(c, side, &model));
  PetscCall(BenchProblemCreate(model, &p));
  PetscCall(RwModelGetStateBytes(p.model, &per, &total));
  PetscCall(VecDuplicate(p.g, &g0));
  for (int k = 0; k < 5; k++) {
    RwAdjointPoolInfo info;
    RwStoreCompressType codec;
    RwStore             store;
    RwAdjointCounts   counts;
    RwSchedule        sched;
    PetscInt64        slots;

    PetscCall(BenchOptionsPush(&opts, "-rw_steps %" PetscInt_FMT " -rw_schedule_type revolve -rw_checkpoint_ram %" PetscInt64_FMT " -rw_store_type memory -rw_store_compress %s", steps, fit * per, budgetcodecs[k]));
    PetscCall(BenchProblemAdjoint(&p, NULL));
    PetscCall(RwAdjointSolve(p.adj, p.m, p.u0, NULL, p.g, p.gu0));
    PetscCall(BenchOptionsPop(&opts));
    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchGradientRun, &p, &t));
    PetscCall(RwAdjointGetPoolInfo(p.adj, &info));
    PetscCall(RwAdjointGetCounts(p.adj, &counts));
    PetscCall(RwAdjointGetSchedule(p.adj, &sched));
    PetscCall(RwScheduleGetSlots(sched, RW_LEVEL_RAM, &slots));
    if (info.pooled) slots = info.slots; /* the last solve's, after any re-plan */
    if (!k) t0 = t.best;
    PetscCall(CompressCounts(&p, &ratio, &cgbs, &dgbs));
    PetscCall(CompressAgainstNone(&p, k, g0, &ng, &err));
    PetscCall(BenchRow(res, "%s budget %s", c->name, budgetnames[k]));
    PetscCall(BenchInt(res, "budget", fit * per));
    PetscCall(BenchInt(res, "steps", steps));
    PetscCall(BenchInt(res, "slots", slots));
    PetscCall(BenchInt(res, "fwd_steps", counts.forward_steps));
    PetscCall(BenchInt(res, "replans", info.replans));
    PetscCall(BenchReal(res, "seconds", "s", t.best));
    PetscCall(BenchReal(res, "vs_none", "", t.best / t0));
    PetscCall(BenchReal(res, "grad_err", "", ng > 0 ? err / ng : 0));
    PetscCall(BenchReal(res, "ratio", "", ratio));
    PetscCall(BenchReal(res, "plan_ratio", "", info.pooled ? (PetscReal)info.state_bytes / (PetscReal)info.planned_bytes : 1));
    PetscCall(RwAdjointGetStore(p.adj, RW_LEVEL_RAM, &store));
    PetscCall(RwStoreGetCompress(store, &codec, NULL));
    PetscCall(BenchText(res, "codec", RwStoreCompressTypes[codec])); /* auto's choice in the last timed solve */
  }
  PetscCall(VecDestroy(&g0));
  PetscCall(BenchProblemDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const PetscReal sweep[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};

/* One lossy gradient's row: the tolerance its last solve took, its measured and its estimated error */
static PetscErrorCode CompressErrorRow(BenchResults res, BenchProblem *p, Vec g0, PetscReal ng, const char name[], const char label[])
{
  RwStore   store;
  PetscReal tol, est, err;

  PetscFunctionBegin;
  PetscCall(RwAdjointGetStore(p->adj, 0, &store));
  PetscCall(RwStoreGetCompress(store, NULL, &tol));
  PetscCall(RwAdjointGetGradientErrorEstimate(p->adj, &est));
  PetscCall(VecAXPY(p->g, -1, g0));
  PetscCall(VecNorm(p->g, NORM_2, &err));
  PetscCall(BenchRow(res, "%s zfp %s", name, label));
  PetscCall(BenchReal(res, "tolerance", "", tol));
  PetscCall(BenchReal(res, "grad_err", "", err / ng));
  PetscCall(BenchReal(res, "grad_est", "", est));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* zfp's gradient error against its tolerance, measured and estimated; tolerance auto */
static PetscErrorCode CompressErrorRun(const BenchConfig *cfg, BenchResults res, const CompressCase *c)
{
  const PetscInt side  = c->wave ? cfg->wave_gradient_grid : cfg->gradient_grid;
  const PetscInt steps = c->wave ? cfg->wave_gradient_steps : cfg->gradient_steps;
  BenchProblem   p;
  RwModel        model;
  Vec            g0;
  PetscReal      ng;
  char           codec[128];

  PetscFunctionBegin;
  PetscCall(CompressModel(c, side, &model));
  PetscCall(BenchProblemCreate(model, &p));
  PetscCall(VecDuplicate(p.g, &g0));
  PetscCall(CompressDriver(&p, steps, cfg->revolve_slots[0], "none"));
  PetscCall(VecCopy(p.g, g0));
  PetscCall(VecNorm(g0, NORM_2, &ng));
  for (size_t i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++) {
    PetscCall(PetscSNPrintf(codec, sizeof(codec), "zfp -rw_store_compress_tolerance %g", (double)sweep[i]));
    PetscCall(CompressDriver(&p, steps, cfg->revolve_slots[0], codec));
    PetscCall(PetscSNPrintf(codec, sizeof(codec), "%g", (double)sweep[i]));
    PetscCall(CompressErrorRow(res, &p, g0, ng, c->name, codec));
  }
  PetscCall(CompressDriver(&p, steps, cfg->revolve_slots[0], "zfp -rw_store_compress_tolerance auto -rw_adjoint_gradient_rtol 1e-6"));
  PetscCall(RwAdjointSolve(p.adj, p.m, p.u0, NULL, p.g, p.gu0)); /* the tolerance learnt from the first */
  PetscCall(CompressErrorRow(res, &p, g0, ng, c->name, "auto"));
  PetscCall(VecDestroy(&g0));
  PetscCall(BenchProblemDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchCompression(const BenchConfig *cfg, BenchResults res)
{
  PetscFunctionBegin;
  PetscCall(BenchSectionBegin(res, "compression", "compressed checkpoints: revolve's gradient with the same RAM slots kept as they are, losslessly (shuffle + LZ4) and by zfp"));
  for (size_t i = 0; cfg->compression[0] && i < sizeof(cases) / sizeof(cases[0]); i++) PetscCall(CompressRun(cfg, res, &cases[i]));
  for (size_t i = 0; cfg->compression[1] && i < sizeof(cases) / sizeof(cases[0]); i++)
    if (i == 0 || cases[i].wave) PetscCall(CompressErrorRun(cfg, res, &cases[i]));
  if (cfg->compression[2]) PetscCall(CompressBudgetRun(cfg, res, &cases[1]));
  if (cfg->compression[2]) PetscCall(CompressBudgetRun(cfg, res, &cases[3]));
  PetscCall(BenchNote(res, "ratio: bytes of the states stored over the bytes kept; compress, decompress: GB of states per second of one rank's codec time (the slowest rank's); grad_err: |dJ/dm - dJ/dm uncompressed| / |dJ/dm uncompressed| (2-norms); of_none: gradient time over the uncompressed one, same slots"));
  PetscCall(BenchNote(res, "zfp <tol>: grad_est, the solve's first-order estimate of grad_err (RwAdjointGetGradientErrorEstimate()); zfp auto: -rw_store_compress_tolerance auto for -rw_adjoint_gradient_rtol 1e-6, its second solve; jobs/plot_compression.py draws grad_err and grad_est against the tolerance"));
  PetscCall(BenchNote(res, "<model> budget <codec>: the same RAM budget (bytes per rank, about 1/50 of the states uncompressed, at least one) for each codec, revolve, its slots bought at the compressed size; slots, fwd_steps: the last timed solve's (RwAdjointGetPoolInfo(), RwAdjointGetCounts()); replans: that solve's re-plans (their steps are in fwd_steps); plan_ratio: a state's bytes over the compressed size its plan assumed (the largest state measured: the slots follow it, not the mean ratio); vs_none: seconds over the uncompressed ones in this run; zfp auto: -rw_store_compress_tolerance auto for -rw_adjoint_gradient_rtol 1e-6, timed after its pilot solve; auto: -rw_store_compress auto (none or lossless), auto lossy: the same with zfp allowed (tolerance auto, rtol 1e-6), each chosen again after its first solve from the costs measured; codec: the RAM level's codec in the last timed solve"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
