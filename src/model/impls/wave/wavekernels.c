/*
  The wave model's step, k -> k+1, in its three forms side by side.

  State x_k = (a, b) = (u_k, u_k-1), in planes: a rank's part holds its
  points' a, then their b (RW_MODEL_STATE_PLANES); fields m (squared
  slowness) and eta (the absorbing layer's damping), per parameter set

    ia = 1 / (m/dt^2 + eta/dt),  c1 = m/dt^2,  c2 = eta/dt.

  forward   u+ = ia (L a + c1 (2a - b) + c2 a)          (Devito's acoustic update)
            u+[p] += f(t_k) q_p,  q_p = dt^2 w_p / m_p   (sources, at their corners p)
            x_k+1 = (u+, a)
  tangent   du+ = ia (L da + c1 (2da - db) + c2 da + (dm/dt^2)(2a - b - u+pre))
            du+[p] += f(t_k) q_p dm_p (ia_p/dt^2 - 1/m_p)   (u+pre = u+ - f q before the source)
            dx_k+1 = (du+, da)
  adjoint   with (la', lb') = lambda_k+1 and s = ia la' at every point:
            la = L s + (2 c1 + c2) s + lb'   (L is symmetric: zero outside the grid)
            lb = -c1 s
            dJ/dm += s (2a - b - u+pre) / dt^2,  and at the corners p
            dJ/dm_p += f(t_k) la'_p q_p (ia_p/dt^2 - 1/m_p)

  Here u+pre is read from x_k+1 (which the driver passes to every form) as
  u+ everywhere but at the sources' corners, where a fix-up after the pass
  puts back f q: the pass itself stays pointwise and vectorises, and only
  the few corners pay.  Every form is a gather: s is read at the
  neighbours, from the stencil layer's ring of staged slices (interior
  rows) or recomputed there (shell rows), never scattered into them, so
  each point's arithmetic is the same on any decomposition and so is the
  gradient, bit for bit.  In 3D, and in 2D at order 8, the forward and
  tangent take L from their input's first plane (u_k, du_k), staged in
  the ring the same way; in 2D at orders 2 and 4 they read the plane in
  place.  Nothing here allocates (the ring is
  the layer's, from set-up); the NaN flag is the sum of the results times 0.

  A pair of forward steps (RwWaveStepBlock(), 2D) runs the forward's rows
  twice in one sweep: the first step's as a single step's, also filling
  the pair's ring with u_k+1, the second's from that ring with u_k from x_k.
*/
#include "waveimpl.h"
#include <stdint.h>
#include <string.h>

/* Inlined into each instruction set's variant of a row (RW_KERNEL_VARIANTS),
   with the dimension and radius constant: each variant vectorises for its width */
#define WAVE_INLINE RW_KERNEL_INLINE

/* What a row of any form reads and writes */
typedef struct {
  RwStencil          st;
  PetscReal          wd2[3][RW_STENCIL_MAX_D2_RADIUS + 1];
  PetscReal          idt2;
  RwStencilInput     in[1];             /* forward: x_k; tangent: dx_k; adjoint: lambda_k+1 */
  const PetscScalar *ia, *c1, *c2, *dm;  /* ia ghosted, the others owned */
  PetscBool          sia;               /* whether the ring's stage scales by ia (the adjoint's s = ia la') */
  const PetscScalar *u, *un;            /* owned x_k, x_k+1 (tangent, adjoint) */
  PetscScalar       *y, *gm;
  PetscBool          nt;                /* the forward streams y (RwModelStreamStores()) */
  RwStencilInput    *xk;                /* a pair's second pass: the pair's input x_k, whose u_k its interior rows take; NULL otherwise */
  const RwModel_Wave *pair1;            /* a pair's first pass, or any level of a blocked pass: the model, whose sources its rows add at their end (and, a pair's, whose u+ its interior rows keep in the pair's ring); NULL otherwise */
  PetscBool          block;             /* a level of a blocked pass (RwStencilRunPassBlock(), 3D): core rows through the level's ring, no pair's ring */
  PetscReal          f;                 /* then f(t_k) */
  PetscReal          probe;             /* 0, or NaN when a result is not finite */
} WavePass;

/* The second-difference weights of the rows, copied out of the pass: read
   through it they could alias the outputs, and the compiler would reload
   them at every point (and, in the adjoint, leave the loop scalar) */
typedef struct {
  PetscReal w[3][RW_STENCIL_MAX_D2_RADIUS + 1];
} WaveWeights;

WAVE_INLINE WaveWeights WaveWeightsOf(const WavePass *P)
{
  WaveWeights W;

  for (PetscInt d = 0; d < 3; d++)
    for (PetscInt j = 0; j <= RW_STENCIL_MAX_D2_RADIUS; j++) W.w[d][j] = P->wd2[d][j];
  return W;
}

/* L x at a point of a row of stride sx in x (1: a state's plane, a field); D and R are constants at every call site */
WAVE_INLINE PetscScalar WaveLap(const PetscInt D, const PetscInt R, const WaveWeights *W, const PetscScalar *x, PetscInt sx, PetscInt sy, PetscInt sz)
{
  PetscScalar f = RwStencilD2(R, W->w[0], x, sx);

  if (D > 1) f += RwStencilD2(R, W->w[1], x, sy);
  if (D > 2) f += RwStencilD2(R, W->w[2], x, sz);
  return f;
}

/* s = ia la' at the point t neighbours away along a direction (state stride ls, field stride fs) */
WAVE_INLINE PetscScalar WaveS(const PetscScalar *l, PetscInt ls, const PetscScalar *ia, PetscInt fs, PetscInt t)
{
  return ia[t * fs] * l[t * ls];
}

WAVE_INLINE PetscScalar WaveD2S(const PetscInt R, const PetscReal *w, const PetscScalar *l, PetscInt ls, const PetscScalar *ia, PetscInt fs)
{
  PetscScalar f = w[0] * WaveS(l, ls, ia, fs, 0);

  for (PetscInt j = 1; j <= R; j++) f += w[j] * (WaveS(l, ls, ia, fs, -j) + WaveS(l, ls, ia, fs, j));
  return f;
}

/* L s at a point, gathered from its neighbours (l in la''s plane: unit stride in x) */
WAVE_INLINE PetscScalar WaveLapS(const PetscInt D, const PetscInt R, const WaveWeights *W, const PetscScalar *l, RwStencilRow Lr, const PetscScalar *ia, RwStencilRow Ar)
{
  PetscScalar f = WaveD2S(R, W->w[0], l, 1, ia, 1);

  if (D > 1) f += WaveD2S(R, W->w[1], l, Lr.sy, ia, Ar.sy);
  if (D > 2) f += WaveD2S(R, W->w[2], l, Lr.sz, ia, Ar.sz);
  return f;
}

/* ---- the state in planes -----------------------------------------------------

   A rank's part of a state is its points' first component (u_k, du_k, la'),
   then their second (u_k-1, du_k-1, lb'): RW_MODEL_STATE_PLANES.  Every
   form reads the first plane at neighbours, one unit-stride load each with
   every vector lane a useful value, the second at the point itself, and
   writes the output's two planes.  The compiler's loop in every instruction
   set (RW_KERNEL_VARIANTS).  Interleaved, a neighbour's u_k came with its
   u_k-1: the AVX2/AVX-512 rows took vectors of whole points and computed a
   Laplacian of u_k-1 for nothing, the compiler's loop unpacked with permutes */

/* Component c's row of an owned state array from point (i, j, k) */
WAVE_INLINE PetscScalar *WaveOwnedPlane(const RwStencil st, const PetscScalar *a, PetscInt c, PetscInt i, PetscInt j, PetscInt k)
{
  return (PetscScalar *)RwStencilRowAt(RwStencilPlane(a, &st->own, c), &st->own, 1, i, j, k).p;
}

/* The forward and tangent updates at a point once L a (L da) is known: the
   rows in place and the ring's rows share them, so their bits are one expression's */
WAVE_INLINE PetscScalar WaveForwardPoint(PetscScalar L, PetscScalar a, PetscScalar b, PetscScalar ia, PetscScalar c1, PetscScalar c2)
{
  return ia * (L + c1 * (2 * a - b) + c2 * a);
}

WAVE_INLINE PetscScalar WaveTangentPoint(PetscScalar L, PetscScalar da, PetscScalar db, PetscScalar a, PetscScalar b, PetscScalar un, PetscScalar ia, PetscScalar c1, PetscScalar c2, PetscScalar dm, PetscReal idt2)
{
  return ia * (L + c1 * (2 * da - db) + c2 * da + dm * idt2 * (2 * a - b - un));
}

/* n values into p, streamed (RwStreamPair()) in 16-byte aligned pairs: a
   plane's row may start at an odd point, whose first (and last) value an
   ordinary store writes */
WAVE_INLINE void WaveStreamRow(PetscScalar *restrict p, const PetscScalar *restrict v, PetscInt n)
{
  PetscInt t = 0;

  if (n > 0 && ((uintptr_t)p & 15)) p[0] = v[0], t = 1;
  for (; t + 2 <= n; t += 2) RwStreamPair(p + t, v[t], v[t + 1]);
  if (t < n) p[t] = v[t];
}

/* ---- the interior rows, gathering from the ring ------------------------------

   Interior rows gather L from the stencil layer's ring (stencilring.c):
   unit-stride slices of the input's first plane (u_k, du_k; 3D, and 2D
   order 8: WAVE_RING_FT) or, in the adjoint, of s = ia la', staged a few
   rows ahead and read from L2.  The sums are WaveLap's, in its order (x,
   y, z; RwStencilD2 along each), over the same values, so the bits are
   those of the rows in place.  Why: at power-of-two sides (256^3: rows 2
   KiB, planes 512 KiB apart) the neighbours of a point fall in one set of
   L1 and L2; the ring's rows are padded one cache line past a whole
   number.  Staged into a scratch field of the whole grid instead (stop
   23), the same gather sent 24 B a point more to memory and back */

/* The second difference across the ring's slices (the last direction): RwStencilD2's sum */
WAVE_INLINE PetscScalar WaveD2Ring(const PetscInt R, const PetscReal *w, const RwStencilRingRow *rr, PetscInt i)
{
  PetscScalar f = w[0] * rr->p[R][i];

  for (PetscInt j = 1; j <= R; j++) f += w[j] * (rr->p[R - j][i] + rr->p[R + j][i]);
  return f;
}

/* L at point i of a ring row: x, then (3D) y inside the slice, then across slices */
WAVE_INLINE PetscScalar WaveLapRing(const PetscInt D, const PetscInt R, const WaveWeights *W, const RwStencilRingRow *rr, PetscInt i)
{
  PetscScalar f = RwStencilD2(R, W->w[0], rr->p[R] + i, 1);

  if (D > 2) f += RwStencilD2(R, W->w[1], rr->p[R] + i, rr->sy);
  f += WaveD2Ring(R, W->w[D - 1], rr, i);
  return f;
}

/* L at point i of a row: from the ring (RING, a constant) or from the input's first plane U in place */
WAVE_INLINE PetscScalar WaveLapAt(const PetscBool RING, const PetscInt D, const PetscInt R, const WaveWeights *W, const RwStencilRingRow *rr, RwStencilRow U, PetscInt i)
{
  return RING ? WaveLapRing(D, R, W, rr, i) : WaveLap(D, R, W, U.p + i, 1, U.sy, U.sz);
}

/* ---- the three kernels, a row of n points each ------------------------------- */

/* The forward's rows run in blocks with software prefetch
   (RW_PREFETCH_BLOCK, kernelisaimpl.h): its Laplacian's loads from cache
   kept the hardware's prefetch of x_k, the fields and x_k+1 behind.  One
   rank, CPU ns a point, best of 3, two runs, before / after (interleaved
   state): 3D 256^3 order 8 5.21-5.51 / 4.54-4.74, order 4 4.14-4.16 /
   3.58-3.70, order 2 3.22-3.44 / 3.30-3.39; 2D 4096^2 order 8 4.09-4.17 /
   3.82-3.90, order 4 3.40-3.45 / 3.09-3.11, order 2 2.90-2.93 / 2.61-2.63.
   The tangent's and adjoint's ring rows, prefetched alike, were slower (3D
   order 8 tangent 7.8-8.0 / 8.5-8.9, adjoint 7.9-8.2 / 9.6-11.9) or, the
   adjoint's blocks not unrolled, no faster (2D 1024^2 order 4 4.99-5.00 /
   5.04-5.10): they keep one loop.

   Where x_k+1 is larger than the caches (RwModelStreamStores(): 8 MiB a
   rank by default) the forward streams it (WaveStreamRow()), and does not
   prefetch it.  One rank, CPU ns a point, best of 3, ordinary / streamed
   (interleaved state): 2D 4096^2 order 2 2.59-2.69 / 2.22-2.24, order 4
   3.10-3.11 / 2.61, order 8 3.87-3.88 / 3.83-3.99; 3D 256^3 order 2
   3.64-3.66 / 2.84, order 4 4.12-4.16 / 3.21, order 8 4.64-4.77 /
   4.55-4.56.  The adjoint's lambda_k streamed the same way was no faster
   (2D 2048^2 order 4 5.13-5.55 / 5.40-5.68) */

/* A point's own a = u_k: from its plane ap in place, or from the ring's
   centre (RING: the staged copy of u_k, one stream from memory fewer; in a
   pair's second pass u_k+1); b = u_k-1 is bp[i] (in the pair's second pass
   u_k, from the pair's input x_k) */
WAVE_INLINE PetscScalar WaveA(const PetscBool RING, const RwStencilRingRow *rr, const PetscScalar *restrict ap, PetscInt R, PetscInt i)
{
  return RING ? rr->p[R][i] : ap[i];
}

WAVE_INLINE PetscScalar WaveForwardValue(const PetscBool RING, const PetscInt D, const PetscInt R, const PetscBool L2, const WaveWeights *W, const RwStencilRingRow *rr, RwStencilRow U, const PetscScalar *restrict ap, const PetscScalar *restrict bp, const PetscScalar *restrict ia, const PetscScalar *restrict c1, const PetscScalar *restrict c2, PetscInt i)
{
  return WaveForwardPoint(WaveLapAt(RING, D, R, W, rr, U, i), WaveA(RING, rr, ap, R, i), bp[i], ia[i], c1[i], c2[i]);
}

/* Where the forward's row keeps its NaN flags: at orders 2 and 4 one per
   point of a block (lane[t]), OR-ed across the lanes once a row; at order
   8 one a block.  The vectorised block's OR across its lanes at every
   block had cost 10% of the streamed ring row at orders 2 and 4.  3D
   256^3, one rank, CPU ns a point, 5-6 runs alternated, per block / per
   lane: order 2 3.03-3.38 / 2.70-2.85, order 4 3.53-3.92 / 3.16-3.64, but
   order 8 4.71-4.91 / 4.85-5.76 (2D 4096^2 order 8 2.99-3.55 /
   3.03-3.39).  R is a constant at every call: one branch is compiled */
#define WAVE_LANE_FLAGS(R) ((R) < 4)

/* A block of the forward's row, streamed: the block's u+ and a are
   computed into local arrays, then streamed into the output's two planes;
   ORs the NaN probe's flags into lane (WAVE_LANE_FLAGS) */
WAVE_INLINE void WaveForwardStream(const PetscBool RING, const PetscInt D, const PetscInt R, const PetscBool L2, const WaveWeights *W, const RwStencilRingRow *rr, RwStencilRow U, const PetscScalar *restrict ap, const PetscScalar *restrict bp, const PetscScalar *restrict ia, const PetscScalar *restrict c1, const PetscScalar *restrict c2, PetscScalar *restrict y, PetscScalar *restrict yb, PetscScalar *restrict r, PetscInt i, int *restrict lane)
{
  PetscScalar v[RW_PREFETCH_BLOCK], a[RW_PREFETCH_BLOCK];
  int         blk = 0;

#pragma GCC ivdep
  for (PetscInt t = 0; t < RW_PREFETCH_BLOCK; t++) {
    v[t] = WaveForwardValue(RING, D, R, L2, W, rr, U, ap, bp, ia, c1, c2, i + t);
    a[t] = WaveA(RING, rr, ap, R, i + t);
    if (WAVE_LANE_FLAGS(R)) lane[t] |= RW_PROBE_BAD(v[t]);
    else blk |= RW_PROBE_BAD(v[t]);
  }
  lane[0] |= blk;
  if (r)
    for (PetscInt t = 0; t < RW_PREFETCH_BLOCK; t++) r[i + t] = v[t];
  WaveStreamRow(y + i, v, RW_PREFETCH_BLOCK);
  WaveStreamRow(yb + i, a, RW_PREFETCH_BLOCK);
}

/* The forward's row: L from the ring (RING) or in place from U; (y, yb)
   the output's two planes; L2: a pair's second pass, its own u_k+1 from the
   ring and u_k from x_k (bp); r_: NULL, or where a pair's first pass keeps
   u+ for its second.  Every row marks its arrays restrict and reads the
   weights from locals, so that the loop vectorises without run-time alias
   checks; the arithmetic at a point is unchanged */
WAVE_INLINE void WaveRowForward(const PetscBool RING, const PetscInt D, const PetscInt R, const PetscBool L2, WavePass *P, PetscInt n, const RwStencilRingRow rr, RwStencilRow U, const PetscScalar *ap_, const PetscScalar *bp_, const PetscScalar *ia_, const PetscScalar *c1_, const PetscScalar *c2_, PetscScalar *y_, PetscScalar *yb_, PetscScalar *r_)
{
  const WaveWeights  W  = WaveWeightsOf(P);
  const PetscScalar *restrict ap = ap_, *restrict bp = bp_, *restrict ia = ia_, *restrict c1 = c1_, *restrict c2 = c2_;
  PetscScalar       *restrict y = y_, *restrict yb = yb_, *restrict r = r_;
  int                bad = 0, lane[RW_PREFETCH_BLOCK] = {0}; /* the blocks' flags, OR-ed across the lanes once a row */
  PetscInt           i   = 0;

  for (; i + RW_PREFETCH_BLOCK <= n; i += RW_PREFETCH_BLOCK) {
    const PetscInt f = i + RW_PREFETCH_AHEAD;

    if (!RING) RwPrefetchRead(U.p + f + R * RwStencilRowLastStride(D, U), 1); /* the newest row the gather reaches */
    if (!RING) RwPrefetchRead(ap + f, 1);
    RwPrefetchRead(bp + f, 1);
    RwPrefetchRead(ia + f, 1);
    RwPrefetchRead(c1 + f, 1);
    RwPrefetchRead(c2 + f, 1);
    if (P->nt) { /* a streamed line is not read */
      WaveForwardStream(RING, D, R, L2, &W, &rr, U, ap, bp, ia, c1, c2, y, yb, r, i, lane);
      continue;
    }
    RwPrefetchWrite(y + f, 1);
    RwPrefetchWrite(yb + f, 1);
#pragma GCC ivdep
    for (PetscInt t = i; t < i + RW_PREFETCH_BLOCK; t++) {
      const PetscScalar v = WaveForwardValue(RING, D, R, L2, &W, &rr, U, ap, bp, ia, c1, c2, t);

      y[t]  = v;
      yb[t] = WaveA(RING, &rr, ap, R, t);
      if (r) r[t] = v;
      if (WAVE_LANE_FLAGS(R)) lane[t - i] |= RW_PROBE_BAD(v);
      else bad |= RW_PROBE_BAD(v);
    }
  }
#pragma GCC ivdep
  for (; i < n; i++) {
    const PetscScalar v = WaveForwardValue(RING, D, R, L2, &W, &rr, U, ap, bp, ia, c1, c2, i);

    y[i]  = v;
    yb[i] = WaveA(RING, &rr, ap, R, i);
    if (r) r[i] = v;
    bad |= RW_PROBE_BAD(v);
  }
  for (PetscInt t = 0; t < RW_PREFETCH_BLOCK; t++) bad |= lane[t];
  P->probe += RwProbeValue(bad);
}

/* The tangent's row: L da from the ring (RING) or in place from DU; (da,
   db) = dx_k's planes, (a, b) = x_k's, un x_k+1's first plane */
WAVE_INLINE void WaveRowTangent(const PetscBool RING, const PetscInt D, const PetscInt R, WavePass *P, PetscInt n, const RwStencilRingRow rr, RwStencilRow DU, const PetscScalar *da_, const PetscScalar *db_, const PetscScalar *a_, const PetscScalar *b_, const PetscScalar *un_, const PetscScalar *ia_, const PetscScalar *c1_, const PetscScalar *c2_, const PetscScalar *dm_, PetscScalar *y_, PetscScalar *yb_)
{
  const WaveWeights  W    = WaveWeightsOf(P);
  const PetscReal    idt2 = P->idt2;
  const PetscScalar *restrict da = da_, *restrict db = db_, *restrict a = a_, *restrict b = b_, *restrict un = un_, *restrict ia = ia_, *restrict c1 = c1_, *restrict c2 = c2_, *restrict dm = dm_;
  PetscScalar       *restrict y = y_, *restrict yb = yb_;
  int                bad = 0;

#pragma GCC ivdep
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar dai = WaveA(RING, &rr, da, R, i), v = WaveTangentPoint(WaveLapAt(RING, D, R, &W, &rr, DU, i), dai, db[i], a[i], b[i], un[i], ia[i], c1[i], c2[i], dm[i], idt2);

    y[i]  = v;
    yb[i] = dai;
    bad |= RW_PROBE_BAD(v);
  }
  P->probe += RwProbeValue(bad);
}

/* What both adjoint rows do at a point once L s and s are known: lambda_k
   = (la, lb) from lambda_k+1's second component lbn, and dJ/dm; returns
   the NaN probe's flag (RW_PROBE_BAD()) */
WAVE_INLINE int WaveAdjointPoint(PetscScalar Ls, PetscScalar s, PetscScalar lbn, PetscScalar c1, PetscScalar c2, PetscReal idt2, PetscScalar a, PetscScalar b, PetscScalar un, PetscScalar *ya, PetscScalar *yb, PetscScalar *gm)
{
  const PetscScalar la = Ls + (2 * c1 + c2) * s + lbn, lb = -c1 * s;

  *ya = la;
  *yb = lb;
  *gm += s * idt2 * (2 * a - b - un);
  return RW_PROBE_BAD(la) | RW_PROBE_BAD(lb);
}

/* The adjoint's shell rows: s = ia la' recomputed at each of the 2 r d + 1
   neighbours from two loads (L: la''s plane in place) */
WAVE_INLINE void WaveRowAdjoint(const PetscInt D, const PetscInt R, WavePass *P, PetscInt n, RwStencilRow L, RwStencilRow IA, const PetscScalar *lb_, const PetscScalar *a_, const PetscScalar *b_, const PetscScalar *un_, const PetscScalar *c1_, const PetscScalar *c2_, PetscScalar *y_, PetscScalar *yb_, PetscScalar *gm_)
{
  const WaveWeights  W    = WaveWeightsOf(P);
  const PetscReal    idt2 = P->idt2;
  const PetscScalar *restrict lp = L.p, *restrict iap = IA.p, *restrict lbp = lb_, *restrict a = a_, *restrict b = b_, *restrict un = un_, *restrict c1 = c1_, *restrict c2 = c2_;
  PetscScalar       *restrict y = y_, *restrict yb = yb_, *restrict gm = gm_;
  int                bad = 0;

#pragma GCC ivdep
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *l = lp + i, *ia = iap + i;
    const PetscScalar  s = ia[0] * l[0];

    bad |= WaveAdjointPoint(WaveLapS(D, R, &W, l, L, ia, IA), s, lbp[i], c1[i], c2[i], idt2, a[i], b[i], un[i], y + i, yb + i, gm + i);
  }
  P->probe += RwProbeValue(bad);
}

/* The adjoint's interior rows: s = ia la' from the ring, one load a
   neighbour, where the shell's rows (WaveRowAdjoint) recompute it from two */
WAVE_INLINE void WaveRowAdjointRing(const PetscInt D, const PetscInt R, WavePass *P, PetscInt n, const RwStencilRingRow rr, const PetscScalar *lb_, const PetscScalar *a_, const PetscScalar *b_, const PetscScalar *un_, const PetscScalar *c1_, const PetscScalar *c2_, PetscScalar *y_, PetscScalar *yb_, PetscScalar *gm_)
{
  const WaveWeights  W    = WaveWeightsOf(P);
  const PetscReal    idt2 = P->idt2;
  const PetscScalar *restrict lbp = lb_, *restrict a = a_, *restrict b = b_, *restrict un = un_, *restrict c1 = c1_, *restrict c2 = c2_;
  PetscScalar       *restrict y = y_, *restrict yb = yb_, *restrict gm = gm_;
  int                bad = 0;

#pragma GCC ivdep
  for (PetscInt i = 0; i < n; i++) bad |= WaveAdjointPoint(WaveLapRing(D, R, &W, &rr, i), rr.p[R][i], lbp[i], c1[i], c2[i], idt2, a[i], b[i], un[i], y + i, yb + i, gm + i);
  P->probe += RwProbeValue(bad);
}

/* s = ia la' at n points of a row (l the first plane's row), or s = l
   where ia is NULL: the ring's stage */
WAVE_INLINE void WaveRowS(PetscInt n, const PetscScalar *l_, const PetscScalar *ia_, PetscScalar *s_)
{
  const PetscScalar *restrict l = l_, *restrict ia = ia_;
  PetscScalar       *restrict s = s_;

  if (ia)
    for (PetscInt i = 0; i < n; i++) s[i] = ia[i] * l[i];
  else memcpy(s, l, (size_t)n * sizeof(*s));
}

/* ---- the row callbacks: pick the rows, dispatch on dimension and radius ------- */

#define WAVE_DISPATCH(call) \
  do { \
    switch (P->st->dim * 10 + wave_r) { \
    case 21: call(2, 1); break; \
    case 22: call(2, 2); break; \
    case 24: call(2, 4); break; \
    case 31: call(3, 1); break; \
    case 32: call(3, 2); break; \
    default: call(3, 4); break; \
    } \
  } while (0)

static PetscInt wave_r_of(const WavePass *P)
{
  return P->st->width;
}

/* Whether the forward and tangent of dimension D and radius R gather their
   interior rows from the ring: in 3D, and in 2D at order 8.  At orders 2
   and 4 in 2D the whole-point rows read in place were as fast or faster
   where it counts, beyond the caches (2 ranks, Mpt/s, two alternated runs
   each, ring / in place: 2048^2 order 2 forward 511, 474 / 546, 585, order
   4 443, 437 / 457, 509, tangent order 4 283, 274 / 300, 375; again with
   the streamed forward, one rank, CPU ns a point, 4096^2 order 2 2.54-2.60
   / 2.27-2.36, order 4 2.72-2.78 / 2.62-2.69), though the ring is faster in
   cache (256^2 order 4 1.57 / 2.10-3.10).  At order 8 the whole-point
   rows' wasted b lanes cost more than the ring's stage: 4096^2 one rank
   2.95-3.07 / 3.75-3.77, two ranks 1.65-1.72 / 1.93-1.94; tangent 5.32-5.35
   / 5.46-5.50 on one rank.  In 3D the ring won at every order (256^3
   forward order 2 372, 407 / 269, 331, order 8 224, 228 / 183, 209).  The
   adjoint gathers from the ring in 2D too at orders 4 and 8 (2048^2 order 8
   268, 257 / 202, 205; WAVE_RING_ADJ).  A constant in each row, so each
   instantiates one kind of interior row */
#define WAVE_RING_FT(D, R) ((D) > 2 || (R) > 2)

/* Whether the adjoint's interior rows gather s from the ring: everywhere
   but 2D order 2, whose rows recompute s at its 5 neighbours in place, as
   the shell's do, and skip the stage.  2048^2, CPU ns a point, 4 runs
   alternated, ring / in place: one rank order 2 4.96-5.13 / 4.49-4.60,
   order 4 5.25-5.45 / 5.70-5.83; two ranks order 2 2.99-3.07 / 2.96-3.70,
   4096^2 2.90-3.25 / 2.45-3.18 (CPU ns a grid point) */
#define WAVE_RING_ADJ(D, R) ((D) > 2 || (R) > 1)

/* Source s's term u+[p] += f q_p at its corner p; returns u+[p] */
static PetscScalar WaveAddSource(const RwModel_Wave *w, WavePass *P, PetscInt s, PetscReal f)
{
  PetscScalar *y = &P->y[w->srcidx[s]]; /* u_k+1's plane comes first */

  *y += f * w->srcq[s];
  P->probe += *y * 0;
  return *y;
}

/* The sources' terms at the corners among the n owned points from index p0
   on, and in the ring's copy r of the row where there is one (a pair's
   first pass: its second pass reads these rows before the sweep ends).
   The corners are in index order */
static void WaveRowSources(WavePass *P, PetscInt p0, PetscInt n, PetscScalar *r)
{
  const RwModel_Wave *w = P->pair1;
  PetscInt            lo = 0, hi = w->nsrcpts;

  while (lo < hi) { /* the first corner at or after p0 */
    const PetscInt mid = (lo + hi) / 2;

    if (w->srcidx[mid] < p0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < w->nsrcpts && w->srcidx[lo] < p0 + n && P->nt) RwStreamFence(); /* the row's streamed stores, before they are read back */
  for (PetscInt s = lo; s < w->nsrcpts && w->srcidx[s] < p0 + n; s++) {
    const PetscScalar v = WaveAddSource(w, P, s, P->f);

    if (r) r[w->srcidx[s] - p0] = v;
  }
}

/* Interior rows (ghosted false) gather from the ring, shell rows read in
   place; in a pair (RwWaveStepBlock()) the first pass's interior rows also
   fill the pair's ring, the second's gather u_k+1 from it */
WAVE_INLINE void WaveForwardRowBody(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  WavePass              *P  = (WavePass *)ctx;
  const RwStencil        st = P->st;
  const PetscInt         wave_r = wave_r_of(P);
  const RwStencilRow     U  = RwStencilInputPlaneRow(st, &P->in[0], 0, ghosted, i, j, k);
  const PetscScalar     *ap = WaveOwnedPlane(st, P->in[0].ga, 0, i, j, k), *bp = WaveOwnedPlane(st, P->in[0].ga, 1, i, j, k);
  const PetscScalar     *ia = RwStencilRowAt(P->ia, &st->ghost, 1, i, j, k).p, *c1 = RwStencilRowAt(P->c1, &st->own, 1, i, j, k).p, *c2 = RwStencilRowAt(P->c2, &st->own, 1, i, j, k).p;
  PetscScalar           *y  = WaveOwnedPlane(st, P->y, 0, i, j, k), *yb = WaveOwnedPlane(st, P->y, 1, i, j, k);
  PetscScalar           *r  = !ghosted && P->pair1 && !P->block ? RwStencilRingSliceOf(st, st->pairring, j) + st->width + (i - st->own.s[0]) : NULL; /* 2D */
  const RwStencilRingRow none = {{NULL}, 0};

#define WAVE_FWD(D, R) \
  (!ghosted && P->xk ? WaveRowForward(PETSC_TRUE, D, R, PETSC_TRUE, P, n, RwStencilRingRowOf(st, st->pairring, i, j, k), U, NULL, WaveOwnedPlane(st, P->xk->ga, 0, i, j, k), ia, c1, c2, y, yb, NULL) : \
   !ghosted && WAVE_RING_FT(D, R) ? WaveRowForward(PETSC_TRUE, D, R, PETSC_FALSE, P, n, RwStencilRingRowAt(st, i, j, k), U, ap, bp, ia, c1, c2, y, yb, r) : \
   WaveRowForward(PETSC_FALSE, D, R, PETSC_FALSE, P, n, none, U, ap, bp, ia, c1, c2, y, yb, r))
  WAVE_DISPATCH(WAVE_FWD);
#undef WAVE_FWD
  if (P->pair1) WaveRowSources(P, RwStencilOwnedIndex(st, i, j, k), n, r);
}

WAVE_INLINE void WaveTangentRowBody(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  WavePass              *P  = (WavePass *)ctx;
  const RwStencil        st = P->st;
  const PetscInt         wave_r = wave_r_of(P);
  const RwStencilRow     DU = RwStencilInputPlaneRow(st, &P->in[0], 0, ghosted, i, j, k);
  const PetscScalar     *da = WaveOwnedPlane(st, P->in[0].ga, 0, i, j, k), *db = WaveOwnedPlane(st, P->in[0].ga, 1, i, j, k);
  const PetscScalar     *a = WaveOwnedPlane(st, P->u, 0, i, j, k), *b = WaveOwnedPlane(st, P->u, 1, i, j, k), *un = WaveOwnedPlane(st, P->un, 0, i, j, k);
  const PetscScalar     *ia = RwStencilRowAt(P->ia, &st->ghost, 1, i, j, k).p, *c1 = RwStencilRowAt(P->c1, &st->own, 1, i, j, k).p, *c2 = RwStencilRowAt(P->c2, &st->own, 1, i, j, k).p;
  const PetscScalar     *dm = RwStencilRowAt(P->dm, &st->own, 1, i, j, k).p;
  PetscScalar           *y  = WaveOwnedPlane(st, P->y, 0, i, j, k), *yb = WaveOwnedPlane(st, P->y, 1, i, j, k);
  const RwStencilRingRow none = {{NULL}, 0};

#define WAVE_TAN(D, R) (!ghosted && WAVE_RING_FT(D, R) ? WaveRowTangent(PETSC_TRUE, D, R, P, n, RwStencilRingRowAt(st, i, j, k), DU, da, db, a, b, un, ia, c1, c2, dm, y, yb) : WaveRowTangent(PETSC_FALSE, D, R, P, n, none, DU, da, db, a, b, un, ia, c1, c2, dm, y, yb))
  WAVE_DISPATCH(WAVE_TAN);
#undef WAVE_TAN
}

WAVE_INLINE void WaveAdjointRowBody(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted)
{
  WavePass          *P  = (WavePass *)ctx;
  const RwStencil    st = P->st;
  const PetscInt     wave_r = wave_r_of(P);
  const RwStencilRow L  = RwStencilInputPlaneRow(st, &P->in[0], 0, ghosted, i, j, k), IA = RwStencilRowAt(P->ia, &st->ghost, 1, i, j, k);
  const PetscScalar *lb = WaveOwnedPlane(st, P->in[0].ga, 1, i, j, k);
  const PetscScalar *a = WaveOwnedPlane(st, P->u, 0, i, j, k), *b = WaveOwnedPlane(st, P->u, 1, i, j, k), *un = WaveOwnedPlane(st, P->un, 0, i, j, k);
  const PetscScalar *c1 = RwStencilRowAt(P->c1, &st->own, 1, i, j, k).p, *c2 = RwStencilRowAt(P->c2, &st->own, 1, i, j, k).p;
  PetscScalar       *y = WaveOwnedPlane(st, P->y, 0, i, j, k), *yb = WaveOwnedPlane(st, P->y, 1, i, j, k), *gm = RwStencilOwnedAt(st, 1, P->gm, i, j, k);

#define WAVE_ADJ(D, R) (!ghosted && WAVE_RING_ADJ(D, R) ? WaveRowAdjointRing(D, R, P, n, RwStencilRingRowAt(st, i, j, k), lb, a, b, un, c1, c2, y, yb, gm) : WaveRowAdjoint(D, R, P, n, L, IA, lb, a, b, un, c1, c2, y, yb, gm))
  WAVE_DISPATCH(WAVE_ADJ);
#undef WAVE_ADJ
}

/* The ring's stage of one owned row: u_k's (du_k's) plane, or in the
   adjoint s = ia la' */
WAVE_INLINE void WaveRingStageBody(void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscScalar *dst)
{
  WavePass       *P  = (WavePass *)ctx;
  const RwStencil st = P->st;

  WaveRowS(n, WaveOwnedPlane(st, P->in[0].ga, 0, i, j, k), P->sia ? RwStencilRowAt(P->ia, &st->ghost, 1, i, j, k).p : NULL, dst);
}

/* ---- the rows in each instruction set; a pass runs its form's (RwWaveFormISA()) */
RW_KERNEL_VARIANTS(WaveForwardRow, (void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted), (ctx, i, j, k, n, ghosted));
RW_KERNEL_VARIANTS(WaveTangentRow, (void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted), (ctx, i, j, k, n, ghosted));
RW_KERNEL_VARIANTS(WaveAdjointRow, (void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscBool ghosted), (ctx, i, j, k, n, ghosted));
RW_KERNEL_VARIANTS(WaveRingStage, (void *ctx, PetscInt i, PetscInt j, PetscInt k, PetscInt n, PetscScalar *dst), (ctx, i, j, k, n, dst));

/* Whether the forward and tangent passes run their interior through the ring (WAVE_RING_FT) */
static PetscBool WaveForwardRing(RwModel model)
{
  const RwModel_Wave *w = (RwModel_Wave *)model->data;

  return WAVE_RING_FT(w->dim, w->r) ? PETSC_TRUE : PETSC_FALSE;
}

/* Which rows each form runs (-rw_model_view); the sets they run in: RwWaveViewKernels() */
PetscErrorCode RwWaveViewRows(RwModel model, PetscViewer viewer)
{
  const RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "rows: the state in planes (u_k's, then u_k-1's), the compiler's loop in each instruction set; forward %s; tangent the same; adjoint %s recomputing s at every neighbour\n", WaveForwardRing(model) ? "interior rows from a ring of staged slices of u, shell rows in place" : "rows in place", WAVE_RING_ADJ(w->dim, w->r) ? "interior rows from the ring of s = ia lambda, shell rows" : "rows"));
  if (model->stepblock > 1 && w->dim == 2) PetscCall(PetscViewerASCIIPrintf(viewer, "rows of a pair of forward steps: the first's as above, also keeping u_k+1 in a ring of rows; the second's interior rows gather u_k+1 from that ring\n"));
  if (model->stepblock > 1 && w->dim == 3) PetscCall(PetscViewerASCIIPrintf(viewer, "rows of a block of forward steps: each step's core rows from a ring of its own, in tiles of %" PetscInt_FMT " y rows (-rw_stencil_block_tile); its shell rows in place after\n", w->st->blocktile));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether any form's interior rows gather from the ring: the stencil layer
   allocates it only then (RwModelSetUp_Wave()) */
PetscBool RwWaveRingUsed(PetscInt dim, PetscInt r)
{
  return WAVE_RING_FT(dim, r) || WAVE_RING_ADJ(dim, r) ? PETSC_TRUE : PETSC_FALSE;
}

/* A pass of any form: its interior through the ring (staged by the isa's
   stage) or by rows in place */
static PetscErrorCode WaveRunPass(RwModel model, WavePass *P, PetscBool ring, RwKernelISA isa, RwStencilRowFn row)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;

  PetscFunctionBegin;
  if (ring) PetscCall(RwStencilRunPassRing(w->st, 1, P->in, WaveRingStageVariants[isa], row, P));
  else PetscCall(RwStencilRunPass(w->st, 1, P->in, row, P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- steps -------------------------------------------------------------------- */

/* f(t_k): the wavelet given, or the Ricker wavelet at t_k = k dt */
PetscReal RwWaveSourceValue(RwModel model, PetscInt64 k)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  PetscReal     a;

  if (w->wavelet) return w->wavelet[k];
  a = PETSC_PI * w->f0 * (k * model->dt - w->t0);
  a *= a;
  return (1 - 2 * a) * PetscExpReal(-a);
}

static WavePass WavePassCreate(RwModel model)
{
  RwModel_Wave *w = (RwModel_Wave *)model->data;
  WavePass      P;

  PetscMemzero(&P, sizeof(P));
  P.st   = w->st;
  P.idt2 = 1 / (model->dt * model->dt);
  for (PetscInt d = 0; d < 3; d++)
    for (PetscInt j = 0; j <= RW_STENCIL_MAX_D2_RADIUS; j++) P.wd2[d][j] = w->wd2[d][j];
  return P;
}

static PetscReal WaveOwnedPoints(RwModel_Wave *w)
{
  return (PetscReal)w->st->own.n[0] * w->st->own.n[1] * w->st->own.n[2];
}

static PetscErrorCode WaveGetCoefficients(RwModel_Wave *w, WavePass *P)
{
  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(w->ia, &P->ia));
  PetscCall(VecGetArrayRead(w->c1, &P->c1));
  PetscCall(VecGetArrayRead(w->c2, &P->c2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveRestoreCoefficients(RwModel_Wave *w, WavePass *P)
{
  PetscFunctionBegin;
  PetscCall(VecRestoreArrayRead(w->c2, &P->c2));
  PetscCall(VecRestoreArrayRead(w->c1, &P->c1));
  PetscCall(VecRestoreArrayRead(w->ia, &P->ia));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a forward pass: its streamed stores fenced, then the sources'
   terms u+[p] += f q_p at their corners */
static void WaveForwardSources(const RwModel_Wave *w, WavePass *P, PetscReal f)
{
  if (P->nt) RwStreamFence();
  for (PetscInt s = 0; s < w->nsrcpts; s++) (void)WaveAddSource(w, P, s, f);
}

static PetscErrorCode WaveStepForward(RwModel model, RwKernelISA isa, PetscInt64 k, Vec u, Vec unew)
{
  RwModel_Wave   *w = (RwModel_Wave *)model->data;
  WavePass        P = WavePassCreate(model);
  const PetscReal f = RwWaveSourceValue(model, k);
  PetscInt        nl;

  PetscFunctionBegin;
  P.in[0].g = u;
  PetscCall(WaveGetCoefficients(w, &P));
  PetscCall(VecGetArray(unew, &P.y));
  PetscCall(VecGetLocalSize(unew, &nl));
  P.nt = RwModelStreamStores(model, (PetscInt64)nl * (PetscInt64)sizeof(PetscScalar), P.y);
  PetscCall(WaveRunPass(model, &P, WaveForwardRing(model), isa, WaveForwardRowVariants[isa]));
  WaveForwardSources(w, &P, f);
  PetscCall(VecRestoreArray(unew, &P.y));
  PetscCall(WaveRestoreCoefficients(w, &P));
  PetscCall(PetscLogFlops((3.0 * w->r * w->dim + 7) * WaveOwnedPoints(w)));
  RwModelFlagNonFinite(model, 0, k + 1, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The most forward steps the model fuses (RwWaveStepBlock()): pairs in 2D,
   where RwStencilRunPassPair() runs; up to RW_MODEL_MAX_STEP_BLOCK in 3D
   (RwStencilRunPassBlock()) */
PetscInt RwWaveStepBlockMax(PetscInt dim)
{
  return dim == 2 ? 2 : dim == 3 ? RW_MODEL_MAX_STEP_BLOCK : 1;
}

/*
  Steps k .. k+T-1 in one sweep, 3D (RwStencilRunPassBlock()): level t
  computes x_k+t+1 from x_k+t, its rows in place (whole-point rows, as the
  shell's: the ring's staged slices are one level's), each row's sources
  added at its end so that the next level reads it final.  Only the last
  level may stream its output: the others are read back from cache.  The
  bits of T RwWaveStep() calls
*/
static PetscErrorCode WaveStepBlock3D(RwModel model, PetscInt64 k, PetscInt T, Vec u, Vec unew[])
{
  RwModel_Wave     *w   = (RwModel_Wave *)model->data;
  const RwKernelISA isa = RwWaveFormISA(model, RW_WAVE_FORWARD);
  WavePass          P[RW_MODEL_MAX_STEP_BLOCK];
  RwStencilInput   *in[RW_MODEL_MAX_STEP_BLOCK];
  void             *ctx[RW_MODEL_MAX_STEP_BLOCK];
  PetscInt          nl;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &nl));
  for (PetscInt t = 0; t < T; t++) {
    P[t]          = WavePassCreate(model);
    P[t].in[0].g  = t ? unew[t - 1] : u;
    P[t].pair1    = w;
    P[t].block    = PETSC_TRUE;
    P[t].f        = RwWaveSourceValue(model, k + t);
    in[t]         = &P[t].in[0];
    ctx[t]        = &P[t];
    if (!t) PetscCall(WaveGetCoefficients(w, &P[0]));
    else P[t].ia = P[0].ia, P[t].c1 = P[0].c1, P[t].c2 = P[0].c2;
    PetscCall(VecGetArray(unew[t], &P[t].y));
  }
  P[T - 1].nt = RwModelStreamStores(model, (PetscInt64)nl * (PetscInt64)sizeof(PetscScalar), P[T - 1].y);
  PetscCall(PetscLogEventBegin(RwWaveEvent(RW_WAVE_FORWARD, isa), 0, 0, 0, 0));
  PetscCall(RwStencilRunPassBlock(w->st, T, in, WaveRingStageVariants[isa], WaveForwardRowVariants[isa], ctx));
  if (P[T - 1].nt) RwStreamFence();
  PetscCall(PetscLogEventEnd(RwWaveEvent(RW_WAVE_FORWARD, isa), 0, 0, 0, 0));
  for (PetscInt t = T - 1; t >= 0; t--) PetscCall(VecRestoreArray(unew[t], &P[t].y));
  PetscCall(WaveRestoreCoefficients(w, &P[0]));
  for (PetscInt t = 0; t < T; t++) RwModelFlagNonFinite(model, 0, k + t + 1, P[t].probe); /* the first bad step first */
  PetscCall(PetscLogFlops(T * (3.0 * w->r * w->dim + 7) * WaveOwnedPoints(w)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Steps k and k+1 in one sweep over the rows (RwStencilRunPassPair()): the
  second step reads u_k and the fields from cache and gathers u_k+1 from
  the pair's ring, where the first step's interior rows put it as they
  compute it (the layer stages the rest: the shell's rows and row ends).
  The first step runs a single step's rows (at order 8 from the layer's
  own ring).  So a pair moves 72 B a point for two steps (x_k 16, fields
  24, x_k+1 and x_k+2 16 each, both streamed past the caches where a
  single step's output would be) against 112.  The first step's sources
  are added at the end of each row, in x_k+1 and the ring, before the
  second step reads the row; the second's after the pass, as a single
  step's.  The bits of two RwWaveStep() calls.  Written with ordinary
  stores and read back, x_k+1 had cost 16 B more (its write-allocate
  read): two ranks, 2D, CPU ns a grid point a step, that pair / this one,
  order 2 4096^2 1.20-1.24 / 1.06-1.08, order 4 1.30-1.36 / 1.24-1.27
*/
PetscErrorCode RwWaveStepBlock(RwModel model, PetscInt64 k, PetscInt T, Vec u, Vec unew[])
{
  RwModel_Wave     *w   = (RwModel_Wave *)model->data;
  const RwKernelISA isa = RwWaveFormISA(model, RW_WAVE_FORWARD);
  WavePass          P1 = WavePassCreate(model), P2 = WavePassCreate(model);
  PetscInt          nl;

  PetscFunctionBegin;
  if (w->dim == 3) {
    PetscCall(WaveStepBlock3D(model, k, T, u, unew));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(T == 2 && w->dim == 2, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "The wave model fuses pairs of steps in 2D, not %" PetscInt_FMT " in %" PetscInt_FMT "D", T, w->dim);
  P1.in[0].g = u;
  P2.in[0].g = unew[0];
  PetscCall(WaveGetCoefficients(w, &P1));
  P2.ia = P1.ia, P2.c1 = P1.c1, P2.c2 = P1.c2;
  PetscCall(VecGetArray(unew[0], &P1.y));
  PetscCall(VecGetArray(unew[1], &P2.y));
  PetscCall(VecGetLocalSize(unew[1], &nl));
  P2.xk      = &P1.in[0];
  P1.pair1   = w;
  P1.f       = RwWaveSourceValue(model, k);
  P1.nt      = RwModelStreamStores(model, (PetscInt64)nl * (PetscInt64)sizeof(PetscScalar), P1.y);
  P2.nt      = RwModelStreamStores(model, (PetscInt64)nl * (PetscInt64)sizeof(PetscScalar), P2.y);
  PetscCall(PetscLogEventBegin(RwWaveEvent(RW_WAVE_FORWARD, isa), 0, 0, 0, 0));
  PetscCall(RwStencilRunPassPair(w->st, &P1.in[0], WaveForwardRing(model) ? WaveRingStageVariants[isa] : NULL, WaveForwardRowVariants[isa], &P1, &P2.in[0], WaveRingStageVariants[isa], WaveForwardRowVariants[isa], &P2));
  WaveForwardSources(w, &P2, RwWaveSourceValue(model, k + 1));
  PetscCall(PetscLogEventEnd(RwWaveEvent(RW_WAVE_FORWARD, isa), 0, 0, 0, 0));
  PetscCall(VecRestoreArray(unew[1], &P2.y));
  PetscCall(VecRestoreArray(unew[0], &P1.y));
  PetscCall(WaveRestoreCoefficients(w, &P1));
  PetscCall(PetscLogFlops(2 * (3.0 * w->r * w->dim + 7) * WaveOwnedPoints(w)));
  RwModelFlagNonFinite(model, 0, k + 1, P1.probe);
  RwModelFlagNonFinite(model, 0, k + 2, P2.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveStepTangent(RwModel model, RwKernelISA isa, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  RwModel_Wave   *w = (RwModel_Wave *)model->data;
  WavePass        P = WavePassCreate(model);
  const PetscReal f = RwWaveSourceValue(model, k);

  PetscFunctionBegin;
  P.in[0].g = du;
  PetscCall(WaveGetCoefficients(w, &P));
  PetscCall(VecGetArrayRead(w->dm, &P.dm));
  PetscCall(VecGetArrayRead(u, &P.u));
  PetscCall(VecGetArrayRead(unew, &P.un));
  PetscCall(VecGetArray(dunew, &P.y));
  PetscCall(WaveRunPass(model, &P, WaveForwardRing(model), isa, WaveTangentRowVariants[isa]));
  for (PetscInt s = 0; s < w->nsrcpts; s++) { /* the pass took u+ for u+pre: put f q back, and the source's own derivative */
    PetscScalar *y = &P.y[w->srcidx[s]];

    *y += f * w->srcg[s] * P.dm[w->srcidx[s]];
    P.probe += *y * 0;
  }
  PetscCall(VecRestoreArray(dunew, &P.y));
  PetscCall(VecRestoreArrayRead(unew, &P.un));
  PetscCall(VecRestoreArrayRead(u, &P.u));
  PetscCall(VecRestoreArrayRead(w->dm, &P.dm));
  PetscCall(WaveRestoreCoefficients(w, &P));
  PetscCall(PetscLogFlops((3.0 * w->r * w->dim + 12) * WaveOwnedPoints(w)));
  RwModelFlagNonFinite(model, 0, k + 1, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WaveStepAdjoint(RwModel model, RwKernelISA isa, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec l)
{
  RwModel_Wave      *w = (RwModel_Wave *)model->data;
  WavePass           P = WavePassCreate(model);
  const PetscReal    f = RwWaveSourceValue(model, k);
  const PetscScalar *ln;

  PetscFunctionBegin;
  P.in[0].g = lnew;
  PetscCall(WaveGetCoefficients(w, &P));
  PetscCall(VecGetArrayRead(u, &P.u));
  PetscCall(VecGetArrayRead(unew, &P.un));
  PetscCall(VecGetArray(l, &P.y));
  PetscCall(VecGetArray(w->gm, &P.gm));
  P.sia = PETSC_TRUE;
  PetscCall(WaveRunPass(model, &P, WAVE_RING_ADJ(w->dim, w->r) ? PETSC_TRUE : PETSC_FALSE, isa, WaveAdjointRowVariants[isa]));
  PetscCall(VecGetArrayRead(lnew, &ln));
  for (PetscInt s = 0; s < w->nsrcpts; s++) P.gm[w->srcidx[s]] += f * ln[w->srcidx[s]] * w->srcg[s];
  PetscCall(VecRestoreArrayRead(lnew, &ln));
  PetscCall(VecRestoreArray(w->gm, &P.gm));
  PetscCall(VecRestoreArray(l, &P.y));
  PetscCall(VecRestoreArrayRead(unew, &P.un));
  PetscCall(VecRestoreArrayRead(u, &P.u));
  PetscCall(WaveRestoreCoefficients(w, &P));
  PetscCall(PetscLogFlops((4.0 * w->r * w->dim + 14) * WaveOwnedPoints(w)));
  RwModelFlagNonFinite(model, 1, k, P.probe);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A form of step k in instruction set isa, its pass logged under the
  variant's event (-log_view: RwWaveForward_avx2 ...).  Forward: u -> unew;
  tangent: a = du_k -> b = du_k+1; adjoint: a = lambda_k+1 -> b = lambda_k.
  The steps' ops run the set chosen for the form (RwWaveFormISA()); the
  timing at set-up runs every set (RwWaveChooseKernels())
*/
PetscErrorCode RwWaveRunForm(RwModel model, RwWaveForm form, RwKernelISA isa, PetscInt64 k, Vec u, Vec unew, Vec a, Vec b)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(RwWaveEvent(form, isa), 0, 0, 0, 0));
  switch (form) {
  case RW_WAVE_FORWARD:
    PetscCall(WaveStepForward(model, isa, k, u, unew));
    break;
  case RW_WAVE_TANGENT:
    PetscCall(WaveStepTangent(model, isa, k, u, unew, a, b));
    break;
  default:
    PetscCall(WaveStepAdjoint(model, isa, k, u, unew, a, b));
  }
  PetscCall(PetscLogEventEnd(RwWaveEvent(form, isa), 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwWaveStep(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  PetscFunctionBegin;
  PetscCall(RwWaveRunForm(model, RW_WAVE_FORWARD, RwWaveFormISA(model, RW_WAVE_FORWARD), k, u, unew, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwWaveStepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  PetscFunctionBegin;
  PetscCall(RwWaveRunForm(model, RW_WAVE_TANGENT, RwWaveFormISA(model, RW_WAVE_TANGENT), k, u, unew, du, dunew));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwWaveStepAdjoint(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec l)
{
  PetscFunctionBegin;
  PetscCall(RwWaveRunForm(model, RW_WAVE_ADJOINT, RwWaveFormISA(model, RW_WAVE_ADJOINT), k, u, unew, lnew, l));
  PetscFunctionReturn(PETSC_SUCCESS);
}
