/*
  The heat model: du/dt = div(kappa grad u) - r u + s [+ N_theta(u)] on the
  unit box in 1, 2 or 3 dimensions, theta-scheme in time; the optional learned
  reaction N_theta (a pointwise network, RwNN) is always explicit.  Shared by heat.c (set-up, options,
  defaults), heatstep.c (the three forms of a step) and heatkernels.c (the
  point kernels, forward, tangent and adjoint side by side).
*/
#ifndef REWIND_HEATIMPL_H
#define REWIND_HEATIMPL_H

#include <rewind/private/stencilimpl.h>
#include <rewind/private/nnimpl.h>

typedef enum {
  RW_HEAT_PERIODIC,
  RW_HEAT_DIRICHLET,
  RW_HEAT_NEUMANN
} RwHeatBC;
PETSC_INTERN const char *const RwHeatBCs[];

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
  PetscBool    kappaonly; /* adjoint: only kappa's gradient is wanted (s and r inactive) */
  RwKernelISA  isa;       /* the instruction set the rows run with (the model's) */
} RwHeatPass;

#define RW_HEAT_MAX_HEATERS 64 /* actuators (heaters and flux sides) of one model */

typedef struct {
  PetscInt  dim;
  RwHeatBC  bc[3];
  PetscReal ih2[3]; /* 1/h^2 per direction, 0 beyond dim */
  PetscReal theta;
  PetscBool amplitude; /* the source has a per-step amplitude a_k (a time-indexed block): s(t_k) = a_k s */
  char      ksptype[64], pctype[64]; /* the implicit solver's defaults before -ksp_type, -pc_type */
  PetscReal rtol;                    /* and -ksp_rtol */
  RwStencil st;     /* the grid, its halos and boundary ghosts */

  /* the learned reaction N_theta(u), with -rw_heat_nn: weights in block "theta" */
  PetscBool usenn;
  RwNN      nn;
  PetscInt  nnblock;
  PetscReal *nnrow;          /* one row of points' N (forward) or dN (tangent) */
  /* the adjoint's tiles (heatnn.c): this rank's run of natural-ordering points */
  PetscInt   nnfirst, nnpts;
  VecScatter nnscatter;      /* the state's layout to the tiles' (NULL on one rank) */
  Vec        nnu, nnmu, nnxbar; /* u_k, mu and N_u^T (dt mu) at the tiles' points */
  PetscReal *nnybar, *nnsum; /* one tile's dt mu, and its weight sums */

  /* actuators (heatactuators.c): heaters, then flux sides; amplitudes in block "control" */
  PetscInt  npos, nwidth;  /* heater coordinates and widths given */
  PetscReal heaterpos[3 * RW_HEAT_MAX_HEATERS], heaterwidth[RW_HEAT_MAX_HEATERS];
  PetscInt  fluxside[6];   /* 2 d + 0 (low side) or 1 (high side) */
  PetscInt  nheaters, nflux, nact; /* resolved at set-up */
  PetscInt  cnodes;        /* 0: a value a step; >= 2: piecewise linear on cnodes nodes */
  PetscInt  actblock;
  Vec      *foot;          /* the footprints b_j */
  PetscReal *actw;         /* dt a_j(k) of the step being taken */

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
  Vec sw;           /* the amplitude's adjoint: dt s_i mu_i per point, summed exactly */

  /* the implicit solver */
  Vec rhs, mu;
  Mat P;   /* I - theta dt (div kappa grad - r) */
  KSP ksp;
} RwModel_Heat;

/* heatkernels.c: one pass of each form over a set of rows */
PETSC_INTERN void RwHeatRowForward(const RwHeatPass *, PetscInt, RwStencilRow, RwStencilRow, const PetscScalar *, PetscScalar *, PetscReal *);
PETSC_INTERN void RwHeatRowTangent(const RwHeatPass *, PetscInt, RwStencilRow, RwStencilRow, RwStencilRow, RwStencilRow, RwStencilRow, const PetscScalar *, PetscScalar *, PetscReal *);
PETSC_INTERN void RwHeatRowAdjoint(const RwHeatPass *, PetscInt, RwStencilRow, RwStencilRow, RwStencilRow, RwStencilRow, PetscScalar *, PetscScalar *, PetscScalar *, PetscScalar *, PetscReal *);

/* heatkernels.c: the network term dt N_theta(u_k) on one row and its tangent (the adjoint: heatnn.c) */
typedef struct {
  RwNN             nn;
  const PetscReal *theta, *dtheta;
  PetscReal        dt;
  PetscReal       *row;
} RwHeatNNRow;
PETSC_INTERN void RwHeatRowNNForward(RwHeatNNRow *, PetscInt, const PetscScalar *, PetscScalar *, PetscReal *);
PETSC_INTERN void RwHeatRowNNTangent(RwHeatNNRow *, PetscInt, const PetscScalar *, const PetscScalar *, PetscScalar *, PetscReal *);
PETSC_INTERN RwHeatNNRow RwHeatNNRowSetUp(RwModel, PetscBool);

/* heatnn.c: the network term's adjoint over fixed tiles of the natural ordering */
PETSC_INTERN PetscErrorCode RwHeatNNTilesSetUp(RwModel);
PETSC_INTERN PetscErrorCode RwHeatNNTilesDestroy(RwModel);
PETSC_INTERN PetscErrorCode RwHeatNNAdjoint(RwModel, Vec, Vec, Vec, PetscReal *);

/* heatstep.c */
PETSC_INTERN PetscErrorCode RwHeatSetParameters(RwModel, Vec);
PETSC_INTERN PetscErrorCode RwHeatSetDirection(RwModel, Vec);
PETSC_INTERN PetscErrorCode RwHeatStep(RwModel, PetscInt64, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatStepTangent(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatAdjointBegin(RwModel);
PETSC_INTERN PetscErrorCode RwHeatStepAdjoint(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwHeatAdjointEnd(RwModel, Vec);
PETSC_INTERN PetscErrorCode RwHeatAdjointAccumulators(RwModel, PetscInt *, Vec[]);

/* heatactuators.c: heaters and boundary fluxes driven by the block "control", three forms */
PETSC_INTERN PetscErrorCode RwHeatActuatorsSetFromOptions(RwModel, PetscOptionItems *);
PETSC_INTERN PetscErrorCode RwHeatActuatorsSetUp(RwModel);
PETSC_INTERN PetscErrorCode RwHeatActuatorsSetUpVectors(RwModel);
PETSC_INTERN PetscErrorCode RwHeatActuatorsDestroy(RwModel);
PETSC_INTERN PetscErrorCode RwHeatActuatorsIdentity(RwModel, char[], size_t);
PETSC_INTERN PetscErrorCode RwHeatActuatorsView(RwModel, PetscViewer);
PETSC_INTERN PetscErrorCode RwHeatActuatorsCompose(RwModel, PetscBool);
PETSC_INTERN PetscErrorCode RwHeatActuatorsForward(RwModel, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode RwHeatActuatorsTangent(RwModel, PetscInt64, Vec);
PETSC_INTERN PetscErrorCode RwHeatActuatorsAdjoint(RwModel, PetscInt64, Vec);

#define RW_HEAT_BLOCK_R 0 /* the decay rate */
#define RW_HEAT_BLOCK_A 1 /* the source amplitude per step, with -rw_heat_source_amplitude */

#endif
