/*
  RwStencil: the shared grid layer of stencil models (src/model/utils/).

  A stencil model (heat, wave, ...) is its physics and its kernels; the grid,
  its boundaries and geometry, the ghost-only halo exchange overlapped with
  interior rows, the pass over rows, point location (receivers interpolate,
  sources spread), field checks and the implicit solver's KSP are delegated
  here, as libCEED backends delegate to a reference.  doc/stencil.md
  describes the API for a model writer.

  Life cycle, inside the model's setup:
    RwStencilCreate(model, dim, dof, width, type, &st)
    RwStencilSetBoundary(st, d, side, kind, sign)    per side, or
    RwStencilSetBoundaries(st, d, kind, sign)        for both sides of d
    RwStencilSetGeometry(st, d, origin, length, cellcentred)
    RwStencilSetUp(st, name, defaultsize, ninputs)   DMDAs, halos, work vectors
    ... passes, points, checks ...
    RwStencilDestroy(&st)                             in the model's destroy
*/
#ifndef REWIND_PRIVATE_STENCILIMPL_H
#define REWIND_PRIVATE_STENCILIMPL_H

#include <rewind/private/modelimpl.h>
#include <petscksp.h>

/* What lies beyond one side of the grid */
typedef enum {
  RW_STENCIL_PERIODIC, /* the other side's points (both sides of a direction) */
  RW_STENCIL_MIRROR,   /* ghost i = sign * point -1-i: sign -1 Dirichlet, +1 Neumann (a face between them) */
  RW_STENCIL_ZERO      /* zero outside the grid (absorbing layers, sources near an edge) */
} RwStencilBoundaryType;
PETSC_EXTERN const char *const RwStencilBoundaryTypes[];

#define RW_STENCIL_MAX_INPUTS 8
#define RW_STENCIL_MAX_D2_RADIUS 4 /* the widest second difference (order 8), RwStencilD2Weights() */

/* A box of grid indices: owned points, or owned plus ghosts */
typedef struct {
  PetscInt s[3]; /* first index per direction */
  PetscInt n[3]; /* extent per direction (1 in unused directions) */
} RwStencilBox;

/* One array seen from the point a row starts at: neighbours at +-1, +-sy, +-sz
   (in scalars: a state of dof components has its components at p[0..dof)) */
typedef struct {
  const PetscScalar *p;
  PetscInt           sy, sz;
} RwStencilRow;

/* The stride of a row's last direction (y in 2D, z in 3D): the newest row a
   stencil row reaches is r neighbours along it (the prefetched rows) */
static inline PetscInt RwStencilRowLastStride(PetscInt dim, RwStencilRow r)
{
  return dim > 2 ? r.sz : r.sy;
}

/* An input of a pass: its owned values (the global array) and, once the
   halo has arrived, its ghosted values (the layer's work vector) */
typedef struct {
  Vec                g;
  const PetscScalar *ga, *la;
} RwStencilInput;

/* Computes the n points of a row from (i, j, k) on; ghosted: read the
   inputs from their ghosted arrays (shell rows) rather than the owned ones */
typedef void (*RwStencilRowFn)(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted);

/* A ring pass's stage of one row: the n scalars its rows gather, from the
   owned inputs' row at (i, j, k) on, into dst (RwStencilRunPassRing()) */
typedef void (*RwStencilRingStageFn)(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscScalar *dst);

/* An interior row's view of the ring: p[w + t] is its first point in the
   slice t away along the last direction (y in 2D, z in 3D), t = -w..w; in
   3D the row's y neighbours are +-sy away inside a slice.  A ring row holds
   width columns either side of the owned ones: its x neighbours beyond an
   edge, by the boundary rule, where x is not split (ringxwhole) */
typedef struct {
  const PetscScalar *p[2 * RW_STENCIL_MAX_D2_RADIUS + 1];
  PetscInt           sy;
} RwStencilRingRow;

typedef struct _n_RwStencil *RwStencil;
struct _n_RwStencil {
  RwModel               model; /* not referenced: the model owns the layer */
  PetscInt              dim, dof, width;
  DMDAStencilType       type;
  RwStencilBoundaryType bc[3][2];
  PetscReal             sign[3][2]; /* a mirrored state's ghost sign, per side */
  PetscReal             origin[3], length[3], offset[3]; /* offset: 1/2 for cell-centred points */
  PetscReal             spacing[3]; /* > 0: h given (RwStencilSetSpacing()), the length follows from the grid size */
  PetscInt              M[3];   /* grid points per direction, 1 beyond dim */
  PetscReal             h[3];   /* spacing, 1 beyond dim */
  PetscReal             cellvolume;
  RwStencilBox          own, ghost; /* on the state's grid and the field grid alike */
  DM                    da;     /* the state: dof components, the model's model->da */
  DM                    fda;    /* parameter fields: dof 1, the same ownership (da itself when dof is 1) */
  PetscInt              ninputs;
  VecScatter            halo[RW_STENCIL_MAX_INPUTS]; /* ghost points only, one per input */
  Vec                   work[RW_STENCIL_MAX_INPUTS]; /* ghosted copies of the inputs */
  PetscInt              halocomps[RW_STENCIL_MAX_INPUTS]; /* the components input x's halo moves, bit c for component c; 0: all (RwStencilSetHaloComponents()) */
  PetscBool             haloall;   /* -rw_stencil_halo_all: every component of every input (a check of the above) */
  PetscInt              blockrows; /* 3D passes walk y in tiles of this many rows, z inside a tile (0: plane by plane) */
  PetscInt              l2;        /* the L2 size (bytes) the automatic tile was chosen for; 0 when -rw_stencil_block_rows set it */
  PetscInt              blocktile; /* a blocked pass's tile of y rows (RwStencilRunPassBlock()) */
  PetscScalar          *blockring;  /* its levels' rings, 2 width + 1 slices of blockslice scalars each */
  PetscInt              blockslice;
  PetscBool             ringwanted; /* RwStencilSetRing(): passes may stage into the ring */
  PetscScalar          *ring;       /* 2 width + 1 slices of staged scalars (stencilring.c) */
  PetscScalar          *pairring;   /* a second ring, 2D: a pair's second pass gathers from it (RwStencilRunPassPair()) */
  PetscInt              ringslice;  /* scalars from one slice to the next */
  PetscInt              ringsy;     /* the row stride inside a slice */
  PetscInt              ringrows;   /* 3D: the tile of y rows a slice serves (it holds 2 width more) */
  PetscInt              ringj0;     /* 3D: the y index of a slice's first row, in the current tile */
  PetscBool             ringxwhole; /* x is not split and a ring row holds its ghosts by the boundary rule: ring passes run interior rows whole */
  RwModelStateLayout    layout;     /* how a state array (owned, or the ghosted work vectors) holds the components: the model's (RwStencilSetStateLayout()) */
  PetscLayout           map;        /* planes: the state vector's ownership ranges (global indices of another rank's planes) */
  PetscBool             setupcalled;
};

/* stencil.c: the grid, its boundaries and geometry */
PETSC_EXTERN PetscErrorCode RwStencilCreate(RwModel, PetscInt, PetscInt, PetscInt, DMDAStencilType, RwStencil *);
PETSC_EXTERN PetscErrorCode RwStencilSetBoundary(RwStencil, PetscInt, PetscInt, RwStencilBoundaryType, PetscReal);
PETSC_EXTERN PetscErrorCode RwStencilSetBoundaries(RwStencil, PetscInt, RwStencilBoundaryType, PetscReal);
PETSC_EXTERN PetscErrorCode RwStencilSetGeometry(RwStencil, PetscInt, PetscReal, PetscReal, PetscBool);
PETSC_EXTERN PetscErrorCode RwStencilSetSpacing(RwStencil, PetscInt, PetscReal, PetscReal, PetscBool);
PETSC_EXTERN PetscErrorCode RwStencilSetStateLayout(RwStencil, RwModelStateLayout);
PETSC_INTERN PetscErrorCode RwStencilStateGlobalIndex_Private(RwStencil, PetscInt, PetscInt *);
PETSC_EXTERN PetscErrorCode RwStencilSetUp(RwStencil, const char[], const PetscInt[3], PetscInt);
PETSC_EXTERN PetscErrorCode RwStencilDestroy(RwStencil *);
PETSC_EXTERN PetscErrorCode RwStencilCoordinate(RwStencil, PetscInt, PetscInt, PetscReal *);
PETSC_EXTERN PetscErrorCode RwStencilGhostRule(RwStencil, PetscInt, PetscBool *, PetscReal *);
PETSC_EXTERN PetscErrorCode RwStencilFillBoundaryGhosts(RwStencil, Vec, PetscBool);
PETSC_INTERN PetscErrorCode RwStencilFillBoundaryGhosts_Private(RwStencil, Vec, PetscBool, PetscInt);
PETSC_EXTERN PetscErrorCode RwStencilGlobalToLocal(RwStencil, Vec, Vec, PetscBool);
PETSC_EXTERN PetscErrorCode RwStencilCheckField(RwStencil, Vec, PetscReal, PetscReal, const char[], const char[]);
PETSC_EXTERN PetscErrorCode RwStencilOwnedDiffer(RwStencil, Vec, Vec, PetscBool *);
PETSC_EXTERN PetscErrorCode RwStencilViewGrid(RwStencil, PetscViewer);

/* stencil.c: central second-difference weights of space order 2, 4, 8 (w[0] the centre, w[j] at +-j; divide by h^2) */
PETSC_EXTERN PetscErrorCode RwStencilD2Weights(PetscInt, PetscInt *, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwStencilLaplacianBound(RwStencil, PetscInt, PetscReal *);

/* stencilhalo.c: the ghost-only halo exchange and the pass over rows */
PETSC_EXTERN PetscErrorCode RwStencilHaloBegin(RwStencil, PetscInt, Vec);
PETSC_EXTERN PetscErrorCode RwStencilHaloEnd(RwStencil, PetscInt, Vec);
PETSC_EXTERN PetscErrorCode RwStencilRunPass(RwStencil, PetscInt, RwStencilInput[], RwStencilRowFn, void *);
PETSC_EXTERN PetscErrorCode RwStencilRunPassPair(RwStencil, RwStencilInput *, RwStencilRingStageFn, RwStencilRowFn, void *, RwStencilInput *, RwStencilRingStageFn, RwStencilRowFn, void *);
PETSC_EXTERN PetscErrorCode RwStencilSetUpPair(RwStencil);
PETSC_EXTERN PetscErrorCode RwStencilSetHaloComponents(RwStencil, PetscInt, PetscInt, const PetscInt[]);
PETSC_INTERN PetscErrorCode RwStencilCopyEdgeBand_Private(RwStencil, PetscInt, Vec, Vec, PetscInt, PetscBool);
PETSC_INTERN void           RwStencilForShell_Private(RwStencil, PetscInt, RwStencilRowFn, void *, PetscBool);
PETSC_INTERN PetscInt       RwStencilL2Size_Private(void);

/* stencilblock.c: D passes in one sweep, 3D (time blocking) */
PETSC_EXTERN PetscErrorCode RwStencilRunPassBlock(RwStencil, PetscInt, RwStencilInput *[], RwStencilRingStageFn, RwStencilRowFn, void *[]);
PETSC_INTERN PetscErrorCode RwStencilSetUpBlockTile_Private(RwStencil, PetscInt);

/* stencilring.c: interior rows that gather from a ring of staged slices */
PETSC_EXTERN PetscErrorCode RwStencilSetRing(RwStencil, PetscBool);
PETSC_EXTERN PetscErrorCode RwStencilRunPassRing(RwStencil, PetscInt, RwStencilInput[], RwStencilRingStageFn, RwStencilRowFn, void *);
PETSC_INTERN PetscErrorCode RwStencilSetUpRing_Private(RwStencil);
PETSC_INTERN PetscBool      RwStencilInterior_Private(RwStencil, PetscInt[3], PetscInt[3]);
PETSC_INTERN void           RwStencilForInteriorRing_Private(RwStencil, RwStencilRingStageFn, RwStencilRowFn, void *);
PETSC_INTERN void           RwStencilRingStage_Private(RwStencil, RwStencilRingStageFn, void *, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode RwStencilRunPassWith_Private(RwStencil, PetscInt, RwStencilInput[], RwStencilRingStageFn, RwStencilRowFn, void *);

/* stencilsolve.c: the implicit schemes' solver */
PETSC_EXTERN PetscErrorCode RwStencilCreateKSP(RwStencil, Mat *, KSP *);
PETSC_EXTERN PetscErrorCode RwStencilSolve(KSP, MPI_Comm, PetscInt64, Vec, Vec, Vec, PetscBool, const char[]);

/* stencilpoints.c: points located on any model's grid, multilinear weights */
typedef struct _n_RwStencilPoints *RwStencilPoints;
PETSC_EXTERN PetscErrorCode RwStencilPointsCreate(RwModel, PetscInt, PetscInt, const PetscReal[], RwStencilPoints *);
PETSC_EXTERN PetscErrorCode RwStencilPointsDestroy(RwStencilPoints *);
PETSC_EXTERN PetscErrorCode RwStencilPointsGetLocal(RwStencilPoints, PetscInt *, const PetscInt **, const PetscBool **);
PETSC_EXTERN PetscErrorCode RwStencilPointsGather(RwStencilPoints, Vec, const PetscScalar **);
PETSC_EXTERN PetscErrorCode RwStencilPointsRestore(RwStencilPoints, const PetscScalar **);
PETSC_EXTERN PetscReal      RwStencilPointsRead(RwStencilPoints, PetscInt, const PetscScalar[]);
PETSC_EXTERN void           RwStencilPointsSpreadOne(RwStencilPoints, PetscInt, PetscReal, PetscScalar[]);
PETSC_EXTERN PetscErrorCode RwStencilPointsInterpolate(RwStencilPoints, Vec, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwStencilPointsSpread(RwStencilPoints, const PetscReal[], PetscScalar[]);

/* A view of array a, laid out over box b with dof scalars a point, from point (i, j, k) */
static inline RwStencilRow RwStencilRowAt(const PetscScalar *a, const RwStencilBox *b, PetscInt dof, PetscInt i, PetscInt j, PetscInt k)
{
  RwStencilRow r;

  r.sy = dof * b->n[0];
  r.sz = dof * b->n[0] * b->n[1];
  r.p  = a ? a + (k - b->s[2]) * r.sz + (j - b->s[1]) * r.sy + dof * (i - b->s[0]) : NULL;
  return r;
}

/* An input's row: from the owned array in the interior, the ghosted one in
   the shell; dof is the model's constant, so the compiler folds it */
static inline RwStencilRow RwStencilInputRow(const RwStencil st, const RwStencilInput *in, PetscInt dof, PetscBool ghosted, PetscInt i, PetscInt j, PetscInt k)
{
  return ghosted ? RwStencilRowAt(in->la, &st->ghost, dof, i, j, k) : RwStencilRowAt(in->ga, &st->own, dof, i, j, k);
}

/* The points of the owned box (ghosted: of the ghosted box) */
static inline PetscInt RwStencilBoxPoints(const RwStencilBox *b)
{
  return b->n[0] * b->n[1] * b->n[2];
}

/* Component c's plane of a state array of the planar layout (RW_MODEL_STATE_PLANES)
   over box b: c times the box's points from its start */
static inline const PetscScalar *RwStencilPlane(const PetscScalar *a, const RwStencilBox *b, PetscInt c)
{
  return a ? a + c * RwStencilBoxPoints(b) : NULL;
}

/* Component c of an input's row, the state in planes (RW_MODEL_STATE_PLANES):
   unit stride, from the owned plane in the interior, the ghosted one in the shell */
static inline RwStencilRow RwStencilInputPlaneRow(const RwStencil st, const RwStencilInput *in, PetscInt c, PetscBool ghosted, PetscInt i, PetscInt j, PetscInt k)
{
  return ghosted ? RwStencilRowAt(RwStencilPlane(in->la, &st->ghost, c), &st->ghost, 1, i, j, k) : RwStencilRowAt(RwStencilPlane(in->ga, &st->own, c), &st->own, 1, i, j, k);
}

/* The owned point (i, j, k) of an array of dof values a point on the state's grid */
static inline PetscScalar *RwStencilOwnedAt(const RwStencil st, PetscInt dof, PetscScalar *a, PetscInt i, PetscInt j, PetscInt k)
{
  return (PetscScalar *)RwStencilRowAt(a, &st->own, dof, i, j, k).p;
}

/* The index of owned point (i, j, k) among the owned points */
static inline PetscInt RwStencilOwnedIndex(const RwStencil st, PetscInt i, PetscInt j, PetscInt k)
{
  return ((k - st->own.s[2]) * st->own.n[1] + (j - st->own.s[1])) * st->own.n[0] + (i - st->own.s[0]);
}

/* The second difference of radius r (a constant at the call site) with weights
   w along a direction of stride s, unscaled: w0 x_0 + sum_j w_j (x_-j + x_j) */
static inline PetscScalar RwStencilD2(const PetscInt r, const PetscReal *w, const PetscScalar *x, PetscInt s)
{
  PetscScalar f = w[0] * x[0];

  for (PetscInt j = 1; j <= r; j++) f += w[j] * (x[-j * s] + x[j * s]);
  return f;
}

/* Whether owned row (j, k) lies within band rows of the owned box's y or z
   edges: the shell's edge rows (band = width), which run whole from the
   ghosted arrays, and the rows they read (band = 2 width) */
static inline PetscBool RwStencilNearEdge(const RwStencil st, PetscInt j, PetscInt k, PetscInt band)
{
  const PetscInt *s = st->own.s, *n = st->own.n;

  return (PetscBool)((st->dim > 1 && (j < s[1] + band || j >= s[1] + n[1] - band)) || (st->dim > 2 && (k < s[2] + band || k >= s[2] + n[2] - band)));
}

/* The factor a ghost beyond a non-periodic side takes from its mirror point:
   a state's sign (0 beyond a zero side), 1 for a field (a coefficient
   continues beyond the edge); RwStencilFillBoundaryGhosts() and the ring's x ghosts */
static inline PetscReal RwStencilGhostSign(const RwStencil st, PetscInt d, PetscInt side, PetscBool state)
{
  if (!state) return 1.0;
  return st->bc[d][side] == RW_STENCIL_ZERO ? 0.0 : st->sign[d][side];
}

/* Slice c of the ring (c >= 0: a grid index along the last direction) */
static inline PetscScalar *RwStencilRingSliceOf(const RwStencil st, PetscScalar *ring, PetscInt c)
{
  return ring + (c % (2 * st->width + 1)) * st->ringslice;
}

static inline PetscScalar *RwStencilRingSlice(const RwStencil st, PetscInt c)
{
  return RwStencilRingSliceOf(st, st->ring, c);
}

/* A ring (st->ring, or a pair's st->pairring) seen from interior row (i, j, k) of a ring pass */
static inline RwStencilRingRow RwStencilRingRowOf(const RwStencil st, PetscScalar *ring, PetscInt i, PetscInt j, PetscInt k)
{
  const PetscInt   w = st->width, c = st->dim > 2 ? k : j, off = (st->dim > 2 ? (j - st->ringj0) * st->ringsy : 0) + w + i - st->own.s[0];
  RwStencilRingRow r;

  for (PetscInt t = -w; t <= w; t++) r.p[w + t] = RwStencilRingSliceOf(st, ring, c + t) + off;
  r.sy = st->ringsy;
  return r;
}

static inline RwStencilRingRow RwStencilRingRowAt(const RwStencil st, PetscInt i, PetscInt j, PetscInt k)
{
  return RwStencilRingRowOf(st, st->ring, i, j, k);
}

#endif
