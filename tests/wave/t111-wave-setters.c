/*
  A wave model configured by calls (RwModelWaveSetDimension(),
  RwModelWaveSetAbsorbingLayer(), RwModelWaveSetSpacing(),
  RwModelWaveSetOrigin(), RwModelSetGridSizes()) is the model the equivalent
  options give: the same geometry, the same identity, the same time step
  and the same steps, bit for bit, in 2D and 3D.  The options still
  override what the calls set; after RwModelSetUp() every one of the calls
  is an order error; bad values stop with the options' checks; and another
  model type ignores them, while the wave model's other calls refuse it.
*/
#include "rwtest.h"
#include <math.h>

/* What both models share, and the geometry given once as options, once by calls */
static const char *common = "-rw_steps 6 -rw_wave_f0 0.03 -rw_wave_space_order 4";

static const struct {
  const char *opts;
  PetscInt    dim, M[3], nbl, nh, no;
  PetscReal   h[3], o[3];
} cases[] = {
  {"-rw_wave_dim 2 -da_grid_x 41 -da_grid_y 33 -rw_wave_nbl 6 -rw_wave_spacing 5,7 -rw_wave_origin 100,-20", 2, {41, 33, 0}, 6, 2, 2, {5, 7}, {100, -20}},
  {"-rw_wave_dim 3 -da_grid_x 14 -da_grid_y 13 -da_grid_z 12 -rw_wave_nbl 3 -rw_wave_spacing 4 -rw_wave_origin 1.5,2,-3", 3, {14, 13, 12}, 3, 1, 3, {4}, {1.5, 2, -3}},
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

/* A wave model with the common options and opts (may be ""), under a prefix of its own; its options not yet read */
static PetscErrorCode create_wave(const char *opts, RwModel *model)
{
  char all[512];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(all, sizeof(all), "%s %s", common, opts));
  PetscCall(rw_test_model_create(PETSC_COMM_WORLD, RWMODELWAVE, all, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Case c's geometry by calls, before the options */
static PetscErrorCode set_by_calls(RwModel model, int c)
{
  PetscFunctionBegin;
  PetscCall(RwModelWaveSetDimension(model, cases[c].dim));
  PetscCall(RwModelSetGridSizes(model, cases[c].M));
  PetscCall(RwModelWaveSetAbsorbingLayer(model, cases[c].nbl));
  PetscCall(RwModelWaveSetSpacing(model, cases[c].nh, cases[c].h));
  PetscCall(RwModelWaveSetOrigin(model, cases[c].no, cases[c].o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt  dim, M[3], nbl;
  PetscReal h[3], o[3];
} Geometry;

static Geometry geometry(RwModel model)
{
  Geometry g;

  RW_CHECK(RwModelWaveGetGeometry(model, &g.dim, g.M, &g.nbl, g.h, g.o));
  return g;
}

/* Field by field, every bit (a struct's padding is not compared) */
static PetscBool same_geometry(const Geometry *a, const Geometry *b)
{
  PetscBool same = (PetscBool)(a->dim == b->dim && a->nbl == b->nbl);

  for (int d = 0; d < 3; d++) same = (PetscBool)(same && a->M[d] == b->M[d] && !memcmp(&a->h[d], &b->h[d], sizeof(PetscReal)) && !memcmp(&a->o[d], &b->o[d], sizeof(PetscReal)));
  return same;
}

/* A smooth initial state, so that the steps do more than inject the source */
static PetscReal bump(PetscInt dim, const PetscReal x[], void *ctx)
{
  PetscReal r2 = 0;

  (void)ctx;
  for (PetscInt d = 0; d < dim; d++) r2 += (x[d] - 40) * (x[d] - 40);
  return PetscExpReal(-r2 / 800);
}

START_TEST(test_calls_equal_options)
{
  for (int c = 0; c < NCASES; c++) {
    RwModel   byopts, bycalls;
    Geometry  go, gc;
    char      ido[1024], idc[1024], where[16];
    PetscReal dto, dtc;
    Vec       m[2], u[2], un[2];
    PetscBool same;

    snprintf(where, sizeof(where), "case %d", c);
    RW_CHECK(create_wave(cases[c].opts, &byopts));
    RW_CHECK(create_wave("", &bycalls));
    RW_CHECK(set_by_calls(bycalls, c));
    RW_CHECK(RwModelSetFromOptions(byopts));
    RW_CHECK(RwModelSetFromOptions(bycalls));
    RW_CHECK(RwModelSetUp(byopts));
    RW_CHECK(RwModelSetUp(bycalls));

    go = geometry(byopts), gc = geometry(bycalls);
    ck_assert_msg(go.dim == cases[c].dim && go.nbl == cases[c].nbl && go.M[0] == cases[c].M[0] && go.h[0] == cases[c].h[0] && go.o[0] == cases[c].o[0], "%s: the options did not give the case's geometry", where);
    ck_assert_msg(same_geometry(&go, &gc), "%s: geometry by calls (%" PetscInt_FMT "D, %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", nbl %" PetscInt_FMT ", h %g,%g,%g, origin %g,%g,%g) differs from the options'", where, gc.dim, gc.M[0], gc.M[1], gc.M[2], gc.nbl, (double)gc.h[0], (double)gc.h[1], (double)gc.h[2], (double)gc.o[0], (double)gc.o[1], (double)gc.o[2]);
    RW_CHECK(RwModelGetIdentity(byopts, ido, sizeof(ido)));
    RW_CHECK(RwModelGetIdentity(bycalls, idc, sizeof(idc)));
    ck_assert_msg(!strcmp(ido, idc), "%s: identity by calls \"%s\", by options \"%s\"", where, idc, ido);
    RW_CHECK(RwModelGetTimeStep(byopts, &dto));
    RW_CHECK(RwModelGetTimeStep(bycalls, &dtc));
    ck_assert_msg(dto == dtc, "%s: default dt %.17g by calls, %.17g by options", where, (double)dtc, (double)dto);

    for (int i = 0; i < 2; i++) {
      RwModel model = i ? bycalls : byopts;

      RW_CHECK(RwModelCreateParameters(model, &m[i]));
      RW_CHECK(RwModelGetDefaults(model, m[i], NULL, NULL));
      RW_CHECK(RwModelSetParameters(model, m[i]));
      RW_CHECK(RwModelCreateState(model, &u[i]));
      RW_CHECK(VecDuplicate(u[i], &un[i]));
      RW_CHECK(RwModelFillField(model, u[i], bump, NULL));
    }
    for (PetscInt64 k = 0; k < 6; k++) {
      for (int i = 0; i < 2; i++) {
        RW_CHECK(RwModelStep(i ? bycalls : byopts, k, u[i], un[i]));
        RW_CHECK(VecSwap(u[i], un[i]));
      }
      RW_CHECK(VecEqual(u[0], u[1], &same));
      ck_assert_msg(same, "%s: u_%" PetscInt64_FMT " by calls differs from the options' in its bits", where, k + 1);
    }
    for (int i = 0; i < 2; i++) {
      RW_CHECK(VecDestroy(&m[i]));
      RW_CHECK(VecDestroy(&u[i]));
      RW_CHECK(VecDestroy(&un[i]));
    }
    RW_CHECK(RwModelDestroy(&byopts));
    RW_CHECK(RwModelDestroy(&bycalls));
  }
}
END_TEST

START_TEST(test_options_override)
{
  RwModel  model;
  Geometry g;
  PetscInt dim, nbl;

  RW_CHECK(create_wave("-rw_wave_nbl 3 -da_grid_x 30 -rw_wave_spacing 2 -rw_wave_origin 0,1", &model));
  RW_CHECK(set_by_calls(model, 0));
  /* before set-up the calls' values are there, the grid sizes are not */
  RW_CHECK(RwModelWaveGetGeometry(model, &dim, NULL, &nbl, NULL, NULL));
  ck_assert_msg(dim == 2 && nbl == 6, "before set-up: dim %" PetscInt_FMT ", nbl %" PetscInt_FMT "; expected the calls' 2 and 6", dim, nbl);
  rw_assert_error(RwModelWaveGetGeometry(model, NULL, g.M, NULL, NULL, NULL), "the grid sizes are known after RwModelSetUp()");
  RW_CHECK(RwModelSetFromOptions(model));
  RW_CHECK(RwModelSetUp(model));
  g = geometry(model);
  ck_assert_msg(g.dim == 2 && g.nbl == 3 && g.M[0] == 30 && g.M[1] == 33 && g.h[0] == 2 && g.h[1] == 2 && g.o[0] == 0 && g.o[1] == 1,
                "the options did not override the calls: %" PetscInt_FMT "D, %" PetscInt_FMT " x %" PetscInt_FMT ", nbl %" PetscInt_FMT ", h %g,%g, origin %g,%g; expected 2D, 30 x 33, nbl 3, h 2,2, origin 0,1", g.dim, g.M[0], g.M[1], g.nbl, (double)g.h[0], (double)g.h[1], (double)g.o[0], (double)g.o[1]);
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* call fails with code and a message containing expected */
#define assert_error_code(call, code, expected) \
  do { \
    PetscErrorCode e_; \
    rw_test_capture_begin(); \
    e_ = (call); \
    rw_test_capture_end(); \
    ck_assert_msg(e_ == (code), "%s returned %d; expected %d (%s)", #call, (int)e_, (int)(code), #code); \
    ck_assert_msg(strstr(rw_test_captured(), (expected)), "%s failed with \"%s\"; expected a message containing \"%s\"", #call, rw_test_captured(), (expected)); \
  } while (0)

START_TEST(test_order_and_values)
{
  RwModel         model;
  const PetscReal h3[3] = {1, 2, 3}, hbad[2] = {5, -0.5}, o1[1] = {0};
  const PetscInt  M[3]  = {20, 20, 0};

  RW_CHECK(create_wave("", &model));
  assert_error_code(RwModelWaveSetDimension(model, 4), PETSC_ERR_ARG_OUTOFRANGE, "Wave dimension 4 (-rw_wave_dim): expected 2 or 3");
  assert_error_code(RwModelWaveSetAbsorbingLayer(model, -1), PETSC_ERR_ARG_OUTOFRANGE, "Absorbing layer of -1 points (-rw_wave_nbl): expected 0 or more points");
  assert_error_code(RwModelWaveSetSpacing(model, 3, h3), PETSC_ERR_ARG_SIZ, "RwModelWaveSetSpacing(): 3 values; expected 1 or 2");
  assert_error_code(RwModelWaveSetSpacing(model, 2, hbad), PETSC_ERR_ARG_OUTOFRANGE, "Spacing -0.5 in direction y (-rw_wave_spacing): expected a positive spacing");
  assert_error_code(RwModelWaveSetOrigin(model, 1, o1), PETSC_ERR_ARG_SIZ, "RwModelWaveSetOrigin(): 1 values; expected 2");
  RW_CHECK(RwModelWaveSetSources(model, 1, h3));
  assert_error_code(RwModelWaveSetDimension(model, 3), PETSC_ERR_ORDER, "Choose the wave dimension (3, was 2) before the sources");
  RW_CHECK(RwModelSetGridSizes(model, M));
  RW_CHECK(RwModelWaveSetAbsorbingLayer(model, 2));
  RW_CHECK(RwModelSetFromOptions(model));
  RW_CHECK(RwModelSetUp(model));
  assert_error_code(RwModelWaveSetDimension(model, 2), PETSC_ERR_ORDER, "Choose the wave model's dimension before RwModelSetUp()");
  assert_error_code(RwModelWaveSetAbsorbingLayer(model, 2), PETSC_ERR_ORDER, "Choose the wave model's absorbing layer before RwModelSetUp()");
  assert_error_code(RwModelWaveSetSpacing(model, 1, h3), PETSC_ERR_ORDER, "Choose the wave model's spacing before RwModelSetUp()");
  assert_error_code(RwModelWaveSetOrigin(model, 2, h3), PETSC_ERR_ORDER, "Choose the wave model's origin before RwModelSetUp()");
  assert_error_code(RwModelSetGridSizes(model, M), PETSC_ERR_ORDER, "Set the default grid size before RwModelSetUp()");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* Another type: the setters are ignored (as heat's are by a wave model); the wave model's other calls refuse it */
START_TEST(test_other_type)
{
  RwModel         model;
  const PetscReal h[1] = {3};
  PetscInt        dim;

  RW_CHECK(RwModelCreate(PETSC_COMM_WORLD, &model));
  RW_CHECK(RwModelSetType(model, RWMODELHEAT));
  RW_CHECK(RwModelWaveSetDimension(model, 3));
  RW_CHECK(RwModelWaveSetAbsorbingLayer(model, 4));
  RW_CHECK(RwModelWaveSetSpacing(model, 1, h));
  RW_CHECK(RwModelWaveSetOrigin(model, 1, h));
  assert_error_code(RwModelWaveGetGeometry(model, &dim, NULL, NULL, NULL, NULL), PETSC_ERR_ARG_WRONG, "RwModelWaveGetGeometry() needs a model of type wave, not heat");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-setters");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_calls_equal_options);
  tcase_add_test(tc, test_options_override);
  tcase_add_test(tc, test_order_and_values);
  tcase_add_test(tc, test_other_type);
  suite_add_tcase(s, tc);
  return s;
}
