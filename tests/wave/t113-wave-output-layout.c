/*
  A state's file does not depend on the layout the model holds it in
  (issue 37, item 1).  The wave state (u_k, u_k-1), its components filled
  through RwModelSetStateComponent(), once interleaved and once in planes
  (RwModelSetStateLayout_Private(): the model steps interleaved today):
  - RwIOWriteField() writes datasets of the same shape (the grid's, slowest
    direction first, then the two components) and the same bytes, read back
    with the HDF5 C API, and each value is its component's at its grid point
    (u_k is the field [..., 0] a user reads);
  - RwIOReadField() reads either file back into a state of either layout,
    the same bits as the state written.
  2D and 3D, on 1 to 3 ranks (each rank's planes at its own offsets).
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <petscviewerhdf5.h>
#include <hdf5.h>

static const char *geometry[2] = {
  "-rw_wave_dim 2 -rw_wave_nbl 2 -da_grid_x 17 -da_grid_y 13 -rw_wave_spacing 10,12 -rw_wave_origin 5,-3 -rw_steps 2",
  "-rw_wave_dim 3 -rw_wave_nbl 2 -da_grid_x 11 -da_grid_y 9 -da_grid_z 10 -rw_wave_spacing 10,10,8 -rw_steps 2 -da_processors_x 1 -da_processors_y 1",
};

static PetscReal comp0(PetscInt dim, const PetscReal x[], void *ctx)
{
  (void)ctx;
  return PetscSinReal(0.031 * x[0] + 0.3) * PetscCosReal(0.017 * x[1]) + (dim > 2 ? 0.01 * x[2] : 0);
}

static PetscReal comp1(PetscInt dim, const PetscReal x[], void *ctx)
{
  (void)ctx;
  return 0.5 + PetscCosReal(0.023 * x[0] - 0.043 * x[1]) - (dim > 2 ? 0.002 * x[2] * x[2] : 0);
}

/* A wave model in the layout, its state of comp0 and comp1, written to file as /u */
static void write_state(const char *opts, RwModelStateLayout layout, const char *file, RwModel *model, Vec *u)
{
  PetscViewer v;
  Vec         f;

  RW_CHECK(rw_test_model_type("wave", opts, model));
  RW_CHECK(RwModelSetStateLayout_Private(*model, layout));
  RW_CHECK(RwModelCreateState(*model, u));
  RW_CHECK(RwModelCreateField(*model, &f));
  for (int c = 0; c < 2; c++) {
    RW_CHECK(RwModelFillField(*model, f, c ? comp1 : comp0, NULL));
    RW_CHECK(RwModelSetStateComponent(*model, f, c, *u));
  }
  RW_CHECK(VecDestroy(&f));
  RW_CHECK(PetscViewerHDF5Open(PETSC_COMM_WORLD, file, FILE_MODE_WRITE, &v));
  RW_CHECK(RwIOWriteField(*model, v, "u", *u));
  RW_CHECK(PetscViewerDestroy(&v));
}

/* On rank 0: /u of file, its rank and shape into dims; NULL if unreadable */
static double *read_dataset(const char *file, int *rank, hsize_t dims[4])
{
  hid_t   f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT), d, s;
  hsize_t n = 1;
  double *a;

  if (f < 0) return NULL;
  d     = H5Dopen2(f, "/u", H5P_DEFAULT);
  s     = H5Dget_space(d);
  *rank = H5Sget_simple_extent_ndims(s);
  if (*rank < 1 || *rank > 4) *rank = 0;
  else H5Sget_simple_extent_dims(s, dims, NULL);
  for (int i = 0; i < *rank; i++) n *= dims[i];
  a = malloc(n * sizeof(double));
  if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a) < 0) {
    free(a);
    a = NULL;
  }
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return a;
}

/* Rank 0: both files hold the same dataset, of the grid's shape and two
   components, each value its component's at its grid point */
static int check_files(RwModel model, int dim, const char *fa, const char *fb, char *why, size_t len)
{
  PetscInt M[3] = {1, 1, 1};
  hsize_t  da[4], db[4];
  int      ra = 0, rb = 0, ok = 1;
  double  *a = read_dataset(fa, &ra, da), *b = read_dataset(fb, &rb, db);
  size_t   n = 1;

  RW_CHECK(DMDAGetInfo(model->da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  if (!a || !b || ra != dim + 1 || rb != ra) {
    snprintf(why, len, "datasets of rank %d and %d (expected %d), read %s and %s", ra, rb, dim + 1, a ? "yes" : "no", b ? "yes" : "no");
    ok = 0;
  }
  for (int i = 0; ok && i < dim; i++)
    if (da[i] != (hsize_t)M[dim - 1 - i] || db[i] != da[i]) {
      snprintf(why, len, "dimension %d is %llu and %llu, expected %d", i, (unsigned long long)da[i], (unsigned long long)db[i], (int)M[dim - 1 - i]);
      ok = 0;
    }
  if (ok && (da[dim] != 2 || db[dim] != 2)) {
    snprintf(why, len, "the last dimension is %llu and %llu, expected the 2 components", (unsigned long long)da[dim], (unsigned long long)db[dim]);
    ok = 0;
  }
  for (int i = 0; ok && i < dim; i++) n *= da[i];
  if (ok && memcmp(a, b, 2 * n * sizeof(double))) {
    snprintf(why, len, "the planes state's file holds other bytes than the interleaved one's");
    ok = 0;
  }
  for (size_t p = 0; ok && p < n; p++) {
    const PetscInt ijk[3] = {(PetscInt)(p % M[0]), (PetscInt)((p / M[0]) % M[1]), (PetscInt)(p / (M[0] * M[1]))};
    PetscReal      x[3]   = {0, 0, 0};

    for (int d = 0; d < dim; d++) RW_CHECK(RwModelGetCoordinates(model, d, ijk[d], &x[d]));
    if (a[2 * p] != comp0(dim, x, NULL) || a[2 * p + 1] != comp1(dim, x, NULL)) {
      snprintf(why, len, "grid point (%d, %d, %d) holds (%g, %g), expected u_k %g and u_k-1 %g", (int)ijk[0], (int)ijk[1], (int)ijk[2], a[2 * p], a[2 * p + 1], (double)comp0(dim, x, NULL), (double)comp1(dim, x, NULL));
      ok = 0;
    }
  }
  free(a);
  free(b);
  return ok;
}

static void check_output(int dim)
{
  RwModel model[2];
  Vec     u[2], r;
  char    dir[PETSC_MAX_PATH_LEN], file[2][PETSC_MAX_PATH_LEN + 32], why[256] = "";
  int     ok = 1;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int l = 0; l < 2; l++) {
    snprintf(file[l], sizeof(file[l]), "%s/state%d.h5", dir, l);
    write_state(geometry[dim - 2], l ? RW_MODEL_STATE_PLANES : RW_MODEL_STATE_INTERLEAVED, file[l], &model[l], &u[l]);
  }
  rw_assert_all(!rw_test_vec_bitwise(u[0], u[1]), "%dD: the two layouts hold the same array: the test would prove nothing", dim);
  if (!rw_test_rank()) ok = check_files(model[0], dim, file[0], file[1], why, sizeof(why));
  rw_assert_all(ok, "%dD: %s", dim, why);
  /* either file into a state of either layout: the state written */
  for (int l = 0; l < 2; l++)
    for (int f = 0; f < 2; f++) {
      RW_CHECK(VecDuplicate(u[l], &r));
      RW_CHECK(RwIOReadField(model[l], file[f], "/u", r));
      rw_assert_all(rw_test_vec_bitwise(r, u[l]), "%dD: the %s file read into a %s state differs from the state written", dim, f ? "planes" : "interleaved", l ? "planes" : "interleaved");
      RW_CHECK(VecDestroy(&r));
    }
  for (int l = 0; l < 2; l++) {
    RW_CHECK(VecDestroy(&u[l]));
    RW_CHECK(RwModelDestroy(&model[l]));
  }
}

START_TEST(test_output_layout)
{
  check_output(2);
  check_output(3);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-output-layout");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_output_layout);
  suite_add_tcase(s, tc);
  return s;
}
