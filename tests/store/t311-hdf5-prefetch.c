/*
  The hdf5 store's prefetch (RwStorePrefetch(), -rw_store_hdf5_prefetch, the
  default with asynchronous writes):

  - a prefetched read gives back the state exactly, also when the prefetch
    was posted while the slot's write was still in flight, and is counted;
  - a prefetch of a slot that is written again before the read is never
    returned: the read gets the new state, even when the new write records
    the same step (only the data differ), and the prefetch is not counted
    as used;
  - RwStoreReadSwap() of a prefetched slot hands over the read buffer (the
    caller's vector becomes the store's next one) with the state exactly; the
    vector handed over is the caller's from then on: a later prefetch reads
    into the vector the store took, never into it; a read not prefetched
    reads into the caller's vector;
  - under the driver, revolve, multilevel and online gradients (J, dJ/dm,
    dJ/du0) with prefetch are bitwise those without it and those of the
    memory store, and the reads were served by prefetches (online's in its
    reverse sweep, once the run has stopped);
  - a prefetched read that fails (-rw_store_hdf5_fail_read, as a read from
    a file cut short would) stops the gradient on every rank with the
    checkpoint, the call and the cause, and gives no gradient; the next
    solve reads the file again and gives the memory store's bits.
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN];

/* Reads step k from slot and counts the values that are not the state of step want */
static PetscInt read_check(RwStore store, PetscInt64 slot, PetscInt64 k, PetscInt64 want, Vec u)
{
  PetscInt bad;

  RW_CHECK(rw_store_fill(u, -1)); /* nothing of the expected state is left in u */
  RW_CHECK(RwStoreRead(store, slot, k, u));
  RW_CHECK(rw_store_mismatches(u, want, &bad));
  return bad;
}

START_TEST(test_prefetch_hit)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (PetscInt dim = 1; dim <= 3; dim++) {
    char          opts[2 * PETSC_MAX_PATH_LEN];
    RwStore       store;
    Vec           u;
    RwStoreCounts c;
    PetscInt      bad = 0;

    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, dim == 2 ? 2 : 1, &u));
    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s/hit%d.h5", dir, (int)dim);
    RW_CHECK(rw_store_create(u, RWSTOREHDF5, 2, opts, &store));
    RW_CHECK(RwStoreSetUp(store));
    RW_CHECK(rw_store_fill(u, 3));
    RW_CHECK(RwStoreWrite(store, 0, 3, u));
    RW_CHECK(rw_store_fill(u, 5));
    RW_CHECK(RwStoreWrite(store, 1, 5, u));
    RW_CHECK(RwStorePrefetch(store, 1, 5)); /* its write may still be in flight: the reader waits for it */
    bad += read_check(store, 1, 5, 5, u);
    RW_CHECK(RwStorePrefetch(store, 0, 3)); /* another slot, while nothing is written */
    bad += read_check(store, 0, 3, 3, u);
    RW_CHECK(RwStorePrefetch(store, 0, 4)); /* a step the slot does not hold: ignored */
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(!bad, "%dD: %d values read through the prefetch differ from the states written", (int)dim, (int)bad);
    rw_assert_all(c.prefetches == 2 && c.prefetch_hits == 2, "%dD: %lld prefetches, %lld of them used; expected 2 and 2", (int)dim, (long long)c.prefetches, (long long)c.prefetch_hits);
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&u));
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* A 2D hdf5 store of the given slots in file name of a new test directory */
static void open_store(const char name[], PetscInt dof, PetscInt64 slots, Vec *u, RwStore *store)
{
  char opts[2 * PETSC_MAX_PATH_LEN];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, dof, u));
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s/%s", dir, name);
  RW_CHECK(rw_store_create(*u, RWSTOREHDF5, slots, opts, store));
  RW_CHECK(RwStoreSetUp(*store));
}

START_TEST(test_prefetch_swap)
{
  RwStore       store;
  Vec           u, mine, given;
  RwStoreCounts c;
  PetscInt      bad;

  open_store("swap.h5", 2, 2, &u, &store);
  RW_CHECK(rw_store_fill(u, 3));
  RW_CHECK(RwStoreWrite(store, 0, 3, u));
  RW_CHECK(rw_store_fill(u, 5));
  RW_CHECK(RwStoreWrite(store, 1, 5, u));
  RW_CHECK(RwStorePrefetch(store, 0, 3));
  mine = u;
  RW_CHECK(RwStoreReadSwap(store, 0, 3, &u));
  rw_assert_all(u != mine, "a prefetched read did not hand over the read buffer");
  RW_CHECK(rw_store_mismatches(u, 3, &bad));
  rw_assert_all(!bad, "%d values of the buffer handed over differ from the state written", (int)bad);
  given = u;
  RW_CHECK(RwStorePrefetch(store, 1, 5)); /* into the vector the store took, not into the one it gave */
  RW_CHECK(PetscSleep(0.05));
  RW_CHECK(rw_store_mismatches(given, 3, &bad));
  rw_assert_all(!bad, "a later prefetch changed %d values of the vector handed over", (int)bad);
  RW_CHECK(RwStoreReadSwap(store, 1, 5, &u));
  rw_assert_all(u == mine, "the second swap did not hand back the vector the first one took");
  RW_CHECK(rw_store_mismatches(u, 5, &bad));
  rw_assert_all(!bad, "%d values of the second buffer differ from the state written", (int)bad);
  RW_CHECK(rw_store_fill(u, -1));
  RW_CHECK(RwStoreReadSwap(store, 0, 3, &u)); /* not prefetched: read into u */
  rw_assert_all(u == mine, "a read not prefetched exchanged vectors");
  RW_CHECK(rw_store_mismatches(u, 3, &bad));
  rw_assert_all(!bad, "%d values read without a prefetch differ", (int)bad);
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(c.swaps == 2 && c.reads == 3, "%lld swaps among %lld reads counted; expected 2 and 3", (long long)c.swaps, (long long)c.reads);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_prefetch_stale)
{
  RwStore       store;
  Vec           u;
  RwStoreCounts c;
  PetscInt      bad[2];

  open_store("stale.h5", 1, 1, &u, &store);
  /* the same step written twice with other data: only the slot's write count tells the prefetch is stale */
  RW_CHECK(rw_store_fill(u, 1));
  RW_CHECK(RwStoreWrite(store, 0, 1, u));
  RW_CHECK(RwStorePrefetch(store, 0, 1));
  RW_CHECK(PetscSleep(0.05)); /* the reader has the old state by now */
  RW_CHECK(rw_store_fill(u, 2));
  RW_CHECK(RwStoreWrite(store, 0, 1, u));
  bad[0] = read_check(store, 0, 1, 2, u);
  /* and a step written over the prefetched one */
  RW_CHECK(RwStorePrefetch(store, 0, 1));
  RW_CHECK(PetscSleep(0.05));
  RW_CHECK(rw_store_fill(u, 7));
  RW_CHECK(RwStoreWrite(store, 0, 7, u));
  bad[1] = read_check(store, 0, 7, 7, u);
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(!bad[0], "%d values read after the slot was rewritten with the same step come from the stale prefetch", (int)bad[0]);
  rw_assert_all(!bad[1], "%d values read after the slot was rewritten with another step are not the new state", (int)bad[1]);
  rw_assert_all(c.prefetches == 2 && c.prefetch_hits == 0, "%lld prefetches, %lld of them used; expected 2 and none (both were stale)", (long long)c.prefetches, (long long)c.prefetch_hits);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_driver_prefetch)
{
  /* online: once its run has stopped, its reverse sweep can be looked ahead in like the others' */
  const char *sched[3] = {"-rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type", "-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_store_disk_type", "-rw_schedule_type online -rw_schedule_ram_slots 4 -rw_store_type"};

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int t = 0; t < 3; t++) {
    const char   *name[3] = {"memory", "hdf5 with prefetch", "hdf5 without prefetch"};
    char          opts[3][2 * PETSC_MAX_PATH_LEN];
    RwModel       model[3];
    RwTestProblem p[3];
    PetscReal     J[3];
    RwStore       store;
    RwStoreCounts c[3];

    snprintf(opts[0], sizeof(opts[0]), "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 %s memory", sched[t]);
    snprintf(opts[1], sizeof(opts[1]), "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 %s hdf5 -rw_store_hdf5_file %s/pf%d.h5", sched[t], dir, t);
    snprintf(opts[2], sizeof(opts[2]), "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 %s hdf5 -rw_store_hdf5_file %s/nopf%d.h5 -rw_store_hdf5_prefetch 0", sched[t], dir, t);
    for (int s = 0; s < 3; s++) {
      RW_CHECK(rw_test_model(opts[s], &model[s]));
      RW_CHECK(rw_test_problem(model[s], &p[s]));
      RW_CHECK(RwAdjointSolve(p[s].adj, p[s].m, p[s].u0, &J[s], p[s].g, p[s].gu0));
      RW_CHECK(RwAdjointGetStore(p[s].adj, t == 1 ? RW_LEVEL_DISK : RW_LEVEL_RAM, &store));
      RW_CHECK(RwStoreGetCounts(store, &c[s]));
    }
    for (int s = 1; s < 3; s++) {
      char what[1024];

      snprintf(what, sizeof(what), "%s, the %s store", sched[t], name[s]);
      rw_store_same_gradient(what, "the memory store", J[0], &p[0], J[s], &p[s]);
    }
    rw_assert_all(c[1].reads > 0 && c[1].prefetch_hits > 0, "%s: %lld reads, %lld served by a prefetch", sched[t], (long long)c[1].reads, (long long)c[1].prefetch_hits);
    rw_assert_all(c[2].prefetches == 0, "%s: %lld prefetches with -rw_store_hdf5_prefetch 0", sched[t], (long long)c[2].prefetches);
    if (!rw_test_rank()) printf("# %s: %lld reads, %lld prefetched, %lld served by the prefetch\n", sched[t], (long long)c[1].reads, (long long)c[1].prefetches, (long long)c[1].prefetch_hits);
    for (int s = 0; s < 3; s++) {
      RW_CHECK(rw_test_problem_destroy(&p[s]));
      RW_CHECK(RwModelDestroy(&model[s]));
    }
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_prefetch_fails)
{
  const char   *common = "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 40 -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type";
  char          opts[2][2 * PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN];
  RwModel       model[2];
  RwTestProblem p[2];
  PetscReal     J[2] = {0, 0};
  RwStore       store;
  RwStoreCounts c;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/failread.h5", dir);
  snprintf(opts[0], sizeof(opts[0]), "%s memory", common);
  snprintf(opts[1], sizeof(opts[1]), "%s hdf5 -rw_store_hdf5_file %s -rw_store_hdf5_fail_read 3", common, file);
  for (int s = 0; s < 2; s++) {
    RW_CHECK(rw_test_model(opts[s], &model[s]));
    RW_CHECK(rw_test_problem(model[s], &p[s]));
  }
  RW_CHECK(RwAdjointSolve(p[0].adj, p[0].m, p[0].u0, &J[0], p[0].g, p[0].gu0));
  RW_CHECK(VecSet(p[1].g, 0));
  rw_assert_error(RwAdjointSolve(p[1].adj, p[1].m, p[1].u0, &J[1], p[1].g, p[1].gu0), "failed: pread (simulated by -rw_store_hdf5_fail_read) in the prefetching reader: Input/output error");
  ck_assert_msg(strstr(rw_test_captured(), file) && strstr(rw_test_captured(), "reading checkpoint /slot_"), "the error does not name the checkpoint and the file: %s", rw_test_captured());
  {
    PetscReal norm;

    RW_CHECK(VecNorm(p[1].g, NORM_INFINITY, &norm));
    rw_assert_all(norm == 0, "a gradient came out of the failed solve: |dJ/dm|_inf = %g", (double)norm);
  }
  /* the third prefetch has gone by: the same driver solves again, from the file */
  RW_CHECK(RwAdjointSolve(p[1].adj, p[1].m, p[1].u0, &J[1], p[1].g, p[1].gu0));
  RW_CHECK(RwAdjointGetStore(p[1].adj, RW_LEVEL_RAM, &store));
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(c.prefetch_hits > 0, "the solve after the failure served no read from a prefetch");
  rw_store_same_gradient("revolve on hdf5 after a failed prefetch", "the memory store", J[0], &p[0], J[1], &p[1]);
  for (int s = 0; s < 2; s++) {
    RW_CHECK(rw_test_problem_destroy(&p[s]));
    RW_CHECK(RwModelDestroy(&model[s]));
  }
  rw_assert_all(!rw_store_exists(file), "%s is left after the driver is destroyed", file);
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-prefetch");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_prefetch_hit);
  tcase_add_test(tc, test_prefetch_swap);
  tcase_add_test(tc, test_prefetch_stale);
  tcase_add_test(tc, test_driver_prefetch);
  tcase_add_test(tc, test_prefetch_fails);
  suite_add_tcase(s, tc);
  return s;
}
