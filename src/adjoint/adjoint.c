/*
  RwAdjoint: the driver.  It executes the actions of a schedule:

    ADVANCE a b     step the working state W from x_a to x_b; the first time a
                    state is reached its objective terms are evaluated
    STORE l s k     keep W = x_k in slot s of level l's store: the memory store
                    takes W's vector itself and gives a free one for it, which
                    replaces W's handle before the driver next writes into it
                    (RwAdjointOwn()); other stores copy
    RESTORE l s k   W := x_k from the store, or from the input u0 when k = 0
                    (by exchanging W's vector for one of the store's where it can)
    FREE l s        release the slot
    REVERSE k       W = x_k, N = x_k+1: lambda_k = A_k^T lambda_k+1 + dJ/du_k,
                    dJ/dm += (du_k+1/dm)^T lambda_k+1; then N := x_k (a swap of
                    handles, no copy), so the next REVERSE finds its x_k+1.
                    The first REVERSE (k = n-1) takes the one step to x_n into N.

  Nothing is allocated during a solve; the stores, made at the first solve,
  hold exactly the slots the schedule predicts it will use.

  Restart: every checkpoint of the first forward sweep keeps, beside its state,
  the exact partial sum of J up to its step.  With -rw_restart and a store that
  keeps its file (hdf5), a solve replays the schedule's first sweep without
  executing it as far as the kept checkpoints agree with it, reads the last of
  them and carries on; the sums are exact, so J and the gradient come out bit
  for bit as in an uninterrupted run.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/storeimpl.h> /* RwStoreSetTypeFromOption() */
#include <signal.h>

PetscClassId RW_ADJOINT_CLASSID;

/* The handle *x (W, N or T) may be on a vector a memory slot holds since a
   STORE took it (adj->lent): before the driver writes into *x or hands it to a
   store, the free vector the store gave for it takes its place; its values are
   undefined, as a scratch vector's */
static void RwAdjointOwn(RwAdjoint adj, Vec *x)
{
  if (!adj->lent || *x != adj->lent) return;
  *x         = adj->spare;
  adj->lent  = NULL;
  adj->spare = NULL;
}

/* Every handle on the driver's own vectors again: between solves, before destroying them */
static void RwAdjointOwnAll(RwAdjoint adj)
{
  RwAdjointOwn(adj, &adj->W);
  RwAdjointOwn(adj, &adj->N);
  RwAdjointOwn(adj, &adj->T);
  RwAdjointOwn(adj, &adj->X);
}

#define RwVecSwap(a, b) \
  do { \
    Vec t_ = (a); \
    (a)    = (b); \
    (b)    = t_; \
  } while (0)

/*@
  RwAdjointCreate - a driver for a model and an objective

  Collective

  Input Parameters:
+ model - the model (set up, or set up here)
- obj   - the objective

  Output Parameter:
. adj - the driver

  Level: beginner

.seealso: RwAdjointSetFromOptions(), RwAdjointSolve(), RwTangentSolve()
@*/
PetscErrorCode RwAdjointCreate(RwModel model, RwObjective obj, RwAdjoint *adj)
{
  RwAdjoint a;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidPointer(adj, 3);
  PetscCall(RwInitializePackage());
  PetscCall(PetscHeaderCreate(a, RW_ADJOINT_CLASSID, "RwAdjoint", "Adjoint driver", "RwAdjoint", PetscObjectComm((PetscObject)model), RwAdjointDestroy, RwAdjointView));
  PetscCall(PetscObjectReference((PetscObject)model));
  PetscCall(PetscObjectReference((PetscObject)obj));
  a->model         = model;
  a->obj           = obj;
  a->checkinterval = 50;
  a->ramfraction   = 0.5;
  a->killat        = -1;
  a->killreverse   = -1;
  a->killaction    = -1;
  a->killkeep      = -1;
  PetscCall(PetscStrncpy(a->storetype[RW_LEVEL_RAM], RWSTOREMEMORY, sizeof(a->storetype[0])));
  PetscCall(PetscStrncpy(a->storetype[RW_LEVEL_DISK], RWSTOREHDF5, sizeof(a->storetype[0])));
  *adj = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule and the stores made later take the driver's prefix; one made already follows it */
static PetscErrorCode RwAdjointPrefixChildren(RwAdjoint adj)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
  if (adj->sched) PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adj->sched, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointSetOptionsPrefix - the prefix of every option of the driver and of
  the schedule and stores it makes (-<prefix>rw_steps, -<prefix>rw_schedule_type, ...)

  Logically collective; before RwAdjointSetFromOptions()

  Level: intermediate

.seealso: RwAdjointAppendOptionsPrefix(), RwAdjointGetOptionsPrefix()
@*/
PetscErrorCode RwAdjointSetOptionsPrefix(RwAdjoint adj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(!adj->setupcalled, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Set the options prefix before RwAdjointSetUp()");
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adj, prefix));
  PetscCall(RwAdjointPrefixChildren(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointAppendOptionsPrefix - appends to the prefix of the driver and its children

  Logically collective; before RwAdjointSetFromOptions()

  Level: intermediate

.seealso: RwAdjointSetOptionsPrefix()
@*/
PetscErrorCode RwAdjointAppendOptionsPrefix(RwAdjoint adj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(!adj->setupcalled, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Set the options prefix before RwAdjointSetUp()");
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)adj, prefix));
  PetscCall(RwAdjointPrefixChildren(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointGetOptionsPrefix - the driver's options prefix (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwAdjointGetOptionsPrefix(RwAdjoint adj, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSetSteps - the number of time steps n of a run: sets the model's
  (RwModelSetSteps()), which owns the time grid

  Logically collective; before RwAdjointSetUp()

  Options Database Key:
. -rw_steps <n> - the number of steps

  Level: beginner

.seealso: RwModelSetSteps()
@*/
PetscErrorCode RwAdjointSetSteps(RwAdjoint adj, PetscInt64 n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(!adj->setupcalled || n == adj->n, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Set the number of steps before RwAdjointSetUp()");
  PetscCall(RwModelSetSteps(adj->model, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetSteps - the number of time steps, the model's

  Not collective

  Level: beginner
@*/
PetscErrorCode RwAdjointGetSteps(RwAdjoint adj, PetscInt64 *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(RwModelGetSteps(adj->model, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSetSchedule - the checkpointing schedule; by default the driver
  creates one from the options (-rw_schedule_type, storeall if not given)

  Logically collective

  Level: intermediate

.seealso: RwAdjointGetSchedule()
@*/
PetscErrorCode RwAdjointSetSchedule(RwAdjoint adj, RwSchedule sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(!adj->setupcalled, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Set the schedule before RwAdjointSetUp()");
  PetscCall(PetscObjectReference((PetscObject)sched));
  PetscCall(RwScheduleDestroy(&adj->sched));
  adj->sched = sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetSchedule - the schedule (created if there is none yet)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwAdjointGetSchedule(RwAdjoint adj, RwSchedule *sched)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  if (!adj->sched) {
    const char *prefix;
    PetscCall(RwScheduleCreate(PETSC_COMM_SELF, &adj->sched));
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adj->sched, prefix));
  }
  *sched = adj->sched;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetStore - the store of a level (after set-up; NULL if the schedule does not use it)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwAdjointGetStore(RwAdjoint adj, PetscInt level, RwStore *store)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(level >= 0 && level < RW_NUM_LEVELS, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "Level %" PetscInt_FMT " must be 0 (RAM) or 1 (disk)", level);
  *store = adj->store[level];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Without a choice, every state is kept in RAM (or, when they do not fit the
   default budget, revolve in it: RwAdjointDefaultBudget_Private()); says whether a type was chosen */
static PetscErrorCode RwAdjointDefaultSchedule(RwSchedule sched, PetscBool *chosen)
{
  const char *type;

  PetscFunctionBegin;
  PetscCall(RwScheduleGetType(sched, &type));
  *chosen = type ? PETSC_TRUE : PETSC_FALSE;
  if (!type) PetscCall(RwScheduleSetType(sched, RWSCHEDULESTOREALL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule needs the bytes of a state to turn memory budgets into slots */
static PetscErrorCode RwAdjointPrepareSchedule(RwAdjoint adj)
{
  RwSchedule sched;
  PetscInt64 rankmax, total;

  PetscFunctionBegin;
  PetscCall(RwModelSetUp(adj->model));
  adj->n = adj->model->n; /* the model owns the time grid: a copy, fixed once set up */
  PetscCall(RwAdjointGetSchedule(adj, &sched));
  PetscCall(RwModelGetStateBytes(adj->model, &rankmax, &total));
  PetscCall(RwScheduleSetStateBytes(sched, rankmax, total));
  PetscCall(RwScheduleSetSteps(sched, adj->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSetFromOptions - reads the driver's, the schedule's and the stores' options

  Collective

  Options Database Keys:
+ -rw_steps <n>                     - number of time steps (default 100)
. -rw_check_finite_interval <k>     - steps between collective checks for NaN/Inf in the states (default 50; the step where one first appeared is reported either way)
. -rw_store_type <memory,hdf5>      - store of a single-level schedule (default memory)
. -rw_store_disk_type <hdf5,memory> - store of the disk level of a multilevel schedule (default hdf5)
. -rw_restart                       - resume the solve a killed run was in (doc/checkpoints.md)
. -rw_adjoint_keep_interval <k>     - keep the reverse sweep every k steps, so that -rw_restart resumes it (also -rw_adjoint_keep_seconds, -rw_adjoint_keep_file)
. -rw_adjoint_monitor               - print the progress of each solve (RwAdjointMonitorSet())
. -rw_adjoint_view [viewer]         - RwAdjointView() at the end of each RwAdjointSolve()
- -rw_schedule_type ...             - see RwScheduleSetFromOptions()

  Level: beginner

.seealso: RwScheduleSetFromOptions()
@*/
PetscErrorCode RwAdjointSetFromOptions(RwAdjoint adj)
{
  RwSchedule sched;
  PetscInt64 n;
  PetscInt   ci = (PetscInt)adj->checkinterval, nnames = 16;
  PetscBool  set, chosen, active = PETSC_FALSE;
  char      *names[16];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)adj);
  PetscCall(RwModelGetSteps(adj->model, &n));
  PetscCall(RwOptionsInt64("-rw_steps", "Number of time steps", "RwModelSetSteps", n, &n, &set, 1, PETSC_MAX_INT));
  if (set) PetscCall(RwAdjointSetSteps(adj, n));
  PetscCall(RwOptionsInt("-rw_check_finite_interval", "Steps between collective checks for NaN/Inf in the states", "RwAdjointSetFromOptions", ci, &ci, NULL, 1, PETSC_MAX_INT));
  PetscCheck(ci >= 1, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "-rw_check_finite_interval %" PetscInt_FMT " must be >= 1", ci);
  adj->checkinterval = ci;
  PetscCall(PetscOptionsFList("-rw_store_type", "Store of a single-level schedule", "RwStoreSetType", RwStoreList, adj->storetype[0], adj->storetype[0], sizeof(adj->storetype[0]), NULL));
  PetscCall(PetscOptionsFList("-rw_store_disk_type", "Store of the disk level of a multilevel schedule", "RwStoreSetType", RwStoreList, adj->storetype[1], adj->storetype[1], sizeof(adj->storetype[1]), NULL));
  PetscCall(PetscOptionsBool("-rw_restart", "Resume the forward sweep from the checkpoints a killed run kept (hdf5 store, same file)", "RwAdjointSolve", adj->restart, &adj->restart, NULL));
  PetscCall(RwAdjointMonitorSetFromOptions_Private(adj, PetscOptionsObject));
  PetscCall(RwAdjointStopSetFromOptions_Private(adj, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-rw_adjoint_measured_costs", "After the first solve, re-plan the schedule with the measured step and disk costs", "RwAdjointGetMeasuredCosts", adj->usemeasured, &adj->usemeasured, NULL));
  {
    PetscInt k = (PetscInt)adj->keepinterval;
    PetscCall(RwOptionsInt("-rw_adjoint_keep_interval", "Reverse steps between keeps of the reverse sweep (lambda, gradient so far), from which -rw_restart resumes it (0: none)", "RwAdjointSolve", k, &k, NULL, 0, PETSC_MAX_INT));
    adj->keepinterval = k;
  }
  PetscCall(PetscOptionsReal("-rw_adjoint_keep_seconds", "Seconds between keeps of the reverse sweep (0: none)", "RwAdjointSolve", adj->keepseconds, &adj->keepseconds, NULL));
  PetscCheck(adj->keepseconds >= 0, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "-rw_adjoint_keep_seconds %g: expected seconds > 0, or 0 for none", (double)adj->keepseconds);
  PetscCall(PetscOptionsString("-rw_adjoint_keep_file", "File of the reverse-sweep keep (default: the checkpoint file's name with -reverse, or rewind-reverse.h5)", "RwAdjointSolve", adj->keepfile, adj->keepfile, sizeof(adj->keepfile), NULL));
  {
    PetscInt k[5] = {(PetscInt)adj->killat, (PetscInt)adj->killreverse, (PetscInt)adj->killaction, (PetscInt)adj->killsolve, (PetscInt)adj->killkeep};
    PetscCall(RwOptionsInt("-rw_debug_kill_at_step", "Testing: the process kills itself (SIGKILL) when the first forward sweep reaches this step", "RwAdjointSolve", k[0], &k[0], NULL, -1, PETSC_MAX_INT));
    PetscCall(RwOptionsInt("-rw_debug_kill_at_reverse", "Testing: SIGKILL right after reversing this step (and keeping it, if due)", "RwAdjointSolve", k[1], &k[1], NULL, -1, PETSC_MAX_INT));
    PetscCall(RwOptionsInt("-rw_debug_kill_at_action", "Testing: SIGKILL before this schedule action (from 0; see rewind-schedule)", "RwAdjointSolve", k[2], &k[2], NULL, -1, PETSC_MAX_INT));
    PetscCall(RwOptionsInt("-rw_debug_kill_solve", "Testing: the solve, from 0, in which the kills above fire", "RwAdjointSolve", k[3], &k[3], NULL, 0, PETSC_MAX_INT));
    adj->killat      = k[0];
    adj->killreverse = k[1];
    adj->killaction  = k[2];
    PetscCall(RwOptionsInt("-rw_debug_kill_in_keep", "Testing: SIGKILL half way through writing this keep of the reverse sweep (from 1)", "RwAdjointSolve", k[4], &k[4], NULL, -1, PETSC_MAX_INT));
    adj->killsolve   = k[3];
    adj->killkeep    = k[4];
  }
  PetscCall(PetscOptionsReal("-rw_checkpoint_ram_fraction", "Without RAM slots or -rw_checkpoint_ram: the fraction of the node's available memory, shared by its ranks, that checkpoints may use", "RwAdjointSetFromOptions", adj->ramfraction, &adj->ramfraction, NULL));
  PetscCheck(adj->ramfraction > 0 && adj->ramfraction <= 1, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "-rw_checkpoint_ram_fraction %g must be in (0, 1]", (double)adj->ramfraction);
  {
    char mem[64] = "";

    PetscCall(PetscOptionsString("-rw_checkpoint_node_memory", "The node's memory the default budget is a fraction of (default: MemAvailable of /proc/meminfo), e.g. 192GiB", "RwAdjointSetFromOptions", mem, mem, sizeof(mem), &set));
    if (set) PetscCall(RwParseBytes(mem, &adj->nodememory));
  }
  PetscCall(PetscOptionsStringArray("-rw_adjoint_active", "Parameters whose gradient is wanted (e.g. kappa): the reverse sweep may skip the others, whose gradient is then zero", "RwModelSetActiveParameters", names, &nnames, &active));
  PetscOptionsEnd();
  PetscCall(RwAdjointPrepareSchedule(adj)); /* sets the model up */
  if (active) {
    PetscCall(RwModelSetActiveParameters(adj->model, nnames, (const char *const *)names));
    for (PetscInt i = 0; i < nnames; i++) PetscCall(PetscFree(names[i]));
  }
  PetscCall(RwAdjointGetSchedule(adj, &sched));
  PetscCall(RwAdjointDefaultSchedule(sched, &chosen));
  PetscCall(RwScheduleSetFromOptions(sched));
  {
    const char *prefix;
    PetscBool   given;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)sched, &prefix));
    PetscCall(PetscOptionsHasName(((PetscObject)sched)->options, prefix, "-rw_schedule_type", &given));
    PetscCall(RwAdjointDefaultBudget_Private(adj, (PetscBool)(chosen || given)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What determines the states of every solve of this driver: the problem, as
   "name value" items a refused restart can name (RwIdentityDiff()) */
static PetscErrorCode RwAdjointProblemIdentity(RwAdjoint adj)
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
static PetscErrorCode RwAdjointSolveIdentity(RwAdjoint adj, Vec m, Vec u0)
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

/* One store per level the schedule uses, sized to the slots it will hold at
   most; made at the first solve, when the identity of the problem is known */
static PetscErrorCode RwAdjointCreateStores(RwAdjoint adj)
{
  RwScheduleCounts pred;
  RwModelType      type;
  PetscInt         nattach;

  PetscFunctionBegin;
  /* checkpoints keep the objective's partial sum: terms added since the last
     solve change its size, and the stores are made anew for it */
  PetscCall(RwObjectiveGetStateSize(adj->obj, &nattach));
  if (nattach + 1 != adj->nattach) {
    for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(RwStoreDestroy(&adj->store[l]));
    PetscCall(PetscFree(adj->attach));
    adj->nattach = nattach + 1;
    PetscCall(PetscCalloc1(adj->nattach, &adj->attach));
  }
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  PetscCall(RwModelGetType(adj->model, &type));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    const char *prefix;

    if (adj->store[l] || !pred.max_slots_used[l]) continue;
    if (!adj->problem) PetscCall(RwAdjointProblemIdentity(adj));
    PetscCall(RwStoreCreate(PetscObjectComm((PetscObject)adj), &adj->store[l]));
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)adj->store[l], prefix));
    PetscCall(RwStoreSetTypeFromOption(adj->store[l], adj->storetype[l], l == RW_LEVEL_DISK ? "-rw_store_disk_type" : "-rw_store_type"));
    PetscCall(RwStoreSetSlots(adj->store[l], pred.max_slots_used[l]));
    PetscCall(RwStoreSetTemplate(adj->store[l], adj->W));
    PetscCall(RwStoreSetInfo(adj->store[l], type, adj->model->dt));
    PetscCall(RwStoreSetIdentity(adj->store[l], adj->problem));
    PetscCall(RwStoreSetSolve(adj->store[l], adj->solve));
    PetscCall(RwStoreSetAttachmentSize(adj->store[l], adj->nattach));
    PetscCall(RwStoreSetRestart(adj->store[l], adj->restart));
    PetscCall(RwStoreSetFromOptions(adj->store[l]));
    PetscCall(RwStoreSetUp(adj->store[l]));
  }
  if (adj->keepinterval || adj->keepseconds > 0) {
    if (!adj->problem) PetscCall(RwAdjointProblemIdentity(adj));
    PetscCall(RwAdjointKeepCreate_Private(adj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSetUp - prepares the schedule, the stores and the work vectors; once

  Collective

  Level: intermediate

.seealso: RwAdjointSetFromOptions()
@*/
PetscErrorCode RwAdjointSetUp(RwAdjoint adj)
{
  RwSchedule sched;
  PetscBool  chosen;
  PetscInt   block, nscalars;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  if (adj->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointPrepareSchedule(adj));
  PetscCall(RwAdjointGetSchedule(adj, &sched));
  PetscCall(RwAdjointDefaultSchedule(sched, &chosen));
  PetscCall(RwAdjointDefaultBudget_Private(adj, chosen));
  PetscCall(RwScheduleSetUp(sched));
  PetscCall(RwModelGetIdentity(adj->model, adj->modelid, sizeof(adj->modelid)));
  PetscCall(RwModelCreateState(adj->model, &adj->W));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->N));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->T));
  PetscCall(RwModelGetStepBlock(adj->model, &block));
  if (block > 1) PetscCall(RwVecDuplicateStaggered(adj->W, &adj->X)); /* forward sweeps take pairs of steps */
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->lam[0]));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->lam[1]));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->dW));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->dT));
  PetscCall(RwModelGetNumParameterScalars(adj->model, &nscalars));
  PetscCall(PetscMalloc1(nscalars + 1, &adj->scalars));
  adj->setupcalled = PETSC_TRUE;
  PetscCall(PetscObjectViewFromOptions((PetscObject)adj->obj, NULL, "-rw_objective_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the executor ---------------------------------------------------------- */

static PetscErrorCode RwAdjointCheckFiniteEvery(RwAdjoint adj, PetscInt64 k)
{
  PetscFunctionBegin;
  if (k % adj->checkinterval == 0) PetscCall(RwModelCheckFinite(adj->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first sweep reached x_k (W; T = x_(k-1)): a stop test may end the run there */
static PetscErrorCode RwAdjointMaybeStop(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscBool stop;

  PetscFunctionBegin;
  if (k >= run->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointStopCheck_Private(adj, k, &stop));
  if (!stop) PetscFunctionReturn(PETSC_SUCCESS);
  run->n = k;
  PetscCall(RwObjectiveSetLastStep_Private(adj->obj, k));
  if (run->scheduled) PetscCall(RwScheduleStopAt(adj->sched, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Steps k .. k+T-1 from W = x_k: T = 2, a pair in one pass (RwModelStepBlock()),
   x_k+1 into T and x_k+2 into X; else x_k+1 into T.  A slot may hold T or X
   (x_(k-1), x_(k-2)), read no more: they are owned back first */
static PetscErrorCode RwAdjointStepFrom(RwAdjoint adj, PetscInt64 k, PetscInt T)
{
  PetscFunctionBegin;
  RwAdjointOwn(adj, &adj->T);
  if (T == 1) {
    PetscCall(RwModelStep(adj->model, k, adj->W, adj->T));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  RwAdjointOwn(adj, &adj->X);
  {
    Vec out[2] = {adj->T, adj->X};

    PetscCall(RwModelStepBlock(adj->model, k, T, adj->W, out));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether forward passes take pairs: where the model fuses them, but not
   under a stop test, which may end the run between the two */
static PetscBool RwAdjointPairs(RwAdjoint adj)
{
  return (PetscBool)(adj->X && !adj->stoptest && !(adj->stopsteady > 0));
}

/* The state of step t of a pass (0 or 1) into W, x_k into T: the first,
   x_k+1 from T; a pair's second, x_k+1 from X, while X takes x_(k-1) */
static void RwAdjointTakeState(RwAdjoint adj, PetscInt t)
{
  Vec old = adj->T;

  if (t == 0) {
    RwVecSwap(adj->W, adj->T);
    return;
  }
  adj->T = adj->W;
  adj->W = adj->X;
  adj->X = old;
}

/* W holds x_k+1: the stop test, the objective and the monitors in a first
   sweep (a recomputation's monitors otherwise), the NaN check */
static PetscErrorCode RwAdjointStepDone(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscFunctionBegin;
  if (k + 1 > run->reached) {
    PetscCall(RwAdjointMaybeStop(adj, run, k + 1));
    PetscCall(RwObjectiveEvaluate(adj->obj, k + 1, adj->W));
    run->reached = k + 1;
    PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_FORWARD, k + 1, adj->W));
    RwAdjointMaybeKill(adj, adj->killat, run->reached);
  } else PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_RECOMPUTE, k + 1, adj->W));
  PetscCall(RwAdjointCheckFiniteEvery(adj, k + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The steps of a pass, forward sweep or recomputation: pairs where the model
   fuses them (RwAdjointStepFrom(), RwAdjointPairs()); each step's state then
   goes through the same bookkeeping, in order, as if it had been taken alone */
PetscErrorCode RwAdjointAdvance_Private(RwAdjoint adj, RwRun *run, PetscInt64 a, PetscInt64 b)
{
  const PetscBool pairs = RwAdjointPairs(adj);
  PetscLogDouble  t0, t1;
  PetscInt        T = 0, t = 0; /* the pass's steps, and which of them k is */

  PetscFunctionBegin;
  PetscCheck(run->w == a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to advance from step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, a, run->w);
  PetscCall(PetscTime(&t0));
  for (PetscInt64 k = a; k < b; k++, t++) {
    if (t == T) { /* a new pass */
      T = pairs && b - k >= 2 ? 2 : 1;
      t = 0;
      PetscCall(RwAdjointStepFrom(adj, k, T));
    }
    RwAdjointTakeState(adj, t);
    PetscCall(RwAdjointStepDone(adj, run, k));
    if (k + 1 == run->n) b = k + 1; /* stopped, or at the end */
  }
  run->w = b;
  if (run->scheduled && b == run->n) { /* an online sweep ended at x_n: REVERSE n-1 finds x_(n-1) in W and x_n in N */
    RwVecSwap(adj->N, adj->W);
    RwVecSwap(adj->W, adj->T);
    run->w        = b - 1;
    run->lastkept = PETSC_TRUE;
  }
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_forward += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W into the slot: the memory store keeps W's vector itself, which the
   driver goes on reading as the next step's input (no copy). One vector is
   lent at a time: a lent T (x_(k-1), read no more) takes its spare first;
   while W or N is lent (a slot holds it and the driver still reads it: N is
   the next REVERSE's x_k+1) the state is copied */
static PetscErrorCode RwAdjointStoreW(RwAdjoint adj, RwStore store, const RwAction *act)
{
  Vec spare;

  PetscFunctionBegin;
  RwAdjointOwn(adj, &adj->T);
  if (adj->lent) {
    PetscCall(RwStoreWrite(store, act->slot, act->a, adj->W));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwStoreWriteTake(store, act->slot, act->a, adj->W, &spare));
  if (spare) {
    adj->lent  = adj->W;
    adj->spare = spare;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointStore_Private(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  RwStore   store = adj->store[act->level];
  PetscBool persistent;

  PetscFunctionBegin;
  PetscCheck(run->w == act->a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to store step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, act->a, run->w);
  /* the first sweep keeps J so far with each checkpoint a later run can resume
     from (a store that keeps them across runs); any other is marked unusable */
  PetscCall(RwStoreIsPersistent(store, &persistent));
  adj->attach[0] = !run->reversing && persistent ? 1 : 0;
  if (adj->attach[0]) PetscCall(RwObjectiveExportState(adj->obj, adj->attach + 1));
  PetscCall(RwStoreSetAttachment(store, adj->attach));
  PetscCall(RwAdjointStoreW(adj, store, act));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's next action, or the one the driver already looked at */
static PetscErrorCode RwAdjointNextAction(RwAdjoint adj, RwRun *run, RwAction *act)
{
  PetscFunctionBegin;
  if (run->hasnext) *act = run->next;
  else PetscCall(RwScheduleNext(adj->sched, act));
  run->hasnext = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the action after act frees act's slot: then its state can move
   into W instead of being copied (the FREE is still taken as usual) */
static PetscErrorCode RwAdjointFreedNext(RwAdjoint adj, RwRun *run, const RwAction *act, PetscBool *freed)
{
  PetscFunctionBegin;
  if (!run->hasnext) PetscCall(RwScheduleNext(adj->sched, &run->next));
  run->hasnext = PETSC_TRUE;
  *freed       = (PetscBool)(run->next.type == RW_ACTION_FREE && run->next.level == act->level && run->next.slot == act->slot);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwAdjointRestore(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  PetscBool freed = PETSC_FALSE;

  PetscFunctionBegin;
  RwAdjointOwn(adj, &adj->W); /* written or given to a slot below */
  if (act->slot < 0) { /* x_0 is the input: it takes no slot */
    PetscCheck(act->a == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule restores step %" PetscInt64_FMT " from no slot; only x_0 can be", act->a);
    PetscCall(VecCopy(run->u0, adj->W));
  } else {
    PetscCall(RwAdjointFreedNext(adj, run, act, &freed));
    if (freed) PetscCall(RwStoreReadAndFree(adj->store[act->level], act->slot, act->a, &adj->W));
    else PetscCall(RwStoreReadSwap(adj->store[act->level], act->slot, act->a, &adj->W)); /* the hdf5 store's prefetch buffer, without a copy */
  }
  run->w = act->a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's action i after the one just taken (0: the next), without taking it */
static PetscErrorCode RwAdjointPeekAction(RwAdjoint adj, RwRun *run, PetscInt i, RwAction *act, PetscBool *known)
{
  PetscFunctionBegin;
  *known = PETSC_TRUE;
  if (run->hasnext && i == 0) *act = run->next;
  else PetscCall(RwSchedulePeek(adj->sched, run->hasnext ? i - 1 : i, act, known));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The schedule's next action taken, as the executor counts it: the
   debugging kill at this action's index first, then the action */
static PetscErrorCode RwAdjointTakeAction(RwAdjoint adj, RwRun *run, RwAction *act)
{
  PetscFunctionBegin;
  RwAdjointMaybeKill(adj, adj->killaction, run->action);
  PetscCall(RwAdjointNextAction(adj, run, act));
  run->action++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a STORE or a RESTORE of a level whose store can read ahead: the
   level's next RESTORE, looked up in the schedule, is prefetched, unless a
   STORE to its slot comes first (then that STORE's own look-up posts it) */
static PetscErrorCode RwAdjointPrefetchNext(RwAdjoint adj, RwRun *run, const RwAction *act)
{
  RwStore    store = act->type == RW_ACTION_STORE || act->type == RW_ACTION_RESTORE ? adj->store[act->level] : NULL;
  PetscInt64 stored[RW_SCHEDULE_PEEK + 1];
  PetscInt   nstored = 0;
  PetscBool  known   = PETSC_TRUE, can = PETSC_FALSE;
  RwAction   next;

  PetscFunctionBegin;
  if (store) PetscCall(RwStoreCanPrefetch(store, &can));
  if (!can) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < RW_SCHEDULE_PEEK + (run->hasnext ? 1 : 0); i++) {
    PetscCall(RwAdjointPeekAction(adj, run, i, &next, &known));
    if (!known || next.type == RW_ACTION_END) break;
    if ((next.type != RW_ACTION_STORE && next.type != RW_ACTION_RESTORE) || next.level != act->level) continue;
    if (next.type == RW_ACTION_STORE) {
      stored[nstored++] = next.slot;
      continue;
    }
    if (next.slot < 0) break; /* x_0: no slot */
    for (PetscInt j = 0; j < nstored; j++)
      if (stored[j] == next.slot) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(RwStorePrefetch(store, next.slot, next.a));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lambda_k = A_k^T lambda_k+1 + dJ/du_k, with W = x_k and N = x_k+1 */
static PetscErrorCode RwAdjointReverse(RwAdjoint adj, RwRun *run, PetscInt64 k)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCheck(run->w == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to reverse step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, k, run->w);
  PetscCall(PetscTime(&t0));
  if (!run->reversing) { /* the first: take the last step to x_n, where lambda_n starts */
    PetscCheck(k == run->n - 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule reverses step %" PetscInt64_FMT " first, not the last step %" PetscInt64_FMT, k, run->n - 1);
    if (!run->lastkept) {
      RwAdjointOwn(adj, &adj->N);
      PetscCall(RwModelStep(adj->model, k, adj->W, adj->N));
      if (run->n > run->reached) {
        PetscCall(RwObjectiveEvaluate(adj->obj, run->n, adj->N));
        run->reached = run->n;
        PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_FORWARD, run->n, adj->N));
      } else PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_RECOMPUTE, run->n, adj->N));
    }
    PetscCall(RwModelCheckFinite(adj->model));
    PetscCall(VecSet(adj->lam[0], 0));
    PetscCall(RwModelAdjointBegin(adj->model)); /* first: the objective's direct dJ/dm may add to the model's sums */
    PetscCall(RwObjectiveAdjointSource(adj->obj, run->n, adj->N, adj->lam[0]));
    run->reversing = PETSC_TRUE;
  }
  PetscCall(RwModelStepAdjoint(adj->model, k, adj->W, adj->N, adj->lam[0], adj->lam[1]));
  PetscCall(RwObjectiveAdjointSource(adj->obj, k, adj->W, adj->lam[1]));
  RwVecSwap(adj->lam[0], adj->lam[1]); /* lam[0] = lambda_k */
  RwVecSwap(adj->N, adj->W);           /* N = x_k for the next reversal */
  run->w = -1;
  PetscCall(RwAdjointCheckFiniteEvery(adj, k));
  PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_REVERSE, k, adj->lam[0]));
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_reverse += t1 - t0;
  adj->counts.reverse_steps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ADVANCE k -> k+1, STORE x_k+1, ADVANCE k+1 -> k+2 as one pair of steps
  (store-all's sweep, and any stretch that keeps every state): x_k+1 and
  x_k+2 come from one pass, and the actions' effects follow in their
  order (x_k+1's bookkeeping, the STORE, x_k+2's bookkeeping), the kill
  hooks counting the three actions as the loop does.  Not where the second
  ADVANCE would end the run, whose last steps the sweep ends specially.
  fused says whether it did; act is the ADVANCE just taken
*/
static PetscErrorCode RwAdjointAdvanceStoring(RwAdjoint adj, RwRun *run, const RwAction *act, PetscBool *fused)
{
  RwAction       store, next;
  PetscBool      known[2];
  PetscLogDouble t0, t1, s0, s1;

  PetscFunctionBegin;
  *fused = PETSC_FALSE;
  if (!RwAdjointPairs(adj) || act->b != act->a + 1 || act->b + 1 >= run->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAdjointPeekAction(adj, run, 0, &store, &known[0]));
  PetscCall(RwAdjointPeekAction(adj, run, 1, &next, &known[1]));
  if (!known[0] || !known[1] || store.type != RW_ACTION_STORE || store.a != act->b || next.type != RW_ACTION_ADVANCE || next.a != act->b || next.b != act->b + 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(run->w == act->a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schedule asks to advance from step %" PetscInt64_FMT " but the working state is step %" PetscInt64_FMT, act->a, run->w);
  *fused = PETSC_TRUE;
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointStepFrom(adj, act->a, 2));
  RwAdjointTakeState(adj, 0);
  PetscCall(RwAdjointStepDone(adj, run, act->a));
  run->w = act->b;
  PetscCall(PetscTime(&s0));
  PetscCall(RwAdjointTakeAction(adj, run, &store));
  PetscCall(RwAdjointStore_Private(adj, run, &store));
  PetscCall(RwAdjointPrefetchNext(adj, run, &store));
  PetscCall(PetscTime(&s1));
  PetscCall(RwAdjointTakeAction(adj, run, &next));
  RwAdjointTakeState(adj, 1);
  PetscCall(RwAdjointStepDone(adj, run, next.a));
  run->w = next.b;
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_forward += (t1 - t0) - (s1 - s0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwAdjointBeginRun(RwAdjoint adj, Vec m, Vec u0, PetscInt64 *f0)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointSetUp(adj));
  RwAdjointOwnAll(adj); /* a solve that stopped on an error may have left a handle lent */
  PetscCall(PetscMemzero(&adj->counts, sizeof(adj->counts)));
  PetscCall(RwModelSetParameters(adj->model, m));
  PetscCall(RwModelGetStepCounts(adj->model, f0, NULL, NULL));
  adj->model->firstbad[0] = adj->model->firstbad[1] = -1;
  PetscCall(RwObjectiveSetParameters(adj->obj, m));
  PetscCall(RwObjectiveBegin(adj->obj));
  PetscCall(RwObjectiveEvaluate(adj->obj, 0, u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A STORE or FREE of the first sweep, replayed: where the stream had it and,
   for a STORE, whether the sweep gives its checkpoint up (FREE) later */
typedef struct {
  PetscInt64 i;
  RwAction   act;
  PetscBool  freed, intact;
} RwResumeEvent;

/* Whether the stores hold the checkpoint of a replayed STORE as the first sweep kept it */
static PetscErrorCode RwAdjointStoreIntact(RwAdjoint adj, PetscInt64 *valid[], const RwAction *act, PetscBool *intact)
{
  PetscFunctionBegin;
  *intact = PETSC_FALSE;
  if (valid[act->level][act->slot] != act->a) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreGetAttachment(adj->store[act->level], act->slot, adj->attach));
  *intact = (PetscBool)(adj->attach[0] == 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A checkpoint held at some point of the replay that the resumed run could not do without: damaged, and not given up unread later */
static inline PetscBool RwResumeBad(const RwResumeEvent *e)
{
  return (PetscBool)(!e->intact && !e->freed);
}

/* Event e (a STORE, or a FREE) changes what its slot holds; bad counts the held checkpoints that are bad */
static void RwResumeHold(PetscInt64 *held[], const RwResumeEvent ev[], PetscInt64 e, PetscInt64 *bad)
{
  const RwAction *a    = &ev[e].act;
  PetscInt64     *slot = &held[a->level][a->slot];

  if (*slot >= 0 && RwResumeBad(&ev[*slot])) (*bad)--;
  *slot = a->type == RW_ACTION_FREE ? -1 : e;
  if (*slot >= 0 && RwResumeBad(&ev[*slot])) (*bad)++;
}

/*
  The first sweep's checkpoint a resumed run starts from.  The sweep's
  STOREs and FREEs are replayed; the run resumes at the last STORE whose
  checkpoint the stores hold, as that sweep kept it, while each other
  checkpoint held at that point is intact too or given up later in the sweep
  without being read.  An online schedule thins its spine so: the killed run
  may have written that slot again already, and the resumed one never reads
  it.  An offline schedule frees nothing in its first sweep, so this is the
  last of its stores up to which all reached the stores.
*/
static PetscErrorCode RwAdjointFindResume(RwAdjoint adj, PetscInt64 *upto, RwAction *last)
{
  PetscInt64    *valid[RW_NUM_LEVELS] = {NULL, NULL}, *held[RW_NUM_LEVELS] = {NULL, NULL}, slots[RW_NUM_LEVELS] = {0, 0}, n = 0, cap = 64;
  RwResumeEvent *ev;
  RwAction       act;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetSlots(adj->store[l], &slots[l]));
    PetscCall(PetscMalloc2(slots[l], &valid[l], slots[l], &held[l]));
    PetscCall(RwStoreGetValidSteps(adj->store[l], valid[l]));
    for (PetscInt64 s = 0; s < slots[l]; s++) held[l][s] = -1;
  }
  PetscCall(PetscMalloc1(cap, &ev));
  PetscCall(RwScheduleReset(adj->sched));
  for (PetscInt64 i = 0;; i++) { /* the first sweep: which of its checkpoints it gives up */
    PetscCall(RwScheduleNext(adj->sched, &act));
    if (act.type == RW_ACTION_ADVANCE) continue;
    if ((act.type != RW_ACTION_STORE && act.type != RW_ACTION_FREE) || !held[act.level]) break;
    if (n == cap) PetscCall(PetscRealloc(sizeof(*ev) * (size_t)(cap *= 2), &ev));
    ev[n].i = i, ev[n].act = act, ev[n].freed = PETSC_FALSE, ev[n].intact = PETSC_FALSE;
    if (act.type == RW_ACTION_FREE) {
      if (held[act.level][act.slot] >= 0) ev[held[act.level][act.slot]].freed = PETSC_TRUE;
      held[act.level][act.slot] = -1;
    } else {
      PetscCall(RwAdjointStoreIntact(adj, valid, &act, &ev[n].intact));
      held[act.level][act.slot] = n;
    }
    n++;
  }
  *upto = -1;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    for (PetscInt64 s = 0; held[l] && s < slots[l]; s++) held[l][s] = -1;
  for (PetscInt64 e = 0, bad = 0; e < n; e++) { /* again, each STORE with what is held after it */
    RwResumeHold(held, ev, e, &bad);
    if (ev[e].act.type == RW_ACTION_STORE && ev[e].intact && !bad) *upto = ev[e].i, *last = ev[e].act;
  }
  PetscCall(PetscFree(ev));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(PetscFree2(valid[l], held[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_restart: positions the schedule and the run after the last usable kept checkpoint */
static PetscErrorCode RwAdjointResume(RwAdjoint adj, RwRun *run)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)adj);
  PetscInt64 upto = -1;
  RwAction   last = {RW_ACTION_END, 0, 0, 0, 0}, act;

  PetscFunctionBegin;
  PetscCall(RwAdjointFindResume(adj, &upto, &last));
  PetscCall(RwScheduleReset(adj->sched));
  if (upto < 0) {
    PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: -rw_restart found no kept checkpoint of this problem's forward sweep; starting from step 0\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt64 i = 0; i <= upto; i++) PetscCall(RwScheduleNext(adj->sched, &act));
  run->action = upto + 1;
  PetscCall(RwStoreRead(adj->store[last.level], last.slot, last.a, adj->W));
  PetscCall(RwStoreGetAttachment(adj->store[last.level], last.slot, adj->attach));
  PetscCall(RwObjectiveImportState(adj->obj, adj->attach + 1));
  run->w = run->reached    = last.a;
  PetscCall(RwAdjointMonitorSkip_Private(adj, last.a));
  adj->counts.resumed_from = last.a;
  PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: -rw_restart resumes the forward sweep at step %" PetscInt64_FMT " of %" PetscInt64_FMT " from a kept checkpoint\n", last.a, adj->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Re-plans the schedule with the costs just measured; stores grow if they must */
static PetscErrorCode RwAdjointReplan(RwAdjoint adj)
{
  PetscReal        c[4], old[4];
  RwScheduleCounts pred;

  PetscFunctionBegin;
  PetscCall(RwAdjointGetMeasuredCosts(adj, c));
  PetscCall(RwScheduleGetCosts(adj->sched, &old[0], &old[1], &old[2], &old[3]));
  for (int i = 0; i < 4; i++)
    if (!(c[i] > 0)) c[i] = old[i]; /* a level not used yet keeps its cost */
  PetscCall(RwScheduleSetCosts(adj->sched, c[0], c[1], c[2], c[3]));
  PetscCall(RwScheduleSetUp(adj->sched));
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    PetscInt64 slots;

    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetSlots(adj->store[l], &slots));
    if (slots < pred.max_slots_used[l]) PetscCall(RwStoreDestroy(&adj->store[l]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the stores did in this solve: they count it themselves */
static PetscErrorCode RwAdjointStoreCounts(RwAdjoint adj)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    RwStoreCounts s;

    if (!adj->store[l]) continue;
    PetscCall(RwStoreGetCounts(adj->store[l], &s));
    adj->counts.stores[l]          = s.writes;
    adj->counts.restores[l]        = s.reads;
    adj->counts.bytes_stored[l]    = s.bytes_written;
    adj->counts.bytes_restored[l]  = s.bytes_read;
    adj->counts.seconds_store[l]   = s.seconds_write;
    adj->counts.seconds_restore[l] = s.seconds_read;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The steps and seconds of a run that began with f0 model steps at time t0 */
static PetscErrorCode RwAdjointEndRun(RwAdjoint adj, PetscInt64 f0, PetscLogDouble t0)
{
  PetscInt64     f1;
  PetscLogDouble t1;

  PetscFunctionBegin;
  PetscCall(RwModelGetStepCounts(adj->model, &f1, NULL, NULL));
  adj->counts.forward_steps = f1 - f0;
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_total = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A run that may stop early needs a schedule that does not plan for a known n */
static PetscErrorCode RwAdjointCheckOnline(RwAdjoint adj)
{
  PetscBool      online;
  RwScheduleType type;
  MPI_Comm       comm = PetscObjectComm((PetscObject)adj);

  PetscFunctionBegin;
  PetscCall(RwScheduleIsOnline(adj->sched, &online));
  PetscCall(RwScheduleGetType(adj->sched, &type));
  PetscCheck(online || (!adj->stoptest && !(adj->stopsteady > 0)), comm, PETSC_ERR_ARG_INCOMP, "A stop test (%s) ends the run at a step found while it runs, but schedule %s plans for the known n = %" PetscInt64_FMT ": use -rw_schedule_type online (-rw_steps is then an upper bound)", adj->stoptest ? "RwAdjointSetStopTest()" : "-rw_adjoint_stop_steady", type, adj->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSolve - J and its gradient with respect to the parameters and the initial state

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
- u0  - the initial state

  Output Parameters:
+ J     - the objective (may be NULL)
. dJdm  - the gradient with respect to m, a parameter vector
- dJdu0 - the gradient with respect to u0 (may be NULL)

  Level: beginner

  Notes:
  The gradient is the same, bit for bit, whatever the schedule and, for
  explicit schemes, whatever the number of ranks.  The schedule is replayed
  from its start each time, so the driver can be called in an optimisation loop.

.seealso: RwTangentSolve(), RwAdjointForward(), RwAdjointView()
@*/
PetscErrorCode RwAdjointSolve(RwAdjoint adj, Vec m, Vec u0, PetscReal *J, Vec dJdm, Vec dJdu0)
{
  RwRun          run = {.u0 = u0}; /* the rest zero: nothing reached, no look-ahead */
  RwAction       act;
  PetscInt64     f0;
  PetscLogDouble t0;
  PetscBool      resumed = PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidHeaderSpecific(m, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(u0, VEC_CLASSID, 3);
  PetscValidHeaderSpecific(dJdm, VEC_CLASSID, 5);
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun(adj, m, u0, &f0));
  PetscCall(RwAdjointCheckOnline(adj));
  run.n         = adj->n;
  run.scheduled = PETSC_TRUE;
  {
    RwScheduleCounts pred;

    PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
    PetscCall(RwAdjointMonitorBegin_Private(adj, pred.forward_steps + adj->n));
  }
  PetscCall(RwAdjointSolveIdentity(adj, m, u0));
  PetscCall(RwAdjointCreateStores(adj));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    if (!adj->store[l]) continue;
    PetscCall(RwStoreResetCounts(adj->store[l]));
    PetscCall(RwStoreSetSolve(adj->store[l], adj->solve)); /* a new solve: another's checkpoints are not valid for it */
  }
  PetscCall(RwAdjointKeepBegin_Private(adj));
  adj->counts.resumed_from = adj->counts.resumed_reverse_at = -1;
  PetscCall(VecCopy(u0, adj->W)); /* the run starts at x_0 */
  PetscCall(RwScheduleReset(adj->sched));
  if (adj->restart && !adj->solves) {
    PetscCall(RwAdjointKeepResume_Private(adj, &run, &resumed));
    if (!resumed) PetscCall(RwAdjointResume(adj, &run));
  }
  do {
    PetscCall(RwAdjointTakeAction(adj, &run, &act));
    switch (act.type) {
    case RW_ACTION_ADVANCE: {
      PetscBool fused;

      PetscCall(RwAdjointAdvanceStoring(adj, &run, &act, &fused));
      if (!fused) PetscCall(RwAdjointAdvance_Private(adj, &run, act.a, act.b));
    } break;
    case RW_ACTION_STORE: PetscCall(RwAdjointStore_Private(adj, &run, &act)); break;
    case RW_ACTION_RESTORE: PetscCall(RwAdjointRestore(adj, &run, &act)); break;
    case RW_ACTION_FREE: PetscCall(RwStoreFree(adj->store[act.level], act.slot)); break;
    case RW_ACTION_REVERSE:
      PetscCall(RwAdjointReverse(adj, &run, act.a));
      PetscCall(RwAdjointKeepStep_Private(adj, &run, act.a));
      RwAdjointMaybeKill(adj, adj->killreverse, act.a);
      break;
    case RW_ACTION_END: break;
    }
    PetscCall(RwAdjointPrefetchNext(adj, &run, &act));
  } while (act.type != RW_ACTION_END);
  RwAdjointOwnAll(adj);
  PetscCheck(adj->counts.reverse_steps == run.n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The schedule ended after reversing %" PetscInt64_FMT " of %" PetscInt64_FMT " steps", adj->counts.reverse_steps, run.n);
  adj->counts.steps = run.n;
  PetscCall(RwModelCheckFinite(adj->model));
  PetscCall(RwModelAdjointEnd(adj->model, dJdm));
  PetscCall(RwObjectiveAddParameterGradient(adj->obj, dJdm));
  if (dJdu0) PetscCall(VecCopy(adj->lam[0], dJdu0));
  PetscCall(RwObjectiveEnd(adj->obj, J, NULL));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (adj->store[l]) PetscCall(RwStoreSetComplete(adj->store[l]));
  PetscCall(RwAdjointKeepEnd_Private(adj));
  PetscCall(RwAdjointStoreCounts(adj));
  PetscCall(RwAdjointEndRun(adj, f0, t0));
  if (!adj->solves++ && adj->usemeasured) PetscCall(RwAdjointReplan(adj));
  PetscCall(PetscObjectViewFromOptions((PetscObject)adj, NULL, "-rw_adjoint_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointForward - J alone: one forward sweep, nothing stored

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
- u0  - the initial state

  Output Parameters:
+ J  - the objective (may be NULL)
- un - the final state u_n (may be NULL)

  Level: beginner

.seealso: RwAdjointSolve()
@*/
PetscErrorCode RwAdjointForward(RwAdjoint adj, Vec m, Vec u0, PetscReal *J, Vec un)
{
  RwRun          run = {.u0 = u0}; /* the rest zero: nothing reached, no look-ahead */
  PetscInt64     f0;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun(adj, m, u0, &f0));
  PetscCall(RwAdjointMonitorBegin_Private(adj, adj->n));
  PetscCall(VecCopy(u0, adj->W));
  run.n = adj->n;
  PetscCall(RwAdjointAdvance_Private(adj, &run, 0, adj->n));
  adj->counts.steps = run.n;
  PetscCall(RwModelCheckFinite(adj->model));
  if (un) PetscCall(VecCopy(adj->W, un));
  PetscCall(RwObjectiveEnd(adj->obj, J, NULL));
  PetscCall(RwAdjointEndRun(adj, f0, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model's parameter direction: before the run (i < 0) the first one, or
   zero for state directions only; before direction i's step only when there
   are several */
static PetscErrorCode RwTangentSetDirection(RwAdjoint adj, PetscInt ndir, Vec dm[], PetscInt i, Vec zero)
{
  PetscFunctionBegin;
  if (i < 0) PetscCall(RwModelSetDirection(adj->model, dm ? dm[0] : zero));
  else if (dm && ndir > 1) PetscCall(RwModelSetDirection(adj->model, dm[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One forward run carrying ndir tangent directions in dW (du0: their start,
   or NULL to keep dW's), calling fn after each step; with dJ (one
   direction) the objective's directional derivative too */
static PetscErrorCode RwTangentSweep(RwAdjoint adj, Vec m, Vec u0, PetscInt ndir, Vec dm[], Vec du0, Vec dW[], Vec dT[], PetscErrorCode (*fn)(RwAdjoint, PetscInt64, Vec, PetscInt, Vec[], void *), void *ctx, PetscReal *J, PetscReal *dJ)
{
  PetscInt64     f0, n = adj->n;
  PetscLogDouble t0, t1;
  Vec            zero = NULL;
  PetscBool      stop = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun(adj, m, u0, &f0));
  PetscCall(RwAdjointMonitorBegin_Private(adj, adj->n));
  if (!dm) { /* state directions only: the model differentiates along dm = 0 */
    PetscCall(VecDuplicate(m, &zero));
    PetscCall(VecSet(zero, 0));
  }
  PetscCall(RwTangentSetDirection(adj, ndir, dm, -1, zero));
  PetscCall(RwObjectiveSetDirection(adj->obj, dJ ? dm[0] : NULL));
  PetscCall(VecCopy(u0, adj->W));
  if (du0) PetscCall(VecCopy(du0, dW[0]));
  if (fn) PetscCall((*fn)(adj, 0, adj->W, ndir, dW, ctx));
  if (dJ) PetscCall(RwObjectiveTangent(adj->obj, 0, adj->W, dW[0]));
  for (PetscInt64 k = 0; k < n; k++) {
    PetscCall(RwModelStep(adj->model, k, adj->W, adj->T));
    for (PetscInt i = 0; i < ndir; i++) {
      PetscCall(RwTangentSetDirection(adj, ndir, dm, i, zero));
      PetscCall(RwModelStepTangent(adj->model, k, adj->W, adj->T, dW[i], dT[i]));
      RwVecSwap(dW[i], dT[i]);
    }
    RwVecSwap(adj->W, adj->T);
    if (k + 1 < n) PetscCall(RwAdjointStopCheck_Private(adj, k + 1, &stop));
    if (stop) {
      n = k + 1;
      PetscCall(RwObjectiveSetLastStep_Private(adj->obj, n));
    }
    PetscCall(RwObjectiveEvaluate(adj->obj, k + 1, adj->W));
    if (fn) PetscCall((*fn)(adj, k + 1, adj->W, ndir, dW, ctx));
    if (dJ) PetscCall(RwObjectiveTangent(adj->obj, k + 1, adj->W, dW[0]));
    PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_TANGENT, k + 1, dW[0]));
    PetscCall(RwAdjointCheckFiniteEvery(adj, k + 1));
  }
  PetscCall(RwModelCheckFinite(adj->model));
  PetscCall(RwObjectiveEnd(adj->obj, J, dJ));
  PetscCall(VecDestroy(&zero));
  adj->counts.forward_steps = n;
  adj->counts.tangent_steps = n * ndir;
  adj->counts.steps         = n;
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_total = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwTangentSolve - the directional derivative dJ = <dJ/dm, dm> + <dJ/du0, du0>
  through the tangent model, in one forward sweep

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
. dm  - the parameter direction
. u0  - the initial state
- du0 - the initial-state direction

  Output Parameter:
. dJ - the directional derivative

  Level: intermediate

.seealso: RwAdjointSolve()
@*/
PetscErrorCode RwTangentSolve(RwAdjoint adj, Vec m, Vec dm, Vec u0, Vec du0, PetscReal *dJ)
{
  Vec dW[1], dT[1];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(RwAdjointSetUp(adj));
  dW[0] = adj->dW; /* the driver's own work vectors: nothing allocated */
  dT[0] = adj->dT;
  PetscCall(RwTangentSweep(adj, m, u0, 1, &dm, du0, dW, dT, NULL, NULL, NULL, dJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwTangentPropagate - propagates several tangent directions along one forward
  run, giving the caller every step's du_k to read and to change in place
  (rescale, orthonormalise): what Lyapunov estimates and horizon warnings need

  Collective

  Input Parameters:
+ adj  - the driver
. m    - the parameters
. u0   - the initial state
. ndir - the number of directions
. dm   - the parameter directions, one per direction; NULL for state directions only (dm = 0)
. fn   - called as fn(adj, k, u_k, ndir, du_k[], ctx) at k = 0 (before the first step) and after
         every step; it may change du_k[] in place, and the propagation goes on from what it
         leaves (the vectors are the driver's, valid during the call); may be NULL
- ctx  - passed to fn

  Input/Output Parameter:
. du - du_0 per direction on input, du_n on output

  Output Parameter:
. J - the objective of the run (may be NULL)

  Level: intermediate

  Notes:
  Each step computes u_k+1 once and then each direction's tangent step. With
  several parameter directions the model's direction is set before each
  direction's step (one broadcast of the scalars and a copy of the fields
  each); with dm NULL it is set once.

.seealso: RwTangentSolve(), RwAdjointMonitorSet()
@*/
PetscErrorCode RwTangentPropagate(RwAdjoint adj, Vec m, Vec u0, PetscInt ndir, Vec dm[], Vec du[], PetscErrorCode (*fn)(RwAdjoint, PetscInt64, Vec, PetscInt, Vec[], void *), void *ctx, PetscReal *J)
{
  Vec *dW, *dT;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(ndir >= 1, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "RwTangentPropagate() needs at least one direction, not %" PetscInt_FMT, ndir);
  PetscCall(RwAdjointSetUp(adj));
  /* everything the loop uses, made once here */
  PetscCall(VecDuplicateVecs(adj->W, ndir, &dW));
  PetscCall(VecDuplicateVecs(adj->W, ndir, &dT));
  for (PetscInt i = 0; i < ndir; i++) PetscCall(VecCopy(du[i], dW[i]));
  PetscCall(RwTangentSweep(adj, m, u0, ndir, dm, NULL, dW, dT, fn, ctx, J, NULL));
  for (PetscInt i = 0; i < ndir; i++) PetscCall(VecCopy(dW[i], du[i]));
  PetscCall(VecDestroyVecs(ndir, &dW));
  PetscCall(VecDestroyVecs(ndir, &dT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetCounts - what the last solve did: steps, stores and restores per level, seconds per phase

  Not collective

  Level: intermediate

.seealso: RwAdjointView()
@*/
PetscErrorCode RwAdjointGetCounts(RwAdjoint adj, RwAdjointCounts *counts)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  *counts = adj->counts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetMeasuredCosts - the costs the last solve measured, in seconds: a
  forward step, a reverse step, a disk write and a disk read of one state (0
  when none was made), the largest over the ranks; the units of RwScheduleSetCosts()

  Collective: every rank must plan the same schedule, so all get the same costs

  Options Database Key:
. -rw_adjoint_measured_costs - re-plan the schedule with them after the first solve

  Level: intermediate

.seealso: RwScheduleSetCosts(), RwAdjointGetCounts()
@*/
PetscErrorCode RwAdjointGetMeasuredCosts(RwAdjoint adj, PetscReal costs[4])
{
  RwAdjointCounts *c = &adj->counts;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  costs[0] = c->forward_steps ? c->seconds_forward / c->forward_steps : 0;
  costs[1] = c->reverse_steps ? c->seconds_reverse / c->reverse_steps : 0;
  costs[2] = c->stores[RW_LEVEL_DISK] ? c->seconds_store[RW_LEVEL_DISK] / c->stores[RW_LEVEL_DISK] : 0;
  costs[3] = c->restores[RW_LEVEL_DISK] ? c->seconds_restore[RW_LEVEL_DISK] / c->restores[RW_LEVEL_DISK] : 0;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, costs, 4, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)adj)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointView - the schedule, the stores and what the last solve did

  Collective

  Level: beginner

.seealso: RwAdjointGetCounts()
@*/
PetscErrorCode RwAdjointView(RwAdjoint adj, PetscViewer viewer)
{
  RwAdjointCounts *c   = &adj->counts;
  PetscInt64       ran = c->steps ? c->steps : adj->n; /* a stop test may have ended the run early */
  PetscBool        ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)adj), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "RwAdjoint: %" PetscInt64_FMT " steps\n", adj->n));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (adj->sched) PetscCall(RwScheduleView(adj->sched, viewer));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (adj->store[l]) PetscCall(RwStoreView(adj->store[l], viewer));
  if (adj->defaultbudget) PetscCall(PetscViewerASCIIPrintf(viewer, "RAM budget: %.3g MB per rank by default, %g of the node's available memory over its ranks (-rw_checkpoint_ram_fraction)\n", adj->defaultbudget / 1e6, (double)adj->ramfraction));
  if (c->steps && c->steps < adj->n) PetscCall(PetscViewerASCIIPrintf(viewer, "last solve stopped at step %" PetscInt64_FMT " of at most %" PetscInt64_FMT " (stop test)\n", c->steps, adj->n));
  PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: %" PetscInt64_FMT " forward steps (%" PetscInt64_FMT " recomputed, %.3g forward sweeps), %" PetscInt64_FMT " reverse steps, %" PetscInt64_FMT " tangent steps\n", c->forward_steps, c->forward_steps > ran ? c->forward_steps - ran : 0, ran ? (double)c->forward_steps / (double)ran : 0.0, c->reverse_steps, c->tangent_steps));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (adj->store[l]) PetscCall(PetscViewerASCIIPrintf(viewer, "  level %" PetscInt_FMT " (%s store): %" PetscInt64_FMT " stores (%.3g MB, %.3g s), %" PetscInt64_FMT " restores (%.3g MB, %.3g s) on rank 0\n", l, ((PetscObject)adj->store[l])->type_name, c->stores[l], c->bytes_stored[l] / 1e6, (double)c->seconds_store[l], c->restores[l], c->bytes_restored[l] / 1e6, (double)c->seconds_restore[l]));
  if (c->resumed_from >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  resumed at step %" PetscInt64_FMT " from kept checkpoints (-rw_restart)\n", c->resumed_from));
  if (c->resumed_reverse_at >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  resumed the reverse sweep after step %" PetscInt64_FMT " from its keep (-rw_restart), %" PetscInt64_FMT " steps recomputed to refill checkpoints\n", c->resumed_reverse_at, c->regenerated_steps));
  if (adj->keep[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "  reverse-sweep keeps: %" PetscInt64_FMT " (%.3g MB, %.3g s) on rank 0\n", c->keeps, c->bytes_kept / 1e6, (double)c->seconds_keep));
  PetscCall(PetscViewerASCIIPrintf(viewer, "seconds: total %.4g, forward %.4g, reverse %.4g\n", c->seconds_total, c->seconds_forward, c->seconds_reverse));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointDestroy - frees the driver; safe on NULL

  Collective

  Level: beginner
@*/
PetscErrorCode RwAdjointDestroy(RwAdjoint *adj)
{
  PetscFunctionBegin;
  if (!adj || !*adj) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*adj, RW_ADJOINT_CLASSID, 1);
  if (--((PetscObject)(*adj))->refct > 0) {
    *adj = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  RwAdjointOwnAll(*adj); /* the slots' vectors are the stores' to destroy */
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(RwStoreDestroy(&(*adj)->store[l]));
  for (PetscInt l = 0; l < 2; l++) PetscCall(RwStoreDestroy(&(*adj)->keep[l]));
  PetscCall(RwAdjointMonitorCancel(*adj));
  PetscCall(PetscFree((*adj)->keepattach));
  PetscCall(PetscFree((*adj)->problem));
  PetscCall(RwScheduleDestroy(&(*adj)->sched));
  PetscCall(VecDestroy(&(*adj)->W));
  PetscCall(VecDestroy(&(*adj)->N));
  PetscCall(VecDestroy(&(*adj)->T));
  PetscCall(VecDestroy(&(*adj)->X));
  PetscCall(VecDestroy(&(*adj)->lam[0]));
  PetscCall(VecDestroy(&(*adj)->lam[1]));
  PetscCall(VecDestroy(&(*adj)->dW));
  PetscCall(VecDestroy(&(*adj)->dT));
  PetscCall(PetscFree((*adj)->attach));
  PetscCall(PetscFree((*adj)->scalars));
  PetscCall(RwObjectiveDestroy(&(*adj)->obj));
  PetscCall(RwModelDestroy(&(*adj)->model));
  PetscCall(PetscHeaderDestroy(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}
