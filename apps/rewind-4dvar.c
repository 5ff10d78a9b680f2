static char help[] = "rewind-4dvar: strong-constraint 4D-Var on Lorenz-96: the initial state of a window recovered from noisy,\n"
                     "partial observations through the adjoint and TAO (a twin experiment, doc/chaos.md).\n"
                     "The truth starts on the attractor (the model's default start run for -rw_4dvar_spinup time units); every\n"
                     "k-th point is observed every m steps with noise sigma_o; the background is the truth plus noise sigma_b.\n"
                     "J(x0) = |x0 - x_b|^2 / (2 sigma_b^2) + sum over observations (x(point, step) - y)^2 / (2 sigma_o^2).\n"
                     "The window is -rw_steps steps of -rw_dt (default 50 of 0.01: 0.5 time units, under one Lyapunov time).\n\n"
                     "  -rw_4dvar_spinup T        time units from the model's default start to the truth's (default 10)\n"
                     "  -rw_4dvar_obs_points k    observe every k-th point of the ring (default 2)\n"
                     "  -rw_4dvar_obs_every m     observe every m steps (default 5)\n"
                     "  -rw_4dvar_sigma_o s       observation noise (default 0.5), -rw_4dvar_sigma_b: background noise (default 1)\n"
                     "  -rw_4dvar_seed n          the noises' seed\n"
                     "  -rw_4dvar_segments S      multiple shooting: S segments of -rw_steps / S steps, each start an unknown (default 1)\n"
                     "  -rw_4dvar_matching_weight w1,w2,...  the matching terms' weight (w/2) |end of segment s - start of s+1|^2;\n"
                     "                            several: a continuation, one optimisation each from the last's result (default 1,10,100)\n"
                     "  -rw_output prefix         write prefix.h5 (truth, background, analysis trajectories, observations, history)\n"
                     "  -rw_output_png            also draw prefix.png (jobs/plot_4dvar.py)\n"
                     "  -rw_restart               resume a killed run from its journal (prefix.state; doc/problem.md)\n"
                     "  -rw_history_view ascii|hdf5:file   the history (J, misfit, background term, |g|, seconds, x0 error)\n"
                     "Model: -da_grid_x N (default 40), -rw_l96_forcing F (default 8), -rw_parameter F=f (the assimilating\n"
                     "model's forcing, another than the truth's: model error).\n"
                     "TAO: -tao_type (default blmvm), -tao_max_it (default 200), -tao_monitor, ...\n"
                     "Checkpointing: -rw_schedule_type, -rw_store_type, ...; -rw_adjoint_view: the cost of a gradient\n\n";

#include <rewind.h>
#include <rewind/hdf5.h>
#include <rewind/horizon.h>
#include <petscviewerhdf5.h>
#include <petscdmda.h>
#include "common/plot.h"

typedef struct {
  RwProblem   prob;
  RwModel     model; /* the problem's */
  Tao         tao;
  Vec         x, xt, xb, w;         /* TAO's iterate (an x0), the truth's x0, the background, work */
  Vec         u, unew, nat, seq;    /* a run's states; in natural order; that on rank 0 */
  VecScatter  tozero;
  PetscInt    N, every_point, npoints, ntimes;
  PetscInt64  nsteps, every, seed;
  PetscReal   dt, spinup, sigmao, sigmab;
  PetscReal  *points;               /* the observed points' coordinates */
  PetscInt64 *steps;                /* the observation steps */
  PetscReal   err[4];               /* RMS error of x0 (background, analysis) and over the window (background, analysis) */
  PetscInt    nseg;                 /* multiple shooting: segments of seglen steps (1: none) */
  PetscInt64  seglen;
  PetscReal   wmatch[8];            /* the matching weights, one optimisation each */
  PetscInt    nweights;
  Vec         p;                    /* a segment's part of x */
  char        output[PETSC_MAX_PATH_LEN];
  PetscBool   png;
} FourDVar;

static PetscErrorCode ReadOptions(FourDVar *c)
{
  PetscFunctionBegin;
  c->spinup = 10, c->every_point = 2, c->every = 5, c->sigmao = 0.5, c->sigmab = 1, c->seed = 20261206, c->nseg = 1;
  c->nweights = 3, c->wmatch[0] = 1, c->wmatch[1] = 10, c->wmatch[2] = 100;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-4dvar options", "rewind");
  PetscCall(RwOptionsReal("-rw_4dvar_spinup", "Time units from the model's default start to the truth's initial state (onto the attractor)", NULL, c->spinup, &c->spinup, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscCall(RwOptionsInt("-rw_4dvar_obs_points", "Observe every k-th point of the ring (points 0, k, 2k, ...)", NULL, c->every_point, &c->every_point, NULL, 1, PETSC_MAX_INT));
  PetscCall(RwOptionsInt64("-rw_4dvar_obs_every", "Observe every m steps (steps m, 2m, ... of the window)", NULL, c->every, &c->every, NULL, 1, RW_INT64_MAX));
  PetscCall(RwOptionsReal("-rw_4dvar_sigma_o", "Observation noise sigma_o (standard deviation)", NULL, c->sigmao, &c->sigmao, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-rw_4dvar_sigma_b", "Background noise sigma_b (standard deviation of x_b - truth)", NULL, c->sigmab, &c->sigmab, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsInt64("-rw_4dvar_seed", "Seed of the observation and background noises", NULL, c->seed, &c->seed, NULL, 0, RW_INT64_MAX));
  PetscCall(RwOptionsInt("-rw_4dvar_segments", "Multiple shooting: the window in S segments whose initial states are unknowns, tied by matching terms", NULL, c->nseg, &c->nseg, NULL, 1, PETSC_MAX_INT));
  {
    PetscInt n = (PetscInt)PETSC_STATIC_ARRAY_LENGTH(c->wmatch);
    PetscBool set;

    PetscCall(RwOptionsRealArray("-rw_4dvar_matching_weight", "Multiple shooting: weights w of the matching terms (w/2) |end of segment s - start of segment s+1|^2, one optimisation each (a continuation)", NULL, "1,10,100", c->wmatch, &n, &set, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
    if (set) c->nweights = n;
  }
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the output file (prefix.h5)", NULL, c->output, c->output, sizeof(c->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw prefix.png (jobs/plot_4dvar.py)", NULL, c->png, &c->png, NULL));
  PetscOptionsEnd();
  PetscCheck(!c->png || c->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output prefix too");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The embedded set-up, before the options (which stand over it) */
static PetscErrorCode ModelDefaults(RwModel model, void *ctx)
{
  const PetscInt M[3] = {40, 0, 0};

  PetscFunctionBegin;
  PetscCall(RwModelSetGridSizes(model, M));
  PetscCall(RwModelSetSteps(model, 50));
  PetscCall(RwModelSetTimeStep(model, 0.01));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A normal number a grid point, drawn from the seed and the point's coordinates: the same on any number of ranks */
static PetscReal PointNoise(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscInt64 seed = *(const PetscInt64 *)ctx;

  return RwHashNormal(seed, (PetscInt64)(RwHashBytes(0, x, dim * sizeof(x[0])) >> 1));
}

/* The background: the truth plus sigma_b times a normal number at each point (the observed component) */
static PetscErrorCode Background(FourDVar *c)
{
  PetscInt64 seed = c->seed + 1; /* not the observations' noise */
  PetscInt   comp;
  Vec        f, e;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateInfo(c->model, NULL, NULL, &comp));
  PetscCall(RwModelCreateField(c->model, &f));
  PetscCall(RwModelFillField(c->model, f, PointNoise, &seed));
  PetscCall(VecDuplicate(c->xt, &e));
  PetscCall(VecSet(e, 0));
  PetscCall(RwModelSetStateComponent(c->model, f, comp, e));
  PetscCall(VecWAXPY(c->xb, c->sigmab, e, c->xt));
  PetscCall(VecDestroy(&e));
  PetscCall(VecDestroy(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Multiple shooting: S segments of L = n / S steps, each observed at its own
  steps m, 2m, ..., L; the problem's members are the segments
  (RwProblemSetShooting()).  One segment is today's strong-constraint 4D-Var.
*/
static PetscErrorCode SetUpSegments(FourDVar *c)
{
  PetscFunctionBegin;
  c->seglen = c->nsteps;
  if (c->nseg == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(c->nsteps % c->nseg == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_4dvar_segments %" PetscInt_FMT " does not divide the window's %" PetscInt64_FMT " steps (-rw_steps)", c->nseg, c->nsteps);
  c->seglen = c->nsteps / c->nseg;
  PetscCheck(c->seglen % c->every == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_4dvar_segments %" PetscInt_FMT ": a segment of %" PetscInt64_FMT " steps is not a multiple of -rw_4dvar_obs_every %" PetscInt64_FMT " (each segment is observed at the same steps of its own)", c->nseg, c->seglen, c->every);
  PetscCall(RwProblemSetShooting(c->prob, c->seglen, c->wmatch[0]));
  {
    char list[256] = "";
    size_t len;

    for (PetscInt i = 0; i < c->nweights; i++) {
      PetscCall(PetscStrlen(list, &len));
      PetscCall(PetscSNPrintf(list + len, sizeof(list) - len, "%s%.17g", i ? "," : "", (double)c->wmatch[i]));
    }
    PetscCall(RwProblemAddIdentity(c->prob, "matching_weights", list)); /* the journal replays the whole continuation */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u advanced n steps of the model with parameters m (the truth's, the background's runs) */
static PetscErrorCode Advance(FourDVar *c, Vec m, Vec u, PetscInt64 n)
{
  Vec unew;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(u, &unew));
  PetscCall(RwModelSetParameters(c->model, m));
  for (PetscInt64 k = 0; k < n; k++) {
    PetscCall(RwModelStep(c->model, k, u, unew));
    PetscCall(VecCopy(unew, u));
  }
  PetscCall(RwModelCheckFinite(c->model));
  PetscCall(VecDestroy(&unew));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twin: the truth's x0 on the attractor, the background, the observations of its run (one member) */
static PetscErrorCode CreateTwin(FourDVar *c)
{
  RwObservations obs;
  PetscBool      help;
  DM             da;
  Vec            m, u0;

  PetscFunctionBegin;
  PetscCall(RwProblemGetModel(c->prob, &c->model));
  PetscCall(RwModelGetSteps(c->model, &c->nsteps));
  PetscCall(RwModelGetTimeStep(c->model, &c->dt));
  PetscCall(RwModelGetStateDM(c->model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &c->N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(c->every_point <= c->N, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_4dvar_obs_points %" PetscInt_FMT " exceeds the ring's %" PetscInt_FMT " points (-da_grid_x)", c->every_point, c->N);
  PetscCheck(c->every <= c->nsteps, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rw_4dvar_obs_every %" PetscInt64_FMT " leaves no observation in the window of %" PetscInt64_FMT " steps (-rw_steps)", c->every, c->nsteps);
  c->npoints = (c->N + c->every_point - 1) / c->every_point;
  c->ntimes  = (PetscInt)(c->nsteps / c->every);
  PetscCall(SetUpSegments(c));
  PetscCall(PetscMalloc2(c->npoints, &c->points, c->ntimes, &c->steps));
  for (PetscInt s = 0; s < c->npoints; s++) PetscCall(RwModelGetCoordinates(c->model, 0, s * c->every_point, &c->points[s]));
  for (PetscInt t = 0; t < c->ntimes; t++) c->steps[t] = (t + 1) * c->every;
  /* the truth: the default start run onto the attractor (-help solves nothing: no spin-up) */
  PetscCall(RwModelCreateParameters(c->model, &m));
  PetscCall(RwModelCreateState(c->model, &u0));
  PetscCall(RwModelGetDefaults(c->model, m, u0, NULL));
  PetscCall(VecDuplicate(u0, &c->xt));
  PetscCall(VecDuplicate(u0, &c->xb));
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  PetscCall(RwHorizonWindowStarts(c->model, m, u0, help ? 0 : (PetscInt64)PetscFloorReal(c->spinup / c->dt + 0.5), 1, 1, &c->xt));
  PetscCall(Background(c));
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &obs));
  PetscCall(RwObservationsSetModel(obs, c->model));
  PetscCall(RwObservationsSetNumMembers(obs, c->nseg));
  PetscCall(RwObservationsSetSteps(obs, c->ntimes / c->nseg, c->steps)); /* a segment's own steps: the first segment's */
  PetscCall(RwObservationsSetSensors(obs, RW_OBS_ALL_MEMBERS, c->npoints, c->points));
  PetscCall(VecCopy(c->xt, u0));
  for (PetscInt s = 0; s < c->nseg; s++) { /* segment s from the truth at its start; its noise is the whole window's (readings numbered on) */
    if (s && !help) PetscCall(Advance(c, m, u0, c->seglen));
    PetscCall(RwObservationsSynthesize(obs, s, m, u0, c->sigmao, PETSC_FALSE, c->seed));
  }
  PetscCall(RwProblemSetObservations(c->prob, obs));
  /* the background term: l2 of the unknown x0 about x_b, weight 1 / sigma_b^2 (a grid point's volume is 1) */
  PetscCall(RwProblemAddRegularizer(c->prob, NULL, RW_REG_L2, 1 / (c->sigmab * c->sigmab), 0, c->xb));
  PetscCall(RwObservationsDestroy(&obs));
  PetscCall(VecDestroy(&m));
  PetscCall(VecDestroy(&u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RMS over the ring of a - b, the same bits on any number of ranks */
static PetscErrorCode RMSDifference(FourDVar *c, Vec a, Vec b, PetscReal *rms)
{
  PetscReal nrm;

  PetscFunctionBegin;
  PetscCall(VecWAXPY(c->w, -1, b, a));
  PetscCall(RwVecNormRepro(c->w, &nrm));
  *rms = nrm / PetscSqrtReal((PetscReal)c->N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The iterate's x0: x itself, or the first segment's part of it */
static PetscErrorCode FirstState(FourDVar *c, Vec x, Vec *x0)
{
  PetscFunctionBegin;
  *x0 = x;
  if (c->nseg == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwProblemGetMemberUnknown(c->prob, 0, x, c->p));
  *x0 = c->p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The history's column error: the iterate's RMS error against the truth's x0 */
static PetscErrorCode HistoryError(RwProblem prob, Vec x, PetscReal *v, void *ctx)
{
  FourDVar *c = (FourDVar *)ctx;
  Vec       x0;

  PetscFunctionBegin;
  PetscCall(FirstState(c, x, &x0));
  PetscCall(RMSDifference(c, x0, c->xt, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The history's column gap (multiple shooting): the largest RMS gap between a segment's end and the next one's start */
static PetscErrorCode HistoryGap(RwProblem prob, Vec x, PetscReal *v, void *ctx)
{
  FourDVar *c = (FourDVar *)ctx;
  Vec       m, u0;
  PetscReal g;

  PetscFunctionBegin;
  *v = 0;
  PetscCall(RwProblemGetParameters(c->prob, &m, &u0));
  for (PetscInt s = 0; s + 1 < c->nseg; s++) {
    PetscCall(RwProblemGetMemberUnknown(c->prob, s, x, c->u));
    PetscCall(Advance(c, m, c->u, c->seglen));
    PetscCall(RwProblemGetMemberUnknown(c->prob, s + 1, x, c->p));
    PetscCall(RMSDifference(c, c->u, c->p, &g));
    *v = PetscMax(*v, g);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUp(FourDVar *c)
{
  char journal[PETSC_MAX_PATH_LEN + 8];
  DM   da;

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &c->prob));
  PetscCall(RwProblemSetModelType(c->prob, RWMODELL96));
  PetscCall(RwProblemSetModelDefaults(c->prob, ModelDefaults, c));
  PetscCall(RwProblemSetUnknown(c->prob, "u0"));
  PetscCall(PetscSNPrintf(journal, sizeof(journal), "%s.state", c->output));
  PetscCall(RwProblemSetJournal(c->prob, c->output[0] ? journal : NULL));
  PetscCall(RwProblemAddHistoryColumn(c->prob, "error", HistoryError, c));
  PetscCall(RwProblemSetHistoryColumnInfo(c->prob, "error", "1", "RMS error of the iterate x0 against the truth's initial state"));
  if (c->nseg > 1) {
    PetscCall(RwProblemAddHistoryColumn(c->prob, "gap", HistoryGap, c));
    PetscCall(RwProblemSetHistoryColumnInfo(c->prob, "gap", "1", "multiple shooting: the largest RMS gap between a segment's end and the next segment's start"));
  }
  PetscCall(RwProblemSetFromOptions(c->prob));
  PetscCall(CreateTwin(c));
  PetscCall(RwProblemSetUp(c->prob));
  PetscCall(RwProblemCreateUnknownVector(c->prob, &c->x));
  PetscCall(VecDuplicate(c->xt, &c->w));
  PetscCall(VecDuplicate(c->xt, &c->u));
  PetscCall(VecDuplicate(c->xt, &c->unew));
  PetscCall(VecDuplicate(c->xt, &c->p));
  PetscCall(RwModelGetStateDM(c->model, &da));
  PetscCall(DMDACreateNaturalVector(da, &c->nat));
  PetscCall(VecScatterCreateToZero(c->nat, &c->tozero, &c->seq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The progress line of an iteration, from the history's last row */
static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  FourDVar         *c       = (FourDVar *)ctx;
  const char *const want[5] = {"iteration", "J", "misfit", "gradient_norm", "error"};
  PetscReal         v[5];

  PetscFunctionBegin;
  PetscCall(RwProblemGetHistoryValues(c->prob, -1, 5, want, v));
  if (c->nseg > 1) {
    const char *gap = "gap";
    PetscReal   g;

    PetscCall(RwProblemGetHistoryValues(c->prob, -1, 1, &gap, &g));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iter %3d  J %.6e  misfit %.6e  |g| %.3e  x0 error %.4f  gap %.3e\n", (int)v[0], (double)v[1], (double)v[2], (double)v[3], (double)v[4], (double)g));
  } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iter %3d  J %.6e  misfit %.6e  |g| %.3e  x0 error %.4f\n", (int)v[0], (double)v[1], (double)v[2], (double)v[3], (double)v[4]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first guess: the background x_b; with segments, segment s starts from the background's run at its start */
static PetscErrorCode StartGuess(FourDVar *c)
{
  Vec m, u0;

  PetscFunctionBegin;
  if (c->nseg == 1) {
    PetscCall(VecCopy(c->xb, c->x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(RwProblemGetParameters(c->prob, &m, &u0));
  PetscCall(VecCopy(c->xb, c->u));
  for (PetscInt s = 0; s < c->nseg; s++) {
    if (s) PetscCall(Advance(c, m, c->u, c->seglen));
    PetscCall(RwProblemSetMemberUnknown(c->prob, s, c->u, c->x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpTao(FourDVar *c)
{
  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &c->tao));
  PetscCall(TaoSetType(c->tao, TAOBLMVM)); /* its projected line search backs off a first step that blows the state up (J = +Inf at such a trial point, RwProblem); lmvm backs off with -tao_ls_type armijo */
  PetscCall(TaoSetMaximumIterations(c->tao, 200));
  PetscCall(TaoSetTolerances(c->tao, 1e-4, 1e-9, 0));
  PetscCall(StartGuess(c)); /* the first guess: the background (and its run, at the segments' starts) */
  PetscCall(TaoSetSolution(c->tao, c->x));
  PetscCall(RwProblemSetUpTao(c->prob, c->tao));
  PetscCall(TaoSetMonitor(c->tao, Monitor, c, NULL));
  PetscCall(TaoSetFromOptions(c->tao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run of n steps from x0 with the problem's parameters; traj (rank 0, (n + 1) x N) its states in natural order */
static PetscErrorCode Trajectory(FourDVar *c, Vec x0, PetscInt64 n, PetscReal traj[])
{
  DM        da;
  Vec       m, u0;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(RwModelGetStateDM(c->model, &da));
  PetscCall(RwProblemGetParameters(c->prob, &m, &u0)); /* the base: every member's (none has its own) */
  PetscCall(RwModelSetParameters(c->model, m));
  PetscCall(VecCopy(x0, c->u));
  for (PetscInt64 k = 0; k <= n; k++) {
    if (k) {
      PetscCall(RwModelStep(c->model, k - 1, c->u, c->unew));
      PetscCall(VecSwap(c->u, c->unew));
    }
    PetscCall(DMDAGlobalToNaturalBegin(da, c->u, INSERT_VALUES, c->nat));
    PetscCall(DMDAGlobalToNaturalEnd(da, c->u, INSERT_VALUES, c->nat));
    PetscCall(VecScatterBegin(c->tozero, c->nat, c->seq, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(c->tozero, c->nat, c->seq, INSERT_VALUES, SCATTER_FORWARD));
    if (!rank) {
      const PetscScalar *a;

      PetscCall(VecGetArrayRead(c->seq, &a));
      for (PetscInt i = 0; i < c->N; i++) traj[k * c->N + i] = PetscRealPart(a[i]);
      PetscCall(VecRestoreArrayRead(c->seq, &a));
    }
  }
  PetscCall(RwModelCheckFinite(c->model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The analysis's trajectory: the run from x0, or the segments' runs joined (each boundary row the next segment's start) */
static PetscErrorCode AnalysisTrajectory(FourDVar *c, PetscReal traj[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (c->nseg == 1) {
    PetscCall(Trajectory(c, c->x, c->nsteps, traj));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt s = 0; s < c->nseg; s++) {
    PetscCall(RwProblemGetMemberUnknown(c->prob, s, c->x, c->p));
    PetscCall(Trajectory(c, c->p, c->seglen, rank ? traj : traj + s * c->seglen * c->N));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RMS over the window and the ring of a - b (rank 0's trajectories), broadcast */
static PetscErrorCode WindowRMS(FourDVar *c, const PetscReal a[], const PetscReal b[], PetscReal *rms)
{
  PetscMPIInt rank;
  PetscInt64  n = (c->nsteps + 1) * c->N;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  *rms = 0;
  if (!rank) {
    for (PetscInt64 i = 0; i < n; i++) *rms += PetscSqr(a[i] - b[i]);
    *rms = PetscSqrtReal(*rms / n);
  }
  PetscCallMPI(MPI_Bcast(rms, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every dataset holds: Lorenz-96 is nondimensional */
static PetscErrorCode WriteUnits(const char h5[])
{
  const RwIODatasetInfo info[] = {
    {"times",              "1", "model time of the trajectories' rows (0: the window's start)"                              },
    {"truth",              "1", "the truth's trajectory x, [time, point]"                                                   },
    {"background",         "1", "the run from the background x_b, [time, point]"                                           },
    {"analysis",           "1", "the run from the analysis (the recovered x0), [time, point]"                              },
    {"observations",       "1", "the noisy observations y, [observation time, observed point]"                             },
    {"observation_times",  "1", "model times of the observations' rows"                                                     },
    {"observation_points", "1", "the observed points (ring indices)"                                                        },
    {"rms_error",          "1", "RMS error against the truth: x0 of background and analysis, then over the window of both"}
  };

  PetscFunctionBegin;
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, h5, (PetscInt)PETSC_STATIC_ARRAY_LENGTH(info), info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteArray(hid_t f, const char name[], hsize_t n0, hsize_t n1, const PetscReal *v)
{
  hsize_t dims[2] = {n0, n1};

  PetscFunctionBegin;
  PetscCall(RwH5WriteArray(f, name, n1 ? 2 : 1, dims, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <prefix>.h5: the model's metadata and the history (collective), then rank 0's arrays */
static PetscErrorCode WriteOutput(FourDVar *c, PetscReal *traj[3])
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
    RwObservations   obs;
    const PetscReal *y;
    PetscReal       *t, *to;
    hid_t            f;

    PetscCall(RwProblemGetObservations(c->prob, &obs));
    PetscCall(RwObservationsGetData(obs, 0, &y, NULL));
    PetscCall(PetscMalloc2(c->nsteps + 1, &t, c->ntimes, &to));
    for (PetscInt64 k = 0; k <= c->nsteps; k++) t[k] = k * c->dt;
    for (PetscInt j = 0; j < c->ntimes; j++) to[j] = c->steps[j] * c->dt;
    RwCallHDF5Return(f, H5Fopen, (path, H5F_ACC_RDWR, H5P_DEFAULT));
    PetscCall(WriteArray(f, "times", (hsize_t)c->nsteps + 1, 0, t));
    PetscCall(WriteArray(f, "truth", (hsize_t)c->nsteps + 1, (hsize_t)c->N, traj[0]));
    PetscCall(WriteArray(f, "background", (hsize_t)c->nsteps + 1, (hsize_t)c->N, traj[1]));
    PetscCall(WriteArray(f, "analysis", (hsize_t)c->nsteps + 1, (hsize_t)c->N, traj[2]));
    PetscCall(WriteArray(f, "observations", (hsize_t)c->ntimes, (hsize_t)c->npoints, y));
    PetscCall(WriteArray(f, "observation_times", (hsize_t)c->ntimes, 0, to));
    PetscCall(WriteArray(f, "observation_points", (hsize_t)c->npoints, 0, c->points));
    PetscCall(WriteArray(f, "rms_error", 4, 0, c->err));
    RwCallHDF5(H5Fclose, (f));
    PetscCall(PetscFree2(t, to));
  }
  PetscCall(WriteUnits(path));
  PetscCall(RwOutputFileEnd(&out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The job: the assimilation, the errors against the truth, the outputs */
static PetscErrorCode Run(FourDVar *c)
{
  PetscReal          *traj[3] = {NULL, NULL, NULL};
  PetscInt            iters, total = 0;
  TaoConvergedReason  reason;
  PetscMPIInt         rank;
  PetscInt64          n;
  Vec                 x0;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "4D-Var on Lorenz-96: %" PetscInt_FMT " points, window %" PetscInt64_FMT " steps of %g (T = %g); %" PetscInt_FMT " points observed at %" PetscInt_FMT " times (sigma_o %g), background sigma_b %g\n", c->N, c->nsteps, (double)c->dt, (double)(c->nsteps * c->dt), c->npoints, c->ntimes, (double)c->sigmao, (double)c->sigmab));
  for (PetscInt i = 0; i < (c->nseg > 1 ? c->nweights : 1); i++) { /* one solve, or the continuation in the matching weight */
    if (c->nseg > 1) {
      PetscCall(RwProblemSetShootingWeight(c->prob, c->wmatch[i]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Multiple shooting: %" PetscInt_FMT " segments of %" PetscInt64_FMT " steps, matching weight %.3g\n", c->nseg, c->seglen, (double)c->wmatch[i]));
    }
    PetscCall(RwProblemSolve(c->prob, c->tao));
    PetscCall(TaoGetIterationNumber(c->tao, &iters));
    total += iters;
  }
  PetscCall(RwProblemComplete(c->prob));
  PetscCall(TaoGetConvergedReason(c->tao, &reason));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  n = rank ? 0 : (c->nsteps + 1) * c->N;
  PetscCall(PetscMalloc3(n, &traj[0], n, &traj[1], n, &traj[2]));
  PetscCall(Trajectory(c, c->xt, c->nsteps, traj[0]));
  PetscCall(Trajectory(c, c->xb, c->nsteps, traj[1]));
  PetscCall(AnalysisTrajectory(c, traj[2]));
  PetscCall(RMSDifference(c, c->xb, c->xt, &c->err[0]));
  PetscCall(FirstState(c, c->x, &x0));
  PetscCall(RMSDifference(c, x0, c->xt, &c->err[1]));
  PetscCall(WindowRMS(c, traj[1], traj[0], &c->err[2]));
  PetscCall(WindowRMS(c, traj[2], traj[0], &c->err[3]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%" PetscInt_FMT " iterations (TAO: %s)\n", total, TaoConvergedReasons[reason]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RMS error of x0: background %.4f, analysis %.4f; over the window: background %.4f, analysis %.4f\n", (double)c->err[0], (double)c->err[1], (double)c->err[2], (double)c->err[3]));
  if (c->nseg > 1) {
    PetscReal gap;

    PetscCall(HistoryGap(c->prob, c->x, &gap, c));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Multiple shooting: %" PetscInt_FMT " segments of %" PetscInt64_FMT " steps; largest RMS gap between segments %.3e (matching weight %.3g)\n", c->nseg, c->seglen, (double)gap, (double)c->wmatch[c->nweights - 1]));
  }
  if (c->output[0]) PetscCall(WriteOutput(c, traj));
  if (c->png) PetscCall(RwAppPlotOutput("plot_4dvar.py", c->output));
  PetscCall(PetscFree3(traj[0], traj[1], traj[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy(FourDVar *c)
{
  PetscFunctionBegin;
  PetscCall(TaoDestroy(&c->tao));
  PetscCall(VecDestroy(&c->x));
  PetscCall(VecDestroy(&c->xt));
  PetscCall(VecDestroy(&c->xb));
  PetscCall(VecDestroy(&c->w));
  PetscCall(VecDestroy(&c->u));
  PetscCall(VecDestroy(&c->unew));
  PetscCall(VecDestroy(&c->p));
  PetscCall(VecDestroy(&c->nat));
  PetscCall(VecDestroy(&c->seq));
  PetscCall(VecScatterDestroy(&c->tozero));
  PetscCall(PetscFree2(c->points, c->steps));
  /* after the outputs: a run killed before them resumes from its journal */
  PetscCall(RwProblemDestroy(&c->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  FourDVar  c;
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
