/*
  The points (receivers, sensors, sources) read a state through the layout
  the model declares (issue 37, item 1), not the DMDA's interleaved
  numbering.  One state, its two components filled the same way, once in
  interleaved order and once in planes order (RwModelSetStateLayout_Private()
  switches the wave model, which steps interleaved today; the states are
  filled through RwModelSetStateComponent()); then:
  - the receivers' recorded values (RwObjectiveInterpolate()), the misfit J
    and its gradient dJ/du (RwObjectiveAdjointSource(): the residuals
    spread over the corners) are the same bits in both layouts, for either
    observed component, receivers at rank boundaries, on the grid's last
    line (corners beyond it mirrored) and in the absorbing layer;
  - points reading and spreading into the second component directly
    (RwStencilPointsInterpolate(), RwStencilPointsSpread()) likewise;
  - sources located on a planes state (wave.c's scan of component 0) give
    the interleaved model's forward step, bit for bit;
  - the verification layer's random state (RwVerifyRandomState()) is the
    same two fields in either layout;
  2D and 3D, grids split in x, y or z with ranks of unequal shares (each
  rank's planes start at a different offset), 1 to 3 ranks.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <rewind/private/stencilimpl.h>

static const char *geometry[2] = {
  "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 23 -da_grid_y 19 -rw_wave_spacing 10,10 -rw_wave_origin 0,0 -rw_steps 4 -rw_wave_sources 61.3,43.9",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 13 -da_grid_y 11 -da_grid_z 10 -rw_wave_spacing 10,10,10 -rw_wave_origin 0,0,0 -rw_steps 4 -rw_wave_sources 41.3,38,28",
};
/* the ranks split z (3D) or y (2D) by default; these split the others */
static const char *splits[2][3] = {
  {"", "-da_processors_y 1", ""},
  {"", "-da_processors_x 1 -da_processors_z 1", "-da_processors_y 1 -da_processors_z 1"},
};
/* receivers (physical coordinates; the grid starts at -20): interior, on
   the last grid line (x = 200 in 2D, 100 in 3D), in the absorbing layer,
   across the rank boundaries of 2 and 3 ranks */
#define NREC 6
static const PetscReal src[2][6] = {{61.3, 43.9, 102.2, 77.5}, {41.3, 38, 28, 50.2, 45.5, 30.5}};
static const PetscReal rec[2][NREC * 3] = {
  {33.3, 12.7, 200, 41.5, -17.5, 150.2, 87.1, 65.5, 121.9, 84.4, 12.5, 0.25},
  {10.5, 20.2, 12.5, 100, 33.3, 40.1, -16.6, 70.7, 35.5, 44.4, 44.4, 44.4, 65.5, 10.1, 19.5, 5.5, 5.5, 60},
};

/* Two distinct smooth values per point: component c of the state */
static PetscReal comp0(PetscInt dim, const PetscReal x[], void *ctx)
{
  (void)ctx;
  return PetscSinReal(0.031 * x[0] + 0.3) * PetscCosReal(0.017 * x[1]) + (dim > 2 ? 0.01 * x[2] : 0);
}

static PetscReal comp1(PetscInt dim, const PetscReal x[], void *ctx)
{
  (void)ctx;
  return 0.5 + PetscCosReal(0.023 * x[0] - 0.043 * x[1]) - (dim > 2 ? 0.002 * x[2] * x[2] : 0);
}

typedef struct {
  RwModel   model;
  Vec       u, lambda, f[2], l[2], step[2];
  PetscReal J, traces[NREC], direct[NREC];
} Side;

/* A wave model in the given layout with the state of comp0, comp1 and what its points make of it */
static void side_run(Side *s, const char *opts, int dim, RwModelStateLayout layout, PetscInt observed)
{
  RwObjective     obj;
  RwStencilPoints pts;
  Vec             m, un, x;
  PetscReal       data[NREC], ones[NREC];
  PetscScalar    *a;

  RW_CHECK(rw_test_model_type("wave", opts, &s->model));
  RW_CHECK(RwModelSetStateLayout_Private(s->model, layout));
  RW_CHECK(RwModelSetObservedComponent(s->model, observed));
  RW_CHECK(RwModelCreateState(s->model, &s->u));
  RW_CHECK(VecDuplicate(s->u, &s->lambda));
  for (int c = 0; c < 2; c++) {
    RW_CHECK(RwModelCreateField(s->model, &s->f[c]));
    RW_CHECK(RwModelCreateField(s->model, &s->l[c]));
    RW_CHECK(RwModelFillField(s->model, s->f[c], c ? comp1 : comp0, NULL));
    RW_CHECK(RwModelSetStateComponent(s->model, s->f[c], c, s->u));
  }
  /* the receivers' misfit at step 2 and its gradient */
  for (int r = 0; r < NREC; r++) data[r] = 0.1 * r - 0.2;
  RW_CHECK(RwObjectiveCreate(s->model, &obj));
  {
    const PetscInt64 step = 2;
    RW_CHECK(RwObjectiveAddSensors(obj, NREC, rec[dim - 2], 1, &step, data, 1.0));
  }
  RW_CHECK(RwObjectiveBegin(obj));
  RW_CHECK(RwObjectiveEvaluate(obj, 2, s->u));
  RW_CHECK(VecSet(s->lambda, 0));
  RW_CHECK(RwObjectiveAdjointSource(obj, 2, s->u, s->lambda));
  RW_CHECK(RwObjectiveEnd(obj, &s->J, NULL));
  RW_CHECK(RwObjectiveInterpolate(obj, 0, s->u, s->traces));
  RW_CHECK(RwObjectiveDestroy(&obj));
  /* points on the second component: read it, and spread into it */
  RW_CHECK(RwStencilPointsCreate(s->model, 1, NREC, rec[dim - 2], &pts));
  RW_CHECK(RwStencilPointsInterpolate(pts, s->u, s->direct));
  for (int r = 0; r < NREC; r++) ones[r] = 1 + r;
  RW_CHECK(VecGetArray(s->lambda, &a));
  RW_CHECK(RwStencilPointsSpread(pts, ones, a));
  RW_CHECK(VecRestoreArray(s->lambda, &a));
  RW_CHECK(RwStencilPointsDestroy(&pts));
  for (int c = 0; c < 2; c++) RW_CHECK(RwModelGetStateComponent(s->model, s->lambda, c, s->l[c]));
  /* sources located on a state of this layout, then a step of the interleaved model */
  RW_CHECK(RwModelWaveSetSources(s->model, 2, src[dim - 2]));
  RW_CHECK(RwModelSetStateLayout_Private(s->model, RW_MODEL_STATE_INTERLEAVED));
  RW_CHECK(RwModelCreateParameters(s->model, &m));
  RW_CHECK(RwModelGetDefaults(s->model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameters(s->model, m));
  RW_CHECK(VecDuplicate(s->u, &un));
  RW_CHECK(VecDuplicate(s->u, &x));
  for (int c = 0; c < 2; c++) RW_CHECK(RwModelSetStateComponent(s->model, s->f[c], c, x));
  RW_CHECK(RwModelStep(s->model, 1, x, un));
  for (int c = 0; c < 2; c++) {
    RW_CHECK(RwModelCreateField(s->model, &s->step[c]));
    RW_CHECK(RwModelGetStateComponent(s->model, un, c, s->step[c]));
  }
  RW_CHECK(VecDestroy(&un));
  RW_CHECK(VecDestroy(&x));
  RW_CHECK(VecDestroy(&m));
}

static void side_destroy(Side *s)
{
  for (int c = 0; c < 2; c++) {
    RW_CHECK(VecDestroy(&s->f[c]));
    RW_CHECK(VecDestroy(&s->l[c]));
    RW_CHECK(VecDestroy(&s->step[c]));
  }
  RW_CHECK(VecDestroy(&s->u));
  RW_CHECK(VecDestroy(&s->lambda));
  RW_CHECK(RwModelDestroy(&s->model));
}

static void check_layouts(int dim, const char *split, PetscInt observed)
{
  Side      in, pl;
  char      opts[768];
  PetscReal norm;

  snprintf(opts, sizeof(opts), "%s %s", geometry[dim - 2], split);
  side_run(&in, opts, dim, RW_MODEL_STATE_INTERLEAVED, observed);
  side_run(&pl, opts, dim, RW_MODEL_STATE_PLANES, observed);
  /* the two states differ in their arrays (else the test proves nothing) */
  rw_assert_all(!rw_test_vec_bitwise(in.u, pl.u), "%s: the interleaved and planes states hold the same array", opts);
  rw_assert_all(in.J == pl.J && in.J > 0, "%s, observed %d: J %.17g interleaved, %.17g in planes", opts, (int)observed, (double)in.J, (double)pl.J);
  rw_assert_all(!memcmp(in.traces, pl.traces, sizeof(in.traces)), "%s, observed %d: the receivers read other values in planes", opts, (int)observed);
  rw_assert_all(!memcmp(in.direct, pl.direct, sizeof(in.direct)), "%s: points on component 1 read other values in planes", opts);
  for (int r = 0; r < NREC; r++) rw_assert_all(in.direct[r] != 0 && in.traces[r] != 0, "%s: receiver %d reads 0", opts, r);
  for (int c = 0; c < 2; c++) {
    rw_assert_all(rw_test_vec_bitwise(in.l[c], pl.l[c]), "%s, observed %d: component %d of dJ/du (and the spread) differs in planes", opts, (int)observed, c);
    rw_assert_all(rw_test_vec_bitwise(in.step[c], pl.step[c]), "%s: sources located on a planes state give another step (component %d)", opts, c);
  }
  RW_CHECK(VecNorm(in.l[observed], NORM_INFINITY, &norm));
  rw_assert_all(norm > 0, "%s: dJ/du is zero: the test would prove nothing", opts);
  side_destroy(&in);
  side_destroy(&pl);
}

START_TEST(test_points_layout)
{
  for (int dim = 2; dim <= 3; dim++)
    for (int s = 0; s < 3; s++) {
      if (!strlen(splits[dim - 2][s]) && s) continue;
      for (PetscInt observed = 0; observed < 2; observed++) check_layouts(dim, splits[dim - 2][s], observed);
    }
}
END_TEST

/* The verification layer's random state (dot and Taylor tests, hashed by
   natural index) is the same state in either layout: each component the
   same field, on any decomposition */
START_TEST(test_random_state_layout)
{
  for (int dim = 2; dim <= 3; dim++) {
    RwModel model;
    Vec     u, f[2][2];

    RW_CHECK(rw_test_model_type("wave", geometry[dim - 2], &model));
    RW_CHECK(RwModelCreateState(model, &u));
    for (int l = 0; l < 2; l++) {
      RW_CHECK(RwModelSetStateLayout_Private(model, l ? RW_MODEL_STATE_PLANES : RW_MODEL_STATE_INTERLEAVED));
      RW_CHECK(RwVerifyRandomState(model, 17, u));
      for (int c = 0; c < 2; c++) {
        RW_CHECK(RwModelCreateField(model, &f[l][c]));
        RW_CHECK(RwModelGetStateComponent(model, u, c, f[l][c]));
      }
    }
    for (int c = 0; c < 2; c++) rw_assert_all(rw_test_vec_bitwise(f[0][c], f[1][c]), "%dD: component %d of the random state differs in planes", dim, c);
    rw_assert_all(!rw_test_vec_bitwise(f[0][0], f[0][1]), "%dD: the random state's two components are the same", dim);
    for (int l = 0; l < 2; l++)
      for (int c = 0; c < 2; c++) RW_CHECK(VecDestroy(&f[l][c]));
    RW_CHECK(VecDestroy(&u));
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-points-layout");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_points_layout);
  tcase_add_test(tc, test_random_state_layout);
  suite_add_tcase(s, tc);
  return s;
}
