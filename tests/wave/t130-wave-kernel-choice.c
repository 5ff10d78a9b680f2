/*
  Each form of the wave step runs the instruction set chosen for it (issue
  37, item 3), and the choice changes where time goes, never a bit.  For
  2D and 3D at space orders 2, 4 and 8, under -rw_kernel_isa auto with the
  measured table (the default) and with -rw_wave_kernel_choice time, and
  with every set the CPU has named by -rw_kernel_isa:
  - J, dJ/dm, dJ/du0 and a tangent step are the portable kernels' bits;
  - each form's steps ran under exactly one set's -log_view event
    (RwWaveForward_avx2 ...), the set -rw_model_view names for it, and no
    set wider than the CPU's; a named set runs every form;
  - the view says where the choice came from (table, timing with the
    times, or -rw_kernel_isa), and the timing leaves no NaN flag behind.
  A choice that is not table or time stops naming the option.
*/
#include "rwtest.h"
#include <rewind/private/kernelisaimpl.h>

static const char *cases[] = {
  "-rw_wave_space_order 2 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 20",
  "-rw_wave_space_order 4 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 20",
  "-rw_wave_space_order 8 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 20",
  "-rw_wave_dim 3 -rw_wave_space_order 2 -da_grid_x 17 -da_grid_y 15 -da_grid_z 14 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 8",
  "-rw_wave_dim 3 -rw_wave_space_order 4 -da_grid_x 17 -da_grid_y 15 -da_grid_z 14 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 8",
  "-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 19 -da_grid_y 18 -da_grid_z 17 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 8",
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static const char *forms[3] = {"forward", "tangent", "adjoint"};
static const char *events[3] = {"RwWaveForward", "RwWaveTangent", "RwWaveAdjoint"};

typedef struct {
  PetscReal J;
  Vec       g, gu0, du1;
  int       ran[3][RW_KERNEL_ISA_N]; /* steps of each form in each set, from the -log_view events */
  char      view[4096];              /* -rw_model_view's text (rank 0) */
} Result;

static int event_count(int f, int isa)
{
  char               name[64];
  PetscLogEvent      e;
  PetscEventPerfInfo info;

  snprintf(name, sizeof(name), "%s_%s", events[f], RwKernelISANames[isa]);
  RW_CHECK(PetscLogEventGetId(name, &e));
  RW_CHECK(PetscLogEventGetPerfInfo(0, e, &info));
  return info.count;
}

/* The model's view into r->view, through a file (rank 0 reads it) */
static void view_text(RwModel model, Result *r)
{
  char        dir[PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN + 16];
  PetscViewer v;
  FILE       *fp;
  size_t      n = 0;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/view.txt", dir);
  RW_CHECK(PetscViewerASCIIOpen(PETSC_COMM_WORLD, file, &v));
  RW_CHECK(RwModelView(model, v));
  RW_CHECK(PetscViewerDestroy(&v));
  r->view[0] = 0;
  if (!rw_test_rank() && (fp = fopen(file, "r"))) {
    n          = fread(r->view, 1, sizeof(r->view) - 1, fp);
    r->view[n] = 0;
    fclose(fp);
  }
}

/* A gradient and a tangent step, as t108 computes them, with the events' counts they add */
static Result run(int c, const char *more)
{
  RwModel       model;
  RwTestProblem p;
  Result        r;
  Vec           u1, du0;
  int           before[3][RW_KERNEL_ISA_N];
  char          opts[512];

  for (int f = 0; f < 3; f++)
    for (int i = 0; i < RW_KERNEL_ISA_N; i++) before[f][i] = event_count(f, i);
  snprintf(opts, sizeof(opts), "%s -rw_kernel_stream_stores -1 %s", cases[c], more);
  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &r.J, p.g, p.gu0));
  RW_CHECK(VecDuplicate(p.g, &r.g));
  RW_CHECK(VecCopy(p.g, r.g));
  RW_CHECK(VecDuplicate(p.gu0, &r.gu0));
  RW_CHECK(VecCopy(p.gu0, r.gu0));
  RW_CHECK(VecDuplicate(p.u0, &u1));
  RW_CHECK(VecDuplicate(p.u0, &du0));
  RW_CHECK(VecDuplicate(p.u0, &r.du1));
  RW_CHECK(VecCopy(p.gu0, du0));
  RW_CHECK(VecSet(u1, 0));
  RW_CHECK(RwModelSetParameters(model, p.m));
  RW_CHECK(RwModelStep(model, 0, p.u0, u1));
  RW_CHECK(RwModelSetDirection(model, p.g));
  RW_CHECK(RwModelStepTangent(model, 0, p.u0, u1, du0, r.du1));
  rw_assert_all(RwModelCheckFinite(model) == PETSC_SUCCESS, "%s %s: a NaN flag after the run", cases[c], more);
  view_text(model, &r);
  for (int f = 0; f < 3; f++)
    for (int i = 0; i < RW_KERNEL_ISA_N; i++) r.ran[f][i] = event_count(f, i) - before[f][i];
  RW_CHECK(VecDestroy(&u1));
  RW_CHECK(VecDestroy(&du0));
  RW_CHECK(rw_test_problem_destroy(&p));
  return r;
}


static void destroy(Result *r)
{
  RW_CHECK(VecDestroy(&r->g));
  RW_CHECK(VecDestroy(&r->gu0));
  RW_CHECK(VecDestroy(&r->du1));
}

/* The one set form f ran in (-1: none or several), and that the view names it for f */
static int ran_in(const Result *r, int f)
{
  int set = -1, n = 0;

  for (int i = 0; i < RW_KERNEL_ISA_N; i++)
    if (r->ran[f][i]) set = i, n++;
  return n == 1 ? set : -1;
}

static PetscBool view_names(const Result *r, int f, int set)
{
  char want[64];
  int  ok;

  snprintf(want, sizeof(want), "%s %s", forms[f], RwKernelISANames[set]);
  ok = rw_test_rank() || strstr(r->view, want) != NULL;
  MPI_Bcast(&ok, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  return ok ? PETSC_TRUE : PETSC_FALSE;
}

static PetscBool view_says(const Result *r, const char *what)
{
  int ok = rw_test_rank() || strstr(r->view, what) != NULL;

  MPI_Bcast(&ok, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  return ok ? PETSC_TRUE : PETSC_FALSE;
}

/* One setting of case c against the portable run: the same bits, each form in one set, named by the view */
static void check(int c, const Result *base, const char *more, const char *source, int named)
{
  Result v = run(c, more);

  rw_assert_all(v.J == base->J && rw_test_vec_bitwise(v.g, base->g) && rw_test_vec_bitwise(v.gu0, base->gu0) && rw_test_vec_bitwise(v.du1, base->du1), "%s %s: J %.17g against portable %.17g, or a gradient or tangent step not the same bits", cases[c], more, v.J, base->J);
  rw_assert_all(view_says(&v, source), "%s %s: the view should say \"%s\":\n%s", cases[c], more, source, v.view);
  for (int f = 0; f < 3; f++) {
    const int set = ran_in(&v, f);

    rw_assert_all(set >= 0 && set <= (int)RwKernelISABest(), "%s %s: the %s ran in %d sets (%d steps portable, %d avx2, %d avx512)", cases[c], more, forms[f], set, v.ran[f][0], v.ran[f][1], v.ran[f][2]);
    rw_assert_all(named < 0 || set == named, "%s %s: the %s ran %s, not the named %s", cases[c], more, forms[f], RwKernelISANames[set], RwKernelISANames[named]);
    rw_assert_all(view_names(&v, f, set), "%s %s: the view should say \"%s %s\":\n%s", cases[c], more, forms[f], RwKernelISANames[set], v.view);
    if (!rw_test_rank()) printf("# %s %s: %s %s\n", cases[c], more, forms[f], RwKernelISANames[set]);
  }
  destroy(&v);
}

START_TEST(test_choice_same_bits)
{
  RW_CHECK(PetscLogDefaultBegin());
  for (int c = 0; c < NCASES; c++) {
    Result base = run(c, "-rw_kernel_isa portable");

    rw_assert_all(base.J > 0, "%s: J %g", cases[c], base.J);
    check(c, &base, "", "from the measured table", -1);
    check(c, &base, "-rw_wave_kernel_choice time", "timed at set-up", -1);
    for (int i = RW_KERNEL_ISA_PORTABLE + 1; i < RW_KERNEL_ISA_N; i++) {
      char opt[64];

      if (!RwKernelISAAvailable((RwKernelISA)i)) continue;
      snprintf(opt, sizeof(opt), "-rw_kernel_isa %s", RwKernelISANames[i]);
      check(c, &base, opt, "every form in -rw_kernel_isa's set", i);
    }
    destroy(&base);
  }
}
END_TEST

START_TEST(test_bad_choice)
{
  RwModel model;

  rw_assert_error(rw_test_model_type("wave", "-rw_wave_kernel_choice fastest", &model), "rw_wave_kernel_choice");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("t130-wave-kernel-choice");
  TCase *tc = tcase_create("choice");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_choice_same_bits);
  tcase_add_test(tc, test_bad_choice);
  suite_add_tcase(s, tc);
  return s;
}
