/* Private to rewind and to code that extends it (new models, stores). */
#ifndef REWIND_PRIVATE_RWIMPL_H
#define REWIND_PRIVATE_RWIMPL_H

#include <rewind.h>
#include <petsc/private/petscimpl.h>
#include <rewind/hdf5.h>

/* Log events shown by -log_view; registered in RwInitializePackage() */
PETSC_EXTERN PetscLogEvent RW_Forward, RW_Tangent, RW_Adjoint, RW_Reduce;
PETSC_EXTERN PetscLogEvent RW_StoreWrite, RW_StoreRead, RW_StoreSetUp;

/* Constructor registered under type, or an error listing the known types */
PETSC_EXTERN PetscErrorCode RwTypeFind(PetscObject, PetscFunctionList, const char[], const char[], void (**)(void));

/* The items in which two checkpoint identities differ ("name value; ...") */
PETSC_EXTERN void RwIdentityDiff(const char[], const char[], char[], size_t);

/* "ck.h5" tagged m3: "ck-m3.h5", the files of an ensemble's members (src/sys/filename.c) */
#define RW_FILE_TAG_LEN 64
PETSC_EXTERN PetscErrorCode RwFileNameTag(const char[], const char[], char[], size_t);
PETSC_EXTERN PetscErrorCode RwFileTagCheck(MPI_Comm, const char[]);
/* why a write failed, as the file system tells: read-only, or full (src/sys/filename.c) */
PETSC_EXTERN void RwFileSystemReason(const char[], char[], size_t);

/* Vectors whose arrays start at staggered offsets within a page (src/sys/vecstagger.c) */
PETSC_EXTERN size_t         RwStaggerStride(size_t);
PETSC_EXTERN PetscErrorCode RwVecCreateOnArray(Vec, PetscScalar *, PetscContainer, Vec *);
PETSC_EXTERN PetscErrorCode RwVecDuplicateStaggered(Vec, Vec *);
PETSC_EXTERN PetscErrorCode RwDMCreateVecStaggered(DM, PetscBool, Vec *);
/* Huge pages for those arrays of 2 MiB or more (src/sys/vecstagger.c; -rw_hugepages) */
PETSC_EXTERN PetscErrorCode RwHugePagesSet(PetscBool);
PETSC_EXTERN PetscErrorCode RwHugePagesGet(PetscBool *, char[], size_t, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode RwHugePagesView(PetscViewer);

#endif
