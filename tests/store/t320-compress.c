/*
  Compressed checkpoints (-rw_store_compress, src/store/compress):
  - lossless: every state read back is bitwise the one written (1D-3D, one and
    two components), in fewer bytes for a smooth state; under the driver, J and
    every gradient are bitwise storeall's without compression for every
    schedule (the stores in RAM), on heat (explicit, Crank-Nicolson, with a
    network) and wave, and each run takes the forward steps its schedule predicts;
  - damaged bytes: a bit flipped anywhere in a kept state, or its length
    changed, is refused with the slot's name on every rank; none is decoded;
  - zfp: every value read back is within the tolerance times the state's
    max-norm, and a smooth state is kept in fewer bytes;
  - bad input: an unknown codec, a tolerance <= 0, >= 1 or NaN, zfp in a build
    without zfp: clear errors.
  The lossless round trip runs on both stores; the hdf5 store's compressed
  slots under the driver, after kills and on damaged files are t322's and
  t323's.
*/
#include "rwconfig.h"
#include "rwstoretest.h"
#include <rewind/private/storeimpl.h>
#include <math.h>

static char dir[PETSC_MAX_PATH_LEN];

/* u := a smooth field of natural index i (so every rank count keeps the same state) */
static PetscErrorCode fill_smooth(Vec u, PetscReal phase)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArray(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = 3 * PetscSinReal(0.05 * (PetscReal)idx[i] + phase) + 0.5;
  PetscCall(VecRestoreArray(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u := a smooth field behind a front, zero beyond it, as a wave before it arrives */
static PetscErrorCode fill_front(Vec u)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArray(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = idx[i] < 12 ? PetscSinReal(0.05 * (PetscReal)idx[i]) : 0;
  PetscCall(VecRestoreArray(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* both stores: the memory store's slots and the hdf5 store's byte datasets (h5packed.c) */
START_TEST(test_lossless_roundtrip)
{
  const char *types[] = {RWSTOREMEMORY, RWSTOREHDF5};
  char        opts[PETSC_MAX_PATH_LEN + 128], rdir[PETSC_MAX_PATH_LEN];

  RW_CHECK(rw_test_tmpdir(rdir, sizeof(rdir)));
  for (int t = 0; t < 2; t++)
  for (PetscInt dim = 1; dim <= 3; dim++)
    for (PetscInt dof = 1; dof <= 2; dof++) {
      RwStore       store;
      Vec           u, v;
      PetscInt      bad;
      RwStoreCounts c;

      RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, dof, &u));
      RW_CHECK(VecDuplicate(u, &v));
      if (t) snprintf(opts, sizeof(opts), "-rw_store_compress lossless -rw_store_hdf5_file %s/r%d%d.h5", rdir, (int)dim, (int)dof);
      else snprintf(opts, sizeof(opts), "-rw_store_compress lossless");
      RW_CHECK(rw_store_create(u, types[t], 3, opts, &store));
      RW_CHECK(RwStoreSetUp(store));
      RwStoreCounts c0;

      RW_CHECK(rw_store_fill(u, 4)); /* every bit of every value depends on its index: incompressible */
      RW_CHECK(RwStoreWrite(store, 0, 4, u));
      RW_CHECK(RwStoreGetCounts(store, &c0));
      RW_CHECK(fill_front(u));
      RW_CHECK(RwStoreWrite(store, 2, 7, u));
      RW_CHECK(RwStoreRead(store, 0, 4, v));
      RW_CHECK(rw_store_mismatches(v, 4, &bad));
      rw_assert_all(!bad, "dim %d dof %d: %d values of an incompressible state differ after the round trip", (int)dim, (int)dof, (int)bad);
      RW_CHECK(RwStoreReadAndFree(store, 2, 7, &v));
      bad = rw_store_differ(u, v);
      rw_assert_all(!bad, "dim %d dof %d: %d values of a smooth state differ after the round trip", (int)dim, (int)dof, (int)bad);
      RW_CHECK(RwStoreGetCounts(store, &c));
      rw_assert_all(c.writes == 2 && c.reads == 2 && c.swaps == 0, "%s store, dim %d dof %d: %lld writes, %lld reads, %lld swaps", types[t], (int)dim, (int)dof, (long long)c.writes, (long long)c.reads, (long long)c.swaps);
      {
        long long b[2] = {(long long)(c.bytes_kept - c0.bytes_kept), (long long)(c.bytes_written - c0.bytes_written)}, all[2];

        MPI_Allreduce(b, all, 2, MPI_LONG_LONG, MPI_SUM, PETSC_COMM_WORLD); /* a rank's tiny part may not shrink */
        /* Blosc keeps parts under 128 bytes as they are: the 1D grid's, on 3 ranks */
        if (dim > 1) rw_assert_all(all[0] < 3 * all[1] / 4, "dim %d dof %d: %lld bytes kept for a state of %lld bytes, zero beyond a wave front", (int)dim, (int)dof, all[0], all[1]);
      }
      rw_assert_error(RwStoreRead(store, 2, 7, v), "holds no valid state");
      RW_CHECK(RwStoreView(store, NULL));
      RW_CHECK(RwStoreDestroy(&store));
      RW_CHECK(VecDestroy(&u));
      RW_CHECK(VecDestroy(&v));
    }
  RW_CHECK(rw_store_rmdir(rdir));
}
END_TEST

/* Bits flipped in the kept bytes, or a wrong length: refused, never decoded */
START_TEST(test_damage_refused)
{
  const int     trials = 100;
  RwStore       store;
  Vec           u, v;
  RwCodecRecord rec, bad;
  char         *buf, *copy;
  int           refused = 0;
  PetscMPIInt   rank;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  RW_CHECK(VecDuplicate(u, &v));
  RW_CHECK(rw_store_create(u, RWSTOREMEMORY, 1, "-rw_store_compress lossless", &store));
  RW_CHECK(RwStoreSetUp(store));
  RW_CHECK(fill_smooth(u, 1));
  RW_CHECK(PetscMalloc2(store->codec.cap, &buf, store->codec.cap, &copy));
  RW_CHECK(RwCodecEncode(store, u, buf, &rec));
  RW_CHECK(RwCodecDecode(store, buf, &rec, "checkpoint slot 0 (step 3) of the memory store", v));
  rw_assert_all(!rw_store_differ(u, v), "the undamaged state does not decode to itself");
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  srand(1234 + 7 * (unsigned)rank);
  for (int t = 0; t < trials; t++) {
    /* each rank damages its own part: the refusal must reach every rank */
    RW_CHECK(PetscMemcpy(copy, buf, rec.len));
    bad = rec;
    if (t % 10 == 9) bad.len = rec.len + 1 + (size_t)(rand() % 64) * (t % 20 == 19 ? 1000000 : 1); /* longer, or past the slot */
    else if (t % 10 == 8) bad.len = (size_t)rand() % rec.len;
    else copy[(size_t)rand() % rec.len] ^= (char)(1 << (rand() % 8));
    rw_assert_error(RwCodecDecode(store, copy, &bad, "checkpoint slot 0 (step 3) of the memory store", v), "Compressed checkpoint slot 0 (step 3) of the memory store");
    refused++;
  }
  rw_assert_all(refused == trials, "%d of %d damaged states refused", refused, trials);
  RW_CHECK(PetscFree2(buf, copy));
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&v));
}
END_TEST

#if defined(RW_HAVE_ZFP)
/* Every value within tol times the max-norm; a smooth state in fewer bytes */
START_TEST(test_zfp_bound)
{
  const PetscReal tols[] = {1e-3, 1e-6, 1e-9};

  for (PetscInt dim = 1; dim <= 3; dim++)
    for (int i = 0; i < 3; i++) {
      char          opts[128];
      RwStore       store;
      Vec           u, v;
      PetscReal     norm, err;
      RwStoreCounts c;

      snprintf(opts, sizeof(opts), "-rw_store_compress zfp -rw_store_compress_tolerance %g", (double)tols[i]);
      RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, 2, &u));
      RW_CHECK(VecDuplicate(u, &v));
      RW_CHECK(rw_store_create(u, RWSTOREMEMORY, 1, opts, &store));
      RW_CHECK(RwStoreSetUp(store));
      RW_CHECK(fill_smooth(u, 0.5));
      RW_CHECK(RwStoreWrite(store, 0, 1, u));
      RW_CHECK(RwStoreRead(store, 0, 1, v));
      RW_CHECK(VecNorm(u, NORM_INFINITY, &norm));
      RW_CHECK(VecAXPY(v, -1, u));
      RW_CHECK(VecNorm(v, NORM_INFINITY, &err));
      RW_CHECK(RwStoreGetCounts(store, &c));
      if (!rw_test_rank()) printf("# zfp dim %d tol %g: max error %.3g of bound %.3g, %lld bytes kept of %lld\n", (int)dim, (double)tols[i], (double)err, (double)(tols[i] * norm), (long long)c.bytes_kept, (long long)c.bytes_written);
      rw_assert_all(err <= tols[i] * norm, "dim %d tol %g: error %g above the bound %g", (int)dim, (double)tols[i], (double)err, (double)(tols[i] * norm));
      /* a state zfp would not shrink is kept losslessly, with no error */
      rw_assert_all(c.max_error == tols[i] * norm || (c.max_error == 0 && err == 0), "dim %d tol %g: the counts report an error bound %g (error %g), expected %g or 0 for a state kept losslessly", (int)dim, (double)tols[i], (double)c.max_error, (double)err, (double)(tols[i] * norm));
      if (tols[i] >= 1e-6) rw_assert_all(c.bytes_kept < c.bytes_written, "dim %d tol %g: %lld bytes kept of %lld", (int)dim, (double)tols[i], (long long)c.bytes_kept, (long long)c.bytes_written);
      RW_CHECK(RwStoreDestroy(&store));
      RW_CHECK(VecDestroy(&u));
      RW_CHECK(VecDestroy(&v));
    }
}
END_TEST
#endif

static const char *settings[] = {
  "-rw_schedule_type storeall",
  "-rw_schedule_type periodic -rw_schedule_period 4",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 3",
  "-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2 -rw_store_disk_type memory",
  "-rw_schedule_type online -rw_schedule_ram_slots 3",
};

/* J and the gradients with lossless slots are storeall's without compression, bit for bit */
static void check_lossless(const char *type, const char *grid)
{
  RwTestReference ref = {0};

  for (int i = -1; i < (int)(sizeof(settings) / sizeof(settings[0])); i++) {
    char          opts[1024];
    RwModel       model;
    RwTestProblem p;
    PetscReal     J;
    PetscBool     same;
    PetscInt64    taken, predicted;
    RwStore       store;
    RwStoreCounts c;

    /* i = -1: the reference, storeall without compression */
    snprintf(opts, sizeof(opts), "%s %s -rw_steps 19 -ksp_rtol 1e-12", grid, i < 0 ? "-rw_schedule_type storeall" : settings[i]);
    if (i >= 0) RW_CHECK(PetscStrlcat(opts, " -rw_store_compress lossless", sizeof(opts)));
    RW_CHECK(rw_test_model_type(type, opts, &model));
    RW_CHECK(rw_test_problem(model, &p));
    RW_CHECK(rw_test_solve_same(&p, &ref, &J, &same, &taken, &predicted));
    if (!rw_test_rank()) printf("# %s %-100s J %.17g forward steps %lld\n", type, opts, J, (long long)taken);
    rw_assert_all(same, "%s %s: J %.17g (storeall %.17g) or a gradient differs from storeall's without compression", type, opts, J, ref.J);
    rw_assert_all(taken == predicted, "%s %s: %lld forward steps, the schedule predicted %lld", type, opts, (long long)taken, (long long)predicted);
    RW_CHECK(RwAdjointGetStore(p.adj, 0, &store));
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(i < 0 ? c.bytes_kept == 0 : c.bytes_kept > 0 && c.writes > 0, "%s %s: %lld bytes kept by %lld writes", type, opts, (long long)c.bytes_kept, (long long)c.writes);
    RW_CHECK(rw_test_problem_destroy(&p));
    RW_CHECK(RwModelDestroy(&model));
  }
  RW_CHECK(rw_test_reference_destroy(&ref));
}

START_TEST(test_lossless_gradients)
{
  check_lossless("heat", "-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet");
  check_lossless("heat", "-rw_heat_dim 2 -da_grid_x 16 -da_grid_y 12 -rw_heat_scheme crank-nicolson -rw_heat_bc neumann");
  check_lossless("heat", "-rw_heat_dim 3 -da_grid_x 7 -da_grid_y 6 -da_grid_z 5");
  check_lossless("heat", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_nn -rw_nn_layers 1,6,6,1");
  check_lossless("wave", "-rw_wave_space_order 4 -da_grid_x 19 -da_grid_y 16 -rw_wave_nbl 4 -rw_wave_f0 0.03");
}
END_TEST

START_TEST(test_bad_input)
{
  RwStore store;
  Vec     u;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  rw_assert_error(rw_store_create(u, RWSTOREMEMORY, 2, "-rw_store_compress gzip", &store), "rw_store_compress gzip: unknown codec; expected none, lossless, zfp or auto");
  RW_CHECK(RwStoreDestroy(&store));
#if defined(RW_HAVE_ZFP)
  rw_assert_error(rw_store_create(u, RWSTOREMEMORY, 2, "-rw_store_compress zfp -rw_store_compress_tolerance 0", &store), "rw_store_compress_tolerance");
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_error(rw_store_create(u, RWSTOREMEMORY, 2, "-rw_store_compress zfp -rw_store_compress_tolerance -1e-3", &store), "rw_store_compress_tolerance");
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_error(rw_store_create(u, RWSTOREMEMORY, 2, "-rw_store_compress zfp -rw_store_compress_tolerance nan", &store), "rw_store_compress_tolerance");
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_error(rw_store_create(u, RWSTOREMEMORY, 2, "-rw_store_compress zfp -rw_store_compress_tolerance 1", &store), "rw_store_compress_tolerance");
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(RwStoreCreate(PETSC_COMM_WORLD, &store));
  rw_assert_error(RwStoreSetCompress(store, RW_STORE_COMPRESS_ZFP, PETSC_MAX_REAL), "expected a relative error bound in (0, 1)");
  RW_CHECK(RwStoreDestroy(&store));
#else
  rw_assert_error(rw_store_create(u, RWSTOREMEMORY, 2, "-rw_store_compress zfp", &store), "built without zfp; install libzfp-dev");
  RW_CHECK(RwStoreDestroy(&store));
#endif
  RW_CHECK(RwStoreCreate(PETSC_COMM_WORLD, &store));
  rw_assert_error(RwStoreSetCompress(store, (RwStoreCompressType)7, 1e-6), "Unknown store compression 7");
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("compress");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_lossless_roundtrip);
  tcase_add_test(tc, test_damage_refused);
#if defined(RW_HAVE_ZFP)
  tcase_add_test(tc, test_zfp_bound);
#endif
  tcase_add_test(tc, test_lossless_gradients);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
