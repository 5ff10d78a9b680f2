/*
  A remedy past the horizon: the ensemble-averaged windowed adjoint (Lea,
  Allen and Haine 2000; Eyink, Haine and Lea 2004).  The sensitivity of a
  long-time average <J> to a parameter is estimated by the mean, over many
  windows shorter than the horizon that start on the attractor, of each
  window's exact adjoint gradient dJ_T/dp; the windows are the members of an
  RwProblem, so they are solved on groups of ranks (-rw_ensemble_groups) and
  each is the same bits on any split.  The members' spread gives the
  standard error; what the window leaves out (the response carried by states
  older than the window) is a bias that shrinks with T while the spread
  grows like e^{lambda_1 T}: doc/chaos.md shows both against a
  finite-difference reference.
*/
#include <rewind/private/problemimpl.h>
#include <rewind/private/adjointimpl.h>

/*@
  RwHorizonWindowStarts - states on a trajectory, for the windows of an
  ensemble: the state after spinup steps from u0, then every spacing steps

  Collective

  Input Parameters:
+ model   - a set-up model
. m       - the parameters
. u0      - the initial state
. spinup  - steps to the first start (onto the attractor), >= 0
. spacing - steps between starts, >= 1
- n       - the number of starts

  Output Parameter:
. starts - n states (RwModelCreateState()), filled

  Level: intermediate

  Notes:
  Costs spinup + (n - 1) spacing forward steps of the model, whatever its
  number of steps; a non-finite state stops with the step named.

.seealso: RwHorizonEnsembleSensitivity()
@*/
PetscErrorCode RwHorizonWindowStarts(RwModel model, Vec m, Vec u0, PetscInt64 spinup, PetscInt64 spacing, PetscInt n, Vec starts[])
{
  Vec        u, w;
  PetscInt64 k = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscCheck(spinup >= 0 && spacing >= 1 && n >= 1, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Window starts: need spinup >= 0 (%" PetscInt64_FMT "), spacing >= 1 (%" PetscInt64_FMT ") and n >= 1 (%" PetscInt_FMT ")", spinup, spacing, n);
  PetscCall(RwModelSetParameters(model, m));
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &w));
  PetscCall(VecCopy(u0, u));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt64 end = spinup + i * spacing; k < end; k++) {
      PetscCall(RwModelStep(model, k, u, w));
      PetscCall(VecSwap(u, w));
    }
    PetscCall(RwModelCheckFinite(model));
    PetscCall(VecCopy(u, starts[i]));
  }
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mean of v[0..n) in order, and its standard error */
static void MeanAndError(PetscInt n, const PetscReal v[], PetscReal *mean, PetscReal *err)
{
  PetscReal s = 0, q = 0;

  for (PetscInt i = 0; i < n; i++) s += v[i];
  *mean = s / n;
  for (PetscInt i = 0; i < n; i++) q += PetscSqr(v[i] - *mean);
  *err = n > 1 ? PetscSqrtReal(q / (n - 1) / n) : PETSC_INFINITY;
}

/* This group's members: J, dJ/d(block[index]) and |dJ/du0| into J[e], d[e], x0[e] (its first rank only) */
static PetscErrorCode SolveMembers(RwProblem prob, PetscInt b, PetscInt index, PetscReal J[], PetscReal d[], PetscReal x0[], PetscInt64 *steps)
{
  RwEnsemble      ens;
  RwModel         model;
  RwAdjoint       adj;
  RwAdjointCounts c;
  PetscInt        nr, size;
  PetscMPIInt     rank;
  PetscReal      *vals, nrm;
  Vec             g, gu0;

  PetscFunctionBegin;
  PetscCall(RwProblemGetEnsemble(prob, &ens));
  PetscCall(RwProblemGetMemberSolver(prob, &model, NULL, &adj));
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, &size, NULL, NULL));
  PetscCall(PetscMalloc1(size, &vals));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)adj), &rank));
  PetscCall(RwEnsembleGetRounds(ens, &nr));
  for (PetscInt r = 0; r < nr; r++) {
    PetscInt  e;
    PetscReal Je;

    PetscCall(RwEnsembleGetRoundMember(ens, r, &e));
    if (e < 0) continue;
    PetscCall(RwProblemSolveMember(prob, e, &Je, &g, &gu0));
    PetscCall(RwModelGetParameterBlock(model, g, b, vals));
    PetscCall(RwVecNormRepro(gu0, &nrm));
    PetscCall(RwAdjointGetCounts(adj, &c));
    if (!rank) {
      J[e] = Je;
      d[e] = vals[index];
      x0[e] = nrm;
      *steps += c.forward_steps + c.reverse_steps;
    }
  }
  PetscCall(PetscFree(vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwHorizonEnsembleSensitivity - the ensemble-averaged windowed adjoint: the
  mean over the problem's members (windows) of each one's J, dJ/dp for one
  global scalar p and |dJ/du0|, with standard errors

  Collective

  Input Parameters:
+ prob  - a set-up problem whose members are the windows (their initial states
          known values "u0", e.g. from RwHorizonWindowStarts()) and whose
          objective is the windowed quantity (a time average)
. block - the name of the parameter block holding p (e.g. "F")
- index - p's index in the block

  Output Parameter:
. est - the mean and standard error of dJ/dp, of J and of |dJ/du0|, the
        members, and the model steps taken (forward and reverse, all members)

  Level: intermediate

  Notes:
  The members are solved by their groups (-rw_ensemble_groups) and the means
  taken in member order, so the estimate is the same bits on any split when
  each member's solve is (explicit models). The error is the spread of the
  members over sqrt(members): it counts no bias of the window (doc/chaos.md).

.seealso: RwHorizonWindowStarts(), RwProblemSolveMember(), RwHorizonLyapunov()
@*/
PetscErrorCode RwHorizonEnsembleSensitivity(RwProblem prob, const char block[], PetscInt index, RwEstimate *est)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)prob);
  RwModel    model;
  PetscInt   n, b, size;
  PetscReal *J, *d, *x0;
  PetscInt64 steps = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(RwProblemGetModel(prob, &model));
  PetscCall(RwModelFindParameterBlock(model, block, &b));
  if (b < 0) {
    char        list[256] = "";
    const char *name;
    PetscInt    nb = model->nblocks;

    for (PetscInt i = 0; i < nb; i++) {
      PetscCall(RwModelGetParameterBlockInfo(model, i, &name, NULL, NULL, NULL));
      PetscCall(PetscStrlcat(list, i ? ", " : "", sizeof(list)));
      PetscCall(PetscStrlcat(list, name, sizeof(list)));
    }
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "The ensemble sensitivity's parameter %s is not a block of global scalars of the model; its blocks: %s", block, nb ? list : "none");
  }
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, &size, NULL, NULL));
  PetscCheck(index >= 0 && index < size, comm, PETSC_ERR_ARG_OUTOFRANGE, "Parameter block %s has %" PetscInt_FMT " scalars: index %" PetscInt_FMT " is not one", block, size, index);
  PetscCall(RwProblemGetNumMembers(prob, &n));
  PetscCheck(n >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "An ensemble estimate needs at least 2 members (windows), not %" PetscInt_FMT, n);
  PetscCall(PetscCalloc3(n, &J, n, &d, n, &x0));
  PetscCall(SolveMembers(prob, b, index, J, d, x0, &steps));
  /* each member's values are set on one rank, zero elsewhere: the sums copy them */
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, J, (PetscMPIInt)n, MPIU_REAL, MPIU_SUM, comm));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, d, (PetscMPIInt)n, MPIU_REAL, MPIU_SUM, comm));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, x0, (PetscMPIInt)n, MPIU_REAL, MPIU_SUM, comm));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &steps, 1, MPIU_INT64, MPI_SUM, comm));
  MeanAndError(n, d, &est->value, &est->error);
  MeanAndError(n, J, &est->J, &est->Jerror);
  MeanAndError(n, x0, &est->x0norm, &est->x0error);
  est->members = n;
  est->steps   = steps;
  PetscCall(PetscFree3(J, d, x0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
