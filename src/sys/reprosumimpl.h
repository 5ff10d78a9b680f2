/* The MPI datatype and operation behind RwReproSum, made once per package. */
#ifndef REWIND_SYS_REPROSUMIMPL_H
#define REWIND_SYS_REPROSUMIMPL_H
#include <petscsys.h>

PETSC_INTERN PetscErrorCode RwReproSumInitialize_Private(void);
PETSC_INTERN PetscErrorCode RwReproSumFinalize_Private(void);
#endif
