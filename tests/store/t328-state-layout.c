/*
  The stores' state layout (RwStoreSetStateLayout(), issue 37 item 1): a
  state whose components are in planes (each rank's block of component 0,
  then of component 1) is kept and read back in that layout:
  - memory and hdf5 stores (synchronous, asynchronous with prefetch), codecs
    none and lossless: every value bitwise; zfp: within its bound, and zfp
    keeps a planes state in exactly the bytes it keeps the same state
    interleaved (it codes the same fields);
  - the hdf5 file: root attribute state_layout, and a dataset whose component
    comes first, so that component c's values sit at their natural grid
    points (read back with HDF5's C API); interleaved files keep dof last;
  - a file of the other layout, or one without the attribute (written before
    layouts were recorded: interleaved), is refused at a restart with a
    message naming the file and both layouts, and its bytes are unchanged;
    the file's own layout reopens it and reads it back bitwise;
  - a one-component state is the same in both layouts and is recorded
    interleaved; bad calls are refused.
*/
#include "rwconfig.h"
#include "rwstoretest.h"
#include <rewind/private/storeimpl.h>

static char dir[PETSC_MAX_PATH_LEN];

/* The natural index (interleaved numbering, rw_store_natural()) of the value
   each local position of u holds when its components are in planes */
static PetscErrorCode planes_natural(Vec u, PetscInt64 **pidx)
{
  PetscInt64 *idx;
  PetscInt    n, dof = 1, np;
  DM          dm;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetDM(u, &dm));
  PetscCall(DMDAGetInfo(dm, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  np = n / dof;
  PetscCall(PetscMalloc1(n, pidx));
  for (PetscInt c = 0; c < dof; c++)
    for (PetscInt q = 0; q < np; q++) (*pidx)[c * np + q] = idx[q * dof + c];
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u := the state of step k (rw_store_value()) with its components in planes */
static PetscErrorCode planes_fill(Vec u, PetscInt64 k)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(planes_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = rw_store_value(idx[i], k);
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u := a smooth state of natural index i, in planes (planes) or interleaved */
static PetscErrorCode smooth_fill(Vec u, PetscBool planes)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  if (planes) PetscCall(planes_natural(u, &idx));
  else PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = 3 * PetscSinReal(0.05 * (PetscReal)(idx[i] / 2) + 0.7 * (PetscReal)(idx[i] % 2)) + 0.5;
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local values of u that differ in any bit from the planes state of step k */
static PetscInt planes_mismatches(Vec u, PetscInt64 k)
{
  PetscInt64        *idx;
  const PetscScalar *a;
  PetscInt           n, bad = 0;

  RW_CHECK(planes_natural(u, &idx));
  RW_CHECK(VecGetLocalSize(u, &n));
  RW_CHECK(VecGetArrayRead(u, &a));
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar v = rw_store_value(idx[i], k);

    bad += memcmp(&v, &a[i], sizeof(v)) != 0;
  }
  RW_CHECK(VecRestoreArrayRead(u, &a));
  RW_CHECK(PetscFree(idx));
  return bad;
}

/* A store of type for states like u in layout, configured by opts, set up */
static PetscErrorCode layout_store(Vec u, const char type[], PetscInt64 slots, const char opts[], RwStoreStateLayout layout, const char identity[], PetscBool restart, RwStore *store)
{
  PetscFunctionBegin;
  PetscCall(rw_store_create(u, type, slots, opts, store));
  PetscCall(RwStoreSetStateLayout(*store, layout));
  if (identity) PetscCall(RwStoreSetIdentity(*store, identity));
  PetscCall(RwStoreSetRestart(*store, restart));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every store and codec gives a planes state back (lossless: bitwise) */
START_TEST(test_roundtrip)
{
  const char *cases[][2] = {
    {RWSTOREMEMORY, ""},
    {RWSTOREMEMORY, "-rw_store_compress lossless"},
    {RWSTOREHDF5, ""},
    {RWSTOREHDF5, "-rw_store_hdf5_async -rw_store_hdf5_prefetch"},
    {RWSTOREHDF5, "-rw_store_compress lossless"},
  };
  char opts[PETSC_MAX_PATH_LEN + 256];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++)
    for (PetscInt dim = 1; dim <= 3; dim++) {
      RwStore store;
      Vec     u, v;
      PetscInt bad;

      RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, dim == 3 ? 3 : 2, &u));
      RW_CHECK(VecDuplicate(u, &v));
      snprintf(opts, sizeof(opts), "%s", cases[t][1]);
      if (!strcmp(cases[t][0], RWSTOREHDF5)) snprintf(opts, sizeof(opts), "%s -rw_store_hdf5_file %s/r%d-%d.h5", cases[t][1], dir, (int)t, (int)dim);
      RW_CHECK(layout_store(u, cases[t][0], 3, opts, RW_STORE_STATE_PLANES, NULL, PETSC_FALSE, &store));
      RW_CHECK(planes_fill(u, 4));
      RW_CHECK(RwStoreWrite(store, 0, 4, u));
      RW_CHECK(planes_fill(u, 6));
      RW_CHECK(RwStoreWrite(store, 2, 6, u));
      RW_CHECK(RwStorePrefetch(store, 0, 4));
      RW_CHECK(RwStoreRead(store, 0, 4, v));
      bad = planes_mismatches(v, 4);
      rw_assert_all(!bad, "%s store %s, dim %d: %d values of step 4 differ after the round trip in planes", cases[t][0], cases[t][1], (int)dim, (int)bad);
      RW_CHECK(RwStoreRead(store, 2, 6, v));
      bad = planes_mismatches(v, 6);
      rw_assert_all(!bad, "%s store %s, dim %d: %d values of step 6 differ after the round trip in planes", cases[t][0], cases[t][1], (int)dim, (int)bad);
      RW_CHECK(RwStoreDestroy(&store));
      RW_CHECK(VecDestroy(&u));
      RW_CHECK(VecDestroy(&v));
    }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

#if defined(RW_HAVE_ZFP)
/* A state of two components large enough for zfp to shrink every rank's block: 200; 40 x 30; 16 x 12 x 10 */
static PetscErrorCode zfp_grid(PetscInt dim, Vec *u)
{
  DM da;

  PetscFunctionBegin;
  if (dim == 1) PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, 200, 2, 1, NULL, &da));
  else if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 40, 30, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 16, 12, 10, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, u));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* zfp codes the same fields in either layout: the same bytes, the same values back */
START_TEST(test_zfp)
{
  const PetscReal tol = 1e-6;
  char            opts[PETSC_MAX_PATH_LEN + 256];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (PetscInt dim = 1; dim <= 3; dim++) {
    RwStore       store[2];
    Vec           u[2], v[2];
    RwStoreCounts c[2];
    PetscReal     norm, err;
    PetscInt64   *idx[2];
    PetscInt      n, bad = 0;
    const PetscScalar *a[2];

    for (int p = 0; p < 2; p++) {
      RW_CHECK(zfp_grid(dim, &u[p]));
      RW_CHECK(VecDuplicate(u[p], &v[p]));
      RW_CHECK(layout_store(u[p], RWSTOREMEMORY, 1, "-rw_store_compress zfp -rw_store_compress_tolerance 1e-6", p ? RW_STORE_STATE_PLANES : RW_STORE_STATE_INTERLEAVED, NULL, PETSC_FALSE, &store[p]));
      RW_CHECK(smooth_fill(u[p], (PetscBool)p));
      RW_CHECK(RwStoreWrite(store[p], 0, 1, u[p]));
      RW_CHECK(RwStoreRead(store[p], 0, 1, v[p]));
      RW_CHECK(RwStoreGetCounts(store[p], &c[p]));
    }
    rw_assert_all(c[1].max_error > 0, "zfp dim %d: the state was kept losslessly (zfp did not shrink some rank's block)", (int)dim);
    rw_assert_all(c[0].bytes_kept == c[1].bytes_kept && c[1].bytes_kept < c[1].bytes_written, "zfp dim %d: %lld bytes kept in planes, %lld interleaved, of %lld", (int)dim, (long long)c[1].bytes_kept, (long long)c[0].bytes_kept, (long long)c[1].bytes_written);
    /* the same value back at the same natural index */
    RW_CHECK(rw_store_natural(u[0], &idx[0]));
    RW_CHECK(planes_natural(u[1], &idx[1]));
    RW_CHECK(VecGetLocalSize(u[0], &n));
    RW_CHECK(VecGetArrayRead(v[0], &a[0]));
    RW_CHECK(VecGetArrayRead(v[1], &a[1]));
    for (PetscInt q = 0; q < n / 2; q++)
      for (PetscInt cc = 0; cc < 2; cc++) { /* point q's component cc: at q 2 + cc interleaved, cc n/2 + q in planes */
        bad += idx[0][q * 2 + cc] != idx[1][cc * (n / 2) + q];
        bad += memcmp(&a[0][q * 2 + cc], &a[1][cc * (n / 2) + q], sizeof(PetscScalar)) != 0;
      }
    RW_CHECK(VecRestoreArrayRead(v[0], &a[0]));
    RW_CHECK(VecRestoreArrayRead(v[1], &a[1]));
    rw_assert_all(!bad, "zfp dim %d: %d values read back in planes differ from those read back interleaved", (int)dim, (int)bad);
    RW_CHECK(VecNorm(u[1], NORM_INFINITY, &norm));
    RW_CHECK(VecAXPY(v[1], -1, u[1]));
    RW_CHECK(VecNorm(v[1], NORM_INFINITY, &err));
    rw_assert_all(err <= tol * norm, "zfp dim %d: error %g above the bound %g in planes", (int)dim, (double)err, (double)(tol * norm));
    for (int p = 0; p < 2; p++) {
      RW_CHECK(PetscFree(idx[p]));
      RW_CHECK(RwStoreDestroy(&store[p]));
      RW_CHECK(VecDestroy(&u[p]));
      RW_CHECK(VecDestroy(&v[p]));
    }
    /* the hdf5 store's compressed slots the same way */
    {
      RwStore hs;
      Vec     w, r;

      RW_CHECK(zfp_grid(dim, &w));
      RW_CHECK(VecDuplicate(w, &r));
      snprintf(opts, sizeof(opts), "-rw_store_compress zfp -rw_store_compress_tolerance 1e-6 -rw_store_hdf5_file %s/z%d.h5", dir, (int)dim);
      RW_CHECK(layout_store(w, RWSTOREHDF5, 1, opts, RW_STORE_STATE_PLANES, NULL, PETSC_FALSE, &hs));
      RW_CHECK(smooth_fill(w, PETSC_TRUE));
      RW_CHECK(RwStoreWrite(hs, 0, 1, w));
      RW_CHECK(RwStoreRead(hs, 0, 1, r));
      RW_CHECK(VecNorm(w, NORM_INFINITY, &norm));
      RW_CHECK(VecAXPY(r, -1, w));
      RW_CHECK(VecNorm(r, NORM_INFINITY, &err));
      rw_assert_all(err <= tol * norm, "hdf5 zfp dim %d: error %g above the bound %g in planes", (int)dim, (double)err, (double)(tol * norm));
      RW_CHECK(RwStoreDestroy(&hs));
      RW_CHECK(VecDestroy(&w));
      RW_CHECK(VecDestroy(&r));
    }
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST
#endif

/* Rank 0: the values of /slot_0 of a kept file whose values at their natural
   points do not match step k's in the layout's shape (-1: shape or read failed) */
static long long dataset_mismatches(const char file[], PetscInt dim, PetscInt dof, PetscBool planes, PetscInt64 k)
{
  const PetscInt M[3] = {dim == 1 ? 37 : dim == 2 ? 13 : 7, dim == 1 ? 1 : dim == 2 ? 11 : 6, dim == 3 ? 5 : 1};
  hid_t          f    = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT), d, s;
  hsize_t        dims[5], want[5];
  int            rank, wrank = 0;
  long long      bad = -1, npts = (long long)M[0] * M[1] * M[2];
  double        *buf;

  if (planes) want[wrank++] = (hsize_t)dof;
  for (PetscInt q = dim - 1; q >= 0; q--) want[wrank++] = (hsize_t)M[q];
  if (!planes) want[wrank++] = (hsize_t)dof;
  if (f < 0) return -1;
  if ((d = H5Dopen2(f, "slot_0", H5P_DEFAULT)) >= 0) {
    s    = H5Dget_space(d);
    rank = H5Sget_simple_extent_dims(s, dims, NULL);
    H5Sclose(s);
    if (rank == wrank && !memcmp(dims, want, sizeof(hsize_t) * (size_t)rank) && (buf = malloc(sizeof(double) * (size_t)(npts * dof)))) {
      if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0) {
        bad = 0;
        for (long long p = 0; p < npts; p++)
          for (PetscInt c = 0; c < dof; c++) {
            double v = rw_store_value(p * dof + c, k), got = planes ? buf[c * npts + p] : buf[p * dof + c];

            bad += memcmp(&v, &got, sizeof(v)) != 0;
          }
      }
      free(buf);
    }
    H5Dclose(d);
  }
  H5Fclose(f);
  return bad;
}

/* Rank 0: rwvalid.py (h5py) finds slot_0 valid, at step k, with the recorded
   checksum computed independently over the dataset in C order: the formula
   of doc/notes/checkpoints-internals.md holds in either layout */
static int rwvalid_ok(const char file[], PetscInt64 k)
{
  const char *src = getenv("top_srcdir");
  char        cmd[3 * PETSC_MAX_PATH_LEN];

  snprintf(cmd, sizeof(cmd), "/usr/bin/python3 %s/tests/store/rwvalid.py %s | grep -q 'slot_0 valid 1 step %lld data of the recorded checksum'", src ? src : ".", file, (long long)k);
  return system(cmd) == 0;
}

/* The file's dataset is the grid's shape with the component first (planes)
   or last (interleaved), each value at its natural point; the root says which */
START_TEST(test_dataset)
{
  char file[PETSC_MAX_PATH_LEN + 32], opts[2 * PETSC_MAX_PATH_LEN], layout[32];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (int p = 0; p < 2; p++)
      for (int async = 0; async < 2; async++) {
        const PetscInt dof = dim == 3 ? 3 : 2;
        RwStore        store;
        Vec            u;
        long long      bad = 0;

        snprintf(file, sizeof(file), "%s/d%d%d%d.h5", dir, (int)dim, p, async);
        snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep%s", file, async ? " -rw_store_hdf5_async" : "");
        RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, dof, &u));
        RW_CHECK(layout_store(u, RWSTOREHDF5, 1, opts, p ? RW_STORE_STATE_PLANES : RW_STORE_STATE_INTERLEAVED, NULL, PETSC_FALSE, &store));
        if (p) RW_CHECK(planes_fill(u, 3));
        else RW_CHECK(rw_store_fill(u, 3));
        RW_CHECK(RwStoreWrite(store, 0, 3, u));
        RW_CHECK(RwStoreView(store, NULL));
        RW_CHECK(RwStoreDestroy(&store));
        if (!rw_test_rank()) {
          bad = dataset_mismatches(file, dim, dof, (PetscBool)p, 3);
          rw_store_root_layout(file, layout, sizeof(layout));
          if (!bad && !rwvalid_ok(file, 3)) bad = -2;
        }
        MPI_Bcast(&bad, 1, MPI_LONG_LONG, 0, PETSC_COMM_WORLD);
        MPI_Bcast(layout, sizeof(layout), MPI_CHAR, 0, PETSC_COMM_WORLD);
        rw_assert_all(bad == 0, "dim %d %s%s: /slot_0 of %s %s", (int)dim, p ? "planes" : "interleaved", async ? " async" : "", file, bad == -2 ? "fails rwvalid.py's checksum" : bad < 0 ? "does not have the layout's shape" : "holds values away from their natural points");
        rw_assert_all(!strcmp(layout, p ? "planes" : "interleaved"), "dim %d: the root's state_layout is \"%s\", expected %s", (int)dim, layout, p ? "planes" : "interleaved");
        RW_CHECK(VecDestroy(&u));
      }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* Whether the file holds the bytes it held (rank 0 looks; every rank agrees) */
static int file_unchanged(const char file[], const char *before, long long len)
{
  int ok = 1;

  if (!rw_test_rank()) {
    long long n;
    char     *now = rw_store_file_bytes(file, &n);

    ok = now && n == len && !memcmp(now, before, (size_t)len);
    free(now);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  return ok;
}

/* Rank 0 deletes the root's state_layout, as a file written before layouts were recorded */
static void delete_root_layout(const char file[])
{
  if (!rw_test_rank()) {
    hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);

    if (f >= 0) {
      H5Adelete(f, "state_layout");
      H5Fclose(f);
    }
  }
  MPI_Barrier(PETSC_COMM_WORLD);
}

#define ID "wave 2D 13x11 n=10 storeall"

/* A restart from a file of the other layout: refused, naming both; the file untouched */
static void check_refused(const char file[], const char opts[], RwStoreStateLayout mine, const char filelayout[], const char extra[])
{
  char      expect[2 * PETSC_MAX_PATH_LEN], *before = NULL;
  long long len = 0;
  RwStore   store;
  Vec       u;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  if (!rw_test_rank()) before = rw_store_file_bytes(file, &len);
  snprintf(expect, sizeof(expect), "File %s holds states in the %s layout (root attribute \"state_layout\"%s), this run's model keeps them in the %s layout", file, filelayout, extra, RwStoreStateLayouts[mine]);
  rw_assert_error(layout_store(u, RWSTOREHDF5, 2, opts, mine, ID, PETSC_TRUE, &store), expect);
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_all(file_unchanged(file, before, len), "a refused restart changed the bytes of %s", file);
  free(before);
  RW_CHECK(VecDestroy(&u));
}

/* The file's own layout reopens it and reads step 5 back bitwise */
static void check_reopens(const char file[], const char opts[], RwStoreStateLayout layout)
{
  RwStore    store;
  Vec        u;
  PetscInt64 steps[2];
  PetscInt   bad;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  RW_CHECK(layout_store(u, RWSTOREHDF5, 2, opts, layout, ID, PETSC_TRUE, &store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 5, "the %s file %s reopened holds step %lld in slot 0, expected 5", RwStoreStateLayouts[layout], file, (long long)steps[0]);
  RW_CHECK(RwStoreRead(store, 0, 5, u));
  if (layout == RW_STORE_STATE_PLANES) bad = planes_mismatches(u, 5);
  else RW_CHECK(rw_store_mismatches(u, 5, &bad));
  rw_assert_all(!bad, "%d values of step 5 differ, reopened from the %s file %s", (int)bad, RwStoreStateLayouts[layout], file);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
}

/* A kept file of layout with step 5 in slot 0 */
static void write_kept(const char opts[], RwStoreStateLayout layout)
{
  RwStore store;
  Vec     u;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  RW_CHECK(layout_store(u, RWSTOREHDF5, 2, opts, layout, ID, PETSC_FALSE, &store));
  if (layout == RW_STORE_STATE_PLANES) RW_CHECK(planes_fill(u, 5));
  else RW_CHECK(rw_store_fill(u, 5));
  RW_CHECK(RwStoreWrite(store, 0, 5, u));
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
}

START_TEST(test_refused)
{
  const char *codecs[] = {"", " -rw_store_compress lossless"};
  char        file[PETSC_MAX_PATH_LEN + 32], opts[2 * PETSC_MAX_PATH_LEN];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int c = 0; c < 2; c++) {
    /* interleaved (the default), then the same file as one written before today */
    snprintf(file, sizeof(file), "%s/i%d.h5", dir, c);
    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep%s", file, codecs[c]);
    write_kept(opts, RW_STORE_STATE_INTERLEAVED);
    check_refused(file, opts, RW_STORE_STATE_PLANES, "interleaved", "");
    check_reopens(file, opts, RW_STORE_STATE_INTERLEAVED);
    delete_root_layout(file);
    check_refused(file, opts, RW_STORE_STATE_PLANES, "interleaved", " absent: a file written before layouts were recorded");
    check_reopens(file, opts, RW_STORE_STATE_INTERLEAVED);
    /* and the reverse */
    snprintf(file, sizeof(file), "%s/p%d.h5", dir, c);
    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep%s", file, codecs[c]);
    write_kept(opts, RW_STORE_STATE_PLANES);
    check_refused(file, opts, RW_STORE_STATE_INTERLEAVED, "planes", "");
    check_reopens(file, opts, RW_STORE_STATE_PLANES);
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* One component: the same in both layouts, recorded interleaved and reopened by either */
START_TEST(test_one_component)
{
  char       file[PETSC_MAX_PATH_LEN + 32], opts[2 * PETSC_MAX_PATH_LEN], layout[32];
  RwStore    store;
  Vec        u;
  PetscInt   bad;
  PetscInt64 steps[1];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/one.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep", file);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  RW_CHECK(layout_store(u, RWSTOREHDF5, 1, opts, RW_STORE_STATE_PLANES, ID, PETSC_FALSE, &store));
  RW_CHECK(rw_store_fill(u, 2));
  RW_CHECK(RwStoreWrite(store, 0, 2, u));
  RW_CHECK(RwStoreDestroy(&store));
  if (!rw_test_rank()) rw_store_root_layout(file, layout, sizeof(layout));
  MPI_Bcast(layout, sizeof(layout), MPI_CHAR, 0, PETSC_COMM_WORLD);
  rw_assert_all(!strcmp(layout, "interleaved"), "a one-component state set to planes is recorded as \"%s\", expected interleaved", layout);
  RW_CHECK(layout_store(u, RWSTOREHDF5, 1, opts, RW_STORE_STATE_INTERLEAVED, ID, PETSC_TRUE, &store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  RW_CHECK(RwStoreRead(store, 0, 2, u));
  RW_CHECK(rw_store_mismatches(u, 2, &bad));
  rw_assert_all(steps[0] == 2 && !bad, "a one-component file reopened interleaved: step %lld, %d values differ", (long long)steps[0], (int)bad);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_bad_input)
{
  RwStore            store;
  Vec                u;
  RwStoreStateLayout layout;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  RW_CHECK(rw_store_create(u, RWSTOREMEMORY, 1, "", &store));
  RW_CHECK(RwStoreGetStateLayout(store, &layout));
  rw_assert_all(layout == RW_STORE_STATE_INTERLEAVED, "a new store's layout is %s, expected interleaved", RwStoreStateLayouts[layout]);
  rw_assert_error(RwStoreSetStateLayout(store, (RwStoreStateLayout)5), "Unknown state layout 5: expected interleaved or planes");
  RW_CHECK(RwStoreSetUp(store));
  rw_assert_error(RwStoreSetStateLayout(store, RW_STORE_STATE_PLANES), "Set the store's state layout before RwStoreSetUp()");
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("state layout");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_roundtrip);
#if defined(RW_HAVE_ZFP)
  tcase_add_test(tc, test_zfp);
#endif
  tcase_add_test(tc, test_dataset);
  tcase_add_test(tc, test_refused);
  tcase_add_test(tc, test_one_component);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
