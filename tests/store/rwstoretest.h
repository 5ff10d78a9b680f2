/*
  Helpers of the store tests (t3xx): temporary directories, stores configured
  by option strings, states whose every value follows from its natural index
  and step (so a run on any number of ranks can check another's), and serial
  access to a checkpoint file for the tests that inspect or damage one.
*/
#ifndef REWIND_TESTS_RWSTORETEST_H
#define REWIND_TESTS_RWSTORETEST_H

#include "rwtest.h"
#include <petscdmda.h>
#include <hdf5.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Removes the directory and whatever the test left in it */
static inline PetscErrorCode rw_store_rmdir(const char dir[])
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  if (!rw_test_rank()) {
    DIR           *d = opendir(dir);
    struct dirent *e;
    char           path[PETSC_MAX_PATH_LEN];

    PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "opendir(%s): %s", dir, strerror(errno));
    while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        unlink(path);
      }
    closedir(d);
    PetscCheck(!rmdir(dir), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "rmdir(%s): %s", dir, strerror(errno));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a file exists, as rank 0 sees it, on every rank */
static inline int rw_store_exists(const char path[])
{
  int e = rw_test_rank() ? 0 : access(path, F_OK) == 0;

  MPI_Bcast(&e, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  return e;
}

/* The value of natural index i at step k: every bit depends on both */
static inline PetscScalar rw_store_value(PetscInt64 i, PetscInt64 k)
{
  return PetscSinReal(0.37 * (PetscReal)i + 1.1 * (PetscReal)k) + 1e-3 * (PetscReal)i - (PetscReal)k;
}

/* The natural index of each local value of u, on a DMDA or a plain vector */
static inline PetscErrorCode rw_store_natural(Vec u, PetscInt64 **idx)
{
  DM        dm;
  PetscBool isda = PETSC_FALSE;
  PetscInt  n, lo, hi, M, N, dof, xs, ys, zs, xm, ym, zm, p = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(PetscMalloc1(n, idx));
  PetscCall(VecGetDM(u, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (!isda) {
    PetscCall(VecGetOwnershipRange(u, &lo, &hi));
    for (PetscInt i = 0; i < n; i++) (*idx)[i] = lo + i;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDAGetInfo(dm, NULL, &M, &N, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(dm, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt z = zs; z < zs + zm; z++)
    for (PetscInt y = ys; y < ys + ym; y++)
      for (PetscInt x = xs; x < xs + xm; x++)
        for (PetscInt c = 0; c < dof; c++) (*idx)[p++] = (((PetscInt64)z * N + y) * M + x) * dof + c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A copy of a whole file (caller frees), its length in *len (-1: unreadable): tests
   that a refused file is left as it was compare its bytes before and after */
static inline char *rw_store_file_bytes(const char file[], long long *len)
{
  FILE *f = fopen(file, "rb");
  char *b = NULL;

  *len = -1;
  if (!f) return NULL;
  if (!fseek(f, 0, SEEK_END) && (*len = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) && (b = malloc((size_t)*len)) && fread(b, 1, (size_t)*len, f) != (size_t)*len) {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

/* The root attribute state_layout of a checkpoint file, read on the calling rank ("" when absent or unreadable) */
static inline void rw_store_root_layout(const char file[], char out[], size_t len)
{
  hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT), a, t;

  out[0] = 0;
  if (f < 0) return;
  if (H5Aexists(f, "state_layout") > 0 && (a = H5Aopen(f, "state_layout", H5P_DEFAULT)) >= 0) {
    t = H5Aget_type(a);
    if (H5Tget_size(t) < len) {
      memset(out, 0, len);
      H5Aread(a, t, out);
    }
    H5Tclose(t);
    H5Aclose(a);
  }
  H5Fclose(f);
}

/* u := the state of step k */
static inline PetscErrorCode rw_store_fill(Vec u, PetscInt64 k)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = rw_store_value(idx[i], k);
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How many local values of u differ, in any bit, from the state of step k */
static inline PetscErrorCode rw_store_mismatches(Vec u, PetscInt64 k, PetscInt *bad)
{
  PetscInt64        *idx;
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  *bad = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar v = rw_store_value(idx[i], k);

    if (memcmp(&v, &a[i], sizeof(v))) (*bad)++;
  }
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local count of values of a and b that differ in any bit */
static inline PetscInt rw_store_differ(Vec a, Vec b)
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

/* The gradient of problem p (J, dJ/dm, dJ/du0) equals the reference's bit
   for bit; what and ref name the two runs in a failure */
static inline void rw_store_same_gradient(const char what[], const char ref[], PetscReal J0, const RwTestProblem *p0, PetscReal J, const RwTestProblem *p)
{
  PetscInt bad;

  rw_assert_all(!memcmp(&J0, &J, sizeof(J)), "%s: J %.17g, %.17g with %s", what, (double)J, (double)J0, ref);
  bad = rw_store_differ(p0->g, p->g);
  rw_assert_all(!bad, "%s: %d values of dJ/dm differ from %s", what, (int)bad, ref);
  bad = rw_store_differ(p0->gu0, p->gu0);
  rw_assert_all(!bad, "%s: %d values of dJ/du0 differ from %s", what, (int)bad, ref);
}

/* A state on a DMDA of dimension dim with dof components: 37; 13 x 11; 7 x 6 x 5 points */
static inline PetscErrorCode rw_store_grid(MPI_Comm comm, PetscInt dim, PetscInt dof, Vec *u)
{
  DM da;

  PetscFunctionBegin;
  if (dim == 1) PetscCall(DMDACreate1d(comm, DM_BOUNDARY_NONE, 37, dof, 1, NULL, &da));
  else if (dim == 2) PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 13, 11, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 7, 6, 5, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, u));
  PetscCall(DMDestroy(&da)); /* the vector keeps its DM */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A store of the given type for states like templ, configured by an options
   string under a prefix of its own (options are per process, so ranks of
   different sub-communicators may number prefixes differently); not set up */
static inline PetscErrorCode rw_store_create(Vec templ, const char type[], PetscInt64 slots, const char options[], RwStore *store)
{
  static int count = 0;
  char       prefix[32];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "s%d_", count++));
  PetscCall(PetscOptionsPrefixPush(NULL, prefix));
  PetscCall(PetscOptionsInsertString(NULL, options));
  PetscCall(PetscOptionsPrefixPop(NULL));
  PetscCall(RwStoreCreate(PetscObjectComm((PetscObject)templ), store));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*store, prefix));
  PetscCall(RwStoreSetType(*store, type));
  PetscCall(RwStoreSetSlots(*store, slots));
  PetscCall(RwStoreSetTemplate(*store, templ));
  PetscCall(RwStoreSetFromOptions(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- serial access to a checkpoint file (call on one rank) ----------------- */

/* The file offset of a dataset's data */
static inline long long rw_h5_offset(const char file[], const char dset[])
{
  hid_t     f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT), d;
  long long off = -1;

  if (f < 0) return -1;
  if ((d = H5Dopen2(f, dset, H5P_DEFAULT)) >= 0) {
    haddr_t a = H5Dget_offset(d);

    off = a == HADDR_UNDEF ? -1 : (long long)a;
    H5Dclose(d);
  }
  H5Fclose(f);
  return off;
}

/* Flips one bit of the byte at a dataset's data + byte, with raw file I/O */
static inline int rw_h5_flip(const char file[], const char dset[], long long byte)
{
  long long     off = rw_h5_offset(file, dset);
  int           fd;
  unsigned char c;
  int           ok;

  if (off < 0 || (fd = open(file, O_RDWR)) < 0) return -1;
  ok = pread(fd, &c, 1, (off_t)(off + byte)) == 1;
  c ^= 0x10;
  ok = ok && pwrite(fd, &c, 1, (off_t)(off + byte)) == 1;
  return close(fd) == 0 && ok ? 0 : -1;
}

/* Rewrites (or, with NULL, deletes) an attribute of a dataset */
static inline int rw_h5_set_attr(const char file[], const char dset[], const char attr[], hid_t type, const void *value)
{
  hid_t  f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT), d, a;
  herr_t s = -1;

  if (f < 0) return -1;
  if ((d = H5Dopen2(f, dset, H5P_DEFAULT)) >= 0) {
    if (!value) s = H5Adelete(d, attr);
    else if ((a = H5Aopen(d, attr, H5P_DEFAULT)) >= 0) {
      s = H5Awrite(a, type, value);
      H5Aclose(a);
    }
    H5Dclose(d);
  }
  return H5Fclose(f) < 0 ? -1 : (int)s;
}

#endif
