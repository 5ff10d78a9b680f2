/* Private RwObservations structure. */
#ifndef REWIND_PRIVATE_OBSERVATIONSIMPL_H
#define REWIND_PRIVATE_OBSERVATIONSIMPL_H

#include <rewind/private/objectiveimpl.h>
#include <rewind/observations.h>

struct _RwObservationsOps {
  PetscErrorCode (*view)(RwObservations, PetscViewer);
};

/* A known parameter: a field (or u0) on the parent model's grid, or a block's values */
typedef struct {
  char       name[64];
  PetscInt   member; /* RW_OBS_ALL_MEMBERS or one member */
  Vec        field;
  PetscReal *values;
  PetscInt   n;
} RwObsKnown;

/* One member's data; coords NULL: the shared sensors */
typedef struct {
  PetscInt    nsensors;
  PetscReal  *coords;
  PetscReal  *data;  /* [t * nsensors + s], t in the order of the steps as given */
  PetscReal   sigma;
  PetscInt    nsrc;
  PetscReal  *src;   /* [i * dim + d] */
  PetscInt    nstates;
  PetscInt64 *statesteps;
  Vec        *states; /* on the parent model's field grid */
} RwObsMember;

struct _p_RwObservations {
  PETSCHEADER(struct _RwObservationsOps);
  RwObservationsSchema schema;
  char                 file[PETSC_MAX_PATH_LEN]; /* "": built by a program */
  PetscBool            setupcalled;
  PetscInt             nmembers, dim;
  /* a file's root attributes, read by RwObservationsLoad(): the model's defaults */
  PetscInt             fdim, grid[3];
  PetscInt64           fsteps;
  PetscReal            fdt;
  /* the steps the point sensors are read at, shared by every member */
  PetscInt             ntimes;
  PetscInt64          *steps;
  PetscInt             nsensors; /* the shared sensors */
  PetscReal           *coords;
  RwObsMember         *m;
  PetscInt             nknown, maxknown;
  RwObsKnown          *known;
  RwModel              model; /* the parent model the fields live on (after set-up) */
};

PETSC_INTERN PetscErrorCode RwObservationsLoadExperiments_Private(RwObservations);
PETSC_INTERN PetscErrorCode RwObservationsSetUpExperiments_Private(RwObservations);
PETSC_INTERN PetscErrorCode RwObservationsWriteExperiments_Private(RwObservations, const char[]);
PETSC_INTERN PetscErrorCode RwObservationsLoadShots_Private(RwObservations);
PETSC_INTERN PetscErrorCode RwObservationsSetUpShots_Private(RwObservations);
PETSC_INTERN PetscErrorCode RwObservationsWriteShots_Private(RwObservations, const char[]);
PETSC_INTERN PetscErrorCode RwObservationsCheckPoints_Private(RwObservations, const char[], PetscInt, const PetscReal[]);

/* Sensors inside the model's domain; what: how the message names them */
PETSC_INTERN PetscErrorCode RwSensorsCheckDomain(RwModel, const char[], PetscInt, const PetscReal[]);

#endif
