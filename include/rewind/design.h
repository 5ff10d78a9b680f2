/*
  RwDesignMap: a design density rho in [0, 1] (a field) to a conductivity,
  through a Helmholtz filter (a fixed-degree Chebyshev iteration, symmetric: its
  own adjoint; the same bits on any rank count),
  an optional smoothed Heaviside projection and SIMP, kmin + rp^p (kmax - kmin);
  forward, tangent and adjoint (src/design/designmap.c, doc/control.md).
*/
#ifndef REWIND_DESIGN_H
#define REWIND_DESIGN_H

#include <rewind/model.h>
#include <petsctao.h>

/*S
  RwDesignMap - density to conductivity for topology optimisation: filter, projection, SIMP

  Level: intermediate
S*/
typedef struct _n_RwDesignMap *RwDesignMap;

PETSC_EXTERN PetscErrorCode RwDesignMapCreate(RwModel, RwDesignMap *);
PETSC_EXTERN PetscErrorCode RwDesignMapSetParameters(RwDesignMap, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode RwDesignMapSetProjection(RwDesignMap, PetscReal);
PETSC_EXTERN PetscErrorCode RwDesignMapGetParameters(RwDesignMap, PetscReal *, PetscReal *, PetscReal *, PetscReal *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwDesignMapSetFromOptions(RwDesignMap);
PETSC_EXTERN PetscErrorCode RwDesignMapSetUp(RwDesignMap);
PETSC_EXTERN PetscErrorCode RwDesignMapApply(RwDesignMap, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwDesignMapApplyTangent(RwDesignMap, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwDesignMapApplyAdjoint(RwDesignMap, Vec, Vec);
PETSC_EXTERN PetscErrorCode RwDesignMapGetFiltered(RwDesignMap, Vec *, Vec *);
PETSC_EXTERN PetscErrorCode RwDesignMapGetFilterDegree(RwDesignMap, PetscInt *);
PETSC_EXTERN PetscErrorCode RwDesignMapGetIdentity(RwDesignMap, char[], size_t);
PETSC_EXTERN PetscErrorCode RwDesignMapDestroy(RwDesignMap *);

/* Optimality criteria (the 88-line code's volume-constrained update) as a TAO type, registered by rewind: -tao_type oc */
#define TAOOC "oc"
PETSC_EXTERN PetscErrorCode TaoCreate_OC(Tao);
PETSC_EXTERN PetscErrorCode TaoOCSetVolume(Tao, Vec, PetscReal);
PETSC_EXTERN PetscErrorCode TaoOCSetParameters(Tao, PetscReal, PetscReal, PetscReal);

#endif
