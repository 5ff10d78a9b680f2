/*
  The machine's limit: STREAM-like copy and triad bandwidth, with 1, 2, 4, ...
  and all ranks active at once (the others wait), in the same process as the
  kernels they are the reference for.
*/
#include "bench.h"

typedef struct {
  PetscInt  n;
  double   *a, *b, *c;
  PetscBool active, triad;
} StreamCtx;

/* "+ 0.0" keeps GCC from turning the loop into memcpy, whose non-temporal
   stores on large copies no heat kernel uses: the reference must move data
   the way the kernels do */
static void StreamCopy(PetscInt n, const double *restrict a, double *restrict b)
{
  for (PetscInt i = 0; i < n; i++) b[i] = a[i] + 0.0;
}

static void StreamTriad(PetscInt n, double *restrict a, const double *restrict b, const double *restrict c, double q)
{
  for (PetscInt i = 0; i < n; i++) a[i] = b[i] + q * c[i];
}

static PetscErrorCode StreamRun(void *ctx, PetscInt calls)
{
  StreamCtx *s = (StreamCtx *)ctx;

  PetscFunctionBegin;
  if (!s->active) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < calls; k++) {
    if (s->triad) StreamTriad(s->n, s->a, s->b, s->c, 3.0);
    else StreamCopy(s->n, s->a, s->b);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copy and triad with ranks [0, p) active; GB/s summed over the active
   ranks.  Each is timed in rounds, alternated, and keeps its best: on this
   shared host about one copy measurement in five read 34-36 GB/s (2 ranks)
   while the triad timed right after it and the other runs' copies read
   46-54, and a low reference inflates every fraction of copy.  The spread
   is over all rounds.  Rounds do not hide the host's slow stretches, of
   seconds to minutes, in which copy and triad both read 34-38 GB/s
   (doc/notes/benchmarks-log.md) */
#define STREAM_ROUNDS 3

static PetscErrorCode StreamRanks(const BenchConfig *cfg, BenchResults res, StreamCtx *s, PetscMPIInt p, PetscMPIInt size)
{
  PetscMPIInt rank;
  BenchTiming copy, triad;
  double      gb = (double)p * s->n * sizeof(double) / 1e9;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  s->active = rank < p ? PETSC_TRUE : PETSC_FALSE;
  copy.best = triad.best = PETSC_MAX_REAL;
  copy.worst = triad.worst = 0;
  for (PetscInt round = 0; round < STREAM_ROUNDS; round++) {
    BenchTiming t;

    for (PetscInt f = 0; f < 2; f++) {
      BenchTiming *all = f ? &triad : &copy;

      s->triad = (PetscBool)f;
      PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, StreamRun, s, &t));
      all->best  = PetscMin(all->best, t.best);
      all->worst = PetscMax(all->worst, t.worst);
    }
  }
  PetscCall(BenchRow(res, "%d/%d ranks", p, size));
  PetscCall(BenchReal(res, "copy", "GB/s", 2 * gb / copy.best));
  PetscCall(BenchReal(res, "copy_per_rank", "GB/s", 2 * gb / copy.best / p));
  PetscCall(BenchReal(res, "triad", "GB/s", 3 * gb / triad.best));
  PetscCall(BenchReal(res, "triad_per_rank", "GB/s", 3 * gb / triad.best / p));
  PetscCall(BenchReal(res, "spread", "%", 100 * PetscMax(BenchSpread(&copy), BenchSpread(&triad))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The copy bandwidth of all ranks now, for the case about to run: its
  of_copy_near, and one of the copies whose best the targets divide by
  (BenchCopyBest()).  On this shared host one copy reads 34-38 or 50-63
  GB/s from one timing to the next, a copy timed just before a case as much
  as the stream section's; the kernels follow only sometimes (2D order 8
  forward, 4096^2, two runs: 32.4 and 35.7 GB/s beside copies of 36.9 and
  61.5; 3D order 2, 256^3: 25.4 and 37.7 beside 33.7 and 61.1).  Arrays of
  the stream section's size, allocated and first touched here, outside the
  timing
*/
PetscErrorCode BenchCopyNear(const BenchConfig *cfg, PetscReal *gbs)
{
  StreamCtx   s = {cfg->stream_n, NULL, NULL, NULL, PETSC_TRUE, PETSC_FALSE};
  BenchTiming t;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMalloc2(s.n, &s.a, s.n, &s.b));
  for (PetscInt i = 0; i < s.n; i++) s.a[i] = s.b[i] = 1.0;
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, StreamRun, &s, &t));
  *gbs = 2.0 * size * s.n * sizeof(double) / 1e9 / t.best;
  PetscCall(PetscFree2(s.a, s.b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchStream(const BenchConfig *cfg, BenchResults res)
{
  StreamCtx   s;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(BenchSectionBegin(res, "stream", "memory bandwidth, STREAM-like (the reference of every fraction of bandwidth)"));
  s.n = cfg->stream_n;
  PetscCall(PetscMalloc3(s.n, &s.a, s.n, &s.b, s.n, &s.c));
  for (PetscInt i = 0; i < s.n; i++) { /* first touch by the rank that uses the pages */
    s.a[i] = 1.0;
    s.b[i] = 2.0;
    s.c[i] = 0.5;
  }
  for (PetscMPIInt p = 1; p < size; p *= 2) PetscCall(StreamRanks(cfg, res, &s, p, size));
  PetscCall(StreamRanks(cfg, res, &s, size, size));
  PetscCall(BenchNote(res, "p/N ranks: p ranks stream at once, the others wait; GB/s summed over the p ranks; arrays of %.0f MB per rank", s.n * sizeof(double) / 1e6));
  PetscCall(BenchNote(res, "bytes counted per element: copy b = a 16, triad a = b + q c 24 (STREAM's count: the write-allocate reads of the stores are not counted, as in every kernel figure)"));
  PetscCall(BenchSectionEnd(res));
  PetscCall(PetscFree3(s.a, s.b, s.c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
