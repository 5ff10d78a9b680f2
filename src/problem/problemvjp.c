/*
  A problem's run as a function y = F(m, u0): the outputs are what its
  objective observes (its sensors or receivers at their steps; without any,
  the final state), and the vector-Jacobian product ybar^T dF is the gradient
  of the linear objective <ybar, y> (RwObjectiveAddOutputs()), through the
  same schedules and stores as the problem's gradient.  This is what a caller
  that differentiates y itself needs (rewind.torch.simulate, python/).

  One member solved on all ranks: the outputs of a sum over members would be
  the members' outputs side by side, which is a larger feature than this one.

  RwProblemComputeOutputsForVJP() runs the first part of a solve
  (RwAdjointSolveForward()): its checkpoints stay, so a VJP at the same parameters and u0 (compared
  value for value with copies the forward part ran from) is the reverse
  sweep alone, the same bits as a whole solve.  A training step of
  rewind.torch.simulate (outputs, then their VJP) costs one forward sweep.
*/
#include <rewind/private/problemimpl.h>

/* The linear objective and its driver, made at the first call: the group's model, the options' schedule and stores */
static PetscErrorCode OutputsSetUp(RwProblem prob)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)prob);
  const char *prefix;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->setupcalled, comm, PETSC_ERR_ORDER, "Call RwProblemSetUp() first");
  if (prob->vadj) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(prob->nmembers == 1, comm, PETSC_ERR_SUP, "The outputs of a run are one member's: the observations have %" PetscInt_FMT " members; choose one with -rw_obs_member i", prob->nmembers);
  PetscCheck(prob->shared, comm, PETSC_ERR_SUP, "The outputs of a run are one member's, solved on all ranks: remove -rw_ensemble_groups");
  if (prob->obs) PetscCall(RwObservationsApply(prob->obs, prob->member >= 0 ? prob->member : 0, prob->gmodel, prob->gobj)); /* the member's own sensors */
  PetscCall(RwObjectiveCreate(prob->gmodel, &prob->vobj));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)prob, &prefix));
  PetscCall(RwObjectiveSetOptionsPrefix(prob->vobj, prefix));
  PetscCall(RwObjectiveGetNumTerms(prob->vobj, &prob->vfirst));
  PetscCall(RwObjectiveAddOutputs(prob->vobj, prob->gobj, &prob->vterms));
  PetscCall(RwProblemCreateAdjoint_Private(prob, prob->gmodel, prob->vobj, &prob->vadj));
  PetscCall(RwAdjointSetFileTag(prob->vadj, "vjp")); /* its stores beside the problem's driver's, not on them */
  PetscCall(VecDuplicate(prob->mm[0], &prob->vm));
  PetscCall(VecDuplicate(prob->mu0[0], &prob->vu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetOutputSize - the number of outputs y of the problem's run on this rank

  Collective at the first call (makes the outputs' objective and driver)

  Output Parameter:
. n - sensor terms: their times x points, replicated, term after term; else this rank's part of the final state's observed component

  Level: intermediate

.seealso: RwProblemComputeOutputs(), RwProblemComputeVJP(), RwObjectiveAddOutputs()
@*/
PetscErrorCode RwProblemGetOutputSize(RwProblem prob, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(OutputsSetUp(prob));
  *n = 0;
  for (PetscInt i = 0; i < prob->vterms; i++) {
    PetscInt ni;

    PetscCall(RwObjectiveGetLinearSize(prob->vobj, prob->vfirst + i, &ni));
    *n += ni;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The terms' cotangents from ybar, or their outputs into y */
static PetscErrorCode OutputsMove(RwProblem prob, const PetscReal ybar[], PetscReal y[])
{
  PetscInt off = 0, ni;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < prob->vterms; i++) {
    PetscCall(RwObjectiveGetLinearSize(prob->vobj, prob->vfirst + i, &ni));
    if (y) PetscCall(RwObjectiveGetLinearOutputs(prob->vobj, prob->vfirst + i, y + off));
    else PetscCall(RwObjectiveSetLinearWeights(prob->vobj, prob->vfirst + i, ybar + off));
    off += ni;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The forward part of the outputs' solve from copies of the member's parameters and u0 */
static PetscErrorCode OutputsForward(RwProblem prob)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(prob->mm[0], prob->vm));
  PetscCall(VecCopy(prob->mu0[0], prob->vu0));
  PetscCall(RwAdjointSolveForward(prob->vadj, prob->vm, prob->vu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the last forward part ran from the member's parameters and u0 as they are, and can be continued */
static PetscErrorCode OutputsReusable(RwProblem prob, PetscBool *reuse)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(RwAdjointSolveIsPending(prob->vadj, reuse));
  if (!*reuse) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecEqual(prob->mm[0], prob->vm, &same)); /* bit for bit, on every rank */
  if (same) PetscCall(VecEqual(prob->mu0[0], prob->vu0, &same));
  *reuse = same;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemComputeOutputs - the outputs y = F(m, u0) of one forward run at the
  member's parameters (RwProblemGetParameters(): the base, with one group);
  nothing is stored

  Collective

  Output Parameter:
. y - RwProblemGetOutputSize() values on this rank

  Level: intermediate

.seealso: RwProblemComputeOutputsForVJP(), RwProblemComputeVJP()
@*/
PetscErrorCode RwProblemComputeOutputs(RwProblem prob, PetscReal y[])
{
  PetscFunctionBegin;
  PetscCall(OutputsSetUp(prob));
  PetscCall(RwAdjointForward(prob->vadj, prob->mm[0], prob->mu0[0], NULL, NULL));
  PetscCall(OutputsMove(prob, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemComputeOutputsForVJP - the outputs y, as RwProblemComputeOutputs(),
  from the first part of a solve (RwAdjointSolveForward()): the run's
  checkpoints stay for a RwProblemComputeVJP() at the same values, which is
  then the reverse sweep alone

  Collective

  Output Parameter:
. y - RwProblemGetOutputSize() values on this rank

  Level: intermediate

.seealso: RwProblemComputeVJP(), RwProblemComputeOutputs()
@*/
PetscErrorCode RwProblemComputeOutputsForVJP(RwProblem prob, PetscReal y[])
{
  PetscFunctionBegin;
  PetscCall(OutputsSetUp(prob));
  PetscCall(OutputsForward(prob));
  PetscCall(OutputsMove(prob, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemComputeVJP - the vector-Jacobian product of the run's outputs:
  the gradient of <ybar, y> with respect to every parameter and u0, through
  the problem's schedule and stores; also gives y.  After
  RwProblemComputeOutputsForVJP() at the same parameters and u0 (bit for bit) it
  continues that run with its reverse sweep, without a second forward sweep

  Collective

  Input Parameter:
. ybar - the cotangent, RwProblemGetOutputSize() values on this rank (sensor outputs: the same on every rank)

  Output Parameters:
+ y   - the outputs of this run (may be NULL)
. g   - ybar^T dy/dm: a parameter vector of the problem's model (RwModelCreateParameters())
- gu0 - ybar^T dy/du0: a state of the problem's model

  Level: intermediate

.seealso: RwProblemComputeOutputs(), RwObjectiveAddOutputs(), RwProblemComputeGradient()
@*/
PetscErrorCode RwProblemComputeVJP(RwProblem prob, const PetscReal ybar[], PetscReal y[], Vec g, Vec gu0)
{
  PetscBool reuse;

  PetscFunctionBegin;
  PetscCall(OutputsSetUp(prob));
  PetscCall(OutputsReusable(prob, &reuse));
  PetscCall(OutputsMove(prob, ybar, NULL)); /* read by the reverse sweep only */
  if (!reuse) PetscCall(OutputsForward(prob));
  PetscCall(RwAdjointSolveReverse(prob->vadj, NULL, g, gu0));
  if (y) PetscCall(OutputsMove(prob, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
