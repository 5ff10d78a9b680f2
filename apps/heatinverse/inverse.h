/*
  rewind-heat-inverse: recover a field of the heat model (the conductivity
  kappa, a source s, or the initial state u0) from point sensors observed at
  many times in several experiments, with PETSc TAO.

  problem.c  the embedded default: truth, experiments, sensors, noisy data
  obsfile.c  observations from, and to, an HDF5 file (doc/inverse.md)
  output.c   results: HDF5 + XDMF, per-iteration history
  ensemble.c the experiments of an evaluation, on groups of ranks (-rw_ensemble_groups)
  journal.c  the description of the problem for the evaluation journal
             (apps/common/journal.c) that makes a run resumable (-rw_restart)
*/
#ifndef REWIND_APPS_INVERSE_H
#define REWIND_APPS_INVERSE_H

#include <rewind.h>
#include <petsctao.h>
#include <petscdmda.h>
#include <rewind/hdf5.h>
#include "../common/journal.h"

#define INV_MAXEXP 16

typedef enum {
  INV_KAPPA,
  INV_S,
  INV_U0
} InvTarget;
extern const char *const InvTargets[];

typedef struct {
  Vec        m;     /* parameters of this experiment: kappa, its source, r */
  Vec        u0;    /* its initial state */
  PetscReal *data;  /* observations, data[t * nsensors + s] */
  PetscReal  sigma; /* their noise level */
} InvExperiment;

typedef struct {
  PetscInt   n;
  PetscReal *J, *misfit, *gnorm, *error, *seconds;
} InvHistory;

/* Who solves the experiments (ensemble.c): the app's own objects with one
   group, or each group's own on its communicator */
typedef struct {
  RwEnsemble  ens;
  PetscInt    ngroups;
  RwModel     model;
  RwObjective obj;
  RwAdjoint   adj;
  Vec         m[INV_MAXEXP], u0[INV_MAXEXP]; /* the group's experiments' (NULL for the others') */
  Vec         x, w, g, gu0;                   /* on the group: the iterate, a contribution, gradients */
  Vec         W[INV_MAXEXP];                  /* on all ranks: a round's contributions */
} InvGroup;

/* What the program sets on its models before their options (problem.c) */
typedef struct {
  PetscInt   dim, M[3];
  PetscInt64 steps;
  PetscReal  dt;
} InvDefaults;

typedef struct {
  RwModel       model;
  RwObjective   obj;
  RwAdjoint     adj;
  InvTarget     target;
  PetscInt      nexp;
  InvExperiment exp[INV_MAXEXP];
  PetscInt      nsensors, ntimes, nobs;
  PetscReal    *coords;
  PetscInt64   *steps;
  Vec           x, xtrue, xinit;  /* the unknown field: current, truth (or NULL), start */
  Vec           g, gu0, gx;       /* work: a parameter gradient, a state gradient, a field */
  RwRegType     reg;
  PetscReal     alpha, tveps;
  PetscReal     misfit, R;        /* of the last evaluation */
  InvHistory    hist;
  PetscLogDouble t0;
  RwAppJournal   journal;
  InvGroup       grp;
  InvDefaults    defaults;
  PetscReal      discrepancy;     /* -rw_inv_discrepancy tau: stop at misfit <= tau x its noise-level value (0: off) */
  PetscBool      atnoise;         /* the run stopped there */
} Inverse;

/* problem.c */
PetscErrorCode InvReadDefaults(InvDefaults *, const char[]);
PetscErrorCode InvModelDefaults(const InvDefaults *, RwModel);
PetscErrorCode InvSetActive(Inverse *, RwModel);
PetscErrorCode InvCreateDefault(Inverse *, PetscInt64);
PetscErrorCode InvSynthesize(Inverse *, PetscInt64);
PetscErrorCode InvFieldOf(Inverse *, Vec, PetscInt, Vec *);
PetscErrorCode InvRestoreFieldOf(Inverse *, Vec, PetscInt, Vec *);

/* obsfile.c */
PetscErrorCode InvReadObservations(Inverse *, const char[], PetscInt64);
PetscErrorCode InvWriteObservations(Inverse *, const char[]);
PetscErrorCode InvReadStart(Inverse *, const char[], PetscReal, PetscReal, PetscBool);

/* output.c */
PetscErrorCode InvHistoryRecord(Inverse *, PetscInt, PetscReal, PetscReal);
PetscErrorCode InvWriteOutput(Inverse *, const char[]);

/* ensemble.c */
PetscErrorCode InvGroupSetUp(Inverse *);
PetscErrorCode InvEvaluate(Inverse *, Vec, Vec);
PetscErrorCode InvGroupDestroy(Inverse *);

/* journal.c */
PetscErrorCode InvJournalSetUp(Inverse *, Tao, const char[]);

#endif
