/*
  rewind-fwi (doc/wave.md): full-waveform inversion of the acoustic wave
  model, 2D or 3D, on the embedded problem or on files.

    problem.c    the embedded problem: true and starting models, the survey, noisy data
    files.c      observations (HDF5 schema, SEG-Y shot gathers) and models (HDF5, SEG-Y) from files
    grid.c       the models on the whole grid, the time step, the held region, model error
    inversion.c  the problem (RwProblem: the shots as members, summed on groups of ranks
                 in shot order, the journal, the history), frequency bands, TAO
    output.c     HDF5 + XDMF, the gather, the observation files
*/
#ifndef REWIND_FWI_H
#define REWIND_FWI_H

#include <rewind.h>
#include <petscdmda.h>
#include <petsctao.h>

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
  PetscInt  dim, n[3], nbl, nshots, iterations, nbands, nobs;
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
  RwProblem      prob;  /* the shots' evaluation, journal and history (RwProblem) */
  RwObservations shots; /* the survey as the problem's members */
  RwModel        model; /* the problem's parent model: layout, outputs */
  Vec            ctrue, cstart, mtrue, x, G, lo, hi, mask;
  PetscReal      J0;    /* the band's first J */
  PetscLogDouble t0;
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
PetscErrorCode FwiModelDefaults(RwModel, void *);
PetscErrorCode FwiCreateModel(Fwi *, MPI_Comm, RwModel *);
PetscErrorCode FwiTimeGrid(Fwi *);
PetscErrorCode FwiSetUpFields(Fwi *);
PetscErrorCode FwiModelError(Fwi *, Vec, PetscReal *);
/* inversion.c */
PetscErrorCode FwiSetUpProblem(Fwi *);
PetscErrorCode FwiRecordAll(Fwi *, Vec, PetscReal *);
PetscErrorCode FwiReadTaoOptions(Fwi *);
PetscErrorCode FwiInvert(Fwi *);
PetscErrorCode FwiDestroy(Fwi *);
/* output.c */
PetscErrorCode FwiWriteObservations(Fwi *);
PetscErrorCode FwiWriteOutputs(Fwi *);

#endif
