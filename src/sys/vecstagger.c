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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RW_STAGGER_PAGE  4096
#define RW_STAGGER_LINE  64
#define RW_STAGGER_STEP  13 /* lines from one vector's offset to the next's; prime to 64, so all 64 come round */

static PetscInt rw_stagger_next = 0; /* set-up runs on the main thread only */

static PetscBool rw_huge_enabled   = PETSC_FALSE; /* -rw_hugepages (RwHugePagesSet()); off: measured no faster (below) */
static size_t    rw_huge_requested = 0;          /* bytes of live arrays asked for in huge pages */

/*
  Huge pages for the large arrays.  A 3D stencil pass reads 2 r + 1 planes
  of its input and its fields and writes its output, each a stream of its
  own: with 4 KiB pages a 256^3 order-8 row touches about 15 pages, more
  than the L1 TLB holds, and the whole pass walks 8 MiB planes apart, past
  what the L2 TLB covers.  Transparent huge pages in the kernel's madvise
  mode back only regions asked for with MADV_HUGEPAGE: so arrays of at
  least a huge page are allocated 2 MiB-aligned and asked for before their
  first touch.  Without THP (or another OS) madvise fails or does nothing
  and the array is an ordinary one: the view says which (RwHugePagesView()).
  Only addresses change, never a value.  Off by default: the 3D wave
  forward at 256^3 was no faster in huge pages (huge / 4 KiB CPU time per
  step in one process, load 10-13, orders 2 / 4 / 8: 0.88-1.18 / 1.09-1.10
  / 0.83-1.08, while a copy of the state ran -2% to 28% faster): the step is
  bound by its loads from cache, not by the TLB (doc/notes/wave-3d-profile.md).
*/
#define RW_HUGE_PAGE ((size_t)2 << 20)

static PetscErrorCode RwHugeFree(void *raw)
{
  const size_t len = *(size_t *)raw; /* the first line holds the length asked for */

  rw_huge_requested -= len;
  free(raw);
  return PETSC_SUCCESS;
}

/* An array of len bytes, with a page before it (its length, then the stagger) and a page after, in huge pages, or PETSC_FALSE to allocate it ordinarily */
static PetscBool RwHugeAlloc(size_t len, char **raw)
{
  size_t size = (len + 2 * RW_STAGGER_PAGE + RW_HUGE_PAGE - 1) / RW_HUGE_PAGE * RW_HUGE_PAGE;
  void  *p;

  *raw = NULL;
  if (!rw_huge_enabled || len < RW_HUGE_PAGE || posix_memalign(&p, RW_HUGE_PAGE, size)) return PETSC_FALSE;
#if defined(MADV_HUGEPAGE)
  (void)madvise(p, size, MADV_HUGEPAGE); /* a kernel without THP refuses: the array stays ordinary, as the view reports */
#endif
  *(size_t *)p = size;
  rw_huge_requested += size;
  *raw = (char *)p;
  return PETSC_TRUE;
}

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
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &owner));
  if (RwHugeAlloc((size_t)n * sizeof(PetscScalar), &raw)) {
    PetscCall(PetscContainerSetUserDestroy(owner, RwHugeFree));
    a = raw + RW_STAGGER_PAGE + RwStaggerNextOffset(); /* the first page holds the length */
  } else {
    PetscCall(PetscMalloc1((size_t)n * sizeof(PetscScalar) + 2 * RW_STAGGER_PAGE, &raw));
    PetscCall(PetscContainerSetUserDestroy(owner, PetscContainerUserDestroyDefault));
    a = raw + (RW_STAGGER_PAGE - (uintptr_t)raw % RW_STAGGER_PAGE) % RW_STAGGER_PAGE + RwStaggerNextOffset();
  }
  PetscCall(PetscArrayzero((PetscScalar *)a, n)); /* the first touch: after madvise, so the kernel backs it with huge pages */
  PetscCall(PetscContainerSetPointer(owner, raw));
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

/*@C
  RwHugePagesSet - whether the large arrays allocated from now on (states,
  fields and work vectors of RwVecDuplicateStaggered(), of at least 2 MiB)
  ask the kernel for transparent huge pages; a process-wide setting, off by
  default (-rw_hugepages, read by RwModelSetFromOptions())

  Not Collective

  Level: developer

.seealso: RwHugePagesView(), RwVecDuplicateStaggered()
@*/
PetscErrorCode RwHugePagesSet(PetscBool on)
{
  PetscFunctionBegin;
  rw_huge_enabled = on;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHugePagesGet - whether large arrays ask for huge pages (RwHugePagesSet()),
  the kernel's THP mode ("always", "madvise", "never", or "unavailable" where
  /sys/kernel/mm/transparent_hugepage/enabled cannot be read), the bytes of
  live arrays asked for, and the bytes of this process's anonymous memory
  the kernel backs with huge pages (AnonHugePages of /proc/self/smaps_rollup;
  -1 where it cannot be read)

  Not Collective

  Level: developer

.seealso: RwHugePagesSet(), RwHugePagesView()
@*/
PetscErrorCode RwHugePagesGet(PetscBool *on, char mode[], size_t len, PetscInt64 *requested, PetscInt64 *granted)
{
  char  line[256];
  FILE *f;

  PetscFunctionBegin;
  if (on) *on = rw_huge_enabled;
  if (requested) *requested = (PetscInt64)rw_huge_requested;
  if (mode) {
    PetscCall(PetscStrncpy(mode, "unavailable", len));
    if ((f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r"))) {
      if (fgets(line, sizeof(line), f)) { /* "always [madvise] never": the bracketed word is the mode */
        char *lo = strchr(line, '['), *hi = lo ? strchr(lo, ']') : NULL;

        if (lo && hi) {
          *hi = 0;
          PetscCall(PetscStrncpy(mode, lo + 1, len));
        }
      }
      (void)fclose(f);
    }
  }
  if (granted) {
    long long kb = -1;

    *granted = -1;
    if ((f = fopen("/proc/self/smaps_rollup", "r"))) {
      while (fgets(line, sizeof(line), f))
        if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1) break;
      (void)fclose(f);
    }
    if (kb >= 0) *granted = (PetscInt64)kb << 10;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwHugePagesView - one line: whether large arrays ask for huge pages, the
  kernel's THP mode, and how much of what they asked for it granted

  Collective on the viewer (values of this rank)

  Level: developer

.seealso: RwHugePagesGet()
@*/
PetscErrorCode RwHugePagesView(PetscViewer viewer)
{
  PetscBool  on;
  char       mode[32];
  PetscInt64 asked, granted;

  PetscFunctionBegin;
  PetscCall(RwHugePagesGet(&on, mode, sizeof(mode), &asked, &granted));
  if (!on) PetscCall(PetscViewerASCIIPrintf(viewer, "huge pages: off (-rw_hugepages 0); the kernel's transparent huge pages: %s\n", mode));
  else if (strcmp(mode, "always") && strcmp(mode, "madvise")) PetscCall(PetscViewerASCIIPrintf(viewer, "huge pages: asked for, but the kernel's transparent huge pages are %s: large arrays use ordinary pages\n", mode));
  else if (granted < 0) PetscCall(PetscViewerASCIIPrintf(viewer, "huge pages: %.1f MiB of large arrays asked for (THP %s); how much was granted is unknown (no /proc/self/smaps_rollup)\n", (double)asked / 1048576.0, mode));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "huge pages: %.1f MiB of large arrays asked for (THP %s), %.1f MiB of the process backed by huge pages (rank 0)\n", (double)asked / 1048576.0, mode, (double)granted / 1048576.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
