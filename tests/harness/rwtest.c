/* The shared main of rewind's Check tests; see rwtest.h. */
#include "rwtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

static char rw_captured[4096];

static PetscErrorCode rw_test_recorder(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) PetscStrncpy(rw_captured, mess ? mess : "", sizeof(rw_captured));
  return n;
}

void rw_test_capture_begin(void)
{
  rw_captured[0] = 0;
  PetscPushErrorHandler(rw_test_recorder, NULL);
}

void rw_test_capture_end(void)
{
  PetscPopErrorHandler();
}

const char *rw_test_captured(void)
{
  return rw_captured;
}

int rw_test_rank(void)
{
  PetscMPIInt rank;

  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  return rank;
}

int rw_test_size(void)
{
  PetscMPIInt size;

  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  return size;
}

PetscErrorCode rw_test_tmpdir(char dir[], size_t len)
{
  const char *tmp = getenv("TMPDIR");

  PetscFunctionBegin;
  if (!rw_test_rank()) {
    snprintf(dir, len, "%s/rewind-test.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    PetscCheck(mkdtemp(dir), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "mkdtemp(%s): %s", dir, strerror(errno));
  }
  PetscCallMPI(MPI_Bcast(dir, (int)len, MPI_CHAR, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Prints this rank's failures, prefixed by the rank, to stdout */
static void rw_test_print_failures(SRunner *sr, int rank)
{
  TestResult **tr = srunner_failures(sr);
  int          n  = srunner_ntests_failed(sr);

  for (int i = 0; i < n; i++) printf("[rank %d] %s:%d: %s: %s\n", rank, tr_lfile(tr[i]), tr_lno(tr[i]), tr_tcname(tr[i]), tr_msg(tr[i]));
  free(tr);
  fflush(stdout);
}

int main(int argc, char **argv)
{
  SRunner    *sr;
  int         rank, size, failed, anyfailed = 0, expected;
  const char *np = getenv("RW_TEST_NP");

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(RwInitializePackage());
  PetscCall(RwModelRegisterAll());
  PetscCall(RwModelPluginRegister()); /* osc, after the built-in types */
  rank = rw_test_rank();
  size = rw_test_size();
  if (!rank) printf("# %s: running on %d MPI rank%s\n", argv[0], size, size > 1 ? "s" : "");
  /* the driver says how many ranks it launched: a mismatch is a broken launch */
  expected = np ? atoi(np) : size;
  sr       = srunner_create(rw_test_suite());
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, rank ? CK_SILENT : CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  if (rank && failed) rw_test_print_failures(sr, rank);
  if (size != expected) {
    printf("[rank %d] launched on %d ranks, the test driver asked for %d\n", rank, size, expected);
    failed++;
  }
  srunner_free(sr);
  fflush(stdout);
  MPI_Allreduce(&failed, &anyfailed, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  if (!rank) printf("# verdict on %d rank%s: %s\n", size, size > 1 ? "s" : "", anyfailed ? "FAIL (a failure on any rank fails the test)" : "PASS");
  PetscCall(PetscFinalize());
  return anyfailed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Whether a and b hold the same bits on every rank: bit-for-bit checks of
   kernels and options that must not change a result (t108, t130, t132) */
PetscBool rw_test_vec_bitwise(Vec a, Vec b)
{
  const PetscScalar *x, *y;
  PetscInt           n, nb;
  int                eq, all;

  RW_CHECK(VecGetLocalSize(a, &n));
  RW_CHECK(VecGetLocalSize(b, &nb));
  RW_CHECK(VecGetArrayRead(a, &x));
  RW_CHECK(VecGetArrayRead(b, &y));
  eq = n == nb && !memcmp(x, y, n * sizeof(PetscScalar));
  RW_CHECK(VecRestoreArrayRead(b, &y));
  RW_CHECK(VecRestoreArrayRead(a, &x));
  MPI_Allreduce(&eq, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
  return all ? PETSC_TRUE : PETSC_FALSE;
}
