/* Private RwModel structure, for rewind and for new RwModel types. */
#ifndef REWIND_PRIVATE_MODELIMPL_H
#define REWIND_PRIVATE_MODELIMPL_H

#include <rewind/private/rwimpl.h>

PETSC_EXTERN PetscBool RwModelRegisterAllCalled;

typedef struct _RwModelOps *RwModelOps;
struct _RwModelOps {
  PetscErrorCode (*setfromoptions)(RwModel, PetscOptionItems *);
  PetscErrorCode (*setup)(RwModel);
  PetscErrorCode (*view)(RwModel, PetscViewer);
  PetscErrorCode (*destroy)(RwModel);
};

struct _p_RwModel {
  PETSCHEADER(struct _RwModelOps);
  PetscBool setupcalled;
  void     *data; /* the type's own state */
};

#endif
