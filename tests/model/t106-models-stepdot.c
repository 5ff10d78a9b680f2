/*
  Per-step dot-product tests of every registered model type, as SLEPc runs a
  test over every solver type: <T (du, dm), l> against <A_u l, du> + <A_m l, dm>
  for one step at random states, for each type's table of cases below.  A
  registered type without cases fails the test, so a new type cannot skip it.
  Explicit steps must agree to 100 eps.  Each case also checks the state
  layout the type declares (RwModelGetStateLayout()) and the copies of a
  component in and out of a state (RwModelGet/SetStateComponent()).
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

typedef struct {
  const char *type;
  const char *options[6]; /* NULL-terminated */
} ModelCases;

static const ModelCases cases[] = {
  {"heat", {"-rw_heat_dim 1 -da_grid_x 23 -rw_heat_bc dirichlet", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_bc periodic,neumann",
            "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_nn -rw_nn_layers 1,6,6,1 -rw_nn_activation softplus", NULL}},
  {"osc",  {"-osc_dim 1 -da_grid_x 29 -osc_block_size 1", "-osc_dim 1 -da_grid_x 29 -osc_block_size 5", "-osc_dim 2 -da_grid_x 13 -da_grid_y 11 -osc_block_size 7",
            "-osc_dim 3 -da_grid_x 7 -da_grid_y 6 -da_grid_z 5 -osc_block_size 3", NULL}},
  {"l96",  {"-da_grid_x 40", "-da_grid_x 11 -rw_l96_forcing 3.5 -rw_dt 0.05", NULL}},
  {"wave", {"-rw_wave_space_order 2 -da_grid_x 17 -da_grid_y 15 -rw_wave_nbl 3 -rw_wave_f0 0.03", "-rw_wave_space_order 4 -da_grid_x 19 -da_grid_y 16 -rw_wave_nbl 4 -rw_wave_sources 61.3,43.9,80.2,57.7",
            "-rw_wave_space_order 8 -da_grid_x 21 -da_grid_y 18 -rw_wave_nbl 4 -rw_wave_spacing 10,7", "-rw_wave_dim 3 -rw_wave_space_order 4 -da_grid_x 10 -da_grid_y 9 -da_grid_z 11 -rw_wave_nbl 2",
            "-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -rw_wave_nbl 2 -rw_wave_f0 0.03", NULL}},
};

static const ModelCases *find_cases(const char *type)
{
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    if (!strcmp(cases[i].type, type)) return &cases[i];
  return NULL;
}

/* The layout the type declares (RwModelGetStateLayout()): the wave's
   planes (u_k's block, then u_k-1's), every other type's interleaved
   components (stride dof, offset comp); what the function gives in each
   layout; a component out of range stops naming it */
static void check_layout(RwModel model, const char *type, const char *opts)
{
  const RwModelStateLayout want = !strcmp(type, "wave") ? RW_MODEL_STATE_PLANES : RW_MODEL_STATE_INTERLEAVED, declared = model->statelayout;
  PetscInt                 dof, stride, offset;

  RW_CHECK(RwModelGetStateInfo(model, &dof, NULL, NULL));
  rw_assert_all(declared == want, "%s %s: declares layout %d; expected %s", type, opts, (int)declared, want == RW_MODEL_STATE_PLANES ? "planes" : "interleaved");
  for (PetscInt c = 0; c < dof; c++) {
    model->statelayout = RW_MODEL_STATE_INTERLEAVED;
    RW_CHECK(RwModelGetStateLayout(model, c, 100, &stride, &offset));
    rw_assert_all(stride == dof && offset == c, "%s %s: component %d at stride %d offset %d; interleaved is %d, %d", type, opts, (int)c, (int)stride, (int)offset, (int)dof, (int)c);
    model->statelayout = RW_MODEL_STATE_PLANES;
    RW_CHECK(RwModelGetStateLayout(model, c, 100, &stride, &offset));
    model->statelayout = declared;
    rw_assert_all(stride == 1 && offset == 100 * c, "%s %s: in planes, component %d at stride %d offset %d; expected 1, %d", type, opts, (int)c, (int)stride, (int)offset, (int)(100 * c));
  }
  rw_assert_error_in(opts, RwModelGetStateLayout(model, dof, 100, &stride, &offset), "State component");
  { /* a component in and out of a state: interleaved, VecStrideGather's and VecStrideScatter's values; in planes, the plane's */
    Vec                u, v, f, g;
    PetscRandom        rnd;
    PetscBool          same;
    PetscInt           n;
    const PetscScalar *a, *b;

    RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    RW_CHECK(RwModelCreateState(model, &u));
    RW_CHECK(VecDuplicate(u, &v));
    RW_CHECK(RwModelCreateField(model, &f));
    RW_CHECK(VecDuplicate(f, &g));
    RW_CHECK(VecSetRandom(u, rnd));
    RW_CHECK(VecSetRandom(f, rnd));
    RW_CHECK(VecGetLocalSize(f, &n));
    for (PetscInt c = 0; c < dof; c++) {
      RW_CHECK(RwModelGetStateComponent(model, u, c, g));
      if (declared == RW_MODEL_STATE_INTERLEAVED) RW_CHECK(VecStrideGather(u, c, f, INSERT_VALUES));
      else { /* by hand: the plane c n .. c n + n - 1 */
        PetscScalar *fa;

        RW_CHECK(VecGetArrayRead(u, &a));
        RW_CHECK(VecGetArray(f, &fa));
        for (PetscInt p = 0; p < n; p++) fa[p] = a[c * n + p];
        RW_CHECK(VecRestoreArray(f, &fa));
        RW_CHECK(VecRestoreArrayRead(u, &a));
      }
      RW_CHECK(VecEqual(f, g, &same));
      rw_assert_all(same, "%s %s: RwModelGetStateComponent(%d) is not the component's values in the declared layout", type, opts, (int)c);
      RW_CHECK(VecScale(f, 2));
      RW_CHECK(VecCopy(u, v));
      RW_CHECK(RwModelSetStateComponent(model, f, c, u));
      if (declared == RW_MODEL_STATE_INTERLEAVED) {
        RW_CHECK(VecStrideScatter(f, c, v, INSERT_VALUES));
        RW_CHECK(VecEqual(u, v, &same));
      } else { /* u: v but for plane c, which is f */
        const PetscScalar *fa;
        PetscInt           bad = 0;

        RW_CHECK(VecGetArrayRead(u, &a));
        RW_CHECK(VecGetArrayRead(v, &b));
        RW_CHECK(VecGetArrayRead(f, &fa));
        for (PetscInt q = 0; q < dof * n; q++) bad += a[q] != (q / n == c ? fa[q % n] : b[q]);
        RW_CHECK(VecRestoreArrayRead(f, &fa));
        RW_CHECK(VecRestoreArrayRead(v, &b));
        RW_CHECK(VecRestoreArrayRead(u, &a));
        same = bad ? PETSC_FALSE : PETSC_TRUE;
      }
      rw_assert_all(same, "%s %s: RwModelSetStateComponent(%d) is not the component's values in the declared layout", type, opts, (int)c);
    }
    if (dof > 1) rw_assert_error_in(opts, RwModelGetStateComponent(model, u, 0, v), "expected a field of the state's grid");
    RW_CHECK(VecDestroy(&u));
    RW_CHECK(VecDestroy(&v));
    RW_CHECK(VecDestroy(&f));
    RW_CHECK(VecDestroy(&g));
    RW_CHECK(PetscRandomDestroy(&rnd));
  }
}

static void run_case(const char *type, const char *opts)
{
  RwModel   model;
  Vec       m;
  RwDotTest dot;

  RW_CHECK(rw_test_model_type(type, opts, &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwVerifyStepDot(model, m, 3, 42, &dot));
  if (!rw_test_rank()) printf("# %-5s %-70s <T dx,y> %+.16e <dx,A y> %+.16e  err %.3g eps\n", type, opts, dot.lhs, dot.rhs, dot.err);
  rw_assert_all(dot.lhs != 0, "%s %s: the tangent side is 0: the test would prove nothing", type, opts);
  rw_assert_all(dot.err <= 100, "%s %s: dot-product error %g eps exceeds 100 eps", type, opts, dot.err);
  check_layout(model, type, opts);
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_every_type)
{
  const char **types;
  int          n;

  RW_CHECK(rw_test_model_types(&n, &types));
  ck_assert_msg(n >= 2, "expected heat and osc registered, found %d types", n);
  for (int t = 0; t < n; t++) {
    const ModelCases *c = find_cases(types[t]);

    ck_assert_msg(c, "model type %s is registered but has no cases in t106: add some", types[t]);
    for (int i = 0; c->options[i]; i++) run_case(types[t], c->options[i]);
  }
  RW_CHECK(PetscFree(types));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("models-stepdot");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_every_type);
  suite_add_tcase(s, tc);
  return s;
}
