/*
  Asynchronous writes of the hdf5 store (-rw_store_hdf5_async, the default):

  - same bits: a sequence of writes, slots reused, leaves files whose data
    and records are byte for byte those of the synchronous store, and reads
    give back every state exactly, although the caller overwrites its vector
    as soon as each write returns (the writer works from a staged copy);
  - one fsync per write: counted by intercepting MPI_File_sync (which every
    H5Fflush ends in), in both modes, where the protocol used to make three;
  - the root's generation counts the writes committed;
  - the counters: every byte written asynchronously is counted, and the time
    waited for the writer is part of the store's time.
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN];
static int  nsync; /* MPI_File_sync calls of this process */

/* Every H5Fflush of the MPI-IO driver ends here: the fsyncs, counted */
int MPI_File_sync(MPI_File fh)
{
  nsync++;
  return PMPI_File_sync(fh);
}

#define NWRITES 7
#define NSLOTS  3

/* Writes states 1..NWRITES into slots k % NSLOTS, spoiling u after each write */
static PetscErrorCode write_sequence(RwStore store, Vec u)
{
  PetscFunctionBegin;
  for (PetscInt64 k = 1; k <= NWRITES; k++) {
    PetscCall(rw_store_fill(u, k));
    PetscCall(RwStoreWrite(store, k % NSLOTS, k, u));
    PetscCall(rw_store_fill(u, 1000 + k)); /* while the writer may still be at work */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 compares two kept files: every slot's data bytes and record attributes, and the root's generation */
static int compare_files(const char a[], const char b[], char why[], size_t len)
{
  static const char *attrs[] = {"step", "time", "checksum", "record_checksum", "valid"};
  hid_t              f[2]    = {H5Fopen(a, H5F_ACC_RDONLY, H5P_DEFAULT), H5Fopen(b, H5F_ACC_RDONLY, H5P_DEFAULT)};
  int                bad     = 0;

  if (f[0] < 0 || f[1] < 0) return snprintf(why, len, "cannot open %s or %s", a, b), 1;
  for (int i = 0; i < NSLOTS && !bad; i++) {
    char     name[32];
    hid_t    d[2];
    hssize_t n;
    double  *x[2];

    snprintf(name, sizeof(name), "slot_%d", i);
    d[0] = H5Dopen2(f[0], name, H5P_DEFAULT);
    d[1] = H5Dopen2(f[1], name, H5P_DEFAULT);
    {
      hid_t sp = H5Dget_space(d[0]);

      n = H5Sget_simple_extent_npoints(sp);
      H5Sclose(sp);
    }
    x[0] = malloc((size_t)n * sizeof(double));
    x[1] = malloc((size_t)n * sizeof(double));
    H5Dread(d[0], H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x[0]);
    H5Dread(d[1], H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x[1]);
    if (memcmp(x[0], x[1], (size_t)n * sizeof(double))) bad = snprintf(why, len, "the data of /%s differ", name);
    for (size_t t = 0; t < sizeof(attrs) / sizeof(attrs[0]) && !bad; t++) {
      unsigned char v[2][8] = {{0}};

      for (int s = 0; s < 2; s++) {
        hid_t at = H5Aopen(d[s], attrs[t], H5P_DEFAULT), ty = H5Aget_type(at);

        H5Aread(at, ty, v[s]);
        H5Tclose(ty);
        H5Aclose(at);
      }
      if (memcmp(v[0], v[1], 8)) bad = snprintf(why, len, "attribute %s of /%s differs", attrs[t], name);
    }
    free(x[0]);
    free(x[1]);
    H5Dclose(d[0]);
    H5Dclose(d[1]);
  }
  for (int s = 0; s < 2 && !bad; s++) {
    long long g = -1;
    hid_t     at = H5Aopen(f[s], "generation", H5P_DEFAULT);

    H5Aread(at, H5T_NATIVE_LLONG, &g);
    H5Aclose(at);
    if (g != NWRITES) bad = snprintf(why, len, "the root's generation in %s is %lld, expected %d writes committed", s ? b : a, g, NWRITES);
  }
  H5Fclose(f[0]);
  H5Fclose(f[1]);
  return bad;
}

START_TEST(test_same_bits)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (PetscInt dim = 1; dim <= 3; dim++) {
    char       file[2][PETSC_MAX_PATH_LEN], opts[2 * PETSC_MAX_PATH_LEN], why[256] = "";
    RwStore    store[2];
    Vec        u;
    PetscInt   bad = 0, b;
    int        differ = 0;

    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, dim == 2 ? 2 : 1, &u));
    for (int async = 0; async < 2; async++) {
      snprintf(file[async], sizeof(file[async]), "%s/%s%d.h5", dir, async ? "async" : "sync", (int)dim);
      snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep -rw_store_hdf5_async %d", file[async], async);
      RW_CHECK(rw_store_create(u, RWSTOREHDF5, NSLOTS, opts, &store[async]));
      RW_CHECK(RwStoreSetUp(store[async]));
      RW_CHECK(write_sequence(store[async], u));
      /* the last NSLOTS states are in the slots, whatever the caller did to u since */
      for (PetscInt64 k = NWRITES - NSLOTS + 1; k <= NWRITES; k++) {
        RW_CHECK(RwStoreRead(store[async], k % NSLOTS, k, u));
        RW_CHECK(rw_store_mismatches(u, k, &b));
        bad += b;
      }
      RW_CHECK(RwStoreDestroy(&store[async]));
    }
    rw_assert_all(!bad, "%dD: %d values read back differ from the states written", (int)dim, (int)bad);
    if (!rw_test_rank()) differ = compare_files(file[0], file[1], why, sizeof(why));
    MPI_Bcast(&differ, 1, MPI_INT, 0, PETSC_COMM_WORLD);
    MPI_Bcast(why, sizeof(why), MPI_CHAR, 0, PETSC_COMM_WORLD);
    rw_assert_all(!differ, "%dD: the asynchronous file differs from the synchronous one: %s", (int)dim, why);
    RW_CHECK(VecDestroy(&u));
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_one_fsync_per_write)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int async = 0; async < 2; async++) {
    char          opts[2 * PETSC_MAX_PATH_LEN];
    RwStore       store;
    Vec           u;
    RwStoreCounts c;
    int           before, writes, sync;

    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s/fsync%d.h5 -rw_store_hdf5_async %d", dir, async, async);
    RW_CHECK(rw_store_create(u, RWSTOREHDF5, NSLOTS, opts, &store));
    RW_CHECK(RwStoreSetUp(store));
    before = nsync;
    RW_CHECK(write_sequence(store, u));
    writes = nsync - before;
    RW_CHECK(RwStoreSync(store));
    sync = nsync - before - writes;
    rw_assert_all(writes == NWRITES, "%ssynchronous: %d fsyncs (MPI_File_sync) for %d writes, expected one each", async ? "a" : "", writes, NWRITES);
    rw_assert_all(sync == 1, "%ssynchronous: RwStoreSync made %d fsyncs, expected 1 (the last write's commit)", async ? "a" : "", sync);
    RW_CHECK(RwStoreSync(store));
    rw_assert_all(nsync - before == NWRITES + 1, "%ssynchronous: RwStoreSync with nothing pending made an fsync", async ? "a" : "");
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(c.writes == NWRITES && c.bytes_written > 0 && c.bytes_async == (async ? c.bytes_written : 0), "%ssynchronous: %lld bytes counted as written asynchronously of %lld", async ? "a" : "", (long long)c.bytes_async, (long long)c.bytes_written);
    rw_assert_all(!async || c.seconds_async > 0, "asynchronous: the writer's time is not counted");
    rw_assert_all(c.seconds_wait <= c.seconds_write + c.seconds_read, "the time waited for the writer, %g s, is more than the store's time %g s", (double)c.seconds_wait, (double)(c.seconds_write + c.seconds_read));
    RW_CHECK(RwStoreView(store, NULL));
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&u));
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-async");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_same_bits);
  tcase_add_test(tc, test_one_fsync_per_write);
  suite_add_tcase(s, tc);
  return s;
}
