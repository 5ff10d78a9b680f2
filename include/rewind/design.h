/*
  RwDesignMap: a design density rho in [0, 1] (a field) to a conductivity,
  through a Helmholtz filter (a KSP solve, its adjoint the transpose solve),
  an optional smoothed Heaviside projection and SIMP, kmin + rp^p (kmax - kmin);
  forward, tangent and adjoint (src/design/designmap.c, doc/control.md).
*/
#ifndef REWIND_DESIGN_H
#define REWIND_DESIGN_H

#include <rewind/model.h>

/*S
  RwDesignMap - density to conductivity for topology optimisation: filter, projection, SIMP

  Level: intermediate
S*/
typedef struct _n_RwDesignMap *RwDesignMap;

PETSC_EXTERN PetscErrorCode RwDesignMapCreate(RwModel, RwDesignMap *);
PETSC_EXTERN PetscErrorCode RwDesignMapSetParameters(RwDesignMap, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode RwDesignMapSetFromOptions(RwDesignMap);
PETSC_EXTERN PetscErrorCode RwDesignMapSetUp(RwDesignMap);
PETSC_EXTERN PetscErrorCode RwDesignMapApply(RwDesignMap, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwDesignMapApplyTangent(RwDesignMap, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwDesignMapApplyAdjoint(RwDesignMap, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwDesignMapGetFiltered(RwDesignMap, Vec *, Vec *);
PETSC_EXTERN PetscErrorCode RwDesignMapDestroy(RwDesignMap *);

#endif
