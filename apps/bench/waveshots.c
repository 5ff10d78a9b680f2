/*
  Shots of a wave survey through the problem layer rewind-fwi runs
  (RwProblemEvaluate(): the shots are the problem's members, solved by
  groups of ranks).  Two cases: shots per second of rewind-fwi's embedded 2D
  problem on one rank and on all, in shot groups or not; and issue 37's 3D
  gradient (rewind-fwi -rw_fwi_dim 3's shape: 128^3 physical points, 4 shots,
  800 steps, the default budget) against its roofline: the bytes its steps
  and checkpoints must move, at the best copy bandwidth of the run.
*/
#include "bench.h"

/* A survey: the model's options, the shots' sources and the receivers (physical coordinates, depth last) */
typedef struct {
  PetscInt   dim, nshots, nrec;
  PetscReal *src, *rec; /* nshots * dim, nrec * dim */
  char       base[256]; /* the wave model's options */
  PetscInt   steps;     /* 0: from -rw_bench_wave_record */
  PetscBool  record;    /* the default model's data recorded first; else zero data (a misfit as costly) */
} WaveSurvey;

typedef struct {
  const WaveSurvey *sv;
  RwProblem         prob;
  RwObservations    shots;
  Vec               x, G;    /* the unknown m, the run's 2% slower than the data's; dJ/dm */
  PetscInt          nt, groups;
  PetscBool         active; /* this rank takes part */
} WaveShots;

/* rewind-fwi's embedded problem: 101 x 51 physical points at 20 m, 20
   absorbing points a side, order 4, Ricker 10 Hz, 8 shots at 48 m depth, 51
   receivers every 40 m, dt 0.8 of the stability limit at 4 km/s in whole
   microseconds, as rewind-fwi */
static PetscErrorCode WaveSurvey2D(WaveSurvey *sv)
{
  const PetscReal h = 20, X = 100 * h;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(sv, sizeof(*sv)));
  sv->dim = 2, sv->nshots = 8, sv->nrec = 51, sv->record = PETSC_TRUE;
  PetscCall(PetscStrncpy(sv->base, "-rw_wave_dim 2 -rw_wave_space_order 4 -da_grid_x 141 -da_grid_y 91 -rw_wave_nbl 20 -rw_wave_spacing 20 -rw_wave_f0 0.01", sizeof(sv->base)));
  PetscCall(PetscMalloc2(2 * sv->nshots, &sv->src, 2 * sv->nrec, &sv->rec));
  for (PetscInt s = 0; s < sv->nshots; s++) {
    sv->src[2 * s]     = (s + 0.5) * X / sv->nshots + 0.3 * h;
    sv->src[2 * s + 1] = 2.4 * h;
  }
  for (PetscInt r = 0; r < sv->nrec; r++) {
    sv->rec[2 * r]     = PetscMin(r * 40.0 + 0.5 * h, X);
    sv->rec[2 * r + 1] = 1.3 * h;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rewind-fwi -rw_fwi_dim 3's shape at n^3 physical points: 20 m, 10
   absorbing points a side, order 4, 10 Hz, 4 shots on a 2 x 2 grid at 48 m
   depth, a grid of receivers every 40 m at 26 m; zero data */
static PetscErrorCode WaveSurvey3D(PetscInt n, PetscInt steps, WaveSurvey *sv)
{
  const PetscReal h = 20, L = (n - 1) * h;
  const PetscInt  nr = (PetscInt)PetscFloorReal(L / 40) + 1, side = n + 20;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(sv, sizeof(*sv)));
  sv->dim = 3, sv->nshots = 4, sv->nrec = nr * nr, sv->steps = steps;
  PetscCall(PetscSNPrintf(sv->base, sizeof(sv->base), "-rw_wave_dim 3 -rw_wave_space_order 4 -da_grid_x %" PetscInt_FMT " -da_grid_y %" PetscInt_FMT " -da_grid_z %" PetscInt_FMT " -rw_wave_nbl 10 -rw_wave_spacing 20 -rw_wave_f0 0.01", side, side, side));
  PetscCall(PetscMalloc2(3 * sv->nshots, &sv->src, 3 * sv->nrec, &sv->rec));
  for (PetscInt s = 0; s < sv->nshots; s++) {
    sv->src[3 * s]     = ((s % 2) + 0.5) * L / 2 + 0.3 * h;
    sv->src[3 * s + 1] = ((s / 2) + 0.5) * L / 2 + 0.3 * h;
    sv->src[3 * s + 2] = 2.4 * h;
  }
  for (PetscInt r = 0; r < sv->nrec; r++) {
    sv->rec[3 * r]     = PetscMin((r % nr) * 40.0 + 0.5 * h, L);
    sv->rec[3 * r + 1] = PetscMin((r / nr) * 40.0 + 0.5 * h, L);
    sv->rec[3 * r + 2] = 1.3 * h;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveSurveyDestroy(WaveSurvey *sv)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(sv->src, sv->rec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dt at 0.8 of the stability limit at 4 km/s in whole microseconds, as
   rewind-fwi; the steps of the survey's, or of a -rw_bench_wave_record ms record */
static PetscErrorCode WaveShotsSteps(const BenchConfig *cfg, MPI_Comm comm, const WaveSurvey *sv, PetscReal *dt, PetscInt *nt)
{
  PetscOptions opts;
  RwModel      probe;

  PetscFunctionBegin;
  PetscCall(BenchOptionsPush(&opts, "%s -rw_steps 2", sv->base));
  PetscCall(RwModelCreate(comm, &probe));
  PetscCall(RwModelSetType(probe, RWMODELWAVE));
  PetscCall(RwModelSetFromOptions(probe));
  PetscCall(RwModelSetUp(probe));
  PetscCall(RwModelWaveStableTimeStep(probe, 4.0, dt));
  PetscCall(RwModelDestroy(&probe));
  PetscCall(BenchOptionsPop(&opts));
  *dt = PetscFloorReal(0.8 * *dt * 1000) / 1000;
  *nt = sv->steps ? sv->steps + 1 : (PetscInt)PetscCeilReal(cfg->wave_record / *dt) + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The survey as the problem's members, data zero until recorded: per shot its source and receivers at every step, from rest */
static PetscErrorCode WaveShotsSurvey(WaveShots *S, MPI_Comm comm, RwModel parent)
{
  const WaveSurvey *sv = S->sv;
  PetscInt64       *steps;
  PetscReal        *zero;
  Vec               u0;

  PetscFunctionBegin;
  PetscCall(RwObservationsCreate(comm, &S->shots));
  PetscCall(RwObservationsSetModel(S->shots, parent));
  PetscCall(RwObservationsSetNumMembers(S->shots, sv->nshots));
  PetscCall(PetscMalloc1(S->nt, &steps));
  for (PetscInt k = 0; k < S->nt; k++) steps[k] = k;
  PetscCall(RwObservationsSetSteps(S->shots, S->nt, steps));
  PetscCall(PetscFree(steps));
  PetscCall(PetscCalloc1(S->nt * sv->nrec, &zero));
  for (PetscInt s = 0; s < sv->nshots; s++) {
    PetscCall(RwObservationsSetSources(S->shots, s, 1, sv->src + sv->dim * s));
    PetscCall(RwObservationsSetSensors(S->shots, s, sv->nrec, sv->rec));
    PetscCall(RwObservationsSetData(S->shots, s, zero, 1.0));
  }
  PetscCall(PetscFree(zero));
  PetscCall(RwModelCreateState(parent, &u0));
  PetscCall(VecSet(u0, 0));
  PetscCall(RwObservationsSetKnown(S->shots, RW_OBS_ALL_MEMBERS, "u0", u0));
  PetscCall(VecDestroy(&u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data: every shot's traces of the default model, recorded by each group with its model */
static PetscErrorCode WaveShotsRecord(WaveShots *S)
{
  const WaveSurvey *sv = S->sv;
  RwModel           gmodel;
  Vec               mtrue, u0;
  PetscReal        *d;

  PetscFunctionBegin;
  PetscCall(RwProblemGetMemberSolver(S->prob, &gmodel, NULL, NULL));
  PetscCall(RwModelCreateParameters(gmodel, &mtrue));
  PetscCall(RwModelCreateState(gmodel, &u0));
  PetscCall(RwModelGetDefaults(gmodel, mtrue, u0, NULL));
  PetscCall(PetscMalloc1(S->nt * sv->nrec, &d));
  for (PetscInt s = 0; s < sv->nshots; s++) {
    PetscCall(RwModelWaveSetSources(gmodel, 1, sv->src + sv->dim * s));
    PetscCall(RwModelWaveRecord(gmodel, mtrue, sv->nrec, sv->rec, d));
    PetscCall(RwObservationsSetData(S->shots, s, d, 1.0));
  }
  PetscCall(PetscFree(d));
  PetscCall(VecDestroy(&mtrue));
  PetscCall(VecDestroy(&u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Shots on `ranks` ranks of the run in `groups` groups (0: RwEnsemble's
  choice, as many as divide both the ranks and the shots), as rewind-fwi
  sets them up (RwProblem with the unknown m, the default schedule and
  budget, no journal); the other ranks wait
*/
static PetscErrorCode WaveShotsCreate(const BenchConfig *cfg, const WaveSurvey *sv, PetscMPIInt ranks, PetscInt groups, WaveShots *S)
{
  PetscOptions opts;
  PetscMPIInt  rank;
  MPI_Comm     comm;
  RwModel      parent;
  RwEnsemble   e;
  PetscReal    dt;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(S, sizeof(*S)));
  S->sv = sv;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  S->active = rank < ranks ? PETSC_TRUE : PETSC_FALSE;
  PetscCallMPI(MPI_Comm_split(PETSC_COMM_WORLD, S->active ? 0 : MPI_UNDEFINED, rank, &comm));
  if (!S->active) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(WaveShotsSteps(cfg, comm, sv, &dt, &S->nt));
  PetscCall(BenchOptionsPush(&opts, "%s -rw_steps %" PetscInt_FMT " -rw_dt %.17g", sv->base, S->nt - 1, (double)dt));
  PetscCall(RwProblemCreate(comm, &S->prob));
  PetscCall(RwProblemSetModelType(S->prob, RWMODELWAVE));
  PetscCall(RwProblemSetUnknown(S->prob, "m"));
  PetscCall(RwProblemGetEnsemble(S->prob, &e));
  PetscCall(RwEnsembleSetGroups(e, groups));
  PetscCall(RwProblemSetFromOptions(S->prob));
  PetscCall(RwProblemGetModel(S->prob, &parent));
  PetscCall(WaveShotsSurvey(S, comm, parent));
  PetscCall(RwProblemSetObservations(S->prob, S->shots));
  PetscCall(RwProblemSetUp(S->prob));
  PetscCall(BenchOptionsPop(&opts));
  PetscCall(RwEnsembleGetGroup(e, NULL, &S->groups));
  if (sv->record) PetscCall(WaveShotsRecord(S));
  PetscCall(RwProblemCreateUnknownVector(S->prob, &S->x));
  PetscCall(RwProblemGetUnknown(S->prob, S->x)); /* the default model's m, the data's */
  PetscCall(VecScale(S->x, 1.02));               /* 2% slower everywhere: J > 0 */
  PetscCall(VecDuplicate(S->x, &S->G));
  PetscCallMPI(MPI_Comm_free(&comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveShotsDestroy(WaveShots *S)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&S->x));
  PetscCall(VecDestroy(&S->G));
  PetscCall(RwObservationsDestroy(&S->shots));
  PetscCall(RwProblemDestroy(&S->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One gradient of all shots, as rewind-fwi's TAO asks for it: each group solves its shots, J and dJ/dm summed in shot order */
static PetscErrorCode WaveShotsRun(void *ctx, PetscInt calls)
{
  WaveShots *S = (WaveShots *)ctx;
  PetscReal  J;

  PetscFunctionBegin;
  if (!S->active) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt c = 0; c < calls; c++) PetscCall(RwProblemEvaluate(S->prob, S->x, &J, S->G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveShotsCase(const BenchConfig *cfg, BenchResults res, const WaveSurvey *sv, PetscMPIInt ranks, PetscInt groups, PetscReal *rate)
{
  WaveShots   S;
  BenchTiming t;
  PetscInt64  steps = 0, ngroups = 0;

  PetscFunctionBegin;
  PetscCall(WaveShotsCreate(cfg, sv, ranks, groups, &S));
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, WaveShotsRun, &S, &t));
  if (S.active) steps = S.nt - 1;
  if (S.active) ngroups = S.groups;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &steps, 1, MPIU_INT64, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ngroups, 1, MPIU_INT64, MPI_MAX, PETSC_COMM_WORLD));
  groups = (PetscInt)ngroups;
  *rate  = sv->nshots / t.best;
  PetscCall(BenchRow(res, "shots %d rank%s, %" PetscInt_FMT " group%s", ranks, ranks > 1 ? "s" : "", groups, groups > 1 ? "s" : ""));
  PetscCall(BenchInt(res, "ranks", ranks));
  PetscCall(BenchInt(res, "groups", groups));
  PetscCall(BenchInt(res, "shots", sv->nshots));
  PetscCall(BenchInt(res, "steps", steps));
  PetscCall(BenchReal(res, "gradient", "s", t.best));
  PetscCall(BenchReal(res, "shots_per_s", "1/s", *rate));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(&t)));
  PetscCall(WaveShotsDestroy(&S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchWaveShots(const BenchConfig *cfg, BenchResults res)
{
  WaveSurvey  sv;
  PetscMPIInt size;
  PetscReal   one, plain, grouped;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(WaveSurvey2D(&sv));
  PetscCall(WaveShotsCase(cfg, res, &sv, 1, 1, &one));
  if (size > 1) {
    PetscCall(WaveShotsCase(cfg, res, &sv, size, 1, &plain));
    PetscCall(WaveShotsCase(cfg, res, &sv, size, 0, &grouped));
    PetscCall(BenchRow(res, "shot groups speed-up"));
    PetscCall(BenchReal(res, "over_one_group", "", grouped / plain));
    PetscCall(BenchReal(res, "over_one_rank", "", grouped / one));
  }
  PetscCall(WaveSurveyDestroy(&sv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The 3D gradient against its roofline.  One evaluation of all shots on
  every rank of the run (RwEnsemble's shot groups), timed once: at the full
  size it takes minutes, and a second would change nothing but the first
  touch of the stores' pages, which a user's run pays too.  The roofline of
  a shot is the bytes it must move at the best copy bandwidth of the run:
  N points x (F forward steps x 56 B + n reverse steps x 104 B, the wave
  section's counts) + the bytes its checkpoints wrote and read, F and the
  bytes from the driver's counts of the group's last shot; the run's
  roofline is shots x that over the copy bandwidth of all ranks.
*/
PetscErrorCode BenchWaveFwi3D(const BenchConfig *cfg, BenchResults res)
{
  WaveSurvey      sv;
  WaveShots       S;
  RwAdjointCounts c = {0};
  PetscInt64      v[4] = {0, 0, 0, 0}; /* forward steps, reverse steps, checkpoint bytes (summed), groups */
  PetscReal       N = 0, best, t0, wall, roof;
  PetscMPIInt     size;

  PetscFunctionBegin;
  if (!cfg->wave_fwi3d_grid) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(WaveSurvey3D(cfg->wave_fwi3d_grid, cfg->wave_fwi3d_steps, &sv));
  PetscCall(WaveShotsCreate(cfg, &sv, size, 0, &S));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = MPI_Wtime();
  PetscCall(WaveShotsRun(&S, 1));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  wall = MPI_Wtime() - t0;
  {
    RwModel   model;
    RwAdjoint adj;
    PetscInt  M[3];

    PetscCall(RwProblemGetMemberSolver(S.prob, &model, NULL, &adj));
    PetscCall(RwAdjointGetCounts(adj, &c));
    PetscCall(RwModelWaveGetGeometry(model, NULL, M, NULL, NULL, NULL));
    N = (PetscReal)M[0] * M[1] * M[2];
  }
  v[0] = c.forward_steps, v[1] = c.reverse_steps, v[3] = S.groups;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) v[2] += c.bytes_stored[l] + c.bytes_restored[l];
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v[2], 1, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(BenchCopyBest(res, &best));
  roof = sv.nshots * (N * (v[0] * 56.0 + v[1] * 104.0) + (PetscReal)v[2] / v[3]) / (best * 1e9);
  PetscCall(BenchRow(res, "fwi 3D %" PetscInt_FMT "^3, %" PetscInt_FMT " shots", cfg->wave_fwi3d_grid, sv.nshots));
  PetscCall(BenchInt(res, "ranks", size));
  PetscCall(BenchInt(res, "groups", v[3]));
  PetscCall(BenchInt(res, "steps", S.nt - 1));
  PetscCall(BenchInt(res, "fwd_steps", v[0]));
  PetscCall(BenchInt(res, "ram_stores", c.stores[RW_LEVEL_RAM]));
  PetscCall(BenchReal(res, "gradient", "s", wall));
  PetscCall(BenchReal(res, "per_shot", "s", wall / sv.nshots));
  PetscCall(BenchReal(res, "roofline_per_shot", "s", roof / sv.nshots));
  PetscCall(BenchReal(res, "vs_roofline", "", wall / roof));
  PetscCall(WaveShotsDestroy(&S));
  PetscCall(WaveSurveyDestroy(&sv));
  PetscFunctionReturn(PETSC_SUCCESS);
}
