/*
  -rw_store_compress auto (issue 36; src/adjoint/codecauto.c): the codec
  chosen per level by its own cost model.
  - a forward step made very dear (-rw_debug_auto_step_seconds 10): a codec
    that buys slots is chosen (lossless: no tolerance was given, so never
    zfp); a very cheap one (1e-9 s): none, since encoding costs more than the
    steps it saves;
  - the choice is the smallest predicted time, a codec only when it predicts
    10% less than none; the view prints it;
  - J and the gradients are the bits of a run with -rw_store_compress C,
    C the codec chosen, at the same budget, in as many forward steps and
    slots; lossless and none give storeall's bits;
  - with a tolerance given, zfp is a candidate, and a zfp choice gives the
    bits of -rw_store_compress zfp at that tolerance; later solves choose
    again from the costs measured;
  - without a budget (storeall) auto is none;
  - bad input: an unknown codec, auto with a bad tolerance.
*/
#include "rwconfig.h"
#include "rwstoretest.h"

#define GRID "-rw_heat_dim 1 -da_grid_x 600 -rw_steps 40"

/* The heat problem of t324 with extra options; unless they choose storeall, revolve in a RAM budget of 10.5 uncompressed states */
static PetscErrorCode make_problem(const char *extra, RwModel *model, RwTestProblem *p)
{
  char       all[1024];
  PetscInt64 rankmax, total;
  RwModel    probe;

  PetscFunctionBegin;
  PetscCall(rw_test_model_type("heat", GRID, &probe));
  PetscCall(RwModelGetStateBytes(probe, &rankmax, &total));
  PetscCall(RwModelDestroy(&probe));
  if (strstr(extra, "storeall")) snprintf(all, sizeof(all), "%s %s", GRID, extra);
  else snprintf(all, sizeof(all), "%s -rw_schedule_type revolve -rw_checkpoint_ram %lld %s", GRID, (long long)(10.5 * (PetscReal)rankmax), extra);
  PetscCall(rw_test_model_type("heat", all, model));
  PetscCall(rw_test_problem(*model, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x_0 := a bump of 60 cells in the middle of the rod, zero elsewhere: explicit
   heat spreads it one cell a step, so every state is mostly exact zeros,
   which lossless compression shrinks many times (a codec that pays) */
static PetscErrorCode fill_bump(Vec u)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal x = (PetscReal)(idx[i] - 300) / 10;

    a[i] = PetscAbsReal(x) < 3 ? PetscExpReal(-x * x) : 0;
  }
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool bump = PETSC_TRUE; /* x_0 the bump (else the default: lossless buys little) */

/* One solve with extra options against ref: the bits, the forward steps, the choice and the pool's slots */
static void solve(const char *extra, RwTestReference *ref, PetscBool *same, PetscInt64 *taken, RwAdjointCodecChoice *ch, RwAdjointPoolInfo *info, int nsolves)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;
  PetscInt64    predicted;

  RW_CHECK(make_problem(extra, &model, &p));
  if (bump) RW_CHECK(fill_bump(p.u0));
  for (int i = 0; i < nsolves; i++) {
    RW_CHECK(rw_test_solve_same(&p, ref, &J, same, taken, &predicted));
    if (!*same) break;
  }
  RW_CHECK(RwAdjointGetCodecChoice(p.adj, RW_LEVEL_RAM, ch));
  RW_CHECK(RwAdjointGetPoolInfo(p.adj, info));
  if (!rw_test_rank()) printf("# %s: J %.17g, %lld forward steps; auto %d chosen %d budget %d: %s, seconds %g %g %g, slots %lld %lld %lld\n", extra, J, (long long)*taken, (int)ch->isauto, (int)ch->chosen, (int)ch->budget, RwStoreCompressTypes[ch->type], (double)ch->seconds[0], (double)ch->seconds[1], (double)ch->seconds[2], (long long)ch->slots[0], (long long)ch->slots[1], (long long)ch->slots[2]);
  if (ch->isauto) RW_CHECK(RwAdjointView(p.adj, NULL));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

/* The choice is the candidate predicted fastest, a codec only 10% below none */
static void check_consistent(const RwAdjointCodecChoice *ch, const char *what)
{
  RwStoreCompressType best = RW_STORE_COMPRESS_NONE;

  for (int c = 1; c < 3; c++)
    if (ch->seconds[c] >= 0 && ch->seconds[c] < 0.9 * ch->seconds[0] && (best == RW_STORE_COMPRESS_NONE || ch->seconds[c] < ch->seconds[best])) best = (RwStoreCompressType)c;
  rw_assert_all(ch->chosen && ch->budget && ch->type == best, "%s: chose %s, its model says %s", what, RwStoreCompressTypes[ch->type], RwStoreCompressTypes[best]);
  rw_assert_all(ch->seconds[0] > 0 && ch->seconds[1] > 0 && ch->slots[1] >= ch->slots[0] && ch->forward_steps[1] <= ch->forward_steps[0], "%s: predictions none %g s in %lld slots, lossless %g s in %lld slots", what, (double)ch->seconds[0], (long long)ch->slots[0], (double)ch->seconds[1], (long long)ch->slots[1]);
}

START_TEST(test_auto_lossless)
{
  RwTestReference      ref = {0};
  RwAdjointCodecChoice ch, none;
  RwAdjointPoolInfo    info, info2;
  PetscBool            same;
  PetscInt64           taken, taken2;

  solve("-rw_schedule_type storeall -rw_store_compress auto", &ref, &same, &taken, &ch, &info, 1); /* the reference; no budget to buy: none */
  rw_assert_all(ch.isauto && ch.chosen && !ch.budget && ch.type == RW_STORE_COMPRESS_NONE && !info.pooled, "storeall with auto: chose %s (budget %d)", RwStoreCompressTypes[ch.type], (int)ch.budget);
  /* a dear step: lossless buys slots and saves steps; no tolerance given: zfp is no candidate */
  solve("-rw_store_compress auto -rw_debug_auto_step_seconds 10", &ref, &same, &taken, &ch, &info, 2);
  check_consistent(&ch, "step 10 s");
  rw_assert_all(same && ch.type == RW_STORE_COMPRESS_LOSSLESS && ch.seconds[2] < 0 && !ch.lossy, "step 10 s: same bits %d, chose %s, zfp predicted %g", (int)same, RwStoreCompressTypes[ch.type], (double)ch.seconds[2]);
  rw_assert_all(ch.measured && ch.step == 10, "after two solves the step cost is not the measured one (measured %d, step %g)", (int)ch.measured, (double)ch.step);
  solve("-rw_store_compress lossless", &ref, &same, &taken2, &none, &info2, 2);
  rw_assert_all(same && taken == taken2 && info.slots == info2.slots && info2.pooled, "lossless chosen: %lld forward steps and %lld slots, -rw_store_compress lossless %lld and %lld", (long long)taken, (long long)info.slots, (long long)taken2, (long long)info2.slots);
  /* a cheap step: encoding costs more than the steps saved */
  solve("-rw_store_compress auto -rw_debug_auto_step_seconds 1e-9", &ref, &same, &taken, &ch, &info, 2);
  check_consistent(&ch, "step 1e-9 s");
  solve("-rw_store_compress none", &ref, &same, &taken2, &none, &info2, 1);
  rw_assert_all(same && ch.type == RW_STORE_COMPRESS_NONE && !info.pooled && taken == taken2, "step 1e-9 s: same %d, chose %s, %lld forward steps against none's %lld", (int)same, RwStoreCompressTypes[ch.type], (long long)taken, (long long)taken2);
  RW_CHECK(rw_test_reference_destroy(&ref));
}
END_TEST

#if defined(RW_HAVE_ZFP)
/* With a tolerance given zfp is a candidate; its choice gives -rw_store_compress zfp's bits at that tolerance */
START_TEST(test_auto_lossy)
{
  RwTestReference      ref = {0}, ref2 = {0};
  RwAdjointCodecChoice ch, other;
  RwAdjointPoolInfo    info, info2;
  PetscBool            same;
  PetscInt64           taken, taken2;
  char                 opts[256];

  bump = PETSC_FALSE; /* the default x_0: lossless buys one slot, zfp many */
  solve("-rw_store_compress auto -rw_store_compress_tolerance 1e-6 -rw_debug_auto_step_seconds 10", &ref, &same, &taken, &ch, &info, 1);
  check_consistent(&ch, "tolerance 1e-6, step 10 s");
  rw_assert_all(ch.lossy && ch.seconds[2] > 0 && ch.slots[2] > ch.slots[1] && ch.type == RW_STORE_COMPRESS_ZFP, "tolerance given: zfp predicted %g s in %lld slots; chose %s", (double)ch.seconds[2], (long long)ch.slots[2], RwStoreCompressTypes[ch.type]);
  snprintf(opts, sizeof(opts), "-rw_store_compress %s -rw_store_compress_tolerance 1e-6", RwStoreCompressTypes[ch.type]);
  solve(opts, &ref, &same, &taken2, &other, &info2, 1);
  rw_assert_all(same && taken == taken2 && info.slots == info2.slots, "auto chose %s: %lld forward steps, %lld slots; %s: same bits %d, %lld, %lld", RwStoreCompressTypes[ch.type], (long long)taken, (long long)info.slots, opts, (int)same, (long long)taken2, (long long)info2.slots);
  /* the tolerance auto: still a lossy candidate */
  solve("-rw_store_compress auto -rw_store_compress_tolerance auto -rw_debug_auto_step_seconds 10", &ref2, &same, &taken, &ch, &info, 1);
  check_consistent(&ch, "tolerance auto, step 10 s");
  rw_assert_all(ch.lossy && ch.seconds[2] > 0, "tolerance auto: zfp no candidate (predicted %g)", (double)ch.seconds[2]);
  RW_CHECK(rw_test_reference_destroy(&ref));
  RW_CHECK(rw_test_reference_destroy(&ref2));
  bump = PETSC_TRUE;
}
END_TEST
#endif

START_TEST(test_auto_bad)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;

  RW_CHECK(make_problem("-rw_store_compress autox", &model, &p));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "rw_store_compress autox: unknown codec; expected none, lossless, zfp or auto");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(make_problem("-rw_store_compress auto -rw_store_compress_tolerance 0", &model, &p));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "rw_store_compress_tolerance 0: expected");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(make_problem("-rw_store_compress auto -rw_store_compress_tolerance nan", &model, &p));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "rw_store_compress_tolerance nan: expected");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("codec-auto");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_auto_lossless);
#if defined(RW_HAVE_ZFP)
  tcase_add_test(tc, test_auto_lossy);
#endif
  tcase_add_test(tc, test_auto_bad);
  suite_add_tcase(s, tc);
  return s;
}
