/*
  The network's kernels for one instruction set: included by nnkernels.c once
  per variant, with RW_NN_SFX (the variant's name), RW_NN_TARGET (its target
  attribute), RW_NN_VL (lanes of a vector: one register), RW_NN_KO and
  RW_NN_VB (a register block: output units x vectors) defined.  Every static
  name below gets the variant's suffix, so the three copies live in one file.
  nnkernels.c describes the kernels and why their bits are the same in every
  variant.
*/
#define RwV RW_NN_NAME(RwV)
#define RwVI RW_NN_NAME(RwVI)
#define Fma RW_NN_NAME(Fma)
#define Splat RW_NN_NAME(Splat)
#define Clamp20 RW_NN_NAME(Clamp20)
#define TanhV RW_NN_NAME(TanhV)
#define Activate RW_NN_NAME(Activate)
#define ActivateDerivative RW_NN_NAME(ActivateDerivative)
#define AffineRows RW_NN_NAME(AffineRows)
#define Affine RW_NN_NAME(Affine)
#define ForwardBlock RW_NN_NAME(ForwardBlock)
#define ForwardBody RW_NN_NAME(ForwardBody)
#define TangentWeights RW_NN_NAME(TangentWeights)
#define TangentBody RW_NN_NAME(TangentBody)
#define WeightGradientRows RW_NN_NAME(WeightGradientRows)
#define WeightGradientLanes RW_NN_NAME(WeightGradientLanes)
#define WeightGradientPoints RW_NN_NAME(WeightGradientPoints)
#define AddLanes RW_NN_NAME(AddLanes)
#define AdjointBody RW_NN_NAME(AdjointBody)
#define TanhArrayBody RW_NN_NAME(TanhArrayBody)
#define MultiplyAddLoopBody RW_NN_NAME(MultiplyAddLoopBody)

#define B  RW_NN_BLOCK
#define VL RW_NN_VL                   /* lanes of a vector */
#define NV (RW_NN_BLOCK / VL)         /* vectors per unit of a block */
#define NH (RW_NN_LANES / VL)         /* vectors of a weight's RW_NN_LANES partial sums */
#define KO RW_NN_KO                   /* output units of a register block */
#define VB RW_NN_VB                   /* vectors of a register block (a multiple of NH) */

typedef double  RwV __attribute__((vector_size(8 * VL), aligned(8)));
typedef int64_t RwVI __attribute__((vector_size(8 * VL), aligned(8)));

/* a b + c rounded once, lane by lane.  The variants with FMA name the vector
   instruction (GCC's builtins; nnkernels.c compiles their bodies for their
   target): left to vectorise a lane loop, GCC made some of the adjoint's
   weight-gradient fmas scalar, one lane at a time, once the inlined body
   grew (a paired tanh, since dropped: adjoint 68 -> 170 ns a point) */
RW_NN_INLINE RwV Fma(RwV a, RwV b, RwV c)
{
#if RW_NN_VL == 8 && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  return __builtin_ia32_vfmaddpd512_mask(a, b, c, (unsigned char)-1, 4);
#elif RW_NN_VL == 4 && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  return __builtin_ia32_vfmaddpd256(a, b, c);
#else
  RwV r;
  for (int l = 0; l < VL; l++) r[l] = __builtin_fma(a[l], b[l], c[l]);
  return r;
#endif
}

/* a in every lane, by its bits (a vector of integers plus a scalar is one
   broadcast; a lane by lane loop was compiled to a masked load per lane) */
RW_NN_INLINE RwV Splat(double a)
{
  int64_t b;

  memcpy(&b, &a, sizeof b);
  return (RwV)((RwVI){0} + b);
}

/* min(20, x) lane by lane, NaN staying NaN: one vminpd (20 < x ? 20 : x)
   where the variant can name it; as a lane-wise compare and blend it was 4
   of tanh's 27 operations (forward 35.1-36.2 -> 34.0-35.0 ns a point on
   AVX-512, AVX2 56-60 -> 52-54), and as a lane-wise fmin GCC left more of
   the kernels scalar */
RW_NN_INLINE RwV Clamp20(RwV x)
{
#if RW_NN_VL == 8 && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  return __builtin_ia32_minpd512_mask(Splat(20), x, x, (unsigned char)-1, 4);
#elif RW_NN_VL == 4 && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  return __builtin_ia32_minpd256(Splat(20), x);
#elif RW_NN_VL == 2 && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  return __builtin_ia32_minpd(Splat(20), x);
#else
  const RwVI big = 20 < x; /* false for NaN, which stays NaN */
  return (RwV)(((RwVI)x & ~big) | ((RwVI)Splat(20) & big));
#endif
}

/* Vector v of unit i of a block array */
#define AT(arr, i, v) (*(RwV *)((arr) + (i) * B + (v) * VL))
/* Vector h of weight w's RW_NN_LANES partial sums: lane l of the sums takes
   the points p = l mod RW_NN_LANES of every block, whatever VL is */
#define LANES(G, w, h) (*(RwV *)((G) + (w) * RW_NN_LANES + (h) * VL))

/* tanh(a), a = |x| (clamped to 20, where tanh rounds to 1), from
   e^-2a = 2^-n e^-2h, 2a = n ln2 + 2h, 0 <= h <= ln2 / 2 (n = floor(2a / ln2):
   the nearest integer to 2a / ln2 - 1/2 + 2^-54, which is 0 for tiny a where
   - 1/2 alone would tie and round to odd; Cody-Waite: ln2 / 2 in two parts,
   n ln2_hi exact), and e^-2h by its [7/7] Pade approximant, which is
   symmetric: (E - hO) / (E + hO) with E(h^2), O(h^2) the even and odd parts
   (relative error below 2^-60 at h = ln2 / 2).  With s = 2^-n,
     tanh(a) = ((1 - s) E + (1 + s) hO) / ((1 + s) E + (1 - s) hO),
   halved and taken as num = mh D + hO over num + s D, mh = (1 - s) / 2,
   D = E - hO (the denominator less the numerator is s D): one division, no
   cancellation near 0 (n = 0: mh = 0, hO / (D + hO), tanh's own [7/6] Pade
   approximant), since s e^-2h <= 1/2 for n >= 1 none further out, and never
   above 1 (num + s D >= num, where mh rounds to 1/2 for large n).  2^-n comes
   from the bits of 1.5 2^52 + 1023 - n, whose low bits are its biased
   exponent.  22 vector operations with the division (24 as
   (1 - s) E + (1 + s) hO over (1 + s) E + (1 - s) hO, 27 before the clamp was
   one vminpd), against 33 for the expm1 series to r^13 this replaced; at most
   2.3 ulp from the correctly rounded tanh (a quadruple-precision sweep of
   [0, 24] by 2^-18; 2.47 in the (1 + s) form) and 3 from glibc's
   (tests/nn/t702).  Alone it runs at the divider's pace (0.69 ns a value,
   one vdivpd per 8 values every 13 cycles here). */
RW_NN_INLINE RwV TanhV(RwV x)
{
  const RwVI sign = (RwVI)x & (RwVI)Splat(-0.0);
  const RwV  ax   = (RwV)((RwVI)x ^ sign);
  const RwV  a    = Clamp20(ax);
  const RwV  ks   = Fma(a, Splat(-2 * 1.4426950408889634), Splat(0x1.fffffffffffffp-2)) + (0x1.8p52 + 1023), kd = ks - (0x1.8p52 + 1023); /* kd = -n */
  const RwV  h    = Fma(kd, Splat(0.5 * 0x1.a39ef35793c76p-33), Fma(kd, Splat(0.5 * 0x1.62e42fee00000p-1), a));
  const RwV  s    = (RwV)((RwVI)ks << 52); /* 2^-n, 0 <= n <= 57 */
  const RwV  w    = h * h;
  const RwV  E    = Fma(w, Fma(w, Fma(w, Splat(4.0 / 19305), Splat(10.0 / 429)), Splat(6.0 / 13)), Splat(1));
  const RwV  hO   = Fma(h * w, Fma(w, Fma(w, Splat(1.0 / 135135), Splat(2.0 / 715)), Splat(5.0 / 39)), h);
  const RwV  mh = Fma(s, Splat(-0.5), Splat(0.5)), D = E - hO, num = Fma(mh, D, hO);

  return (RwV)((RwVI)(num / Fma(s, D, num)) | sign);
}

/* a = act(z) over nv vectors of each of no units */
RW_NN_INLINE void Activate(RwNNActivation act, PetscInt no, PetscInt nv, const PetscReal *restrict z, PetscReal *restrict a)
{
  for (PetscInt i = 0; i < no; i++) {
    const PetscReal *zi = z + i * B;
    PetscReal       *ai = a + i * B;

    switch (act) {
    case RW_NN_TANH:
      for (PetscInt v = 0; v < nv; v++) AT(ai, 0, v) = TanhV(AT(zi, 0, v));
      break;
    case RW_NN_SOFTPLUS: /* log(1 + e^z) without overflow: max(z, 0) + log1p(e^-|z|) */
      for (PetscInt p = 0; p < nv * VL; p++) ai[p] = (zi[p] > 0 ? zi[p] : 0) + log1p(exp(-fabs(zi[p])));
      break;
    default:
      for (PetscInt v = 0; v < nv; v++) AT(ai, 0, v) = AT(zi, 0, v);
    }
  }
}

/* y = act'(z) x over nv vectors of each of no units (a = act(z) is known: tanh' = 1 - a^2) */
RW_NN_INLINE void ActivateDerivative(RwNNActivation act, PetscInt no, PetscInt nv, const PetscReal *restrict z, const PetscReal *restrict a, const PetscReal *restrict x, PetscReal *restrict y)
{
  for (PetscInt i = 0; i < no; i++) {
    const PetscInt o = i * B;

    switch (act) {
    case RW_NN_TANH:
      for (PetscInt v = 0; v < nv; v++) {
        const RwV ai = AT(a + o, 0, v);
        AT(y + o, 0, v) = Fma(-ai, ai, Splat(1)) * AT(x + o, 0, v); /* 1 - a^2 rounded once: one operation fewer than a multiply and a subtraction */
      }
      break;
    case RW_NN_SOFTPLUS: /* the logistic function, e^z / (1 + e^z) = 1 / (1 + e^-z) */
      for (PetscInt p = 0; p < nv * VL; p++) y[o + p] = x[o + p] / (1 + exp(-z[o + p]));
      break;
    default:
      for (PetscInt v = 0; v < nv; v++) AT(y + o, 0, v) = AT(x + o, 0, v);
    }
  }
}

/* Output units i .. i + k - 1 (k <= 4, a constant once inlined) of
   z[i] = b[i] + sum_j W[i][j] x[j] (b NULL: from 0) over the whole block,
   each sum in the order j = 0, 1, ... by fused multiply-adds; W[i][j] at
   W[i ws + j wt] (ws, wt = ni, 1 for W and 1, no' for W^T).  The block's
   vectors go VB at a time; the k x VB accumulators stay in registers: a
   weight is broadcast once for VB fmas, an input vector loaded once for k.
   With t, t = tanh(z) too, from the registers: the tanh divisions then
   overlap the next rows' fmas (AVX-512 forward 37.7 -> 35.2 ns a point,
   AVX2 80 -> 58). */
RW_NN_INLINE void AffineRows(const int k, PetscInt i, PetscInt ni, const PetscReal *W, PetscInt ws, PetscInt wt, const PetscReal *b, const PetscReal *restrict x, PetscReal *restrict z, PetscReal *restrict t)
{
  for (int v0 = 0; v0 < NV; v0 += VB) {
    RwV s[KO][VB];

    RW_NN_UNROLL
    for (int o = 0; o < k; o++)
      RW_NN_UNROLL
      for (int v = 0; v < VB; v++) s[o][v] = Splat(b ? b[i + o] : 0);
    for (PetscInt j = 0; j < ni; j++) {
      RwV xj[VB];

      RW_NN_UNROLL
      for (int v = 0; v < VB; v++) xj[v] = AT(x, j, v0 + v);
      RW_NN_UNROLL
      for (int o = 0; o < k; o++) {
        const RwV w = Splat(W[(i + o) * ws + j * wt]);

        RW_NN_UNROLL
        for (int v = 0; v < VB; v++) s[o][v] = Fma(w, xj[v], s[o][v]);
      }
    }
    RW_NN_UNROLL
    for (int o = 0; o < k; o++)
      RW_NN_UNROLL
      for (int v = 0; v < VB; v++) AT(z, i + o, v0 + v) = s[o][v];
    if (t)
      RW_NN_UNROLL
      for (int o = 0; o < k; o++)
        RW_NN_UNROLL
        for (int v = 0; v < VB; v++) AT(t, i + o, v0 + v) = TanhV(s[o][v]);
  }
}

/* z = W x + b for a whole block: KO output units at a time, then one */
RW_NN_INLINE void Affine(PetscInt no, PetscInt ni, const PetscReal *W, PetscInt ws, PetscInt wt, const PetscReal *b, const PetscReal *restrict x, PetscReal *restrict z, PetscReal *restrict t)
{
  PetscInt i = 0;

  for (; i + KO <= no; i += KO) AffineRows(KO, i, ni, W, ws, wt, b, x, z, t);
  for (; i < no; i++) AffineRows(1, i, ni, W, ws, wt, b, x, z, t);
}

/* The forward pass of one block of m points (the rest of the block zeros),
   keeping z_l and a_l for the other forms */
RW_NN_INLINE void ForwardBlock(RwNN nn, const PetscReal *theta, PetscInt m, const PetscReal *x, PetscInt xs)
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt c = 0; c < nn->sizes[0]; c++)
    for (PetscInt p = 0; p < B; p++) nn->a[0][c * B + p] = p < m ? x[c * xs + p] : 0;
  for (PetscInt l = 1; l <= L; l++) {
    const RwNNActivation act = l == L ? nn->output : nn->hidden;

    Affine(nn->sizes[l], nn->sizes[l - 1], theta + nn->offW[l], nn->sizes[l - 1], 1, theta + nn->offb[l], nn->a[l - 1], nn->z[l], act == RW_NN_TANH ? nn->a[l] : NULL);
    if (act != RW_NN_TANH) Activate(act, nn->sizes[l], NV, nn->z[l], nn->a[l]);
  }
}

RW_NN_INLINE void ForwardBody(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, PetscReal y[], PetscInt ys)
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt p0 = 0; p0 < n; p0 += B) {
    const PetscInt m = PetscMin(B, n - p0);

    ForwardBlock(nn, theta, m, x + p0, xs);
    for (PetscInt c = 0; c < nn->sizes[L]; c++)
      for (PetscInt p = 0; p < m; p++) y[c * ys + p0 + p] = nn->a[L][c * B + p];
  }
}
RW_NN_TARGET static void RW_NN_NAME(Forward) (RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, PetscReal y[], PetscInt ys)
{
  ForwardBody (nn, theta, n, x, xs, y, ys);
}

/* dz += db + dW a: the weights' direction for one layer */
RW_NN_INLINE void TangentWeights(PetscInt no, PetscInt ni, const PetscReal *dW, const PetscReal *db, const PetscReal *restrict a, PetscReal *restrict dz)
{
  for (PetscInt i = 0; i < no; i++)
    for (PetscInt v = 0; v < NV; v++) {
      RwV s = AT(dz, i, v) + db[i];
      for (PetscInt j = 0; j < ni; j++) s = Fma(Splat(dW[i * ni + j]), AT(a, j, v), s);
      AT(dz, i, v) = s;
    }
}

/* y = N(x) (if y), dy = N_x(x) dx + N_theta(x) dtheta; dx or dtheta NULL: zero */
RW_NN_INLINE void TangentBody(RwNN nn, const PetscReal theta[], const PetscReal dtheta[], PetscInt n, const PetscReal x[], const PetscReal dx[], PetscInt xs, PetscReal y[], PetscReal dy[], PetscInt ys)
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt p0 = 0; p0 < n; p0 += B) {
    const PetscInt m = PetscMin(B, n - p0);

    ForwardBlock(nn, theta, m, x + p0, xs);
    for (PetscInt c = 0; c < nn->sizes[0]; c++)
      for (PetscInt p = 0; p < B; p++) nn->da[0][c * B + p] = dx && p < m ? dx[c * xs + p0 + p] : 0;
    for (PetscInt l = 1; l <= L; l++) {
      const RwNNActivation act = l == L ? nn->output : nn->hidden;
      const PetscInt       no = nn->sizes[l], ni = nn->sizes[l - 1];

      Affine(no, ni, theta + nn->offW[l], ni, 1, NULL, nn->da[l - 1], nn->dz, NULL);
      if (dtheta) TangentWeights(no, ni, dtheta + nn->offW[l], dtheta + nn->offb[l], nn->a[l - 1], nn->dz);
      ActivateDerivative(act, no, NV, nn->z[l], nn->a[l], nn->dz, nn->da[l]);
    }
    for (PetscInt c = 0; c < nn->sizes[L]; c++)
      for (PetscInt p = 0; p < m; p++) {
        if (y) y[c * ys + p0 + p] = nn->a[L][c * B + p];
        dy[c * ys + p0 + p] = nn->da[L][c * B + p];
      }
  }
}
RW_NN_TARGET static void RW_NN_NAME(Tangent) (RwNN nn, const PetscReal theta[], const PetscReal dtheta[], PetscInt n, const PetscReal x[], const PetscReal dx[], PetscInt xs, PetscReal y[], PetscReal dy[], PetscInt ys)
{
  TangentBody (nn, theta, dtheta, n, x, dx, xs, y, dy, ys);
}

/* Output units i .. i + k - 1 (k <= 4, a constant once inlined) of one
   layer's weight gradient for one block, lane by lane: G[w] += zbar[i] a[j]
   (w = offW + i ni + j) over the block's vectors v = 0, 1, ... by fused
   multiply-adds and G[offb + i] += zbar[i], each G[w] RW_NN_LANES partial
   sums (NH vectors; vector v of a block adds to G[w]'s vector v mod NH, so
   each partial sum takes the same points in the same order for any VL).  The
   block's vectors go VB at a time, a multiple of NH; the k x VB zbar vectors
   stay in registers and each a[j] vector is loaded once for k units. */
RW_NN_INLINE void WeightGradientRows(const int k, PetscInt i, PetscInt ni, PetscInt offW, PetscInt offb, const PetscReal *restrict zb, const PetscReal *restrict a, PetscReal *restrict G)
{
  RW_NN_UNROLL
  for (int o = 0; o < k; o++) {
    RwV sb[NH];

    RW_NN_UNROLL
    for (int h = 0; h < NH; h++) sb[h] = LANES(G, offb + i + o, h);
    RW_NN_UNROLL
    for (int v = 0; v < NV; v++) sb[v % NH] += AT(zb, i + o, v);
    RW_NN_UNROLL
    for (int h = 0; h < NH; h++) LANES(G, offb + i + o, h) = sb[h];
  }
  for (int v0 = 0; v0 < NV; v0 += VB) {
    RwV zi[KO][VB];

    RW_NN_UNROLL
    for (int o = 0; o < k; o++)
      RW_NN_UNROLL
      for (int v = 0; v < VB; v++) zi[o][v] = AT(zb, i + o, v0 + v);
    for (PetscInt j = 0; j < ni; j++) {
      RwV aj[VB];

      RW_NN_UNROLL
      for (int v = 0; v < VB; v++) aj[v] = AT(a, j, v0 + v);
      RW_NN_UNROLL
      for (int o = 0; o < k; o++) {
        const PetscInt w = offW + (i + o) * ni + j;
        RwV            s[NH];

        RW_NN_UNROLL
        for (int h = 0; h < NH; h++) s[h] = LANES(G, w, h);
        RW_NN_UNROLL
        for (int v = 0; v < VB; v++) s[v % NH] = Fma(zi[o][v], aj[v], s[v % NH]);
        RW_NN_UNROLL
        for (int h = 0; h < NH; h++) LANES(G, w, h) = s[h];
      }
    }
  }
}

RW_NN_INLINE void WeightGradientLanes(PetscInt no, PetscInt ni, PetscInt offW, PetscInt offb, const PetscReal *restrict zb, const PetscReal *restrict a, PetscReal *restrict G)
{
  PetscInt i = 0;

  for (; i + KO <= no; i += KO) WeightGradientRows(KO, i, ni, offW, offb, zb, a, G);
  for (; i < no; i++) WeightGradientRows(1, i, ni, offW, offb, zb, a, G);
}

/* Each point's weight terms of one layer for one block, written to gw[w gs + p] */
RW_NN_INLINE void WeightGradientPoints(PetscInt no, PetscInt ni, PetscInt offW, PetscInt offb, const PetscReal *zb, const PetscReal *a, PetscInt m, PetscReal *gw, PetscInt gs)
{
  for (PetscInt i = 0; i < no; i++) {
    for (PetscInt j = 0; j < ni; j++)
      for (PetscInt p = 0; p < m; p++) gw[(offW + i * ni + j) * gs + p] = zb[i * B + p] * a[j * B + p];
    for (PetscInt p = 0; p < m; p++) gw[(offb + i) * gs + p] = zb[i * B + p];
  }
}

/* The lanes of every weight's partial sums added pairwise, into gsum */
RW_NN_INLINE void AddLanes(PetscInt nw, const PetscReal *G, PetscReal *gsum)
{
  for (PetscInt w = 0; w < nw; w++) {
    PetscReal s[RW_NN_LANES];

    for (int l = 0; l < RW_NN_LANES; l++) s[l] = G[w * RW_NN_LANES + l];
    for (int h = RW_NN_LANES / 2; h >= 1; h /= 2)
      for (int l = 0; l < h; l++) s[l] += s[l + h];
    gsum[w] += s[0];
  }
}

/* xbar += N_x(x)^T ybar (if xbar); each point's terms of N_theta(x)^T ybar
   written to gw[w gs + p] (if gw); their sums over the n points, in an order
   fixed by n, added to gsum[w] (if gsum).  Block by block, the forward
   recomputation and the backpropagation together, so the block's
   activations stay in the L1 cache. */
RW_NN_INLINE void AdjointBody(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, const PetscReal ybar[], PetscInt ys, PetscReal xbar[], PetscReal gw[], PetscInt gs, PetscReal gsum[])
{
  const PetscInt L = nn->nsizes - 1;
  PetscReal     *zb = nn->bar[0], *ab = nn->bar[1], *G = nn->glanes;

  if (gsum)
    for (PetscInt w = 0; w < nn->nweights * RW_NN_LANES; w++) G[w] = 0;
  for (PetscInt p0 = 0; p0 < n; p0 += B) {
    const PetscInt m = PetscMin(B, n - p0);

    ForwardBlock(nn, theta, m, x + p0, xs);
    for (PetscInt c = 0; c < nn->sizes[L]; c++) /* padding points get ybar 0, so they add nothing */
      for (PetscInt p = 0; p < B; p++) ab[c * B + p] = p < m ? ybar[c * ys + p0 + p] : 0;
    ActivateDerivative(nn->output, nn->sizes[L], NV, nn->z[L], nn->a[L], ab, zb);
    for (PetscInt l = L; l >= 1; l--) {
      const PetscInt no = nn->sizes[l], ni = nn->sizes[l - 1];

      if (gsum) WeightGradientLanes(no, ni, nn->offW[l], nn->offb[l], zb, nn->a[l - 1], G);
      if (gw) WeightGradientPoints(no, ni, nn->offW[l], nn->offb[l], zb, nn->a[l - 1], m, gw + p0, gs);
      if (l == 1 && !xbar) break;
      /* abar_{l-1} = W_l^T zbar_l: input unit j sums over output units i = 0, 1, ... */
      Affine(ni, no, theta + nn->offW[l], 1, ni, NULL, zb, ab, NULL);
      if (l > 1) ActivateDerivative(nn->hidden, ni, NV, nn->z[l - 1], nn->a[l - 1], ab, zb);
      else
        for (PetscInt c = 0; c < ni; c++)
          for (PetscInt p = 0; p < m; p++) xbar[c * xs + p0 + p] += ab[c * B + p];
    }
  }
  if (gsum) AddLanes(nn->nweights, G, gsum);
}
RW_NN_TARGET static void RW_NN_NAME(Adjoint) (RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, const PetscReal ybar[], PetscInt ys, PetscReal xbar[], PetscReal gw[], PetscInt gs, PetscReal gsum[])
{
  AdjointBody (nn, theta, n, x, xs, ybar, ys, xbar, gw, gs, gsum);
}

/* RwNNTanh's loop, in the same clones as the kernels */
RW_NN_INLINE void TanhArrayBody(PetscInt n, const PetscReal *x, PetscReal *y)
{
  PetscInt p = 0;

  for (; p + VL <= n; p += VL) *(RwV *)(y + p) = TanhV(*(const RwV *)(x + p));
  if (p < n) {
    RwV v = Splat(0);

    for (PetscInt q = p; q < n; q++) v[q - p] = x[q];
    v = TanhV(v);
    for (PetscInt q = p; q < n; q++) y[q] = v[q - p];
  }
}
RW_NN_TARGET static void RW_NN_NAME(TanhArray) (PetscInt n, const PetscReal *x, PetscReal *y)
{
  TanhArrayBody (n, x, y);
}

/* The peak of the kernels' loops: independent fused multiply-adds on the
   same vectors, in the same variants; reps x 8 x VL x 2 flops */
RW_NN_INLINE void MultiplyAddLoopBody(PetscInt reps, PetscReal *acc)
{
  RwV s[8], w, x = Splat(acc[1]);

  for (int l = 0; l < VL; l++) w[l] = acc[0] * (1 + l * 0x1p-40); /* lanes the compiler cannot prove equal */

  for (int a = 0; a < 8; a++) s[a] = Splat(acc[2 + a]);
  for (PetscInt r = 0; r < reps; r++) {
#pragma GCC unroll 8
    for (int a = 0; a < 8; a++) s[a] = Fma(s[a], w, x);
  }
  for (int a = 0; a < 8; a++) acc[2 + a] = s[a][0];
}
RW_NN_TARGET static void RW_NN_NAME(MultiplyAddLoop) (PetscInt reps, PetscReal *acc)
{
  MultiplyAddLoopBody (reps, acc);
}

#undef RwV
#undef RwVI
#undef Fma
#undef Splat
#undef Clamp20
#undef TanhV
#undef Activate
#undef ActivateDerivative
#undef AffineRows
#undef Affine
#undef ForwardBlock
#undef ForwardBody
#undef TangentWeights
#undef TangentBody
#undef WeightGradientRows
#undef WeightGradientLanes
#undef WeightGradientPoints
#undef AddLanes
#undef AdjointBody
#undef TanhArrayBody
#undef MultiplyAddLoopBody
#undef B
#undef VL
#undef NV
#undef NH
#undef KO
#undef VB
#undef AT
#undef LANES
#undef RW_NN_SFX
#undef RW_NN_TARGET
#undef RW_NN_VL
#undef RW_NN_KO
#undef RW_NN_VB
