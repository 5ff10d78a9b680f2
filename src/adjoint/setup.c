/*
  Options and set-up of the driver: its prefix (which its schedule and stores
  take), the number of steps (the model's), the options database, the
  schedule prepared with the bytes of a state, and the stores, which are made
  at the first solve, when the problem's identity is known, sized to the
  slots the schedule will hold at most.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/private/storeimpl.h> /* RwStoreSetTypeFromOption() */

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

/*@C
  RwAdjointSetFileTag - a tag in the names of the files the driver makes:
  its hdf5 stores' ("ck.h5" tagged m3 is "ck-m3.h5", whether the name is the
  default or the user's -rw_store_hdf5_file) and its reverse-sweep keep's
  ("ck-m3-reverse.h5", or -rw_adjoint_keep_file tagged)

  Logically collective; before the first solve, which makes the stores

  Input Parameters:
+ adj - the driver
- tag - e.g. "m3": "-m3" goes before the extension of a name's last component; NULL or empty: none

  Notes:
  Drivers that run side by side, the groups of an ensemble, need files of
  their own: RwEnsembleSetMemberFiles() gives a member's driver the tag
  "m<member>" (RwEnsembleGetMemberFileName()'s rule).  The options database
  is left as the user gave it.  A driver resumed with -rw_restart must have
  the same tag, so that it finds its files.

  Level: intermediate

.seealso: RwAdjointGetFileTag(), RwEnsembleSetMemberFiles(), RwStoreHDF5SetFileTag()
@*/
PetscErrorCode RwAdjointSetFileTag(RwAdjoint adj, const char tag[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(!adj->store[0] && !adj->store[1] && !adj->keep[0], PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "Set the file tag before the first solve, which makes the driver's stores and their files");
  PetscCall(RwFileTagCheck(PetscObjectComm((PetscObject)adj), tag));
  PetscCall(PetscStrncpy(adj->filetag, tag ? tag : "", sizeof(adj->filetag)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointGetFileTag - the tag in the names of the driver's files ("" for none)

  Not collective

  Level: intermediate

.seealso: RwAdjointSetFileTag()
@*/
PetscErrorCode RwAdjointGetFileTag(RwAdjoint adj, const char *tag[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  *tag = adj->filetag;
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
  PetscCall(RwModelGetSteps(adj->model, &adj->n)); /* the model owns the time grid: a copy, fixed once set up */
  PetscCall(RwAdjointGetSchedule(adj, &sched));
  PetscCall(RwModelGetStateBytes(adj->model, &rankmax, &total));
  PetscCall(RwScheduleSetStateBytes(sched, rankmax, total));
  PetscCall(RwScheduleSetSteps(sched, adj->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The disk level's codec where it differs from the RAM level's (-rw_store_compress
   sets both): the driver reads it as it reads -rw_store_disk_type, and gives it
   to the disk store with RwStoreSetCompress() */
static PetscErrorCode RwAdjointDiskCompressFromOptions(RwAdjoint adj, PetscOptionItems *PetscOptionsObject)
{
  const char *const names[] = {"none", "lossless", "zfp", "auto"}; /* auto: RW_ADJOINT_CODEC_AUTO */
  PetscInt          i       = adj->diskcompress < 0 ? RW_STORE_COMPRESS_NONE : adj->diskcompress;
  PetscBool         set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEList("-rw_store_disk_compress", "Codec of the disk level of a multilevel schedule: none, lossless, zfp or auto (default: -rw_store_compress)", "RwStoreSetCompress", names, 4, names[i], &i, &set));
  if (set) adj->diskcompress = i;
  PetscCall(RwCodecToleranceFromOptions(PetscOptionsObject, "-rw_store_disk_compress_tolerance", "zfp's relative error bound on the disk level, or auto (default: -rw_store_compress_tolerance)", &adj->disktol, &adj->errest.diskauto, NULL));
  PetscCall(RwOptionsReal("-rw_adjoint_gradient_rtol", "With -rw_store_compress_tolerance auto: the relative gradient error the chosen zfp tolerance is estimated to stay below", "RwAdjointGetGradientErrorEstimate", adj->errest.rtol, &adj->errest.rtol, NULL, 0, 1, RW_RANGE_OPEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The disk store's own codec, once its options are read */
static PetscErrorCode RwAdjointStoreSetLevelCompress(RwAdjoint adj, PetscInt l, RwStore store)
{
  RwStoreCompressType type;
  PetscReal           tol;

  PetscFunctionBegin;
  if (l != RW_LEVEL_DISK || (adj->diskcompress < 0 && adj->disktol <= 0 && !adj->errest.diskauto)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreGetCompress(store, &type, &tol));
  if (adj->diskcompress >= 0) type = adj->diskcompress == RW_ADJOINT_CODEC_AUTO ? RW_STORE_COMPRESS_NONE : (RwStoreCompressType)adj->diskcompress;
  if (adj->disktol > 0) tol = adj->disktol;
  PetscCall(RwStoreSetCompress(store, type, tol));
  if (adj->diskcompress >= 0) PetscCall(RwStoreSetCompressAuto(store, (PetscBool)(adj->diskcompress == RW_ADJOINT_CODEC_AUTO), (PetscBool)(adj->disktol > 0 || adj->errest.diskauto || store->codec.tolgiven)));
  if (adj->errest.diskauto || adj->disktol > 0) PetscCall(RwStoreSetCompressToleranceAuto(store, adj->errest.diskauto));
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
  PetscCall(RwAdjointDiskCompressFromOptions(adj, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-rw_restart", "Resume the forward sweep from the checkpoints a killed run kept (hdf5 store, same file)", "RwAdjointSolve", adj->restart, &adj->restart, NULL));
  PetscCall(RwAdjointMonitorSetFromOptions_Private(adj, PetscOptionsObject));
  PetscCall(RwAdjointHorizonSetFromOptions_Private(adj, PetscOptionsObject));
  PetscCall(RwAdjointStopSetFromOptions_Private(adj, PetscOptionsObject));
  {
    PetscBool view; /* read by PetscObjectViewFromOptions() after each solve; named here so that -help lists it */
    PetscCall(PetscOptionsName("-rw_adjoint_view", "View the schedule, stores, step counts and times after each solve", "RwAdjointView", &view));
  }
  PetscCall(PetscOptionsBool("-rw_adjoint_measured_costs", "After the first solve, re-plan the schedule with the measured step and disk costs", "RwAdjointGetMeasuredCosts", adj->usemeasured, &adj->usemeasured, NULL));
  {
    PetscInt k = (PetscInt)adj->keepinterval;
    PetscCall(RwOptionsInt("-rw_adjoint_keep_interval", "Reverse steps between keeps of the reverse sweep (lambda, gradient so far), from which -rw_restart resumes it (0: none)", "RwAdjointSolve", k, &k, NULL, 0, PETSC_MAX_INT));
    adj->keepinterval = k;
  }
  PetscCall(RwOptionsReal("-rw_adjoint_keep_seconds", "Seconds between keeps of the reverse sweep (0: none)", "RwAdjointSolve", adj->keepseconds, &adj->keepseconds, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
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
  PetscCall(RwOptionsReal("-rw_debug_auto_step_seconds", "Testing: -rw_store_compress auto takes a forward step to cost this many seconds instead of the measured (0: measured)", "RwAdjointGetCodecChoice", adj->codecstep, &adj->codecstep, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwAdjointPoolReplanFromOptions_Private(adj, PetscOptionsObject));
  PetscCall(PetscOptionsBool("-rw_checkpoint_share_planes", "Where consecutive states share a plane (the wave: u_k+1's second plane is u_k's first), the RAM store keeps it once: half the bytes of store-all, states copied instead of exchanged", "RwStoreSetStateShift", adj->shareplanes, &adj->shareplanes, NULL));
  PetscCall(RwOptionsReal("-rw_checkpoint_ram_fraction", "Without RAM slots or -rw_checkpoint_ram: the fraction of the node's available memory, shared by its ranks, that checkpoints may use", "RwAdjointSetFromOptions", adj->ramfraction, &adj->ramfraction, NULL, 0, 1, RW_RANGE_OPEN_LO));
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

/* A level's store with the driver's prefix, type (-rw_store_type, -rw_store_disk_type) and file tag, not yet set from the options */
static PetscErrorCode RwAdjointStoreCreate(RwAdjoint adj, PetscInt l, RwStore *store)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(RwStoreCreate(PetscObjectComm((PetscObject)adj), store));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adj, &prefix));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*store, prefix));
  PetscCall(RwStoreSetTypeFromOption(*store, adj->storetype[l], l == RW_LEVEL_DISK ? "-rw_store_disk_type" : "-rw_store_type"));
  PetscCall(RwStoreHDF5SetFileTag(*store, adj->filetag)); /* an ensemble member's files (other types ignore it) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The store keeps its states in the model's layout (RwModelGetStateLayout()):
   its codec walks their components, an hdf5 file records it and refuses a
   file of another; and knows whether consecutive states share a plane.  Asked through the model's interface: a state of several
   components is in planes where component 1 has unit stride */
PetscErrorCode RwAdjointStoreStateLayout_Private(RwAdjoint adj, RwStore store)
{
  PetscInt  dof, stride = 0, offset;
  PetscBool shift;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateInfo(adj->model, &dof, NULL, NULL));
  if (dof > 1) PetscCall(RwModelGetStateLayout(adj->model, 1, 1, &stride, &offset));
  PetscCall(RwStoreSetStateLayout(store, dof > 1 && stride == 1 ? RW_STORE_STATE_PLANES : RW_STORE_STATE_INTERLEAVED));
  PetscCall(RwModelGetStateShift(adj->model, &shift)); /* consecutive states share a plane: the memory store keeps it once */
  PetscCall(RwStoreSetStateShift(store, (PetscBool)(shift && adj->shareplanes)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Level l's store with slots slots, set up; the RAM level's may keep its
   states compressed in the budget instead, planned from x_0 = u0 (pool.c) */
PetscErrorCode RwAdjointStoreMake_Private(RwAdjoint adj, PetscInt l, PetscInt64 slots, Vec u0)
{
  RwModelType type;
  PetscReal   dt;

  PetscFunctionBegin;
  PetscCall(RwModelGetType(adj->model, &type));
  PetscCall(RwModelGetTimeStep(adj->model, &dt));
  if (!adj->problem) PetscCall(RwAdjointProblemIdentity_Private(adj));
  PetscCall(RwAdjointStoreCreate(adj, l, &adj->store[l]));
  PetscCall(RwStoreSetSlots(adj->store[l], slots));
  PetscCall(RwStoreSetTemplate(adj->store[l], adj->W));
  PetscCall(RwAdjointStoreStateLayout_Private(adj, adj->store[l]));
  PetscCall(RwStoreSetInfo(adj->store[l], type, dt));
  PetscCall(RwStoreSetIdentity(adj->store[l], adj->problem));
  PetscCall(RwStoreSetSolve(adj->store[l], adj->solve));
  PetscCall(RwStoreSetAttachmentSize(adj->store[l], adj->nattach));
  PetscCall(RwStoreSetRestart(adj->store[l], adj->restart));
  PetscCall(RwStoreSetFromOptions(adj->store[l]));
  PetscCall(RwAdjointStoreSetLevelCompress(adj, l, adj->store[l]));
  PetscCall(RwAdjointCodecAuto_Private(adj, l, adj->store[l], u0)); /* -rw_store_compress auto: the codec chosen */
  if (l == RW_LEVEL_RAM) PetscCall(RwAdjointPoolPlan_Private(adj, adj->store[l], u0));
  if (l == RW_LEVEL_DISK) PetscCall(RwAdjointDiskPoolPlan_Private(adj, adj->store[l], u0)); /* pooldisk.c */
  PetscCall(RwStoreSetUp(adj->store[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One store per level the schedule uses, sized to the slots it will hold at
   most; made at the first solve, when the identity of the problem is known */
PetscErrorCode RwAdjointCreateStores_Private(RwAdjoint adj, Vec u0)
{
  RwScheduleCounts pred;
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
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    PetscCall(RwScheduleGetPrediction(adj->sched, &pred)); /* again after the RAM level's plan at the compressed size */
    if (adj->store[l] || !pred.max_slots_used[l]) continue;
    PetscCall(RwAdjointStoreMake_Private(adj, l, pred.max_slots_used[l], u0));
  }
  if (adj->keepinterval || adj->keepseconds > 0) {
    if (!adj->problem) PetscCall(RwAdjointProblemIdentity_Private(adj));
    PetscCall(RwAdjointKeepCreate_Private(adj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Under -help: the stores are made at the first solve, which -help does not
   reach (RwHelpStop()), so their options are listed here, each level's type's */
static PetscErrorCode RwAdjointListStoreOptions(RwAdjoint adj)
{
  RwScheduleCounts pred;
  PetscBool        help;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasHelp(((PetscObject)adj)->options, &help));
  if (!help) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwScheduleGetPrediction(adj->sched, &pred));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    RwStore store;

    if (!pred.max_slots_used[l]) continue;
    PetscCall(RwAdjointStoreCreate(adj, l, &store));
    PetscCall(RwStoreSetFromOptions(store));
    PetscCall(RwStoreDestroy(&store));
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
  PetscCall(RwOptionsCheckUnknown(PetscObjectComm((PetscObject)adj))); /* a misspelled option, before the set-up it may explain fails */
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
  adj->block = block;
  for (PetscInt i = 0; i < block - 1; i++) PetscCall(RwVecDuplicateStaggered(adj->W, &adj->X[i])); /* forward sweeps take blocks of steps */
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->lam[0]));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->lam[1]));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->dW));
  PetscCall(RwVecDuplicateStaggered(adj->W, &adj->dT));
  PetscCall(RwModelGetNumParameterScalars(adj->model, &nscalars));
  PetscCall(PetscMalloc1(nscalars + 1, &adj->scalars));
  adj->setupcalled = PETSC_TRUE;
  PetscCall(RwAdjointListStoreOptions(adj));
  PetscCall(PetscObjectViewFromOptions((PetscObject)adj->obj, NULL, "-rw_objective_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Re-plans the schedule with the costs just measured; stores grow if they must */
PetscErrorCode RwAdjointReplan_Private(RwAdjoint adj)
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
