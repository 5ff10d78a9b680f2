/* rewind-bench: timing, options of the built-in cases, the heat models they run. */
#include "bench.h"
#include <math.h>
#include <petscdmda.h>

/*
  Times fn(ctx, calls) on every rank at once and keeps the slowest rank's
  seconds per call.  One call first, untimed in the result, warms caches and
  first-touch pages and sets calls so that one repetition lasts at least
  -rw_bench_seconds; the best and the worst of -rw_bench_repeat repetitions
  are kept.
*/
PetscErrorCode BenchTime(MPI_Comm comm, const BenchConfig *cfg, BenchFn fn, void *ctx, BenchTiming *t)
{
  PetscLogDouble t0, t1, mine, slowest;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(fn(ctx, 1));
  PetscCall(PetscTime(&t1));
  mine = t1 - t0;
  PetscCall(MPIU_Allreduce(&mine, &slowest, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  t->first = slowest;
  t->calls = (PetscInt)PetscMin(1e7, PetscMax(1, PetscCeilReal(cfg->seconds / PetscMax(slowest, 1e-9))));
  t->best  = PETSC_MAX_REAL;
  t->worst = 0;
  for (PetscInt r = 0; r < cfg->repeat; r++) {
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    PetscCall(fn(ctx, t->calls));
    PetscCall(PetscTime(&t1));
    mine = (t1 - t0) / t->calls;
    PetscCall(MPIU_Allreduce(&mine, &slowest, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
    t->best  = PetscMin(t->best, slowest);
    t->worst = PetscMax(t->worst, slowest);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How far the worst repetition was from the best, relative to the best */
PetscReal BenchSpread(const BenchTiming *t)
{
  return (t->worst - t->best) / t->best;
}

/*
  The built-in cases see only their own options: a fresh options database,
  made the default until BenchOptionsPop(), so options given to rewind-bench
  for its "options" case (-da_grid_x, -rw_schedule_type, ...) cannot change
  them.  Objects read their options in SetFromOptions and SetUp, so both must
  run between push and pop.
*/
PetscErrorCode BenchOptionsPush(PetscOptions *opts, const char fmt[], ...)
{
  char    str[2048];
  size_t  len;
  va_list ap;

  PetscFunctionBegin;
  va_start(ap, fmt);
  PetscCall(PetscVSNPrintf(str, sizeof(str), fmt, &len, ap));
  va_end(ap);
  PetscCall(PetscOptionsCreate(opts));
  PetscCall(PetscOptionsInsertString(*opts, str));
  PetscCall(PetscOptionsPush(*opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchOptionsPop(PetscOptions *opts)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsPop());
  PetscCall(PetscOptionsDestroy(opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A heat model on a periodic grid of M[0] x ... x M[dim-1] points, set up */
PetscErrorCode BenchHeatModel(MPI_Comm comm, PetscInt dim, const char scheme[], const PetscInt M[], RwModel *model)
{
  PetscOptions opts;
  char         grid[128] = "";
  size_t       len;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(PetscStrlen(grid, &len));
    PetscCall(PetscSNPrintf(grid + len, sizeof(grid) - len, " -da_grid_%c %" PetscInt_FMT, "xyz"[d], M[d]));
  }
  PetscCall(BenchOptionsPush(&opts, "-rw_heat_dim %" PetscInt_FMT " -rw_heat_scheme %s -rw_heat_bc periodic %s", dim, scheme, grid));
  PetscCall(RwModelCreate(comm, model));
  PetscCall(RwModelSetType(*model, RWMODELHEAT));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscCall(BenchOptionsPop(&opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "4096x4096": the model's grid */
PetscErrorCode BenchGridName(RwModel model, char buf[], size_t len)
{
  DM       da;
  PetscInt dim, M[3];

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(model, &da));
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  if (dim == 1) PetscCall(PetscSNPrintf(buf, len, "%" PetscInt_FMT, M[0]));
  else if (dim == 2) PetscCall(PetscSNPrintf(buf, len, "%" PetscInt_FMT "x%" PetscInt_FMT, M[0], M[1]));
  else PetscCall(PetscSNPrintf(buf, len, "%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT, M[0], M[1], M[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dir/name in the directory of -rw_bench_dir */
PetscErrorCode BenchPath(const BenchConfig *cfg, const char name[], char path[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "%s/%s", cfg->dir, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* on[i]: whether names[i] is in the comma-separated list given to option opt */
PetscErrorCode BenchParseNames(const char opt[], const char list[], PetscInt n, const char *const names[], PetscBool on[])
{
  char **words, known[256] = "";
  int    nw;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    on[i] = PETSC_FALSE;
    PetscCall(PetscStrlcat(known, i ? ", " : "", sizeof(known)));
    PetscCall(PetscStrlcat(known, names[i], sizeof(known)));
  }
  PetscCall(PetscStrToArray(list, ',', &nw, &words));
  for (int w = 0; w < nw; w++) {
    PetscInt  i;
    PetscBool found;
    PetscCall(PetscEListFind(n, names, words[w], &i, &found));
    PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "%s: unknown \"%s\"; use any of %s (comma separated)", opt, words[w], known);
    on[i] = PETSC_TRUE;
  }
  PetscCall(PetscStrToArrayDestroy(nw, words));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The default problem of a set-up model: kappa, u0, a terminal misfit to
   the model's default target; the problem takes over the caller's reference to the model */
PetscErrorCode BenchProblemCreate(RwModel model, BenchProblem *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->model = model;
  PetscCall(RwModelCreateParameters(model, &p->m));
  PetscCall(RwModelCreateState(model, &p->u0));
  PetscCall(RwModelCreateField(model, &p->target));
  PetscCall(RwModelGetDefaults(model, p->m, p->u0, p->target));
  PetscCall(RwObjectiveCreate(model, &p->obj));
  PetscCall(RwObjectiveAddTerminalMisfit(p->obj, p->target, 1.0));
  PetscCall(VecDuplicate(p->m, &p->g));
  PetscCall(VecDuplicate(p->u0, &p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchProblemDestroy(BenchProblem *p)
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

/* A driver from the options in opts (a built-in case: its own options database), or from the options database (opts NULL) */
PetscErrorCode BenchProblemAdjoint(BenchProblem *p, const char *opts)
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

/* The row of the step just timed (named base), again with every kernel in
   instruction set isa (the row "<base> <isa>"): what run-time dispatch, or
   auto's choice per kernel, gains against it.  The model's own choice is
   put back after */
PetscErrorCode BenchSetRow(const BenchConfig *cfg, BenchResults res, RwModel model, BenchFn fn, void *ctx, const char base[], const char set[], PetscReal N, PetscReal bytes, PetscReal copy, PetscReal tfwd, PetscBool heat)
{
  const char *isa;
  BenchTiming t;
  PetscBool   isauto;

  PetscFunctionBegin;
  PetscCall(RwModelGetKernelISA(model, &isa));
  PetscCall(RwModelGetKernelISAAuto(model, &isauto));
  PetscCall(RwModelSetKernelISA(model, set));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, fn, ctx, &t));
  PetscCall(RwModelSetKernelISA(model, isauto ? "auto" : isa)); /* as the user chose: auto's per-kernel choice, or every kernel in a named set */
  PetscCall(BenchRow(res, "%s %s", base, set));
  PetscCall(BenchText(res, "isa", set));
  PetscCall(BenchReal(res, "rate", "Mpt/s", N / t.best / 1e6));
  PetscCall(BenchReal(res, "step", "ms", 1e3 * t.best));
  PetscCall(BenchReal(res, "bytes", "B/pt", bytes));
  PetscCall(BenchReal(res, "bw", "GB/s", N * bytes / t.best / 1e9));
  PetscCall(BenchReal(res, "of_copy", "", N * bytes / t.best / 1e9 / copy));
  if (heat) { /* the kernels section's columns, so its table stays one */
    PetscCall(BenchReal(res, "halo", "B/pt", 0));
    PetscCall(BenchReal(res, "moved_of_copy", "", N * bytes / t.best / 1e9 / copy));
  }
  PetscCall(BenchReal(res, "vs_forward", "", t.best / tfwd));
  if (heat) PetscCall(BenchReal(res, "cg_its", "", (PetscReal)NAN));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(&t)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The row of the forward step just timed, again with the portable kernel, when
   the model runs another instruction set: what run-time dispatch gains (the
   row's name is the last row's with " portable") */
PetscErrorCode BenchPortableRow(const BenchConfig *cfg, BenchResults res, RwModel model, BenchFn fn, void *ctx, PetscReal N, PetscReal bytes, PetscReal copy, PetscReal tfwd, PetscBool heat)
{
  const char *isa;
  char        name[128];
  PetscBool   portable;

  PetscFunctionBegin;
  PetscCall(RwModelGetKernelISA(model, &isa));
  PetscCall(PetscStrcmp(isa, "portable", &portable));
  if (portable) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BenchLastRowName(res, name, sizeof(name)));
  PetscCall(BenchSetRow(cfg, res, model, fn, ctx, name, "portable", N, bytes, copy, tfwd, heat));
  PetscFunctionReturn(PETSC_SUCCESS);
}
