/*
  RwNN: a pointwise multilayer perceptron R^a -> R^b applied at every point of
  a row of grid points, with its three forms side by side (forward, tangent in
  the input and the weights, adjoint into the input and the weights), so that
  a model can embed a learned term N_theta(u) in its kernels.

  The weights theta are a flat array in a fixed order: for each layer l
  (sizes s_0 = a, s_1, ..., s_L = b) its matrix W_l (s_l x s_{l-1}, row-major:
  W_l[i][j] maps input unit j to output unit i), then its bias b_l (s_l).  For
  1 -> H -> H -> 1 that is W1 (H), b1 (H), W2 (H x H), b2 (H), W3 (H), b3 (1),
  with a1 = act(W1 u + b1), a2 = act(W2 a1 + b2), N = out(W3 a2 + b3).
  doc/hybrid.md describes it.
*/
#ifndef REWIND_NN_H
#define REWIND_NN_H

#include <petscsys.h>
#include <petscviewer.h>

/*S
  RwNN - a pointwise neural network (multilayer perceptron)

  Level: intermediate

.seealso: RwNNCreate(), RwNNForward(), RwNNTangent(), RwNNAdjoint()
S*/
typedef struct _n_RwNN *RwNN;

/*E
  RwNNActivation - the activation of a layer: tanh, softplus log(1 + e^z), identity

  Level: intermediate
E*/
typedef enum {
  RW_NN_TANH,
  RW_NN_SOFTPLUS,
  RW_NN_IDENTITY
} RwNNActivation;
PETSC_EXTERN const char *const RwNNActivations[];

#define RW_NN_MAX_LAYERS 16

PETSC_EXTERN PetscErrorCode RwNNCreate(MPI_Comm, RwNN *);
PETSC_EXTERN PetscErrorCode RwNNSetLayers(RwNN, PetscInt, const PetscInt[]);
PETSC_EXTERN PetscErrorCode RwNNSetActivations(RwNN, RwNNActivation, RwNNActivation);
PETSC_EXTERN PetscErrorCode RwNNSetOptionsPrefix(RwNN, const char[]);
PETSC_EXTERN PetscErrorCode RwNNSetFromOptions(RwNN);
PETSC_EXTERN PetscErrorCode RwNNSetUp(RwNN);
PETSC_EXTERN PetscErrorCode RwNNGetLayers(RwNN, PetscInt *, const PetscInt **);
PETSC_EXTERN PetscErrorCode RwNNGetActivations(RwNN, RwNNActivation *, RwNNActivation *);
PETSC_EXTERN PetscErrorCode RwNNGetNumWeights(RwNN, PetscInt *);
PETSC_EXTERN PetscErrorCode RwNNGetWeightLayout(RwNN, PetscInt, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode RwNNInitializeXavier(RwNN, PetscInt64, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwNNGetInitialWeights(RwNN, PetscReal[]);
PETSC_EXTERN PetscErrorCode RwNNCheckWeights(RwNN, const PetscReal[], const char[]);
PETSC_EXTERN PetscErrorCode RwNNReadWeights(RwNN, const char[], PetscReal[]);
PETSC_EXTERN PetscErrorCode RwNNWriteWeights(RwNN, const char[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode RwNNIdentity(RwNN, char[], size_t);
PETSC_EXTERN PetscErrorCode RwNNView(RwNN, PetscViewer);
PETSC_EXTERN PetscErrorCode RwNNDestroy(RwNN *);

/* The kernels: not collective, no allocation, safe in a row callback.  Point
   p's input c is x[c xs + p] (p < n), its output c is y[c ys + p]. */
PETSC_EXTERN void RwNNForward(RwNN, const PetscReal[], PetscInt, const PetscReal[], PetscInt, PetscReal[], PetscInt);
PETSC_EXTERN void RwNNTangent(RwNN, const PetscReal[], const PetscReal[], PetscInt, const PetscReal[], const PetscReal[], PetscInt, PetscReal[], PetscReal[], PetscInt);
PETSC_EXTERN void RwNNTanh(PetscInt, const PetscReal[], PetscReal[]);
PETSC_EXTERN PetscReal RwNNMultiplyAddLoop(PetscInt, PetscReal[]);
PETSC_EXTERN void RwNNAdjoint(RwNN, const PetscReal[], PetscInt, const PetscReal[], PetscInt, const PetscReal[], PetscInt, PetscReal[], PetscReal[], PetscInt, PetscReal[]);

#endif
