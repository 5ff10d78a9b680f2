/* Test helpers: models and drivers configured by option strings. */
#include "rwtest.h"
#include <string.h>
#include <petscdmda.h>
#include <stdlib.h>
#include <unistd.h>

/* Inserts options under a prefix of their own, so that cases do not mix; an
   hdf5 store gets a file of its own too, unless the options name one */
static PetscErrorCode rw_test_options(MPI_Comm comm, const char *options, char prefix[], size_t len)
{
  static int  count = 0;
  char        file[PETSC_MAX_PATH_LEN];
  const char *tmp = getenv("TMPDIR");
  int         pid = (int)getpid();

  PetscFunctionBegin;
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_INT, 0, comm));
  PetscCall(PetscSNPrintf(prefix, len, "c%d_", count++));
  PetscCall(PetscSNPrintf(file, sizeof(file), "-rw_store_hdf5_file %s/rwtest-%d-%s.h5", tmp ? tmp : "/tmp", pid, prefix));
  PetscCall(PetscOptionsPrefixPush(NULL, prefix));
  PetscCall(PetscOptionsInsertString(NULL, file));
  PetscCall(PetscOptionsInsertString(NULL, options));
  PetscCall(PetscOptionsPrefixPop(NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model_create(MPI_Comm comm, const char *type, const char *options, RwModel *model)
{
  char prefix[32];

  PetscFunctionBegin;
  PetscCall(rw_test_options(comm, options, prefix, sizeof(prefix)));
  PetscCall(RwModelCreate(comm, model));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*model, prefix));
  PetscCall(RwModelSetType(*model, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model_type_comm(MPI_Comm comm, const char *type, const char *options, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(rw_test_model_create(comm, type, options, model));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model_comm(MPI_Comm comm, const char *options, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(rw_test_model_type_comm(comm, RWMODELHEAT, options, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model_type(const char *type, const char *options, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(rw_test_model_type_comm(PETSC_COMM_WORLD, type, options, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model_types(int *n, const char ***types)
{
  PetscFunctionBegin;
  PetscCall(RwModelRegisterAll());
  PetscCall(PetscFunctionListGet(RwModelList, types, n));
  /* PETSc 3.18 counts the array's closing NULL in n; count the names instead */
  for (*n = 0; (*types)[*n]; (*n)++) { }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model(const char *options, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(rw_test_model_comm(PETSC_COMM_WORLD, options, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The driver of a problem whose model, m, u0 and objective (with its terms) are made: under the model's prefix */
PetscErrorCode rw_test_problem_driver(RwTestProblem *p)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(RwAdjointCreate(p->model, p->obj, &p->adj));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)p->model, &prefix));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)p->adj, prefix));
  PetscCall(RwAdjointSetFromOptions(p->adj));
  PetscCall(RwAdjointSetUp(p->adj));
  PetscCall(VecDuplicate(p->m, &p->g));
  PetscCall(VecDuplicate(p->u0, &p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model's defaults, an objective of the caller's terms (none added here), no driver yet */
PetscErrorCode rw_test_problem_begin(RwModel model, RwTestProblem *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->model = model;
  PetscCall(RwModelCreateParameters(model, &p->m));
  PetscCall(RwModelCreateState(model, &p->u0));
  PetscCall(RwModelGetDefaults(model, p->m, p->u0, NULL));
  PetscCall(RwObjectiveCreate(model, &p->obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_problem(RwModel model, RwTestProblem *p)
{
  PetscFunctionBegin;
  PetscCall(rw_test_problem_begin(model, p));
  PetscCall(RwObjectiveAddDefaultMisfit(p->obj));
  PetscCall(rw_test_problem_driver(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Field 0 of m times 1 + amp exp(-|(i, j, k) - c M|^2 / width), in grid indices: a smooth perturbation, the same on any decomposition */
PetscErrorCode rw_test_bump(RwModel model, Vec m, PetscReal amp, PetscReal width, const PetscReal c[3])
{
  Vec          f;
  PetscScalar *a;
  PetscInt     dim, M[3], xs[3] = {0, 0, 0}, xm[3] = {1, 1, 1}, p = 0;
  DM           fda;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, m, 0, &f));
  PetscCall(VecGetDM(f, &fda));
  PetscCall(DMDAGetInfo(fda, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(fda, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(VecGetArray(f, &a));
  for (PetscInt k = xs[2]; k < xs[2] + xm[2]; k++)
    for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++)
      for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++, p++) {
        PetscReal r2 = PetscSqr(i - c[0] * M[0]) + PetscSqr(j - c[1] * M[1]) + (dim > 2 ? PetscSqr(k - c[2] * M[2]) : 0);
        a[p] *= 1 + amp * PetscExpReal(-r2 / width);
      }
  PetscCall(VecRestoreArray(f, &a));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u = scale exp(-8 ((i/M - cx)^2 + (j/N - cy)^2)) on a 2D DMDA vector of one component (t470, t650) */
PetscErrorCode rw_test_gaussian2d(Vec u, PetscReal scale, PetscReal cx, PetscReal cy)
{
  DM            da;
  PetscInt      xs, ys, xm, ym, M, N;
  PetscScalar **a;

  PetscFunctionBegin;
  PetscCall(VecGetDM(u, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, u, &a));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) a[j][i] = scale * PetscExpReal(-8 * (PetscSqr(i / (PetscReal)M - cx) + PetscSqr(j / (PetscReal)N - cy)));
  PetscCall(DMDAVecRestoreArray(da, u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_solve_same(RwTestProblem *p, RwTestReference *ref, PetscReal *J, PetscBool *same, PetscInt64 *taken, PetscInt64 *predicted)
{
  RwSchedule       sched;
  RwScheduleCounts pred;
  RwAdjointCounts  c;
  PetscBool        e1 = PETSC_TRUE, e2 = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(RwAdjointGetSchedule(p->adj, &sched));
  PetscCall(RwScheduleGetPrediction(sched, &pred));
  PetscCall(RwAdjointSolve(p->adj, p->m, p->u0, J, p->g, p->gu0));
  PetscCall(RwAdjointGetCounts(p->adj, &c));
  if (!ref->g) {
    PetscCall(VecDuplicate(p->g, &ref->g));
    PetscCall(VecDuplicate(p->gu0, &ref->gu0));
    PetscCall(VecCopy(p->g, ref->g));
    PetscCall(VecCopy(p->gu0, ref->gu0));
    ref->J = *J;
  } else {
    PetscCall(VecEqual(ref->g, p->g, &e1));
    PetscCall(VecEqual(ref->gu0, p->gu0, &e2));
  }
  *same      = (PetscBool)(*J == ref->J && e1 && e2);
  *taken     = c.forward_steps;
  *predicted = pred.forward_steps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_reference_destroy(RwTestReference *ref)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&ref->g));
  PetscCall(VecDestroy(&ref->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Clears the options database's entries under prefix: a test that builds
   many problems would otherwise fill PETSc's table (512 options) with the
   options of problems it has destroyed */
static PetscErrorCode rw_test_options_forget(const char *prefix)
{
  char  *all, *tok, *save = NULL, name[256];
  size_t len;

  PetscFunctionBegin;
  if (!prefix) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrlen(prefix, &len));
  PetscCall(PetscOptionsGetAll(NULL, &all));
  for (tok = strtok_r(all, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    if (tok[0] != '-' || strncmp(tok + 1, prefix, len)) continue; /* a value, or another problem's option */
    PetscCall(PetscStrncpy(name, tok, sizeof(name)));
    PetscCall(PetscOptionsClearValue(NULL, name));
  }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A whole problem (RwProblem) of options under prefix pre, set up */
PetscErrorCode rw_test_problem_create_prefixed(const char pre[], const char opts[], RwProblem *prob)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsPrefixPush(NULL, pre));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(PetscOptionsPrefixPop(NULL));
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, prob));
  PetscCall(RwProblemSetOptionsPrefix(*prob, pre));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_problem_prefixed(const char pre[], const char opts[], RwProblem *prob)
{
  PetscFunctionBegin;
  PetscCall(rw_test_problem_create_prefixed(pre, opts, prob));
  PetscCall(RwProblemSetFromOptions(*prob));
  PetscCall(RwProblemSetUp(*prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_problem_destroy(RwTestProblem *p)
{
  const char *prefix = NULL;

  PetscFunctionBegin;
  if (p->model) PetscCall(PetscObjectGetOptionsPrefix((PetscObject)p->model, &prefix));
  PetscCall(rw_test_options_forget(prefix));
  PetscCall(RwAdjointDestroy(&p->adj));
  PetscCall(RwObjectiveDestroy(&p->obj));
  PetscCall(VecDestroy(&p->m));
  PetscCall(VecDestroy(&p->u0));
  PetscCall(VecDestroy(&p->g));
  PetscCall(VecDestroy(&p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
