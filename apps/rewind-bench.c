static char help[] = "rewind-bench: what rewind's building blocks cost on this machine.\n"
                     "All figures are measured in one process, so their ratios hold on a noisy machine.\n\n";

#include <rewind.h>

/* Local accumulation: exact adds against a plain loop over the same terms */
static PetscErrorCode BenchReproSumAdd(PetscInt n, PetscInt reps)
{
  PetscReal     *x, plain = 0, exact;
  RwReproSum     rs;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &x));
  for (PetscInt i = 0; i < n; i++) x[i] = PetscSinReal((PetscReal)i) * PetscPowReal(10.0, (PetscReal)(i % 41 - 20));
  PetscCall(RwReproSumCreate(1, &rs));
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++)
    for (PetscInt i = 0; i < n; i++) plain += x[i];
  PetscCall(PetscTime(&t1));
  for (PetscInt r = 0; r < reps; r++) PetscCall(RwReproSumAddArray(rs, 0, n, x));
  PetscCall(PetscTime(&t2));
  PetscCall(RwReproSumAllreduce(rs, PETSC_COMM_SELF, &exact));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reprosum_add_ns_per_term     %.3g   (plain double sum: %.3g ns; ratio %.1f)\n", 1e9 * (t2 - t1) / (n * reps), 1e9 * (t1 - t0) / (n * reps), (t2 - t1) / (t1 - t0)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reprosum_check                %.17g %.17g\n", (double)plain, (double)exact));
  PetscCall(RwReproSumDestroy(&rs));
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reduction of k sums across all ranks: RwReproSumAllreduce against MPI_Allreduce */
static PetscErrorCode BenchReproSumReduce(PetscInt k, PetscInt reps)
{
  PetscReal     *x, *y;
  RwReproSum     rs;
  PetscLogDouble t0, t1, t2;
  PetscMPIInt    size, kk;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMPIIntCast(k, &kk));
  PetscCall(PetscMalloc2(k, &x, k, &y));
  PetscCall(RwReproSumCreate(k, &rs));
  for (PetscInt i = 0; i < k; i++) {
    x[i] = 1.0 / (i + 1);
    PetscCall(RwReproSumAdd(rs, i, x[i]));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++) PetscCallMPI(MPI_Allreduce(x, y, kk, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t1));
  for (PetscInt r = 0; r < reps; r++) PetscCall(RwReproSumAllreduce(rs, PETSC_COMM_WORLD, y));
  PetscCall(PetscTime(&t2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reprosum_allreduce_us_%-6" PetscInt_FMT " %.3g   (MPI_Allreduce: %.3g us; ratio %.1f; %d ranks)\n", k, 1e6 * (t2 - t1) / reps, 1e6 * (t1 - t0) / reps, (t2 - t1) / (t1 - t0), size));
  PetscCall(RwReproSumDestroy(&rs));
  PetscCall(PetscFree2(x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt n = 1000000, reps = 20, rreps = 2000;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-bench options", "rewind");
  PetscCall(PetscOptionsInt("-rw_bench_sum_terms", "Terms per local accumulation measurement", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-rw_bench_repeat", "Repetitions of each local measurement", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-rw_bench_reduce_repeat", "Repetitions of each reduction measurement", NULL, rreps, &rreps, NULL));
  PetscOptionsEnd();
  PetscCheck(n > 0 && reps > 0 && rreps > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_bench_sum_terms, -rw_bench_repeat and -rw_bench_reduce_repeat must be > 0");
  PetscCall(BenchReproSumAdd(n, reps));
  PetscCall(BenchReproSumReduce(1, rreps));
  PetscCall(BenchReproSumReduce(8, rreps));
  PetscCall(PetscFinalize());
  return 0;
}
