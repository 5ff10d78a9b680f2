/*
  A checkpoint written on 4 ranks restores on 1, 2 and 3 ranks to identical
  values: the world is split into sub-communicators of those sizes, which in
  turn build the model's DMDA and reopen the same file (restart API); every
  value read is compared, bit for bit, with the state computed from its
  natural index.  Node files (-rw_store_hdf5_comm node) restore on the same
  decomposition and are refused on another.
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN];

static const char *grids[2] = {"-rw_heat_dim 2 -da_grid_x 19 -da_grid_y 14", "-rw_heat_dim 3 -da_grid_x 9 -da_grid_y 7 -da_grid_z 6"};

/* A heat model's state on comm and an hdf5 store for it, set up (restart: reopened) */
static PetscErrorCode open_store(MPI_Comm comm, const char grid[], const char file[], const char extra[], PetscBool restart, RwModel *model, Vec *u, RwStore *store)
{
  char opts[2 * PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(rw_test_model_comm(comm, grid, model));
  PetscCall(RwModelCreateState(*model, u));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep %s", file, extra));
  PetscCall(rw_store_create(*u, RWSTOREHDF5, 3, opts, store));
  PetscCall(RwStoreSetIdentity(*store, grid));
  PetscCall(RwStoreSetRestart(*store, restart));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void close_store(RwModel *model, Vec *u, RwStore *store)
{
  RW_CHECK(RwStoreDestroy(store));
  RW_CHECK(VecDestroy(u));
  RW_CHECK(RwModelDestroy(model));
}

/* Steps 10, 20, 30 in slots 0, 1, 2 */
static void write_world(const char grid[], const char file[], const char extra[])
{
  RwModel model;
  Vec     u;
  RwStore store;

  RW_CHECK(open_store(PETSC_COMM_WORLD, grid, file, extra, PETSC_FALSE, &model, &u, &store));
  for (PetscInt64 s = 0; s < 3; s++) {
    RW_CHECK(rw_store_fill(u, 10 * (s + 1)));
    RW_CHECK(RwStoreWrite(store, s, 10 * (s + 1), u));
  }
  close_store(&model, &u, &store);
}

/* On the ranks of comm: reopen, find the three steps, read each and count wrong values */
static PetscInt read_sub(MPI_Comm comm, const char grid[], const char file[], const char extra[])
{
  RwModel    model;
  Vec        u;
  RwStore    store;
  PetscInt64 steps[3];
  PetscInt   bad = 0, b;

  RW_CHECK(open_store(comm, grid, file, extra, PETSC_TRUE, &model, &u, &store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  for (PetscInt64 s = 0; s < 3; s++) {
    ck_assert_msg(steps[s] == 10 * (s + 1), "slot %lld holds step %lld after reopening, expected %lld", (long long)s, (long long)steps[s], (long long)(10 * (s + 1)));
    RW_CHECK(VecSet(u, -7.0));
    RW_CHECK(RwStoreRead(store, s, steps[s], u));
    RW_CHECK(rw_store_mismatches(u, steps[s], &b));
    bad += b;
  }
  close_store(&model, &u, &store);
  return bad;
}

START_TEST(test_restore_on_fewer_ranks)
{
  char file[PETSC_MAX_PATH_LEN];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int g = 0; g < 2; g++) {
    snprintf(file, sizeof(file), "%s/world%d.h5", dir, g);
    write_world(grids[g], file, "");
    for (int q = 1; q <= 3; q++) { /* the groups take turns: the file is opened by one group at a time */
      MPI_Comm sub;
      PetscInt bad = 0;

      MPI_Comm_split(PETSC_COMM_WORLD, rw_test_rank() < q ? 0 : MPI_UNDEFINED, rw_test_rank(), &sub);
      if (sub != MPI_COMM_NULL) {
        bad = read_sub(sub, grids[g], file, "");
        MPI_Comm_free(&sub);
      }
      rw_assert_all(!bad, "%s: written on 4 ranks, read on %d: %d values differ", grids[g], q, (int)bad);
    }
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_node_files)
{
  char     file[PETSC_MAX_PATH_LEN], node0[PETSC_MAX_PATH_LEN];
  PetscInt bad;
  MPI_Comm sub;
  RwModel  model;
  Vec      u;
  RwStore  store;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/node.h5", dir);
  snprintf(node0, sizeof(node0), "%s/node-node0.h5", dir);
  write_world(grids[0], file, "-rw_store_hdf5_comm node");
  rw_assert_all(rw_store_exists(node0), "node files: %s was not written", node0);
  bad = read_sub(PETSC_COMM_WORLD, grids[0], file, "-rw_store_hdf5_comm node");
  rw_assert_all(!bad, "node files: %d values differ on the same decomposition", (int)bad);
  /* a world reader is told the file's layout; a 2-rank node reader is refused */
  rw_assert_error(open_store(PETSC_COMM_WORLD, grids[0], node0, "", PETSC_TRUE, &model, &u, &store), "was written with -rw_store_hdf5_comm node, this run uses world");
  close_store(&model, &u, &store);
  MPI_Comm_split(PETSC_COMM_WORLD, rw_test_rank() < 2 ? 0 : MPI_UNDEFINED, rw_test_rank(), &sub);
  if (sub != MPI_COMM_NULL) {
    rw_assert_error(open_store(sub, grids[0], file, "-rw_store_hdf5_comm node", PETSC_TRUE, &model, &u, &store), "restoring from node files (-rw_store_hdf5_comm node) needs the same ranks, nodes and grid decomposition");
    close_store(&model, &u, &store);
    MPI_Comm_free(&sub);
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-ranks");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_restore_on_fewer_ranks);
  tcase_add_test(tc, test_node_files);
  suite_add_tcase(s, tc);
  return s;
}
