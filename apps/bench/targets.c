/*
  The performance targets of issues 7, 12 (wave) and 14 (dispatched kernels)
  against what this run measured; reported,
  never asserted (doc/benchmarks.md).  A target whose section did not run, or
  ran on a grid below the target's, says so.
*/
#include "bench.h"

typedef struct {
  const char *what;
  PetscReal   goal;
  PetscBool   atleast; /* the figure must be >= goal (else <=) */
} Target;

static PetscErrorCode TargetRow(BenchResults res, const Target *t, PetscReal x, PetscInt side, PetscInt need)
{
  const char *verdict = PetscIsInfOrNanReal(x) ? "not measured" : side < need ? "grid too small" : (t->atleast ? x >= t->goal : x <= t->goal) ? "met" : "missed";

  PetscFunctionBegin;
  PetscCall(BenchRow(res, "%s", t->what));
  PetscCall(BenchReal(res, "measured", "", x));
  PetscCall(BenchText(res, "target", t->atleast ? ">=" : "<="));
  PetscCall(BenchReal(res, "goal", "", t->goal));
  PetscCall(BenchInt(res, "grid_side", side));
  PetscCall(BenchText(res, "verdict", verdict));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A case's bandwidth over best, the best copy the run measured (BenchCopyBest()) */
static PetscErrorCode BenchOfCopyBest(BenchResults res, const char section[], const char name[], PetscReal best, PetscReal *x)
{
  PetscReal bw;

  PetscFunctionBegin;
  PetscCall(BenchLookup(res, section, name, "bw", &bw));
  *x = bw / best;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Issue 14: the default build's heat forward kernel at 2048^2 and 4096^2 */
static PetscErrorCode TargetsHeatDispatch(const BenchConfig *cfg, BenchResults res, PetscReal best)
{
  const PetscInt sides[2] = {2048, 4096};
  char           name[64], what[96];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 2; i++) {
    Target    t = {what, 0.75, PETSC_TRUE};
    PetscReal x = (PetscReal)NAN;
    PetscBool ran = PETSC_FALSE;

    for (PetscInt g = 0; g < cfg->nkernel_grid; g++) ran = (PetscBool)(ran || cfg->kernel_grid[g] == sides[i]);
    PetscCall(PetscSNPrintf(what, sizeof(what), "heat 2D forward / copy, %" PetscInt_FMT "^2, dispatched", sides[i]));
    PetscCall(PetscSNPrintf(name, sizeof(name), "2D explicit %" PetscInt_FMT "x%" PetscInt_FMT " forward", sides[i], sides[i]));
    PetscCall(BenchOfCopyBest(res, "kernels", name, best, &x));
    PetscCall(TargetRow(res, &t, x, ran ? sides[i] : 0, sides[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Issue 12: the wave section's rows against their targets */
static PetscErrorCode TargetsWave(const BenchConfig *cfg, BenchResults res, PetscReal best)
{
  char      name[96], what[96];
  PetscReal x;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < cfg->nwave_grid2 + 1; c++) { /* the 2D sides, then 3D */
    const PetscInt d = c < cfg->nwave_grid2 ? 2 : 3, side = d == 2 ? cfg->wave_grid2[c] : cfg->wave_grid3, need = d == 2 ? 2048 : 256;
    char           grid[48];

    if (d == 2) PetscCall(PetscSNPrintf(grid, sizeof(grid), "%" PetscInt_FMT "x%" PetscInt_FMT, side, side));
    else PetscCall(PetscSNPrintf(grid, sizeof(grid), "%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT, side, side, side));
    for (PetscInt o = 0; o < cfg->nwave_orders; o++) {
      Target bw = {what, 0.7, PETSC_TRUE}, adj = {what, 2.0, PETSC_FALSE};

      PetscCall(PetscSNPrintf(name, sizeof(name), "%" PetscInt_FMT "D order %" PetscInt_FMT " %s forward", d, cfg->wave_orders[o], grid));
      PetscCall(PetscSNPrintf(what, sizeof(what), "wave %s order %" PetscInt_FMT " forward / copy", grid, cfg->wave_orders[o]));
      PetscCall(BenchOfCopyBest(res, "wave", name, best, &x));
      PetscCall(TargetRow(res, &bw, x, side, need));
      if (d == 2) { /* the same target for the pairs of steps the driver's sweeps take (RwModelStepBlock()) */
        PetscCall(PetscSNPrintf(name, sizeof(name), "2D order %" PetscInt_FMT " %s forward pair", cfg->wave_orders[o], grid));
        PetscCall(PetscSNPrintf(what, sizeof(what), "wave %s order %" PetscInt_FMT " forward pair / copy", grid, cfg->wave_orders[o]));
        PetscCall(BenchOfCopyBest(res, "wave", name, best, &x));
        PetscCall(TargetRow(res, &bw, x, side, need));
      }
      PetscCall(PetscSNPrintf(name, sizeof(name), "%" PetscInt_FMT "D order %" PetscInt_FMT " %s adjoint", d, cfg->wave_orders[o], grid));
      PetscCall(PetscSNPrintf(what, sizeof(what), "wave %s order %" PetscInt_FMT " adjoint / forward step", grid, cfg->wave_orders[o]));
      PetscCall(BenchLookup(res, "wave", name, "vs_forward", &x));
      PetscCall(TargetRow(res, &adj, x, side, need));
    }
  }
  {
    const Target storeall = {"wave gradient / forward, storeall", 3.0, PETSC_FALSE}, budget = {"wave gradient / forward, budget 1/10", 4.5, PETSC_FALSE};

    /* issue 12's problem: 2D order 4, 1024^2 (-rw_bench_wave_gradient_grid) */
    PetscCall(BenchLookup(res, "wave", "gradient storeall", "ratio", &x));
    PetscCall(TargetRow(res, &storeall, x, cfg->wave_gradient_grid, 1024));
    PetscCall(BenchLookup(res, "wave", "gradient budget 1/10", "ratio", &x));
    PetscCall(TargetRow(res, &budget, x, cfg->wave_gradient_grid, 1024));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Issue 37: 3D forward at 256^3 by order, gradient / forward store-all in 2D and 3D, the 3D FWI gradient against its roofline */
static PetscErrorCode TargetsWave3D(const BenchConfig *cfg, BenchResults res, PetscReal best)
{
  const PetscReal goal[3] = {0.9, 0.8, 0.7}; /* orders 2, 4, 8 */
  char            name[96], what[96];
  PetscReal       x;

  PetscFunctionBegin;
  for (PetscInt o = 0; o < cfg->nwave_orders; o++) {
    const PetscInt q = cfg->wave_orders[o], s = cfg->wave_grid3;
    Target         t = {what, goal[q == 2 ? 0 : q == 4 ? 1 : 2], PETSC_TRUE};

    PetscCall(PetscSNPrintf(name, sizeof(name), "3D order %" PetscInt_FMT " %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " forward", q, s, s, s));
    PetscCall(PetscSNPrintf(what, sizeof(what), "issue 37: wave 3D order %" PetscInt_FMT " forward / copy", q));
    PetscCall(BenchOfCopyBest(res, "wave", name, best, &x));
    PetscCall(TargetRow(res, &t, x, s, 256));
  }
  {
    const Target two = {"issue 37: wave 2D gradient / forward, storeall", 2.5, PETSC_FALSE}, three = {"issue 37: wave 3D gradient / forward, storeall", 2.8, PETSC_FALSE}, fwi = {"issue 37: 3D FWI gradient / roofline", 2.0, PETSC_FALSE};

    PetscCall(BenchLookup(res, "wave", "gradient storeall", "ratio", &x));
    PetscCall(TargetRow(res, &two, x, cfg->wave_gradient_grid, 1024));
    PetscCall(BenchLookup(res, "wave", "gradient storeall 3D", "ratio", &x));
    PetscCall(TargetRow(res, &three, x, cfg->wave_gradient_grid3, 160));
    PetscCall(PetscSNPrintf(name, sizeof(name), "fwi 3D %" PetscInt_FMT "^3, 4 shots", cfg->wave_fwi3d_grid));
    PetscCall(BenchLookup(res, "wave", name, "vs_roofline", &x));
    PetscCall(TargetRow(res, &fwi, x, cfg->wave_fwi3d_grid, 128));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchTargets(const BenchConfig *cfg, BenchResults res)
{
  const Target targets[] = {
    {"2D explicit forward / copy bandwidth", 0.7, PETSC_TRUE },
    {"2D explicit adjoint / forward step",   2.0, PETSC_FALSE},
    {"gradient / forward, storeall in RAM",  3.0, PETSC_FALSE},
    {"TSAdjoint time / rewind time",         10,  PETSC_TRUE },
    {"weak-scaling efficiency 1 -> 2 ranks", 0.9, PETSC_TRUE }
  };
  PetscMPIInt size;
  PetscInt  side = 0;
  PetscReal x, best;
  char      name[64];

  PetscFunctionBegin;
  for (PetscInt g = 0; g < cfg->nkernel_grid; g++) side = PetscMax(side, cfg->kernel_grid[g]);
  PetscCall(BenchCopyBest(res, &best));
  PetscCall(BenchSectionBegin(res, "targets", "the performance targets of issues 7, 12, 14 and 37 (reported, not asserted)"));
  PetscCall(PetscSNPrintf(name, sizeof(name), "2D explicit %" PetscInt_FMT "x%" PetscInt_FMT " forward", side, side));
  PetscCall(BenchOfCopyBest(res, "kernels", name, best, &x));
  PetscCall(TargetRow(res, &targets[0], x, side, 2048));
  PetscCall(PetscSNPrintf(name, sizeof(name), "2D explicit %" PetscInt_FMT "x%" PetscInt_FMT " adjoint", side, side));
  PetscCall(BenchLookup(res, "kernels", name, "vs_forward", &x));
  PetscCall(TargetRow(res, &targets[1], x, side, 2048));
  PetscCall(BenchLookup(res, "gradient", "storeall/memory", "ratio", &x));
  PetscCall(TargetRow(res, &targets[2], x, cfg->gradient_grid, 2048));
  PetscCall(PetscSNPrintf(name, sizeof(name), "2D explicit %" PetscInt_FMT "x%" PetscInt_FMT ", %" PetscInt_FMT " steps", cfg->peer_grid, cfg->peer_grid, cfg->peer_steps));
  PetscCall(BenchLookup(res, "peer", name, "speedup", &x));
  PetscCall(TargetRow(res, &targets[3], x, cfg->peer_grid, 2048));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscSNPrintf(name, sizeof(name), "weak 2/%d ranks", size));
  PetscCall(BenchLookup(res, "gradient", name, "efficiency_gradient", &x));
  PetscCall(TargetRow(res, &targets[4], x, cfg->gradient_grid, 2048));
  PetscCall(TargetsHeatDispatch(cfg, res, best));
  PetscCall(TargetsWave(cfg, res, best));
  PetscCall(TargetsWave3D(cfg, res, best));
  PetscCall(BenchNote(res, "weak scaling: the gradient section's weak case (2 of the run's ranks against 1, in one process); jobs/local/scaling weak measures it across runs"));
  PetscCall(BenchNote(res, "forward / copy: bw over the best copy of all ranks the run measured (the stream section's and every case's copy_near): %.4g GB/s; a single copy swings, and the kernels beside it follow only sometimes", (double)best));
  PetscCall(BenchNote(res, "issue 14: the heat forward kernel in the default build (run-time dispatch, -rw_kernel_isa) at 2048^2 and 4096^2; issue 12: the wave section's rows; issue 37: 3D forward by order at 256^3, store-all gradient / forward at 1024^2 (2D) and 160^3 (3D, order 4), the 3D FWI gradient at 128^3 (4 shots) over its roofline (the wave section's fwi 3D row)"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
