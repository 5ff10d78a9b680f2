/*
  Horizon diagnostics of chaotic runs (doc/chaos.md): the largest Lyapunov
  exponent from the tangent model with renormalisation (Benettin), and the
  growth of the adjoint over a reverse sweep with a warning when a gradient
  lies past the horizon.  Model-independent: any RwModel with a tangent.
*/
#ifndef REWIND_HORIZON_H
#define REWIND_HORIZON_H

#include <rewind/adjoint.h>
#include <rewind/problem.h>

/*S
  RwLyapunov - an estimate of the largest Lyapunov exponent: the mean of the
  exponents of nblocks consecutive blocks of the run after a transient, and
  the standard error of that mean (the spread of the blocks over sqrt(nblocks))

  Level: intermediate

.seealso: RwHorizonLyapunov()
S*/
typedef struct {
  PetscReal exponent; /* per unit of time */
  PetscReal error;    /* standard error of the mean over the blocks */
  PetscInt  nblocks;
  PetscReal time;     /* the time the estimate averages over (after the transient) */
} RwLyapunov;

/*S
  RwHorizonGrowth - how the adjoint grew over the last reverse sweep:
  efoldings = sum_k ln(|A_k^T lambda_k+1| / |lambda_k+1|), the e-foldings of
  the homogeneous adjoint (the sources left out), and its rate per unit time

  Level: intermediate

.seealso: RwAdjointGetHorizonGrowth()
S*/
typedef struct {
  PetscInt64 steps;     /* reverse steps measured */
  PetscReal  efoldings; /* ln of the adjoint's amplification over the sweep; <= 0 for a non-expansive model */
  PetscReal  rate;      /* efoldings per unit of time: an estimate of the largest Lyapunov exponent */
  PetscReal  digits;    /* decimal digits double precision leaves the gradient: 15.95 - efoldings / ln 10 */
  PetscBool  warned;    /* the window is past the horizon (-rw_adjoint_horizon_warn) */
} RwHorizonGrowth;

/*S
  RwEstimate - a statistical estimate over an ensemble: the mean of dJ/dp, of
  J and of |dJ/du0| with their standard errors, and its cost (NILSS,
  RwHorizonShadowingSensitivity(), fills value, J and their errors over its
  runs, x0norm 0)

  Level: intermediate

.seealso: RwHorizonEnsembleSensitivity(), RwHorizonShadowingSensitivity()
S*/
typedef struct {
  PetscReal  value, error; /* dJ/dp: mean over the members and standard error */
  PetscReal  J, Jerror;    /* J: the same */
  PetscReal  x0norm, x0error; /* |dJ/du0|, the gradient's norm with respect to the initial state: the same */
  PetscInt   members;
  PetscInt64 steps;        /* model steps taken, forward (with recomputations) and reverse, all members */
} RwEstimate;

PETSC_EXTERN PetscErrorCode RwHorizonWindowStarts(RwModel, Vec, Vec, PetscInt64, PetscInt64, PetscInt, Vec[]);
PETSC_EXTERN PetscErrorCode RwHorizonEnsembleSensitivity(RwProblem, const char[], PetscInt, RwEstimate *);
PETSC_EXTERN PetscErrorCode RwHorizonShadowingSensitivity(RwAdjoint, Vec, PetscInt, Vec[], const char[], PetscInt, PetscInt, PetscInt64, RwEstimate *); /* NILSS, src/horizon/shadowing.c */
PETSC_EXTERN PetscErrorCode RwHorizonLyapunov(RwAdjoint, Vec, Vec, PetscInt64, PetscInt64, PetscInt, RwLyapunov *);
PETSC_EXTERN PetscErrorCode RwHorizonLyapunovSpectrum(RwAdjoint, Vec, Vec, PetscInt, PetscInt64, PetscInt64, PetscInt, PetscReal[], PetscReal[]);
PETSC_EXTERN PetscErrorCode RwHorizonInitialDirection(RwModel, PetscInt, Vec);
PETSC_EXTERN PetscErrorCode RwAdjointSetHorizonWarn(RwAdjoint, PetscReal);
PETSC_EXTERN PetscErrorCode RwAdjointGetHorizonGrowth(RwAdjoint, RwHorizonGrowth *);

#endif
