/*
  The heat model: du/dt = div(kappa grad u) - r u + s on the unit box in 1, 2
  or 3 dimensions, theta-scheme in time.  Shared by heat.c (set-up, options,
  defaults), heatstep.c (the three forms of a step) and heatkernels.c (the
  point kernels, forward, tangent and adjoint side by side).
*/
#ifndef REWIND_HEATIMPL_H
#define REWIND_HEATIMPL_H

#include <rewind/private/modelimpl.h>
#include <petscksp.h>

typedef enum {
  RW_HEAT_PERIODIC,
  RW_HEAT_DIRICHLET,
  RW_HEAT_NEUMANN
} RwHeatBC;
PETSC_INTERN const char *const RwHeatBCs[];

/* A box of grid indices: owned points, or owned plus ghosts */
typedef struct {
  PetscInt s[3]; /* first index per direction */
  PetscInt n[3]; /* extent per direction (1 in unused directions) */
} RwHeatBox;

/* One array seen from the point a row starts at: neighbours at +-1, +-sy, +-sz */
typedef struct {
  const PetscScalar *p;
  PetscInt           sy, sz;
} RwHeatRow;

/* What one pass over the grid computes; the kernels read it row by row */
typedef struct {
  PetscInt     dim;
  PetscReal    ih2[3];  /* 1/h^2 per direction */
  PetscReal    r;       /* decay rate */
  PetscReal    c;       /* y = x + c (div(kappa grad x) - r x) + ... */
  PetscReal    ca, cb;  /* weights of the two states a, b in parameter terms */
  PetscReal    cs;      /* weight of the source (forward, tangent) or of ds gradient (adjoint) */
  PetscReal    dr;      /* tangent: direction of r */
  PetscBool    useb;    /* state b takes part (implicit schemes) */
  PetscBool    usek;    /* tangent: kappa direction is nonzero somewhere */
} RwHeatPass;

typedef struct {
  PetscInt  dim;
  PetscInt  M[3];        /* grid points per direction, 1 beyond dim */
  RwHeatBC  bc[3];
  PetscReal h[3], ih2[3];
  PetscReal theta;
  RwHeatBox own, ghost;  /* this rank's owned and ghosted boxes */

  /* parameters, from RwModelSetParameters() */
  Vec              kappa;   /* ghosted, boundary ghosts mirrored */
  Vec              s;       /* owned */
  PetscReal        r;
  PetscBool        haveparams;  /* parameters were set before: compare to decide reassembly */
  PetscReal        assembleddt; /* dt the operator P was assembled with; 0 before the first */
  PetscReal        dtlimit;     /* stability limit for these parameters (theta < 1/2) */

  /* direction, from RwModelSetDirection() */
  Vec       dkappa, ds;
  PetscReal dr;
  PetscBool dkappazero;

  /* adjoint accumulators: per point, so each point's sums do not depend on the decomposition */
  Vec gkappa, gs, gr;

  /* work: ghosted copies of the states a pass reads, and the implicit solver.
     A pass needs in its ghosted copies only the ghosts and the two owned
     layers next to the box's edges (the interior is read from the owned
     array): halo[i] moves the ghosts of input i, alone, so a step does not
     copy the whole state as DMGlobalToLocal would; one scatter per input,
     because PETSc 3.18 cannot have one scatter in flight twice */
  VecScatter halo[3];
  Vec        work[3];
  Vec rhs, mu;
  Mat P;   /* I - theta dt (div kappa grad - r) */
  KSP ksp;
} RwModel_Heat;

/* heatkernels.c: one pass of each form over a set of rows */
PETSC_INTERN void RwHeatRowForward(const RwHeatPass *, PetscInt, RwHeatRow, RwHeatRow, const PetscScalar *, PetscScalar *, PetscReal *);
PETSC_INTERN void RwHeatRowTangent(const RwHeatPass *, PetscInt, RwHeatRow, RwHeatRow, RwHeatRow, RwHeatRow, RwHeatRow, const PetscScalar *, PetscScalar *, PetscReal *);
PETSC_INTERN void RwHeatRowAdjoint(const RwHeatPass *, PetscInt, RwHeatRow, RwHeatRow, RwHeatRow, RwHeatRow, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscReal *);

/* heat.c */
PETSC_INTERN PetscErrorCode RwHeatGlobalToLocal(RwModel, Vec, Vec, PetscBool);
PETSC_INTERN PetscErrorCode RwHeatHaloBegin(RwModel, PetscInt, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatHaloEnd(RwModel, PetscInt, Vec, Vec);

/* heatstep.c */
PETSC_INTERN PetscErrorCode RwHeatSetParameters(RwModel, Vec);
PETSC_INTERN PetscErrorCode RwHeatSetDirection(RwModel, Vec);
PETSC_INTERN PetscErrorCode RwHeatStep(RwModel, PetscInt64, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatStepTangent(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatAdjointBegin(RwModel);
PETSC_INTERN PetscErrorCode RwHeatStepAdjoint(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatAdjointEnd(RwModel, Vec);
PETSC_INTERN PetscErrorCode RwHeatAdjointAccumulators(RwModel, PetscInt *, Vec[]);
PETSC_INTERN PetscErrorCode RwHeatDestroyWork(RwModel);

#endif
