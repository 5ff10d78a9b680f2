/*
  RwStoreReadAndFree(): the memory store hands its slot's vector to the
  caller and takes the caller's (no copy); the state is bitwise the one
  written, the slot is free afterwards and works again, and the swap is
  counted.  The hdf5 store reads and frees.  RwStoreWriteTake(): the memory
  store keeps the caller's vector itself and hands back its slot's, the state
  read back is bitwise the one given and the take is counted; the hdf5 store
  (asynchronous writes) writes the caller's vector itself and hands back a
  spare, and a later copying write never touches the vector it took, which
  the caller may still read.  Under the driver, a revolve schedule's
  restores that are followed by a FREE of their slot move the state instead
  of copying it, and every schedule's stores into memory take the driver's
  vector: J and the gradients are bitwise those of storeall with the hdf5
  store (which copies), and the copies avoided are counted.
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

START_TEST(test_store_take)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int t = 0; t < 2; t++) {
    const char   *type = t ? RWSTOREHDF5 : RWSTOREMEMORY;
    char          opts[PETSC_MAX_PATH_LEN + 64];
    RwStore       store;
    Vec           u, spare, w, other;
    PetscInt      bad;
    RwStoreCounts c;

    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s/take.h5", dir);
    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
    RW_CHECK(VecDuplicate(u, &w));
    RW_CHECK(rw_store_create(u, type, 2, opts, &store));
    RW_CHECK(RwStoreSetUp(store));
    RW_CHECK(rw_store_fill(u, 5));
    RW_CHECK(RwStoreWriteTake(store, 0, 5, u, &spare));
    rw_assert_all(spare && spare != u, "%s: the store gave no spare vector, or the caller's own", type);
    RW_CHECK(RwStoreRead(store, 0, 5, w));
    RW_CHECK(rw_store_mismatches(w, 5, &bad));
    rw_assert_all(!bad, "%s: %d values read back differ from the state taken", type, (int)bad);
    /* the caller now owns the spare; the store owns u */
    RW_CHECK(rw_store_fill(spare, 7));
    if (!t) { /* the slot's vector comes back by exchange */
      RW_CHECK(RwStoreReadAndFree(store, 0, 5, &spare));
      rw_assert_all(spare == u, "%s: the exchange did not give back the vector taken", type);
    } else { /* a copying write goes to the store's own staging vector */
      RW_CHECK(RwStoreWrite(store, 1, 7, spare));
      RW_CHECK(RwStoreRead(store, 1, 7, w));
      RW_CHECK(rw_store_mismatches(w, 7, &bad));
      rw_assert_all(!bad, "%s: %d values of the copied state differ", type, (int)bad);
      RW_CHECK(RwStoreRead(store, 0, 5, w));
      RW_CHECK(rw_store_mismatches(w, 5, &bad));
      rw_assert_all(!bad, "%s: after a copying write, %d values of the state taken differ", type, (int)bad);
    }
    RW_CHECK(rw_store_mismatches(u, 5, &bad));
    rw_assert_all(!bad, "%s: writing the spare changed %d values of the vector taken", type, (int)bad);
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(c.takes == 1 && c.writes == 1 + t, "%s: %lld takes among %lld writes counted", type, (long long)c.takes, (long long)c.writes);
    rw_assert_error(RwStoreWriteTake(store, 2, 5, w, &other), "out of range");
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&spare)); /* the caller's: u again for the memory store */
    RW_CHECK(VecDestroy(&w));
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* storeall with the hdf5 store writing synchronously (every write a copy)
   is the reference; the memory store takes the driver's vectors under every
   schedule, also when a state goes to two memory levels, and when a stop
   test reads x_(k-1); the asynchronous hdf5 store takes them too, and its
   prefetched restores hand the driver the read buffer */
#define NCASES 6
START_TEST(test_driver_swaps)
{
  const char   *grid[2] = {"-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 -rw_heat_scheme crank-nicolson -ksp_rtol 1e-12"};
  const char   *sched[NCASES] = {"-rw_schedule_type storeall -rw_store_type hdf5 -rw_store_hdf5_async 0", "-rw_schedule_type storeall", "-rw_schedule_type revolve -rw_schedule_ram_slots 4", "-rw_schedule_type multilevel -rw_schedule_ram_slots 1 -rw_schedule_disk_slots inf -rw_store_disk_type memory", "-rw_schedule_type online -rw_schedule_ram_slots 6 -rw_adjoint_stop_steady 1e-300", "-rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5"};
  RwModel       model[NCASES];
  RwTestProblem p[NCASES];
  PetscReal     J[NCASES];
  RwStore       store;
  RwStoreCounts c;
  char          opts[PETSC_MAX_PATH_LEN + 512];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int e = 0; e < 2; e++) { /* explicit, then implicit: its adjoint reads x_k+1 (N) too */
    for (int s = 0; s < NCASES; s++) {
      snprintf(opts, sizeof(opts), "%s %s -rw_store_hdf5_file %s/driver%d.h5", grid[e], sched[s], dir, s); /* the problems live side by side */
      RW_CHECK(rw_test_model(opts, &model[s]));
      RW_CHECK(rw_test_problem(model[s], &p[s]));
      /* twice: the second solve starts from vectors the first one exchanged */
      for (int r = 0; r < 2; r++) RW_CHECK(RwAdjointSolve(p[s].adj, p[s].m, p[s].u0, &J[s], p[s].g, p[s].gu0));
    }
    for (int s = 1; s < NCASES; s++) {
      char what[1024];

      snprintf(what, sizeof(what), "%s, %s", grid[e], sched[s]);
      rw_store_same_gradient(what, "storeall/hdf5", J[0], &p[0], J[s], &p[s]);
      RW_CHECK(RwAdjointGetStore(p[s].adj, RW_LEVEL_RAM, &store));
      RW_CHECK(RwStoreGetCounts(store, &c));
      rw_assert_all(c.takes > 0 && c.takes <= c.writes, "%s: %lld of %lld writes took the driver's vector", sched[s], (long long)c.takes, (long long)c.writes);
      if (s == 2 || s == 5) {
        rw_assert_all(c.swaps > 0, "%s: %lld reads exchanged vectors, %lld copied", sched[s], (long long)c.swaps, (long long)c.reads);
        if (!rw_test_rank()) printf("# revolve, 40 steps, 4 slots, %s: %lld restores by exchange, %lld %s; %lld of %lld stores by taking\n", s == 2 ? "memory" : "hdf5", (long long)c.swaps, (long long)c.reads, s == 2 ? "by copy" : "reads in all", (long long)c.takes, (long long)c.writes);
      }
    }
    RW_CHECK(RwAdjointGetStore(p[1].adj, RW_LEVEL_RAM, &store));
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(c.takes == c.writes && c.writes == 38, "storeall: %lld of %lld writes took the driver's vector, expected all 38 (x_1 .. x_38)", (long long)c.takes, (long long)c.writes);
    for (int s = 0; s < NCASES; s++) {
      RW_CHECK(rw_test_problem_destroy(&p[s]));
      RW_CHECK(RwModelDestroy(&model[s]));
    }
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("memory-swap");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_store_swap);
  tcase_add_test(tc, test_store_take);
  tcase_add_test(tc, test_driver_swaps);
  suite_add_tcase(s, tc);
  return s;
}
