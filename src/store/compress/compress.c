/*
  Compressed checkpoints (-rw_store_compress): the codec a store runs on a
  state before it keeps it and after it reads it back.

  lossless  Blosc (Debian's libblosc): a byte shuffle (the 8 bytes of each
            double regrouped by significance, so exponents and high mantissa
            bytes sit together) and LZ4 at level 5.  Chosen over zstd and
            over Blosc with zstd or BloscLZ by their ratio and speed on heat,
            wave and network states (doc/notes/checkpoints-internals.md, "Compressed slots").
            The bytes read back are the bytes written: gradients are bitwise
            those without compression.  Blosc stores a state it cannot shrink
            as it is, so a slot of the state's size plus Blosc's header
            always holds it.
  zfp       zfp (libzfp-dev, optional at configure) in fixed-accuracy mode on
            this rank's block of the grid, one component after the other (as
            the store's state layout places them, RwStoreSetStateLayout()): the
            absolute error of every value is at most the tolerance times the
            state's max-norm over all ranks.  A state that zfp would not
            shrink below its own size is kept losslessly instead.

  Each kept state carries its length, how it was encoded and an XXH3-64
  checksum over the bytes kept (Debian's libxxhash): a read checks the
  checksum before it decodes, so damaged bytes are refused, never decoded
  (zfp's decoder trusts its input), and every rank agrees on the refusal.
*/
#include "rwconfig.h"
#include <rewind/private/storeimpl.h>
#include <petscdmda.h>
#include <blosc.h>
#include <xxhash.h>
#if defined(RW_HAVE_ZFP)
  #include <zfp.h>
#endif

const char *const RwStoreCompressTypes[] = {"none", "lossless", "zfp", "RwStoreCompressType", "RW_STORE_COMPRESS_", NULL};

#define RW_CODEC_BLOSC_LEVEL 5
#define RW_CODEC_MSGLEN      512

/*
  A zfp tolerance option: a number in (0, 1) or auto (*isauto; *tol is then
  left as it is, a valid bound the driver replaces before each solve).  Read
  as a string because of auto, the number through RwParseReal(), the checks
  of the project's numeric readers (NaN and 1 refused, naming the option).
*/
PetscErrorCode RwCodecToleranceFromOptions(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], PetscReal *tol, PetscBool *isauto, PetscBool *set)
{
  char      str[64], why[160];
  PetscBool given, ok;

  PetscFunctionBegin;
  if (*isauto) PetscCall(PetscStrncpy(str, "auto", sizeof(str)));
  else PetscCall(PetscSNPrintf(str, sizeof(str), "%g", (double)*tol));
  PetscCall(PetscOptionsString(opt, text, "RwStoreSetCompress", str, str, sizeof(str), &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrcmp(str, "auto", isauto));
  if (*isauto) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwParseReal(str, 0, 1, RW_RANGE_OPEN, tol, &ok, why, sizeof(why)));
  PetscCheck(ok, PetscOptionsObject->comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s %s: %s, or auto", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1, str[0] ? str : "(no value)", why);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options of any store's codec, read by RwStoreSetFromOptions() */
PetscErrorCode RwCodecSetFromOptions(RwStore store, PetscOptionItems *PetscOptionsObject)
{
  RwCodec  *c = &store->codec;
  char      name[64];
  PetscBool set, found;
  PetscInt  i;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(name, RwStoreCompressTypes[c->type], sizeof(name)));
  if (c->isauto) PetscCall(PetscStrncpy(name, "auto", sizeof(name)));
  PetscCall(PetscOptionsString("-rw_store_compress", "How checkpoints are kept: none, lossless (shuffle + LZ4, bitwise), zfp (within -rw_store_compress_tolerance) or auto (chosen by the driver from measured costs; zfp only with a tolerance given)", "RwStoreSetCompress", name, name, sizeof(name), &set));
  if (set) {
    PetscCall(PetscStrcmp(name, "auto", &c->isauto));
    found = c->isauto;
    if (!c->isauto) PetscCall(PetscEListFind(3, RwStoreCompressTypes, name, &i, &found));
    PetscCheck(found, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_UNKNOWN_TYPE, "-%srw_store_compress %s: unknown codec; expected none, lossless, zfp or auto", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", name);
    c->type = c->isauto ? RW_STORE_COMPRESS_NONE : (RwStoreCompressType)i; /* auto: none until the driver chooses */
  }
  /* read whatever the codec, so that -help lists it beside -rw_store_compress */
  PetscCall(RwCodecToleranceFromOptions(PetscOptionsObject, "-rw_store_compress_tolerance", "zfp's error bound relative to each state's max-norm, in (0, 1), or auto: the largest whose estimated relative gradient error stays below -rw_adjoint_gradient_rtol (zfp only; with -rw_store_compress auto, allows zfp)", &c->tol, &c->tolauto, &set));
  if (set) c->tolgiven = PETSC_TRUE;
  PetscCall(RwStoreSetCompress(store, c->type, c->tol)); /* the checks of a program's own choice */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetCompress - how the store keeps its states

  Logically collective; before RwStoreSetUp()

  Input Parameters:
+ store - the store
. type  - RW_STORE_COMPRESS_NONE, RW_STORE_COMPRESS_LOSSLESS (byte shuffle + LZ4:
          states read back bitwise) or RW_STORE_COMPRESS_ZFP (lossy, needs a
          build with zfp)
- tol   - for zfp: the absolute error bound of each value, relative to the
          state's max-norm over the ranks, 0 < tol < 1; ignored otherwise

  Options Database Keys:
+ -rw_store_compress <none,lossless,zfp> - the codec
- -rw_store_compress_tolerance <tol>     - zfp's relative error bound (default 1e-6)

  Level: intermediate

.seealso: RwStoreGetCompress(), RwStoreGetCounts()
@*/
PetscErrorCode RwStoreSetCompress(RwStore store, RwStoreCompressType type, PetscReal tol)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Choose the store's compression before RwStoreSetUp()");
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)store, &prefix));
  PetscCheck(type >= RW_STORE_COMPRESS_NONE && type <= RW_STORE_COMPRESS_ZFP, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "Unknown store compression %d: expected none, lossless or zfp", (int)type);
#if !defined(RW_HAVE_ZFP)
  PetscCheck(type != RW_STORE_COMPRESS_ZFP, PetscObjectComm((PetscObject)store), PETSC_ERR_SUP, "-%srw_store_compress zfp: this rewind was built without zfp; install libzfp-dev (or zfp), rerun ./configure and rebuild, or use -%srw_store_compress lossless", prefix ? prefix : "", prefix ? prefix : "");
#endif
  PetscCheck(type != RW_STORE_COMPRESS_ZFP || (tol > 0 && tol < 1), PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_store_compress_tolerance %g: expected a relative error bound in (0, 1)", prefix ? prefix : "", (double)tol);
  store->codec.type = type;
  store->codec.tol  = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetCompress - how the store keeps its states

  Not collective

  Output Parameters:
+ type - the codec
- tol  - zfp's relative error bound (may be NULL)

  Level: intermediate

.seealso: RwStoreSetCompress()
@*/
PetscErrorCode RwStoreGetCompress(RwStore store, RwStoreCompressType *type, PetscReal *tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  if (type) *type = store->codec.type;
  if (tol) *tol = store->codec.tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetCompressAuto - whether the driver that owns the store chooses its
  codec from measured costs (-rw_store_compress auto), and whether that choice
  may be zfp, a lossy gradient (only when the user gave a tolerance)

  Logically collective; before RwStoreSetUp()

  Input Parameters:
+ store  - the store
. isauto - the codec is auto; a store used on its own keeps its states uncompressed
- lossy  - zfp is a candidate

  Notes:
  The driver (RwAdjoint) calls RwStoreSetCompress() with its choice before the
  store's set-up; RwAdjointGetCodecChoice() says what it chose and why.

  Level: advanced

.seealso: RwStoreSetCompress(), RwStoreGetCompressAuto(), RwAdjointGetCodecChoice()
@*/
PetscErrorCode RwStoreSetCompressAuto(RwStore store, PetscBool isauto, PetscBool lossy)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Choose the store's compression before RwStoreSetUp()");
  store->codec.isauto   = isauto;
  store->codec.tolgiven = lossy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetCompressAuto - whether the codec is auto (RwStoreSetCompressAuto())

  Not collective

  Output Parameters:
+ isauto - -rw_store_compress auto
- lossy  - zfp may be chosen: a tolerance was given (may be NULL)

  Level: advanced

.seealso: RwStoreSetCompressAuto()
@*/
PetscErrorCode RwStoreGetCompressAuto(RwStore store, PetscBool *isauto, PetscBool *lossy)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *isauto = store->codec.isauto;
  if (lossy) *lossy = store->codec.tolgiven;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetCompressToleranceAuto - whether the driver chooses zfp's tolerance
  before each solve, from the gradient error it estimated
  (-rw_store_compress_tolerance auto)

  Logically collective; before RwStoreSetUp()

  Level: advanced

.seealso: RwStoreSetCompress(), RwStoreSetCompressTolerance(), RwAdjointGetGradientErrorEstimate()
@*/
PetscErrorCode RwStoreSetCompressToleranceAuto(RwStore store, PetscBool isauto)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Choose the store's compression before RwStoreSetUp()");
  store->codec.tolauto = isauto;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetCompressToleranceAuto - whether zfp's tolerance is auto (RwStoreSetCompressToleranceAuto())

  Not collective

  Level: advanced

.seealso: RwStoreSetCompressToleranceAuto()
@*/
PetscErrorCode RwStoreGetCompressToleranceAuto(RwStore store, PetscBool *isauto)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *isauto = store->codec.tolauto;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreSetCompressTolerance - zfp's tolerance for the states written from
  now on; unlike RwStoreSetCompress(), also after set-up (a slot's capacity
  does not depend on it), between solves: what -rw_store_compress_tolerance
  auto does

  Logically collective

  Input Parameters:
+ store - the store, with zfp
- tol   - relative to each state's max-norm, 0 < tol < 1

  Level: advanced

.seealso: RwStoreSetCompress(), RwStoreSetCompressToleranceAuto()
@*/
PetscErrorCode RwStoreSetCompressTolerance(RwStore store, PetscReal tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->codec.type == RW_STORE_COMPRESS_ZFP, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONGSTATE, "A tolerance is for -rw_store_compress zfp; this store's codec is %s", RwStoreCompressTypes[store->codec.type]);
  PetscCheck(tol > 0 && tol < 1, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "zfp tolerance %g: expected a relative error bound in (0, 1)", (double)tol);
  store->codec.tol = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreGetWriteError - the relative error of the state the last write kept:
  |x~ - x|_2 / |x|_2, with x~ what a read will give back

  Not collective (the same on every rank)

  Output Parameter:
. rel - 0 when the state was kept bitwise (no codec, lossless, or zfp's
        lossless fallback); for zfp, measured by decoding what was kept once

  Level: advanced

  Notes:
  The driver sums it into its estimate of the gradient error (RwAdjointGetGradientErrorEstimate()).

.seealso: RwStoreSetCompress(), RwAdjointGetGradientErrorEstimate()
@*/
PetscErrorCode RwStoreGetWriteError(RwStore store, PetscReal *rel)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *rel = store->codec.lastrel;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(RW_HAVE_ZFP)
/* This rank's block of the grid, x fastest, for zfp; a state without a DMDA is one row */
static PetscErrorCode RwCodecBlock(RwStore store)
{
  RwCodec  *c = &store->codec;
  DM        dm;
  PetscBool isda = PETSC_FALSE;
  PetscInt  n;

  PetscFunctionBegin;
  PetscCall(VecGetDM(store->templ, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  c->n[0] = c->n[1] = c->n[2] = 1;
  if (isda) {
    PetscCall(DMDAGetInfo(dm, &c->dim, NULL, NULL, NULL, NULL, NULL, NULL, &c->dof, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(dm, NULL, NULL, NULL, &c->n[0], &c->n[1], &c->n[2]));
    c->planes = (PetscBool)(store->statelayout == RW_STORE_STATE_PLANES && c->dof > 1);
  } else {
    PetscCall(VecGetLocalSize(store->templ, &n));
    c->dim = 1, c->dof = 1, c->n[0] = n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Component comp of the block as a zfp field on array a: strided by dof when
   the components interleave, a contiguous block of its own in planes */
static zfp_field *RwCodecField(const RwCodec *c, PetscScalar *a, PetscInt comp)
{
  const ptrdiff_t sx = c->planes ? 1 : c->dof, sy = sx * c->n[0], sz = sy * c->n[1];
  PetscScalar    *b  = a ? a + (c->planes ? comp * c->n[0] * c->n[1] * c->n[2] : comp) : NULL;
  zfp_field      *f;

  if (c->dim == 1) {
    f = zfp_field_1d(b, zfp_type_double, (size_t)c->n[0]);
    if (f) zfp_field_set_stride_1d(f, sx);
  } else if (c->dim == 2) {
    f = zfp_field_2d(b, zfp_type_double, (size_t)c->n[0], (size_t)c->n[1]);
    if (f) zfp_field_set_stride_2d(f, sx, sy);
  } else {
    f = zfp_field_3d(b, zfp_type_double, (size_t)c->n[0], (size_t)c->n[1], (size_t)c->n[2]);
    if (f) zfp_field_set_stride_3d(f, sx, sy, sz);
  }
  return f;
}

/* The most bytes zfp can write for a state, in fixed-accuracy mode at any tolerance */
static PetscErrorCode RwCodecZfpBound(RwCodec *c, size_t *bound)
{
  zfp_stream *zs = zfp_stream_open(NULL);

  PetscFunctionBegin;
  PetscCheck(zs, PETSC_COMM_SELF, PETSC_ERR_MEM, "zfp could not open a stream");
  zfp_stream_set_accuracy(zs, 1e-300); /* the bound is the same for every tolerance; this one makes every bit plane count */
  *bound = 64;
  for (PetscInt comp = 0; comp < c->dof; comp++) {
    zfp_field *f = RwCodecField(c, NULL, 0);

    *bound += zfp_stream_maximum_size(zs, f);
    zfp_field_free(f);
  }
  zfp_stream_close(zs);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* Slot capacity and scratch, from the template; called by the types' set-up */
PetscErrorCode RwCodecSetUp(RwStore store)
{
  RwCodec *c = &store->codec;

  PetscFunctionBegin;
  c->raw = (size_t)store->bytes;
  c->cap = c->raw + BLOSC_MAX_OVERHEAD; /* Blosc keeps what it cannot shrink as it is */
  if (c->type != RW_STORE_COMPRESS_ZFP || c->scratch) PetscFunctionReturn(PETSC_SUCCESS); /* once: RwStoreCompressedSize() may have set it up before the store */
#if defined(RW_HAVE_ZFP)
  PetscCall(RwCodecBlock(store));
  PetscCall(RwCodecZfpBound(c, &c->scratchcap));
  PetscCall(PetscMalloc(c->scratchcap, &c->scratch));
  PetscCall(VecDuplicate(store->templ, &c->work));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwCodecDestroy(RwCodec *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(c->scratch));
  PetscCall(VecDestroy(&c->work));
  c->scratchcap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwCodecBlosc(RwCodec *c, const PetscScalar a[], void *out, RwCodecRecord *rec)
{
  int len;

  PetscFunctionBegin;
  len = blosc_compress_ctx(RW_CODEC_BLOSC_LEVEL, BLOSC_SHUFFLE, sizeof(PetscScalar), c->raw, a, out, c->cap, "lz4", 0, 1);
  PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "Blosc could not compress a state of %zu bytes into %zu (error %d)", c->raw, c->cap, len);
  rec->len    = (size_t)len;
  rec->method = RW_CODEC_BLOSC;
  rec->tolabs = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(RW_HAVE_ZFP)
/* zfp into the scratch, every component in one stream; *len 0 when zfp failed */
static size_t RwCodecZfpEncode(RwCodec *c, const PetscScalar a[], PetscReal tolabs)
{
  zfp_stream *zs  = zfp_stream_open(NULL);
  bitstream  *bs  = stream_open(c->scratch, c->scratchcap);
  size_t      len = 0;

  if (!zs || !bs) goto done;
  zfp_stream_set_accuracy(zs, tolabs);
  zfp_stream_set_bit_stream(zs, bs);
  zfp_stream_rewind(zs);
  for (PetscInt comp = 0; comp < c->dof; comp++) {
    zfp_field *f = RwCodecField(c, (PetscScalar *)a, comp);

    len = f ? zfp_compress(zs, f) : 0;
    zfp_field_free(f);
    if (!len) break;
  }
done:
  if (zs) zfp_stream_close(zs);
  if (bs) stream_close(bs);
  return len;
}
#endif

#if defined(RW_HAVE_ZFP)
/* len bytes of zfp's stream, made at tolabs, into a; 0 when zfp failed */
static size_t RwCodecZfpDecode(RwCodec *c, const void *in, size_t len, PetscReal tolabs, PetscScalar a[])
{
  zfp_stream *zs = zfp_stream_open(NULL);
  bitstream  *bs = stream_open((void *)in, len);
  size_t      ok = zs && bs;

  if (ok) {
    zfp_stream_set_accuracy(zs, tolabs);
    zfp_stream_set_bit_stream(zs, bs);
    zfp_stream_rewind(zs);
  }
  for (PetscInt comp = 0; ok && comp < c->dof; comp++) {
    zfp_field *f = RwCodecField(c, a, comp);

    ok = f ? zfp_decompress(zs, f) : 0;
    zfp_field_free(f);
  }
  if (zs) zfp_stream_close(zs);
  if (bs) stream_close(bs);
  return ok;
}

/* The relative error of what zfp kept of u (in the scratch): decoded once
   into work, the larger of |x~ - x|_2 / |x|_2 and the same ratio of their
   first differences (summed over the axes, within each rank's block).  What
   the gradient-error estimate needs (src/adjoint/errest.c): the gradients
   read derivatives of the state (heat's kappa: grad x; wave's m: its
   Laplacian), and zfp's error is rough at the grid's scale, so it is much
   larger, relatively, in the state's differences than in the state (wave
   128^2: the state's ratio alone ran 30x below the measured gradient
   error).  zfp's own bound is on the max-norm and far above the typical
   error.  PETSc's norms, not exact sums: zfp codes each rank's block on its
   own, so the error itself depends on the decomposition */
/* Sums of squares of a's forward differences along each axis of this
   rank's block, every component on its own (block-interior pairs only: a
   ratio of two such sums needs no halo) */
static PetscReal RwCodecDiffSquares(const RwCodec *c, const PetscScalar a[])
{
  const PetscInt n[3] = {c->n[0], c->n[1], c->n[2]}, dof = c->dof, pd = c->planes ? 1 : dof;
  const PetscInt st[3] = {pd, pd * n[0], pd * n[0] * n[1]}, sq = c->planes ? n[0] * n[1] * n[2] : 1;
  PetscReal      s = 0;

  for (PetscInt d = 0; d < c->dim; d++)
    for (PetscInt z = 0; z < n[2] - (d == 2); z++)
      for (PetscInt y = 0; y < n[1] - (d == 1); y++)
        for (PetscInt x = 0; x < n[0] - (d == 0); x++)
          for (PetscInt q = 0; q < dof; q++) {
            const PetscInt  i = x * st[0] + y * st[1] + z * st[2] + q * sq;
            const PetscReal g = PetscRealPart(a[i + st[d]] - a[i]);

            s += g * g;
          }
  return s;
}

static PetscErrorCode RwCodecZfpMeasure(RwStore store, Vec u, size_t len, PetscReal tolabs)
{
  RwCodec           *c = &store->codec;
  PetscScalar       *w;
  const PetscScalar *a;
  PetscReal          e, x, d[2];
  int                ok;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(c->work, &w));
  ok = (int)RwCodecZfpDecode(c, c->scratch, len, tolabs, w);
  PetscCall(VecRestoreArrayWrite(c->work, &w));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)store)));
  PetscCheck(ok, PetscObjectComm((PetscObject)store), PETSC_ERR_LIB, "zfp could not decode the %zu bytes it had just written", len);
  PetscCall(VecAXPY(c->work, -1, u));
  PetscCall(VecNormBegin(c->work, NORM_2, &e)); /* one reduction for both */
  PetscCall(VecNormBegin(u, NORM_2, &x));
  PetscCall(VecNormEnd(c->work, NORM_2, &e));
  PetscCall(VecNormEnd(u, NORM_2, &x));
  PetscCall(VecGetArrayRead(c->work, &a));
  d[0] = RwCodecDiffSquares(c, a);
  PetscCall(VecRestoreArrayRead(c->work, &a));
  PetscCall(VecGetArrayRead(u, &a));
  d[1] = RwCodecDiffSquares(c, a);
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, d, 2, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)store)));
  c->lastrel = x > 0 ? e / x : 0;
  if (d[1] > 0) c->lastrel = PetscMax(c->lastrel, PetscSqrtReal(d[0] / d[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* zfp within tol times the state's max-norm; a state it does not shrink (or all zeros) goes to Blosc */
static PetscErrorCode RwCodecZfp(RwStore store, Vec u, const PetscScalar a[], void *out, RwCodecRecord *rec)
{
#if defined(RW_HAVE_ZFP)
  RwCodec  *c = &store->codec;
  PetscReal norm;
  size_t    len;
  int       fits, all;

  PetscFunctionBegin;
  PetscCall(VecNorm(u, NORM_INFINITY, &norm));
  rec->tolabs = c->tol * norm;
  len         = rec->tolabs > 0 ? RwCodecZfpEncode(c, a, rec->tolabs) : 0;
  fits        = len > 0 && len < c->raw;
  PetscCallMPI(MPI_Allreduce(&fits, &all, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)store))); /* every rank's part has the same error bound */
  if (!all) {
    PetscCall(RwCodecBlosc(c, a, out, rec));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMemcpy(out, c->scratch, len));
  rec->len    = len;
  rec->method = RW_CODEC_ZFP;
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  PetscFunctionBegin;
  (void)u, (void)a, (void)out, (void)rec;
  SETERRQ(PetscObjectComm((PetscObject)store), PETSC_ERR_SUP, "This rewind was built without zfp");
#endif
}

/* Encodes state u into out (the store's slot, of codec.cap bytes) and describes what it kept; collective */
PetscErrorCode RwCodecEncode(RwStore store, Vec u, void *out, RwCodecRecord *rec)
{
  RwCodec           *c = &store->codec;
  const PetscScalar *a;
  PetscLogDouble     t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(VecGetArrayRead(u, &a));
  if (c->type == RW_STORE_COMPRESS_ZFP) PetscCall(RwCodecZfp(store, u, a, out, rec));
  else PetscCall(RwCodecBlosc(c, a, out, rec));
  PetscCall(VecRestoreArrayRead(u, &a));
  c->lastrel = 0;
#if defined(RW_HAVE_ZFP)
  if (rec->method == RW_CODEC_ZFP) PetscCall(RwCodecZfpMeasure(store, u, rec->len, rec->tolabs));
#endif
  rec->sum = XXH3_64bits(out, rec->len);
  PetscCall(PetscTime(&t1));
  store->counts.bytes_kept += (PetscInt64)rec->len;
  store->counts.seconds_compress += t1 - t0;
  store->counts.max_error = PetscMax(store->counts.max_error, rec->tolabs);
  store->counts.kept_max  = PetscMax(store->counts.kept_max, (PetscInt64)rec->len);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwStoreCompressedSize - the bytes the store's codec keeps state u in, the
  largest over the ranks (the state's own size without compression)

  Collective; after RwStoreSetTemplate() and the codec's choice, before or after RwStoreSetUp()

  Notes:
  The driver plans a byte budget's slots from it, with the first state x_0
  as the estimate of every state's size.  Not counted in the store's counts.

  Level: advanced

.seealso: RwStoreSetPool(), RwStoreSetCompress()
@*/
PetscErrorCode RwStoreCompressedSize(RwStore store, Vec u, PetscInt64 *bytes)
{
  RwStoreCounts  keep = store->counts;
  RwCodecRecord  rec;
  char          *buf;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscCheck(store->templ, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Call RwStoreSetTemplate() before RwStoreCompressedSize()");
  *bytes = store->bytes;
  if (store->codec.type == RW_STORE_COMPRESS_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  if (!store->setupcalled) PetscCall(RwCodecSetUp(store));
  PetscCall(PetscMalloc1(store->codec.cap, &buf)); /* once per plan, outside the time loop */
  PetscCall(RwCodecEncode(store, u, buf, &rec));
  PetscCall(PetscFree(buf));
  store->counts = keep;
  *bytes        = (PetscInt64)rec.len;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, bytes, 1, MPIU_INT64, MPI_MAX, PetscObjectComm((PetscObject)store)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why a kept state cannot be decoded on this rank ("" when it can) */
static void RwCodecDecodeLocal(RwCodec *c, const void *in, const RwCodecRecord *rec, PetscScalar a[], char why[])
{
  int n;

  why[0] = 0;
  if (rec->len > c->cap || XXH3_64bits(in, rec->len) != rec->sum) {
    snprintf(why, RW_CODEC_MSGLEN, "its %zu compressed bytes fail their checksum: they were damaged", rec->len);
    return;
  }
  if (rec->method == RW_CODEC_BLOSC) {
    n = blosc_decompress_ctx(in, a, c->raw, 1);
    if (n != (int)c->raw) snprintf(why, RW_CODEC_MSGLEN, "Blosc decoded %d bytes of %zu (error or wrong size)", n, c->raw);
    return;
  }
#if defined(RW_HAVE_ZFP)
  if (rec->method == RW_CODEC_ZFP) {
    if (!RwCodecZfpDecode(c, in, rec->len, rec->tolabs, a)) snprintf(why, RW_CODEC_MSGLEN, "zfp could not decode its %zu bytes", rec->len);
    return;
  }
#endif
  snprintf(why, RW_CODEC_MSGLEN, "unknown encoding %d", (int)rec->method);
}

/* Decodes the state kept in a slot into u, after checking its checksum;
   where names the checkpoint for a refusal ("checkpoint slot 3 (step 12) of
   the memory store"); collective: every rank agrees on a failure */
PetscErrorCode RwCodecDecode(RwStore store, const void *in, const RwCodecRecord *rec, const char where[], Vec u)
{
  PetscFunctionBegin;
  PetscCall(RwCodecDecodeAgree(store, in, rec, where, NULL, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwCodecDecode() for a store that may already know a reason to refuse on
   this rank (prior, not yet agreed): nothing is decoded here then, and the
   ranks agree once on whichever refusal there is */
PetscErrorCode RwCodecDecodeAgree(RwStore store, const void *in, const RwCodecRecord *rec, const char where[], const char prior[], Vec u)
{
  char           why[RW_CODEC_MSGLEN], msg[3 * PETSC_MAX_PATH_LEN] = "";
  PetscScalar   *a;
  PetscLogDouble t0, t1;
  PetscMPIInt    rank;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(VecGetArrayWrite(u, &a));
  if (!prior || !prior[0]) RwCodecDecodeLocal(&store->codec, in, rec, a, why);
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)store), &rank));
  if (prior && prior[0]) snprintf(msg, sizeof(msg), "%s", prior);
  else if (why[0]) snprintf(msg, sizeof(msg), "Compressed %s on rank %d: %s", where, (int)rank, why);
  PetscCall(RwErrorAgree(PetscObjectComm((PetscObject)store), RW_AGREE_ANY, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCall(PetscTime(&t1));
  store->counts.seconds_decompress += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the codec did on this rank: the ratio, its seconds, zfp's bound */
PetscErrorCode RwCodecView(RwStore store, PetscViewer viewer)
{
  const RwStoreCounts *c = &store->counts;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " writes kept %" PetscInt64_FMT " bytes of %" PetscInt64_FMT " (ratio %.3g) in %.3g s, %" PetscInt64_FMT " reads decoded in %.3g s\n", c->writes, c->bytes_kept, c->bytes_written, c->bytes_kept > 0 ? (double)c->bytes_written / (double)c->bytes_kept : 0.0, (double)c->seconds_compress, c->reads, (double)c->seconds_decompress));
  if (store->codec.type == RW_STORE_COMPRESS_ZFP) PetscCall(PetscViewerASCIIPrintf(viewer, "zfp tolerance %g of each state's max-norm; largest error bound %g\n", (double)store->codec.tol, (double)c->max_error));
  PetscFunctionReturn(PETSC_SUCCESS);
}
