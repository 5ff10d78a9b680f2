/* Terminal misfit: (w/2) h^d sum_i (u_n,i - d_i)^2 of the observed component
   of the state (RwModelGetStateInfo()), and its adjoint source. */
#include <rewind/private/objectiveimpl.h>
#include <string.h>

typedef struct {
  Vec       target; /* on the field grid: one value a point */
  PetscReal weight; /* w h^d */
  PetscInt  dof, comp;
} RwTerminal;

static PetscBool TerminalActive(RwObjective obj, RwTerm *t, PetscInt64 k)
{
  return k == obj->model->n ? PETSC_TRUE : PETSC_FALSE;
}

/* Every point's term is rounded on its own, then summed exactly: no dependence on the decomposition */
static PetscErrorCode TerminalValue(RwObjective obj, RwTerm *t, PetscInt64 k, Vec u, RwReproSum acc, PetscInt slot)
{
  RwTerminal        *c = (RwTerminal *)t->ctx;
  const PetscScalar *a, *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(c->target, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->target, &d));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = PetscRealPart(a[i * c->dof + c->comp] - d[i]);
    PetscCall(RwReproSumAdd(acc, slot, 0.5 * c->weight * r * r));
  }
  PetscCall(VecRestoreArrayRead(c->target, &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TerminalAdjoint(RwObjective obj, RwTerm *t, PetscInt64 k, Vec u, Vec lambda)
{
  RwTerminal        *c = (RwTerminal *)t->ctx;
  const PetscScalar *a, *d;
  PetscScalar       *l;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(c->target, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->target, &d));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[i * c->dof + c->comp] += c->weight * (a[i * c->dof + c->comp] - d[i]);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(c->target, &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The target in natural order, and the weight */
static PetscErrorCode TerminalChecksum(RwObjective obj, RwTerm *t, uint64_t *sum)
{
  RwTerminal *c = (RwTerminal *)t->ctx;
  uint64_t    w;

  PetscFunctionBegin;
  PetscCall(RwVecChecksum(c->target, sum));
  memcpy(&w, &c->weight, sizeof(w));
  *sum = RwSplitMix64(*sum ^ w);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TerminalView(RwTerm *t, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "terminal misfit (w/2) h^d sum (u_n - d)^2, w h^d = %g\n", (double)((RwTerminal *)t->ctx)->weight));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TerminalDestroy(RwTerm *t)
{
  RwTerminal *c = (RwTerminal *)t->ctx;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->target));
  PetscCall(PetscFree(t->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwTermCreate_Terminal(RwObjective obj, RwTerm *t, Vec target, PetscReal weight)
{
  RwTerminal *c;
  PetscReal   vol;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  PetscCall(RwModelGetCellVolume(obj->model, &vol));
  PetscCall(RwModelGetStateInfo(obj->model, &c->dof, NULL, &c->comp));
  PetscCall(RwModelCreateField(obj->model, &c->target));
  PetscCall(VecCopy(target, c->target));
  c->weight = weight * vol;
  PetscCall(PetscStrncpy(t->name, "terminal", sizeof(t->name)));
  t->ctx     = c;
  t->active  = TerminalActive;
  t->value   = TerminalValue;
  t->adjoint = TerminalAdjoint;
  t->checksum = TerminalChecksum;
  t->view    = TerminalView;
  t->destroy = TerminalDestroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}
