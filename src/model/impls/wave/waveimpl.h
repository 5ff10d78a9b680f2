/*
  The acoustic wave model "wave": m u_tt - Laplace(u) + eta u_t = q in 2D and
  3D, discretised as Devito's acoustic operator.  Shared by wave.c (set-up,
  options, defaults, parameters, sources), wavekernels.c (the three forms of
  a step side by side) and wavereceivers.c (the receivers' misfit term and
  recording).
*/
#ifndef REWIND_WAVEIMPL_H
#define REWIND_WAVEIMPL_H

#include <rewind/private/stencilimpl.h>
#include <rewind/wave.h>

#define RW_WAVE_DOF 2 /* u_k, u_k-1 */

/* The forms of a step, each run in the instruction set chosen for it (wavechoice.c) */
typedef enum {
  RW_WAVE_FORWARD,
  RW_WAVE_TANGENT,
  RW_WAVE_ADJOINT,
  RW_WAVE_NFORMS
} RwWaveForm;

/* How -rw_kernel_isa auto chooses each form's set: the measured table, or a timing at the first parameters */
typedef enum {
  RW_WAVE_CHOICE_TABLE,
  RW_WAVE_CHOICE_TIME
} RwWaveChoice;
PETSC_INTERN const char *const RwWaveChoices[];

typedef struct {
  PetscInt  dim, order, nbl;
  PetscInt  r;                                  /* the Laplacian's radius, order / 2 */
  PetscReal wd2[3][RW_STENCIL_MAX_D2_RADIUS + 1]; /* second-difference weights / h_d^2 per direction */
  PetscReal h[3], origin[3];                    /* spacing; the physical region's origin (point nbl) */
  PetscReal f0, t0;                             /* Ricker peak frequency, delay */
  PetscReal safety;                             /* default dt = safety * the stability limit */
  PetscReal cdefault[2];                        /* the default velocity: from cdefault[0] at the top to [1] at the bottom */
  char      velocity[PETSC_MAX_PATH_LEN];       /* -rw_wave_velocity file.h5:dataset, the default m from it */
  RwStencil st;

  /* sources: one wavelet per model (a shot), spread over the sources' corners */
  PetscInt   nsrc;
  PetscReal *srccoords;  /* nsrc * dim */
  PetscReal *wavelet;    /* f(t_k), k = 0..n-1; NULL: the Ricker wavelet */
  PetscInt   nsrcpts;    /* owned grid points a source's corner touches */
  PetscInt  *srcidx;     /* their index among the owned points */
  PetscReal *srcw;       /* their summed multilinear weights */
  PetscReal *srcq;       /* dt^2 w / m there (from RwModelSetParameters()) */
  PetscReal *srcg;       /* q (ia/dt^2 - 1/m) there: d(u+)/dm at a corner, beyond the pass's term */

  /* parameter-dependent coefficients on the field grid, per parameter set */
  Vec       eta;      /* owned: the absorbing layer's damping (geometry only) */
  Vec       ia;       /* ghosted: 1 / (m/dt^2 + eta/dt) (the adjoint reads neighbours) */
  Vec       c1, c2;   /* owned: m/dt^2, eta/dt */
  Vec       dm;       /* owned: the direction of m */
  Vec       mown, iaown; /* owned copies of m and ia (the sources' coefficients read them) */
  PetscBool srcgiven, srclocated;
  Vec       gm;       /* adjoint accumulator: dJ/dm per point */
  PetscReal dtlimit;  /* the largest stable dt for the current m */
  PetscReal rho;      /* spectral radius bound of -L */

  /* each form's instruction set under -rw_kernel_isa auto (wavechoice.c) */
  RwWaveChoice choice;                                 /* -rw_wave_kernel_choice */
  PetscBool    timed;                                  /* the timing ran: timedisa holds its choice */
  RwKernelISA  timedisa[RW_WAVE_NFORMS];
  PetscReal    timedsec[RW_WAVE_NFORMS][RW_KERNEL_ISA_N]; /* seconds a step, largest over the ranks; 0: not timed */
} RwModel_Wave;

/* wavekernels.c */
PETSC_INTERN PetscErrorCode RwWaveRunForm(RwModel, RwWaveForm, RwKernelISA, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwWaveStep(RwModel, PetscInt64, Vec, Vec);
PETSC_INTERN PetscErrorCode RwWaveStepBlock(RwModel, PetscInt64, PetscInt, Vec, Vec[]);
PETSC_INTERN PetscInt       RwWaveStepBlockMax(PetscInt);
PETSC_INTERN PetscErrorCode RwWaveStepTangent(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwWaveStepAdjoint(RwModel, PetscInt64, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscReal      RwWaveSourceValue(RwModel, PetscInt64);
PETSC_INTERN PetscErrorCode RwWaveViewRows(RwModel, PetscViewer);
PETSC_INTERN PetscBool      RwWaveRingUsed(PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode RwWaveCheckPoints(RwModel, const char[], PetscInt, const PetscReal[]);
/* wavechoice.c */
PETSC_INTERN RwKernelISA    RwWaveFormISA(RwModel, RwWaveForm);
PETSC_INTERN PetscErrorCode RwWaveChooseKernels(RwModel);
PETSC_INTERN PetscErrorCode RwWaveViewKernels(RwModel, PetscViewer);
PETSC_INTERN PetscErrorCode RwWaveRegisterEvents(void);
PETSC_INTERN PetscLogEvent  RwWaveEvent(RwWaveForm, RwKernelISA);
/* wavereceivers.c */
PETSC_INTERN PetscErrorCode RwModelWaveRecord_Wave(RwModel, Vec, PetscInt, const PetscReal[], PetscReal[]);

#endif
