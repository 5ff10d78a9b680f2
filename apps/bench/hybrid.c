/*
  What the hybrid-learning gradient costs (doc/hybrid.md): the heat model with
  a learned reaction N_theta(u) (1 -> H -> H -> 1, tanh), on one 2D periodic
  grid, explicit Euler, rewind-gradient's default problem.
  - rewind: a forward run (RwAdjointForward) and a store-all gradient
    (RwAdjointSolve), best of -rw_bench_repeat, and their ratio;
  - the network kernels alone on the grid's points: RwNNForward row by row and
    RwNNAdjoint tile by tile (as the heat model calls them), in GFLOP/s against
    RwNNMultiplyAddLoop, the peak of the same vector fused multiply-adds; tanh alone;
  - PyTorch autograd (jobs/compare_hybrid_torch.py --torch-only) on the same
    grid, steps, weights and dt, one thread, in the same run: its forward and
    gradient seconds, best of -rw_bench_repeat as rewind's, J's relative difference (the same problem) and the
    speed-up.  Skipped, with a note, where the Python given has no torch.
  Options: -rw_bench_hybrid_grid, -rw_bench_hybrid_steps, -rw_bench_hybrid_hidden,
  -rw_bench_hybrid_python (none: skip PyTorch), -rw_bench_hybrid_script.
*/
#include "bench.h"
#include <rewind/private/nnimpl.h> /* the network kernels, timed on their own (RwNNForward, RwNNAdjoint) */
#include <unistd.h>
#include <time.h>

typedef struct {
  RwNN       nn;
  PetscReal *theta, *x, *y, *ybar, *xbar, *gsum;
  PetscInt   n, row;
} HybridKernels;

static PetscErrorCode KernelForward(void *ctx, PetscInt calls)
{
  HybridKernels *k = (HybridKernels *)ctx;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < calls; c++)
    for (PetscInt p = 0; p < k->n; p += k->row) RwNNForward(k->nn, k->theta, k->row, k->x + p, k->row, k->y + p, k->row);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KernelAdjoint(void *ctx, PetscInt calls)
{
  HybridKernels *k = (HybridKernels *)ctx;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < calls; c++)
    for (PetscInt p = 0; p < k->n; p += RW_NN_TILE) RwNNAdjoint(k->nn, k->theta, PetscMin(RW_NN_TILE, k->n - p), k->x + p, RW_NN_TILE, k->ybar + p, RW_NN_TILE, k->xbar + p, NULL, 0, k->gsum);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KernelTanh(void *ctx, PetscInt calls)
{
  HybridKernels *k = (HybridKernels *)ctx;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < calls; c++) RwNNTanh(k->n, k->x, k->y);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KernelPeak(void *ctx, PetscInt calls)
{
  PetscReal *acc = (PetscReal *)ctx;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < calls; c++) (void)RwNNMultiplyAddLoop(1 << 16, acc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HybridForward(void *ctx, PetscInt calls)
{
  BenchProblem *p = (BenchProblem *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointForward(p->adj, p->m, p->u0, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Processor seconds of one call of fn, best of repeat: on a machine shared
   with other jobs they move less than wall seconds */
static PetscErrorCode CPUSeconds(const BenchConfig *cfg, BenchFn fn, void *ctx, PetscReal *best)
{
  PetscFunctionBegin;
  *best = PETSC_MAX_REAL;
  for (PetscInt r = 0; r < cfg->repeat; r++) {
    struct timespec t0, t1;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    PetscCall(fn(ctx, 1));
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    *best = PetscMin(*best, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HybridGradient(void *ctx, PetscInt calls)
{
  BenchProblem *p = (BenchProblem *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) PetscCall(RwAdjointSolve(p->adj, p->m, p->u0, NULL, p->g, p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Flops a point of the network's forward and adjoint (multiplies and adds of
   the layers; tanh apart): forward 2 s_l s_{l-1} a layer; the adjoint
   recomputes the forward, then per layer 2 s_l s_{l-1} for the weights, s_l
   for the biases, 2 s_l s_{l-1} for W^T zbar, and 3 a hidden unit for tanh' */
static void NetworkFlops(RwNN nn, PetscReal *fwd, PetscReal *adj)
{
  *fwd = *adj = 0;
  for (PetscInt l = 1; l < nn->nsizes; l++) {
    *fwd += 2.0 * nn->sizes[l] * nn->sizes[l - 1];
    *adj += 4.0 * nn->sizes[l] * nn->sizes[l - 1] + nn->sizes[l] + (l < nn->nsizes - 1 ? 3.0 * nn->sizes[l] : 0);
  }
  *adj += *fwd;
}

/* The network kernels alone, on n points of this rank */
static PetscErrorCode HybridKernelRows(const BenchConfig *cfg, BenchResults res, RwNN nn, const PetscReal *theta, PetscInt n, PetscInt row)
{
  HybridKernels k = {nn, (PetscReal *)theta, NULL, NULL, NULL, NULL, NULL, n, row};
  BenchTiming   tf, ta, tt, tp;
  PetscReal     acc[10] = {0.999999, 1e-7, 1, 2, 3, 4, 5, 6, 7, 8}, ff, fa, peak, hidden = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &k.x, n, &k.y, n, &k.ybar, n, &k.xbar, nn->nweights, &k.gsum));
  for (PetscInt p = 0; p < n; p++) k.x[p] = PetscSinReal(0.001 * p), k.ybar[p] = 1e-3 * PetscCosReal(0.0013 * p), k.xbar[p] = 0;
  PetscCall(PetscArrayzero(k.gsum, nn->nweights));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, KernelForward, &k, &tf));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, KernelAdjoint, &k, &ta));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, KernelTanh, &k, &tt));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, KernelPeak, acc, &tp));
  NetworkFlops(nn, &ff, &fa);
  peak = RwNNMultiplyAddLoop(1 << 16, acc) / tp.best;
  for (PetscInt l = 1; l < nn->nsizes - 1; l++) hidden += nn->sizes[l];
  PetscCall(BenchRow(res, "network kernels, %" PetscInt_FMT " points a rank", n));
  PetscCall(BenchReal(res, "forward_ns_per_point", "ns", 1e9 * tf.best / n));
  PetscCall(BenchReal(res, "adjoint_ns_per_point", "ns", 1e9 * ta.best / n));
  PetscCall(BenchReal(res, "forward_gflops", "GFLOP/s", 1e-9 * ff * n / tf.best));
  PetscCall(BenchReal(res, "adjoint_gflops", "GFLOP/s", 1e-9 * fa * n / ta.best));
  PetscCall(BenchReal(res, "peak_gflops", "GFLOP/s", 1e-9 * peak));
  PetscCall(BenchReal(res, "forward_of_peak", "", ff * n / tf.best / peak));
  PetscCall(BenchReal(res, "adjoint_of_peak", "", fa * n / ta.best / peak));
  PetscCall(BenchReal(res, "tanh_ns", "ns", 1e9 * tt.best / n));
  PetscCall(BenchReal(res, "tanh_of_forward", "", hidden * tt.best / n / (tf.best / n)));
  PetscCall(PetscFree5(k.x, k.y, k.ybar, k.xbar, k.gsum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PyTorch's J, forward and gradient seconds, and their processor seconds,
   each the best of repeat, on the same problem, on rank 0; why says why not
   when it could not run */
static PetscErrorCode HybridTorch(const char python[], const char script[], PetscInt grid, PetscInt steps, PetscInt hidden, PetscInt repeat, const char weights[], PetscReal dt, PetscReal out[5], char why[], size_t len)
{
  char  cmd[4 * PETSC_MAX_PATH_LEN], line[512];
  FILE *f;
  int   got = 0;

  PetscFunctionBegin;
  if (access(script, R_OK)) {
    PetscCall(PetscSNPrintf(why, len, "PyTorch not measured: no script %s (-rw_bench_hybrid_script)", script));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "OMP_NUM_THREADS=1 '%s' '%s' --torch-only --grid %" PetscInt_FMT " --steps %" PetscInt_FMT " --hidden %" PetscInt_FMT " --threads 1 --repeat %" PetscInt_FMT " --weights '%s' --dt %.17g 2>&1", python, script, grid, steps, hidden, repeat, weights, (double)dt));
  f = popen(cmd, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot run %s", cmd);
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "torch J %lf forward %lf gradient %lf cpu %lf %lf", &out[0], &out[1], &out[2], &out[3], &out[4]) == 5) got = 1;
  pclose(f);
  if (!got) PetscCall(PetscSNPrintf(why, len, "PyTorch not measured: %s --torch-only gave no timing (no torch in %s? -rw_bench_hybrid_python)", script, python));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The heat model with the network, and the problem of rewind-gradient */
static PetscErrorCode HybridModel(PetscInt grid, PetscInt steps, PetscInt hidden, RwModel *model)
{
  PetscOptions opts;

  PetscFunctionBegin;
  PetscCall(BenchOptionsPush(&opts, "-rw_heat_dim 2 -rw_heat_scheme explicit -rw_heat_bc periodic -da_grid_x %" PetscInt_FMT " -da_grid_y %" PetscInt_FMT " -rw_steps %" PetscInt_FMT " -rw_heat_nn -rw_nn_layers 1,%" PetscInt_FMT ",%" PetscInt_FMT ",1 -rw_nn_activation tanh -rw_nn_seed 7", grid, grid, steps, hidden, hidden));
  PetscCall(RwModelCreate(PETSC_COMM_WORLD, model));
  PetscCall(RwModelSetType(*model, RWMODELHEAT));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscCall(BenchOptionsPop(&opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The section's options and their defaults by size (python and script hold PETSC_MAX_PATH_LEN) */
static PetscErrorCode HybridOptions(const BenchConfig *cfg, PetscInt *grid, PetscInt *steps, PetscInt *hidden, char python[], char script[])
{
  const PetscInt grids[3] = {24, 128, 256}, stepss[3] = {5, 50, 200};

  PetscFunctionBegin;
  *grid   = grids[cfg->size];
  *steps  = stepss[cfg->size];
  *hidden = 16;
  PetscCall(PetscStrncpy(python, cfg->size ? "/usr/bin/python3" : "none", PETSC_MAX_PATH_LEN)); /* tests (size tiny): no torch import */
  PetscCall(PetscStrncpy(script, "jobs/compare_hybrid_torch.py", PETSC_MAX_PATH_LEN));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-bench hybrid section", "rewind-bench");
  PetscCall(RwOptionsInt("-rw_bench_hybrid_grid", "Hybrid section: side of the 2D grid", "rewind-bench", *grid, grid, NULL, 2, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_hybrid_steps", "Hybrid section: time steps", "rewind-bench", *steps, steps, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_bench_hybrid_hidden", "Hybrid section: width H of the network 1 -> H -> H -> 1", "rewind-bench", *hidden, hidden, NULL, 1, 4096));
  PetscCall(PetscOptionsString("-rw_bench_hybrid_python", "Hybrid section: the Python with torch, h5py and numpy that runs the PyTorch comparison (none: skip it)", "rewind-bench", python, python, PETSC_MAX_PATH_LEN, NULL));
  PetscCall(PetscOptionsString("-rw_bench_hybrid_script", "Hybrid section: jobs/compare_hybrid_torch.py", "rewind-bench", script, script, PETSC_MAX_PATH_LEN, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* BenchHybridHelp - under -help: the section's options, listed without running it */
PetscErrorCode BenchHybridHelp(const BenchConfig *cfg)
{
  PetscInt grid, steps, hidden;
  char     python[PETSC_MAX_PATH_LEN], script[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(HybridOptions(cfg, &grid, &steps, &hidden, python, script));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchHybrid(const BenchConfig *cfg, BenchResults res)
{
  PetscInt       grid, steps, hidden, block, nlocal;
  char           python[PETSC_MAX_PATH_LEN], script[PETSC_MAX_PATH_LEN], weights[PETSC_MAX_PATH_LEN], why[1024] = "";
  RwModel        model;
  RwNN           nn;
  BenchProblem   p;
  BenchTiming    tf, tg;
  PetscReal      J, dt, torch[5] = {0, 0, 0, 0, 0}, *theta, cpu[2];
  PetscMPIInt    rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(HybridOptions(cfg, &grid, &steps, &hidden, python, script));
  PetscCall(BenchSectionBegin(res, "hybrid", "heat + a learned reaction N_theta(u): gradient against forward, the network kernels against peak, against PyTorch"));
  PetscCall(HybridModel(grid, steps, hidden, &model));
  PetscCall(BenchProblemCreate(model, &p));
  PetscCall(BenchProblemAdjoint(&p, "-rw_schedule_type storeall -rw_store_type memory"));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, HybridForward, &p, &tf));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, HybridGradient, &p, &tg));
  PetscCall(CPUSeconds(cfg, HybridForward, &p, &cpu[0]));
  PetscCall(CPUSeconds(cfg, HybridGradient, &p, &cpu[1]));
  PetscCall(RwAdjointForward(p.adj, p.m, p.u0, &J, NULL));
  PetscCall(RwModelGetTimeStep(model, &dt));
  PetscCall(RwModelHeatGetNN(model, &nn));
  PetscCall(RwModelFindParameterBlock(model, "theta", &block));
  PetscCall(PetscMalloc1(nn->nweights, &theta));
  PetscCall(RwModelGetParameterBlock(model, p.m, block, theta));
  PetscCall(BenchRow(res, "rewind %" PetscInt_FMT "^2, %" PetscInt_FMT " steps, 1-%" PetscInt_FMT "-%" PetscInt_FMT "-1 tanh, %d rank%s", grid, steps, hidden, hidden, size, size > 1 ? "s" : ""));
  PetscCall(BenchReal(res, "forward", "s", tf.best));
  PetscCall(BenchReal(res, "gradient", "s", tg.best));
  PetscCall(BenchReal(res, "ratio", "", tg.best / tf.best));
  PetscCall(BenchReal(res, "cpu_forward", "s", cpu[0]));
  PetscCall(BenchReal(res, "cpu_gradient", "s", cpu[1]));
  PetscCall(BenchReal(res, "J", "", J));
  PetscCall(VecGetLocalSize(p.u0, &nlocal));
  PetscCall(HybridKernelRows(cfg, res, nn, theta, nlocal, grid));
  if (size > 1) PetscCall(PetscSNPrintf(why, sizeof(why), "PyTorch not measured: one thread against one rank only (run on 1 rank)"));
  else {
    PetscBool none;

    PetscCall(PetscStrcmp(python, "none", &none));
    if (none) PetscCall(PetscSNPrintf(why, sizeof(why), "PyTorch not measured (-rw_bench_hybrid_python none%s)", cfg->size ? "" : ", the default at size tiny"));
    else {
      PetscCall(BenchPath(cfg, "rewind-bench-hybrid-theta.h5", weights, sizeof(weights)));
      PetscCall(RwNNWriteWeights(nn, weights, theta));
      PetscCall(HybridTorch(python, script, grid, steps, hidden, cfg->repeat, weights, dt, torch, why, sizeof(why)));
      (void)unlink(weights);
    }
  }
  if (!why[0]) {
    PetscCall(BenchRow(res, "PyTorch autograd, 1 thread"));
    PetscCall(BenchReal(res, "forward", "s", torch[1]));
    PetscCall(BenchReal(res, "gradient", "s", torch[2]));
    PetscCall(BenchReal(res, "ratio", "", torch[2] / torch[1]));
    PetscCall(BenchReal(res, "cpu_forward", "s", torch[3]));
    PetscCall(BenchReal(res, "cpu_gradient", "s", torch[4]));
    PetscCall(BenchReal(res, "J_relative_difference", "", PetscAbsReal(torch[0] - J) / PetscAbsReal(J)));
    PetscCall(BenchReal(res, "speedup_gradient", "", torch[2] / tg.best));
    PetscCall(BenchReal(res, "speedup_forward", "", torch[1] / tf.best));
    PetscCall(BenchReal(res, "speedup_gradient_cpu", "", torch[4] / cpu[1]));
  } else PetscCall(BenchNote(res, "%s", why));
  PetscCall(BenchNote(res, "forward: RwAdjointForward; gradient: RwAdjointSolve, store-all in memory; rewind and PyTorch each best of %" PetscInt_FMT " (wall; cpu_: processor seconds of this process, best of as many). Kernels: RwNNForward by rows of %" PetscInt_FMT ", RwNNAdjoint by tiles of %d; GFLOP/s of the layers' multiplies and adds (tanh apart) against RwNNMultiplyAddLoop (8 independent chains of vector fused multiply-adds, the same ISA variant)", cfg->repeat, grid, RW_NN_TILE));
  PetscCall(PetscFree(theta));
  PetscCall(BenchProblemDestroy(&p)); /* and the model */
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
