/*
  Vectors whose arrays start at staggered offsets within a 4 KiB page.

  A stencil pass streams many arrays at once (the wave adjoint reads
  lambda_k+1, x_k, x_k+1, ia, c1, c2, s and writes lambda_k and dJ/dm).
  Allocated one by one they all start at the same offset within a page, and
  at a power-of-two side (512^2, 256^3) every row starts there too, so the
  values a point reads from every array share one set of L1 (and of L2, every
  128 KiB on the machines measured) and evict each other: 8 ways for a dozen
  streams.  These vectors start at the next of 64 cache-line offsets in an
  order that puts consecutive ones far apart (13 lines on, mod 64), so the
  arrays of a pass fall in different sets (doc/notes/benchmarks-log.md, "Arrays at
  staggered offsets").  Values, layouts and results are those of
  VecDuplicate(): only addresses change.
*/
#include <rewind/private/rwimpl.h>
#include <petsc/private/vecimpl.h> /* the template's ops, which a vector made on an array copies */

#define RW_STAGGER_PAGE  4096
#define RW_STAGGER_LINE  64
#define RW_STAGGER_STEP  13 /* lines from one vector's offset to the next's; prime to 64, so all 64 come round */

static PetscInt rw_stagger_next = 0; /* set-up runs on the main thread only */

/* The byte offset within a page (a multiple of a line) at which the next staggered array starts */
static size_t RwStaggerNextOffset(void)
{
  const size_t off = (size_t)rw_stagger_next * RW_STAGGER_LINE;

  rw_stagger_next = (rw_stagger_next + RW_STAGGER_STEP) % (RW_STAGGER_PAGE / RW_STAGGER_LINE);
  return off;
}

/*@C
  RwStaggerStride - the distance in bytes between consecutive arrays of one
  block (the memory store's slots) of bytes each: whole lines, RW_STAGGER_STEP
  lines past a whole number of pages, so consecutive arrays start at
  staggered offsets as RwVecDuplicateStaggered()'s do

  Not Collective

  Level: developer

.seealso: RwVecDuplicateStaggered()
@*/
size_t RwStaggerStride(size_t bytes)
{
  const size_t lines = (bytes + RW_STAGGER_LINE - 1) / RW_STAGGER_LINE * RW_STAGGER_LINE, step = RW_STAGGER_STEP * RW_STAGGER_LINE;

  return lines + (step + RW_STAGGER_PAGE - lines % RW_STAGGER_PAGE) % RW_STAGGER_PAGE;
}

/*@C
  RwVecCreateOnArray - a vector like templ (its sizes, DM, local-to-global
  map and operations, so views come out in the DM's natural order) whose
  values are the array a; owner, if given, is kept by the vector until it is
  destroyed (whatever frees a)

  Collective

  Level: developer

.seealso: RwVecDuplicateStaggered()
@*/
PetscErrorCode RwVecCreateOnArray(Vec templ, PetscScalar *a, PetscContainer owner, Vec *v)
{
  PetscInt               n, N, bs;
  PetscBool              seq;
  DM                     dm;
  ISLocalToGlobalMapping ltog;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(templ, &n));
  PetscCall(VecGetSize(templ, &N));
  PetscCall(VecGetBlockSize(templ, &bs));
  PetscCall(PetscObjectTypeCompare((PetscObject)templ, VECSEQ, &seq)); /* the type the copied operations belong to */
  if (seq) PetscCall(VecCreateSeqWithArray(PetscObjectComm((PetscObject)templ), bs, n, a, v));
  else PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)templ), bs, n, N, a, v));
  PetscCall(PetscMemcpy((*v)->ops, templ->ops, sizeof(struct _VecOps)));
  PetscCall(VecGetDM(templ, &dm));
  if (dm) PetscCall(VecSetDM(*v, dm));
  PetscCall(VecGetLocalToGlobalMapping(templ, &ltog));
  if (ltog) PetscCall(VecSetLocalToGlobalMapping(*v, ltog));
  if (owner) PetscCall(PetscObjectCompose((PetscObject)*v, "RwVecArrayOwner", (PetscObject)owner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwVecDuplicateStaggered - VecDuplicate(templ, v), zero, with the array
  starting at the next staggered offset within a page (the next of its 64
  lines, RW_STAGGER_STEP on from the last);
  vectors of types other than VECSEQ and VECMPI are made by VecDuplicate()

  Collective

  Level: developer

.seealso: RwVecCreateOnArray(), RwModelCreateState()
@*/
PetscErrorCode RwVecDuplicateStaggered(Vec templ, Vec *v)
{
  PetscBool      plain;
  PetscInt       n;
  char          *raw, *a;
  PetscContainer owner;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)templ, &plain, VECSEQ, VECMPI, ""));
  if (!plain) {
    PetscCall(VecDuplicate(templ, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetLocalSize(templ, &n));
  PetscCall(PetscMalloc1((size_t)n * sizeof(PetscScalar) + 2 * RW_STAGGER_PAGE, &raw));
  a = raw + (RW_STAGGER_PAGE - (uintptr_t)raw % RW_STAGGER_PAGE) % RW_STAGGER_PAGE + RwStaggerNextOffset();
  PetscCall(PetscArrayzero((PetscScalar *)a, n));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &owner));
  PetscCall(PetscContainerSetPointer(owner, raw));
  PetscCall(PetscContainerSetUserDestroy(owner, PetscContainerUserDestroyDefault));
  PetscCall(RwVecCreateOnArray(templ, (PetscScalar *)a, owner, v));
  PetscCall(PetscContainerDestroy(&owner)); /* the vector holds it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwDMCreateVecStaggered - DMCreateGlobalVector() (local PETSC_FALSE) or
  DMCreateLocalVector() (PETSC_TRUE), zero, with the array starting at the
  next staggered offset within a page

  Collective

  Level: developer

.seealso: RwVecDuplicateStaggered()
@*/
PetscErrorCode RwDMCreateVecStaggered(DM dm, PetscBool local, Vec *v)
{
  Vec templ;

  PetscFunctionBegin;
  if (local) PetscCall(DMGetLocalVector(dm, &templ));
  else PetscCall(DMGetGlobalVector(dm, &templ));
  PetscCall(RwVecDuplicateStaggered(templ, v));
  if (local) PetscCall(DMRestoreLocalVector(dm, &templ));
  else PetscCall(DMRestoreGlobalVector(dm, &templ));
  PetscFunctionReturn(PETSC_SUCCESS);
}
