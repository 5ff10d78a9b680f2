/*
  The performance targets of issue 7 against what this run measured; reported,
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
  PetscReal x;
  char      name[64];

  PetscFunctionBegin;
  for (PetscInt g = 0; g < cfg->nkernel_grid; g++) side = PetscMax(side, cfg->kernel_grid[g]);
  PetscCall(BenchSectionBegin(res, "targets", "issue 7's performance targets (reported, not asserted)"));
  PetscCall(PetscSNPrintf(name, sizeof(name), "2D explicit %" PetscInt_FMT "x%" PetscInt_FMT " forward", side, side));
  PetscCall(BenchLookup(res, "kernels", name, "of_copy", &x));
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
  PetscCall(BenchNote(res, "weak scaling: the gradient section's weak case (2 of the run's ranks against 1, in one process); jobs/local/scaling weak measures it across runs"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
