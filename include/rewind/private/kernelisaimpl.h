/*
  Run-time choice of the instruction set a kernel runs with.

  A kernel is written once, as an always-inlined body; RW_KERNEL_VARIANTS
  compiles that body once per instruction set of RwKernelISA (GCC's and
  Clang's target attribute: the same source, each copy vectorised for its
  vector width) and puts the copies in a table indexed by RwKernelISA.  The
  caller picks the entry of the instruction set chosen at run time
  (RwKernelISABest(), or -rw_kernel_isa for a model), so a portable build
  runs AVX2 or AVX-512 code on a machine that has it.

  Bits: every variant gives the portable kernel's results.  The AVX2 and
  AVX-512 variants have FMA, so GCC could contract a*b+c where the portable
  code (x86-64 without FMA) does not; configure's -ffp-contract=off forbids
  that everywhere, so FMA only runs where the source asks for it with fma(),
  which is correctly rounded in every variant (libm's in the portable one).
  Otherwise the variants differ only in vector width, and the kernels' loops
  are element-wise (no reassociated sums), so every point computes the same
  operations in the same order.  src/nn uses the same variants (t108 checks
  heat, wave and the network term).

  Without the target attribute (another compiler or architecture) every
  entry of the table is the portable kernel.
*/
#ifndef REWIND_PRIVATE_KERNELISAIMPL_H
#define REWIND_PRIVATE_KERNELISAIMPL_H

#include <rewind/private/rwimpl.h>

typedef enum {
  RW_KERNEL_ISA_PORTABLE, /* what the build's CFLAGS give (SSE2 on x86-64 without -march) */
  RW_KERNEL_ISA_AVX2,     /* 256-bit vectors, with FMA */
  RW_KERNEL_ISA_AVX512,   /* 512-bit vectors (AVX-512 F, VL, BW, DQ) */
  RW_KERNEL_ISA_N
} RwKernelISA;
PETSC_EXTERN const char *const RwKernelISANames[]; /* "portable", "avx2", "avx512" */

PETSC_EXTERN PetscBool      RwKernelISAAvailable(RwKernelISA);
PETSC_EXTERN RwKernelISA    RwKernelISABest(void);
PETSC_EXTERN PetscErrorCode RwKernelISAList(char[], size_t);
PETSC_EXTERN PetscErrorCode RwKernelISACheck(MPI_Comm, const char[], RwKernelISA);

#if defined(__GNUC__) && defined(__x86_64__)
  #define RW_KERNEL_ISA_DISPATCH 1
  #define RW_KERNEL_TARGET_AVX2   __attribute__((target("avx2,fma"))) /* x86-64-v3: FMA for explicit fma() (src/nn); nothing is contracted (-ffp-contract=off) */
  #define RW_KERNEL_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=512")))
#else
  #define RW_KERNEL_TARGET_AVX2
  #define RW_KERNEL_TARGET_AVX512
#endif

/* A kernel body is always inlined into each variant, so each is compiled
   for its own instruction set */
#if defined(__GNUC__)
  #define RW_KERNEL_INLINE static inline __attribute__((always_inline))
#else
  #define RW_KERNEL_INLINE static inline
#endif

/* A row's NaN probe: v * 0 is +-0 for a finite v and NaN for a NaN or Inf.
   The rows OR the flags RW_PROBE_BAD(v) as integers and add
   RwProbeValue(flags) to the probe once: a sum of doubles (nan += v * 0)
   must keep its order without -ffast-math, so the compiler reduces each
   vector's lanes one after the other, a chain of dependent adds that cost
   more than the rest of the heat rows; an OR of integers it vectorises */
#define RW_PROBE_BAD(v) ((v) * 0 != 0)
static inline PetscReal RwProbeValue(int bad)
{
  return bad ? (PetscReal)NAN : 0;
}

/* Software prefetch for stencil rows: such a row runs in blocks of
   RW_PREFETCH_BLOCK points, and before each block asks for its memory
   streams' lines RW_PREFETCH_AHEAD points ahead.  The loads of the
   stencil's neighbours from cache kept the hardware's own prefetch of the
   streams behind (the wave forward; the heat forward and adjoint;
   doc/notes/benchmarks-log.md).  A hint: it never faults, so it may run past a row's
   end.  p: the stream at the point ahead, dof scalars a point; one
   prefetch a 64-byte line of 8 scalars */
#define RW_PREFETCH_BLOCK 16
#define RW_PREFETCH_AHEAD 64
static inline void RwPrefetchRead(const PetscScalar *p, PetscInt dof)
{
  for (PetscInt l = 0; l < RW_PREFETCH_BLOCK * dof; l += 8) __builtin_prefetch(p + l, 0);
}
static inline void RwPrefetchWrite(PetscScalar *p, PetscInt dof)
{
  for (PetscInt l = 0; l < RW_PREFETCH_BLOCK * dof; l += 8) __builtin_prefetch(p + l, 1);
}

/* Streaming (non-temporal) stores for a kernel's output when it is larger
   than the caches (RwModelStreamStores()): the line goes to memory without
   first being read into cache, the read an ordinary store makes, so an
   output costs its bytes once instead of twice.  A stencil row that writes
   16 of the 72 bytes its point moves was 15-22% faster (the wave forward,
   doc/notes/benchmarks-log.md).  Where the output fits in a cache the next step would
   find it there, and ordinary stores win.  RwStreamPair() writes two
   scalars at p, 16-byte aligned (PETSc's arrays are, and a point of a
   two-component state is 16 bytes); RwStreamFence() after the pass orders
   the streamed stores before any later one, as another rank (a halo read
   through shared memory) needs.  Only bytes' paths change: the values are
   the same */
#if defined(__SSE2__)
  #include <emmintrin.h>
static inline void RwStreamPair(PetscScalar *p, PetscScalar a, PetscScalar b)
{
  _mm_stream_pd(p, _mm_set_pd(b, a));
}
static inline void RwStreamFence(void)
{
  _mm_sfence();
}
#else
static inline void RwStreamPair(PetscScalar *p, PetscScalar a, PetscScalar b)
{
  p[0] = a;
  p[1] = b;
}
static inline void RwStreamFence(void) { }
#endif

/*
  RW_KERNEL_VARIANTS(name, params, args): from the void body name##Body
  params, defines name##Portable, name##AVX2 and name##AVX512 and the table
  name##Variants[RW_KERNEL_ISA_N] of them; call name##Variants[isa] args.
  Example:
    RW_KERNEL_INLINE void RowBody(PetscInt n, const double *x, double *y) { ... }
    RW_KERNEL_VARIANTS(Row, (PetscInt n, const double *x, double *y), (n, x, y));
*/
#define RW_KERNEL_VARIANTS(name, params, args) \
  static void name##Portable params \
  { \
    name##Body args; \
  } \
  RW_KERNEL_TARGET_AVX2 static void name##AVX2 params \
  { \
    name##Body args; \
  } \
  RW_KERNEL_TARGET_AVX512 static void name##AVX512 params \
  { \
    name##Body args; \
  } \
  static void (*const name##Variants[RW_KERNEL_ISA_N]) params = {name##Portable, name##AVX2, name##AVX512}


/*
  RW_KERNEL_VARIANTS_ISA(name, params, args): the same, but the body takes the
  variant's RwKernelISA first, a constant in each copy, for a body that
  writes its vectors by hand (GCC's vector extensions) in the wide sets and
  leaves the portable one to the compiler:
    RW_KERNEL_INLINE void RowBody(RwKernelISA isa, PetscInt n, const double *x, double *y) { ... }
    RW_KERNEL_VARIANTS_ISA(Row, (PetscInt n, const double *x, double *y), (n, x, y));
*/
#define RW_KERNEL_ARGS_(...) __VA_ARGS__
#define RW_KERNEL_VARIANTS_ISA(name, params, args) \
  static void name##Portable params \
  { \
    name##Body(RW_KERNEL_ISA_PORTABLE, RW_KERNEL_ARGS_ args); \
  } \
  RW_KERNEL_TARGET_AVX2 static void name##AVX2 params \
  { \
    name##Body(RW_KERNEL_ISA_AVX2, RW_KERNEL_ARGS_ args); \
  } \
  RW_KERNEL_TARGET_AVX512 static void name##AVX512 params \
  { \
    name##Body(RW_KERNEL_ISA_AVX512, RW_KERNEL_ARGS_ args); \
  } \
  static void (*const name##Variants[RW_KERNEL_ISA_N]) params = {name##Portable, name##AVX2, name##AVX512}

#endif
