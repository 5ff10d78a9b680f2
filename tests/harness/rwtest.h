/*
  rewind's test harness: Check suites that run on every MPI rank.

  A test file defines rw_test_suite(); the shared main (rwtest.c) initialises
  PETSc, runs the suite without fork (CK_NOFORK, needed under MPI), prints
  every rank's failures, and makes all ranks agree on the verdict: the program
  fails on every rank when any rank failed.
*/
#ifndef REWIND_TESTS_RWTEST_H
#define REWIND_TESTS_RWTEST_H

#include <check.h>
#include <string.h>
#include <rewind.h>

/* Each test program defines its suite */
Suite *rw_test_suite(void);

/* Fails the test when a PETSc call returns an error */
#define RW_CHECK(call) \
  do { \
    PetscErrorCode rw_e_ = (call); \
    ck_assert_msg(rw_e_ == 0, "%s returned PETSc error %d", #call, (int)rw_e_); \
  } while (0)

/* Asserts cond on every rank after agreeing on it, so that a failure on one
   rank cannot leave the others waiting in a later collective call */
#define rw_assert_all(cond, ...) \
  do { \
    int rw_ok_ = (cond) ? 1 : 0, rw_all_ = 0; \
    MPI_Allreduce(&rw_ok_, &rw_all_, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD); \
    ck_assert_msg(rw_all_, __VA_ARGS__); \
  } while (0)

/* Runs call with PETSc's error printing replaced by a recorder; asserts that
   it failed and that the first error message contains expected; where
   ("" or the case, for calls made in a loop) prefixes a failure's message */
#define rw_assert_error_in(where, call, expected) \
  do { \
    PetscErrorCode rw_e_; \
    const char    *rw_w_ = (where); \
    rw_test_capture_begin(); \
    rw_e_ = (call); \
    rw_test_capture_end(); \
    ck_assert_msg(rw_e_ != 0, "%s%s%s succeeded; expected an error containing \"%s\"", rw_w_, *rw_w_ ? ": " : "", #call, (expected)); \
    ck_assert_msg(strstr(rw_test_captured(), (expected)) != NULL, "%s%s%s failed with \"%s\"; expected a message containing \"%s\"", rw_w_, *rw_w_ ? ": " : "", #call, rw_test_captured(), (expected)); \
  } while (0)
#define rw_assert_error(call, expected) rw_assert_error_in("", call, expected)

void        rw_test_capture_begin(void);
void        rw_test_capture_end(void);
const char *rw_test_captured(void);

/* A heat model configured by an options string (e.g. "-rw_heat_dim 3
   -da_grid_x 6"), under a prefix of its own; set up */
PetscErrorCode rw_test_model(const char *options, RwModel *model);
PetscErrorCode rw_test_model_comm(MPI_Comm comm, const char *options, RwModel *model);

/* A model of any registered type (heat, osc, ...) configured the same way */
PetscErrorCode rw_test_model_type(const char *type, const char *options, RwModel *model);
PetscErrorCode rw_test_model_type_comm(MPI_Comm comm, const char *type, const char *options, RwModel *model);
/* the same before its options are read and it is set up, for calls that
   configure it first (RwModelSetGridSizes(), RwModelWaveSetSpacing() ...) */
PetscErrorCode rw_test_model_create(MPI_Comm comm, const char *type, const char *options, RwModel *model);

/* Every registered model type, in registration order (free *types with
   PetscFree()): the model suites run over all of them, as SLEPc's tests run
   over every solver type */
PetscErrorCode rw_test_model_types(int *n, const char ***types);

/* The test model of examples/oscillator/osc.c, compiled into this harness
   and registered (as "osc") by the shared main */
PETSC_EXTERN PetscErrorCode RwModelPluginRegister(void);

/* The model's default problem: parameters, initial state, terminal misfit to
   its default target, and a driver set up from the same options */
typedef struct {
  RwModel     model;
  RwObjective obj;
  RwAdjoint   adj;
  Vec         m, u0, g, gu0;
} RwTestProblem;
PetscErrorCode rw_test_problem(RwModel model, RwTestProblem *p);
/* the same in two halves, for an objective of the caller's own terms:
   begin (defaults, an empty objective), add terms to p->obj, then driver */
PetscErrorCode rw_test_problem_begin(RwModel model, RwTestProblem *p);
PetscErrorCode rw_test_problem_driver(RwTestProblem *p);
PetscErrorCode rw_test_bump(RwModel model, Vec m, PetscReal amp, PetscReal width, const PetscReal c[3]);
PetscErrorCode rw_test_gaussian2d(Vec u, PetscReal scale, PetscReal cx, PetscReal cy);
PetscErrorCode rw_test_problem_destroy(RwTestProblem *p);
/* a whole RwProblem of the options opts under prefix pre, set up (t460, t461) */
PetscErrorCode rw_test_problem_prefixed(const char pre[], const char opts[], RwProblem *prob);
/* the same, created only: options in, prefix set, for a test to configure before RwProblemSetFromOptions() (t470, t650) */
PetscErrorCode rw_test_problem_create_prefixed(const char pre[], const char opts[], RwProblem *prob);

/* One expected result, many settings (t403, t408): the first solve through
   rw_test_solve_same() keeps J and the gradients in *ref; every later one
   says whether its J, dJ/dm and dJ/du0 are those bits.  Also the forward
   steps taken and those the schedule predicted */
typedef struct {
  PetscReal J;
  Vec       g, gu0; /* NULL until the first solve */
} RwTestReference;
PetscErrorCode rw_test_solve_same(RwTestProblem *p, RwTestReference *ref, PetscReal *J, PetscBool *same, PetscInt64 *taken, PetscInt64 *predicted);
PetscErrorCode rw_test_reference_destroy(RwTestReference *ref);

/* The problem of t410 and t412 (tests/harness/rwtestterms.c): heat with a
   per-step source amplitude, a nonzero source, and two user terms that
   depend on m (a time integral of kappa u^2, a control cost on the amplitudes) */
typedef struct {
  PetscReal alpha;
  PetscInt  block;
} RwTestControl;
typedef struct {
  RwTestProblem p;
  RwTestControl control;
  PetscInt64    n;
  PetscReal     dt, *weights;
  PetscInt64   *steps;
} RwTestTerms;
PetscErrorCode rw_test_terms_create(const char *opts, RwTestTerms *c);
PetscErrorCode rw_test_terms_destroy(RwTestTerms *c);

/* This process's rank and the number of ranks in PETSC_COMM_WORLD */
/* Whether a and b hold the same bits on every rank (the ranks agree) */
PetscBool rw_test_vec_bitwise(Vec a, Vec b);

int rw_test_rank(void);
int rw_test_size(void);

/* A new directory under TMPDIR (or /tmp), the same on every rank */
PetscErrorCode rw_test_tmpdir(char dir[], size_t len);

#endif
