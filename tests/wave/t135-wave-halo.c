/*
  The wave halo moves u_k's ghosts alone (issue 37, item 1): every form of
  the wave reads neighbours of its state's first component only (u_k, du_k,
  la'), so RwStencilSetHaloComponents() leaves the second one's ghosts
  unmoved.  -rw_stencil_halo_all moves both, as before; against it:
  - one forward step (and a block of two: 2D pairs, 3D blocked passes), a
    tangent step and an adjoint step (lambda_k and dJ/dm) from random
    states give the same bits, in 2D and 3D, orders 2, 4 and 8, grids split
    in x, y or z, with the CPU's best instruction set (whose whole-point
    rows load a ghost's second component into a lane they drop) and the
    portable rows;
  - the bytes those steps send (PETSc's count of the sends) are half, and
    not zero, where there are several ranks; none on one rank;
  - J, dJ/dm and dJ/du0 of a receivers' misfit, store-all and revolve, are
    the bits of store-all with both components moved (2D orders 4 and 8,
    3D orders 2 and 8, each on one split);
  - a component out of range stops naming it.
*/
#include "rwtest.h"
#include <rewind/private/kernelisaimpl.h>
#include <rewind/private/stencilimpl.h>
#include <petsclog.h>

static const char *geometry[2] = {
  "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 23 -da_grid_y 19 -rw_wave_spacing 10,10 -rw_wave_origin 0,0 -rw_steps 9 -rw_wave_sources 61.3,43.9,102.2,77.5",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 17 -da_grid_y 15 -da_grid_z 14 -rw_wave_spacing 10,10,10 -rw_wave_origin 0,0,0 -rw_steps 7 -rw_wave_sources 41.3,38,28,90.2,75.5,50.5",
};
/* the ranks split z (3D) or y (2D) by default; these split the others */
static const char *splits[2][3] = {
  {"", "-da_processors_y 1", ""},
  {"", "-da_processors_x 1 -da_processors_z 1", "-da_processors_y 1 -da_processors_z 1"},
};

/* The bytes this rank's sends have moved so far */
static PetscLogDouble sent(void)
{
  return petsc_isend_len + petsc_send_len;
}

typedef struct {
  RwModel model;
  Vec     m, dm, y[2], dy, l, g;
  double  bytes[3]; /* sent by a forward step, a tangent step, an adjoint step */
} Run;

/* One forward step (and a block of T), a tangent step and an adjoint step of r's model from the given states */
static void run_forms(Run *r, PetscInt T, Vec u, Vec un, Vec du, Vec ln)
{
  PetscLogDouble b0;

  RW_CHECK(RwModelSetParameters(r->model, r->m));
  RW_CHECK(RwModelStep(r->model, 3, u, r->y[0])); /* the halo's first use sets its scatter up (a few messages of their own) */
  b0 = sent();
  RW_CHECK(RwModelStep(r->model, 3, u, r->y[0]));
  r->bytes[0] = sent() - b0;
  if (T > 1) RW_CHECK(RwModelStepBlock(r->model, 3, T, u, r->y));
  RW_CHECK(RwModelSetDirection(r->model, r->dm));
  b0 = sent();
  RW_CHECK(RwModelStepTangent(r->model, 3, u, un, du, r->dy));
  r->bytes[1] = sent() - b0;
  RW_CHECK(RwModelAdjointBegin(r->model));
  b0 = sent();
  RW_CHECK(RwModelStepAdjoint(r->model, 3, u, un, ln, r->l));
  r->bytes[2] = sent() - b0;
  RW_CHECK(RwModelAdjointEnd(r->model, r->g));
  RW_CHECK(RwModelCheckFinite(r->model));
}

static void run_create(Run *r, const char *opts, PetscRandom rnd)
{
  RW_CHECK(rw_test_model_type("wave", opts, &r->model));
  RW_CHECK(RwModelCreateParameters(r->model, &r->m));
  RW_CHECK(RwModelGetDefaults(r->model, r->m, NULL, NULL));
  RW_CHECK(VecDuplicate(r->m, &r->dm));
  RW_CHECK(VecDuplicate(r->m, &r->g));
  RW_CHECK(VecSetRandom(r->dm, rnd));
  RW_CHECK(RwModelCreateState(r->model, &r->l));
  RW_CHECK(VecDuplicate(r->l, &r->dy));
  RW_CHECK(VecDuplicate(r->l, &r->y[0]));
  RW_CHECK(VecDuplicate(r->l, &r->y[1]));
}

static void run_destroy(Run *r)
{
  RW_CHECK(VecDestroy(&r->m));
  RW_CHECK(VecDestroy(&r->dm));
  RW_CHECK(VecDestroy(&r->g));
  RW_CHECK(VecDestroy(&r->l));
  RW_CHECK(VecDestroy(&r->dy));
  RW_CHECK(VecDestroy(&r->y[0]));
  RW_CHECK(VecDestroy(&r->y[1]));
  RW_CHECK(RwModelDestroy(&r->model));
}

static PetscBool equal(Vec a, Vec b)
{
  PetscBool s;

  RW_CHECK(VecEqual(a, b, &s));
  return s;
}

/* The three forms with u_k's ghosts alone and with both components', from the same random states */
static void check_forms(const char *opts, PetscInt T)
{
  char        all[1024];
  Run         one = {0}, both = {0};
  Vec         u, un, du, ln;
  PetscRandom rnd;

  snprintf(all, sizeof(all), "%s -rw_stencil_halo_all", opts);
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  run_create(&one, opts, rnd);
  run_create(&both, all, rnd);
  RW_CHECK(VecCopy(one.dm, both.dm));
  rw_assert_all(one.model->stencil && ((RwStencil)one.model->stencil)->halocomps[0] == 1 && ((RwStencil)both.model->stencil)->haloall, "%s: the wave's halo does not ask for component 0 alone, or -rw_stencil_halo_all was not seen", opts);
  RW_CHECK(VecDuplicate(one.l, &u));
  RW_CHECK(VecDuplicate(one.l, &un));
  RW_CHECK(VecDuplicate(one.l, &du));
  RW_CHECK(VecDuplicate(one.l, &ln));
  RW_CHECK(VecSetRandom(u, rnd));
  RW_CHECK(VecSetRandom(un, rnd));
  RW_CHECK(VecSetRandom(du, rnd));
  RW_CHECK(VecSetRandom(ln, rnd));
  run_forms(&one, T, u, un, du, ln);
  run_forms(&both, T, u, un, du, ln);
  rw_assert_all(equal(one.y[0], both.y[0]), "%s: the forward step differs when the halo moves u_k-1's ghosts too", opts);
  rw_assert_all(T < 2 || equal(one.y[1], both.y[1]), "%s: the block of %d steps differs when the halo moves u_k-1's ghosts too", opts, (int)T);
  rw_assert_all(equal(one.dy, both.dy), "%s: the tangent step differs when the halo moves du_k-1's ghosts too", opts);
  rw_assert_all(equal(one.l, both.l), "%s: the adjoint step's lambda_k differs when the halo moves lb's ghosts too", opts);
  rw_assert_all(equal(one.g, both.g), "%s: the adjoint step's dJ/dm differs when the halo moves lb's ghosts too", opts);
  {
    PetscReal norm;

    RW_CHECK(VecNorm(one.g, NORM_INFINITY, &norm));
    rw_assert_all(norm > 0, "%s: dJ/dm is zero: the test would prove nothing", opts);
  }
  for (int f = 0; f < 3; f++) {
    double b[2] = {one.bytes[f], both.bytes[f]};

    ck_assert(MPI_Allreduce(MPI_IN_PLACE, b, 2, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD) == MPI_SUCCESS);
    if (rw_test_size() == 1) rw_assert_all(b[0] == 0 && b[1] == 0, "%s: form %d sent %g and %g bytes on one rank", opts, f, b[0], b[1]);
    else rw_assert_all(b[0] > 0 && 2 * b[0] == b[1], "%s: form %d (forward, tangent, adjoint) sent %g bytes with u_k's ghosts alone, %g with both: not half", opts, f, b[0], b[1]);
  }
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&un));
  RW_CHECK(VecDestroy(&du));
  RW_CHECK(VecDestroy(&ln));
  run_destroy(&one);
  run_destroy(&both);
  RW_CHECK(PetscRandomDestroy(&rnd));
}

START_TEST(test_forms)
{
  for (int d = 0; d < 2; d++)
    for (int o = 0; o < 3; o++) {
      const int order = o == 0 ? 2 : o == 1 ? 4 : 8;
      char      opts[1024];

      /* each order its split (3D: z, y, x; 2D: y, x, y), the CPU's best
         instruction set (the whole-point rows); at order 4 the portable rows too.
         Few models: the test harness gives each its own options, at most 512 a run */
      snprintf(opts, sizeof(opts), "%s -rw_wave_space_order %d -rw_model_step_block 2 %s", geometry[d], order, rw_test_size() > 1 ? splits[d][o] : "");
      check_forms(opts, 2);
      if (o != 1) continue;
      snprintf(opts, sizeof(opts), "%s -rw_wave_space_order %d -rw_kernel_isa %s %s", geometry[d], order, RwKernelISANames[RW_KERNEL_ISA_PORTABLE], rw_test_size() > 1 ? splits[d][2] : "");
      check_forms(opts, 1);
    }
}
END_TEST

/* J, dJ/dm, dJ/du0 of a receivers' misfit (data zero, so J > 0) */
static void solve(const char *opts, RwTestReference *ref)
{
  const PetscReal rec[2][3 * 2] = {{23.3, 47.9, 84.4, 91.2, 135.5, 114.5}, {23.3, 47.9, 41.7, 84.4, 91.2, 51.9}};
  RwModel         model;
  RwTestProblem   p;
  PetscInt64      n, taken, predicted;
  PetscInt        dim;
  PetscReal      *d, J;
  PetscBool       same;

  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(RwModelWaveGetGeometry(model, &dim, NULL, NULL, NULL, NULL));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwModelGetSteps(model, &n));
  RW_CHECK(PetscCalloc1((n + 1) * (dim == 2 ? 3 : 2), &d));
  RW_CHECK(RwObjectiveAddWaveReceivers(p.obj, dim == 2 ? 3 : 2, rec[dim - 2], d));
  RW_CHECK(PetscFree(d));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(rw_test_solve_same(&p, ref, &J, &same, &taken, &predicted));
  rw_assert_all(J > 0, "%s: J %g: the test would prove nothing", opts, J);
  rw_assert_all(same, "%s: J %.17g against %.17g (store-all, both components' ghosts), or dJ/dm or dJ/du0 not the same bits", opts, J, ref->J);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_gradients)
{
  for (int d = 0; d < 2; d++)
    for (int o = d; o < 3; o += 2 - d) { /* 2D orders 4 and 8 (the pairs, the ring), 3D orders 2 and 8 */
      RwTestReference ref = {0};
      char            base[1024], opts[1280];

      /* one decomposition a case (each order its split), so that only the halo differs */
      snprintf(base, sizeof(base), "%s -rw_wave_space_order %d -rw_wave_f0 0.03 %s", geometry[d], o == 0 ? 2 : o == 1 ? 4 : 8, rw_test_size() > 1 ? splits[d][o] : "");
      snprintf(opts, sizeof(opts), "%s -rw_schedule_type storeall -rw_stencil_halo_all", base);
      solve(opts, &ref); /* the reference */
      snprintf(opts, sizeof(opts), "%s -rw_schedule_type storeall", base);
      solve(opts, &ref);
      snprintf(opts, sizeof(opts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 2", base);
      solve(opts, &ref);
      RW_CHECK(rw_test_reference_destroy(&ref));
    }
}
END_TEST

START_TEST(test_bad_component)
{
  const PetscInt two[1] = {2}, zero[1] = {0}, three[3] = {0, 1, 0};
  RwModel        model;

  RW_CHECK(rw_test_model_type("wave", geometry[0], &model));
  rw_assert_error(RwStencilSetHaloComponents((RwStencil)model->stencil, 0, 1, two), "Halo component 2 of input 0: expected one in [0, 2)");
  rw_assert_error(RwStencilSetHaloComponents((RwStencil)model->stencil, 8, 1, zero), "Halo components of input 8: expected an input in [0, 8)");
  rw_assert_error(RwStencilSetHaloComponents((RwStencil)model->stencil, 0, 3, three), "3 halo components of input 0: the state has 2");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("t135-wave-halo");
  TCase *tc = tcase_create("halo");

  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_forms);
  tcase_add_test(tc, test_gradients);
  tcase_add_test(tc, test_bad_component);
  suite_add_tcase(s, tc);
  return s;
}
