/*
  Identities: a restart (-rw_restart) may resume only the very solve that was
  interrupted.  The problem's identity says what determines the states of
  every solve of this driver (model, grid, dt, steps, objective terms, stop:
  RwAdjointGetIdentity()); the stores record it with the schedule too, since
  a kept file is read back only under the schedule that wrote it.  The
  solve's identity tells one solve of the problem from another (checksums of
  m, u0, the objective's data and the model's identity now).  All are the
  same on any number of ranks; the stores keep them with their files and
  compare them when they reopen one.
*/
#include <rewind/private/adjointimpl.h>

/* The problem's "name value" items, which a refused restart can name
   (RwIdentityDiff()), with schedule (NULL: none) as an item after the
   steps: one builder for the public identity and the stores', so that the
   two cannot drift.  The order is what checkpoint files record: fixed */
static PetscErrorCode RwAdjointIdentityBuild(RwAdjoint adj, const char schedule[], char id[], size_t len)
{
  RwModelType type;
  DM          da;
  PetscReal   dt;
  PetscInt    M[3], nterms;
  char        stop[64], item[320] = "";
  size_t      need;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(adj->model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(RwModelGetType(adj->model, &type));
  PetscCall(RwModelGetTimeStep(adj->model, &dt));
  PetscCall(RwObjectiveGetNumTerms(adj->obj, &nterms));
  PetscCall(RwAdjointStopDescribe_Private(adj, stop, sizeof(stop)));
  if (schedule) PetscCall(PetscSNPrintf(item, sizeof(item), "; %s", schedule));
  PetscCall(PetscSNPrintfCount(id, len, "version %s; model %s (%s); grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "; dt %.17g; steps %" PetscInt64_FMT "%s; objective terms %" PetscInt_FMT "; stop %s", &need, RW_VERSION_STRING, type, adj->modelid, M[0], M[1], M[2], (double)dt, adj->n, item, nterms, stop));
  if (need > len && len) id[0] = 0; /* a caller that goes on after the error finds no identity rather than part of one */
  PetscCheck(need <= len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The identity of the problem needs %zu characters, the buffer has %zu", need, len);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointGetIdentity - the identity of the problem every solve of this
  driver belongs to: what determines the states beyond a solve's own data
  (m, u0, the objective's data), as "name value" items separated by "; "

  Not collective; the same text on every rank and on any number of ranks

  Input Parameters:
+ adj - the driver, set up
- len - the size of id

  Output Parameter:
. id - the identity: version, model type and identity, grid, dt, steps,
       objective terms, stop

  Level: intermediate

  Notes:
  How states are checkpointed does not change them, so the schedule is no
  item: solves under storeall and under revolve belong to the same problem,
  and a record of an evaluation (J and its gradient at some m) made under one
  holds under the other.  The identity a checkpoint file records
  (RwStoreSetIdentity()) is this one with the schedule and its slots after
  the steps, since a kept file is read back only under the schedule that
  wrote it.  Computed on each call, from the model's identity as it was at
  RwAdjointSetUp().

.seealso: RwAdjointSetUp(), RwModelGetIdentity(), RwStoreSetIdentity()
@*/
PetscErrorCode RwAdjointGetIdentity(RwAdjoint adj, char id[], size_t len)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidCharPointer(id, 2);
  PetscCheck(adj->setupcalled, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Call RwAdjointSetUp() before RwAdjointGetIdentity(): the steps and the model's identity are fixed there");
  PetscCall(RwAdjointIdentityBuild(adj, NULL, id, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The identity the stores record: the problem's, with the schedule and its
   slots after the steps (made once, at the first store creation) */
PetscErrorCode RwAdjointProblemIdentity_Private(RwAdjoint adj)
{
  RwScheduleType stype;
  PetscInt       nlevels;
  PetscInt64     slots[RW_NUM_LEVELS] = {0, 0};
  char           id[2048], schedule[288];

  PetscFunctionBegin;
  PetscCall(RwScheduleGetType(adj->sched, &stype));
  PetscCall(RwScheduleGetNumLevels(adj->sched, &nlevels));
  for (PetscInt l = 0; l < nlevels; l++) PetscCall(RwScheduleGetSlots(adj->sched, l, &slots[l]));
  PetscCall(PetscSNPrintf(schedule, sizeof(schedule), "schedule %s with %" PetscInt64_FMT " + %" PetscInt64_FMT " slots", stype, slots[0], slots[1]));
  PetscCall(RwAdjointIdentityBuild(adj, schedule, id, sizeof(id)));
  PetscCall(PetscFree(adj->problem));
  PetscCall(PetscStrallocpy(id, &adj->problem));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What tells one solve of the problem from another: checksums of every
   parameter field, the global scalars, u0 and the objective's data, each in
   natural order, so the same on any number of ranks, and of the model's
   identity now (rewind-fwi moves the source between solves) */
PetscErrorCode RwAdjointSolveIdentity_Private(RwAdjoint adj, Vec m, Vec u0)
{
  RwModel            model = adj->model;
  PetscInt           nfields, nscalars;
  const char *const *fieldnames;
  uint64_t           sum, scalars;
  size_t             used;
  RwScheduleCounts   pred;
  PetscBool          kept = (PetscBool)(adj->restart || adj->keepinterval || adj->keepseconds > 0);

  PetscFunctionBegin;
  adj->solve[0] = 0;
  /* only stores that keep what they hold beyond the run need to tell solves apart:
     with RAM checkpoints alone the pass over m, u0 and the data is not made */
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    PetscBool memory;

    PetscCall(PetscStrcmp(adj->storetype[l], RWSTOREMEMORY, &memory));
    if (pred.max_slots_used[l] && !memory) kept = PETSC_TRUE;
  }
  if (!kept) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwModelGetParameterInfo(model, &nfields, &fieldnames, NULL));
  PetscCall(RwModelGetNumParameterScalars(model, &nscalars));
  scalars = RwSplitMix64((uint64_t)nscalars);
  for (PetscInt f = 0; f < nfields; f++) {
    Vec v;

    PetscCall(RwModelGetParameterField(model, m, f, &v));
    PetscCall(RwVecChecksum(v, &sum));
    PetscCall(RwModelRestoreParameterField(model, m, f, &v));
    PetscCall(PetscStrlen(adj->solve, &used));
    PetscCall(PetscSNPrintf(adj->solve + used, sizeof(adj->solve) - used, "m.%s %016llx; ", fieldnames[f], (unsigned long long)sum));
  }
  PetscCall(RwModelGetParameterScalars(model, m, adj->scalars)); /* one broadcast */
  for (PetscInt i = 0; i < nscalars; i++) {
    uint64_t bits;

    memcpy(&bits, &adj->scalars[i], sizeof(bits));
    scalars = RwSplitMix64(scalars ^ bits);
  }
  PetscCall(PetscStrlen(adj->solve, &used));
  PetscCall(PetscSNPrintf(adj->solve + used, sizeof(adj->solve) - used, "m.scalars %016llx; ", (unsigned long long)scalars));
  PetscCall(RwVecChecksum(u0, &sum));
  PetscCall(PetscStrlen(adj->solve, &used));
  PetscCall(PetscSNPrintf(adj->solve + used, sizeof(adj->solve) - used, "u0 %016llx; ", (unsigned long long)sum));
  PetscCall(RwObjectiveGetChecksum(adj->obj, &sum));
  PetscCall(PetscStrlen(adj->solve, &used));
  PetscCall(PetscSNPrintf(adj->solve + used, sizeof(adj->solve) - used, "objective data %016llx; ", (unsigned long long)sum));
  {
    char mid[sizeof(adj->modelid)] = "";

    PetscCall(RwModelGetIdentity(model, mid, sizeof(mid)));
    PetscCall(PetscStrlen(adj->solve, &used));
    PetscCall(PetscSNPrintf(adj->solve + used, sizeof(adj->solve) - used, "model %016llx", (unsigned long long)RwHashBytes(0, mid, strlen(mid))));
  }
  PetscCall(PetscStrlen(adj->solve, &used));
  PetscCheck(used + 1 < sizeof(adj->solve), PETSC_COMM_SELF, PETSC_ERR_SUP, "The identity of a solve of a model with %" PetscInt_FMT " parameter fields does not fit in %d characters", nfields, (int)sizeof(adj->solve));
  PetscFunctionReturn(PETSC_SUCCESS);
}
