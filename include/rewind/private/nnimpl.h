/* Private RwNN structure, for models that embed a network in their kernels. */
#ifndef REWIND_PRIVATE_NNIMPL_H
#define REWIND_PRIVATE_NNIMPL_H

#include <rewind/nn.h>
#include <rewind/private/kernelisaimpl.h>

/* Points per block of the kernels: every layer runs over a block of points
   at a time, and a block's activations stay in the L1 cache (16 units x 32
   points x 8 bytes = 4 KiB a layer).  RW_NN_LANES: the partial sums of a
   weight's gradient (sum l takes the points l mod RW_NN_LANES), the same in
   every ISA variant whatever its vector width (8, 4 or 2 lanes), so the bits
   are */
#define RW_NN_BLOCK 32
#define RW_NN_LANES 8

/* Points of a tile: a model that wants a weight gradient independent of the
   decomposition calls RwNNAdjoint() on fixed tiles of this many points (the
   heat model: consecutive points of the natural ordering) and sums the tiles'
   sums exactly: 321 exact adds a tile instead of 321 a point for 1-16-16-1 */
#define RW_NN_TILE 1024


typedef struct _RwNNOps *RwNNOps;
struct _RwNNOps {
  void (*forward)(RwNN, const PetscReal[], PetscInt, const PetscReal[], PetscInt, PetscReal[], PetscInt);
  void (*tangent)(RwNN, const PetscReal[], const PetscReal[], PetscInt, const PetscReal[], const PetscReal[], PetscInt, PetscReal[], PetscReal[], PetscInt);
  void (*adjoint)(RwNN, const PetscReal[], PetscInt, const PetscReal[], PetscInt, const PetscReal[], PetscInt, PetscReal[], PetscReal[], PetscInt, PetscReal[]);
};

struct _n_RwNN {
  struct _RwNNOps ops[1];
  RwKernelISA     isa; /* the kernels' instruction set (RW_KERNEL_VARIANTS): the model's, or the best */
  MPI_Comm        comm;
  char           *prefix;
  PetscInt        nsizes;                   /* layers + 1: s_0 (inputs) .. s_L (outputs) */
  PetscInt        sizes[RW_NN_MAX_LAYERS + 1];
  RwNNActivation  hidden, output;          /* activations of the hidden layers and of the last */
  PetscInt        offW[RW_NN_MAX_LAYERS + 1], offb[RW_NN_MAX_LAYERS + 1]; /* layer l's W_l and b_l in theta (l >= 1) */
  PetscInt        nweights;
  PetscInt        maxwidth;
  PetscInt64      seed;                    /* Xavier-uniform initial weights */
  char            weightsfile[PETSC_MAX_PATH_LEN]; /* initial weights from HDF5 instead */
  PetscBool       setupcalled;
  /* one block's work, allocated at set-up: z_l and a_l = act(z_l) per layer
     (a_0 the inputs), their tangents, and two adjoint rows */
  PetscReal      *z[RW_NN_MAX_LAYERS + 1], *a[RW_NN_MAX_LAYERS + 1], *dz, *da[RW_NN_MAX_LAYERS + 1], *bar[2], *work;
  PetscReal      *glanes;                  /* the adjoint's weight-gradient partial sums, RW_NN_LANES a weight */
};

#endif
