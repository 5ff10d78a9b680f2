/*
  rewind-hybrid: learn the reaction term of a reaction-diffusion system from
  observed trajectories, with a pointwise network inside heat (-rw_heat_nn)
  trained through the checkpointed adjoint.  problem.c: the embedded
  Fisher-KPP problem, its data, the misfit term and one evaluation of J and
  dJ/dtheta over the trajectories (ensemble members); train.c: TAO and Adam,
  the report and the HDF5 output.
*/
#ifndef REWIND_APPS_HYBRID_H
#define REWIND_APPS_HYBRID_H

#include <rewind.h>

#define HYB_MAX_TRAJ 32

typedef struct {
  PetscInt  nobs, every;
  Vec      *d; /* the observed states d_k at k = every, 2 every, ..., on the group's grid */
  PetscReal vol;
} HybData;

typedef struct {
  /* options */
  PetscInt  ntraj, every, nsteps, epochs, grid;
  PetscReal rho, kappa, kappa0, dt, lr, decay; /* kappa0: the start of a learned kappa */
  PetscBool adam, trainkappa, png; /* png: -rw_output_png */
  PetscInt64 seed;
  char      output[PETSC_MAX_PATH_LEN];
  /* the group's objects (an RwEnsemble group: all ranks with one group) */
  RwEnsemble  ens;
  PetscInt    group, ngroups;
  MPI_Comm    sub;
  RwModel     model, plain; /* heat with the network; heat alone, for the truth */
  RwNN        nn;
  PetscInt    block, P, nx;   /* theta's block, its size, the unknowns (P, + 1 with kappa) */
  PetscReal   logkmax;        /* log of the explicit scheme's largest stable uniform kappa, h^2 / (4 dt) */
  PetscReal   logkmin;        /* and a floor 1e-6 below it (a step to log kappa = -inf underflows kappa to 0) */
  RwObjective obj;
  RwAdjoint   adj;
  Vec         m, mplain, u0[HYB_MAX_TRAJ], g, gu0;
  HybData     data[HYB_MAX_TRAJ], *current;
  /* the optimisation */
  PetscReal  *x, *G, *R;        /* unknowns, gradient (replicated); the members' results */
  PetscReal   J, J0, gnorm, t0;
  PetscInt    nhist, nevals;
  PetscReal  *hist;             /* epoch: J, |g|, seconds */
} Hybrid;

PETSC_INTERN PetscErrorCode HybSetUp(Hybrid *);
PETSC_INTERN PetscErrorCode HybInitialState(Hybrid *, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode HybTruth(Hybrid *, Vec, PetscInt64, PetscInt, Vec *, Vec);
PETSC_INTERN PetscErrorCode HybEvaluate(Hybrid *, const PetscReal[], PetscReal *, PetscReal[]);
PETSC_INTERN PetscErrorCode HybSetUnknowns(Hybrid *, const PetscReal[], Vec);
PETSC_INTERN PetscErrorCode HybDestroy(Hybrid *);
PETSC_INTERN PetscErrorCode HybTrain(Hybrid *);
PETSC_INTERN PetscErrorCode HybReport(Hybrid *);

#endif
