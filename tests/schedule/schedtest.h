/*
  Helpers for the schedule tests (t2xx): building a schedule, replaying it
  against its prediction, and reference optima computed by algorithms that
  share nothing with the library's:
  - ExhaustiveCost: Dijkstra over every two-level schedule (tiny n)
  - BruteForward:   Bellman's recursion over every first checkpoint (revolve)
*/
#ifndef REWIND_TESTS_SCHEDTEST_H
#define REWIND_TESTS_SCHEDTEST_H

#include "rwtest.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define UNL RW_SLOTS_UNLIMITED

/* A schedule set up with the given parameters; ram, disk < -1 mean "not given" */
static inline PetscErrorCode MakeSchedule(const char *type, PetscInt64 n, PetscInt64 ram, PetscInt64 disk, const PetscReal c[4], PetscInt64 period, RwSchedule *s)
{
  PetscFunctionBegin;
  PetscCall(RwScheduleCreate(PETSC_COMM_SELF, s));
  PetscCall(RwScheduleSetType(*s, type));
  PetscCall(RwScheduleSetSteps(*s, n));
  if (ram >= -1) PetscCall(RwScheduleSetSlots(*s, RW_LEVEL_RAM, ram));
  if (disk >= -1) PetscCall(RwScheduleSetSlots(*s, RW_LEVEL_DISK, disk));
  if (c) PetscCall(RwScheduleSetCosts(*s, c[0], c[1], c[2], c[3]));
  if (period) PetscCall(RwScheduleSetPeriod(*s, period));
  PetscCall(RwScheduleSetUp(*s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline int SameCost(double a, double b)
{
  return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

/* Replays s through the validator (every rule) and checks the counts are the prediction */
static inline void ReplayMatchesPrediction(RwSchedule s, const char *what, RwScheduleCounts *out)
{
  RwScheduleCounts r, p;
  PetscInt64       n;
  PetscBool        online;

  RW_CHECK(RwScheduleIsOnline(s, &online));
  RW_CHECK(RwScheduleValidate(s, &r));
  RW_CHECK(RwScheduleGetPrediction(s, &p));
  RW_CHECK(RwScheduleGetSteps(s, &n));
  ck_assert_msg(r.reverse_steps == n && p.reverse_steps == n, "%s: %lld reverse steps", what, (long long)r.reverse_steps);
  ck_assert_msg(r.forward_steps == p.forward_steps, "%s: replayed %lld forward steps, predicted %lld", what, (long long)r.forward_steps, (long long)p.forward_steps);
  ck_assert_msg(r.actions == p.actions, "%s: replayed %lld actions, predicted %lld", what, (long long)r.actions, (long long)p.actions);
  for (int lv = 0; lv < RW_NUM_LEVELS; lv++) {
    ck_assert_msg(r.stores[lv] == p.stores[lv] && r.restores[lv] == p.restores[lv] && r.frees[lv] == p.frees[lv], "%s level %d: replayed %lld/%lld/%lld stores/restores/frees, predicted %lld/%lld/%lld", what, lv, (long long)r.stores[lv], (long long)r.restores[lv], (long long)r.frees[lv], (long long)p.stores[lv],
                  (long long)p.restores[lv], (long long)p.frees[lv]);
    /* an online schedule predicts the slots any stop may use: this stop holds at most that many */
    ck_assert_msg(online ? r.max_slots_used[lv] <= p.max_slots_used[lv] : r.max_slots_used[lv] == p.max_slots_used[lv], "%s level %d: replay held at most %lld, predicted %lld", what, lv, (long long)r.max_slots_used[lv], (long long)p.max_slots_used[lv]);
  }
  ck_assert_msg(r.restores[0] + r.restores[1] == n - 1, "%s: %lld restores; one before each reverse but the first", what, (long long)(r.restores[0] + r.restores[1]));
  ck_assert_msg(SameCost(r.cost, p.cost), "%s: replayed cost %.17g, predicted %.17g", what, r.cost, p.cost);
  if (out) *out = r;
}

/*
  BruteForward - the fewest forward steps reversing n steps with s RAM slots
  (x_0 free): Bellman's recursion over the first store of every segment,
  F(l, c) = min( l-1 + F(l-1, c), min_j j + F(l-j, c-1) + F(j, c) ), plus the
  driver's step to x_n.  F is (l, c) -> 64-bit, row-major by c.
*/
static inline int64_t BruteForward(int n, int s)
{
  int64_t *F = calloc((size_t)(n + 1) * (size_t)(s + 1), sizeof(int64_t)), r;

  for (int c = 0; c <= s; c++)
    for (int l = 2; l <= n; l++) {
      int64_t best = (l - 1) + F[(size_t)c * (n + 1) + l - 1];
      for (int j = 1; c >= 1 && j <= l - 2; j++) {
        int64_t v = j + F[(size_t)(c - 1) * (n + 1) + l - j] + F[(size_t)c * (n + 1) + j];
        if (v < best) best = v;
      }
      F[(size_t)c * (n + 1) + l] = best;
    }
  r = F[(size_t)s * (n + 1) + n] + 1;
  free(F);
  return r;
}

/*
  ExhaustiveCost - the cheapest schedule of all, by Dijkstra over states
  (steps left m, working position or none, set of RAM checkpoints, set of
  disk checkpoints): any advance by one step (uf), store (RAM free, disk wd),
  restore (RAM or x_0 free, disk rd), drop of a checkpoint, and the reverse
  of step m-1 from x_(m-1).  No structure is assumed.  n <= 10.
*/
typedef struct {
  double   d;
  uint32_t s;
} HeapItem;

typedef struct {
  HeapItem *h;
  size_t    len, cap;
} Heap;

static inline void HeapPush(Heap *q, double d, uint32_t s)
{
  size_t i;

  if (q->len == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 1024;
    q->h   = realloc(q->h, q->cap * sizeof(HeapItem));
  }
  for (i = q->len++; i > 0 && q->h[(i - 1) / 2].d > d; i = (i - 1) / 2) q->h[i] = q->h[(i - 1) / 2];
  q->h[i] = (HeapItem){d, s};
}

static inline HeapItem HeapPop(Heap *q)
{
  HeapItem top = q->h[0], last = q->h[--q->len];
  size_t   i   = 0, c;

  while ((c = 2 * i + 1) < q->len) {
    if (c + 1 < q->len && q->h[c + 1].d < q->h[c].d) c++;
    if (q->h[c].d >= last.d) break;
    q->h[i] = q->h[c];
    i       = c;
  }
  if (q->len) q->h[i] = last;
  return top;
}

typedef struct {
  int    n, sr, sd, bits;
  double uf, wd, rd;
} Exh;

/* State code: m, pos+1, RAM set, disk set (bit i-1: x_i held) */
static inline uint32_t ExhCode(const Exh *e, int m, int pos, uint32_t ram, uint32_t disk)
{
  uint32_t keep = (m >= 2) ? (1u << (m - 1)) - 1 : 0; /* only x_1 .. x_(m-1) may be needed again */
  return ((((uint32_t)m * (uint32_t)(e->n + 1) + (uint32_t)(pos + 1)) << (2 * e->bits)) | ((ram & keep) << e->bits) | (disk & keep));
}

static inline void ExhRelax(double *dist, Heap *q, double d, uint32_t s)
{
  if (d < dist[s] - 1e-12) {
    dist[s] = d;
    HeapPush(q, d, s);
  }
}

static inline double ExhaustiveCost(int n, int sr, int sd, double uf, double ub, double wd, double rd)
{
  Exh      e     = {n, sr, sd, n >= 3 ? n - 2 : 0, uf, wd, rd};
  size_t   size  = (size_t)(n + 1) * (size_t)(n + 1) << (2 * e.bits);
  double  *dist  = malloc(size * sizeof(double)), best = -1;
  Heap     q     = {NULL, 0, 0};
  uint32_t mask  = (1u << e.bits) - 1;

  for (size_t i = 0; i < size; i++) dist[i] = INFINITY;
  ExhRelax(dist, &q, 0, ExhCode(&e, n, 0, 0, 0));
  while (q.len) {
    HeapItem it = HeapPop(&q);
    uint32_t s = it.s, ram = (s >> e.bits) & mask, disk = s & mask, mp = s >> (2 * e.bits);
    int      m = (int)(mp / (uint32_t)(n + 1)), pos = (int)(mp % (uint32_t)(n + 1)) - 1;

    if (it.d > dist[s]) continue;
    if (m == 0) {
      best = it.d;
      break;
    }
    if (pos == m - 1) ExhRelax(dist, &q, it.d, ExhCode(&e, m - 1, -1, ram, disk));
    if (pos >= 0 && pos < m - 1) ExhRelax(dist, &q, it.d + uf, ExhCode(&e, m, pos + 1, ram, disk));
    if (pos >= 1 && pos < m - 1) {
      uint32_t b = 1u << (pos - 1);
      if (!(ram & b) && __builtin_popcount(ram) < sr) ExhRelax(dist, &q, it.d, ExhCode(&e, m, pos, ram | b, disk));
      if (!(disk & b) && __builtin_popcount(disk) < sd) ExhRelax(dist, &q, it.d + wd, ExhCode(&e, m, pos, ram, disk | b));
    }
    ExhRelax(dist, &q, it.d, ExhCode(&e, m, 0, ram, disk)); /* x_0 */
    for (int k = 1; k <= e.bits; k++) {
      uint32_t b = 1u << (k - 1);
      if (ram & b) {
        ExhRelax(dist, &q, it.d, ExhCode(&e, m, k, ram, disk));
        ExhRelax(dist, &q, it.d, ExhCode(&e, m, pos, ram & ~b, disk));
      }
      if (disk & b) {
        ExhRelax(dist, &q, it.d + rd, ExhCode(&e, m, k, ram, disk));
        ExhRelax(dist, &q, it.d, ExhCode(&e, m, pos, ram, disk & ~b));
      }
    }
  }
  free(dist);
  free(q.h);
  return best + uf + ub * n; /* the driver's step to x_n, and the reverse steps */
}

#endif
