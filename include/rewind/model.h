/* RwModel: the physics: steps a state on a distributed grid forward, and its tangent and adjoint. */
#ifndef REWIND_MODEL_H
#define REWIND_MODEL_H

#include <petscsys.h>

/*S
  RwModel - the physics: steps a state on a distributed grid forward, and its tangent and adjoint.

  Level: beginner

.seealso: RwModelCreate(), RwModelSetType(), RwModelType
S*/
typedef struct _p_RwModel *RwModel;

/*J
  RwModelType - name of a RwModel implementation, chosen with -rw_model_type

  Level: beginner

.seealso: RwModelSetType(), RwModelRegister()
J*/
typedef const char *RwModelType;

PETSC_EXTERN PetscFunctionList RwModelList;
PETSC_EXTERN PetscErrorCode    RwModelRegister(const char[], PetscErrorCode (*)(RwModel));
PETSC_EXTERN PetscErrorCode    RwModelRegisterAll(void);

PETSC_EXTERN PetscErrorCode RwModelCreate(MPI_Comm, RwModel *);
PETSC_EXTERN PetscErrorCode RwModelSetType(RwModel, RwModelType);
PETSC_EXTERN PetscErrorCode RwModelGetType(RwModel, RwModelType *);
PETSC_EXTERN PetscErrorCode RwModelSetFromOptions(RwModel);
PETSC_EXTERN PetscErrorCode RwModelSetUp(RwModel);
PETSC_EXTERN PetscErrorCode RwModelView(RwModel, PetscViewer);
PETSC_EXTERN PetscErrorCode RwModelDestroy(RwModel *);

#endif
