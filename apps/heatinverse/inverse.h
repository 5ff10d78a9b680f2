/*
  rewind-heat-inverse: recover a field of the heat model (the conductivity
  kappa, a source s, or the initial state u0) from point sensors observed at
  many times in several experiments, with PETSc TAO.  The evaluation over
  the experiments, its journal and its history are the library's (RwProblem);
  the program keeps its problem and its outputs:

  problem.c  the embedded default: truth, experiments, sensors, noisy data (RwObservations)
  files.c    the start (-rw_kappa0), the truth of a data file, the observations to a file
  output.c   the progress line, HDF5 + XDMF results
*/
#ifndef REWIND_APPS_INVERSE_H
#define REWIND_APPS_INVERSE_H

#include <rewind.h>
#include <petsctao.h>
#include <petscdmda.h>
#include <rewind/hdf5.h>

typedef enum {
  INV_KAPPA,
  INV_S,
  INV_U0
} InvTarget;
extern const char *const InvTargets[];

typedef struct {
  RwProblem      prob;
  RwModel        model;          /* the problem's (every rank) */
  RwObservations obs;            /* the experiments, embedded or from -rw_obs */
  InvTarget      target;
  PetscReal      noise;          /* the data misfit's expected value at the noise level: observations / 2 */
  Vec            x, xtrue, xinit; /* the unknown field: current, truth (or NULL), start */
  Vec            work;
  PetscReal      discrepancy;    /* -rw_inv_discrepancy tau: stop at misfit <= tau x its noise-level value (0: off) */
  PetscBool      atnoise;        /* the run stopped there */
} Inverse;

/* problem.c */
PetscErrorCode InvModelDefaults(RwModel, void *);
PetscErrorCode InvCreateDefault(Inverse *);

/* files.c */
PetscErrorCode InvReadStart(Inverse *, const char[], PetscReal, PetscReal, PetscBool);
PetscErrorCode InvReadTruth(Inverse *, const char[]);
PetscErrorCode InvWriteObservations(Inverse *, const char[]);

/* output.c */
PetscErrorCode InvMonitor(Tao, void *);
PetscErrorCode InvHistoryValue(Inverse *, const char[], PetscInt, PetscReal *);
PetscErrorCode InvRelativeError(RwProblem, Vec, PetscReal *, void *);
PetscErrorCode InvWriteOutput(Inverse *, const char[]);

#endif
