/*
  The wave model (doc/wave.md) against the machine: step throughput of its
  three forms for space orders 2, 4, 8 in 2D and 3D against the copy
  bandwidth of the stream section (same process), gradient / forward with
  every state in RAM and with the memory-budgeted default holding a tenth of
  them, and shots per second of rewind-fwi's embedded problem on one rank and
  on all, with the shots split into groups of ranks or not, through the
  problem layer rewind-fwi runs (RwProblemEvaluate()).
*/
#include "bench.h"
#include <petscdmda.h>
#include <rewind/private/kernelisaimpl.h> /* the sets this CPU has: a row for each */

static const char *const WaveForms[] = {"forward", "tangent", "adjoint"};

/*
  Bytes per point a step moves, 8 per double read or written once.  States
  hold u_k and u_k-1 (in planes), and a state read is counted 16 B even where only u_k
  is used (x_k+1 in the tangent and adjoint):
    forward  x_k 16, ia c1 c2 24; writes x_k+1 16                        = 56
    tangent  dx_k 16, x_k 16, x_k+1 16, ia c1 c2 dm 32; writes dx_k+1 16  = 96
    adjoint  lambda_k+1 16, ia c1 c2 24, x_k 16, x_k+1 16; writes
             lambda_k 16; dJ/dm read and written 16                       = 104
  The ring the interior rows gather from (stencilring.c) stays in L2: its
  stage reads what the rows read anyway, and moves nothing to memory.
  STREAM's count, as copy's: an ordinary store also reads its line first
  (write-allocate), uncounted.  Where a rank's state is larger than the
  caches the forward streams x_k+1 (-rw_kernel_stream_stores), and then
  moves only the bytes counted, while copy still moves 24 B for its 16.
*/
static const PetscReal WaveBytes[] = {56, 96, 104};

/* A wave model of order `order` in dim dimensions, side points a direction
   (absorbing layers included), with extra options, set up */
static PetscErrorCode WaveModel(MPI_Comm comm, PetscInt dim, PetscInt order, PetscInt side, const char extra[], RwModel *model)
{
  PetscOptions opts;
  char         z[32] = "";

  PetscFunctionBegin;
  if (dim > 2) PetscCall(PetscSNPrintf(z, sizeof(z), "-da_grid_z %" PetscInt_FMT, side));
  PetscCall(BenchOptionsPush(&opts, "-rw_wave_dim %" PetscInt_FMT " -rw_wave_space_order %" PetscInt_FMT " -da_grid_x %" PetscInt_FMT " -da_grid_y %" PetscInt_FMT " %s %s", dim, order, side, side, z, extra));
  PetscCall(RwModelCreate(comm, model));
  PetscCall(RwModelSetType(*model, RWMODELWAVE));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscCall(BenchOptionsPop(&opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A step row's figures after its name: step seconds a step (the best of t,
   per step), the bytes a step is counted to move, the copies it is
   compared with, the forward step it is compared with */
static PetscErrorCode WaveStepFigures(BenchResults res, const char isa[], PetscReal N, PetscReal step, const BenchTiming *t, PetscReal bytes, PetscReal copy, PetscReal near, PetscReal tfwd)
{
  const PetscReal bw = N * bytes / step / 1e9;

  PetscFunctionBegin;
  PetscCall(BenchText(res, "isa", isa));
  PetscCall(BenchReal(res, "rate", "Mpt/s", N / step / 1e6));
  PetscCall(BenchReal(res, "step", "ms", 1e3 * step));
  PetscCall(BenchReal(res, "bytes", "B/pt", bytes));
  PetscCall(BenchReal(res, "bw", "GB/s", bw));
  PetscCall(BenchReal(res, "of_copy", "", bw / copy));
  PetscCall(BenchReal(res, "copy_near", "GB/s", near));
  PetscCall(BenchReal(res, "of_copy_near", "", bw / near));
  PetscCall(BenchReal(res, "vs_forward", "", step / tfwd));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(t)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2D: the forward in pairs of steps a pass (RwModelStepBlock()), per step;
   bytes are a single step's, so bw is what single steps would have to move
   for this rate (a pair moves 72 B a point, 36 a step: doc/wave.md) */
static PetscErrorCode WavePairRow(const BenchConfig *cfg, BenchResults res, BenchStepCtx *c, const char grid[], const char isa[], PetscInt order, PetscReal N, PetscReal copy, PetscReal near, PetscReal tfwd)
{
  BenchTiming t;

  PetscFunctionBegin;
  c->form = BENCH_STEP_PAIR;
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchStepRun, c, &t));
  PetscCall(BenchRow(res, "2D order %" PetscInt_FMT " %s forward pair", order, grid));
  PetscCall(WaveStepFigures(res, isa, N, t.best / 2, &t, WaveBytes[0], copy, near, tfwd));
  c->form = BENCH_STEP_FORWARD;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 3D: the forward in blocks of D = 2 .. RW_BENCH_WAVE_DEPTH steps a pass
   (RwModelStepBlock(), RwStencilRunPassBlock()), per step, against single
   steps (vs_forward) in the same run; bytes are a single step's, as the
   2D pairs' (a block of D moves 40 + 16 D B a point, doc/wave.md) */
#define RW_BENCH_WAVE_DEPTH 4
static PetscErrorCode WaveBlockRows(const BenchConfig *cfg, BenchResults res, BenchStepCtx *c, const char grid[], const char isa[], PetscInt order, PetscReal N, PetscReal copy, PetscReal near, PetscReal tfwd)
{
  PetscFunctionBegin;
  for (PetscInt t = 0; t < RW_BENCH_WAVE_DEPTH; t++) PetscCall(VecDuplicate(c->u, &c->out[t]));
  c->form = BENCH_STEP_BLOCK;
  for (c->depth = 2; c->depth <= RW_BENCH_WAVE_DEPTH; c->depth++) {
    BenchTiming t;

    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchStepRun, c, &t));
    PetscCall(BenchRow(res, "3D order %" PetscInt_FMT " %s forward block %" PetscInt_FMT, order, grid, c->depth));
    PetscCall(WaveStepFigures(res, isa, N, t.best / c->depth, &t, WaveBytes[0], copy, near, tfwd));
  }
  c->form = BENCH_STEP_FORWARD;
  for (PetscInt t = 0; t < RW_BENCH_WAVE_DEPTH; t++) PetscCall(VecDestroy(&c->out[t]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveKernelCase(const BenchConfig *cfg, BenchResults res, PetscInt dim, PetscInt order, PetscInt side, PetscReal copy)
{
  RwModel       model;
  BenchStepCtx  c = {NULL};
  Vec           m, dm;
  PetscReal     tfwd = 0, N = PetscPowInt(side, dim), near;
  char          grid[64];
  const char   *isa;
  PetscBool     isauto;

  PetscFunctionBegin;
  PetscCall(WaveModel(PETSC_COMM_WORLD, dim, order, side, dim == 2 ? "-rw_model_step_block 2" : "-rw_model_step_block " PetscStringize(RW_BENCH_WAVE_DEPTH), &model));
  PetscCall(RwModelGetKernelISA(model, &isa));
  PetscCall(RwModelGetKernelISAAuto(model, &isauto));
  if (isauto) isa = "auto"; /* each form its own set (-rw_model_view, -log_view) */
  PetscCall(BenchGridName(model, grid, sizeof(grid)));
  PetscCall(BenchStepParameters(model, &m, &dm));
  PetscCall(BenchStepStates(model, &c));
  PetscCall(RwModelAdjointBegin(model));
  PetscCall(BenchCopyNear(cfg, &near));
  for (PetscInt f = BENCH_STEP_FORWARD; f <= BENCH_STEP_ADJOINT; f++) {
    BenchTiming t;

    c.form = (BenchStepForm)f;
    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchStepRun, &c, &t));
    if (f == BENCH_STEP_FORWARD) tfwd = t.best;
    PetscCall(BenchRow(res, "%" PetscInt_FMT "D order %" PetscInt_FMT " %s %s", dim, order, grid, WaveForms[f]));
    PetscCall(WaveStepFigures(res, isa, N, t.best, &t, WaveBytes[f], copy, near, tfwd));
    if (RwKernelISABest() != RW_KERNEL_ISA_PORTABLE) { /* every form in every set the CPU has: what wavechoice.c's table is made from */
      char base[128];

      PetscCall(BenchLastRowName(res, base, sizeof(base)));
      for (PetscInt i = 0; i <= (PetscInt)RwKernelISABest(); i++) PetscCall(BenchSetRow(cfg, res, model, BenchStepRun, &c, base, RwKernelISANames[i], N, WaveBytes[f], copy, tfwd, PETSC_FALSE));
    }
    if (f == BENCH_STEP_FORWARD && dim == 2) PetscCall(WavePairRow(cfg, res, &c, grid, isa, order, N, copy, near, tfwd));
    if (f == BENCH_STEP_FORWARD && dim == 3) PetscCall(WaveBlockRows(cfg, res, &c, grid, isa, order, N, copy, near, tfwd));
  }
  PetscCall(RwModelAdjointEnd(model, dm));
  PetscCall(BenchStepDestroy(&c));
  PetscCall(VecDestroy(&m));
  PetscCall(VecDestroy(&dm));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- gradient / forward -------------------------------------------------- */

/* The order-4 problem of -rw_bench_wave_gradient_grid (2D) or _grid3 (3D):
   the default model and source, 64 receivers on a line near the top (x; in
   3D across the middle of y) with zero data */
static PetscErrorCode WaveGradientProblem(const BenchConfig *cfg, PetscInt dim, PetscInt side, BenchProblem *p)
{
  RwModel   model;
  PetscInt  nrec = 64, M[3], nbl;
  PetscReal h[3], origin[3], *rec;
  char      extra[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(extra, sizeof(extra), "-rw_steps %" PetscInt_FMT, cfg->wave_gradient_steps));
  PetscCall(WaveModel(PETSC_COMM_WORLD, dim, 4, side, extra, &model));
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->model = model;
  PetscCall(RwModelCreateParameters(model, &p->m));
  PetscCall(RwModelCreateState(model, &p->u0));
  PetscCall(RwModelGetDefaults(model, p->m, p->u0, NULL));
  PetscCall(RwModelWaveGetGeometry(model, NULL, M, &nbl, h, origin));
  PetscCall(PetscMalloc1(dim * nrec, &rec));
  for (PetscInt r = 0; r < nrec; r++) {
    rec[dim * r] = origin[0] + (r + 0.5) * (M[0] - 2 * nbl - 1) * h[0] / nrec;
    if (dim > 2) rec[dim * r + 1] = origin[1] + 0.5 * (M[1] - 2 * nbl - 1) * h[1];
    rec[dim * r + dim - 1] = origin[dim - 1] + 2.3 * h[dim - 1];
  }
  PetscCall(RwObjectiveCreate(model, &p->obj));
  PetscCall(RwObjectiveAddWaveReceivers(p->obj, nrec, rec, NULL));
  PetscCall(PetscFree(rec));
  PetscCall(VecDuplicate(p->m, &p->g));
  PetscCall(VecDuplicate(p->u0, &p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One row: gradient time over forward time with the driver options opts */
static PetscErrorCode WaveGradientCase(const BenchConfig *cfg, BenchResults res, BenchProblem *p, const char name[], const char opts[], PetscReal *fwd)
{
  BenchTiming     tg;
  RwAdjointCounts counts;

  PetscFunctionBegin;
  PetscCall(BenchGradientTime(cfg, p, opts, fwd, &tg));
  PetscCall(RwAdjointGetCounts(p->adj, &counts));
  PetscCall(BenchGradientRowBegin(res, p, name));
  PetscCall(BenchInt(res, "ram_stores", counts.stores[RW_LEVEL_RAM]));
  PetscCall(BenchReal(res, "forward", "s", *fwd));
  PetscCall(BenchReal(res, "gradient", "s", tg.best));
  PetscCall(BenchReal(res, "ratio", "", tg.best / *fwd));
  PetscCall(BenchInt(res, "fwd_steps", counts.forward_steps));
  PetscCall(BenchReal(res, "in_forward", "s", counts.seconds_forward));
  PetscCall(BenchReal(res, "in_reverse", "s", counts.seconds_reverse));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(&tg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveGradient(const BenchConfig *cfg, BenchResults res)
{
  BenchProblem p;
  PetscReal    fwd = 0;
  PetscInt     lo, hi, slots;
  PetscInt64   per;
  PetscMPIInt  onnode;
  MPI_Comm     node;
  char         opts[128];

  PetscFunctionBegin;
  PetscCall(WaveGradientProblem(cfg, 2, cfg->wave_gradient_grid, &p));
  PetscCall(WaveGradientCase(cfg, res, &p, "gradient storeall", "-rw_schedule_type storeall", &fwd));
  /* the driver's default: no schedule chosen, the RAM budget a fraction (1/2)
     of the node's memory over its ranks; the node's memory given so that the
     budget holds a tenth of the run's states (the largest rank's) */
  PetscCall(VecGetOwnershipRange(p.u0, &lo, &hi));
  per = (PetscInt64)(hi - lo) * (PetscInt64)sizeof(PetscScalar);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &per, 1, MPIU_INT64, MPI_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &onnode));
  PetscCallMPI(MPI_Comm_free(&node));
  slots = PetscMax(1, (cfg->wave_gradient_steps + 1 + 9) / 10);
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-rw_checkpoint_node_memory %" PetscInt64_FMT, 2 * slots * per * onnode));
  PetscCall(WaveGradientCase(cfg, res, &p, "gradient budget 1/10", opts, &fwd));
  PetscCall(BenchProblemDestroy(&p));
  if (cfg->wave_gradient_grid3) { /* issue 37: store-all in 3D */
    fwd = 0; /* its own forward */
    PetscCall(WaveGradientProblem(cfg, 3, cfg->wave_gradient_grid3, &p));
    PetscCall(WaveGradientCase(cfg, res, &p, "gradient storeall 3D", "-rw_schedule_type storeall", &fwd));
    PetscCall(BenchProblemDestroy(&p));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchWave(const BenchConfig *cfg, BenchResults res)
{
  PetscReal copy;

  PetscFunctionBegin;
  PetscCall(BenchCopyBandwidth(res, &copy));
  PetscCall(BenchSectionBegin(res, "wave", "the wave model: step throughput, gradient / forward, shots per second"));
  for (PetscInt g = 0; g < cfg->nwave_grid2; g++)
    for (PetscInt o = 0; o < cfg->nwave_orders; o++) PetscCall(WaveKernelCase(cfg, res, 2, cfg->wave_orders[o], cfg->wave_grid2[g], copy));
  for (PetscInt o = 0; o < cfg->nwave_orders; o++) PetscCall(WaveKernelCase(cfg, res, 3, cfg->wave_orders[o], cfg->wave_grid3, copy));
  PetscCall(WaveGradient(cfg, res));
  PetscCall(BenchWaveShots(cfg, res));
  PetscCall(BenchWaveFwi3D(cfg, res));
  PetscCall(BenchNote(res, "bytes per point (8 per double read or written once; a state is u_k and u_k-1, in planes, and a state read is 16 where both are read): forward 56 (x_k; ia, c1, c2; x_k+1), tangent 96 (dx_k, x_k, x_k+1; ia, c1, c2, dm; dx_k+1), adjoint 104 (lambda_k+1; ia, c1, c2; x_k, x_k+1; lambda_k; dJ/dm read and written); the ring the interior rows gather from stays in L2 and is not counted. Write-allocate reads are not counted (STREAM's rule, as in copy); the forward streams x_k+1 past the caches where a rank's state is at least -rw_kernel_stream_stores MiB (default 8), and then has none"));
  PetscCall(BenchNote(res, "forward pair (2D): two forward steps in one pass over the rows (RwModelStepBlock(), -rw_model_step_block 2), per step; bytes and bw are a single step's 56, so bw is what one step a pass would have to move at this rate: a pair moves x_k, the fields and both outputs once, 72 B a point for two steps. The driver's forward sweeps take pairs by default at orders 2 and 4 where a rank's state is past the caches"));
  PetscCall(BenchNote(res, "of_copy = bw / copy bandwidth of all ranks (stream section, %.4g GB/s); of_copy_near = bw / copy_near, a copy of all ranks timed just before the case (the targets divide bw by the best copy of the run); isa: the kernels' instruction set (-rw_kernel_isa; auto: each form the set chosen for it, doc/wave.md); \"<form> <set>\": the same step with every kernel in that set (the same bits), for each set the CPU has, its vs_forward against the dispatched forward", (double)copy));
  PetscCall(BenchNote(res, "gradient rows: 2D order 4, %" PetscInt_FMT "^2 points (3D: %" PetscInt_FMT "^3), %" PetscInt_FMT " steps, 64 receivers; ratio = RwAdjointSolve / RwAdjointForward; budget 1/10: the driver's default schedule and budget (half the node's memory over its ranks) with -rw_checkpoint_node_memory set so that it holds a tenth of the run's states; in_forward, in_reverse: the last repetition's seconds in forward steps (recomputations included) and in reverse steps (RwAdjointCounts)", cfg->wave_gradient_grid, cfg->wave_gradient_grid3, cfg->wave_gradient_steps));
  PetscCall(BenchNote(res, "shots: rewind-fwi's embedded problem (141x91 points with the layers, h 20 m, order 4, %.0f ms, 8 shots, 51 receivers), one gradient of all shots (RwProblemEvaluate(), as rewind-fwi); groups: its shot groups", (double)cfg->wave_record));
  if (cfg->wave_fwi3d_grid) PetscCall(BenchNote(res, "fwi 3D: rewind-fwi -rw_fwi_dim 3's shape (%" PetscInt_FMT "^3 physical points and 10 absorbing a side, h 20 m, order 4, 4 shots, a receiver every 40 m, %" PetscInt_FMT " steps, zero data), one gradient of all shots on all ranks in the default shot groups and budget, timed once (first touch included); roofline_per_shot: N x (fwd_steps x 56 + steps x 104) B + its checkpoints' bytes written and read, at the run's best copy bandwidth; vs_roofline = per_shot / roofline_per_shot", cfg->wave_fwi3d_grid, cfg->wave_fwi3d_steps));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
