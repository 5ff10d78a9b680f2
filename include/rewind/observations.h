/*
  RwObservations: what a problem is fitted to, member by member (the
  experiments of an inverse problem, the shots of a survey, the trajectories
  of a training set): point sensors read at chosen steps, whole fields
  observed at chosen steps, point sources, and the known parameters of each
  member (a source field, an initial state).  Read from a file of one of
  rewind's schemas (doc/observations.md: "experiments", any model's sensors
  and fields; "shots", the wave model's surveys) or built by a program.
*/
#ifndef REWIND_OBSERVATIONS_H
#define REWIND_OBSERVATIONS_H

#include <rewind/objective.h>

/*S
  RwObservations - the data of every member of a problem

  Level: intermediate

.seealso: RwObservationsCreate(), RwObservationsLoad(), RwProblemSetObservations()
S*/
typedef struct _p_RwObservations *RwObservations;

PETSC_EXTERN PetscClassId RW_OBSERVATIONS_CLASSID;

/*E
  RwObservationsSchema - the layout of an observation file: experiments
  (/sensors, /times, /experiment_<e>/...: point sensors and fields of any
  model) or shots (/shot<i>/source, receivers, data: the wave model's)

  Level: intermediate
E*/
typedef enum {
  RW_OBS_EXPERIMENTS,
  RW_OBS_SHOTS
} RwObservationsSchema;
PETSC_EXTERN const char *const RwObservationsSchemas[];

/* the member a known parameter of every member is given for */
#define RW_OBS_ALL_MEMBERS (-1)

PETSC_EXTERN PetscErrorCode RwObservationsCreate(MPI_Comm, RwObservations *);
PETSC_EXTERN PetscErrorCode RwObservationsLoad(RwObservations, const char[]);
PETSC_EXTERN PetscErrorCode RwObservationsGetFile(RwObservations, const char *[]);
PETSC_EXTERN PetscErrorCode RwObservationsGetSchema(RwObservations, RwObservationsSchema *);
PETSC_EXTERN PetscErrorCode RwObservationsSetModelDefaults(RwObservations, RwModel);
PETSC_EXTERN PetscErrorCode RwObservationsSetNumMembers(RwObservations, PetscInt);
PETSC_EXTERN PetscErrorCode RwObservationsGetNumMembers(RwObservations, PetscInt *);
PETSC_EXTERN PetscErrorCode RwObservationsSetSteps(RwObservations, PetscInt, const PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwObservationsGetSteps(RwObservations, PetscInt *, const PetscInt64 *[]);
PETSC_EXTERN PetscErrorCode RwObservationsSetSensors(RwObservations, PetscInt, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObservationsGetSensors(RwObservations, PetscInt, PetscInt *, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode RwObservationsSetData(RwObservations, PetscInt, const PetscReal[], PetscReal);
PETSC_EXTERN PetscErrorCode RwObservationsGetData(RwObservations, PetscInt, const PetscReal *[], PetscReal *);
PETSC_EXTERN PetscErrorCode RwObservationsSetSources(RwObservations, PetscInt, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObservationsSetStates(RwObservations, PetscInt, PetscInt, const PetscInt64[], const Vec[]);
PETSC_EXTERN PetscErrorCode RwObservationsGetStates(RwObservations, PetscInt, PetscInt *, const PetscInt64 *[], const Vec *[]);
PETSC_EXTERN PetscErrorCode RwObservationsSetKnown(RwObservations, PetscInt, const char[], Vec);
PETSC_EXTERN PetscErrorCode RwObservationsSetKnownValues(RwObservations, PetscInt, const char[], PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwObservationsGetKnown(RwObservations, PetscInt, const char[], Vec *, const PetscReal *[], PetscBool *);
PETSC_EXTERN PetscErrorCode RwObservationsSetModel(RwObservations, RwModel);
PETSC_EXTERN PetscErrorCode RwObservationsSetUp(RwObservations, RwModel);
PETSC_EXTERN PetscErrorCode RwObservationsAddTerms(RwObservations, RwObjective);
PETSC_EXTERN PetscErrorCode RwObservationsApply(RwObservations, PetscInt, RwModel, RwObjective);
PETSC_EXTERN PetscErrorCode RwObservationsGetChecksum(RwObservations, uint64_t *);
PETSC_EXTERN PetscErrorCode RwObservationsWrite(RwObservations, RwModel, const char[]);
PETSC_EXTERN PetscErrorCode RwObservationsView(RwObservations, PetscViewer);
PETSC_EXTERN PetscErrorCode RwObservationsDestroy(RwObservations *);
/* synthetic data from a run of a known truth (issue 34: rewind-heat-inverse, rewind-4dvar) */
PETSC_EXTERN PetscErrorCode RwObservationsSynthesize(RwObservations, PetscInt, Vec, Vec, PetscReal, PetscBool, PetscInt64);

#endif
