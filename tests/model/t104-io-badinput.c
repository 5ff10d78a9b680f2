/* Bad input files stop with an error naming the dataset, the value seen and
   the value expected, on every rank alike: a NaN held by the last rank (run
   on 2 ranks it is rank 1's), a dataset of rank 9, integer attributes that
   are too large or not whole, and a truncated file. */
#include "rwtest.h"
#include <rewind/private/rwimpl.h>
#include <math.h>
#include <unistd.h>
#include <petscdmda.h>

static char dir[PETSC_MAX_PATH_LEN];

/* Rank 0 writes an HDF5 file with a 16 x 16 field /f (ones, NaN at grid
   point (13, 12), Inf at (2, 14)), a rank-9 dataset /f9, and root attributes */
static void write_file(const char file[])
{
  if (rw_test_rank() == 0) {
    double  f[16][16], nine[2] = {1, 2};
    hsize_t d2[2] = {16, 16}, d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    double  steps = 4294967306.0, gridx = 12.5, ok = 12;
    hid_t   h = H5Fcreate(file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), s, ds, a;

    for (int j = 0; j < 16; j++)
      for (int i = 0; i < 16; i++) f[j][i] = 1;
    f[12][13] = NAN; /* slowest direction first: f[y][x] */
    f[14][2]  = INFINITY;
    s         = H5Screate_simple(2, d2, NULL);
    ds        = H5Dcreate2(h, "f", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, f);
    H5Dclose(ds);
    H5Sclose(s);
    s  = H5Screate_simple(9, d9, NULL);
    ds = H5Dcreate2(h, "f9", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, nine);
    H5Dclose(ds);
    H5Sclose(s);
    s = H5Screate(H5S_SCALAR);
    a = H5Acreate2(h, "steps", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &steps);
    H5Aclose(a);
    a = H5Acreate2(h, "grid_x", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &gridx);
    H5Aclose(a);
    a = H5Acreate2(h, "grid_y", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &ok);
    H5Aclose(a);
    H5Sclose(s);
    H5Fclose(h);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
}

static void file_name(char file[], size_t len, const char base[])
{
  if (!dir[0]) RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  PetscCallVoid(PetscSNPrintf(file, len, "%s/%s", dir, base));
}

START_TEST(test_nan_on_last_rank)
{
  RwModel     model;
  Vec         f;
  char        file[PETSC_MAX_PATH_LEN], want[PETSC_MAX_PATH_LEN + 256];
  PetscInt    lo, hi, at = 13 + 16 * 12;
  PetscMPIInt owner = -1, mine;

  file_name(file, sizeof(file), "nan.h5");
  write_file(file);
  RW_CHECK(rw_test_model("-da_grid_x 16 -da_grid_y 16", &model));
  RW_CHECK(RwModelCreateState(model, &f));
  /* the NaN must lie on the last rank, the one a MAX reduction loses it on */
  {
    AO ao;
    DM da;
    RW_CHECK(RwModelGetStateDM(model, &da));
    RW_CHECK(DMDAGetAO(da, &ao));
    RW_CHECK(AOApplicationToPetsc(ao, 1, &at));
  }
  RW_CHECK(VecGetOwnershipRange(f, &lo, &hi));
  mine = at >= lo && at < hi ? rw_test_rank() : -1;
  MPI_Allreduce(&mine, &owner, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  rw_assert_all(owner == rw_test_size() - 1, "grid point (13, 12) is on rank %d, expected the last rank", owner);
  snprintf(want, sizeof(want), "Dataset f in %s holds 2 non-finite values, expected finite values only; the first in natural order is nan at grid point (13, 12, 0)", file);
  rw_assert_error(RwIOReadField(model, file, "f", f), want);
  RW_CHECK(VecDestroy(&f));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* A NaN in kappa on the last rank: the model's check reduces the first bad
   index, and the value reaches every rank intact */
START_TEST(test_nan_kappa_on_last_rank)
{
  RwModel       model;
  RwTestProblem p;
  Vec           kappa;
  PetscReal     J;
  PetscInt      lo, hi, at = 13 + 16 * 12;

  RW_CHECK(rw_test_model("-da_grid_x 16 -da_grid_y 16 -rw_steps 2", &model));
  RW_CHECK(rw_test_problem(model, &p));
  {
    AO ao;
    DM da;
    RW_CHECK(RwModelGetStateDM(model, &da));
    RW_CHECK(DMDAGetAO(da, &ao));
    RW_CHECK(AOApplicationToPetsc(ao, 1, &at));
  }
  RW_CHECK(RwModelGetParameterField(model, p.m, 0, &kappa));
  RW_CHECK(VecGetOwnershipRange(kappa, &lo, &hi));
  if (at >= lo && at < hi) RW_CHECK(VecSetValue(kappa, at, NAN, INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(kappa));
  RW_CHECK(VecAssemblyEnd(kappa));
  RW_CHECK(RwModelRestoreParameterField(model, p.m, 0, &kappa));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "kappa = nan");
  ck_assert_msg(strstr(rw_test_captured(), "at grid point (13, 12, 0)"), "the first bad point: %s", rw_test_captured());
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_rank9)
{
  RwModel    model;
  Vec        f;
  char       file[PETSC_MAX_PATH_LEN], want[PETSC_MAX_PATH_LEN + 256];
  PetscInt64 expect[2] = {-1, -1};

  file_name(file, sizeof(file), "rank9.h5");
  write_file(file);
  RW_CHECK(rw_test_model("-da_grid_x 16 -da_grid_y 16", &model));
  RW_CHECK(RwModelCreateState(model, &f));
  snprintf(want, sizeof(want), "Dataset f9 in %s has rank 9, expected 2 (shape 16 x 16)", file);
  rw_assert_error(RwIOReadField(model, file, "f9", f), want);
  snprintf(want, sizeof(want), "Dataset f9 in %s has rank 9, expected 2 (shape any x any)", file);
  rw_assert_error(RwIOCheckDataset(PETSC_COMM_WORLD, file, "f9", 2, expect, NULL), want);
  RW_CHECK(VecDestroy(&f));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_integer_attributes)
{
  char       file[PETSC_MAX_PATH_LEN], want[PETSC_MAX_PATH_LEN + 256];
  PetscInt64 v = -1;
  PetscBool  found;

  file_name(file, sizeof(file), "attr.h5");
  write_file(file);
  snprintf(want, sizeof(want), "Attribute steps of / in %s is 4294967306: expected a whole number in [1, 2147483647]", file);
  rw_assert_error(RwIOReadAttributeInt(PETSC_COMM_WORLD, file, "/", "steps", 1, PETSC_MAX_INT, &v, &found), want);
  snprintf(want, sizeof(want), "Attribute grid_x of / in %s is 12.5: expected a whole number in [1, 2147483647]", file);
  rw_assert_error(RwIOReadAttributeInt(PETSC_COMM_WORLD, file, "/", "grid_x", 1, PETSC_MAX_INT, &v, &found), want);
  RW_CHECK(RwIOReadAttributeInt(PETSC_COMM_WORLD, file, "/", "grid_y", 1, PETSC_MAX_INT, &v, &found));
  rw_assert_all(found && v == 12, "grid_y read as %lld", (long long)v);
  RW_CHECK(RwIOReadAttributeInt(PETSC_COMM_WORLD, file, "/", "grid_z", 1, PETSC_MAX_INT, &v, &found));
  rw_assert_all(!found && v == 12, "an absent attribute leaves the value alone");
}
END_TEST

/* What RwCallHDF5 says when HDF5 leaves no message of its own */
static PetscErrorCode open_with_rwcall(const char file[])
{
  hid_t f;

  PetscFunctionBegin;
  RwCallHDF5Return(f, H5Fopen, (file, H5F_ACC_RDONLY, H5P_DEFAULT));
  RwCallHDF5(H5Fclose, (f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_truncated_file)
{
  char file[PETSC_MAX_PATH_LEN];

  file_name(file, sizeof(file), "truncated.h5");
  write_file(file);
  if (rw_test_rank() == 0) ck_assert_int_eq(truncate(file, 600), 0);
  MPI_Barrier(PETSC_COMM_WORLD);
  rw_assert_error(open_with_rwcall(file), "HDF5 call H5Fopen() failed: truncated file: eof = 600");
  /* a failure that leaves HDF5's stack empty still gets a reason */
  {
    char msg[256];
    H5Eclear2(H5E_DEFAULT);
    RW_CHECK(RwHDF5ErrorMessage(msg, sizeof(msg)));
    ck_assert_msg(strstr(msg, "the file may be truncated, still being written, or not HDF5"), "message for an empty HDF5 stack: %s", msg);
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("io-badinput");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_nan_on_last_rank);
  tcase_add_test(tc, test_nan_kappa_on_last_rank);
  tcase_add_test(tc, test_rank9);
  tcase_add_test(tc, test_integer_attributes);
  tcase_add_test(tc, test_truncated_file);
  suite_add_tcase(s, tc);
  return s;
}
