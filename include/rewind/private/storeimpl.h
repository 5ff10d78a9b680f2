/* Private RwStore structure, for rewind and for new RwStore types. */
#ifndef REWIND_PRIVATE_STOREIMPL_H
#define REWIND_PRIVATE_STOREIMPL_H

#include <rewind/private/rwimpl.h>

PETSC_EXTERN PetscBool RwStoreRegisterAllCalled;

typedef struct _RwStoreOps *RwStoreOps;
struct _RwStoreOps {
  PetscErrorCode (*setfromoptions)(RwStore, PetscOptionItems *);
  PetscErrorCode (*setup)(RwStore);
  PetscErrorCode (*view)(RwStore, PetscViewer);
  PetscErrorCode (*destroy)(RwStore);
};

struct _p_RwStore {
  PETSCHEADER(struct _RwStoreOps);
  PetscBool setupcalled;
  void     *data; /* the type's own state */
};

#endif
