/*
  rewind-fwi's inversion: the survey's shots are the members of a problem
  (RwProblem: each group of ranks solves its shots with one wave model,
  objective and driver whose source and receivers change per shot; J and
  dJ/dm summed in shot order, the same bits for any number of groups and
  ranks; the journal that makes a killed run resumable; the history);
  frequency bands; TAO BLMVM on m with bounds and the held region.
*/
#include "fwi.h"

/*
  A RAM budget (-rw_checkpoint_ram) alone: hdf5 beyond it, with as many disk
  slots as needed, so that a budget too small for every state still runs; the
  driver then keeps every state if they fit and otherwise plans the
  multilevel schedule in that RAM (RwAdjointDefaultBudget_Private).  Each shot
  group writes its own file.
*/
static PetscErrorCode AdjointDefaults(RwAdjoint adj, void *ctx)
{
  PetscBool  ram, type, disk, budget;
  RwSchedule sched;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-rw_checkpoint_ram", &ram));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-rw_schedule_type", &type));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-rw_schedule_disk_slots", &disk));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-rw_checkpoint_disk", &budget));
  if (!ram || type || disk || budget) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointGetSchedule(adj, &sched));
  PetscCall(RwScheduleSetSlots(sched, RW_LEVEL_DISK, RW_SLOTS_UNLIMITED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The survey as the problem's members: per shot its source, its receivers, their data (zeros until known) at every step */
static PetscErrorCode SurveyObservations(Fwi *f)
{
  const PetscInt nt = f->sv.nt;
  PetscInt64    *steps;
  Vec            u0;

  PetscFunctionBegin;
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &f->shots));
  PetscCall(RwObservationsSetModel(f->shots, f->model));
  PetscCall(RwObservationsSetNumMembers(f->shots, f->sv.nshots));
  PetscCall(PetscMalloc1(nt, &steps));
  for (PetscInt k = 0; k < nt; k++) steps[k] = k;
  PetscCall(RwObservationsSetSteps(f->shots, nt, steps));
  PetscCall(PetscFree(steps));
  if (!f->sv.data) PetscCall(PetscCalloc1(f->sv.ntotal * nt, &f->sv.data));
  for (PetscInt s = 0; s < f->sv.nshots; s++) {
    PetscCall(RwObservationsSetSources(f->shots, s, 1, f->sv.src + s * f->dim));
    PetscCall(RwObservationsSetSensors(f->shots, s, f->sv.nrec[s], f->sv.rec + f->sv.off[s] * f->dim));
    PetscCall(RwObservationsSetData(f->shots, s, f->sv.data + f->sv.off[s] * nt, 1.0));
  }
  PetscCall(RwModelCreateState(f->model, &u0)); /* from rest */
  PetscCall(VecSet(u0, 0));
  PetscCall(RwObservationsSetKnown(f->shots, RW_OBS_ALL_MEMBERS, "u0", u0));
  PetscCall(VecDestroy(&u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FwiModelError as the history's column "error" (-1 without a truth) */
static PetscErrorCode ErrorColumn(RwProblem prob, Vec x, PetscReal *err, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(FwiModelError((Fwi *)ctx, x, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiSetUpProblem - the problem on the app's grid: the parent model (the
  fields, the held region and the checks of the survey live on it), the
  shots as members, the unknown m, the journal (with -rw_output, in
  prefix.state), shot groups by default gcd(ranks, shots)
*/
PetscErrorCode FwiSetUpProblem(Fwi *f)
{
  RwEnsemble e;
  char       journal[PETSC_MAX_PATH_LEN + 8] = "";

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &f->prob));
  PetscCall(RwProblemSetModelType(f->prob, RWMODELWAVE));
  PetscCall(RwProblemSetModelDefaults(f->prob, FwiModelDefaults, f));
  PetscCall(RwProblemSetAdjointDefaults(f->prob, AdjointDefaults, f));
  PetscCall(RwProblemSetUnknown(f->prob, "m"));
  PetscCall(RwProblemGetEnsemble(f->prob, &e));
  PetscCall(RwEnsembleSetGroups(e, 0)); /* the default: gcd(ranks, shots) groups */
  if (f->output[0]) PetscCall(PetscSNPrintf(journal, sizeof(journal), "%s.state", f->output));
  PetscCall(RwProblemSetJournal(f->prob, journal));
  PetscCall(RwProblemAddHistoryColumn(f->prob, "error", ErrorColumn, f));
  PetscCall(RwProblemSetHistoryColumnInfo(f->prob, "error", "1", "relative model error ||c - c_true|| / ||c_true|| on the physical region (-1: no truth)"));
  PetscCall(RwProblemSetUnits(f->prob, "(source units)^2", "s^2/km^2"));
  PetscCall(RwProblemSetFromOptions(f->prob));
  PetscCall(RwProblemGetModel(f->prob, &f->model));
  PetscCall(FwiCheckSurvey(f));
  PetscCall(FwiSetUpFields(f));
  PetscCall(SurveyObservations(f));
  PetscCall(RwProblemSetObservations(f->prob, f->shots));
  PetscCall(RwProblemSetMask(f->prob, f->mask));
  PetscCall(RwProblemSetUp(f->prob));
  PetscCall(PetscMalloc2(f->sv.ntotal * f->sv.nt, &f->dband, f->sv.nt, &f->wavelet));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FwiRecordAll - every shot's traces (the survey's layout) from parent parameters, computed by the groups, on every rank */
PetscErrorCode FwiRecordAll(Fwi *f, Vec mparent, PetscReal *d)
{
  const PetscInt  total = f->sv.ntotal * f->sv.nt;
  PetscInt        n, ng;
  const PetscInt *ids;
  PetscReal      *mine;
  PetscMPIInt     subrank;
  RwModel         gmodel;
  RwEnsemble      e;
  Vec             mg, fg, fp;

  PetscFunctionBegin;
  PetscCall(RwProblemGetMemberSolver(f->prob, &gmodel, NULL, NULL));
  PetscCall(RwProblemGetEnsemble(f->prob, &e));
  PetscCall(RwEnsembleGetGroup(e, NULL, &ng));
  PetscCall(RwModelCreateParameters(gmodel, &mg));
  PetscCall(RwModelGetParameterField(f->model, mparent, 0, &fp));
  PetscCall(RwModelGetParameterField(gmodel, mg, 0, &fg));
  if (ng > 1) PetscCall(RwEnsembleScatterToGroups(e, fp, fg));
  else PetscCall(VecCopy(fp, fg));
  PetscCall(RwModelRestoreParameterField(gmodel, mg, 0, &fg));
  PetscCall(RwModelRestoreParameterField(f->model, mparent, 0, &fp));
  PetscCall(RwEnsembleGetMembers(e, &n, &ids));
  PetscCall(PetscCalloc1(total, &mine));
  for (PetscInt j = 0; j < n; j++) {
    const PetscInt s = ids[j];

    PetscCall(RwModelWaveSetSources(gmodel, 1, f->sv.src + s * f->dim));
    PetscCall(RwModelWaveRecord(gmodel, mg, f->sv.nrec[s], f->sv.rec + f->sv.off[s] * f->dim, mine + f->sv.off[s] * f->sv.nt));
  }
  /* each shot's traces come from its group's first rank; the others add zeros: exact */
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)gmodel), &subrank));
  if (subrank) PetscCall(PetscArrayzero(mine, total));
  PetscCall(MPIU_Allreduce(mine, d, total, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscFree(mine));
  PetscCall(VecDestroy(&mg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The progress line of an iteration, from the problem's history */
static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Fwi              *f       = (Fwi *)ctx;
  const char *const want[4] = {"iteration", "J", "error", "seconds"};
  PetscReal         v[4], J, err, seconds;
  PetscInt          it;
  char              e[64] = "";

  PetscFunctionBegin;
  PetscCall(RwProblemGetHistoryValues(f->prob, -1, 4, want, v));
  it = (PetscInt)v[0], J = v[1], err = v[2], seconds = v[3];
  if (f->J0 < 0) f->J0 = J;
  if (f->hastrue) PetscCall(PetscSNPrintf(e, sizeof(e), "  model error %.4f", (double)err));
  if (f->bands[f->band] > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "band %" PetscInt_FMT " (< %g kHz) ", f->band, (double)f->bands[f->band]));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "band %" PetscInt_FMT " (full)    ", f->band));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iteration %3" PetscInt_FMT "  J %.6e  relative misfit %.4f%s  %.1f s\n", it, (double)J, (double)(J / f->J0), e, (double)seconds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of band b: the observations and the wavelet through the same causal low-pass; the band tells evaluations at one iterate apart */
static PetscErrorCode SetBand(Fwi *f, PetscInt b)
{
  const PetscInt nt = f->sv.nt;
  RwModel        gmodel;

  PetscFunctionBegin;
  f->band = b;
  f->J0   = -1;
  PetscCall(RwProblemGetMemberSolver(f->prob, &gmodel, NULL, NULL));
  PetscCall(PetscArraycpy(f->dband, f->sv.data, f->sv.ntotal * nt));
  PetscCall(RwModelWaveSetWavelet(gmodel, 0, NULL));
  PetscCall(RwModelWaveGetWavelet(gmodel, nt - 1, f->wavelet));
  if (f->bands[b] > 0) {
    for (PetscInt s = 0; s < f->sv.nshots; s++) PetscCall(RwWaveLowPass(f->bands[b], f->sv.dt, nt, f->sv.nrec[s], f->dband + f->sv.off[s] * nt));
    PetscCall(RwWaveLowPass(f->bands[b], f->sv.dt, nt - 1, 1, f->wavelet));
    PetscCall(RwModelWaveSetWavelet(gmodel, nt - 1, f->wavelet));
  }
  for (PetscInt s = 0; s < f->sv.nshots; s++) PetscCall(RwObservationsSetData(f->shots, s, f->dband + f->sv.off[s] * nt, 1.0));
  PetscCall(RwProblemSetEvaluationSalt(f->prob, (uint64_t)b + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The TAO of a band, from the options */
static PetscErrorCode CreateTao(Fwi *f, Tao *tao)
{
  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, tao));
  PetscCall(TaoSetType(*tao, TAOBLMVM));
  PetscCall(TaoSetSolution(*tao, f->x));
  PetscCall(TaoSetVariableBounds(*tao, f->lo, f->hi));
  PetscCall(RwProblemSetUpTao(f->prob, *tao));
  PetscCall(TaoSetMonitor(*tao, Monitor, f, NULL));
  PetscCall(TaoSetMaximumIterations(*tao, f->iterations));
  PetscCall(TaoSetTolerances(*tao, 0, 0, 0));
  PetscCall(TaoSetFromOptions(*tao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiReadTaoOptions - TAO's options read once before any solve, as each band
  will read them: -help lists them, and a bad one stops the run before it starts
*/
PetscErrorCode FwiReadTaoOptions(Fwi *f)
{
  Tao tao;

  PetscFunctionBegin;
  PetscCall(CreateTao(f, &tao));
  PetscCall(TaoDestroy(&tao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveBand(Fwi *f, PetscInt b, PetscReal *J)
{
  Tao tao;

  PetscFunctionBegin;
  PetscCall(SetBand(f, b));
  PetscCall(CreateTao(f, &tao));
  PetscCall(RwProblemSolve(f->prob, tao));
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
  What decides the evaluations beyond what the problem knows (the journal's
  identity, doc/wave.md): the bands, the last band's wavelet, the bounds and
  TAO's type.  Neither the ranks nor the shot groups are: they do not change
  the bits, so a run killed with 1 group resumes with 2
*/
static PetscErrorCode DescribeInversion(Fwi *f)
{
  char     v[512];
  uint64_t lo, hi;

  PetscFunctionBegin;
  v[0] = 0;
  for (PetscInt b = 0; b < f->nbands; b++) PetscCall(PetscSNPrintf(v + strlen(v), sizeof(v) - strlen(v), "%s%.17g", b ? "," : "", (double)f->bands[b]));
  PetscCall(RwProblemAddIdentity(f->prob, "bands", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%016llx", (unsigned long long)HashReals(0, f->wavelet, f->sv.nt - 1)));
  PetscCall(RwProblemAddIdentity(f->prob, "wavelet", v));
  PetscCall(RwVecChecksum(f->lo, &lo));
  PetscCall(RwVecChecksum(f->hi, &hi));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%016llx", (unsigned long long)RwSplitMix64(lo ^ RwSplitMix64(hi))));
  PetscCall(RwProblemAddIdentity(f->prob, "bounds", v));
  PetscCall(PetscStrncpy(v, TAOBLMVM, sizeof(v)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-tao_type", v, sizeof(v), NULL));
  PetscCall(RwProblemAddIdentity(f->prob, "tao_type", v));
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
  PetscInt64 solves, fsteps, replayed;
  char       e[128], from[64] = "";

  PetscFunctionBegin;
  PetscCall(FwiModelError(f, f->x, &err0));
  PetscCall(SetBand(f, f->nbands - 1));
  PetscCall(DescribeInversion(f));
  PetscCall(RwProblemEvaluate(f->prob, f->x, &Jfirst, f->G));
  for (PetscInt b = 0; b < f->nbands; b++) {
    PetscReal J;

    PetscCall(SolveBand(f, b, &J));
    if (b == f->nbands - 1) Jlast = J;
  }
  PetscCall(FwiModelError(f, f->x, &err));
  PetscCall(RwProblemComplete(f->prob));
  PetscCall(RwProblemGetCounts(f->prob, NULL, &solves, &fsteps, &replayed));
  if (f->hastrue) PetscCall(PetscSNPrintf(e, sizeof(e), "model error %.4f -> %.4f", (double)err0, (double)err));
  else PetscCall(PetscSNPrintf(e, sizeof(e), "model error not known (no -rw_fwi_true)"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "J_start %.17g J_final %.17g\n", (double)Jfirst, (double)Jlast));
  if (replayed) PetscCall(PetscSNPrintf(from, sizeof(from), ", %" PetscInt64_FMT " more from the journal", replayed));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final: full-band misfit reduced by a factor %.3f (J %.6e at the start -> %.6e); %s; %.2f forward sweeps per gradient (%" PetscInt64_FMT " shot gradients%s)\n", (double)(Jfirst / Jlast), (double)Jfirst, (double)Jlast, e, solves ? (double)fsteps / ((double)solves * (f->sv.nt - 1)) : 0.0, solves, from));
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
  PetscCall(RwObservationsDestroy(&f->shots));
  PetscCall(RwProblemDestroy(&f->prob)); /* after the outputs: a run killed before them resumes from its journal */
  for (PetscInt i = 0; i < f->nobs; i++) PetscCall(PetscFree(f->obs[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
