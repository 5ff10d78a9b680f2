/*
  Monitors of the driver's sweeps, as PETSc TS has TSMonitorSet() and
  TSAdjointMonitorSet(): each is called after every step of every sweep with
  the phase, the step and the vector the step made (x_k+1 forward, lambda_k
  in reverse, du_k+1 in a tangent sweep).  -rw_adjoint_monitor installs the
  progress monitor below, for runs long enough to want one.
*/
#include <rewind/private/adjointimpl.h>
#include <rewind/io.h>
#include <petscviewerhdf5.h>

const char *const RwAdjointPhases[] = {"forward", "recompute", "reverse", "tangent", "RwAdjointPhase", "RW_PHASE_", NULL};

/*@C
  RwAdjointMonitorSet - adds a function called after every step of every sweep

  Logically collective

  Input Parameters:
+ adj     - the driver
. monitor - monitor(adj, phase, k, v, ctx): phase RW_PHASE_FORWARD (v = x_k, the first
            time the sweep reaches step k), RW_PHASE_RECOMPUTE (v = x_k again, from a
            checkpoint), RW_PHASE_REVERSE (v = lambda_k) or RW_PHASE_TANGENT (v = du_k)
. ctx     - its context
- destroy - frees ctx when the monitor is cancelled (may be NULL)

  Options Database Keys:
+ -rw_adjoint_monitor               - print the progress of each solve (phase, step, share done, elapsed and remaining time)
- -rw_adjoint_monitor_seconds <s>   - at most one line per s seconds (default 5; 0: every step)

  Level: intermediate

  Notes:
  A monitor must not change v, except in a tangent sweep, where it may rescale
  du_k (as Lyapunov estimates do to keep it finite): the sweep goes on from the
  rescaled du_k, so the dJ RwTangentSolve() returns is then that of the
  rescaled direction from step k on.  Monitors are called collectively, in the
  order they were set; up to RW_ADJOINT_MAX_MONITORS of them.

.seealso: RwAdjointMonitorCancel(), RwAdjointMonitorProgress()
@*/
PetscErrorCode RwAdjointMonitorSet(RwAdjoint adj, PetscErrorCode (*monitor)(RwAdjoint, RwAdjointPhase, PetscInt64, Vec, void *), void *ctx, PetscErrorCode (*destroy)(void **))
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(adj->nmonitors < RW_ADJOINT_MAX_MONITORS, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "Too many monitors: at most %d", RW_ADJOINT_MAX_MONITORS);
  adj->monitor[adj->nmonitors]    = monitor;
  adj->monitorctx[adj->nmonitors] = ctx;
  adj->monitordestroy[adj->nmonitors++] = destroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointMonitorCancel - removes every monitor, freeing their contexts

  Logically collective

  Level: intermediate

.seealso: RwAdjointMonitorSet()
@*/
PetscErrorCode RwAdjointMonitorCancel(RwAdjoint adj)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  for (PetscInt i = 0; i < adj->nmonitors; i++)
    if (adj->monitordestroy[i]) PetscCall((*adj->monitordestroy[i])(&adj->monitorctx[i]));
  adj->nmonitors = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by the sweeps; nothing but a test when there is no monitor */
PetscErrorCode RwAdjointMonitorCall_Private(RwAdjoint adj, RwAdjointPhase phase, PetscInt64 k, Vec v)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < adj->nmonitors; i++) PetscCall((*adj->monitor[i])(adj, phase, k, v, adj->monitorctx[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A resumed solve has done part of its steps in the run before */
PetscErrorCode RwAdjointMonitorSkip_Private(RwAdjoint adj, PetscInt64 steps)
{
  PetscFunctionBegin;
  adj->monitordone += steps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve begins: how many steps it will take in all, for the progress monitor */
PetscErrorCode RwAdjointMonitorBegin_Private(RwAdjoint adj, PetscInt64 total)
{
  PetscFunctionBegin;
  adj->monitortotal = total;
  adj->monitordone  = 0;
  PetscCall(PetscTime(&adj->monitorstart));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal      seconds; /* between lines */
  PetscLogDouble last;
} RwProgress;

/*@C
  RwAdjointMonitorProgress - the monitor of -rw_adjoint_monitor: a line on
  rank 0 at most every -rw_adjoint_monitor_seconds with the phase, the step,
  the share of the solve's steps done (forward, recomputed and reverse, as the
  schedule predicts them) and the elapsed and expected remaining time, and a
  line when the solve is done

  Collective

  Level: intermediate

.seealso: RwAdjointMonitorSet()
@*/
PetscErrorCode RwAdjointMonitorProgress(RwAdjoint adj, RwAdjointPhase phase, PetscInt64 k, Vec v, void *ctx)
{
  RwProgress    *p = (RwProgress *)ctx;
  PetscLogDouble now, elapsed;
  PetscReal      done;
  PetscBool      last = (PetscBool)((phase == RW_PHASE_REVERSE && k == 0) || (phase != RW_PHASE_REVERSE && adj->monitortotal == adj->n && k == adj->n));

  PetscFunctionBegin;
  adj->monitordone++;
  PetscCall(PetscTime(&now));
  if (now - PetscMax(p->last, adj->monitorstart) < p->seconds && !last) PetscFunctionReturn(PETSC_SUCCESS); /* a line every s seconds from the start */
  p->last = now;
  elapsed = now - adj->monitorstart;
  done    = adj->monitortotal > 0 ? PetscMin(1.0, (PetscReal)adj->monitordone / (PetscReal)adj->monitortotal) : 0;
  /* rank 0 decides alone when to print: PetscPrintf() does not synchronise */
  if (last) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adj), "rewind: solve %" PetscInt64_FMT " done: %" PetscInt64_FMT " steps in %.3g s\n", adj->solves, adj->monitordone, (double)elapsed));
  else PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adj), "rewind: solve %" PetscInt64_FMT ", %s step %" PetscInt64_FMT ": %.1f%% of %" PetscInt64_FMT " steps, %.3g s elapsed, about %.3g s to go\n", adj->solves, RwAdjointPhases[phase], k, (double)(100 * done), adj->monitortotal, (double)elapsed, done > 0 ? (double)(elapsed * (1 - done) / done) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwProgressDestroy(void **ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscViewer viewer;            /* the HDF5 file the states go to */
  PetscInt    every;             /* a state every this many steps, and the last */
  char        xmf[PETSC_MAX_PATH_LEN], h5[PETSC_MAX_PATH_LEN]; /* h5: as the XDMF file refers to it */
  Vec         comp;              /* one component of a state with several, on the field grid */
  PetscInt    nt;                /* the number of states a sweep writes */
  char      (*group)[32];        /* their groups, /step_<k> */
  const char **groups;           /* pointers to them, as RwIOWriteXDMFSeries() takes them */
  PetscReal  *time;              /* and times */
  PetscBool   begun;
} RwSolution;

/* Steps every, 2 every, ... and the last: the same list when writing and when describing */
static PetscBool RwSolutionWrites(PetscInt64 k, PetscInt64 n, PetscInt every)
{
  return (PetscBool)(k > 0 && (k % every == 0 || k == n));
}

/* Once a run, before the first state: the metadata and what the sweeps reuse, so that no step allocates */
static PetscErrorCode RwSolutionBegin(RwAdjoint adj, RwSolution *s)
{
  PetscInt  dof;
  PetscReal dt;

  PetscFunctionBegin;
  PetscCall(RwIOWriteMetadata(adj->model, s->viewer));
  PetscCall(RwModelGetStateInfo(adj->model, &dof, NULL, NULL));
  if (dof > 1) PetscCall(RwModelCreateField(adj->model, &s->comp));
  PetscCall(RwModelGetTimeStep(adj->model, &dt));
  s->nt = 0;
  for (PetscInt64 k = 1; k <= adj->n; k++) s->nt += RwSolutionWrites(k, adj->n, s->every);
  PetscCall(PetscMalloc3(s->nt, &s->group, s->nt, &s->groups, s->nt, &s->time));
  for (PetscInt64 k = 1, i = 0; k <= adj->n; k++) {
    if (!RwSolutionWrites(k, adj->n, s->every)) continue;
    PetscCall(PetscSNPrintf(s->group[i], sizeof(s->group[i]), "/step_%08" PetscInt64_FMT, k));
    s->groups[i] = s->group[i];
    s->time[i++] = (PetscReal)k * dt;
  }
  s->begun = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwAdjointMonitorSolution - the monitor of -rw_adjoint_monitor_solution: writes
  the state every few steps of each forward sweep to an HDF5 file, one group
  /step_<k> per state with a dataset per component, and at the sweep's end an
  XDMF temporal collection beside it (the file's name with .xmf), so that
  ParaView animates the sweep

  Collective

  Options Database Keys:
+ -rw_adjoint_monitor_solution hdf5:file.h5 - the file (PETSc's viewer syntax)
- -rw_adjoint_monitor_solution_every <k>    - a state every k steps, and the last (default 1)

  Notes:
  Recomputations from checkpoints are not written: they repeat states already
  written.  A solve writes over the states of the solve before it, so that the
  file holds the latest forward sweep (an inversion's last iterate).

  Level: intermediate

.seealso: RwAdjointMonitorSet(), RwIOWriteXDMFSeries()
@*/
PetscErrorCode RwAdjointMonitorSolution(RwAdjoint adj, RwAdjointPhase phase, PetscInt64 k, Vec v, void *ctx)
{
  RwSolution        *s = (RwSolution *)ctx;
  PetscInt           dof;
  const char *const *names;
  char               group[32];

  PetscFunctionBegin;
  if (phase != RW_PHASE_FORWARD || !RwSolutionWrites(k, adj->n, s->every)) PetscFunctionReturn(PETSC_SUCCESS);
  if (!s->begun) PetscCall(RwSolutionBegin(adj, s));
  PetscCall(RwModelGetStateInfo(adj->model, &dof, &names, NULL));
  PetscCall(PetscSNPrintf(group, sizeof(group), "/step_%08" PetscInt64_FMT, k));
  PetscCall(PetscViewerHDF5PushGroup(s->viewer, group));
  for (PetscInt c = 0; c < dof; c++) {
    if (dof > 1) PetscCall(RwModelGetStateComponent(adj->model, v, c, s->comp));
    PetscCall(RwIOWriteField(adj->model, s->viewer, names[c], dof > 1 ? s->comp : v));
  }
  PetscCall(PetscViewerHDF5PopGroup(s->viewer));
  if (k == adj->n) {
    PetscCall(PetscViewerFlush(s->viewer));
    PetscCall(RwIOWriteXDMFSeries(adj->model, s->xmf, s->h5, s->nt, s->time, s->groups, dof, names));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwSolutionDestroy(void **ctx)
{
  RwSolution *s = (RwSolution *)*ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerDestroy(&s->viewer));
  PetscCall(VecDestroy(&s->comp));
  PetscCall(PetscFree3(s->group, s->groups, s->time));
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_adjoint_monitor_solution hdf5:file.h5, and the XDMF file beside it */
static PetscErrorCode RwSolutionSetFromOptions(RwAdjoint adj, PetscOptionItems *PetscOptionsObject)
{
  PetscViewer       viewer = NULL;
  PetscViewerFormat format;
  PetscBool         set, hdf5;
  PetscInt          every = 1;
  RwSolution       *s;
  const char       *file;

  PetscFunctionBegin;
  PetscCall(PetscOptionsViewer("-rw_adjoint_monitor_solution", "Write the states of each forward sweep to an HDF5 file (hdf5:states.h5), with an XDMF file for ParaView beside it", "RwAdjointMonitorSolution", &viewer, &format, &set));
  PetscCall(RwOptionsInt("-rw_adjoint_monitor_solution_every", "With -rw_adjoint_monitor_solution: a state every this many steps, and the last", "RwAdjointMonitorSolution", every, &every, NULL, 1, PETSC_MAX_INT));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERHDF5, &hdf5));
  if (!hdf5) PetscCall(PetscViewerDestroy(&viewer));
  PetscCheck(hdf5, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_WRONG, "-rw_adjoint_monitor_solution: expected an HDF5 viewer, hdf5:file.h5");
  for (PetscInt i = 0; i < adj->nmonitors; i++)
    if (adj->monitor[i] == RwAdjointMonitorSolution) { /* set once */
      PetscCall(PetscViewerDestroy(&viewer));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  PetscCall(PetscNew(&s));
  s->viewer = viewer;
  s->every  = every;
  PetscCall(PetscViewerFileGetName(viewer, &file));
  PetscCall(RwIOXDMFNames(file, s->xmf, s->h5, sizeof(s->h5)));
  PetscCall(RwAdjointMonitorSet(adj, RwAdjointMonitorSolution, s, RwSolutionDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -rw_adjoint_monitor */
PetscErrorCode RwAdjointMonitorSetFromOptions_Private(RwAdjoint adj, PetscOptionItems *PetscOptionsObject)
{
  PetscBool   on = PETSC_FALSE;
  PetscReal   seconds = 5;
  RwProgress *p;

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-rw_adjoint_monitor", "Print the progress of each solve: phase, step, share done, elapsed and remaining time", "RwAdjointMonitorSet", on, &on, NULL));
  PetscCall(RwOptionsReal("-rw_adjoint_monitor_seconds", "At most one progress line per this many seconds (0: every step)", "RwAdjointMonitorSet", seconds, &seconds, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwSolutionSetFromOptions(adj, PetscOptionsObject));
  if (!on) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < adj->nmonitors; i++)
    if (adj->monitor[i] == RwAdjointMonitorProgress) PetscFunctionReturn(PETSC_SUCCESS); /* set once */
  PetscCall(PetscNew(&p));
  p->seconds = seconds;
  PetscCall(RwAdjointMonitorSet(adj, RwAdjointMonitorProgress, p, RwProgressDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}
