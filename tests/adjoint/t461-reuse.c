/*
  A solve in two parts (RwAdjointSolveForward(), RwAdjointSolveReverse()) and
  the forward reuse of a problem's VJP (src/problem/problemvjp.c, issue 35).

  Driver: a linear term's cotangent set between the parts gives the gradient
  of a solve that had it from the start, bit for bit, under every schedule
  type; a reverse part without its forward part, after m changed, or after
  another run of the driver is refused with a message naming the cause.
  Problem: a VJP after RwProblemComputeOutputsForVJP() at the same parameters
  equals a VJP from nothing bit for bit and takes only the reverse sweep's
  recomputations (the model's forward step counts); rewriting m with the
  same values still reuses the run, other values or another run of the model
  in between do not, and give a whole solve's bits.
*/
#include "rwtest.h"

static const char *schedules[] = {
  "-rw_schedule_type storeall",
  "-rw_schedule_type periodic -rw_schedule_period 3",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 2",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 1 -rw_store_type hdf5",
  "-rw_schedule_type multilevel -rw_schedule_ram_slots 1 -rw_schedule_disk_slots 2",
  "-rw_schedule_type online -rw_schedule_ram_slots 2",
};
#define NSCHED ((PetscInt)(sizeof(schedules) / sizeof(schedules[0])))

/* A cotangent for the local outputs: the same for every call of a case */
static void Cotangent(PetscInt n, PetscReal scale, PetscReal ybar[])
{
  for (PetscInt i = 0; i < n; i++) ybar[i] = scale * (PetscSinReal(0.7 * (PetscReal)i + 0.3) + 0.25);
}

/* The model's forward steps so far */
static PetscInt64 ForwardSteps(RwModel model)
{
  PetscInt64 f = -1;

  PetscCallAbort(PETSC_COMM_WORLD, RwModelGetStepCounts(model, &f, NULL, NULL));
  return f;
}

typedef struct {
  RwTestProblem p;
  PetscInt      term, n;
  PetscReal    *ybar;
} Case;

/* A heat problem whose objective is one linear term of the state at steps 4 and 12, cotangent scale * Cotangent() */
static PetscErrorCode CaseCreate(const char *sched, PetscReal scale, const char *tag, Case *c)
{
  RwModel          model;
  const PetscInt64 steps[2] = {4, 12};
  char             opts[512];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 12 %s", sched));
  PetscCall(rw_test_model(opts, &model));
  PetscCall(rw_test_problem_begin(model, &c->p));
  PetscCall(RwObjectiveAddLinearState(c->p.obj, 2, steps, &c->term));
  PetscCall(RwObjectiveGetLinearSize(c->p.obj, c->term, &c->n));
  PetscCall(PetscMalloc1(c->n, &c->ybar));
  Cotangent(c->n, scale, c->ybar);
  PetscCall(RwObjectiveSetLinearWeights(c->p.obj, c->term, c->ybar));
  PetscCall(rw_test_problem_driver(&c->p));
  PetscCall(RwAdjointSetFileTag(c->p.adj, tag)); /* two cases alive: files of their own */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CaseDestroy(Case *c)
{
  RwModel model = c->p.model;

  PetscFunctionBegin;
  PetscCall(PetscFree(c->ybar));
  PetscCall(rw_test_problem_destroy(&c->p));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cotangent set between the parts: the bits of a solve that had it from the start */
START_TEST(test_driver_parts)
{
  for (PetscInt s = 0; s < NSCHED; s++) {
    Case      a, b;
    PetscReal Jb;
    PetscBool same, same0, pending;
    PetscInt64 f0, f1;

    RW_CHECK(CaseCreate(schedules[s], 2, "a", &a)); /* the cotangent from the start */
    RW_CHECK(RwAdjointSolve(a.p.adj, a.p.m, a.p.u0, NULL, a.p.g, a.p.gu0));
    RW_CHECK(CaseCreate(schedules[s], 1, "b", &b)); /* a first cotangent, then 2 x it between the parts */
    f0 = ForwardSteps(b.p.model);
    RW_CHECK(RwAdjointSolveForward(b.p.adj, b.p.m, b.p.u0));
    f1 = ForwardSteps(b.p.model);
    RW_CHECK(RwAdjointSolveIsPending(b.p.adj, &pending));
    Cotangent(b.n, 2, b.ybar);
    RW_CHECK(RwObjectiveSetLinearWeights(b.p.obj, b.term, b.ybar));
    RW_CHECK(RwAdjointSolveReverse(b.p.adj, &Jb, b.p.g, b.p.gu0));
    RW_CHECK(VecEqual(a.p.g, b.p.g, &same));
    RW_CHECK(VecEqual(a.p.gu0, b.p.gu0, &same0));
    rw_assert_all(f1 - f0 == 12, "%s: the forward part took %d steps; expected the 12 of the sweep", schedules[s], (int)(f1 - f0));
    rw_assert_all(pending, "%s: no forward part pending after RwAdjointSolveForward()", schedules[s]);
    rw_assert_all(same && same0, "%s: the gradient with the cotangent set between the parts differs from a solve's", schedules[s]);
    RW_CHECK(RwAdjointSolveIsPending(b.p.adj, &pending));
    rw_assert_all(!pending, "%s: the forward part is still pending after its reverse part", schedules[s]);
    RW_CHECK(CaseDestroy(&b));
    RW_CHECK(CaseDestroy(&a));
  }
}
END_TEST

/* A reverse part refused: without its forward part, after m changed, after another run */
START_TEST(test_driver_errors)
{
  Case              c;
  PetscScalar      *a;

  RW_CHECK(CaseCreate(schedules[2], 1, "c", &c));
  rw_assert_error(RwAdjointSolveReverse(c.p.adj, NULL, c.p.g, c.p.gu0), "Call RwAdjointSolveForward() first");
  RW_CHECK(RwAdjointSolveForward(c.p.adj, c.p.m, c.p.u0));
  RW_CHECK(VecGetArray(c.p.m, &a)); /* a write access on every rank: m's state moves */
  RW_CHECK(VecRestoreArray(c.p.m, &a));
  rw_assert_error(RwAdjointSolveReverse(c.p.adj, NULL, c.p.g, c.p.gu0), "changed since");
  rw_assert_error(RwAdjointSolveReverse(c.p.adj, NULL, c.p.g, c.p.gu0), "Call RwAdjointSolveForward() first"); /* dropped */
  RW_CHECK(RwAdjointSolveForward(c.p.adj, c.p.m, c.p.u0));
  RW_CHECK(RwAdjointForward(c.p.adj, c.p.m, c.p.u0, NULL, NULL)); /* another run of the driver overwrites its states */
  rw_assert_error(RwAdjointSolveReverse(c.p.adj, NULL, c.p.g, c.p.gu0), "Call RwAdjointSolveForward() first");
  RW_CHECK(CaseDestroy(&c));
}
END_TEST

typedef struct {
  RwProblem  prob;
  RwModel    model;
  Vec        m, u0, g, gu0, h, hu0;
  PetscInt   n;
  PetscReal *ybar, *y, *y2;
  PetscInt64 full; /* the forward steps of a VJP from nothing */
} PCase;

static PetscErrorCode PCaseCreate(const char pre[], const char opts[], PCase *c)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(rw_test_problem_prefixed(pre, opts, &c->prob));
  PetscCall(RwProblemGetModel(c->prob, &c->model));
  PetscCall(RwProblemGetParameters(c->prob, &c->m, &c->u0));
  PetscCall(RwProblemGetOutputSize(c->prob, &c->n));
  PetscCall(PetscMalloc3(c->n, &c->ybar, c->n, &c->y, c->n, &c->y2));
  Cotangent(c->n, 1, c->ybar);
  PetscCall(RwModelCreateParameters(c->model, &c->g));
  PetscCall(RwModelCreateState(c->model, &c->gu0));
  PetscCall(VecDuplicate(c->g, &c->h));
  PetscCall(VecDuplicate(c->gu0, &c->hu0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCaseDestroy(PCase *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(c->ybar, c->y, c->y2));
  PetscCall(VecDestroy(&c->g));
  PetscCall(VecDestroy(&c->gu0));
  PetscCall(VecDestroy(&c->h));
  PetscCall(VecDestroy(&c->hu0));
  PetscCall(RwProblemDestroy(&c->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A VJP into (h, hu0) and y2; the forward steps it took */
static PetscInt64 VJP(PCase *c)
{
  PetscInt64 f0 = ForwardSteps(c->model);

  PetscCallAbort(PETSC_COMM_WORLD, RwProblemComputeVJP(c->prob, c->ybar, c->y2, c->h, c->hu0));
  return ForwardSteps(c->model) - f0;
}

/* Whether (h, hu0) and y2 are the bits of the VJP from nothing (g, gu0) and y */
static PetscBool SameAsFirst(PCase *c)
{
  PetscBool same, same0, samey = PETSC_TRUE;

  PetscCallAbort(PETSC_COMM_WORLD, VecEqual(c->g, c->h, &same));
  PetscCallAbort(PETSC_COMM_WORLD, VecEqual(c->gu0, c->hu0, &same0));
  for (PetscInt i = 0; i < c->n; i++) samey = (PetscBool)(samey && c->y[i] == c->y2[i]);
  return (PetscBool)(same && same0 && samey);
}

/* Outputs then their VJP: one forward sweep, the bits of a VJP from nothing; heat's final state and wave's receivers */
START_TEST(test_problem_reuse)
{
  const char *models[] = {
    "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 11 -da_grid_y 9 -rw_steps 16",
    "-rw_model_type wave -rw_wave_dim 2 -da_grid_x 18 -da_grid_y 12 -rw_wave_spacing 10,10 -rw_wave_nbl 3 -rw_steps 16 -rw_wave_receivers 60,30,100,50",
  };
  PetscInt    k = 0;

  for (PetscInt mo = 0; mo < 2; mo++)
    for (PetscInt s = 0; s < NSCHED; s++) {
      PCase      c;
      char       opts[512], pre[32];
      PetscInt64 fo, fv;

      RW_CHECK(PetscSNPrintf(opts, sizeof(opts), "%s %s", models[mo], schedules[s]));
      RW_CHECK(PetscSNPrintf(pre, sizeof(pre), "re%d_", (int)k++));
      RW_CHECK(PCaseCreate(pre, opts, &c));
      {
        PetscInt64 f0 = ForwardSteps(c.model);
        RW_CHECK(RwProblemComputeVJP(c.prob, c.ybar, c.y, c.g, c.gu0)); /* from nothing: a whole solve */
        c.full = ForwardSteps(c.model) - f0;
        f0     = ForwardSteps(c.model);
        RW_CHECK(RwProblemComputeOutputsForVJP(c.prob, c.y2));
        fo = ForwardSteps(c.model) - f0;
      }
      fv = VJP(&c);
      if (!rw_test_rank()) printf("# %s: a VJP from nothing %d forward steps; outputs %d, then their VJP %d\n", opts, (int)c.full, (int)fo, (int)fv);
      rw_assert_all(fo == 16, "%s: the outputs took %d forward steps; expected 16", opts, (int)fo);
      rw_assert_all(fv == c.full - 16, "%s: the VJP after the outputs took %d forward steps; expected the reverse sweep's %d", opts, (int)fv, (int)(c.full - 16));
      rw_assert_all(SameAsFirst(&c), "%s: the VJP after the outputs differs from the VJP from nothing", opts);
      RW_CHECK(PCaseDestroy(&c));
    }
}
END_TEST

/* What ends the reuse: other values of m, another run of the model; the same values rewritten do not */
START_TEST(test_problem_invalidate)
{
  PCase        c;
  Vec          keep;
  PetscScalar *a;
  PetscReal    J;
  PetscInt64   fv;

  RW_CHECK(PCaseCreate("inv_", "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 11 -da_grid_y 9 -rw_steps 16 -rw_schedule_type revolve -rw_schedule_ram_slots 3", &c));
  RW_CHECK(RwProblemComputeVJP(c.prob, c.ybar, c.y, c.g, c.gu0));
  c.full = VJP(&c); /* again from nothing: a VJP consumes its forward part */
  rw_assert_all(SameAsFirst(&c) && c.full > 16, "a second VJP from nothing differs from the first, or took %d steps", (int)c.full);
  /* the same values written again (as rewind.torch.simulate does): reused */
  RW_CHECK(RwProblemComputeOutputsForVJP(c.prob, c.y2));
  RW_CHECK(VecGetArray(c.m, &a));
  RW_CHECK(VecRestoreArray(c.m, &a));
  fv = VJP(&c);
  rw_assert_all(fv == c.full - 16 && SameAsFirst(&c), "m rewritten with its own values: the VJP took %d steps (expected %d) or differs", (int)fv, (int)(c.full - 16));
  /* other values: a whole solve at them, the bits of a VJP from nothing there */
  RW_CHECK(VecDuplicate(c.m, &keep));
  RW_CHECK(VecCopy(c.m, keep));
  RW_CHECK(RwProblemComputeOutputsForVJP(c.prob, c.y2));
  RW_CHECK(VecScale(c.m, 1.125));
  fv = VJP(&c);
  RW_CHECK(VecCopy(c.h, c.g));
  RW_CHECK(VecCopy(c.hu0, c.gu0));
  RW_CHECK(PetscArraycpy(c.y, c.y2, c.n));
  rw_assert_all(fv == c.full, "m changed after the outputs: the VJP took %d steps; expected a whole solve's %d", (int)fv, (int)c.full);
  fv = VJP(&c);
  rw_assert_all(fv == c.full && SameAsFirst(&c), "m changed after the outputs: the VJP differs from one from nothing at the new m");
  RW_CHECK(VecCopy(keep, c.m));
  RW_CHECK(VecDestroy(&keep));
  /* outputs that store nothing: the same y, and the VJP after them is a whole solve */
  RW_CHECK(RwProblemComputeOutputsForVJP(c.prob, c.y));
  RW_CHECK(RwProblemComputeOutputs(c.prob, c.y2));
  {
    PetscBool samey = PETSC_TRUE;

    for (PetscInt i = 0; i < c.n; i++) samey = (PetscBool)(samey && c.y[i] == c.y2[i]);
    fv = VJP(&c);
    rw_assert_all(samey && fv == c.full, "RwProblemComputeOutputs(): other outputs than ...ForVJP()'s, or the VJP after it took %d steps (expected a whole solve's %d)", (int)fv, (int)c.full);
  }
  /* the problem's gradient in between runs the model: a whole solve, the first bits */
  RW_CHECK(RwProblemComputeVJP(c.prob, c.ybar, c.y, c.g, c.gu0));
  RW_CHECK(RwProblemComputeOutputsForVJP(c.prob, c.y2));
  RW_CHECK(RwProblemComputeGradient(c.prob, &J, c.h, c.hu0));
  fv = VJP(&c);
  rw_assert_all(fv == c.full && SameAsFirst(&c), "a gradient between the outputs and the VJP: %d steps (expected %d), or other bits", (int)fv, (int)c.full);
  RW_CHECK(PCaseDestroy(&c));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("reuse");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_driver_parts);
  tcase_add_test(tc, test_driver_errors);
  tcase_add_test(tc, test_problem_reuse);
  tcase_add_test(tc, test_problem_invalidate);
  suite_add_tcase(s, tc);
  return s;
}
