/*
  Verification of a model's three forms and of the driver, usable on any model:
  dot-product tests (one step, whole run), Taylor tests, finite differences.
  Random fields are drawn from a hash of the natural grid index, so every
  figure is the same on any number of ranks.
*/
#ifndef REWIND_VERIFY_H
#define REWIND_VERIFY_H

#include <rewind/adjoint.h>

/*S
  RwDotTest - <T dx, y> against <dx, A y>, with the error in units of machine
  epsilon relative to the magnitudes (sum of |products|) of the two sides

  Level: intermediate
S*/
typedef struct {
  PetscReal lhs, rhs, scale, err;
} RwDotTest;

#define RW_TAYLOR_MAX 8
/*S
  RwTaylorTest - r0(eps) = |J(m + eps dm) - J(m)| and r1(eps) = |J(m + eps dm) - J(m) - eps <g, dm>|
  for eps = eps0 / 2^i, with their observed orders log2(r(eps_i-1) / r(eps_i))

  Level: intermediate
S*/
typedef struct {
  PetscInt  n;
  PetscReal eps[RW_TAYLOR_MAX], r0[RW_TAYLOR_MAX], r1[RW_TAYLOR_MAX], order0[RW_TAYLOR_MAX], order1[RW_TAYLOR_MAX];
  PetscReal min_order1; /* the smallest order of r1 over the levels */
} RwTaylorTest;

/*S
  RwFDTest - central differences (J(m + h dm) - J(m - h dm)) / 2h against <g, dm>

  Level: intermediate
S*/
typedef struct {
  PetscInt  n;
  PetscReal h, fd[RW_TAYLOR_MAX], ad[RW_TAYLOR_MAX], relerr[RW_TAYLOR_MAX];
  PetscReal max_relerr;
} RwFDTest;

PETSC_EXTERN PetscErrorCode RwVerifyRandomState(RwModel, PetscInt64, Vec);
PETSC_EXTERN PetscErrorCode RwVerifyRandomDirection(RwModel, Vec, PetscInt64, Vec);
PETSC_EXTERN PetscErrorCode RwVerifyStepDot(RwModel, Vec, PetscInt64, PetscInt64, RwDotTest *);
PETSC_EXTERN PetscErrorCode RwVerifyDot(RwAdjoint, Vec, Vec, PetscInt64, RwDotTest *);
PETSC_EXTERN PetscErrorCode RwVerifyTaylor(RwAdjoint, Vec, Vec, PetscInt64, RwTaylorTest *);
PETSC_EXTERN PetscErrorCode RwVerifyFiniteDifferences(RwAdjoint, Vec, Vec, PetscInt64, PetscInt, RwFDTest *);

#endif
