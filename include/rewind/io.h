/*
  HDF5 input and output of fields and small arrays, with checks that name the
  file, the dataset and the expected shape; XDMF so ParaView opens outputs.
*/
#ifndef REWIND_IO_H
#define REWIND_IO_H

#include <rewind/model.h>

PETSC_EXTERN PetscErrorCode RwIOCheckDataset(MPI_Comm, const char[], const char[], PetscInt, const PetscInt64[], PetscInt64[]);
PETSC_EXTERN PetscErrorCode RwIOHasDataset(MPI_Comm, const char[], const char[], PetscBool *);
PETSC_EXTERN PetscErrorCode RwIOReadArray(MPI_Comm, const char[], const char[], PetscInt, const PetscInt64[], PetscInt64[], PetscReal **);
PETSC_EXTERN PetscErrorCode RwIOReadAttribute(MPI_Comm, const char[], const char[], const char[], PetscReal *, PetscBool *);
PETSC_EXTERN PetscErrorCode RwIOReadAttributeInt(MPI_Comm, const char[], const char[], const char[], PetscInt64, PetscInt64, PetscInt64 *, PetscBool *);
PETSC_EXTERN PetscErrorCode RwIOReadField(RwModel, const char[], const char[], Vec);
PETSC_EXTERN PetscErrorCode RwIOFieldFindOutside(RwModel, Vec, PetscReal, PetscReal, PetscInt64 *, PetscInt64[3], PetscInt *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwIODAFindOutside(DM, Vec, PetscReal, PetscReal, PetscInt64 *, PetscInt64[3], PetscInt *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwIOWriteField(RwModel, PetscViewer, const char[], Vec);
PETSC_EXTERN PetscErrorCode RwIOXDMFNames(const char[], char[], char[], size_t);
PETSC_EXTERN PetscErrorCode RwIOWriteXDMF(RwModel, const char[], const char[], PetscInt, const char *const[]);
PETSC_EXTERN PetscErrorCode RwIOWriteXDMFSeries(RwModel, const char[], const char[], PetscInt, const PetscReal[], const char *const[], PetscInt, const char *const[]);
PETSC_EXTERN PetscErrorCode RwIOWriteMetadata(RwModel, PetscViewer);
/* What a dataset of an output holds: its path, its units (UDUNITS-style, "1" for a pure number) and a long name */
typedef struct {
  const char *path, *units, *long_name;
} RwIODatasetInfo;
PETSC_EXTERN PetscErrorCode RwIOWriteDatasetInfo(MPI_Comm, const char[], PetscInt, const RwIODatasetInfo[]);

/* An output file written whole or not at all, under a lock (src/io/output.c) */
typedef struct _n_RwOutputFile *RwOutputFile;
PETSC_EXTERN PetscErrorCode RwOutputFileBegin(MPI_Comm, const char[], PetscBool, const char[], RwOutputFile *, const char **);
PETSC_EXTERN PetscErrorCode RwOutputFileEnd(RwOutputFile *);

#endif
