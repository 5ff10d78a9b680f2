/*
  rewind-fwi (doc/wave.md): full-waveform inversion of the acoustic wave
  model, 2D or 3D, on the embedded problem or on files.

    problem.c    the embedded problem: true and starting models, the survey, noisy data
    files.c      observations (HDF5 schema, SEG-Y shot gathers) and models (HDF5, SEG-Y) from files
    grid.c       the models on the whole grid, the time step, the held region, model error
    inversion.c  shot groups, J and dJ/dm in shot order, frequency bands, TAO, the journal
    output.c     HDF5 + XDMF, the gather, the observation files
*/
#ifndef REWIND_FWI_H
#define REWIND_FWI_H

#include <rewind.h>
#include <petscdmda.h>
#include <petsctao.h>
#include "../common/journal.h"

#define FWI_MAX_FILES 256

/* A survey: per shot a source, its own receivers and their traces */
typedef struct {
  PetscInt   dim, nshots, nt, ntotal; /* ntotal: the receivers of all shots */
  PetscReal  dt;
  PetscReal *src;       /* src[s * dim + d] */
  PetscInt  *nrec, *off; /* shot s: nrec[s] receivers from receiver off[s] on */
  PetscReal *rec;       /* rec[(off[s] + r) * dim + d] */
  PetscReal *data;      /* shot s: data + off[s] * nt, [k * nrec[s] + r] */
} FwiSurvey;

/* A velocity model as given: a physical region or the whole grid, x fastest, depth last */
typedef struct {
  PetscInt   shape[3];
  PetscReal *c;
} FwiVelocity;

typedef struct {
  /* options */
  PetscInt  dim, n[3], nbl, nshots, iterations, nbands, groups, nobs;
  PetscBool gridset, spacingset, shotsset, dtset, nblset, originset;
  PetscBool png; /* -rw_output_png */
  char      originfrom[PETSC_MAX_PATH_LEN + 32]; /* who set the origin: -rw_fwi_origin or a model file */
  PetscReal h, origin[3], recspacing, offmax, record, bands[8], noise, smooth, cmin, cmax, water;
  char     *obs[FWI_MAX_FILES];
  char      start[PETSC_MAX_PATH_LEN], truth[PETSC_MAX_PATH_LEN], obswrite[PETSC_MAX_PATH_LEN], output[PETSC_MAX_PATH_LEN];
  /* the problem */
  FwiSurvey   sv;
  FwiVelocity vtrue, vstart;
  PetscBool   hastrue;
  PetscReal  *dband, *wavelet;
  PetscInt    band;
  /* the parent model (layout, outputs) and this group's */
  RwModel     model, gmodel;
  RwObjective obj;
  RwAdjoint   adj;
  RwEnsemble  e;
  RwAppJournal journal; /* the evaluation journal (-rw_fwi_state, -rw_restart) */
  PetscInt    ngroups;
  Vec        *W;        /* a round's shot gradients on the parent grid, one a group (RwAppJournalRound()) */
  Vec         ctrue, cstart, mtrue, x, mg, u0, gg, gu0, gi, G, lo, hi, mask, grad0;
  /* history */
  PetscInt       it, nhist;
  PetscReal      J0, hist[4 * 1024];
  PetscLogDouble t0;
  PetscInt64     fsteps, gradients; /* forward steps and shot gradients computed */
  PetscInt64     replayed;          /* shot gradients taken from the journal (-rw_restart) */
  PetscMPIInt    subrank;
} Fwi;

/* problem.c */
PetscErrorCode FwiEmbeddedModels(Fwi *);
PetscErrorCode FwiEmbeddedSurvey(Fwi *);
PetscErrorCode FwiAddNoise(Fwi *);
PetscErrorCode FwiSurveyAllocate(FwiSurvey *, PetscInt, PetscInt, const PetscInt[], PetscInt);
PetscErrorCode FwiSurveyDestroy(FwiSurvey *);
/* files.c */
PetscErrorCode FwiReadSurvey(Fwi *);
PetscErrorCode FwiReadVelocity(Fwi *, const char[], const char[], FwiVelocity *);
PetscErrorCode FwiCheckSurvey(Fwi *);
PetscErrorCode FwiFirstPoint(Fwi *, const FwiVelocity *, PetscReal[3]);
PetscErrorCode FwiSetOrigin(Fwi *, const char[], const PetscReal[], PetscReal);
/* grid.c */
PetscErrorCode FwiCreateModel(Fwi *, MPI_Comm, RwModel *);
PetscErrorCode FwiTimeGrid(Fwi *);
PetscErrorCode FwiSetUpFields(Fwi *);
PetscErrorCode FwiModelError(Fwi *, Vec, PetscReal *);
/* inversion.c */
PetscErrorCode FwiSetUpGroups(Fwi *);
PetscErrorCode FwiRecordAll(Fwi *, Vec, PetscReal *);
PetscErrorCode FwiInvert(Fwi *);
PetscErrorCode FwiDestroy(Fwi *);
/* output.c */
PetscErrorCode FwiWriteObservations(Fwi *);
PetscErrorCode FwiWriteOutputs(Fwi *);

#endif
