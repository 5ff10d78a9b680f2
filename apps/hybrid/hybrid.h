/*
  rewind-hybrid: learn the reaction term of a reaction-diffusion system from
  observed trajectories, with a pointwise network inside heat (-rw_heat_nn)
  trained through the checkpointed adjoint.  The evaluation over the
  trajectories (the members of RwObservations), the optimisers (TAO; Adam is
  the TAO type "adam"), the journal and the history are the library's
  (RwProblem); the program keeps its problem and its outputs:

  problem.c  the embedded Fisher-KPP problem: its truth, its trajectories, the unknown with log kappa
  train.c    the optimiser's defaults and progress line, the report and name.h5
*/
#ifndef REWIND_APPS_HYBRID_H
#define REWIND_APPS_HYBRID_H

#include <rewind.h>
#include <petscdmda.h>
#include <petscdmredundant.h>

typedef struct {
  /* options */
  PetscInt   ntraj, every, epochs, grid;
  PetscInt64 nsteps, seed;                      /* nsteps and dt: the problem's, once it is made */
  PetscReal  rho, kappa, kappa0, dt, lr, decay; /* kappa0: the start of a learned kappa */
  PetscBool  adam, trainkappa, png;             /* png: -rw_output_png */
  char       output[PETSC_MAX_PATH_LEN], obswrite[PETSC_MAX_PATH_LEN];
  /* the problem */
  RwProblem  prob;
  RwModel    model, plain; /* the problem's (heat with the network, every rank); heat alone, for the truth */
  Vec        mplain;
  RwNN       nn;
  PetscInt   P, nx, ngroups; /* theta's size, the unknowns (P, + 1 with kappa) */
  PetscReal  logkmax;        /* log of the explicit scheme's largest stable uniform kappa, h^2 / (4 dt) */
  PetscReal  logkmin;        /* and a floor 1e-6 below it (a step to log kappa = -inf underflows kappa to 0) */
  PetscBool  fromfile;       /* the trajectories come from -rw_obs */
  /* the optimisation */
  Tao        tao;
  Vec        x;
  PetscReal *xs, *xs0; /* x on every rank: at the end, at the start */
} Hybrid;

PETSC_INTERN PetscErrorCode HybSetUp(Hybrid *);
PETSC_INTERN PetscErrorCode HybInitialState(Hybrid *, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode HybTruth(Hybrid *, Vec, PetscInt64, PetscInt, Vec *, Vec);
PETSC_INTERN PetscErrorCode HybSetUnknowns(Hybrid *, RwModel, const PetscReal[], Vec);
PETSC_INTERN PetscErrorCode HybDestroy(Hybrid *);
PETSC_INTERN PetscErrorCode HybSetUpTraining(Hybrid *);
PetscErrorCode HybTrain(Hybrid *);
PETSC_INTERN PetscErrorCode HybReport(Hybrid *);

#endif
