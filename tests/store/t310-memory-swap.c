/*
  RwStoreReadAndFree(): the memory store hands its slot's vector to the
  caller and takes the caller's (no copy); the state is bitwise the one
  written, the slot is free afterwards and works again, and the swap is
  counted.  The hdf5 store reads and frees.  Under the driver, a revolve
  schedule's restores that are followed by a FREE of their slot move the
  state instead of copying it: J and the gradients are bitwise those of
  storeall, and the copies avoided are counted.
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN];

START_TEST(test_store_swap)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int t = 0; t < 2; t++) {
    const char   *type = t ? RWSTOREHDF5 : RWSTOREMEMORY;
    char          opts[PETSC_MAX_PATH_LEN + 64];
    RwStore       store;
    Vec           u, v;
    PetscInt      bad;
    RwStoreCounts c;

    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s/swap.h5", dir);
    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
    RW_CHECK(rw_store_create(u, type, 2, opts, &store));
    RW_CHECK(RwStoreSetUp(store));
    RW_CHECK(rw_store_fill(u, 5));
    RW_CHECK(RwStoreWrite(store, 1, 5, u));
    RW_CHECK(rw_store_fill(u, 9));
    v = u;
    RW_CHECK(RwStoreReadAndFree(store, 1, 5, &u));
    RW_CHECK(rw_store_mismatches(u, 5, &bad));
    rw_assert_all(!bad, "%s: %d values differ from the state written", type, (int)bad);
    rw_assert_all(t ? u == v : u != v, "%s: the caller's vector was %s", type, t ? "exchanged, though the store keeps no vectors" : "not exchanged with the slot's");
    rw_assert_error(RwStoreRead(store, 1, 5, u), "holds no valid state");
    /* the slot, now holding the caller's old vector, takes a new state */
    RW_CHECK(rw_store_fill(u, 6));
    RW_CHECK(RwStoreWrite(store, 1, 6, u));
    RW_CHECK(rw_store_fill(u, 0));
    RW_CHECK(RwStoreRead(store, 1, 6, u));
    RW_CHECK(rw_store_mismatches(u, 6, &bad));
    rw_assert_all(!bad, "%s: after the exchange, %d values of the rewritten slot differ", type, (int)bad);
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(c.swaps == (t ? 0 : 1), "%s: %lld swaps counted", type, (long long)c.swaps);
    RW_CHECK(RwStoreView(store, NULL));
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&u));
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* Local count of values of a and b that differ in any bit */
static PetscInt differ(Vec a, Vec b)
{
  const PetscScalar *x, *y;
  PetscInt           n, bad = 0;

  RW_CHECK(VecGetLocalSize(a, &n));
  RW_CHECK(VecGetArrayRead(a, &x));
  RW_CHECK(VecGetArrayRead(b, &y));
  for (PetscInt i = 0; i < n; i++) bad += memcmp(&x[i], &y[i], sizeof(x[i])) != 0;
  RW_CHECK(VecRestoreArrayRead(a, &x));
  RW_CHECK(VecRestoreArrayRead(b, &y));
  return bad;
}

START_TEST(test_driver_swaps)
{
  const char   *opts[2] = {"-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 -rw_schedule_type storeall", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 -rw_schedule_type revolve -rw_schedule_ram_slots 4"};
  RwModel       model[2];
  RwTestProblem p[2];
  PetscReal     J[2];
  RwStore       store;
  RwStoreCounts c;

  for (int s = 0; s < 2; s++) {
    RW_CHECK(rw_test_model(opts[s], &model[s]));
    RW_CHECK(rw_test_problem(model[s], &p[s]));
    /* twice: the second solve starts from vectors the first one exchanged */
    for (int r = 0; r < 2; r++) RW_CHECK(RwAdjointSolve(p[s].adj, p[s].m, p[s].u0, &J[s], p[s].g, p[s].gu0));
  }
  rw_assert_all(!memcmp(&J[0], &J[1], sizeof(J[0])), "J %.17g with revolve, %.17g with storeall", (double)J[1], (double)J[0]);
  rw_assert_all(!differ(p[0].g, p[1].g), "dJ/dm differs between revolve (with swaps) and storeall");
  rw_assert_all(!differ(p[0].gu0, p[1].gu0), "dJ/du0 differs between revolve (with swaps) and storeall");
  RW_CHECK(RwAdjointGetStore(p[1].adj, RW_LEVEL_RAM, &store));
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(c.swaps > 0, "revolve: %lld reads exchanged vectors, %lld copied", (long long)c.swaps, (long long)c.reads);
  if (!rw_test_rank()) printf("# revolve, 40 steps, 4 slots: %lld restores by exchange, %lld by copy\n", (long long)c.swaps, (long long)c.reads);
  for (int s = 0; s < 2; s++) {
    RW_CHECK(rw_test_problem_destroy(&p[s]));
    RW_CHECK(RwModelDestroy(&model[s]));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("memory-swap");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_store_swap);
  tcase_add_test(tc, test_driver_swaps);
  suite_add_tcase(s, tc);
  return s;
}
