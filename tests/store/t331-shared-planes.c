/*
  Shared planes in the memory store (RwStoreSetStateShift(), issue 37 item 1):
  states of two components in planes whose second plane is the previous
  step's first.
  - store-all's pattern (steps 0..n-1 written, then read and freed from the
    last): every state read back bitwise; n - 1 writes keep one plane; the
    bytes held peak at (n + 1) planes instead of 2 n; no plane copied back;
  - a slot freed, or rewritten, while the next step's state reads its plane:
    that plane is copied back first and the state still reads back bitwise;
  - a state whose second plane is not the held previous state's first (one
    value changed) is kept whole;
  - 400 random writes, reads and frees against the states they must give;
  - without the shift, or interleaved, nothing is shared and writes take the
    caller's vector as before;
  - the memory held by store-all at 4 MiB states with shared planes, from
    the process's resident set: about (n + 1) planes, well below n states.
*/
#include "rwstoretest.h"
#include <malloc.h>

/* u := the planes state of step k: plane 0 is g(k), plane 1 is g(k - 1) */
static PetscErrorCode shift_fill(Vec u, PetscInt64 k)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx)); /* interleaved numbering: point p's components are 2 p, 2 p + 1 */
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt q = 0; q < n / 2; q++) {
    a[q]         = rw_store_value(idx[2 * q] / 2, k);
    a[n / 2 + q] = rw_store_value(idx[2 * q] / 2, k - 1);
  }
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local values of u that differ from step k's state */
static PetscInt shift_bad(Vec u, PetscInt64 k)
{
  Vec      w;
  PetscInt bad;

  RW_CHECK(VecDuplicate(u, &w));
  RW_CHECK(shift_fill(w, k));
  bad = rw_store_differ(u, w);
  RW_CHECK(VecDestroy(&w));
  return bad;
}

static PetscErrorCode shared_store(Vec u, PetscInt64 slots, RwStoreStateLayout layout, PetscBool shift, RwStore *store)
{
  PetscFunctionBegin;
  PetscCall(rw_store_create(u, RWSTOREMEMORY, slots, "", store));
  PetscCall(RwStoreSetStateLayout(*store, layout));
  PetscCall(RwStoreSetStateShift(*store, shift));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_storeall)
{
  const PetscInt64 n = 10;

  for (PetscInt dim = 2; dim <= 3; dim++) {
    RwStore       store;
    Vec           u;
    RwStoreCounts c;
    PetscInt      bad = 0, nl;
    PetscInt64    plane;
    Vec           spare;

    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, dim, 2, &u));
    RW_CHECK(VecGetLocalSize(u, &nl));
    plane = (PetscInt64)(nl / 2) * (PetscInt64)sizeof(PetscScalar);
    RW_CHECK(shared_store(u, n, RW_STORE_STATE_PLANES, PETSC_TRUE, &store));
    for (PetscInt64 k = 0; k < n; k++) {
      RW_CHECK(shift_fill(u, k));
      RW_CHECK(RwStoreWriteTake(store, k, k, u, &spare)); /* as the driver writes: no take here, a copy */
      rw_assert_all(!spare, "dim %d: the store with shared planes took the caller's vector", (int)dim);
    }
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(c.shared == n - 1 && c.takes == 0, "dim %d: %lld of %lld writes kept one plane (expected %lld), %lld took the vector", (int)dim, (long long)c.shared, (long long)c.writes, (long long)(n - 1), (long long)c.takes);
    rw_assert_all(c.held_peak == (n + 1) * plane, "dim %d: the slots held at most %lld bytes, expected %lld ((n + 1) planes of %lld; whole states %lld)", (int)dim, (long long)c.held_peak, (long long)((n + 1) * plane), (long long)plane, (long long)(2 * n * plane));
    RW_CHECK(RwStoreView(store, NULL));
    for (PetscInt64 k = n - 1; k >= 0; k--) {
      RW_CHECK(RwStoreReadAndFree(store, k, k, &u));
      bad += shift_bad(u, k);
    }
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(!bad && c.promoted == 0, "dim %d: %d values read back differ, %lld planes copied back (a reverse sweep frees k + 1 before k)", (int)dim, (int)bad, (long long)c.promoted);
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&u));
  }
}
END_TEST

/* A slot freed or rewritten while the next step's state reads its plane */
START_TEST(test_freed_first)
{
  RwStore       store;
  Vec           u, v;
  RwStoreCounts c;
  PetscInt      bad[3];

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  RW_CHECK(VecDuplicate(u, &v));
  RW_CHECK(shared_store(u, 3, RW_STORE_STATE_PLANES, PETSC_TRUE, &store));
  for (PetscInt64 k = 3; k <= 5; k++) {
    RW_CHECK(shift_fill(u, k));
    RW_CHECK(RwStoreWrite(store, k - 3, k, u));
  }
  RW_CHECK(RwStoreFree(store, 0)); /* step 3: step 4 reads its plane */
  RW_CHECK(RwStoreRead(store, 1, 4, v));
  bad[0] = shift_bad(v, 4);
  RW_CHECK(shift_fill(u, 7));
  RW_CHECK(RwStoreWrite(store, 1, 7, u)); /* step 4 rewritten: step 5 reads its plane */
  RW_CHECK(RwStoreRead(store, 2, 5, v));
  bad[1] = shift_bad(v, 5);
  RW_CHECK(RwStoreRead(store, 1, 7, v));
  bad[2] = shift_bad(v, 7);
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(!bad[0] && !bad[1] && !bad[2], "values differ after the slot holding their plane went: step 4 %d, step 5 %d, step 7 %d", (int)bad[0], (int)bad[1], (int)bad[2]);
  rw_assert_all(c.shared == 2 && c.promoted == 2, "%lld writes kept one plane (expected 2), %lld planes copied back (expected 2)", (long long)c.shared, (long long)c.promoted);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&v));
}
END_TEST

/* The relation is checked, never assumed */
START_TEST(test_not_shifted)
{
  RwStore       store;
  Vec           u, v;
  RwStoreCounts c;
  PetscScalar  *a;
  PetscInt      n, bad;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
  RW_CHECK(VecDuplicate(u, &v));
  RW_CHECK(VecGetLocalSize(u, &n));
  RW_CHECK(shared_store(u, 2, RW_STORE_STATE_PLANES, PETSC_TRUE, &store));
  RW_CHECK(shift_fill(u, 4));
  RW_CHECK(RwStoreWrite(store, 0, 4, u));
  RW_CHECK(shift_fill(u, 5));
  RW_CHECK(VecGetArray(u, &a));
  if (rw_test_rank() == 0 && n) a[n - 1] += 1; /* the last value of the second plane: no longer step 4's */
  RW_CHECK(VecRestoreArray(u, &a));
  RW_CHECK(RwStoreWrite(store, 1, 5, u));
  RW_CHECK(RwStoreRead(store, 1, 5, v));
  bad = rw_store_differ(u, v);
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(!bad, "%d values differ from a state whose planes do not shift", (int)bad);
  /* rank 0's state does not shift; the other ranks' parts do and keep one plane */
  rw_assert_all(c.shared == (rw_test_rank() == 0 ? 0 : 1), "rank %d: %lld writes kept one plane", rw_test_rank(), (long long)c.shared);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&v));
}
END_TEST

/* Random writes, reads and frees, every read checked */
START_TEST(test_random)
{
  const PetscInt64 slots = 5;
  RwStore          store;
  Vec              u;
  PetscInt64       held[5];
  PetscInt         bad = 0;
  RwStoreCounts    c;
  unsigned         seed = 37;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 3, 2, &u));
  RW_CHECK(shared_store(u, slots, RW_STORE_STATE_PLANES, PETSC_TRUE, &store));
  for (int i = 0; i < 5; i++) held[i] = -1;
  for (int t = 0; t < 400; t++) {
    PetscInt64 s = (PetscInt64)(rand_r(&seed) % (unsigned)slots), k;
    int        op = (int)(rand_r(&seed) % 3);

    if (op == 0) { /* mostly the step after one held, as schedules write */
      k = held[rand_r(&seed) % (unsigned)slots];
      k = k >= 0 && rand_r(&seed) % 4 ? k + 1 : (PetscInt64)(rand_r(&seed) % 12);
      RW_CHECK(shift_fill(u, k));
      RW_CHECK(RwStoreWrite(store, s, k, u));
      held[s] = k;
    } else if (op == 1 && held[s] >= 0) {
      RW_CHECK(RwStoreRead(store, s, held[s], u));
      bad += shift_bad(u, held[s]);
    } else if (op == 2) {
      RW_CHECK(RwStoreFree(store, s));
      held[s] = -1;
    }
  }
  RW_CHECK(RwStoreGetCounts(store, &c));
  if (!rw_test_rank()) printf("# random: %lld writes, %lld kept one plane, %lld planes copied back\n", (long long)c.writes, (long long)c.shared, (long long)c.promoted);
  rw_assert_all(!bad && c.shared > 0 && c.promoted > 0, "%d values read back differ; %lld writes kept one plane, %lld planes copied back (both expected > 0)", (int)bad, (long long)c.shared, (long long)c.promoted);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
}
END_TEST

/* Not told, or not in planes: whole states, and the vector taken as before */
START_TEST(test_off)
{
  for (int m = 0; m < 2; m++) {
    RwStore       store;
    Vec           u;
    RwStoreCounts c;
    Vec           spare;

    RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 2, &u));
    RW_CHECK(shared_store(u, 3, m ? RW_STORE_STATE_INTERLEAVED : RW_STORE_STATE_PLANES, (PetscBool)m, &store));
    for (PetscInt64 k = 0; k < 3; k++) {
      RW_CHECK(shift_fill(u, k));
      RW_CHECK(RwStoreWriteTake(store, k, k, u, &spare));
      if (spare) u = spare; /* u is the slot's now; the caller goes on with the slot's old vector */
    }
    RW_CHECK(RwStoreGetCounts(store, &c));
    rw_assert_all(c.shared == 0 && c.takes == 3, "%s: %lld writes kept one plane, %lld took the vector (expected 0 and 3)", m ? "interleaved with the shift" : "planes without the shift", (long long)c.shared, (long long)c.takes);
    RW_CHECK(RwStoreDestroy(&store));
    RW_CHECK(VecDestroy(&u));
  }
}
END_TEST

/* This process's resident set, bytes */
static long long rss(void)
{
  FILE     *f = fopen("/proc/self/statm", "r");
  long long pages = 0, res = 0;

  if (f) {
    if (fscanf(f, "%lld %lld", &pages, &res) != 2) res = 0;
    fclose(f);
  }
  return res * sysconf(_SC_PAGESIZE);
}

/* Store-all's memory with shared planes, as the process's resident set sees
   it: first in the suite, so little freed memory is there to be reused */
START_TEST(test_memory)
{
  const PetscInt64 n = 12;
  RwStore          store;
  Vec              u;
  DM               da;
  PetscInt         nl;
  long long        r0, grew, plane, whole, shared;

  mallopt(M_MMAP_THRESHOLD, 1 << 20); /* the planes' blocks mapped fresh, not taken from memory the heap kept */
  RW_CHECK(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 512, 512, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, &da));
  RW_CHECK(DMSetUp(da));
  RW_CHECK(DMCreateGlobalVector(da, &u));
  RW_CHECK(DMDestroy(&da));
  RW_CHECK(VecGetLocalSize(u, &nl));
  plane  = (long long)(nl / 2) * (long long)sizeof(PetscScalar);
  whole  = 2 * n * plane;
  shared = (n + 1) * plane;
  RW_CHECK(shift_fill(u, 0)); /* u and the fill's scratch touched before the count starts */
  RW_CHECK(shared_store(u, n, RW_STORE_STATE_PLANES, PETSC_TRUE, &store));
  r0 = rss();
  for (PetscInt64 k = 0; k < n; k++) {
    RW_CHECK(shift_fill(u, k));
    RW_CHECK(RwStoreWrite(store, k, k, u));
  }
  grew = rss() - r0;
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  if (!rw_test_rank()) printf("# store-all of %lld states of 4 MiB (all ranks'), shared planes: rank 0's resident set grew %.1f MiB; the planes kept %.1f MiB, whole states %.1f MiB\n", (long long)n, grew / 1048576.0, shared / 1048576.0, whole / 1048576.0);
  rw_assert_all(grew >= shared * 9 / 10 && grew < (shared + whole) / 2, "rank %d: the resident set grew %lld bytes for %lld bytes of planes (whole states: %lld)", rw_test_rank(), grew, shared, whole);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("shared planes");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_memory);
  tcase_add_test(tc, test_storeall);
  tcase_add_test(tc, test_freed_first);
  tcase_add_test(tc, test_not_shifted);
  tcase_add_test(tc, test_random);
  tcase_add_test(tc, test_off);
  suite_add_tcase(s, tc);
  return s;
}
