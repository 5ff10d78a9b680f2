/*
  Time-blocked 3D wave passes (issue 37, item 2): RwModelStepBlock() of
  depth D in 3D (RwStencilRunPassBlock()) and the driver's forward sweeps
  in blocks of D steps.
  - A block of D = 2, 3, 4 steps gives every state bit for bit as D
    RwModelStep() calls, from random states, orders 2, 4, 8, ordinary and
    streamed stores, whole planes and tiles of a few y rows, sources at
    rank boundaries and in the absorbing layer (a level reads the one
    below with its sources in); a NaN in x_k is reported for u_k+1;
  - J, dJ/dm and dJ/du0 of a receivers' misfit at depths 1..4 and the
    default under store-all, revolve and multilevel are store-all's
    unblocked bits, in the forward steps the schedule predicts; with every
    instruction set the CPU has too; so is a tangent solve's dJ (the
    tangent sweep takes one step a pass);
  - a depth out of range stops naming -rw_model_step_block; the 3D
    default is one step a pass.
*/
#include "rwtest.h"
#include <rewind/private/kernelisaimpl.h>
#include <petscdmda.h>

/* On 2 ranks z splits 8/7 planes (or y 9/9 with -da_processors_z 1), on 3
   ranks 5/5/5: the sources' corners fall either side of a rank boundary;
   x = -14.5 is in the absorbing layer (nbl 2) */
static const char *geometry = "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 21 -da_grid_y 18 -da_grid_z 15 -rw_wave_spacing 10,10,10 -rw_wave_origin 0,0,0 -rw_steps 9 -rw_wave_sources 41.3,38,28,-14.5,60.2,49.5,120.2,75.5,50.5";
static const char *stream_opts[2] = {"-rw_kernel_stream_stores -1", "-rw_kernel_stream_stores 0"};

static void set_state_point(RwModel model, Vec x, PetscInt i, PetscInt j, PetscInt k, PetscReal v)
{
  DM       da;
  PetscInt xs, ys, zs, xm, ym, zm, lo;

  RW_CHECK(RwModelGetStateDM(model, &da));
  RW_CHECK(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  RW_CHECK(VecGetOwnershipRange(x, &lo, NULL));
  if (i >= xs && i < xs + xm && j >= ys && j < ys + ym && k >= zs && k < zs + zm) RW_CHECK(VecSetValue(x, lo + (((k - zs) * ym + (j - ys)) * xm + (i - xs)) * 2, v, INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(x));
  RW_CHECK(VecAssemblyEnd(x));
}

/* A block of D steps against D single steps, bit for bit, from two random states */
static void check_block(const char *opts, PetscInt D)
{
  RwModel     model;
  Vec         m, u, one[RW_MODEL_MAX_STEP_BLOCK + 1], blk[RW_MODEL_MAX_STEP_BLOCK];
  PetscRandom rnd;
  PetscInt    T;
  char        msg[1024];

  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(RwModelGetStepBlock(model, &T));
  rw_assert_all(T == D, "%s: gave blocks of %d, not %d", opts, (int)T, (int)D);
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(RwModelCreateState(model, &u));
  for (PetscInt t = 0; t < D; t++) {
    RW_CHECK(VecDuplicate(u, &one[t + 1]));
    RW_CHECK(VecDuplicate(u, &blk[t]));
  }
  one[0] = u;
  for (PetscInt k = 1; k < 6; k += 3) {
    PetscBool same = PETSC_TRUE, s;

    RW_CHECK(VecSetRandom(u, rnd));
    for (PetscInt t = 0; t < D; t++) RW_CHECK(RwModelStep(model, k + t, one[t], one[t + 1]));
    RW_CHECK(RwModelStepBlock(model, k, D, u, blk));
    RW_CHECK(RwModelCheckFinite(model));
    msg[0] = 0;
    for (PetscInt t = 0; t < D; t++) {
      RW_CHECK(VecEqual(one[t + 1], blk[t], &s));
      if (!s) snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), " u_k+%d", (int)t + 1);
      same = (PetscBool)(same && s);
    }
    rw_assert_all(same, "%s: the block of %d from step %d differs from single steps in%s", opts, (int)D, (int)k, msg);
  }
  {
    PetscReal norm;

    RW_CHECK(VecNorm(blk[D - 1], NORM_INFINITY, &norm));
    rw_assert_all(norm > 0, "%s: the states are zero: the test would prove nothing", opts);
  }
  RW_CHECK(VecSet(u, 0));
  set_state_point(model, u, 10, 9, 7, NAN);
  RW_CHECK(RwModelStepBlock(model, 3, D, u, blk));
  rw_assert_error_in(opts, RwModelCheckFinite(model), "NaN or Inf in the forward state u_4");
  RW_CHECK(PetscRandomDestroy(&rnd));
  for (PetscInt t = 0; t < D; t++) {
    RW_CHECK(VecDestroy(&one[t + 1]));
    RW_CHECK(VecDestroy(&blk[t]));
  }
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_block_states)
{
  const char *splits[3] = {"", "-da_processors_x 1 -da_processors_z 1", "-da_processors_y 1 -da_processors_z 1"}; /* z, y, x split where there are ranks */
  const char *tiles[2]  = {"", "-rw_stencil_block_tile 2"};

  for (int o = 0; o < 3; o++)
    for (PetscInt D = 2; D <= 4; D++) {
      char opts[1024];

      snprintf(opts, sizeof(opts), "%s -rw_wave_space_order %d -rw_model_step_block %d %s %s %s", geometry, o == 0 ? 2 : o == 1 ? 4 : 8, (int)D, stream_opts[D % 2], tiles[(o + D) % 2], rw_test_size() > 1 ? splits[(o + D) % 3] : "");
      check_block(opts, D);
    }
}
END_TEST

/* The first solve's tangent dJ along (dJ/dm, dJ/du0) of the current order (the tangent sweep takes single steps) */
static PetscReal tangent_ref;

/* J, dJ/dm, dJ/du0 of the receivers' misfit (data zero, so J > 0), and the
   tangent dJ along the reference's gradient */
static void solve(const char *opts, RwTestReference *ref, const char *what)
{
  const PetscReal rec[3 * 3] = {23.3, 47.9, 41.7, 84.4, 91.2, 51.9, 135.5, 114.5, 62.2};
  RwModel         model;
  RwTestProblem   p;
  PetscInt64      n, taken, predicted;
  PetscReal      *d, J;
  PetscBool       same;

  RW_CHECK(rw_test_model_type("wave", opts, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwModelGetSteps(model, &n));
  RW_CHECK(PetscCalloc1((n + 1) * 3, &d));
  RW_CHECK(RwObjectiveAddWaveReceivers(p.obj, 3, rec, d));
  RW_CHECK(PetscFree(d));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(rw_test_solve_same(&p, ref, &J, &same, &taken, &predicted));
  rw_assert_all(J > 0, "%s: J %g: the test would prove nothing", opts, J);
  rw_assert_all(same, "%s (%s): J %.17g against %.17g unblocked store-all, or dJ/dm or dJ/du0 not the same bits", opts, what, J, ref->J);
  rw_assert_all(taken == predicted, "%s: %d forward steps, the schedule predicted %d", opts, (int)taken, (int)predicted);
  {
    const PetscBool first = (PetscBool)!strcmp(what, "the reference");
    PetscReal       dJ;

    RW_CHECK(RwTangentSolve(p.adj, p.m, ref->g, p.u0, ref->gu0, &dJ));
    if (first) tangent_ref = dJ;
    rw_assert_all(dJ > 0 && dJ == tangent_ref, "%s (%s): tangent dJ %.17g against %.17g unblocked", opts, what, dJ, tangent_ref);
  }
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_gradients)
{
  const char *schedules[] = {
    "-rw_schedule_type storeall", /* ADVANCE, STORE, ADVANCE ... fused */
    "-rw_schedule_type revolve -rw_schedule_ram_slots 3",
    "-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2",
  };
  const char *depths[] = {"-rw_model_step_block 1", "-rw_model_step_block 2", "-rw_model_step_block 3", "-rw_model_step_block 4", ""};

  for (int o = 0; o < 3; o++) {
    RwTestReference ref = {0};
    char            base[1024];

    snprintf(base, sizeof(base), "%s -rw_wave_space_order %d -rw_wave_f0 0.03 %s", geometry, o == 0 ? 2 : o == 1 ? 4 : 8, stream_opts[o % 2]);
    for (int s = 0; s < 3; s++)
      for (int d = 0; d < 5; d++) {
        char opts[1280];

        snprintf(opts, sizeof(opts), "%s %s %s", base, schedules[s], depths[d]);
        solve(opts, &ref, s || d ? "blocked or checkpointed" : "the reference");
      }
    for (int i = RW_KERNEL_ISA_PORTABLE; i < RW_KERNEL_ISA_N; i++) { /* each set's rows, blocked */
      char opts[1280];

      if (!RwKernelISAAvailable((RwKernelISA)i)) continue;
      snprintf(opts, sizeof(opts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_model_step_block 3 -rw_kernel_isa %s", base, RwKernelISANames[i]);
      solve(opts, &ref, RwKernelISANames[i]);
    }
    RW_CHECK(rw_test_reference_destroy(&ref));
  }
}
END_TEST

START_TEST(test_bad_depth)
{
  RwModel  model;
  PetscInt T;

  /* the 3D default is one step a pass: blocks measured no faster (doc/wave.md) */
  RW_CHECK(rw_test_model_type("wave", geometry, &model));
  RW_CHECK(RwModelGetStepBlock(model, &T));
  rw_assert_all(T == 1, "the 3D default block is %d steps, documented as 1", (int)T);
  RW_CHECK(RwModelDestroy(&model));

  rw_assert_error(rw_test_model_type("wave", "-rw_wave_dim 3 -rw_model_step_block 9", &model), "rw_model_step_block 9: expected a whole number in [1, 8]");
  rw_assert_error(rw_test_model_type("wave", "-rw_wave_dim 3 -rw_model_step_block 0", &model), "rw_model_step_block 0: expected a whole number in [1, 8]");
  rw_assert_error(rw_test_model_type("wave", "-rw_wave_dim 2 -rw_model_step_block 3", &model), "the wave model fuses at most 2 steps a pass in 2D");
  rw_assert_error(rw_test_model_type("wave", "-rw_wave_dim 3 -rw_model_step_block 2 -rw_stencil_block_tile -1", &model), "rw_stencil_block_tile");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("t131-wave-block");
  TCase *tc = tcase_create("block");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_block_states);
  tcase_add_test(tc, test_gradients);
  tcase_add_test(tc, test_bad_depth);
  suite_add_tcase(s, tc);
  return s;
}
