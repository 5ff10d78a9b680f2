/*
  Step throughput of the heat kernels: forward, tangent and adjoint steps
  taken directly through RwModelStep, RwModelStepTangent and
  RwModelStepAdjoint on random states, for each dimension and scheme, at
  grids in cache and far beyond.  Effective bandwidth counts the minimal
  bytes a step must move per grid point (KernelBytes), compared with the copy
  bandwidth of all ranks measured by the stream section in this process.
*/
#include "bench.h"
#include <math.h>
#include <petscdmda.h>

static const char *const KernelForms[] = {"forward", "tangent", "adjoint", "exchange"};

/* Every call steps from the same states, so an implicit solve does the same work each time */
PetscErrorCode BenchStepRun(void *ctx, PetscInt calls)
{
  BenchStepCtx *c = (BenchStepCtx *)ctx;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < calls; k++) {
    switch (c->form) {
    case BENCH_STEP_FORWARD: PetscCall(RwModelStep(c->model, k, c->u, c->w)); break;
    case BENCH_STEP_TANGENT: PetscCall(RwModelStepTangent(c->model, k, c->u, c->w, c->du, c->dw)); break;
    case BENCH_STEP_ADJOINT: PetscCall(RwModelStepAdjoint(c->model, k, c->u, c->w, c->l, c->lw)); break;
    case BENCH_STEP_EXCHANGE: PetscCall(RwModelGlobalToLocal(c->model, c->u, c->loc)); break;
    case BENCH_STEP_PAIR: {
      Vec out[2] = {c->w, c->dw};

      PetscCall(RwModelStepBlock(c->model, 2 * k, 2, c->u, out));
    } break;
    case BENCH_STEP_BLOCK: PetscCall(RwModelStepBlock(c->model, c->depth * k, c->depth, c->u, c->out)); break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Minimal bytes per point of the pass of one step (8 per array read or written
  once) and, for implicit schemes, what one CG iteration with Jacobi moves: the
  assembled MatMult ((2d+1) entries of value and column index, the row
  pointer, x and y) and the 17 vector reads and writes of CG and Jacobi.  A
  pass's halo exchange moves the ghosts and copies the two owned layers at
  the box's edges: bytes per point that vanish with the box's size, counted 0.
*/
static void KernelBytes(BenchStepForm form, PetscInt dim, PetscBool implicit, PetscReal *pass, PetscReal *halo, PetscReal *matmult, PetscReal *cgvec)
{
  /* arrays: forward u, kappa, s -> y; tangent du, kappa, dkappa, u_a, ds -> y (+ u_b);
     adjoint mu, kappa, u_a -> y and gk, gs, gr read and written (+ u_b) */
  const PetscReal arrays[3] = {4, 6, 10};

  if (form == BENCH_STEP_EXCHANGE) { /* owned values read, written into the ghosted array */
    *pass = 16;
    *halo = *matmult = *cgvec = 0;
    return;
  }
  *pass    = 8 * (arrays[form] + (implicit && form != BENCH_STEP_FORWARD ? 1 : 0));
  *halo    = 0;
  *matmult = (2 * dim + 1) * 12.0 + 4 + 16;
  *cgvec   = 17 * 8.0;
}

/* MatMult and MatMultTranspose calls so far (implicit schemes: iterations + 1 per solve) */
static PetscErrorCode KernelMatMults(PetscReal *n)
{
  const char *const  names[2] = {"MatMult", "MatMultTranspose"};
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  *n = 0;
  for (PetscInt i = 0; i < 2; i++) {
    PetscCall(PetscLogEventGetId(names[i], &ev));
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
    *n += info.count;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grid of a case: the points of side^2 in 1, 2 or 3 dimensions */
static void KernelGrid(PetscInt dim, PetscInt side, PetscInt M[3])
{
  const PetscInt N3 = (PetscInt)PetscFloorReal(PetscPowReal((PetscReal)side * side, 1.0 / 3.0) + 0.5);

  M[0] = dim == 1 ? side * side : dim == 2 ? side : N3;
  M[1] = dim == 2 ? side : N3;
  M[2] = N3;
}

static void KernelVecs(BenchStepCtx *c, Vec *v[6])
{
  v[0] = &c->u;
  v[1] = &c->w;
  v[2] = &c->du;
  v[3] = &c->dw;
  v[4] = &c->l;
  v[5] = &c->lw;
}

PetscErrorCode BenchStepStates(RwModel model, BenchStepCtx *c)
{
  PetscRandom rnd;
  Vec        *v[6];

  PetscFunctionBegin;
  KernelVecs(c, v);
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)model), &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt i = 0; i < 6; i++) {
    PetscCall(RwModelCreateState(model, v[i]));
    PetscCall(VecSetRandom(*v[i], rnd));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  c->model = model;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchStepDestroy(BenchStepCtx *c)
{
  Vec *v[6];

  PetscFunctionBegin;
  KernelVecs(c, v);
  for (PetscInt i = 0; i < 6; i++) PetscCall(VecDestroy(v[i]));
  PetscCall(VecDestroy(&c->loc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parameters: the default kappa (so the default dt is stable), s = r = 0; a random direction */
PetscErrorCode BenchStepParameters(RwModel model, Vec *m, Vec *dm)
{
  PetscRandom rnd;

  PetscFunctionBegin;
  PetscCall(RwModelCreateParameters(model, m));
  PetscCall(RwModelGetDefaults(model, *m, NULL, NULL));
  PetscCall(RwModelSetParameters(model, *m));
  PetscCall(VecDuplicate(*m, dm));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)model), &rnd));
  PetscCall(VecSetRandom(*dm, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(RwModelSetDirection(model, *dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KernelCase(const BenchConfig *cfg, BenchResults res, PetscInt dim, PetscBool implicit, PetscInt side, PetscReal copy)
{
  PetscInt    M[3];
  RwModel     model;
  BenchStepCtx   c;
  Vec         m, dm;
  char        grid[64];
  PetscReal   tfwd = 0, near;
  DM          da;
  PetscInt    N;
  const char *isa;

  PetscFunctionBegin;
  KernelGrid(dim, side, M);
  PetscCall(BenchHeatModel(PETSC_COMM_WORLD, dim, implicit ? "implicit" : "explicit", M, &model));
  PetscCall(BenchGridName(model, grid, sizeof(grid)));
  PetscCall(RwModelGetKernelISA(model, &isa));
  PetscCall(RwModelGetStateDM(model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  N = M[0] * M[1] * M[2];
  PetscCall(BenchStepParameters(model, &m, &dm));
  PetscCall(BenchStepStates(model, &c));
  PetscCall(RwModelAdjointBegin(model));
  PetscCall(DMCreateLocalVector(da, &c.loc));
  PetscCall(BenchCopyNear(cfg, &near));
  for (PetscInt f = BENCH_STEP_FORWARD; f <= (implicit ? BENCH_STEP_ADJOINT : BENCH_STEP_EXCHANGE); f++) {
    BenchTiming t;
    PetscReal   pass, halo, matmult, cgvec, mm0 = 0, mm1 = 0, its = (PetscReal)NAN, bytes, bw;
    PetscInt64  steps;

    c.form = (BenchStepForm)f;
    KernelBytes(c.form, dim, implicit, &pass, &halo, &matmult, &cgvec);
    if (implicit) PetscCall(KernelMatMults(&mm0));
    PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, BenchStepRun, &c, &t));
    steps = (PetscInt64)t.calls * cfg->repeat + 1;
    bytes = pass;
    if (implicit) {
      PetscCall(KernelMatMults(&mm1));
      its = (mm1 - mm0) / steps - 1;
      bytes += (its + 1) * matmult + its * cgvec;
    }
    if (f == BENCH_STEP_FORWARD) tfwd = t.best;
    PetscCall(BenchRow(res, "%" PetscInt_FMT "D %s %s %s", dim, implicit ? "implicit" : "explicit", grid, KernelForms[f]));
    PetscCall(BenchText(res, "isa", isa));
    PetscCall(BenchReal(res, "rate", "Mpt/s", N / t.best / 1e6));
    PetscCall(BenchReal(res, "step", "ms", 1e3 * t.best));
    PetscCall(BenchReal(res, "bytes", "B/pt", bytes));
    bw = N * bytes / t.best / 1e9;
    PetscCall(BenchReal(res, "bw", "GB/s", bw));
    PetscCall(BenchReal(res, "of_copy", "", bw / copy));
    PetscCall(BenchReal(res, "copy_near", "GB/s", near));
    PetscCall(BenchReal(res, "of_copy_near", "", bw / near));
    PetscCall(BenchReal(res, "halo", "B/pt", halo));
    PetscCall(BenchReal(res, "moved_of_copy", "", N * (bytes + halo) / t.best / 1e9 / copy));
    PetscCall(BenchReal(res, "vs_forward", "", t.best / tfwd));
    PetscCall(BenchReal(res, "cg_its", "", its));
    PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(&t)));
    if (f == BENCH_STEP_FORWARD && !implicit) PetscCall(BenchPortableRow(cfg, res, model, BenchStepRun, &c, N, bytes, copy, tfwd, PETSC_TRUE));
  }
  PetscCall(RwModelAdjointEnd(model, dm));
  PetscCall(BenchStepDestroy(&c));
  PetscCall(VecDestroy(&m));
  PetscCall(VecDestroy(&dm));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchKernels(const BenchConfig *cfg, BenchResults res)
{
  PetscReal copy;

  PetscFunctionBegin;
  PetscCall(BenchCopyBandwidth(res, &copy));
  if (cfg->kernel_implicit) { /* CG iterations are counted from the MatMult event */
    PetscBool on;
    PetscCall(PetscLogIsActive(&on));
    if (!on) PetscCall(PetscLogDefaultBegin());
  }
  PetscCall(BenchSectionBegin(res, "kernels", "heat step throughput: forward, tangent, adjoint"));
  for (PetscInt d = 0; d < cfg->nkernel_dims; d++)
    for (PetscInt s = 0; s < 2; s++) {
      PetscBool implicit = s ? PETSC_TRUE : PETSC_FALSE;
      if ((implicit && !cfg->kernel_implicit) || (!implicit && !cfg->kernel_explicit)) continue;
      for (PetscInt g = 0, last = 0; g < cfg->nkernel_grid; g++) {
        PetscInt side = implicit ? PetscMin(cfg->kernel_grid[g], cfg->kernel_implicit_max) : cfg->kernel_grid[g];
        if (side == last) continue;
        PetscCall(KernelCase(cfg, res, cfg->kernel_dims[d], implicit, side, copy));
        last = side;
      }
    }
  PetscCall(BenchNote(res, "bytes: minimal per point of a step, 8 per array read or written once: explicit forward 32 (reads u, kappa, s; writes u_new), tangent 48 (du, kappa, dkappa, u, ds; du_new), adjoint 80 (lambda, kappa, u; lambda_new; gradient accumulators of kappa, s, r read and written); implicit schemes add u_k+1 to tangent and adjoint"));
  PetscCall(BenchNote(res, "implicit (backward Euler, CG + Jacobi): bytes add, per CG iteration, the assembled MatMult ((2d+1) x 12 B entries, row pointer, x, y) and 17 vector accesses of CG and Jacobi; cg_its counted from the MatMult event"));
  PetscCall(BenchNote(res, "of_copy = bw / copy bandwidth of all ranks (stream section, %.4g GB/s); of_copy_near = bw / copy_near, a copy of all ranks timed just before the case (the targets divide bw by the best copy of the run); halo: bytes per point a pass's halo exchange adds (ghosts and the owned edge band only: O(surface), counted 0); moved_of_copy counts it", (double)copy));
  PetscCall(BenchNote(res, "exchange (explicit cases): RwModelGlobalToLocal of one state, a full copy with ghosts (16 B per point) as sensors and regularisers make; before rewind moved only ghosts, every pass made one per input"));
  PetscCall(BenchNote(res, "vs_forward: time / forward step time of the same case; in-cache grids can exceed the copy bandwidth"));
  PetscCall(BenchNote(res, "isa: the instruction set the kernels ran with (the best this CPU has, -rw_kernel_isa); \"forward portable\" rows: the same step with the portable kernel (the same bits), vs_forward = its time / the dispatched forward's"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
