/*
  The pointwise network's kernels: forward, tangent and adjoint side by side.

  Every layer runs over a block of up to RW_NN_BLOCK points, laid out unit by
  unit ([unit][point]), in vectors of one register (GCC vector extensions: 8
  lanes on AVX-512, 4 on AVX2, 2 on SSE2; nnkernelsbody.h is compiled once per
  variant).  A layer is a small matrix product register-blocked over the
  block: KO output units x VB vectors of accumulators (what fits the variant's
  registers), so each weight is broadcast once per VB fmas and each input
  vector loaded once per KO output units; a tanh layer's activation is taken
  from those registers.  No function is called per point per layer (but fma()
  in the portable variant, below); tanh is TanhV, not libm's.

  Bits.  Every point's arithmetic is the same whatever its place in a block, a
  row or a rank's box (a block is always computed whole, padding points are
  zeros and dropped).  Every multiply-add is an explicit fused one (Fma():
  correctly rounded, so the same bits in every variant) and nothing else is
  contracted (the pragma below: GCC contracts by default when the ISA has FMA,
  which only some variants have), so the run-time ISA variants below
  (AVX-512, AVX2, portable) give the same bits too.  The tradeoff: the
  AVX-512 and AVX2 variants get one vfmadd an fma (twice the peak of a
  multiply then an add), the portable variant (no FMA in the ISA) calls
  libm's fma() per lane: many times slower, the same bits.  The weight
  gradient's sums over the n points of one call are plain sums in an order
  fixed by n alone: RW_NN_LANES partial sums, sum l taking the points p = l
  mod RW_NN_LANES of every block in order, whatever the vector width, then
  the partial sums added pairwise; a caller that gives the same
  n points (a fixed tile of the grid, as the heat model does) gets the same
  bits on any decomposition.

    forward   z_l = W_l a_{l-1} + b_l, a_l = act_l(z_l), N = a_L
    tangent   dz_l = W_l da_{l-1} + db_l + dW_l a_{l-1}, da_l = act_l'(z_l) dz_l
    adjoint   zbar_L = act_L'(z_L) ybar; for l = L..1:
                dW_l[i][j] += zbar_l[i] a_{l-1}[j], db_l[i] += zbar_l[i],
                abar_{l-1} = W_l^T zbar_l, zbar_{l-1} = act_{l-1}'(z_{l-1}) abar_{l-1};
              xbar += abar_0
*/
#include <rewind/private/nnimpl.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wpsabi" /* vectors passed between inlined helpers only */
#if defined(__GNUC__) && !defined(__clang__)
  #pragma GCC optimize("fp-contract=off")
#endif

/* Names of one variant's copy of the kernels (nnkernelsbody.h) */
#define RW_NN_CAT_(a, b) a##_##b
#define RW_NN_CAT(a, b)  RW_NN_CAT_(a, b)
#define RW_NN_NAME(f)    RW_NN_CAT(f, RW_NN_SFX)
/* Unrolled whole, so a register block's accumulators become registers: left
   as loops, GCC kept them on the stack, a load and a store around every fma */
#if defined(__GNUC__) && !defined(__clang__)
  #define RW_NN_UNROLL _Pragma("GCC unroll 16")
#else
  #define RW_NN_UNROLL
#endif
#define RW_NN_INLINE RW_KERNEL_INLINE

/* The kernels once per instruction set, each with vectors of one register
   and a register block that fits its register file (RW_KERNEL_VARIANTS
   compiles one body with one vector type for all three: the 8-lane vectors
   AVX-512 wants were two registers on AVX2, whose 32 accumulators spilled and
   whose fmas GCC left scalar).  Portable: SSE2, 2 lanes, 16 registers;
   AVX2: 4 lanes, 16; AVX-512: 8 lanes, 32. */
#define RW_NN_SFX    Portable
#define RW_NN_TARGET
#define RW_NN_VL     2
#define RW_NN_KO     2
#define RW_NN_VB     4
#include "nnkernelsbody.h"
/* The ISA variants' whole bodies, helpers too, are compiled for their
   target (not only the entry points), so Fma can name the vector fma */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  #define RW_NN_PUSH_TARGET(t) _Pragma("GCC push_options") _Pragma(t)
  #define RW_NN_POP_TARGET     _Pragma("GCC pop_options")
#else
  #define RW_NN_PUSH_TARGET(t)
  #define RW_NN_POP_TARGET
#endif
RW_NN_PUSH_TARGET("GCC target(\"avx2,fma\")")
#define RW_NN_SFX    AVX2
#define RW_NN_TARGET RW_KERNEL_TARGET_AVX2
#define RW_NN_VL     4
#define RW_NN_KO     2
#define RW_NN_VB     4
#include "nnkernelsbody.h"
RW_NN_POP_TARGET
RW_NN_PUSH_TARGET("GCC target(\"avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=512\")")
#define RW_NN_SFX    AVX512
#define RW_NN_TARGET RW_KERNEL_TARGET_AVX512
#define RW_NN_VL     8
#define RW_NN_KO     4
#define RW_NN_VB     4
#include "nnkernelsbody.h"
RW_NN_POP_TARGET

/* Each kernel's variants, indexed by RwKernelISA */
#define RW_NN_VARIANTS(f) static __typeof__(f##_Portable) *const f##Variants[RW_KERNEL_ISA_N] = {f##_Portable, f##_AVX2, f##_AVX512}
RW_NN_VARIANTS(Forward);
RW_NN_VARIANTS(Tangent);
RW_NN_VARIANTS(Adjoint);
RW_NN_VARIANTS(TanhArray);
RW_NN_VARIANTS(MultiplyAddLoop);
static const int MultiplyAddLanes[RW_KERNEL_ISA_N] = {2, 4, 8};

PETSC_INTERN void RwNNForward_MLP(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, PetscReal y[], PetscInt ys)
{
  ForwardVariants[nn->isa](nn, theta, n, x, xs, y, ys);
}

PETSC_INTERN void RwNNTangent_MLP(RwNN nn, const PetscReal theta[], const PetscReal dtheta[], PetscInt n, const PetscReal x[], const PetscReal dx[], PetscInt xs, PetscReal y[], PetscReal dy[], PetscInt ys)
{
  TangentVariants[nn->isa](nn, theta, dtheta, n, x, dx, xs, y, dy, ys);
}

PETSC_INTERN void RwNNAdjoint_MLP(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, const PetscReal ybar[], PetscInt ys, PetscReal xbar[], PetscReal gw[], PetscInt gs, PetscReal gsum[])
{
  AdjointVariants[nn->isa](nn, theta, n, x, xs, ybar, ys, xbar, gw, gs, gsum);
}

PETSC_INTERN void RwNNTanhArray(PetscInt n, const PetscReal *x, PetscReal *y)
{
  TanhArrayVariants[RwKernelISABest()](n, x, y);
}

PETSC_INTERN void RwNNMultiplyAddLoopArray(PetscInt reps, PetscReal *acc)
{
  MultiplyAddLoopVariants[RwKernelISABest()](reps, acc);
}

PETSC_INTERN void RwNNSetOps_MLP(RwNN nn)
{
  nn->ops->forward = RwNNForward_MLP;
  nn->ops->tangent = RwNNTangent_MLP;
  nn->ops->adjoint = RwNNAdjoint_MLP;
}

/*@C
  RwNNTanh - y = tanh(x) at n values, the network's own tanh: vectorised, at
  most 3 ulp from the correctly rounded value, and each value's bits
  independent of n and of its position

  Not collective

  Level: developer

.seealso: RwNNForward()
@*/
void RwNNTanh(PetscInt n, const PetscReal x[], PetscReal y[])
{
  RwNNTanhArray(n, x, y);
}

/*@C
  RwNNMultiplyAddLoop - the peak flop rate the network's kernels can reach on
  this machine: reps rounds of 8 independent vector fused multiply-adds (one
  rounding, as in the kernels) on the vectors of the best ISA variant;
  returns the flops done (acc: 10 values, read and written so nothing is elided)

  Not collective

  Level: developer

.seealso: RwNNForward()
@*/
PetscReal RwNNMultiplyAddLoop(PetscInt reps, PetscReal acc[])
{
  RwNNMultiplyAddLoopArray(reps, acc);
  return (PetscReal)reps * 8 * MultiplyAddLanes[RwKernelISABest()] * 2;
}

/*@C
  RwNNForward - y = N_theta(x) at n points

  Not collective; after RwNNSetUp()

  Input Parameters:
+ nn    - the network
. theta - its weights
. n     - points
. x, xs - input c of point p at x[c xs + p]
- ys    - output c of point p at y[c ys + p]

  Level: intermediate

.seealso: RwNNTangent(), RwNNAdjoint()
@*/
void RwNNForward(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, PetscReal y[], PetscInt ys)
{
  nn->ops->forward(nn, theta, n, x, xs, y, ys);
}

/*@C
  RwNNTangent - dy = N_x(x) dx + N_theta(x) dtheta (and y = N(x) if y is not NULL) at n points

  Not collective; dx or dtheta may be NULL (zero)

  Level: intermediate

.seealso: RwNNForward(), RwNNAdjoint()
@*/
void RwNNTangent(RwNN nn, const PetscReal theta[], const PetscReal dtheta[], PetscInt n, const PetscReal x[], const PetscReal dx[], PetscInt xs, PetscReal y[], PetscReal dy[], PetscInt ys)
{
  nn->ops->tangent(nn, theta, dtheta, n, x, dx, xs, y, dy, ys);
}

/*@C
  RwNNAdjoint - the vector-Jacobian product at n points: xbar += N_x(x)^T ybar,
  and the weight gradient N_theta(x)^T ybar, point by point into gw (weight w
  of point p at gw[w gs + p], overwritten) and/or summed over the n points
  into gsum[w]

  Not collective; xbar, gw or gsum may be NULL

  Notes:
  gsum's sums are plain sums in an order that depends on n alone, not on
  where the points come from: a gradient that must be the same on any number
  of ranks calls this on fixed sets of points (tiles of the grid, as the heat
  model does) and sums the tiles' gsum exactly (RwModelAddScalarGradient()).

  Level: intermediate

.seealso: RwNNForward(), RwNNTangent()
@*/
void RwNNAdjoint(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, const PetscReal ybar[], PetscInt ys, PetscReal xbar[], PetscReal gw[], PetscInt gs, PetscReal gsum[])
{
  nn->ops->adjoint(nn, theta, n, x, xs, ybar, ys, xbar, gw, gs, gsum);
}
