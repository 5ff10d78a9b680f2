/*
  The reverse-sweep keep: what a reverse sweep killed by a wall-time limit
  needs to go on exactly where it was, kept in HDF5 at an interval
  (-rw_adjoint_keep_interval steps, -rw_adjoint_keep_seconds).

  After REVERSE k the sweep is fully described by lambda_k, x_k (the next
  REVERSE's x_k+1), the model's gradient accumulators, the objective's exact
  partial sum and the number of schedule actions taken; the checkpoints the
  rest of the schedule restores are found, or made again, from the stores.

  Two hdf5 stores hold it, double-buffered: keep[0] has slots (lambda, x) for
  buffer 0 and 1, keep[1] the accumulators of buffer 0, then of buffer 1.
  Keep number q goes to buffer q % 2, every slot of it written with "step" q,
  the header [q, k, actions, objective state] attached to the last write.  Each
  write is itself crash-consistent (hdf5.c), so a buffer is whole when all its
  slots hold q and its header says q; a kill during a keep spoils only the
  buffer being written, and the other holds the keep before.

  On -rw_restart the newer whole buffer is read back; the schedule is replayed
  to its action count without executing, which tells which step each slot of
  each level must hold; a slot that does not (a RAM level lost with the
  process, or a disk slot a later action reused) is made again by advancing
  from the nearest state below it that is at hand, in ascending order of step.
  Steps are deterministic, so the resumed sweep gives the same bits.
*/
#include <rewind/private/adjointimpl.h>
#include <unistd.h>

/* "ck.h5" -> "ck-reverse.h5"; the driver's tag m3 first: "ck-m3-reverse.h5" */
static PetscErrorCode RwKeepFileName(RwAdjoint adj, char name[], size_t len, PetscBool *keep, PetscBool *overwrite)
{
  const char *file = NULL;
  char        mine[PETSC_MAX_PATH_LEN];
  size_t      n;
  PetscBool   h5ext;

  PetscFunctionBegin;
  *keep = *overwrite = PETSC_FALSE;
  for (PetscInt l = RW_NUM_LEVELS - 1; l >= 0 && !file; l--)
    if (adj->store[l]) PetscCall(RwStoreHDF5GetFileOptions(adj->store[l], &file, keep, overwrite));
  if (!file) { /* checkpoints in RAM: the keep file follows the store options all the same */
    const char *prefix;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
    PetscCall(PetscOptionsGetBool(NULL, prefix, "-rw_store_keep", keep, NULL));
    PetscCall(PetscOptionsGetBool(NULL, prefix, "-rw_store_overwrite", overwrite, NULL));
  }
  if (adj->keepfile[0]) PetscCall(RwFileNameTag(adj->keepfile, adj->filetag, name, len));
  else if (!file) PetscCall(RwFileNameTag("rewind-reverse.h5", adj->filetag, name, len));
  else {
    PetscCall(RwFileNameTag(file, adj->filetag, mine, sizeof(mine)));
    PetscCall(PetscStrendswith(mine, ".h5", &h5ext));
    PetscCall(PetscStrlen(mine, &n));
    PetscCall(PetscSNPrintf(name, len, "%.*s-reverse%s", (int)(h5ext ? n - 3 : n), mine, h5ext ? ".h5" : ""));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwKeepStoreCreate(RwAdjoint adj, Vec templ, PetscBool states, PetscInt64 slots, PetscInt nattach, const char file[], PetscBool keep, PetscBool overwrite, RwStore *store)
{
  RwModelType type;
  PetscMPIInt rank;
  int         exists = 0;

  PetscFunctionBegin;
  PetscCall(RwModelGetType(adj->model, &type));
  /* a run killed before its reverse sweep kept anything may have no keep file: start one */
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)adj), &rank));
  if (!rank) exists = access(file, F_OK) == 0;
  PetscCallMPI(MPI_Bcast(&exists, 1, MPI_INT, 0, PetscObjectComm((PetscObject)adj)));
  PetscCall(RwStoreCreate(PetscObjectComm((PetscObject)adj), store));
  PetscCall(RwStoreSetType(*store, RWSTOREHDF5));
  PetscCall(RwStoreSetSlots(*store, slots));
  PetscCall(RwStoreSetTemplate(*store, templ));
  if (states) PetscCall(RwAdjointStoreStateLayout_Private(adj, *store)); /* lambda and x: the model's layout; accumulators are fields */
  PetscCall(RwStoreSetInfo(*store, type, 0));
  PetscCall(RwStoreSetIdentity(*store, adj->problem));
  PetscCall(RwStoreSetSolve(*store, adj->solve));
  PetscCall(RwStoreSetAttachmentSize(*store, nattach));
  PetscCall(RwStoreSetRestart(*store, (PetscBool)(adj->restart && exists)));
  PetscCall(RwStoreHDF5SetFileOptions(*store, file, keep, overwrite));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Everything a reverse sweep accumulates on grids besides lambda: the model's
   gradient, then the objective terms' direct dJ/dm */
static PetscErrorCode RwKeepAccumulators(RwAdjoint adj, PetscInt *n, Vec acc[])
{
  PetscInt nobj;
  Vec     *oacc;

  PetscFunctionBegin;
  PetscCall(RwModelGetAdjointAccumulators(adj->model, n, acc));
  PetscCall(RwObjectiveGetAccumulators(adj->obj, &nobj, &oacc));
  PetscCheck(*n + nobj <= RW_MODEL_MAX_ACCUMULATORS, PetscObjectComm((PetscObject)adj), PETSC_ERR_SUP, "At most %d accumulators can be kept", RW_MODEL_MAX_ACCUMULATORS);
  for (PetscInt i = 0; i < nobj; i++) acc[(*n)++] = oacc[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Made with the checkpoint stores, at the first solve; the second file is the accumulators' */
PetscErrorCode RwAdjointKeepCreate_Private(RwAdjoint adj)
{
  PetscInt  nacc, nobj, nsum;
  Vec       acc[RW_MODEL_MAX_ACCUMULATORS];
  char      file[PETSC_MAX_PATH_LEN], gfile[PETSC_MAX_PATH_LEN];
  PetscBool keep, overwrite, h5ext;
  size_t    n;

  PetscFunctionBegin;
  if (adj->keep[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwKeepAccumulators(adj, &nacc, acc));
  PetscCall(RwObjectiveGetStateSize(adj->obj, &nobj));
  PetscCall(RwModelGetScalarGradientStateSize(adj->model, &nsum));
  adj->keepobj = nobj;
  PetscCall(PetscMalloc1(RW_KEEP_HEADER + nobj + nsum, &adj->keepattach));
  PetscCall(RwKeepFileName(adj, file, sizeof(file), &keep, &overwrite));
  PetscCall(PetscStrendswith(file, ".h5", &h5ext));
  PetscCall(PetscStrlen(file, &n));
  PetscCall(PetscSNPrintf(gfile, sizeof(gfile), "%.*s-gradient%s", (int)(h5ext ? n - 3 : n), file, h5ext ? ".h5" : ""));
  PetscCall(RwKeepStoreCreate(adj, adj->W, PETSC_TRUE, 4, RW_KEEP_HEADER + nobj + nsum, file, keep, overwrite, &adj->keep[0]));
  PetscCall(RwKeepStoreCreate(adj, acc[0], PETSC_FALSE, 2 * nacc, 0, gfile, keep, overwrite, &adj->keep[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointKeepBegin_Private(RwAdjoint adj)
{
  PetscFunctionBegin;
  if (!adj->keep[0]) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 0; l < 2; l++) {
    PetscCall(RwStoreSetSolve(adj->keep[l], adj->solve));
    PetscCall(RwStoreResetCounts(adj->keep[l]));
  }
  adj->keepseq = 0;
  PetscCall(PetscTime(&adj->keeplast));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointKeepEnd_Private(RwAdjoint adj)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < 2; l++)
    if (adj->keep[l]) PetscCall(RwStoreSetComplete(adj->keep[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a keep is due after reversing step k: every rank must agree, so a
   time interval is decided by rank 0's clock */
static PetscErrorCode RwKeepDue(RwAdjoint adj, PetscInt64 k, PetscBool *due)
{
  PetscLogDouble now;
  int            flag;

  PetscFunctionBegin;
  *due = PETSC_FALSE;
  if (k == 0) PetscFunctionReturn(PETSC_SUCCESS); /* the sweep is over: nothing to resume */
  if (adj->keepinterval && (adj->n - k) % adj->keepinterval == 0) *due = PETSC_TRUE;
  if (!*due && adj->keepseconds > 0) {
    PetscCall(PetscTime(&now));
    flag = now - adj->keeplast >= adj->keepseconds;
    PetscCallMPI(MPI_Bcast(&flag, 1, MPI_INT, 0, PetscObjectComm((PetscObject)adj)));
    *due = flag ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After REVERSE k: lam[0] = lambda_k, N = x_k */
PetscErrorCode RwAdjointKeepStep_Private(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscInt       nacc;
  Vec            acc[RW_MODEL_MAX_ACCUMULATORS];
  PetscInt64     q, b;
  PetscBool      due;
  PetscLogDouble t0, t1;
  RwStoreCounts  c0, c1;

  PetscFunctionBegin;
  if (!adj->keep[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwKeepDue(adj, k, &due));
  if (!due) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&t0));
  q = ++adj->keepseq;
  b = q % 2;
  PetscCall(RwKeepAccumulators(adj, &nacc, acc));
  for (PetscInt i = 0; i < nacc; i++) PetscCall(RwStoreWrite(adj->keep[1], b * nacc + i, q, acc[i]));
  RwAdjointMaybeKill(adj, adj->killkeep, q); /* tests: a keep torn half way */
  adj->keepattach[0] = q;
  adj->keepattach[1] = k;
  adj->keepattach[2] = run->action;
  adj->keepattach[3] = run->n; /* where an online run stopped: its schedule's stream after the stop depends on it */
  PetscCall(RwObjectiveExportState(adj->obj, adj->keepattach + RW_KEEP_HEADER));
  /* the model's exact sums of scalar-gradient terms: kept like the objective's */
  PetscCall(RwModelExportScalarGradient(adj->model, adj->keepattach + RW_KEEP_HEADER + adj->keepobj));
  PetscCall(RwStoreSetAttachment(adj->keep[0], adj->keepattach));
  PetscCall(RwStoreWrite(adj->keep[0], 2 * b, q, adj->lam[0]));
  PetscCall(RwStoreWrite(adj->keep[0], 2 * b + 1, q, adj->N)); /* last: its header makes the buffer whole */
  /* the stores commit a write with the flush of the next one: make the whole keep durable now */
  PetscCall(RwStoreSync(adj->keep[1]));
  PetscCall(RwStoreSync(adj->keep[0]));
  PetscCall(RwStoreGetCounts(adj->keep[0], &c0));
  PetscCall(RwStoreGetCounts(adj->keep[1], &c1));
  PetscCall(PetscTime(&t1));
  adj->keeplast = t1;
  adj->counts.keeps++;
  adj->counts.seconds_keep += t1 - t0;
  adj->counts.bytes_kept = c0.bytes_written + c1.bytes_written;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The newer whole buffer: its sequence number (0: none) and header */
static PetscErrorCode RwKeepFind(RwAdjoint adj, PetscInt64 *best)
{
  PetscInt64 sv[4], av[2 * RW_MODEL_MAX_ACCUMULATORS], hdr[RW_KEEP_HEADER];
  PetscInt   nacc;
  Vec        acc[RW_MODEL_MAX_ACCUMULATORS];

  PetscFunctionBegin;
  *best = 0;
  PetscCall(RwKeepAccumulators(adj, &nacc, acc));
  PetscCall(RwStoreGetValidSteps(adj->keep[0], sv));
  PetscCall(RwStoreGetValidSteps(adj->keep[1], av));
  for (PetscInt64 b = 0; b < 2; b++) {
    PetscInt64 q     = sv[2 * b + 1];
    PetscBool  whole = (PetscBool)(q > 0 && q % 2 == b && sv[2 * b] == q);

    for (PetscInt i = 0; i < nacc && whole; i++) whole = (PetscBool)(av[b * nacc + i] == q);
    if (!whole || q <= *best) continue;
    PetscCall(RwStoreGetAttachment(adj->keep[0], 2 * b + 1, adj->keepattach));
    PetscCall(PetscArraycpy(hdr, adj->keepattach, RW_KEEP_HEADER));
    if (hdr[0] == q && hdr[3] >= 2 && hdr[3] <= adj->n && hdr[1] >= 1 && hdr[1] < hdr[3] && hdr[2] > 0) *best = q;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's first `actions` actions again, which end with REVERSE k,
   told of the stop at step stop where the run was (an online schedule's
   stream depends on it from there on) when the advance that reached it comes
   by; want: what each slot of each level holds after them.  The schedule is
   left there, where the resumed run goes on */
static PetscErrorCode RwKeepReplay(RwAdjoint adj, PetscInt64 actions, PetscInt64 stop, PetscInt64 *want[], PetscInt64 *k)
{
  RwAction  act  = {RW_ACTION_END, 0, 0, 0, 0};
  PetscBool told = (PetscBool)(stop == adj->n); /* a run that did not stop early */

  PetscFunctionBegin;
  PetscCall(RwScheduleReset(adj->sched));
  for (PetscInt64 i = 0; i < actions; i++) {
    PetscCall(RwScheduleNext(adj->sched, &act));
    PetscCheck(act.type != RW_ACTION_END, PetscObjectComm((PetscObject)adj), PETSC_ERR_FILE_UNEXPECTED, "The reverse-sweep keep records %" PetscInt64_FMT " schedule actions, but this schedule has only %" PetscInt64_FMT, actions, i);
    if (!told && act.type == RW_ACTION_ADVANCE && act.b == stop) {
      PetscCall(RwScheduleStopAt(adj->sched, stop));
      told = PETSC_TRUE;
    }
    if (act.type == RW_ACTION_STORE) want[act.level][act.slot] = act.a;
    if (act.type == RW_ACTION_FREE) want[act.level][act.slot] = -1;
  }
  PetscCheck(act.type == RW_ACTION_REVERSE && act.a == *k, PetscObjectComm((PetscObject)adj), PETSC_ERR_FILE_UNEXPECTED, "The reverse-sweep keep records step %" PetscInt64_FMT " after %" PetscInt64_FMT " schedule actions, but this schedule does something else there", *k, actions);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slot, among those holding what the schedule expects, with the highest step <= k; -1: x_0 from u0 */
static void RwKeepNearest(const PetscInt64 slots[], PetscInt64 *want[], PetscInt64 *have[], PetscInt64 k, PetscInt *lbest, PetscInt64 *sbest)
{
  PetscInt64 best = 0;

  *lbest = -1;
  *sbest = -1;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    for (PetscInt64 s = 0; s < slots[l]; s++)
      if (want[l][s] >= 0 && have[l][s] == want[l][s] && want[l][s] <= k && want[l][s] > best) {
        best   = want[l][s];
        *lbest = l;
        *sbest = s;
      }
}

/* Makes again, lowest step first, every checkpoint the rest of the schedule restores and the stores lost;
   slots: each level's, 0 where the schedule uses no store */
static PetscErrorCode RwKeepRefill(RwAdjoint adj, RwRun *run, const PetscInt64 slots[], PetscInt64 *want[], PetscInt64 *have[])
{
  PetscFunctionBegin;
  for (;;) {
    PetscInt   lm = -1, lb;
    PetscInt64 sm = -1, sb, km = RW_INT64_MAX;
    RwAction   act;

    for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
      for (PetscInt64 s = 0; s < slots[l]; s++)
        if (want[l][s] >= 0 && have[l][s] != want[l][s] && want[l][s] < km) {
          km = want[l][s];
          lm = l;
          sm = s;
        }
    if (lm < 0) break;
    RwKeepNearest(slots, want, have, km, &lb, &sb);
    if (lb < 0) {
      PetscCall(VecCopy(run->u0, adj->W));
      run->w = 0;
    } else {
      PetscCall(RwStoreRead(adj->store[lb], sb, want[lb][sb], adj->W));
      run->w = want[lb][sb];
    }
    adj->counts.regenerated_steps += km - run->w;
    PetscCall(RwAdjointAdvance_Private(adj, run, run->w, km));
    act.type  = RW_ACTION_STORE;
    act.level = lm;
    act.slot  = sm;
    act.a = act.b = km;
    PetscCall(RwAdjointStore_Private(adj, run, &act));
    have[lm][sm] = km;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_restart: goes on from the newer whole keep of this solve's reverse sweep, if there is one */
PetscErrorCode RwAdjointKeepResume_Private(RwAdjoint adj, RwRun *run, PetscBool *resumed)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)adj);
  PetscInt64 q, b, k, actions, stop, *want[RW_NUM_LEVELS] = {NULL, NULL}, *have[RW_NUM_LEVELS] = {NULL, NULL}, slots[RW_NUM_LEVELS] = {0, 0};
  PetscInt   nacc;
  Vec        acc[RW_MODEL_MAX_ACCUMULATORS];

  PetscFunctionBegin;
  *resumed = PETSC_FALSE;
  if (!adj->keep[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwKeepFind(adj, &q));
  if (!q) PetscFunctionReturn(PETSC_SUCCESS);
  b = q % 2;
  PetscCall(RwStoreGetAttachment(adj->keep[0], 2 * b + 1, adj->keepattach));
  k       = adj->keepattach[1];
  actions = adj->keepattach[2];
  stop    = adj->keepattach[3];
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetSlots(adj->store[l], &slots[l]));
    PetscCall(PetscMalloc2(slots[l], &want[l], slots[l], &have[l]));
    for (PetscInt64 s = 0; s < slots[l]; s++) want[l][s] = -1;
    PetscCall(RwStoreGetValidSteps(adj->store[l], have[l]));
  }
  PetscCall(RwKeepReplay(adj, actions, stop, want, &k));
  /* the objective's sum is complete, the model accumulates into what was kept */
  if (stop < adj->n) PetscCall(RwObjectiveSetLastStep_Private(adj->obj, stop));
  PetscCall(RwObjectiveImportState(adj->obj, adj->keepattach + RW_KEEP_HEADER));
  run->n         = stop;
  run->reached   = stop;
  run->reversing = PETSC_TRUE;
  PetscCall(RwKeepRefill(adj, run, slots, want, have));
  PetscCall(RwModelAdjointBegin(adj->model));
  PetscCall(RwKeepAccumulators(adj, &nacc, acc));
  for (PetscInt i = 0; i < nacc; i++) PetscCall(RwStoreRead(adj->keep[1], b * nacc + i, q, acc[i]));
  PetscCall(RwModelImportScalarGradient(adj->model, adj->keepattach + RW_KEEP_HEADER + adj->keepobj));
  PetscCall(RwStoreRead(adj->keep[0], 2 * b, q, adj->lam[0]));
  PetscCall(RwStoreRead(adj->keep[0], 2 * b + 1, q, adj->N));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(PetscFree2(want[l], have[l]));
  /* the schedule goes on after the REVERSE k it kept, where RwKeepReplay() left it (refilling does not move it) */
  run->action                    = actions;
  run->w                         = -1;
  adj->keepseq                   = q;
  adj->counts.reverse_steps      = stop - k;
  adj->counts.resumed_reverse_at = k;
  /* for the progress monitor: the reversals done, and a share of the recomputations in proportion */
  PetscCall(RwAdjointMonitorSkip_Private(adj, (stop - k) + (adj->monitortotal - adj->n) * (stop - k) / stop));
  *resumed                       = PETSC_TRUE;
  PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: -rw_restart resumes the reverse sweep after step %" PetscInt64_FMT " of %" PetscInt64_FMT " from its keep (%" PetscInt64_FMT " steps recomputed to refill checkpoints)\n", k, stop, adj->counts.regenerated_steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}
