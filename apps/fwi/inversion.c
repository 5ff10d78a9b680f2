/*
  rewind-fwi's inversion: the shot groups (RwEnsemble), each with one wave
  model, objective and driver on its ranks whose source, receivers and data
  change per shot; J and dJ/dm summed in shot order (the same bits for any
  number of groups and ranks); frequency bands; TAO BLMVM on m with bounds.
*/
#include "fwi.h"

/* FwiSetUpGroups - the groups, each with its model, receivers and driver; hdf5 checkpoints in files of the group's own */
PetscErrorCode FwiSetUpGroups(Fwi *f)
{
  MPI_Comm sub;
  PetscInt group;
  DM       gfda, fda;

  PetscFunctionBegin;
  PetscCall(RwEnsembleCreate(PETSC_COMM_WORLD, &f->e));
  PetscCall(RwEnsembleSetSize(f->e, f->sv.nshots));
  PetscCall(RwEnsembleSetGroups(f->e, f->groups));
  PetscCall(RwEnsembleSetFromOptions(f->e));
  PetscCall(RwEnsembleSetUp(f->e));
  PetscCall(RwEnsembleGetSubComm(f->e, &sub));
  PetscCall(RwEnsembleGetGroup(f->e, &group, NULL));
  PetscCallMPI(MPI_Comm_rank(sub, &f->subrank));
  PetscCall(FwiCreateModel(f, sub, &f->gmodel));
  PetscCall(RwModelGetFieldDM(f->gmodel, &gfda));
  PetscCall(RwModelGetFieldDM(f->model, &fda));
  PetscCall(RwEnsembleSetDM(f->e, gfda, fda));
  PetscCall(RwModelCreateParameters(f->gmodel, &f->mg));
  PetscCall(VecDuplicate(f->mg, &f->gg));
  PetscCall(RwModelCreateState(f->gmodel, &f->u0));
  PetscCall(VecDuplicate(f->u0, &f->gu0));
  PetscCall(DMCreateGlobalVector(gfda, &f->gi));
  PetscCall(RwObjectiveCreate(f->gmodel, &f->obj));
  PetscCall(RwObjectiveAddWaveReceivers(f->obj, f->sv.nrec[0], f->sv.rec, NULL));
  /* this process's options only: group g's driver writes the files of member g */
  PetscCall(RwEnsembleSetMemberFileOptions(f->e, group, NULL));
  PetscCall(RwAdjointCreate(f->gmodel, f->obj, &f->adj));
  PetscCall(RwAdjointSetFromOptions(f->adj));
  PetscCall(RwAdjointSetUp(f->adj));
  PetscCall(PetscMalloc2(f->sv.ntotal * f->sv.nt, &f->dband, f->sv.nt, &f->wavelet));
  PetscCall(RwEnsembleGetGroup(f->e, NULL, &f->ngroups));
  PetscCall(VecDuplicateVecs(f->x, f->ngroups, &f->W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shot i on this group: its source and its receivers with data d (the survey's layout) */
static PetscErrorCode SetShot(Fwi *f, PetscInt i, const PetscReal *d)
{
  PetscFunctionBegin;
  PetscCall(RwModelWaveSetSources(f->gmodel, 1, f->sv.src + i * f->dim));
  PetscCall(RwObjectiveSetWaveReceivers(f->obj, f->sv.nrec[i], f->sv.rec + f->sv.off[i] * f->dim, d + f->sv.off[i] * f->sv.nt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FwiRecordAll - every shot's traces (the survey's layout) from parent parameters, computed by the groups, on every rank */
PetscErrorCode FwiRecordAll(Fwi *f, Vec mparent, PetscReal *d)
{
  const PetscInt  total = f->sv.ntotal * f->sv.nt;
  PetscInt        n;
  const PetscInt *ids;
  PetscReal      *mine;
  Vec             fg, fp;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(f->model, mparent, 0, &fp));
  PetscCall(RwModelGetParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwEnsembleScatterToGroups(f->e, fp, fg));
  PetscCall(RwModelRestoreParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwModelRestoreParameterField(f->model, mparent, 0, &fp));
  PetscCall(RwEnsembleGetMembers(f->e, &n, &ids));
  PetscCall(PetscCalloc1(total, &mine));
  for (PetscInt j = 0; j < n; j++) {
    const PetscInt s = ids[j];

    PetscCall(RwModelWaveSetSources(f->gmodel, 1, f->sv.src + s * f->dim));
    PetscCall(RwModelWaveRecord(f->gmodel, f->mg, f->sv.nrec[s], f->sv.rec + f->sv.off[s] * f->dim, mine + f->sv.off[s] * f->sv.nt));
  }
  /* each shot's traces come from its group's first rank; the others add zeros: exact */
  if (f->subrank) PetscCall(PetscArrayzero(mine, total));
  PetscCall(MPIU_Allreduce(mine, d, total, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscFree(mine));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This group's shot i: its J and its dJ/dm on the group's grid (f->gi) */
static PetscErrorCode SolveShot(void *ctx, PetscInt i, PetscReal *Ji)
{
  Fwi            *f = (Fwi *)ctx;
  RwAdjointCounts c;
  Vec             fg;

  PetscFunctionBegin;
  PetscCall(SetShot(f, i, f->dband));
  PetscCall(RwAdjointSolve(f->adj, f->mg, f->u0, Ji, f->gg, f->gu0));
  PetscCall(RwModelGetParameterField(f->gmodel, f->gg, 0, &fg));
  PetscCall(VecCopy(fg, f->gi));
  PetscCall(RwModelRestoreParameterField(f->gmodel, f->gg, 0, &fg));
  PetscCall(RwAdjointGetCounts(f->adj, &c));
  if (!f->subrank) { /* one count per shot, whatever the group's size */
    f->fsteps += c.forward_steps;
    f->gradients++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J and dJ/dm summed over the shots in shot order, round by round, each
   shot from the journal or solved by its group (RwAppJournalRound()), masked */
static PetscErrorCode SumShots(Fwi *f, Vec X, PetscReal *J, Vec G)
{
  PetscInt nr;
  Vec      fg;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwEnsembleScatterToGroups(f->e, X, fg));
  PetscCall(RwModelRestoreParameterField(f->gmodel, f->mg, 0, &fg));
  PetscCall(RwEnsembleGetRounds(f->e, &nr));
  PetscCall(VecSet(G, 0));
  *J = 0;
  for (PetscInt r = 0; r < nr; r++) PetscCall(RwAppJournalRound(f->journal, f->e, f->sv.nshots, r, SolveShot, f, f->gi, f->W, J, G, &f->replayed));
  PetscCall(VecPointwiseMult(G, G, f->mask));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One evaluation: from the journal while a resumed run replays it (the
   band tells evaluations at one iterate apart), else from the shots, each
   journalled as it comes; the sum then stands for them in the journal, so
   that it keeps one field an evaluation */
static PetscErrorCode FormFunctionGradient(Tao tao, Vec X, PetscReal *J, Vec G, void *ctx)
{
  Fwi      *f = (Fwi *)ctx;
  PetscBool kept;
  Vec       w;

  PetscFunctionBegin;
  PetscCall(RwAppJournalBeginEvaluation(f->journal, X, (uint64_t)f->band + 1));
  PetscCall(RwAppJournalPeek(f->journal, f->sv.nshots, J, &w, &kept));
  if (kept) {
    PetscCall(VecCopy(w, G));
    f->replayed += f->sv.nshots;
  } else {
    PetscCall(SumShots(f, X, J, G));
    PetscCall(RwAppJournalRecord(f->journal, f->sv.nshots, *J, G));
    PetscCall(RwAppJournalForget(f->journal, f->sv.nshots));
  }
  if (!f->grad0) {
    PetscCall(VecDuplicate(G, &f->grad0));
    PetscCall(VecCopy(G, f->grad0));
  }
  PetscCall(RwAppJournalEndEvaluation(f->journal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Fwi           *f = (Fwi *)ctx;
  PetscInt       it;
  PetscReal      J, err;
  PetscLogDouble t;
  char           e[64] = "";

  PetscFunctionBegin;
  PetscCall(TaoGetSolutionStatus(tao, &it, &J, NULL, NULL, NULL, NULL));
  if (f->J0 < 0) f->J0 = J;
  PetscCall(FwiModelError(f, f->x, &err));
  if (f->hastrue) PetscCall(PetscSNPrintf(e, sizeof(e), "  model error %.4f", (double)err));
  PetscCall(PetscTime(&t));
  if (f->bands[f->band] > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "band %" PetscInt_FMT " (< %g kHz) ", f->band, (double)f->bands[f->band]));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "band %" PetscInt_FMT " (full)    ", f->band));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iteration %3" PetscInt_FMT "  J %.6e  relative misfit %.4f%s  %.1f s\n", it, (double)J, (double)(J / f->J0), e, t - f->t0));
  if (f->nhist < 1024) {
    PetscReal *h = f->hist + 4 * f->nhist++;
    h[0] = f->band, h[1] = J, h[2] = J / f->J0, h[3] = err;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of band b: the observations and the wavelet through the same causal low-pass */
static PetscErrorCode SetBand(Fwi *f, PetscInt b)
{
  const PetscInt nt = f->sv.nt;

  PetscFunctionBegin;
  f->band = b;
  f->J0   = -1;
  PetscCall(PetscArraycpy(f->dband, f->sv.data, f->sv.ntotal * nt));
  PetscCall(RwModelWaveSetWavelet(f->gmodel, 0, NULL));
  PetscCall(RwModelWaveGetWavelet(f->gmodel, nt - 1, f->wavelet));
  if (f->bands[b] > 0) {
    for (PetscInt s = 0; s < f->sv.nshots; s++) PetscCall(RwWaveLowPass(f->bands[b], f->sv.dt, nt, f->sv.nrec[s], f->dband + f->sv.off[s] * nt));
    PetscCall(RwWaveLowPass(f->bands[b], f->sv.dt, nt - 1, 1, f->wavelet));
    PetscCall(RwModelWaveSetWavelet(f->gmodel, nt - 1, f->wavelet));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveBand(Fwi *f, PetscInt b, PetscReal *J)
{
  Tao tao;

  PetscFunctionBegin;
  PetscCall(SetBand(f, b));
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &tao));
  PetscCall(TaoSetType(tao, TAOBLMVM));
  PetscCall(TaoSetSolution(tao, f->x));
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormFunctionGradient, f));
  PetscCall(TaoSetVariableBounds(tao, f->lo, f->hi));
  PetscCall(TaoSetMonitor(tao, Monitor, f, NULL));
  PetscCall(TaoSetMaximumIterations(tao, f->iterations));
  PetscCall(TaoSetTolerances(tao, 0, 0, 0));
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(TaoSolve(tao));
  PetscCall(TaoGetSolutionStatus(tao, NULL, J, NULL, NULL, NULL, NULL));
  PetscCall(TaoDestroy(&tao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A hash of n reals */
static uint64_t HashReals(uint64_t h, const PetscReal *v, PetscInt n)
{
  return RwHashBytes(h, v, sizeof(PetscReal) * (size_t)n);
}

/*
  The evaluation journal (apps/common/journal.c; on with -rw_output prefix
  or -rw_fwi_state dir): everything that decides an evaluation's J and
  dJ/dm, which a resumed run must share with the journal.  Neither the
  ranks nor the shot groups are: they do not change the bits
*/
static PetscErrorCode SetUpJournal(Fwi *f)
{
  const char *const opt[3] = {"-rw_fwi_state", "-rw_fwi_state_overwrite", "-rw_fwi_state_keep"};
  char         v[512], id[512];
  DM           fda;
  RwAppJournal j;
  FwiSurvey   *sv = &f->sv;
  uint64_t     h;
  PetscInt     M[3];
  PetscBool    set;

  PetscFunctionBegin;
  PetscCall(RwModelGetFieldDM(f->model, &fda));
  PetscCall(RwAppJournalCreate("rewind-fwi", opt, f->output, PETSC_FALSE, fda, f->sv.nshots + 1, &f->t0, &f->journal)); /* the shots, then their sum */
  j = f->journal;
  if (!RwAppJournalEnabled(j)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDAGetInfo(fda, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " (physical %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ")", M[0], M[1], M[2], f->n[0], f->n[1], f->dim > 2 ? f->n[2] : 1));
  PetscCall(RwAppJournalAddLine(j, "grid", v));
  PetscCall(RwModelGetIdentity(f->model, id, sizeof(id)));
  PetscCall(RwAppJournalAddLine(j, "model", id));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " of dt %.17g", sv->nt - 1, (double)sv->dt));
  PetscCall(RwAppJournalAddLine(j, "steps", v));
  h = HashReals(HashReals(RwHashBytes(0, sv->nrec, sizeof(PetscInt) * (size_t)sv->nshots), sv->src, sv->nshots * f->dim), sv->rec, sv->ntotal * f->dim);
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " shots, %" PetscInt_FMT " receivers at %016llx", sv->nshots, sv->ntotal, (unsigned long long)h));
  PetscCall(RwAppJournalAddLine(j, "survey", v));
  PetscCall(RwAppJournalAddHash(j, "observations", HashReals(0, sv->data, sv->ntotal * sv->nt)));
  PetscCall(RwAppJournalAddHash(j, "wavelet of the last band", HashReals(0, f->wavelet, sv->nt - 1)));
  v[0] = 0;
  for (PetscInt b = 0; b < f->nbands; b++) PetscCall(PetscSNPrintf(v + strlen(v), sizeof(v) - strlen(v), "%s%.17g", b ? "," : "", (double)f->bands[b]));
  PetscCall(RwAppJournalAddLine(j, "bands", v));
  PetscCall(RwAppJournalChecksum(j, f->x, &h));
  PetscCall(RwAppJournalAddHash(j, "start", h));
  PetscCall(RwAppJournalChecksum(j, f->lo, &h));
  PetscCall(RwAppJournalAddHash(j, "lower bounds", h));
  PetscCall(RwAppJournalChecksum(j, f->hi, &h));
  PetscCall(RwAppJournalAddHash(j, "upper bounds", h));
  PetscCall(RwAppJournalChecksum(j, f->mask, &h));
  PetscCall(RwAppJournalAddHash(j, "held region", h));
  PetscCall(PetscStrncpy(v, TAOBLMVM, sizeof(v)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-tao_type", v, sizeof(v), &set));
  PetscCall(RwAppJournalAddLine(j, "tao type", v));
  PetscCall(RwAppJournalOpen(j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiInvert - the full-band misfit of the start, the bands one after the
  other, and the final line: misfit reduction, model error (with a truth),
  forward sweeps per gradient
*/
PetscErrorCode FwiInvert(Fwi *f)
{
  PetscReal  err0, err, Jfirst = -1, Jlast = 0;
  PetscInt64 c[2], t[2];
  char       e[128], from[64] = "";

  PetscFunctionBegin;
  PetscCall(FwiModelError(f, f->x, &err0));
  PetscCall(SetBand(f, f->nbands - 1));
  PetscCall(SetUpJournal(f));
  PetscCall(FormFunctionGradient(NULL, f->x, &Jfirst, f->G, f));
  PetscCall(VecDestroy(&f->grad0));
  for (PetscInt b = 0; b < f->nbands; b++) {
    PetscReal J;

    PetscCall(SolveBand(f, b, &J));
    if (b == f->nbands - 1) Jlast = J;
  }
  PetscCall(FwiModelError(f, f->x, &err));
  PetscCall(RwAppJournalComplete(f->journal));
  c[0] = f->fsteps, c[1] = f->gradients;
  PetscCallMPI(MPI_Allreduce(c, t, 2, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
  if (f->hastrue) PetscCall(PetscSNPrintf(e, sizeof(e), "model error %.4f -> %.4f", (double)err0, (double)err));
  else PetscCall(PetscSNPrintf(e, sizeof(e), "model error not known (no -rw_fwi_true)"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J_start %.17g J_final %.17g\n", (double)Jfirst, (double)Jlast));
  if (f->replayed) PetscCall(PetscSNPrintf(from, sizeof(from), ", %" PetscInt64_FMT " more from the journal", f->replayed));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final: full-band misfit reduced by a factor %.3f (J %.6e at the start -> %.6e); %s; %.2f forward sweeps per gradient (%" PetscInt64_FMT " shot gradients%s)\n", (double)(Jfirst / Jlast), (double)Jfirst, (double)Jlast, e, t[1] ? (double)t[0] / ((double)t[1] * (f->sv.nt - 1)) : 0.0, t[1], from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FwiDestroy(Fwi *f)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(f->vtrue.c));
  PetscCall(PetscFree(f->vstart.c));
  PetscCall(PetscFree2(f->dband, f->wavelet));
  PetscCall(FwiSurveyDestroy(&f->sv));
  PetscCall(VecDestroy(&f->ctrue));
  PetscCall(VecDestroy(&f->cstart));
  PetscCall(VecDestroy(&f->mtrue));
  PetscCall(VecDestroy(&f->x));
  PetscCall(VecDestroy(&f->G));
  PetscCall(VecDestroy(&f->lo));
  PetscCall(VecDestroy(&f->hi));
  PetscCall(VecDestroy(&f->mask));
  PetscCall(VecDestroy(&f->grad0));
  PetscCall(VecDestroy(&f->mg));
  PetscCall(VecDestroy(&f->gg));
  PetscCall(VecDestroy(&f->u0));
  PetscCall(VecDestroy(&f->gu0));
  PetscCall(VecDestroy(&f->gi));
  PetscCall(RwAdjointDestroy(&f->adj));
  PetscCall(RwObjectiveDestroy(&f->obj));
  PetscCall(RwModelDestroy(&f->gmodel));
  PetscCall(RwModelDestroy(&f->model));
  if (f->W) PetscCall(VecDestroyVecs(f->ngroups, &f->W));
  PetscCall(RwEnsembleDestroy(&f->e));
  if (f->journal) PetscCall(RwAppJournalDestroy(&f->journal)); /* after the outputs: a run killed before them resumes from its journal */
  for (PetscInt i = 0; i < f->nobs; i++) PetscCall(PetscFree(f->obs[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
