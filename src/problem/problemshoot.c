/*
  Multiple shooting (issue 34): the members are consecutive segments of one
  window, each of a fixed number of steps.  The unknown is u0 per member
  (member e's part of x is segment e's initial state), and segment e < S-1
  carries a matching term (w/2) |u_L - x_{e+1}|^2 that ties its end to the
  next segment's start: a long, chaotic window becomes S short ones whose
  gradients stay meaningful, coupled by a penalty that vanishes as the
  segments join.  The term is an ordinary objective term of the member's
  run (its adjoint seeds lambda_L); its derivative in x_{e+1},
  -w (u_L - x_{e+1}), goes into part e+1 of member e's dJ/dx, so the members'
  sum in member order stays the same bits in any number of groups.
*/
#include <rewind/private/problemimpl.h>
#include <string.h>

typedef struct {
  Vec       target, end; /* x_{e+1} on the group; the run's end u_L, kept by value() for the gradient */
  PetscReal weight;      /* w, 0 for the last segment */
} RwShootMatch;

/* Each point's term rounded on its own, then summed exactly: the same bits on any decomposition */
static PetscErrorCode MatchValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwShootMatch      *c = (RwShootMatch *)ctx;
  const PetscScalar *a, *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecCopy(u, c->end));
  if (c->weight == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->target, &d));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal r = PetscRealPart(a[i] - d[i]);

    PetscCall(RwReproSumAdd(acc, slot, 0.5 * w * c->weight * r * r));
  }
  PetscCall(VecRestoreArrayRead(c->target, &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatchAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwShootMatch      *c = (RwShootMatch *)ctx;
  const PetscScalar *a, *d;
  PetscScalar       *l;
  PetscInt           n;

  PetscFunctionBegin;
  if (c->weight == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->target, &d));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[i] += w * c->weight * (a[i] - d[i]);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(c->target, &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The weight only: the target is part of the unknown, which the journal checks itself */
static PetscErrorCode MatchChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  uint64_t w;

  PetscFunctionBegin;
  memcpy(&w, &((RwShootMatch *)ctx)->weight, sizeof(w));
  *sum = RwSplitMix64(w ^ 0x5300770044ULL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatchView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "multiple shooting's matching (w/2) |u_n - x_next|^2, w = %g (0: the last segment)\n", (double)((RwShootMatch *)ctx)->weight));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatchDestroy(void *ctx)
{
  RwShootMatch *c = (RwShootMatch *)ctx;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->target));
  PetscCall(VecDestroy(&c->end));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetShooting - the members are the S consecutive segments of a
  window (multiple shooting): each runs `steps` steps from its own part of
  the unknown u0 (RwProblemSetUnknownPerMember()), and segment e < S-1 adds
  (weight/2) |u_steps - x_{e+1}|^2, matching its end to the next segment's start

  Logically collective; before RwProblemSetUp()

  Input Parameters:
+ prob   - the problem, its unknown u0
. steps  - each segment's steps (the members' runs; the model's -rw_steps stays the window's)
- weight - the matching weight w > 0 (a penalty: the gaps shrink like 1/w)

  Notes:
  The members' observations are each segment's, at steps 1 .. steps of its
  own run.  Regularisers act on member 0's part unless told otherwise
  (RwProblemSetRegularizerMember()): 4D-Var's background term.

  Level: advanced

.seealso: RwProblemSetUnknownPerMember(), RwProblemGetShootingEnd()
@*/
PetscErrorCode RwProblemSetShooting(RwProblem prob, PetscInt64 steps, PetscReal weight)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)prob);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(!prob->setupcalled, comm, PETSC_ERR_ORDER, "Call RwProblemSetShooting() before RwProblemSetUp()");
  PetscCheck(steps >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "Multiple shooting: a segment of %" PetscInt64_FMT " steps; at least 1", steps);
  PetscCheck(weight > 0 && PetscIsNormalReal(weight), comm, PETSC_ERR_ARG_OUTOFRANGE, "Multiple shooting: the matching weight %g must be > 0 and finite", (double)weight);
  prob->shootsteps  = steps;
  prob->shootweight = weight;
  prob->permember   = PETSC_TRUE;
  if (prob->adj) PetscCall(RwAdjointSetSteps(prob->adj, steps)); /* made already (RwProblemGetModel()): its runs are a segment's */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetShootingWeight - another matching weight, for the next
  evaluations: a continuation (a few solves, each from the last one's result
  with a larger weight) closes the gaps without the ill-conditioning of a
  large weight from the start

  Logically collective

  Input Parameters:
+ prob   - the problem, with multiple shooting (RwProblemSetShooting())
- weight - the weight, > 0

  Notes:
  A journal's identity holds the first weight: give the program's whole
  schedule of weights as an identity item (RwProblemAddIdentity()).

  Level: advanced

.seealso: RwProblemSetShooting()
@*/
PetscErrorCode RwProblemSetShootingWeight(RwProblem prob, PetscReal weight)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)prob);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->shootsteps, comm, PETSC_ERR_ORDER, "The problem has no multiple shooting: RwProblemSetShooting() first");
  PetscCheck(weight > 0 && PetscIsNormalReal(weight), comm, PETSC_ERR_ARG_OUTOFRANGE, "Multiple shooting: the matching weight %g must be > 0 and finite", (double)weight);
  prob->shootweight = weight;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemShootingSetUp_Private - the group's objective gets the matching term; the unknown must be u0 */
PetscErrorCode RwProblemShootingSetUp_Private(RwProblem prob)
{
  const RwObjectiveTermOps ops   = {NULL, MatchValue, MatchAdjoint, NULL, MatchChecksum, MatchView, MatchDestroy};
  const PetscInt64         final = RW_OBJECTIVE_FINAL_STEP;
  RwShootMatch            *c;

  PetscFunctionBegin;
  if (!prob->shootsteps) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!strcmp(prob->unknown, "u0"), PetscObjectComm((PetscObject)prob), PETSC_ERR_ARG_INCOMP, "Multiple shooting: the unknown is each segment's initial state u0, not %s", prob->unknown[0] ? prob->unknown : "none");
  PetscCall(PetscNew(&c));
  PetscCall(RwModelCreateState(prob->gmodel, &c->target));
  PetscCall(VecDuplicate(c->target, &c->end));
  c->weight = prob->shootweight;
  prob->shootterm = prob->gobj->nterms;
  prob->shootctx  = c;
  PetscCall(RwObjectiveAddTerm(prob->gobj, "matching", &ops, 1, &final, NULL, c));
  for (PetscInt i = 0; i < prob->nreg; i++)
    if (prob->reg[i].member < 0) prob->reg[i].member = 0; /* the background is the first segment's */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemShootingToMember_Private - member e's matching target: x's part e+1 (the group's layout), none for the last */
PetscErrorCode RwProblemShootingToMember_Private(RwProblem prob, PetscInt e, Vec x)
{
  RwShootMatch *c = (RwShootMatch *)prob->shootctx;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  c->weight = e + 1 < prob->nmembers ? prob->shootweight : 0;
  if (c->weight > 0) PetscCall(RwProblemMovePart_Private(prob->gmodel, e + 1, x, c->target, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwProblemShootingGradient_Private - member e's matching in x_{e+1}: -w (u_L - x_{e+1}) into part e+1 of w */
PetscErrorCode RwProblemShootingGradient_Private(RwProblem prob, PetscInt e, Vec w)
{
  RwShootMatch *c = (RwShootMatch *)prob->shootctx;

  PetscFunctionBegin;
  if (!c || c->weight == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecAXPBY(c->target, -c->weight, c->weight, c->end)); /* w x_{e+1} - w u_L: the target is reset before the next solve */
  PetscCall(RwProblemMovePart_Private(prob->gmodel, e + 1, w, c->target, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
