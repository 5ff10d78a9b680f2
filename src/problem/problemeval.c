/*
  RwProblem's evaluation: J and its gradient summed over the members in
  member order, round by round (each group solves at most one member a
  round, RwEnsemble), each member's result from the journal or solved by its
  group, gathered to every rank and journalled as it comes; then the mask
  and the regularisers.  The same bits for any split of the ranks when the
  members' own results do not depend on the decomposition (explicit schemes).
*/
#include <rewind/private/problemimpl.h>

/* The observation member of problem member e */
static PetscInt ObsMember(RwProblem prob, PetscInt e)
{
  return prob->member >= 0 ? prob->member : e;
}

/*
  A TAO trial point whose run blows up (a line search's long first step on a
  chaotic model) is a failed function evaluation, not a failed run: J =
  +Inf, gradient 0, and TAO's line search backs off.  The driver stops its
  sweep collectively on the group (RwModelCheckFinite()), so every rank of
  the group returns the same PETSC_ERR_FP; any other error stops the run.
*/
static PetscErrorCode TrialErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (n == PETSC_ERR_FP) return n; /* a failed evaluation: returned quietly, J = +Inf below */
  return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx); /* any other error keeps its message */
}

static PetscErrorCode SolveTrial(RwProblem prob, PetscInt e, PetscReal *Je)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(TrialErrorHandler, NULL));
  ierr = RwAdjointSolve(prob->gadj, prob->mm[e], prob->mu0[e], Je, prob->gg, prob->ggu0);
  PetscCall(PetscPopErrorHandler());
  if (ierr != PETSC_ERR_FP) PetscCall(ierr);
  if (ierr == PETSC_SUCCESS) PetscFunctionReturn(PETSC_SUCCESS);
  *Je = PETSC_INFINITY;
  PetscCall(VecSet(prob->gg, 0));
  PetscCall(VecSet(prob->ggu0, 0));
  PetscCall(RwModelResetStepCounts(prob->gmodel)); /* forgets the non-finite state: the next trial point starts clean */
  PetscCall(PetscInfo(prob, "Member %" PetscInt_FMT ": the run from this trial point is not finite; J = +Inf for TAO\n", e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Member e's solve on its group: its data, x (if any) into its parameters, the adjoint */
static PetscErrorCode SolveMember(RwProblem prob, PetscInt e, Vec x, PetscReal *Je)
{
  RwAdjointCounts c;
  PetscMPIInt     rank;

  PetscFunctionBegin;
  if (prob->obs) PetscCall(RwObservationsApply(prob->obs, ObsMember(prob, e), prob->gmodel, prob->gobj));
  if (prob->fieldterm >= 0) PetscCall(RwObjectiveSetFieldObservationData(prob->gobj, prob->fieldterm, prob->states[e], 1.0));
  if (x) PetscCall(RwProblemToParameters_Private(prob, e, x, prob->mm[e], prob->mu0[e]));
  if (x && prob->tao) PetscCall(SolveTrial(prob, e, Je));
  else PetscCall(RwAdjointSolve(prob->gadj, prob->mm[e], prob->mu0[e], Je, prob->gg, prob->ggu0));
  PetscCall(RwAdjointGetCounts(prob->gadj, &c));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)prob->gadj), &rank));
  if (!rank) { /* one count a member, whatever the group's size */
    prob->solves++;
    prob->fsteps += c.forward_steps;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Member k's result (J, and w on the group) to every rank, into W on the parent */
static PetscErrorCode Gather(RwProblem prob, PetscInt k, PetscReal Jm, Vec w, PetscReal *J, Vec W)
{
  PetscFunctionBegin;
  if (prob->shared) {
    *J = Jm;
    PetscCall(VecCopy(w, W));
  } else PetscCall(RwEnsembleGatherMember(prob->ens, k, Jm, w, J, W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Round r of an evaluation at x (xg: the group's copy): the journal's records
  of the round's members first (a damaged one is solved again, so the kept
  ones need not be a prefix), then each group solves its member unless kept,
  then every member's result comes to all ranks, is journalled, and added to
  *J and G in member order: the bits of RwEnsembleSumAdd(), whatever the
  groups and whatever was kept
*/
static PetscErrorCode EvaluateRound(RwProblem prob, PetscInt r, PetscReal *J, Vec G)
{
  PetscInt   ng = prob->ngroups, first = r * ng, m = PetscMin(ng, prob->nmembers - first), mine;
  PetscReal *Je, Jm = 0;
  PetscBool *kept;
  Vec        w;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(m, &Je, m, &kept));
  for (PetscInt k = 0; k < m; k++) {
    PetscCall(RwJournalLookup(prob->journal, first + k, PETSC_FALSE, &Je[k], &w, &kept[k]));
    if (kept[k]) PetscCall(VecCopy(w, prob->W[k]));
    prob->replayed += kept[k];
  }
  PetscCall(RwEnsembleGetRoundMember(prob->ens, r, &mine));
  if (mine >= 0 && !kept[mine - first]) {
    PetscCall(SolveMember(prob, mine, prob->xg, &Jm));
    PetscCall(RwProblemMemberGradient_Private(prob, mine, prob->xg, prob->gg, prob->ggu0, prob->wg));
  }
  for (PetscInt k = 0; k < m; k++) {
    if (!kept[k]) {
      PetscCall(Gather(prob, first + k, Jm, prob->wg, &Je[k], prob->W[k]));
      PetscCall(RwJournalRecord(prob->journal, first + k, Je[k], prob->W[k]));
    }
    *J += Je[k];
    PetscCall(VecAXPY(G, 1, prob->W[k]));
  }
  PetscCall(PetscFree2(Je, kept));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The members' sum at x: from the journal's record of it, or round by round; then the record of the sum stands for the members' */
static PetscErrorCode SumMembers(RwProblem prob, Vec x, PetscReal *J, Vec G)
{
  PetscInt  nr;
  PetscBool kept;
  Vec       w;

  PetscFunctionBegin;
  *J = 0;
  PetscCall(RwJournalLookup(prob->journal, prob->nmembers, PETSC_TRUE, J, &w, &kept));
  if (kept) {
    PetscCall(VecCopy(w, G));
    prob->replayed += prob->nmembers;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecSet(G, 0));
  if (prob->shared) PetscCall(VecCopy(x, prob->xg));
  else { /* through a vector of x's DM: TAO's trial points need not carry it */
    PetscCall(VecCopy(x, prob->gx));
    PetscCall(RwEnsembleScatterToGroups(prob->ens, prob->gx, prob->xg));
  }
  PetscCall(RwEnsembleGetRounds(prob->ens, &nr));
  for (PetscInt r = 0; r < nr; r++) PetscCall(EvaluateRound(prob, r, J, G));
  PetscCall(RwJournalRecord(prob->journal, prob->nmembers, *J, G));
  PetscCall(RwJournalForget(prob->journal, prob->nmembers));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base parameters: every field in natural order, the scalars, u0: the same on any number of ranks */
static PetscErrorCode BaseChecksum(RwProblem prob, uint64_t *h)
{
  PetscInt   nf, ns;
  PetscReal *v;
  uint64_t   s;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterInfo(prob->model, &nf, NULL, NULL));
  PetscCall(RwModelGetNumParameterScalars(prob->model, &ns));
  *h = RwSplitMix64((uint64_t)nf);
  for (PetscInt f = 0; f < nf; f++) {
    Vec field;

    PetscCall(RwModelGetParameterField(prob->model, prob->m, f, &field));
    PetscCall(RwVecChecksum(field, &s));
    PetscCall(RwModelRestoreParameterField(prob->model, prob->m, f, &field));
    *h = RwSplitMix64(*h ^ s);
  }
  PetscCall(PetscMalloc1(ns + 1, &v));
  PetscCall(RwModelGetParameterScalars(prob->model, prob->m, v)); /* one broadcast */
  *h = RwHashBytes(*h, v, sizeof(PetscReal) * (size_t)ns);
  PetscCall(PetscFree(v));
  PetscCall(RwVecChecksum(prob->u0, &s));
  *h = RwSplitMix64(*h ^ s);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The identity items of the problem (the journal's): the driver's, the data's, the unknown's, the optimiser's, the caller's */
PetscErrorCode RwProblemDescribe_Private(RwProblem prob, char id[], size_t len)
{
  uint64_t h;
  size_t   n;
  char     regs[256] = "none";

  PetscFunctionBegin;
  PetscCall(RwAdjointGetIdentity(prob->gadj, id, len));
  PetscCall(PetscStrlen(id, &n));
  PetscCall(PetscSNPrintf(id + n, len - n, "; members %" PetscInt_FMT, prob->nmembers));
  if (prob->obs) {
    PetscCall(RwObservationsGetChecksum(prob->obs, &h));
    PetscCall(PetscStrlen(id, &n));
    PetscCall(PetscSNPrintf(id + n, len - n, "; observations %016llx", (unsigned long long)h));
  }
  PetscCall(BaseChecksum(prob, &h));
  for (PetscInt i = 0; i < prob->nreg; i++) {
    PetscCall(PetscStrlen(regs, &n));
    PetscCall(PetscSNPrintf(i ? regs + n : regs, i ? sizeof(regs) - n : sizeof(regs), "%s%s(%s),alpha=%.17g,eps=%.17g", i ? "+" : "", RwRegTypes[prob->reg[i].type], prob->reg[i].name[0] ? prob->reg[i].name : prob->unknown, (double)prob->reg[i].alpha, (double)prob->reg[i].eps));
  }
  PetscCall(PetscStrlen(id, &n));
  PetscCall(PetscSNPrintf(id + n, len - n, "; parameters %016llx; unknown %s%s; regularisers %s", (unsigned long long)h, prob->unknown, prob->permember ? " per member" : "", regs));
  if (prob->shootsteps) {
    PetscCall(PetscStrlen(id, &n));
    PetscCall(PetscSNPrintf(id + n, len - n, "; shooting segments of %" PetscInt64_FMT " steps, matching weight %.17g", prob->shootsteps, (double)prob->shootweight));
  }
  for (PetscInt i = 0; i < prob->nreg; i++) { /* one member's regulariser (an unknown per member): named, else the line stays today's */
    if (prob->reg[i].member < 0) continue;
    PetscCall(PetscStrlen(id, &n));
    PetscCall(PetscSNPrintf(id + n, len - n, "; regulariser %" PetscInt_FMT " of member %" PetscInt_FMT, i, prob->reg[i].member));
  }
  if (prob->mask) {
    PetscCall(RwJournalChecksum(prob->journal, prob->mask, &h));
    PetscCall(PetscStrlen(id, &n));
    PetscCall(PetscSNPrintf(id + n, len - n, "; mask %016llx", (unsigned long long)h));
  }
  PetscCall(PetscStrlen(id, &n));
  PetscCall(PetscSNPrintf(id + n, len - n, "%s", prob->identity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The optimiser that asks, as the journal describes it: its type and bounds (their extremes, to read, and a checksum) */
static PetscErrorCode DescribeTao(RwProblem prob, char id[], size_t len)
{
  TaoType   type;
  Vec       lb, ub;
  uint64_t  h = 0, s = 0;
  PetscReal lo = PETSC_NINFINITY, hi = PETSC_INFINITY;
  size_t    n;

  PetscFunctionBegin;
  if (!prob->tao) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TaoGetType(prob->tao, &type));
  PetscCall(TaoGetVariableBounds(prob->tao, &lb, &ub));
  if (lb) PetscCall(RwJournalChecksum(prob->journal, lb, &h));
  if (ub) PetscCall(RwJournalChecksum(prob->journal, ub, &s));
  if (lb) PetscCall(VecMin(lb, NULL, &lo));
  if (ub) PetscCall(VecMax(ub, NULL, &hi));
  PetscCall(PetscStrlen(id, &n));
  PetscCall(PetscSNPrintf(id + n, len - n, "; tao_type %s; bounds [%.17g,%.17g]/%016llx", type ? type : "default", (double)lo, (double)hi, (unsigned long long)RwSplitMix64(h ^ RwSplitMix64(s))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The journal opens at the first evaluation, when the problem and its start are known */
static PetscErrorCode OpenJournal(RwProblem prob, Vec x)
{
  char     id[RW_PROBLEM_IDLEN];
  uint64_t h;
  size_t   n;

  PetscFunctionBegin;
  if (!RwJournalEnabled(prob->journal) || prob->evaluations) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwProblemDescribe_Private(prob, id, sizeof(id)));
  PetscCall(DescribeTao(prob, id, sizeof(id)));
  PetscCall(RwJournalChecksum(prob->journal, x, &h));
  PetscCall(PetscStrlen(id, &n));
  PetscCall(PetscSNPrintf(id + n, sizeof(id) - n, "; start %016llx", (unsigned long long)h));
  PetscCall(RwJournalOpen(prob->journal, id));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first evaluation's J and gradient, kept for the outputs */
static PetscErrorCode KeepFirst(RwProblem prob, PetscReal J, Vec G)
{
  PetscFunctionBegin;
  if (prob->G0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDuplicate(G, &prob->G0));
  PetscCall(VecCopy(G, prob->G0));
  prob->J0 = J;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemEvaluate - J(x) and its gradient with respect to the unknown: the
  members' sum in member order, masked, plus the regularisers

  Collective

  Input Parameters:
+ prob - the problem, set up, with an unknown
- x    - the unknown (RwProblemCreateUnknownVector())

  Output Parameters:
+ J - the value, the same on every rank
- G - the gradient, of x's layout

  Notes:
  With a journal (-rw_journal, RwProblemSetJournal()) each member's result is
  kept as it comes, and a run resumed with -rw_restart takes it from there
  while it retraces the interrupted run.

  Level: beginner

.seealso: RwProblemTaoObjectiveAndGradient(), RwProblemComputeGradient(), RwProblemGetTerms()
@*/
PetscErrorCode RwProblemEvaluate(RwProblem prob, Vec x, PetscReal *J, Vec G)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->setupcalled, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "Call RwProblemSetUp() first");
  PetscCheck(prob->ukind != RW_UNKNOWN_NONE, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "The problem has no unknown (RwProblemSetUnknown()): RwProblemComputeGradient() gives every parameter's gradient");
  PetscCall(PetscLogEventBegin(RW_ProblemEvaluate, prob, 0, 0, 0));
  PetscCall(OpenJournal(prob, x));
  PetscCall(RwJournalBeginEvaluation(prob->journal, x, prob->salt));
  PetscCall(SumMembers(prob, x, &prob->terms_[0], G));
  if (prob->mask) PetscCall(VecPointwiseMult(G, G, prob->mask));
  *J = prob->terms_[0];
  PetscCall(RwProblemRegularize_Private(prob, x, J, G, NULL));
  PetscCall(KeepFirst(prob, *J, G));
  prob->evaluations++;
  PetscCall(RwJournalEndEvaluation(prob->journal));
  PetscCall(PetscLogEventEnd(RW_ProblemEvaluate, prob, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A member's gradient of every parameter and of u0, gathered part by part (fields, the scalars, u0) and added */
static PetscErrorCode GatherAll(RwProblem prob, PetscInt k, PetscReal Jm, PetscReal *J, Vec g, Vec gu0, Vec work, Vec worku0)
{
  PetscInt nparts;
  Vec      sub[RW_MODEL_MAX_BLOCKS + 16], par[RW_MODEL_MAX_BLOCKS + 16];

  PetscFunctionBegin;
  PetscCall(DMCompositeGetNumberDM(prob->model->pack, &nparts));
  PetscCall(RwEnsembleGatherMember(prob->ens, k, Jm, prob->ggu0, J, worku0));
  PetscCall(VecAXPY(gu0, 1, worku0));
  PetscCall(DMCompositeGetAccessArray(prob->gmodel->pack, prob->gg, nparts, NULL, sub));
  PetscCall(DMCompositeGetAccessArray(prob->model->pack, work, nparts, NULL, par));
  for (PetscInt i = 0; i < nparts; i++) PetscCall(RwEnsembleGatherMember(prob->ens, k, Jm, sub[i], NULL, par[i]));
  PetscCall(DMCompositeRestoreAccessArray(prob->model->pack, work, nparts, NULL, par));
  PetscCall(DMCompositeRestoreAccessArray(prob->gmodel->pack, prob->gg, nparts, NULL, sub));
  PetscCall(VecAXPY(g, 1, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pairs of grids a member's whole gradient moves by: the fields', the scalars' (the packs' entries) and the state's */
static PetscErrorCode SetAllDM(RwProblem prob)
{
  PetscInt nparts;
  DM       sub[RW_MODEL_MAX_BLOCKS + 16], par[RW_MODEL_MAX_BLOCKS + 16];

  PetscFunctionBegin;
  PetscCall(DMCompositeGetNumberDM(prob->model->pack, &nparts));
  PetscCall(DMCompositeGetEntriesArray(prob->gmodel->pack, sub));
  PetscCall(DMCompositeGetEntriesArray(prob->model->pack, par));
  for (PetscInt i = 0; i < nparts; i++) PetscCall(RwEnsembleSetDM(prob->ens, sub[i], par[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemComputeGradient - J at the base parameters and its gradient with
  respect to every parameter and the initial state, summed over the members
  in member order, plus the regularisers of named parameters

  Collective

  Input Parameter:
. prob - the problem, set up

  Output Parameters:
+ J   - the value, the same on every rank
. g   - dJ/dm: a parameter vector of the parent's model (RwModelCreateParameters())
- gu0 - dJ/du0: a state of the parent's model

  Notes:
  What rewind-gradient reports.  A member's own known values (a source, an
  initial state) are the member's: the gradient with respect to them is the
  sum over members of each member's.

  Level: beginner

.seealso: RwProblemEvaluate()
@*/
PetscErrorCode RwProblemComputeGradient(RwProblem prob, PetscReal *J, Vec g, Vec gu0)
{
  PetscInt nr;
  Vec      work, worku0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->setupcalled, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "Call RwProblemSetUp() first");
  PetscCall(PetscLogEventBegin(RW_ProblemEvaluate, prob, 0, 0, 0));
  PetscCall(VecSet(g, 0));
  PetscCall(VecSet(gu0, 0));
  prob->terms_[0] = 0;
  if (!prob->shared) PetscCall(SetAllDM(prob));
  PetscCall(VecDuplicate(g, &work));
  PetscCall(VecDuplicate(gu0, &worku0));
  PetscCall(RwEnsembleGetRounds(prob->ens, &nr));
  for (PetscInt r = 0; r < nr; r++) {
    PetscInt  mine, first = r * prob->ngroups, m = PetscMin(prob->ngroups, prob->nmembers - first);
    PetscReal Jm = 0, Je;

    PetscCall(RwEnsembleGetRoundMember(prob->ens, r, &mine));
    if (mine >= 0) PetscCall(SolveMember(prob, mine, NULL, &Jm));
    for (PetscInt k = 0; k < m; k++) {
      if (prob->shared) {
        Je = Jm;
        PetscCall(VecAXPY(g, 1, prob->gg));
        PetscCall(VecAXPY(gu0, 1, prob->ggu0));
      } else PetscCall(GatherAll(prob, first + k, Jm, &Je, g, gu0, work, worku0));
      prob->terms_[0] += Je;
    }
  }
  PetscCall(VecDestroy(&work));
  PetscCall(VecDestroy(&worku0));
  *J = prob->terms_[0];
  PetscCall(RwProblemRegularize_Private(prob, NULL, J, g, gu0));
  prob->evaluations++;
  PetscCall(PetscLogEventEnd(RW_ProblemEvaluate, prob, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemGetTerms - the terms of the last evaluation: the members' misfit, then each regulariser

  Not collective

  Output Parameters:
+ n      - how many (1 + regularisers)
. names  - "misfit", "regularizer" (or "regularizer_<i>" with several)
- values - their values

  Level: intermediate
@*/
PetscErrorCode RwProblemGetTerms(RwProblem prob, PetscInt *n, const char *const *names[], const PetscReal *values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscStrncpy(prob->termnames[0], "misfit", sizeof(prob->termnames[0])));
  for (PetscInt i = 0; i < prob->nreg; i++) {
    if (prob->nreg == 1) PetscCall(PetscStrncpy(prob->termnames[1], "regularizer", sizeof(prob->termnames[1])));
    else PetscCall(PetscSNPrintf(prob->termnames[1 + i], sizeof(prob->termnames[1 + i]), "regularizer_%" PetscInt_FMT, i));
  }
  for (PetscInt i = 0; i <= prob->nreg; i++) prob->termptr[i] = prob->termnames[i];
  if (n) *n = 1 + prob->nreg;
  if (names) *names = prob->termptr;
  if (values) *values = prob->terms_;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetFirstEvaluation - J and the gradient of the optimisation's
  first evaluation (the gradient's picture at the start): the first of the
  first RwProblemSolve(), or before any solve the first evaluation

  Not collective

  Output Parameters:
+ J - its value
- G - its gradient, owned by the problem (NULL before any evaluation)

  Level: intermediate
@*/
PetscErrorCode RwProblemGetFirstEvaluation(RwProblem prob, PetscReal *J, Vec *G)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  if (J) *J = prob->J0;
  if (G) *G = prob->G0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwProblemTaoObjectiveAndGradient - the routine to give TaoSetObjectiveAndGradient(), with the problem as its context

  Collective

  Level: beginner

.seealso: RwProblemSolve(), RwProblemEvaluate()
@*/
PetscErrorCode RwProblemTaoObjectiveAndGradient(Tao tao, Vec x, PetscReal *J, Vec G, void *ctx)
{
  RwProblem prob = (RwProblem)ctx;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 5);
  if (!prob->tao) prob->tao = tao;
  PetscCall(RwProblemEvaluate(prob, x, J, G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSetUpTao - gives a TAO the problem's objective and gradient
  (RwProblemTaoObjectiveAndGradient()) and the history's monitor; a
  program's own monitors set after this one see the iteration's row
  (RwProblemGetHistory())

  Logically collective

  Level: intermediate

.seealso: RwProblemSolve()
@*/
PetscErrorCode RwProblemSetUpTao(RwProblem prob, Tao tao)
{
  PetscObject owner;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscValidHeaderSpecific(tao, TAO_CLASSID, 2);
  PetscCall(PetscObjectQuery((PetscObject)tao, "RwProblem", &owner));
  if (owner == (PetscObject)prob) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const char *prefix;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)tao, &prefix));
    PetscCall(RwOptionsCheckPetsc(PetscObjectComm((PetscObject)tao), prefix)); /* before TaoSetFromOptions(): -tao_max_it 4294967298 is no 2 */
  }
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, RwProblemTaoObjectiveAndGradient, prob));
  PetscCall(TaoSetMonitor(tao, RwProblemHistoryMonitor_Private, prob, NULL));
  PetscCall(PetscObjectCompose((PetscObject)tao, "RwProblem", (PetscObject)prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSolve - solves the optimisation with a TAO the caller configured
  (type, bounds, solution, tolerances, TaoSetFromOptions()): sets its
  objective and gradient to the problem's and records the history
  (RwProblemSetUpTao(), if the caller did not), and runs TaoSolve(); may be
  called again (another frequency band, another TAO)

  Collective

  Level: beginner

  Notes:
  Call RwProblemComplete() once the optimisation is over (all its solves),
  and destroy the problem after the outputs are written: a completed run's
  journal is removed then, and a run killed before keeps it.

.seealso: RwProblemComplete(), RwProblemSetUpTao()
@*/
PetscErrorCode RwProblemSolve(RwProblem prob, Tao tao)
{
  PetscViewer       v;
  PetscViewerFormat format;
  PetscBool         set, h5;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(RwProblemSetUpTao(prob, tao));
  prob->tao    = tao;
  prob->hsolve = prob->nsolve++;
  if (!prob->hsolve) PetscCall(VecDestroy(&prob->G0)); /* the optimisation's first gradient is its first solve's */
  PetscCall(TaoSolve(tao));
  prob->tao = NULL;
  if (prob->hviewer) PetscCall(PetscViewerFlush(prob->hviewer));
  PetscCall(PetscOptionsGetViewer(PetscObjectComm((PetscObject)prob), ((PetscObject)prob)->options, ((PetscObject)prob)->prefix, "-rw_history_view", &v, &format, &set));
  if (set) {
    PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERHDF5, &h5));
    if (h5) PetscCall(RwProblemHistoryView(prob, v));
    PetscCall(PetscViewerDestroy(&v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemComplete - the optimisation is over: its journal goes when the problem is destroyed (unless -rw_journal_keep)

  Collective

  Level: beginner
@*/
PetscErrorCode RwProblemComplete(RwProblem prob)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(RwJournalComplete(prob->journal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemGetTime - seconds since the problem was set up, counting a resumed run's replayed evaluations as the interrupted run spent them

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwProblemGetTime(RwProblem prob, PetscReal *seconds)
{
  PetscLogDouble now;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCall(PetscTime(&now));
  *seconds = (PetscReal)(now - prob->t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemSolveMember - one member's J and gradient on its group, for a
  caller that needs each member's result rather than their sum (ensemble
  statistics: RwHorizonEnsembleSensitivity())

  Collective on member e's group; call it on those ranks only

  Input Parameters:
+ prob - the problem, set up
- e    - the member, one of this group's (RwEnsembleGetRoundMember() on RwProblemGetEnsemble())

  Output Parameters:
+ J   - the member's J, on the group's ranks
. g   - dJ/dm on the group's model, the problem's until its next solve (may be NULL)
- gu0 - dJ/du0 on the group's model, likewise (may be NULL)

  Level: advanced

  Notes:
  The member's own data and known values are applied as in an evaluation;
  the regularisers, which are not a member's, are not added.

.seealso: RwProblemComputeGradient(), RwProblemGetMemberSolver()
@*/
PetscErrorCode RwProblemSolveMember(RwProblem prob, PetscInt e, PetscReal *J, Vec *g, Vec *gu0)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscCheck(prob->setupcalled, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call RwProblemSetUp() first");
  PetscCheck(e >= 0 && e < prob->nmembers && prob->mm[e], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Member %" PetscInt_FMT " is not one of this group's", e);
  PetscCall(SolveMember(prob, e, NULL, J));
  if (g) *g = prob->gg;
  if (gu0) *gu0 = prob->ggu0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
