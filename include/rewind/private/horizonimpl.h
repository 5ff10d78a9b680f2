/* Developer helpers of src/horizon (issue 34): Gram matrices of tangents summed exactly,
   the Cholesky QR that orthonormalises them after one reduction (src/horizon/gram.c),
   and NILSS's least-squares system (src/horizon/nilsskkt.c). */
#ifndef REWIND_HORIZONIMPL_H
#define REWIND_HORIZONIMPL_H

#include <rewind/private/rwimpl.h>
#include <rewind/horizon.h>

/* The packed upper Gram matrix of p vectors: entry (j, l), j <= l, in slot l (l + 1) / 2 + j */
#define RwGramSlots(p)    ((p) * ((p) + 1) / 2)
#define RwGramIndex(j, l) ((l) * ((l) + 1) / 2 + (j))

PETSC_EXTERN PetscErrorCode RwHorizonGramAdd(RwReproSum, PetscInt, PetscInt, Vec[]);
PETSC_EXTERN PetscErrorCode RwHorizonDotsAdd(RwReproSum, PetscInt, Vec, PetscInt, Vec[]);
PETSC_EXTERN PetscErrorCode RwHorizonCholQR(PetscInt, const PetscReal[], Vec[], PetscReal[], PetscInt *);
PETSC_EXTERN PetscErrorCode RwHorizonShadowingSolveKKT(PetscInt, PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], const PetscReal[], PetscReal[]);

#endif
