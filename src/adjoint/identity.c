/*
  Identities: a restart (-rw_restart) may resume only the very solve that was
  interrupted.  The problem's identity says what determines the states of
  every solve of this driver (model, grid, dt, steps, schedule, objective
  terms, stop), the solve's what tells one solve of it from another
  (checksums of m, u0, the objective's data and the model's identity now).
  Both are the same on any number of ranks; the stores keep them with their
  files and compare them when they reopen one.
*/
#include <rewind/private/adjointimpl.h>

/* What determines the states of every solve of this driver: the problem, as
   "name value" items a refused restart can name (RwIdentityDiff()) */
PetscErrorCode RwAdjointProblemIdentity_Private(RwAdjoint adj)
{
  RwModel        model = adj->model;
  RwModelType    type;
  RwScheduleType stype;
  PetscInt       M[3], nlevels, nterms;
  PetscInt64     slots[RW_NUM_LEVELS] = {0, 0};
  char           id[2048], stop[64];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(RwModelGetType(model, &type));
  PetscCall(RwScheduleGetType(adj->sched, &stype));
  PetscCall(RwScheduleGetNumLevels(adj->sched, &nlevels));
  for (PetscInt l = 0; l < nlevels; l++) PetscCall(RwScheduleGetSlots(adj->sched, l, &slots[l]));
  PetscCall(RwObjectiveGetNumTerms(adj->obj, &nterms));
  PetscCall(RwAdjointStopDescribe_Private(adj, stop, sizeof(stop)));
  PetscCall(PetscSNPrintf(id, sizeof(id), "version %s; model %s (%s); grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "; dt %.17g; steps %" PetscInt64_FMT "; schedule %s with %" PetscInt64_FMT " + %" PetscInt64_FMT " slots; objective terms %" PetscInt_FMT "; stop %s", RW_VERSION_STRING, type, adj->modelid, M[0], M[1], M[2], (double)model->dt, adj->n, stype, slots[0], slots[1], nterms, stop));
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
