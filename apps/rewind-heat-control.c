static char help[] = "rewind-heat-control: steer the temperature of a plate to a target with heaters, through the adjoint and TAO.\n"
                     "Embedded problem: a 32 x 32 plate (kappa 1, edges held at 0), 6 heaters, 4 sensors whose target\n"
                     "ramps up, holds and steps down; the heaters' powers are piecewise linear in time on 26 nodes\n"
                     "(-rw_heat_control_nodes; 0: one value a step), bounded by 0 <= a <= a_max (heaters only heat).\n"
                     "J = 1/2 sum (u(sensor, t) - target)^2 + alpha/2 int a^2 dt + beta/2 int (da/dt)^2 dt.\n\n"
                     "  -rw_control_alpha a       effort weight (default 1e-4)\n"
                     "  -rw_control_beta b        smoothness weight (default 1e-6)\n"
                     "  -rw_control_min, -rw_control_max   bounds on every amplitude (default 0, 100)\n"
                     "  -rw_control_levels l0,... each sensor's held target (default 1,0.8,0.6,1.2)\n"
                     "  -rw_heat_heaters x0,y0,...  heater positions (and -rw_heat_heater_width, -rw_heat_flux_sides)\n"
                     "  -rw_output prefix         write prefix.h5 (amplitudes, sensor trajectories: target, achieved, uncontrolled; history)\n"
                     "  -rw_output_png            also draw prefix.png (jobs/plot_control.py)\n"
                     "  -rw_restart               resume a killed run from its journal (prefix.state; doc/problem.md)\n"
                     "  -rw_history_view ascii|hdf5:file   the history (J, misfit, |g|, seconds, tracking, effort)\n"
                     "TAO: -tao_type (default bqnls), -tao_max_it (default 60), -tao_monitor, ...\n"
                     "Checkpointing: -rw_schedule_type, -rw_store_type, ...; -rw_adjoint_view: the cost of a gradient\n\n";

#include <rewind.h>
#include <rewind/hdf5.h>
#include <petscviewerhdf5.h>
#include "common/plot.h"

#define NSENSORS 4

typedef struct {
  RwProblem   prob;
  RwModel     model; /* the problem's */
  RwObjective obj;   /* the member's: sensors, effort, smoothness */
  RwAdjoint   adj;
  Tao         tao;
  Vec         x, mw;
  PetscReal  *traj;  /* where RecordSensors() writes, during a Forward() that wants them */
  PetscInt    K, C, block, size, nobs;
  PetscInt64  nsteps, every;
  PetscReal   dt, alpha, beta, amin, amax, level[NSENSORS], *a, *target;
  PetscReal   sensors[2 * NSENSORS];
  PetscReal   rms[3], power; /* controlled, uncontrolled, constant power; that power */
  PetscReal   effort;        /* the effort of the history row's forward run, while haseffort */
  PetscBool   haseffort;
  PetscInt64 *steps;
  char        output[PETSC_MAX_PATH_LEN];
  PetscBool   png;
} Control;

static PetscErrorCode ReadOptions(Control *c)
{
  PetscInt n = NSENSORS;

  PetscFunctionBegin;
  c->alpha = 1e-4, c->beta = 1e-6, c->amin = 0, c->amax = 100;
  c->level[0] = 1, c->level[1] = 0.8, c->level[2] = 0.6, c->level[3] = 1.2;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-heat-control options", "rewind");
  PetscCall(RwOptionsReal("-rw_control_alpha", "Effort weight alpha: alpha/2 int a^2 dt", NULL, c->alpha, &c->alpha, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_control_beta", "Smoothness weight beta: beta/2 int (da/dt)^2 dt", NULL, c->beta, &c->beta, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_control_min", "Lower bound on every amplitude", NULL, c->amin, &c->amin, NULL, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsReal("-rw_control_max", "Upper bound on every amplitude", NULL, c->amax, &c->amax, NULL, -PETSC_MAX_REAL, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsRealArray("-rw_control_levels", "Each sensor's held target temperature", NULL, "1,0.8,0.6,1.2", c->level, &n, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the output file (prefix.h5)", NULL, c->output, c->output, sizeof(c->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw prefix.png (jobs/plot_control.py)", NULL, c->png, &c->png, NULL));
  PetscOptionsEnd();
  PetscCheck(c->amin < c->amax, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_control_min %g must be below -rw_control_max %g", (double)c->amin, (double)c->amax);
  PetscCheck(n == NSENSORS, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-rw_control_levels: %" PetscInt_FMT " levels for %d sensors", n, NSENSORS);
  PetscCheck(!c->png || c->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output prefix too");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The embedded plate, before the options (which stand over it) */
static PetscErrorCode ModelDefaults(RwModel model, void *ctx)
{
  const PetscInt  M[3]     = {32, 32, 0};
  const PetscReal pos[12]  = {0.25, 0.25, 0.75, 0.25, 0.25, 0.75, 0.75, 0.75, 0.5, 0.5, 0.5, 0.12};
  const PetscReal width[6] = {0.06, 0.06, 0.06, 0.06, 0.06, 0.06};

  PetscFunctionBegin;
  PetscCall(RwModelSetGridSizes(model, M));
  PetscCall(RwModelHeatSetBoundaries(model, "dirichlet"));
  PetscCall(RwModelSetSteps(model, 500));
  PetscCall(RwModelSetTimeStep(model, 2e-4));
  PetscCall(RwModelHeatSetHeaters(model, 6, pos, width));
  PetscCall(RwModelHeatSetControlNodes(model, 26));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The target at sensor s and time t of [0, T]: ramp up over 0.3 T, hold to 0.7 T, step down to a third */
static PetscReal Target(const Control *c, PetscInt s, PetscReal t, PetscReal T)
{
  return c->level[s] * (t < 0.3 * T ? t / (0.3 * T) : t < 0.7 * T ? 1 : 1.0 / 3);
}

/* The effort and smoothness of the block control, after the sensors' misfit */
static PetscErrorCode ControlTerms(RwProblem prob, RwObjective obj, void *ctx)
{
  Control *c = (Control *)ctx;
  RwModel  model;
  PetscInt K;

  PetscFunctionBegin;
  PetscCall(RwObjectiveGetModel(obj, &model));
  PetscCall(RwModelHeatGetControl(model, &K, NULL, NULL));
  PetscCheck(K > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "rewind-heat-control needs actuators: -rw_heat_heaters or -rw_heat_flux_sides");
  PetscCall(RwObjectiveAddControlEffort(obj, "control", K, c->alpha));
  PetscCall(RwObjectiveAddControlSmoothness(obj, "control", K, c->beta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One member: sensors read every 5 steps against the target; kappa 1, s 0, r 0 and u0 0 known */
static PetscErrorCode CreateObservations(Control *c)
{
  RwObservations obs;
  RwModel        model;
  const PetscReal sens[2 * NSENSORS] = {0.35, 0.35, 0.65, 0.35, 0.35, 0.65, 0.62, 0.62}, zero = 0;
  Vec            f, u0;

  PetscFunctionBegin;
  PetscCall(RwProblemGetModel(c->prob, &model));
  PetscCall(RwModelGetSteps(model, &c->nsteps));
  PetscCall(RwModelGetTimeStep(model, &c->dt));
  c->every = c->nsteps >= 100 ? c->nsteps / 100 : 1;
  c->nobs  = (PetscInt)(c->nsteps / c->every);
  PetscCall(PetscMalloc2(c->nobs, &c->steps, c->nobs * NSENSORS, &c->target));
  for (PetscInt i = 0; i < 2 * NSENSORS; i++) c->sensors[i] = sens[i];
  for (PetscInt j = 0; j < c->nobs; j++) {
    c->steps[j] = (j + 1) * c->every;
    for (PetscInt s = 0; s < NSENSORS; s++) c->target[j * NSENSORS + s] = Target(c, s, c->steps[j] * c->dt, c->nsteps * c->dt);
  }
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &obs));
  PetscCall(RwObservationsSetModel(obs, model));
  PetscCall(RwObservationsSetNumMembers(obs, 1));
  PetscCall(RwObservationsSetSteps(obs, c->nobs, c->steps));
  PetscCall(RwObservationsSetSensors(obs, 0, NSENSORS, c->sensors));
  PetscCall(RwObservationsSetData(obs, 0, c->target, 1));
  PetscCall(RwModelCreateField(model, &f));
  PetscCall(VecSet(f, 1));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "kappa", f));
  PetscCall(VecSet(f, 0));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "s", f));
  PetscCall(RwObservationsSetKnownValues(obs, RW_OBS_ALL_MEMBERS, "r", 1, &zero));
  PetscCall(RwModelCreateState(model, &u0));
  PetscCall(VecSet(u0, 0));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "u0", u0));
  PetscCall(RwProblemSetObservations(c->prob, obs));
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&f));
  PetscCall(RwObservationsDestroy(&obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Records the sensors' readings at the observed steps of a forward sweep, while c->traj
   points somewhere: the solve's own states, so no second run of the model */
static PetscErrorCode RecordSensors(RwAdjoint adj, RwAdjointPhase phase, PetscInt64 k, Vec x, void *ctx)
{
  Control *c = (Control *)ctx;

  PetscFunctionBegin;
  if (!c->traj || phase != RW_PHASE_FORWARD || k == 0 || k % c->every || k / c->every > c->nobs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwObjectiveInterpolate(c->obj, 0, x, c->traj + NSENSORS * (k / c->every - 1)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A forward run at amplitudes a: the terms (misfit, effort, smoothness) and, if traj, the sensors' readings */
static PetscErrorCode Forward(Control *c, const PetscReal a[], PetscReal terms[3], PetscReal *traj)
{
  Vec       m, u0;
  PetscReal J;

  PetscFunctionBegin;
  PetscCall(RwProblemGetMemberParameters(c->prob, 0, &m, &u0));
  PetscCall(VecCopy(m, c->mw));
  PetscCall(RwModelSetParameterBlock(c->model, c->mw, c->block, a));
  c->traj = traj;
  PetscCall(RwAdjointForward(c->adj, c->mw, u0, &J, NULL));
  c->traj = NULL;
  PetscCall(RwObjectiveGetTermValues(c->obj, 3, terms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal RMS(const Control *c, PetscReal misfit)
{
  return PetscSqrtReal(2 * misfit / (c->nobs * NSENSORS));
}

/* The history's columns tracking (RMS error at the sensors) and effort, from one forward run
   at x: the columns of a row are filled in order for the same x, so effort takes the run
   tracking made (and runs its own if called alone) */
static PetscErrorCode HistoryTracking(RwProblem prob, Vec x, PetscReal *v, void *ctx)
{
  Control  *c = (Control *)ctx;
  PetscReal t[3];

  PetscFunctionBegin;
  PetscCall(RwVecGetFirstRankValues(x, c->size, c->a));
  PetscCall(Forward(c, c->a, t, NULL));
  *v            = RMS(c, t[0]);
  c->effort     = t[1];
  c->haseffort  = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HistoryEffort(RwProblem prob, Vec x, PetscReal *v, void *ctx)
{
  Control  *c = (Control *)ctx;
  PetscReal t[3];

  PetscFunctionBegin;
  if (!c->haseffort) {
    PetscCall(RwVecGetFirstRankValues(x, c->size, c->a));
    PetscCall(Forward(c, c->a, t, NULL));
    c->effort = t[1];
  }
  *v           = c->effort;
  c->haseffort = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUp(Control *c)
{
  char     journal[PETSC_MAX_PATH_LEN + 8];
  PetscInt groups, g;
  RwEnsemble ens;

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &c->prob));
  PetscCall(RwProblemSetModelType(c->prob, RWMODELHEAT));
  PetscCall(RwProblemSetModelDefaults(c->prob, ModelDefaults, c));
  PetscCall(RwProblemSetObjectiveTerms(c->prob, ControlTerms, c));
  PetscCall(RwProblemSetUnknown(c->prob, "control"));
  PetscCall(PetscSNPrintf(journal, sizeof(journal), "%s.state", c->output));
  PetscCall(RwProblemSetJournal(c->prob, c->output[0] ? journal : NULL));
  PetscCall(RwProblemAddHistoryColumn(c->prob, "tracking", HistoryTracking, c));
  PetscCall(RwProblemSetHistoryColumnInfo(c->prob, "tracking", "1", "RMS tracking error at the sensors"));
  PetscCall(RwProblemAddHistoryColumn(c->prob, "effort", HistoryEffort, c));
  PetscCall(RwProblemSetHistoryColumnInfo(c->prob, "effort", "1", "alpha/2 int a^2 dt"));
  PetscCall(RwProblemSetFromOptions(c->prob));
  PetscCall(CreateObservations(c));
  PetscCall(RwProblemSetUp(c->prob));
  PetscCall(RwProblemGetEnsemble(c->prob, &ens));
  PetscCall(RwEnsembleGetGroup(ens, &g, &groups));
  PetscCheck(groups == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "rewind-heat-control solves one member: -rw_ensemble_groups must be 1, not %" PetscInt_FMT, groups);
  PetscCall(RwProblemGetMemberSolver(c->prob, &c->model, &c->obj, &c->adj));
  PetscCall(RwModelHeatGetControl(c->model, &c->K, &c->C, &c->block));
  PetscCall(RwModelGetParameterBlockInfo(c->model, c->block, NULL, &c->size, NULL, NULL));
  PetscCall(PetscMalloc1(c->size, &c->a));
  PetscCall(RwModelCreateParameters(c->model, &c->mw));
  PetscCall(RwAdjointMonitorSet(c->adj, RecordSensors, c, NULL));
  PetscCall(RwProblemCreateUnknownVector(c->prob, &c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The progress line of an iteration, from the history's last row */
static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Control          *c       = (Control *)ctx;
  const char *const want[5] = {"iteration", "J", "tracking", "effort", "seconds"};
  PetscReal         v[5];

  PetscFunctionBegin;
  PetscCall(RwProblemGetHistoryValues(c->prob, -1, 5, want, v));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iter %3d  J %.6e  tracking %.4e  effort %.4e  %6.1f s\n", (int)v[0], (double)v[1], (double)v[2], (double)v[3], (double)v[4]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpTao(Control *c)
{
  Vec lb, ub;

  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &c->tao));
  PetscCall(TaoSetType(c->tao, TAOBQNLS));
  PetscCall(TaoSetMaximumIterations(c->tao, 60));
  PetscCall(TaoSetTolerances(c->tao, 1e-10, 1e-8, 0));
  PetscCall(VecSet(c->x, PetscMax(c->amin, 0)));
  PetscCall(TaoSetSolution(c->tao, c->x));
  PetscCall(VecDuplicate(c->x, &lb));
  PetscCall(VecDuplicate(c->x, &ub));
  PetscCall(VecSet(lb, c->amin));
  PetscCall(VecSet(ub, c->amax));
  PetscCall(TaoSetVariableBounds(c->tao, lb, ub));
  PetscCall(RwProblemSetUpTao(c->prob, c->tao));
  PetscCall(TaoSetMonitor(c->tao, Monitor, c, NULL));
  PetscCall(TaoSetFromOptions(c->tao));
  PetscCall(VecDestroy(&lb));
  PetscCall(VecDestroy(&ub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The baselines: no heating, and the best constant power of all heaters alike (the misfit is
   quadratic in it: three runs give the parabola), within the bounds */
static PetscErrorCode Baselines(Control *c)
{
  PetscReal t[3][3], q, b;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < 3; p++) {
    for (PetscInt i = 0; i < c->size; i++) c->a[i] = p;
    PetscCall(Forward(c, c->a, t[p], NULL));
  }
  c->rms[1] = RMS(c, t[0][0]);
  q         = 0.5 * (t[2][0] - 2 * t[1][0] + t[0][0]);
  b         = t[1][0] - t[0][0] - q;
  c->power  = q > 0 ? PetscMin(PetscMax(-b / (2 * q), c->amin), c->amax) : c->amax;
  for (PetscInt i = 0; i < c->size; i++) c->a[i] = c->power;
  PetscCall(Forward(c, c->a, t[0], NULL));
  c->rms[2] = RMS(c, t[0][0]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 writes an array into the whole file */
static PetscErrorCode WriteArray(hid_t f, const char name[], hsize_t n0, hsize_t n1, const PetscReal *v)
{
  hsize_t dims[2] = {n0, n1};

  PetscFunctionBegin;
  PetscCall(RwH5WriteArray(f, name, n1 ? 2 : 1, dims, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <prefix>.h5: the history (collective), then rank 0's arrays: amplitudes, their times, the
   sensor trajectories (target, achieved, uncontrolled) and where sensors and heaters are */
/* What every dataset holds: the heat model is nondimensional (unit box, unit time scale) */
static PetscErrorCode WriteUnits(const char h5[])
{
  const RwIODatasetInfo info[] = {
    {"amplitudes",         "1", "heater amplitudes (power), a row a control node or step, a column a heater"},
    {"amplitude_times",    "1", "times of the amplitudes' rows"                                              },
    {"times",              "1", "observation times of the sensor rows"                                       },
    {"target",             "1", "target temperature at the sensors, [time, sensor]"                          },
    {"achieved",           "1", "temperature at the sensors with the recovered control, [time, sensor]"      },
    {"uncontrolled",       "1", "temperature at the sensors without heating, [time, sensor]"                },
    {"sensors",            "1", "sensor coordinates, a row a sensor, x first"                                },
    {"rms_tracking_error", "1", "RMS tracking error: controlled, uncontrolled, best constant power"          }
  };

  PetscFunctionBegin;
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, h5, (PetscInt)PETSC_STATIC_ARRAY_LENGTH(info), info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteOutput(Control *c, const PetscReal *achieved, const PetscReal *free)
{
  char         h5[PETSC_MAX_PATH_LEN];
  RwOutputFile out;
  const char  *path;
  PetscViewer  v;
  PetscMPIInt  rank;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", c->output));
  PetscCall(RwOutputFileBegin(PETSC_COMM_WORLD, h5, PETSC_FALSE, "-rw_output file", &out, &path));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &v));
  PetscCall(RwIOWriteMetadata(c->model, v));
  PetscCall(RwProblemHistoryView(c->prob, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    PetscInt   nodes = c->C ? c->C : (PetscInt)c->nsteps;
    PetscReal *tn, *to, rms[3] = {c->rms[0], c->rms[1], c->rms[2]};
    hid_t      f;

    PetscCall(PetscMalloc2(nodes, &tn, c->nobs, &to));
    for (PetscInt i = 0; i < nodes; i++) tn[i] = c->C ? i * c->nsteps * c->dt / (c->C - 1) : (i + 0.5) * c->dt;
    for (PetscInt j = 0; j < c->nobs; j++) to[j] = c->steps[j] * c->dt;
    RwCallHDF5Return(f, H5Fopen, (path, H5F_ACC_RDWR, H5P_DEFAULT));
    PetscCall(WriteArray(f, "amplitudes", (hsize_t)nodes, (hsize_t)c->K, c->a));
    PetscCall(WriteArray(f, "amplitude_times", (hsize_t)nodes, 0, tn));
    PetscCall(WriteArray(f, "times", (hsize_t)c->nobs, 0, to));
    PetscCall(WriteArray(f, "target", (hsize_t)c->nobs, NSENSORS, c->target));
    PetscCall(WriteArray(f, "achieved", (hsize_t)c->nobs, NSENSORS, achieved));
    PetscCall(WriteArray(f, "uncontrolled", (hsize_t)c->nobs, NSENSORS, free));
    PetscCall(WriteArray(f, "sensors", NSENSORS, 2, c->sensors));
    PetscCall(WriteArray(f, "rms_tracking_error", 3, 0, rms));
    RwCallHDF5(H5Fclose, (f));
    PetscCall(PetscFree2(tn, to));
  }
  PetscCall(WriteUnits(path));
  PetscCall(RwOutputFileEnd(&out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The job: the optimisation, the baselines line, the outputs */
static PetscErrorCode Run(Control *c)
{
  PetscReal t[3], *achieved, *free;
  PetscInt  iters;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "heat control: %" PetscInt_FMT " actuators, %" PetscInt_FMT " amplitudes (%s), %" PetscInt64_FMT " steps of %g, %d sensors read %" PetscInt_FMT " times; bounds [%g, %g], alpha %g, beta %g\n", c->K, c->size, c->C ? "piecewise linear on nodes" : "a value a step", c->nsteps, (double)c->dt, NSENSORS, c->nobs, (double)c->amin, (double)c->amax, (double)c->alpha, (double)c->beta));
  PetscCall(RwProblemSolve(c->prob, c->tao));
  PetscCall(RwProblemComplete(c->prob));
  PetscCall(TaoGetIterationNumber(c->tao, &iters));
  PetscCall(PetscMalloc2(c->nobs * NSENSORS, &achieved, c->nobs * NSENSORS, &free));
  PetscCall(Baselines(c));
  for (PetscInt i = 0; i < c->size; i++) c->a[i] = 0;
  PetscCall(Forward(c, c->a, t, free));
  PetscCall(RwVecGetFirstRankValues(c->x, c->size, c->a));
  PetscCall(Forward(c, c->a, t, achieved));
  c->rms[0] = RMS(c, t[0]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%" PetscInt_FMT " iterations: J %.6e = tracking misfit %.6e + effort %.6e + smoothness %.6e\n", iters, (double)(t[0] + t[1] + t[2]), (double)t[0], (double)t[1], (double)t[2]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RMS tracking error %.4g against uncontrolled %.4g and constant power %.4g (a = %.4g for every heater)\n", (double)c->rms[0], (double)c->rms[1], (double)c->rms[2], (double)c->power));
  if (c->output[0]) PetscCall(WriteOutput(c, achieved, free));
  if (c->png) PetscCall(RwAppPlotOutput("plot_control.py", c->output));
  PetscCall(PetscFree2(achieved, free));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy(Control *c)
{
  PetscFunctionBegin;
  PetscCall(TaoDestroy(&c->tao));
  PetscCall(VecDestroy(&c->x));
  PetscCall(VecDestroy(&c->mw));
  PetscCall(PetscFree(c->a));
  PetscCall(PetscFree2(c->steps, c->target));
  /* after the outputs: a run killed before them resumes from its journal */
  PetscCall(RwProblemDestroy(&c->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Control   c;
  PetscBool stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  PetscCall(ReadOptions(&c));
  PetscCall(SetUp(&c));
  PetscCall(SetUpTao(&c));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now */
  if (!stop) PetscCall(Run(&c));
  PetscCall(Destroy(&c));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
