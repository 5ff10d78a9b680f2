/*
  The hdf5 store keeps states bit for bit: 1D, 2D and 3D grids with 1 and 3
  components, slots rewritten, on 1 and 4 ranks.  The file it leaves with
  -rw_store_keep is in natural grid order, with the documented shapes and
  attributes, so a serial reader (h5py, h5dump) sees the global field; without
  -rw_store_keep the file is gone after RwStoreDestroy().
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN];

/* Serially (rank 0): the dataset has the grid's shape, its values are the state of step k in natural order, and its attributes say so */
static void check_file(const char file[], const char dset[], PetscInt dim, PetscInt dof, const hsize_t shape[], PetscInt64 k)
{
  hid_t    f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT), d, sp, a;
  hsize_t  dims[4], n = 1;
  int      rank, valid = 0;
  int64_t  step = -1, gotdof = -1;
  double  *buf, time = 0;
  char     model[16] = "";
  PetscInt bad = 0;

  ck_assert_msg(f >= 0, "cannot open %s serially", file);
  ck_assert((d = H5Dopen2(f, dset, H5P_DEFAULT)) >= 0);
  sp   = H5Dget_space(d);
  rank = H5Sget_simple_extent_dims(sp, dims, NULL);
  ck_assert_msg(rank == (int)(dim + (dof > 1)), "%s in %s has rank %d, expected %d", dset, file, rank, (int)(dim + (dof > 1)));
  for (int i = 0; i < rank; i++) {
    ck_assert_msg(dims[i] == shape[i], "%s dimension %d is %llu, expected %llu", dset, i, (unsigned long long)dims[i], (unsigned long long)shape[i]);
    n *= dims[i];
  }
  buf = malloc(n * sizeof(double));
  ck_assert(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
  for (hsize_t i = 0; i < n; i++) {
    double v = rw_store_value((PetscInt64)i, k);

    if (memcmp(&v, &buf[i], sizeof(v))) bad++;
  }
  free(buf);
  ck_assert_msg(!bad, "%s in %s: %d values differ from step %lld in natural order", dset, file, (int)bad, (long long)k);
  a = H5Aopen(d, "step", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_INT64, &step);
  H5Aclose(a);
  a = H5Aopen(d, "valid", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_INT, &valid);
  H5Aclose(a);
  a = H5Aopen(d, "dof", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_INT64, &gotdof);
  H5Aclose(a);
  a = H5Aopen(d, "time", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_DOUBLE, &time);
  H5Aclose(a);
  a = H5Aopen(d, "model", H5P_DEFAULT);
  {
    hid_t t = H5Tcopy(H5T_C_S1);

    H5Tset_size(t, sizeof(model));
    H5Aread(a, t, model);
    H5Tclose(t);
  }
  H5Aclose(a);
  ck_assert_msg(step == k && valid == 1 && gotdof == dof, "%s: attributes step %lld valid %d dof %lld, expected %lld 1 %d", dset, (long long)step, valid, (long long)gotdof, (long long)k, (int)dof);
  ck_assert_msg(time == 0.25 * (double)k && !strcmp(model, "heat"), "%s: time %g model \"%s\", expected %g \"heat\"", dset, time, model, 0.25 * (double)k);
  H5Sclose(sp);
  H5Dclose(d);
  H5Fclose(f);
}

/* Steps 0..5 through 3 slots (each dataset written twice), read back in reverse */
static void roundtrip(PetscInt dim, PetscInt dof)
{
  char       opts[PETSC_MAX_PATH_LEN + 64], file[PETSC_MAX_PATH_LEN];
  Vec        u, v;
  RwStore    store;
  PetscInt   bad;
  PetscInt64 steps[3];
  hsize_t    shape[3][4] = {{37, 3}, {11, 13, 3}, {5, 6, 7, 3}};

  snprintf(file, sizeof(file), "%s/rt%d%d.h5", dir, (int)dim, (int)dof);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep", file);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, dof, &u));
  RW_CHECK(VecDuplicate(u, &v));
  RW_CHECK(rw_store_create(u, RWSTOREHDF5, 3, opts, &store));
  RW_CHECK(RwStoreSetInfo(store, "heat", 0.25));
  RW_CHECK(RwStoreSetUp(store));
  for (PetscInt64 k = 0; k < 6; k++) {
    RW_CHECK(rw_store_fill(u, k));
    RW_CHECK(RwStoreWrite(store, k % 3, k, u));
  }
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 3 && steps[1] == 4 && steps[2] == 5, "%dD dof %d: valid steps %lld %lld %lld, expected 3 4 5", (int)dim, (int)dof, (long long)steps[0], (long long)steps[1], (long long)steps[2]);
  for (PetscInt64 k = 5; k >= 3; k--) {
    RW_CHECK(VecSet(v, -1.0));
    RW_CHECK(RwStoreRead(store, k % 3, k, v));
    RW_CHECK(rw_store_mismatches(v, k, &bad));
    rw_assert_all(!bad, "%dD dof %d: %d values of step %lld differ after the round trip", (int)dim, (int)dof, (int)bad, (long long)k);
  }
  RW_CHECK(RwStoreView(store, PETSC_VIEWER_STDOUT_WORLD));
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_all(rw_store_exists(file), "-rw_store_keep: %s was removed", file);
  if (!rw_test_rank()) {
    shape[dim - 1][dim] = (hsize_t)dof;
    check_file(file, "/slot_1", dim, dof, shape[dim - 1], 4);
  }
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&v));
}

START_TEST(test_roundtrip)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (PetscInt dim = 1; dim <= 3; dim++) {
    roundtrip(dim, 1);
    roundtrip(dim, 3);
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* A vector without a DMDA is kept as a 1D grid in its ownership order; without -rw_store_keep the file goes at the end */
START_TEST(test_plain_vector_removed)
{
  char     opts[PETSC_MAX_PATH_LEN + 64], file[PETSC_MAX_PATH_LEN];
  Vec      u;
  RwStore  store;
  PetscInt bad;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/plain.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s", file);
  RW_CHECK(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 101, &u));
  RW_CHECK(rw_store_create(u, RWSTOREHDF5, 1, opts, &store));
  RW_CHECK(RwStoreSetUp(store));
  RW_CHECK(RwStoreSetUp(store)); /* idempotent */
  RW_CHECK(rw_store_fill(u, 7));
  RW_CHECK(RwStoreWrite(store, 0, 7, u));
  RW_CHECK(VecZeroEntries(u));
  RW_CHECK(RwStoreRead(store, 0, 7, u));
  RW_CHECK(rw_store_mismatches(u, 7, &bad));
  rw_assert_all(!bad, "plain vector: %d values differ after the round trip", (int)bad);
  rw_assert_all(rw_store_exists(file), "%s does not exist while the store is open", file);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(RwStoreDestroy(&store)); /* NULL-safe */
  RW_CHECK(RwStoreDestroy(NULL));
  rw_assert_all(!rw_store_exists(file), "%s is left after RwStoreDestroy() without -rw_store_keep", file);
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* -rw_store_hdf5_alignment puts every dataset at least that large on a multiple of it */
START_TEST(test_alignment)
{
  char      opts[PETSC_MAX_PATH_LEN + 64], file[PETSC_MAX_PATH_LEN];
  Vec       u;
  RwStore   store;
  long long off[3] = {0, 0, 0};

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/aligned.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep -rw_store_hdf5_alignment 4096", file);
  RW_CHECK(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 1000, &u)); /* 8000 bytes */
  RW_CHECK(rw_store_create(u, RWSTOREHDF5, 3, opts, &store));
  RW_CHECK(RwStoreSetUp(store));
  RW_CHECK(RwStoreDestroy(&store));
  if (!rw_test_rank())
    for (int i = 0; i < 3; i++) {
      char name[16];

      snprintf(name, sizeof(name), "/slot_%d", i);
      off[i] = rw_h5_offset(file, name);
    }
  MPI_Bcast(off, 3, MPI_LONG_LONG, 0, PETSC_COMM_WORLD);
  rw_assert_all(off[0] > 0 && off[0] % 4096 == 0 && off[1] % 4096 == 0 && off[2] % 4096 == 0, "datasets at offsets %lld %lld %lld, expected multiples of 4096", off[0], off[1], off[2]);
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-roundtrip");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_roundtrip);
  tcase_add_test(tc, test_plain_vector_removed);
  tcase_add_test(tc, test_alignment);
  suite_add_tcase(s, tc);
  return s;
}
