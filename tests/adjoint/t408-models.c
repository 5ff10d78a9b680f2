/*
  Whole-run checks of every registered model type through the driver, as
  SLEPc runs a test over every solver type:
  - the tangent against the adjoint (dot-product test, 100 eps) and the
    Taylor test (the first-order remainder falls at order >= 1.9);
  - one expected result, many schedules and stores: J and every gradient are
    bitwise those of storeall in RAM, and each run takes exactly the forward
    steps its schedule predicts.
  A registered type without cases fails, so a new type cannot skip these.
*/
#include "rwtest.h"
#include <unistd.h>

typedef struct {
  const char *type;
  const char *options[6]; /* NULL-terminated */
} ModelCases;

static const ModelCases cases[] = {
  {"heat", {"-rw_heat_dim 1 -da_grid_x 23 -rw_heat_bc dirichlet", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10",
            "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_nn -rw_nn_layers 1,6,6,1", NULL}},
  {"osc",  {"-osc_dim 1 -da_grid_x 29 -osc_block_size 5", "-osc_dim 2 -da_grid_x 13 -da_grid_y 11 -osc_block_size 7", NULL}},
  {"l96",  {"-da_grid_x 40", "-da_grid_x 11 -rw_l96_forcing 3.5 -rw_dt 0.05", NULL}},
  {"wave", {"-rw_wave_space_order 2 -da_grid_x 17 -da_grid_y 15 -rw_wave_nbl 3 -rw_wave_f0 0.03", "-rw_wave_space_order 4 -da_grid_x 19 -da_grid_y 16 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_wave_sources 61.3,43.9,80.2,57.7",
            "-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -rw_wave_nbl 2 -rw_wave_f0 0.03", NULL}},
};

static const char *settings[] = {
  "-rw_schedule_type storeall",
  "-rw_schedule_type periodic -rw_schedule_period 4",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 3",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_store_type hdf5",
  "-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2",
};

static char dir[PETSC_MAX_PATH_LEN];

static const ModelCases *find_cases(const char *type)
{
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    if (!strcmp(cases[i].type, type)) return &cases[i];
  return NULL;
}

/* Calls check(type, options) for every case of every registered type */
static void for_every_case(void (*check)(const char *, const char *))
{
  const char **types;
  int          n;

  RW_CHECK(rw_test_model_types(&n, &types));
  ck_assert_msg(n >= 2, "expected heat and osc registered, found %d types", n);
  for (int t = 0; t < n; t++) {
    const ModelCases *c = find_cases(types[t]);

    ck_assert_msg(c, "model type %s is registered but has no cases in t408: add some", types[t]);
    for (int i = 0; c->options[i]; i++) check(types[t], c->options[i]);
  }
  RW_CHECK(PetscFree(types));
}

static void check_gradient(const char *type, const char *grid)
{
  char          opts[512];
  RwModel       model;
  RwTestProblem p;
  RwDotTest     dot;
  RwTaylorTest  tay;

  snprintf(opts, sizeof(opts), "%s -rw_steps 8", grid);
  RW_CHECK(rw_test_model_type(type, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 7, &dot));
  RW_CHECK(RwVerifyTaylor(p.adj, p.m, p.u0, 11, &tay));
  if (!rw_test_rank()) {
    printf("# %s %s\n#   dot: tangent %+.16e adjoint %+.16e err %.3g eps\n#   taylor:", type, opts, dot.lhs, dot.rhs, dot.err);
    for (PetscInt i = 0; i < tay.n; i++) printf(" r1=%.3e (order %.2f)", tay.r1[i], tay.order1[i]);
    printf("\n");
  }
  rw_assert_all(dot.lhs != 0, "%s %s: the tangent is 0: the test would prove nothing", type, opts);
  rw_assert_all(dot.err <= 100, "%s %s: whole-run dot-product error %g eps exceeds 100", type, opts, dot.err);
  rw_assert_all(tay.min_order1 >= 1.9, "%s %s: Taylor remainder order %g < 1.9", type, opts, tay.min_order1);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

static void check_schedules(const char *type, const char *grid)
{
  const int       n   = sizeof(settings) / sizeof(settings[0]);
  RwTestReference ref = {0};

  for (int i = 0; i < n; i++) {
    char          opts[PETSC_MAX_PATH_LEN + 1024];
    RwModel       model;
    RwTestProblem p;
    PetscReal     J;
    PetscBool     same;
    PetscInt64    taken, predicted;

    snprintf(opts, sizeof(opts), "%s %s -rw_steps 23 -rw_store_hdf5_file %s/%s%d.h5", grid, settings[i], dir, type, i);
    RW_CHECK(rw_test_model_type(type, opts, &model));
    RW_CHECK(rw_test_problem(model, &p));
    RW_CHECK(rw_test_solve_same(&p, &ref, &J, &same, &taken, &predicted));
    if (!rw_test_rank()) printf("# %s %-100s J %.17g forward steps %lld (predicted %lld)\n", type, opts, J, (long long)taken, (long long)predicted);
    rw_assert_all(same, "%s %s: J %.17g (storeall %.17g) or a gradient differs from storeall's", type, opts, J, ref.J);
    rw_assert_all(taken == predicted, "%s %s: %lld forward steps, the schedule predicted %lld", type, opts, (long long)taken, (long long)predicted);
    RW_CHECK(rw_test_problem_destroy(&p));
    RW_CHECK(RwModelDestroy(&model));
  }
  RW_CHECK(rw_test_reference_destroy(&ref));
}

START_TEST(test_gradient_of_every_type)
{
  for_every_case(check_gradient);
}
END_TEST

START_TEST(test_schedules_do_not_change_any_type_gradient)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for_every_case(check_schedules);
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) ck_assert_msg(rmdir(dir) == 0, "the stores left files in %s", dir);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("models");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_gradient_of_every_type);
  tcase_add_test(tc, test_schedules_do_not_change_any_type_gradient);
  suite_add_tcase(s, tc);
  return s;
}
