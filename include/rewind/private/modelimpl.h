/* Private RwModel structure, for rewind and for new model types. */
#ifndef REWIND_PRIVATE_MODELIMPL_H
#define REWIND_PRIVATE_MODELIMPL_H

#include <rewind/private/rwimpl.h>
#include <petscdmda.h>
#include <petscdmcomposite.h>
#include <petscdmredundant.h>

PETSC_EXTERN PetscBool RwModelRegisterAllCalled;
PETSC_EXTERN PetscErrorCode RwModelCreate_Heat(RwModel);

typedef struct _RwModelOps *RwModelOps;
struct _RwModelOps {
  PetscErrorCode (*setfromoptions)(RwModel, PetscOptionItems *);
  PetscErrorCode (*setup)(RwModel);
  PetscErrorCode (*view)(RwModel, PetscViewer);
  PetscErrorCode (*destroy)(RwModel);
  PetscErrorCode (*defaults)(RwModel, Vec, Vec, Vec);
  PetscErrorCode (*coordinate)(RwModel, PetscInt, PetscInt, PetscReal *);
  PetscErrorCode (*ghostrule)(RwModel, PetscInt, PetscBool *, PetscReal *);
  PetscErrorCode (*identity)(RwModel, char[], size_t); /* what makes two runs the same problem, beyond grid and dt */
  PetscErrorCode (*globaltolocal)(RwModel, Vec, Vec, PetscBool);
  PetscErrorCode (*setparameters)(RwModel, Vec);
  PetscErrorCode (*setdirection)(RwModel, Vec);
  PetscErrorCode (*step)(RwModel, PetscInt64, Vec, Vec);
  PetscErrorCode (*steptangent)(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
  PetscErrorCode (*adjointbegin)(RwModel);
  PetscErrorCode (*stepadjoint)(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
  PetscErrorCode (*adjointend)(RwModel, Vec);
  PetscErrorCode (*adjointaccumulators)(RwModel, PetscInt *, Vec[]); /* the gradient so far, on grids: a resumed reverse sweep reloads them */
};

struct _p_RwModel {
  PETSCHEADER(struct _RwModelOps);
  PetscBool          setupcalled;
  DM                 da;          /* the state's grid; built by the type's setup */
  DM                 pack;        /* parameters: fields on da, then scalars on a DMRedundant */
  PetscInt           nfields;     /* distributed parameter fields */
  PetscInt           nscalars;    /* replicated global scalars */
  const char *const *fieldnames;  /* e.g. kappa, s */
  const char *const *scalarnames; /* e.g. r */
  PetscReal          dt;
  PetscBool          dtset;       /* dt given by the user rather than chosen by the type */
  PetscReal          cellvolume;  /* h^d: the quadrature weight of one grid point */
  PetscBool          paramsset, directionset, inadjoint;
  PetscInt64         nforward, ntangent, nadjoint; /* steps taken, for the driver's counts */
  PetscInt64         firstbad[2]; /* first forward / adjoint step whose result was not finite; -1: none */
  void              *data;        /* the type's own state */
};

/* Records that the result of step k (forward: u_k+1, adjoint: lambda_k) holds a
   NaN or Inf; kernels detect it for free and RwModelCheckFinite() reports it */
static inline void RwModelFlagNonFinite(RwModel model, PetscInt which, PetscInt64 k, PetscReal probe)
{
  if (PetscUnlikely(PetscIsInfOrNanReal(probe)) && model->firstbad[which] < 0) model->firstbad[which] = k;
}

PETSC_EXTERN PetscErrorCode RwModelCreatePack_Private(RwModel);

#define RW_MODEL_MAX_ACCUMULATORS 16
PETSC_EXTERN PetscErrorCode RwModelGetAdjointAccumulators(RwModel, PetscInt *, Vec[]);

#endif
