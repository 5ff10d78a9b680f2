/* Test helpers: models and drivers configured by option strings. */
#include "rwtest.h"

/* Inserts options under a prefix of their own, so that cases do not mix */
static PetscErrorCode rw_test_options(const char *options, char prefix[], size_t len)
{
  static int count = 0;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(prefix, len, "c%d_", count++));
  PetscCall(PetscOptionsPrefixPush(NULL, prefix));
  PetscCall(PetscOptionsInsertString(NULL, options));
  PetscCall(PetscOptionsPrefixPop(NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model_comm(MPI_Comm comm, const char *options, RwModel *model)
{
  char prefix[32];

  PetscFunctionBegin;
  PetscCall(rw_test_options(options, prefix, sizeof(prefix)));
  PetscCall(RwModelCreate(comm, model));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*model, prefix));
  PetscCall(RwModelSetType(*model, RWMODELHEAT));
  PetscCall(RwModelSetFromOptions(*model));
  PetscCall(RwModelSetUp(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_model(const char *options, RwModel *model)
{
  PetscFunctionBegin;
  PetscCall(rw_test_model_comm(PETSC_COMM_WORLD, options, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_problem(RwModel model, RwTestProblem *p)
{
  const char *prefix;
  Vec         target;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->model = model;
  PetscCall(RwModelCreateParameters(model, &p->m));
  PetscCall(RwModelCreateState(model, &p->u0));
  PetscCall(RwModelCreateState(model, &target));
  PetscCall(RwModelGetDefaults(model, p->m, p->u0, target));
  PetscCall(RwObjectiveCreate(model, &p->obj));
  PetscCall(RwObjectiveAddTerminalMisfit(p->obj, target, 1.0));
  PetscCall(VecDestroy(&target));
  PetscCall(RwAdjointCreate(model, p->obj, &p->adj));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)p->adj, prefix));
  PetscCall(RwAdjointSetFromOptions(p->adj));
  PetscCall(RwAdjointSetUp(p->adj));
  PetscCall(VecDuplicate(p->m, &p->g));
  PetscCall(VecDuplicate(p->u0, &p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_problem_destroy(RwTestProblem *p)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointDestroy(&p->adj));
  PetscCall(RwObjectiveDestroy(&p->obj));
  PetscCall(VecDestroy(&p->m));
  PetscCall(VecDestroy(&p->u0));
  PetscCall(VecDestroy(&p->g));
  PetscCall(VecDestroy(&p->gu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
