/* What reproducible sums cost (doc/reprosum.md): exact local accumulation and the exact all-reduce. */
#include "bench.h"

/* Local accumulation: exact adds against a plain loop over the same terms */
static PetscErrorCode SumAdd(BenchResults res, PetscInt n, PetscInt reps)
{
  PetscReal     *x;
  volatile PetscReal plain = 0;
  PetscReal      exact;
  RwReproSum     rs;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &x));
  for (PetscInt i = 0; i < n; i++) x[i] = PetscSinReal((PetscReal)i) * PetscPowReal(10.0, (PetscReal)(i % 41 - 20));
  PetscCall(RwReproSumCreate(1, &rs));
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++) {
    PetscReal s = 0;
    for (PetscInt i = 0; i < n; i++) s += x[i];
    plain += s;
  }
  PetscCall(PetscTime(&t1));
  for (PetscInt r = 0; r < reps; r++) PetscCall(RwReproSumAddArray(rs, 0, n, x));
  PetscCall(PetscTime(&t2));
  PetscCall(RwReproSumAllreduce(rs, PETSC_COMM_SELF, &exact));
  PetscCall(BenchRow(res, "local add, %" PetscInt_FMT " terms", n));
  PetscCall(BenchReal(res, "reprosum", "ns", 1e9 * (t2 - t1) / (n * reps)));
  PetscCall(BenchReal(res, "plain", "ns", 1e9 * (t1 - t0) / (n * reps)));
  PetscCall(BenchReal(res, "ratio", "", (t2 - t1) / (t1 - t0)));
  PetscCall(BenchReal(res, "sum_relative_difference", "", PetscAbsReal(plain - exact) / PetscAbsReal(exact)));
  PetscCall(RwReproSumDestroy(&rs));
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reduction of k sums across all ranks: RwReproSumAllreduce against MPI_Allreduce */
static PetscErrorCode SumReduce(BenchResults res, PetscInt k, PetscInt reps)
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
  PetscCall(BenchRow(res, "all-reduce of %" PetscInt_FMT " sums, %d ranks", k, size));
  PetscCall(BenchReal(res, "reprosum", "us", 1e6 * (t2 - t1) / reps));
  PetscCall(BenchReal(res, "plain", "us", 1e6 * (t1 - t0) / reps));
  PetscCall(BenchReal(res, "ratio", "", (t2 - t1) / (t1 - t0)));
  PetscCall(RwReproSumDestroy(&rs));
  PetscCall(PetscFree2(x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchSum(const BenchConfig *cfg, BenchResults res)
{
  PetscFunctionBegin;
  PetscCall(BenchSectionBegin(res, "sum", "reproducible sums (RwReproSum) against plain ones"));
  PetscCall(SumAdd(res, cfg->sum_terms, cfg->sum_repeat));
  PetscCall(SumReduce(res, 1, cfg->sum_reduce_repeat));
  PetscCall(SumReduce(res, 8, cfg->sum_reduce_repeat));
  PetscCall(BenchNote(res, "local add: per term, on each rank; plain: a double sum of the same terms; all-reduce: per call, every rank"));
  PetscCall(BenchSectionEnd(res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
