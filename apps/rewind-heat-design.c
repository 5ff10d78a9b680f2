static char help[] = "rewind-heat-design: where to put conducting material in a heated plate, through the adjoint.\n"
                     "Embedded problem: a 32 x 32 plate whose left and right edges are held at 0 (heat sinks) and whose\n"
                     "top and bottom are insulated; a hot spot moves round 4 heaters (-rw_heat_heaters), each at power P in\n"
                     "turn, piecewise linear on the control nodes. The design is a density rho in [0, 1] a point, mapped to\n"
                     "kappa by RwDesignMap (Helmholtz filter, optional projection, SIMP p = 3: -rw_design_*), with\n"
                     "sum rho h^2 <= V |Omega|. J = the time average of the plate's mean temperature.\n"
                     "Optimiser: optimality criteria (-tao_type oc, src/design/oc.c), one gradient an iteration.\n\n"
                     "  -rw_design_volume V        volume fraction, in (0, 1) (default 0.3)\n"
                     "  -rw_design_load_power P    the hot spot's power (default 20)\n"
                     "  -rw_design_continuation S  with -rw_design_projection_beta b > 0: S more optimisations, beta doubled each\n"
                     "  -rw_output prefix          write prefix.h5 and prefix.xmf (density, filtered, physical, kappa; history)\n"
                     "  -rw_output_png             also draw prefix.png (jobs/plot_design.py)\n"
                     "  -rw_restart                resume a killed run from its journal (prefix.state; doc/problem.md)\n"
                     "  -rw_history_view ascii|hdf5:file   the history (J, |g|, seconds, volume, change)\n"
                     "TAO: -tao_max_it (default 25), -tao_oc_move, -tao_oc_eta, -tao_oc_change_tol, ...\n"
                     "Checkpointing: -rw_schedule_type, -rw_store_type, ...; -rw_adjoint_view: the cost of a gradient\n\n";

#include <rewind.h>
#include <rewind/hdf5.h>
#include <petscviewerhdf5.h>
#include "common/plot.h"

typedef struct {
  RwProblem   prob;
  RwModel     model; /* the problem's */
  RwAdjoint   adj;
  RwDesignMap map;
  Tao         tao;
  Vec         x, w, xprev, mw, u0w, kappa;
  PetscInt    K, C, block, size, continuation;
  PetscReal   volume, power, area, J[2]; /* the design's J, uniform material's */
  PetscReal  *load;
  char        output[PETSC_MAX_PATH_LEN];
  PetscBool   png;
} Design;

static PetscErrorCode ReadOptions(Design *d)
{
  PetscFunctionBegin;
  d->volume = 0.3, d->power = 20;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "rewind-heat-design options", "rewind");
  PetscCall(RwOptionsReal("-rw_design_volume", "Volume fraction V: sum rho h^2 <= V |Omega|", NULL, d->volume, &d->volume, NULL, 0, 1, RW_RANGE_OPEN));
  PetscCall(RwOptionsReal("-rw_design_load_power", "The moving hot spot's power P", NULL, d->power, &d->power, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsInt("-rw_design_continuation", "Projection continuation: this many more optimisations, beta doubled before each (needs -rw_design_projection_beta > 0)", NULL, d->continuation, &d->continuation, NULL, 0, 30));
  PetscCall(PetscOptionsString("-rw_output", "Prefix of the output files (prefix.h5, prefix.xmf)", NULL, d->output, d->output, sizeof(d->output), NULL));
  PetscCall(PetscOptionsBool("-rw_output_png", "With -rw_output: also draw prefix.png (jobs/plot_design.py)", NULL, d->png, &d->png, NULL));
  PetscOptionsEnd();
  PetscCheck(!d->png || d->output[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_output_png draws the result that -rw_output writes: give -rw_output prefix too");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The embedded plate, before the options (which stand over it) */
static PetscErrorCode ModelDefaults(RwModel model, void *ctx)
{
  const PetscInt  M[3]     = {32, 32, 0};
  const PetscReal pos[8]   = {0.3, 0.3, 0.7, 0.3, 0.7, 0.7, 0.3, 0.7};
  const PetscReal width[4] = {0.05, 0.05, 0.05, 0.05};

  PetscFunctionBegin;
  PetscCall(RwModelSetGridSizes(model, M));
  PetscCall(RwModelHeatSetBoundaries(model, "dirichlet,neumann"));
  PetscCall(RwModelSetSteps(model, 2000));
  PetscCall(RwModelSetTimeStep(model, 2.2e-4)); /* explicit: below h^2 / (4 kmax) */
  PetscCall(RwModelHeatSetHeaters(model, 4, pos, width));
  PetscCall(RwModelHeatSetControlNodes(model, 9));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J: the time average of the mean temperature */
static PetscErrorCode DesignTerms(RwProblem prob, RwObjective obj, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwObjectiveAddTimeAverage(obj, 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the unknown: the density rho on the field grid; kappa = map(rho) ----------------- */
static PetscErrorCode CreateDM_Density(RwProblem prob, RwModel model, DM *dm, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwModelGetFieldDM(model, dm));
  PetscCall(PetscObjectReference((PetscObject)*dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* m's kappa from rho, its control block the moving load; u0 = 0 */
static PetscErrorCode ToParameters_Density(RwProblem prob, RwModel model, PetscInt member, Vec x, Vec m, Vec u0, void *ctx)
{
  Design *d = (Design *)ctx;
  Vec     k;

  PetscFunctionBegin;
  PetscCheck(model == d->model, PETSC_COMM_WORLD, PETSC_ERR_SUP, "rewind-heat-design solves on the problem's model (one group)");
  PetscCall(RwModelGetParameterField(model, m, 0, &k));
  PetscCall(RwDesignMapApply(d->map, x, k));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &k));
  PetscCall(RwModelSetParameterBlock(model, m, d->block, d->load));
  PetscCall(VecSet(u0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start: uniform material at the volume fraction */
static PetscErrorCode FromParameters_Density(RwProblem prob, RwModel model, Vec m, Vec u0, Vec x, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(VecSet(x, ((Design *)ctx)->volume));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/drho = map^T dJ/dkappa, the map applied again at x so that it linearises there */
static PetscErrorCode Gradient_Density(RwProblem prob, RwModel model, PetscInt member, Vec x, Vec g, Vec gu0, Vec w, void *ctx)
{
  Design *d = (Design *)ctx;
  Vec     gk;

  PetscFunctionBegin;
  PetscCall(RwDesignMapApply(d->map, x, d->kappa));
  PetscCall(RwModelGetParameterField(model, g, 0, &gk));
  PetscCall(RwDesignMapApplyAdjoint(d->map, gk, w));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &gk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- history: the volume fraction and the largest change since the last row ---------- */
static PetscErrorCode HistoryVolume(RwProblem prob, Vec x, PetscReal *v, void *ctx)
{
  Design *d = (Design *)ctx;

  PetscFunctionBegin;
  PetscCall(RwVecDotRepro(d->w, x, v, NULL));
  *v /= d->area;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HistoryChange(RwProblem prob, Vec x, PetscReal *v, void *ctx)
{
  Design  *d = (Design *)ctx;
  PetscInt nrows;

  PetscFunctionBegin;
  PetscCall(RwProblemGetHistory(prob, &nrows, NULL, NULL, NULL));
  PetscCall(VecAXPY(d->xprev, -1, x));
  PetscCall(VecNorm(d->xprev, NORM_INFINITY, v)); /* a max: the same bits on any decomposition */
  if (!nrows) *v = 0;                              /* the start: no change yet */
  PetscCall(VecCopy(x, d->xprev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The moving hot spot: node c heats heater c mod K at power P, the others are off; the
   piecewise linear amplitudes move it from one heater to the next */
static PetscErrorCode SetLoad(Design *d)
{
  PetscFunctionBegin;
  PetscCall(RwModelHeatGetControl(d->model, &d->K, &d->C, &d->block));
  PetscCheck(d->K > 0 && d->C >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "rewind-heat-design's load moves from heater to heater on control nodes: give -rw_heat_heaters and -rw_heat_control_nodes >= 2 (not %" PetscInt_FMT ")", d->C);
  PetscCall(RwModelGetParameterBlockInfo(d->model, d->block, NULL, &d->size, NULL, NULL));
  PetscCall(PetscCalloc1(d->size, &d->load));
  for (PetscInt c = 0; c < d->C; c++) d->load[c * d->K + c % d->K] = d->power;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The design's parameters and the load are part of what the journal must match */
static PetscErrorCode AddIdentity(Design *d)
{
  char v[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(v, sizeof(v), "%.17g", (double)d->volume));
  PetscCall(RwProblemAddIdentity(d->prob, "volume", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%.17g", (double)d->power));
  PetscCall(RwProblemAddIdentity(d->prob, "load_power", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT, d->continuation));
  PetscCall(RwProblemAddIdentity(d->prob, "continuation", v));
  PetscCall(RwDesignMapGetIdentity(d->map, v, sizeof(v)));
  PetscCall(RwProblemAddIdentity(d->prob, "design_map", v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUp(Design *d)
{
  const RwProblemUnknownOps ops = {CreateDM_Density, ToParameters_Density, FromParameters_Density, Gradient_Density};
  char                      journal[PETSC_MAX_PATH_LEN + 8];
  PetscInt                  groups, g;
  PetscReal                 vol;
  RwEnsemble                ens;

  PetscFunctionBegin;
  PetscCall(RwProblemCreate(PETSC_COMM_WORLD, &d->prob));
  PetscCall(RwProblemSetModelType(d->prob, RWMODELHEAT));
  PetscCall(RwProblemSetModelDefaults(d->prob, ModelDefaults, d));
  PetscCall(RwProblemSetObjectiveTerms(d->prob, DesignTerms, d));
  PetscCall(RwProblemSetUnknownOps(d->prob, &ops, d));
  PetscCall(PetscSNPrintf(journal, sizeof(journal), "%s.state", d->output));
  PetscCall(RwProblemSetJournal(d->prob, d->output[0] ? journal : NULL));
  PetscCall(RwProblemAddHistoryColumn(d->prob, "volume", HistoryVolume, d));
  PetscCall(RwProblemSetHistoryColumnInfo(d->prob, "volume", "1", "volume fraction sum rho h^2 / |Omega|"));
  PetscCall(RwProblemAddHistoryColumn(d->prob, "change", HistoryChange, d));
  PetscCall(RwProblemSetHistoryColumnInfo(d->prob, "change", "1", "largest change of rho since the last iteration"));
  PetscCall(RwProblemSetFromOptions(d->prob));
  PetscCall(RwProblemGetModel(d->prob, &d->model));
  PetscCall(RwDesignMapCreate(d->model, &d->map));
  PetscCall(RwDesignMapSetFromOptions(d->map));
  PetscCall(RwDesignMapSetUp(d->map));
  {
    PetscReal beta;

    PetscCall(RwDesignMapGetParameters(d->map, NULL, NULL, NULL, NULL, &beta, NULL));
    PetscCheck(!d->continuation || beta > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rw_design_continuation %" PetscInt_FMT " doubles the projection's sharpness: give -rw_design_projection_beta > 0 too", d->continuation);
  }
  PetscCall(SetLoad(d));
  PetscCall(RwProblemSetUp(d->prob));
  PetscCall(RwProblemGetEnsemble(d->prob, &ens));
  PetscCall(RwEnsembleGetGroup(ens, &g, &groups));
  PetscCheck(groups == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "rewind-heat-design solves one member: -rw_ensemble_groups must be 1, not %" PetscInt_FMT, groups);
  PetscCall(RwProblemGetMemberSolver(d->prob, NULL, NULL, &d->adj));
  PetscCall(AddIdentity(d));
  PetscCall(RwProblemCreateUnknownVector(d->prob, &d->x));
  PetscCall(VecDuplicate(d->x, &d->w));
  PetscCall(VecDuplicate(d->x, &d->xprev));
  PetscCall(VecDuplicate(d->x, &d->kappa));
  PetscCall(RwModelGetCellVolume(d->model, &vol));
  PetscCall(VecSet(d->w, vol));
  PetscCall(RwVecSumRepro(d->w, &d->area));
  PetscCall(RwModelCreateParameters(d->model, &d->mw));
  PetscCall(RwModelCreateState(d->model, &d->u0w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The progress line of an iteration, from the history's last row */
static PetscErrorCode Monitor(Tao tao, void *ctx)
{
  Design           *d       = (Design *)ctx;
  const char *const want[5] = {"iteration", "J", "volume", "change", "seconds"};
  PetscReal         v[5];

  PetscFunctionBegin;
  PetscCall(RwProblemGetHistoryValues(d->prob, -1, 5, want, v));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "iter %3d  objective %.10e  volume %.6f  change %.4f  %6.1f s\n", (int)v[0], (double)v[1], (double)v[2], (double)v[3], (double)v[4]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpTao(Design *d)
{
  Vec lb, ub;

  PetscFunctionBegin;
  PetscCall(TaoCreate(PETSC_COMM_WORLD, &d->tao));
  PetscCall(TaoSetType(d->tao, TAOOC));
  PetscCall(TaoSetMaximumIterations(d->tao, 25));
  PetscCall(RwProblemGetUnknown(d->prob, d->x));
  PetscCall(TaoSetSolution(d->tao, d->x));
  PetscCall(VecDuplicate(d->x, &lb));
  PetscCall(VecDuplicate(d->x, &ub));
  PetscCall(VecSet(lb, 0));
  PetscCall(VecSet(ub, 1));
  PetscCall(TaoSetVariableBounds(d->tao, lb, ub));
  PetscCall(TaoOCSetVolume(d->tao, d->w, d->volume * d->area));
  PetscCall(RwProblemSetUpTao(d->prob, d->tao));
  PetscCall(TaoSetMonitor(d->tao, Monitor, d, NULL));
  PetscCall(TaoSetFromOptions(d->tao));
  PetscCall(VecDestroy(&lb));
  PetscCall(VecDestroy(&ub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J at a density (kappa by the map), or with kappa given (uniform material), by one forward
   run outside the optimisation (not journalled) */
static PetscErrorCode Forward(Design *d, Vec x, Vec kappa, PetscReal *J)
{
  Vec m, u0;

  PetscFunctionBegin;
  PetscCall(RwProblemGetMemberParameters(d->prob, 0, &m, &u0));
  PetscCall(VecCopy(m, d->mw));
  PetscCall(ToParameters_Density(d->prob, d->model, -1, x, d->mw, d->u0w, d));
  if (kappa) {
    Vec k;

    PetscCall(RwModelGetParameterField(d->model, d->mw, 0, &k));
    PetscCall(VecCopy(kappa, k));
    PetscCall(RwModelRestoreParameterField(d->model, d->mw, 0, &k));
  }
  PetscCall(RwAdjointForward(d->adj, d->mw, d->u0w, J, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Uniform material at the same volume: the physical density V everywhere, kappa = kmin + V^p (kmax - kmin)
   (not rho = V through the map, which a projection would push towards void) */
static PetscErrorCode UniformBaseline(Design *d, PetscReal *J)
{
  PetscReal p, kmin, kmax;
  Vec       k;

  PetscFunctionBegin;
  PetscCall(RwDesignMapGetParameters(d->map, NULL, &p, &kmin, &kmax, NULL, NULL));
  PetscCall(VecDuplicate(d->kappa, &k));
  PetscCall(VecSet(k, kmin + PetscPowReal(d->volume, p) * (kmax - kmin)));
  PetscCall(Forward(d, d->x, k, J));
  PetscCall(VecDestroy(&k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every dataset holds: the heat model is nondimensional (unit box, unit time scale) */
static PetscErrorCode WriteUnits(const char h5[])
{
  const RwIODatasetInfo info[] = {
    {"density",          "1", "design density rho in [0, 1], the optimiser's variable"                     },
    {"density_filtered", "1", "rho after the Helmholtz filter"                                               },
    {"density_physical", "1", "filtered and projected density: what SIMP makes conductivity of"             },
    {"kappa",            "1", "conductivity kmin + rp^p (kmax - kmin)"                                      },
    {"objective",        "1", "time-averaged mean temperature: the design's, then uniform material's (physical density V)"},
    {"heaters",          "1", "heater coordinates, a row a heater, x first"                                 }
  };

  PetscFunctionBegin;
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, h5, (PetscInt)PETSC_STATIC_ARRAY_LENGTH(info), info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* prefix.h5 (fields, history, objectives, heaters) written whole under a temporary name, and prefix.xmf beside it */
static PetscErrorCode WriteOutput(Design *d)
{
  const char  *names[4] = {"density", "density_filtered", "density_physical", "kappa"};
  char         h5[PETSC_MAX_PATH_LEN], xmf[PETSC_MAX_PATH_LEN];
  const char  *path, *base;
  RwOutputFile out;
  PetscViewer  v;
  PetscMPIInt  rank;
  Vec          rf, rp;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", d->output));
  PetscCall(PetscSNPrintf(xmf, sizeof(xmf), "%s.xmf", d->output));
  PetscCall(RwDesignMapApply(d->map, d->x, d->kappa));
  PetscCall(RwDesignMapGetFiltered(d->map, &rf, &rp));
  PetscCall(RwOutputFileBegin(PETSC_COMM_WORLD, h5, PETSC_FALSE, "-rw_output file", &out, &path));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &v));
  PetscCall(RwIOWriteMetadata(d->model, v));
  PetscCall(RwIOWriteField(d->model, v, names[0], d->x));
  PetscCall(RwIOWriteField(d->model, v, names[1], rf));
  PetscCall(RwIOWriteField(d->model, v, names[2], rp));
  PetscCall(RwIOWriteField(d->model, v, names[3], d->kappa));
  PetscCall(RwProblemHistoryView(d->prob, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    const PetscReal *pos;
    hsize_t          two = 2, dims[2] = {(hsize_t)d->K, 2};
    hid_t            f;

    PetscCall(RwModelHeatGetHeaters(d->model, NULL, &pos));
    RwCallHDF5Return(f, H5Fopen, (path, H5F_ACC_RDWR, H5P_DEFAULT));
    PetscCall(RwH5WriteArray(f, "objective", 1, &two, d->J));
    PetscCall(RwH5WriteArray(f, "heaters", 2, dims, pos));
    RwCallHDF5(H5Fclose, (f));
  }
  PetscCall(WriteUnits(path));
  PetscCall(RwOutputFileEnd(&out));
  base = strrchr(h5, '/') ? strrchr(h5, '/') + 1 : h5; /* the XDMF file names the HDF5 file beside it */
  PetscCall(RwIOWriteXDMF(d->model, xmf, base, 4, names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The job: the optimisation, the baseline line, the outputs */
static PetscErrorCode Run(Design *d)
{
  PetscInt  iters = 0, it, degree;
  PetscReal vol, beta;

  PetscFunctionBegin;
  PetscCall(RwDesignMapGetFilterDegree(d->map, &degree));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "heat design: volume fraction %g, %" PetscInt_FMT " heaters at power %g on %" PetscInt_FMT " nodes, filter degree %" PetscInt_FMT "; optimality criteria\n", (double)d->volume, d->K, (double)d->power, d->C, degree));
  PetscCall(RwDesignMapGetParameters(d->map, NULL, NULL, NULL, NULL, &beta, NULL));
  for (PetscInt s = 0; s <= d->continuation; s++) { /* a continuation's solves: beta doubled before each */
    if (s) PetscCall(RwDesignMapSetProjection(d->map, beta *= 2));
    if (d->continuation) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT ": projection beta %g\n", s, (double)beta));
    PetscCall(RwProblemSetEvaluationSalt(d->prob, (uint64_t)s + 1)); /* the same rho at another beta is another evaluation */
    PetscCall(RwProblemSolve(d->prob, d->tao));
    PetscCall(TaoGetIterationNumber(d->tao, &it));
    iters += it;
  }
  PetscCall(RwProblemComplete(d->prob));
  PetscCall(Forward(d, d->x, NULL, &d->J[0]));
  PetscCall(UniformBaseline(d, &d->J[1]));
  PetscCall(RwVecDotRepro(d->w, d->x, &vol, NULL));
  {
    Vec       rp;
    PetscReal phys;

    PetscCall(RwDesignMapApply(d->map, d->x, d->kappa));
    PetscCall(RwDesignMapGetFiltered(d->map, NULL, &rp));
    PetscCall(RwVecDotRepro(d->w, rp, &phys, NULL)); /* the bound holds rho; a projection moves the physical density off it */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%" PetscInt_FMT " iterations: volume fraction %.6f (bound %g), physical %.6f\n", iters, (double)(vol / d->area), (double)d->volume, (double)(phys / d->area)));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "objective %.6e against uniform material %.6e at the same volume (%.2fx lower)\n", (double)d->J[0], (double)d->J[1], (double)(d->J[1] / d->J[0])));
  if (d->output[0]) PetscCall(WriteOutput(d));
  if (d->png) PetscCall(RwAppPlotOutput("plot_design.py", d->output));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Destroy(Design *d)
{
  PetscFunctionBegin;
  PetscCall(TaoDestroy(&d->tao));
  PetscCall(VecDestroy(&d->x));
  PetscCall(VecDestroy(&d->w));
  PetscCall(VecDestroy(&d->xprev));
  PetscCall(VecDestroy(&d->kappa));
  PetscCall(VecDestroy(&d->mw));
  PetscCall(VecDestroy(&d->u0w));
  PetscCall(PetscFree(d->load));
  PetscCall(RwDesignMapDestroy(&d->map));
  /* after the outputs: a run killed before them resumes from its journal */
  PetscCall(RwProblemDestroy(&d->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Design    d;
  PetscBool stop;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&d, sizeof(d)));
  PetscCall(ReadOptions(&d));
  PetscCall(SetUp(&d));
  PetscCall(SetUpTao(&d));
  PetscCall(RwHelpStop(PETSC_COMM_WORLD, &stop)); /* every option is read by now */
  if (!stop) PetscCall(Run(&d));
  PetscCall(Destroy(&d));
  PetscCall(RwOptionsWarnUnused(PETSC_COMM_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
