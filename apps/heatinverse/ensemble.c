/*
  The experiments of one evaluation, on an RwEnsemble (doc/ensemble.md).

  With one group (the default) the experiments are solved one after another
  on all ranks by the objects the rest of the app uses, exactly as before.
  With -rw_ensemble_groups g > 1 the ranks split into g groups; each has its
  own model, objective and driver on its communicator and solves experiments
  e with e % g == its group, g at a time (a round).  Each result is brought
  to all ranks (RwEnsembleGatherMember), journalled, and added in experiment
  order, so J and the gradient are the same bits as with one group when the
  scheme is explicit; an implicit scheme agrees to the linear solver's
  tolerance only (its solves depend on the decomposition).
*/
#include "inverse.h"

/* Experiment e's J_e and gradient contribution w, solved on the group's objects at x */
static PetscErrorCode SolveExperiment(Inverse *inv, Vec x, PetscInt e, PetscReal *Je, Vec w)
{
  InvGroup      *s  = &inv->grp;
  InvExperiment *ex = &inv->exp[e];
  PetscInt       f  = inv->target == INV_KAPPA ? 0 : 1;
  Vec            field, grad;

  PetscFunctionBegin;
  if (inv->target == INV_U0) PetscCall(VecCopy(x, s->u0[e]));
  else {
    PetscCall(RwModelGetParameterField(s->model, s->m[e], f, &field));
    PetscCall(VecCopy(x, field));
    PetscCall(RwModelRestoreParameterField(s->model, s->m[e], f, &field));
  }
  PetscCall(RwObjectiveSetSensorData(s->obj, 0, ex->data, ex->sigma));
  PetscCall(RwAdjointSolve(s->adj, s->m[e], s->u0[e], Je, s->g, s->gu0));
  if (inv->target == INV_U0) PetscCall(VecCopy(s->gu0, w));
  else {
    PetscCall(RwModelGetParameterField(s->model, s->g, f, &grad));
    PetscCall(VecCopy(grad, w));
    PetscCall(RwModelRestoreParameterField(s->model, s->g, f, &grad));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Experiment e's parameters and initial state, copied from the parent's into the group's (collective on all ranks) */
static PetscErrorCode CopyExperiment(Inverse *inv, PetscInt e, PetscBool mine)
{
  InvGroup  *s = &inv->grp;
  PetscInt   nf, ns;
  Vec        pf, gf;
  PetscReal *v;

  PetscFunctionBegin;
  if (mine) {
    PetscCall(RwModelCreateParameters(s->model, &s->m[e]));
    PetscCall(RwModelCreateState(s->model, &s->u0[e]));
  }
  PetscCall(RwEnsembleScatterToGroups(s->ens, inv->exp[e].u0, s->x));
  if (mine) PetscCall(VecCopy(s->x, s->u0[e]));
  PetscCall(RwModelGetParameterInfo(inv->model, &nf, NULL, NULL));
  PetscCall(RwModelGetNumParameterScalars(inv->model, &ns));
  for (PetscInt f = 0; f < nf; f++) {
    PetscCall(RwModelGetParameterField(inv->model, inv->exp[e].m, f, &pf));
    PetscCall(RwEnsembleScatterToGroups(s->ens, pf, s->x));
    PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[e].m, f, &pf));
    if (!mine) continue;
    PetscCall(RwModelGetParameterField(s->model, s->m[e], f, &gf));
    PetscCall(VecCopy(s->x, gf));
    PetscCall(RwModelRestoreParameterField(s->model, s->m[e], f, &gf));
  }
  PetscCall(PetscMalloc1(ns + 1, &v));
  PetscCall(RwModelGetParameterScalars(inv->model, inv->exp[e].m, v)); /* collective on all ranks: one broadcast */
  if (mine) PetscCall(RwModelSetParameterScalars(s->model, s->m[e], v));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The group's own model, objective and driver on its communicator, with checkpoint files of its own */
static PetscErrorCode CreateGroupSolver(Inverse *inv, MPI_Comm sub, PetscInt group)
{
  InvGroup  *s = &inv->grp;
  PetscReal *zero;

  PetscFunctionBegin;
  /* this process's options only: group k's driver writes the files of member k, its first */
  PetscCall(RwEnsembleSetMemberFileOptions(s->ens, group, NULL));
  PetscCall(RwModelCreate(sub, &s->model));
  PetscCall(RwModelSetType(s->model, RWMODELHEAT));
  PetscCall(InvModelDefaults(&inv->defaults, s->model));
  PetscCall(RwModelSetFromOptions(s->model));
  PetscCall(RwModelSetUp(s->model));
  PetscCall(RwObjectiveCreate(s->model, &s->obj));
  PetscCall(PetscCalloc1(inv->nobs, &zero));
  PetscCall(RwObjectiveAddSensors(s->obj, inv->nsensors, inv->coords, inv->ntimes, inv->steps, zero, 1.0));
  PetscCall(PetscFree(zero));
  PetscCall(RwAdjointCreate(s->model, s->obj, &s->adj));
  PetscCall(RwAdjointSetFromOptions(s->adj));
  PetscCall(InvSetActive(inv, s->model));
  PetscCall(RwAdjointSetUp(s->adj));
  PetscCall(RwModelCreateState(s->model, &s->x));
  PetscCall(VecDuplicate(s->x, &s->w));
  PetscCall(VecDuplicate(s->x, &s->gu0));
  PetscCall(RwModelCreateParameters(s->model, &s->g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvGroupSetUp - the ensemble of the experiments (-rw_ensemble_groups); with
  more than one group, each group's solver and its experiments' data
*/
PetscErrorCode InvGroupSetUp(Inverse *inv)
{
  InvGroup *s = &inv->grp;
  PetscInt  group;
  MPI_Comm  sub;
  DM        subda, da;

  PetscFunctionBegin;
  PetscCall(RwEnsembleCreate(PETSC_COMM_WORLD, &s->ens));
  PetscCall(RwEnsembleSetSize(s->ens, inv->nexp));
  PetscCall(RwEnsembleSetFromOptions(s->ens));
  PetscCall(RwEnsembleSetUp(s->ens));
  PetscCall(RwEnsembleGetGroup(s->ens, &group, &s->ngroups));
  if (s->ngroups == 1) {
    /* the app's own objects: not a copy more than before */
    s->model = inv->model, s->obj = inv->obj, s->adj = inv->adj, s->g = inv->g, s->gu0 = inv->gu0;
    for (PetscInt e = 0; e < inv->nexp; e++) s->m[e] = inv->exp[e].m, s->u0[e] = inv->exp[e].u0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwEnsembleGetSubComm(s->ens, &sub));
  PetscCall(CreateGroupSolver(inv, sub, group));
  PetscCall(RwModelGetStateDM(s->model, &subda));
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(RwEnsembleSetDM(s->ens, subda, da));
  for (PetscInt e = 0; e < inv->nexp; e++) PetscCall(CopyExperiment(inv, e, (PetscBool)(e % s->ngroups == group)));
  for (PetscInt k = 0; k < s->ngroups; k++) PetscCall(VecDuplicate(inv->x, &s->W[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One group: each experiment's result goes to the journal before the next solve starts */
static PetscErrorCode EvaluateSequential(Inverse *inv, Vec x, Vec G)
{
  PetscFunctionBegin;
  for (PetscInt e = 0; e < inv->nexp; e++) {
    PetscReal Je;
    PetscBool kept;
    Vec       w;

    PetscCall(RwAppJournalLookup(inv->journal, e, &Je, &w, &kept));
    if (!kept) {
      PetscCall(SolveExperiment(inv, x, e, &Je, w));
      PetscCall(RwAppJournalRecord(inv->journal, e, Je, w));
    }
    inv->misfit += Je;
    PetscCall(VecAXPY(G, 1, w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A group's experiment e of a round (RwAppJournalRound()): solved at the group's x into its w */
static PetscErrorCode SolveRoundMember(void *ctx, PetscInt e, PetscReal *Je)
{
  Inverse *inv = (Inverse *)ctx;

  PetscFunctionBegin;
  PetscCall(SolveExperiment(inv, inv->grp.x, e, Je, inv->grp.w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvEvaluate - the experiments' misfit (into inv->misfit) and their gradient
  (added to G) at x, summed in experiment order whatever the groups
*/
PetscErrorCode InvEvaluate(Inverse *inv, Vec x, Vec G)
{
  InvGroup *s = &inv->grp;
  PetscInt  nr;

  PetscFunctionBegin;
  if (s->ngroups == 1) {
    PetscCall(EvaluateSequential(inv, x, G));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwEnsembleScatterToGroups(s->ens, x, s->x));
  PetscCall(RwEnsembleGetRounds(s->ens, &nr));
  for (PetscInt r = 0; r < nr; r++) PetscCall(RwAppJournalRound(inv->journal, s->ens, inv->nexp, r, SolveRoundMember, inv, s->w, s->W, &inv->misfit, G, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvGroupDestroy - the groups' objects, before the ensemble that owns their communicator */
PetscErrorCode InvGroupDestroy(Inverse *inv)
{
  InvGroup *s = &inv->grp;

  PetscFunctionBegin;
  if (s->ngroups > 1) {
    for (PetscInt e = 0; e < inv->nexp; e++) {
      PetscCall(VecDestroy(&s->m[e]));
      PetscCall(VecDestroy(&s->u0[e]));
    }
    for (PetscInt k = 0; k < s->ngroups; k++) PetscCall(VecDestroy(&s->W[k]));
    PetscCall(VecDestroy(&s->x));
    PetscCall(VecDestroy(&s->w));
    PetscCall(VecDestroy(&s->g));
    PetscCall(VecDestroy(&s->gu0));
    PetscCall(RwAdjointDestroy(&s->adj));
    PetscCall(RwObjectiveDestroy(&s->obj));
    PetscCall(RwModelDestroy(&s->model));
  }
  PetscCall(RwEnsembleDestroy(&s->ens));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
