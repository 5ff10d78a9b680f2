/*
  The pointwise network's kernels: forward, tangent and adjoint side by side.

  Every layer runs over a block of up to RW_NN_BLOCK points at once: for each
  output unit, z[i][p] = b[i] + sum_j W[i][j] a[j][p] with the loop over points
  innermost (contiguous, vectorised), so no function is called per point per
  layer; the activation is a loop over the block too (libm's tanh, exp and
  log1p inside it).  Each point's arithmetic does not depend on where it sits
  in its block or row, so results are the same for any decomposition.

    forward   z_l = W_l a_{l-1} + b_l, a_l = act_l(z_l), N = a_L
    tangent   dz_l = W_l da_{l-1} + dW_l a_{l-1} + db_l, da_l = act_l'(z_l) dz_l
    adjoint   zbar_L = act_L'(z_L) ybar; for l = L..1:
                dW_l[i][j] = zbar_l[i] a_{l-1}[j], db_l[i] = zbar_l[i] (per point),
                abar_{l-1} = W_l^T zbar_l, zbar_{l-1} = act_{l-1}'(z_{l-1}) abar_{l-1};
              xbar += abar_0
*/
#include <rewind/private/nnimpl.h>
#include <math.h>

#define B RW_NN_BLOCK

/* a = act(z) over m points */
static void Activate(RwNNActivation act, PetscInt m, const PetscReal *restrict z, PetscReal *restrict a)
{
  switch (act) {
  case RW_NN_TANH:
    for (PetscInt p = 0; p < m; p++) a[p] = tanh(z[p]);
    break;
  case RW_NN_SOFTPLUS: /* log(1 + e^z) without overflow: max(z, 0) + log1p(e^-|z|) */
    for (PetscInt p = 0; p < m; p++) a[p] = (z[p] > 0 ? z[p] : 0) + log1p(exp(-fabs(z[p])));
    break;
  default:
    for (PetscInt p = 0; p < m; p++) a[p] = z[p];
  }
}

/* y = act'(z) x over m points (a = act(z) is known: tanh' = 1 - a^2) */
static void ActivateDerivative(RwNNActivation act, PetscInt m, const PetscReal *restrict z, const PetscReal *restrict a, const PetscReal *restrict x, PetscReal *restrict y)
{
  switch (act) {
  case RW_NN_TANH:
    for (PetscInt p = 0; p < m; p++) y[p] = (1 - a[p] * a[p]) * x[p];
    break;
  case RW_NN_SOFTPLUS: /* the logistic function, e^z / (1 + e^z) = 1 / (1 + e^-z) */
    for (PetscInt p = 0; p < m; p++) y[p] = x[p] / (1 + exp(-z[p]));
    break;
  default:
    for (PetscInt p = 0; p < m; p++) y[p] = x[p];
  }
}

/* z[i][.] = b[i] + sum_j W[i][j] x[j][.] for a block of m points; rows of B */
static void Affine(PetscInt nout, PetscInt nin, const PetscReal *W, const PetscReal *b, const PetscReal *x, PetscInt m, PetscReal *z)
{
  for (PetscInt i = 0; i < nout; i++) {
    PetscReal *restrict zi = z + i * B;
    const PetscReal bi     = b ? b[i] : 0;

    for (PetscInt p = 0; p < m; p++) zi[p] = bi;
    for (PetscInt j = 0; j < nin; j++) {
      const PetscReal w           = W[i * nin + j];
      const PetscReal *restrict xj = x + j * B;

#pragma GCC ivdep
      for (PetscInt p = 0; p < m; p++) zi[p] += w * xj[p];
    }
  }
}

/* The forward pass of one block, keeping z_l and a_l for the other forms */
static void ForwardBlock(RwNN nn, const PetscReal *theta, PetscInt m, const PetscReal *x, PetscInt xs)
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt c = 0; c < nn->sizes[0]; c++)
    for (PetscInt p = 0; p < m; p++) nn->a[0][c * B + p] = x[c * xs + p];
  for (PetscInt l = 1; l <= L; l++) {
    const RwNNActivation act = l == L ? nn->output : nn->hidden;

    Affine(nn->sizes[l], nn->sizes[l - 1], theta + nn->offW[l], theta + nn->offb[l], nn->a[l - 1], m, nn->z[l]);
    for (PetscInt i = 0; i < nn->sizes[l]; i++) Activate(act, m, nn->z[l] + i * B, nn->a[l] + i * B);
  }
}

static void RwNNForward_MLP(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, PetscReal y[], PetscInt ys)
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt p0 = 0; p0 < n; p0 += B) {
    const PetscInt m = PetscMin(B, n - p0);

    ForwardBlock(nn, theta, m, x + p0, xs);
    for (PetscInt c = 0; c < nn->sizes[L]; c++)
      for (PetscInt p = 0; p < m; p++) y[c * ys + p0 + p] = nn->a[L][c * B + p];
  }
}

/* y = N(x) (if y), dy = N_x(x) dx + N_theta(x) dtheta; dx or dtheta NULL: zero */
static void RwNNTangent_MLP(RwNN nn, const PetscReal theta[], const PetscReal dtheta[], PetscInt n, const PetscReal x[], const PetscReal dx[], PetscInt xs, PetscReal y[], PetscReal dy[], PetscInt ys)
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt p0 = 0; p0 < n; p0 += B) {
    const PetscInt m = PetscMin(B, n - p0);

    ForwardBlock(nn, theta, m, x + p0, xs);
    for (PetscInt c = 0; c < nn->sizes[0]; c++)
      for (PetscInt p = 0; p < m; p++) nn->da[0][c * B + p] = dx ? dx[c * xs + p0 + p] : 0;
    for (PetscInt l = 1; l <= L; l++) {
      const RwNNActivation act = l == L ? nn->output : nn->hidden;
      const PetscInt       no = nn->sizes[l], ni = nn->sizes[l - 1];

      Affine(no, ni, theta + nn->offW[l], NULL, nn->da[l - 1], m, nn->dz);
      if (dtheta) { /* + dW_l a_{l-1} + db_l */
        for (PetscInt i = 0; i < no; i++) {
          PetscReal *restrict dzi = nn->dz + i * B;
          const PetscReal     dbi = dtheta[nn->offb[l] + i];

          for (PetscInt p = 0; p < m; p++) dzi[p] += dbi;
          for (PetscInt j = 0; j < ni; j++) {
            const PetscReal           w  = dtheta[nn->offW[l] + i * ni + j];
            const PetscReal *restrict aj = nn->a[l - 1] + j * B;

#pragma GCC ivdep
            for (PetscInt p = 0; p < m; p++) dzi[p] += w * aj[p];
          }
        }
      }
      for (PetscInt i = 0; i < no; i++) ActivateDerivative(act, m, nn->z[l] + i * B, nn->a[l] + i * B, nn->dz + i * B, nn->da[l] + i * B);
    }
    for (PetscInt c = 0; c < nn->sizes[L]; c++)
      for (PetscInt p = 0; p < m; p++) {
        if (y) y[c * ys + p0 + p] = nn->a[L][c * B + p];
        dy[c * ys + p0 + p] = nn->da[L][c * B + p];
      }
  }
}

/* xbar += N_x(x)^T ybar (if xbar); each point's terms of N_theta(x)^T ybar
   written to gw[w gs + p] (if gw: the caller sums them, exactly if it wants);
   their plain sums added to gsum[w] (if gsum) */
static void RwNNAdjoint_MLP(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, const PetscReal ybar[], PetscInt ys, PetscReal xbar[], PetscReal gw[], PetscInt gs, PetscReal gsum[])
{
  const PetscInt L = nn->nsizes - 1;

  for (PetscInt p0 = 0; p0 < n; p0 += B) {
    const PetscInt m   = PetscMin(B, n - p0);
    PetscReal     *zb  = nn->bar[0], *ab = nn->bar[1];

    ForwardBlock(nn, theta, m, x + p0, xs);
    for (PetscInt c = 0; c < nn->sizes[L]; c++) {
      for (PetscInt p = 0; p < m; p++) ab[c * B + p] = ybar[c * ys + p0 + p];
      ActivateDerivative(nn->output, m, nn->z[L] + c * B, nn->a[L] + c * B, ab + c * B, zb + c * B);
    }
    for (PetscInt l = L; l >= 1; l--) {
      const PetscInt   no = nn->sizes[l], ni = nn->sizes[l - 1];
      const PetscReal *W  = theta + nn->offW[l];

      for (PetscInt i = 0; i < no; i++) {
        const PetscReal *restrict zi = zb + i * B;

        for (PetscInt j = 0; j < ni; j++) {
          const PetscReal *restrict aj = nn->a[l - 1] + j * B;
          const PetscInt            w  = nn->offW[l] + i * ni + j;

          if (gw) {
            PetscReal *restrict g = gw + w * gs + p0;
#pragma GCC ivdep
            for (PetscInt p = 0; p < m; p++) g[p] = zi[p] * aj[p];
          }
          if (gsum) {
            PetscReal s = 0;
            for (PetscInt p = 0; p < m; p++) s += zi[p] * aj[p];
            gsum[w] += s;
          }
        }
        if (gw) {
          PetscReal *restrict g = gw + (nn->offb[l] + i) * gs + p0;
          for (PetscInt p = 0; p < m; p++) g[p] = zi[p];
        }
        if (gsum) {
          PetscReal s = 0;
          for (PetscInt p = 0; p < m; p++) s += zi[p];
          gsum[nn->offb[l] + i] += s;
        }
      }
      if (l == 1 && !xbar) break;
      /* abar_{l-1} = W_l^T zbar_l: for each input unit, a sum over output units */
      for (PetscInt j = 0; j < ni; j++) {
        PetscReal *restrict aj = ab + j * B;

        for (PetscInt p = 0; p < m; p++) aj[p] = 0;
        for (PetscInt i = 0; i < no; i++) {
          const PetscReal           w  = W[i * ni + j];
          const PetscReal *restrict zi = zb + i * B;

#pragma GCC ivdep
          for (PetscInt p = 0; p < m; p++) aj[p] += w * zi[p];
        }
      }
      if (l > 1) {
        for (PetscInt j = 0; j < ni; j++) ActivateDerivative(nn->hidden, m, nn->z[l - 1] + j * B, nn->a[l - 1] + j * B, ab + j * B, zb + j * B);
      } else {
        for (PetscInt c = 0; c < ni; c++)
          for (PetscInt p = 0; p < m; p++) xbar[c * xs + p0 + p] += ab[c * B + p];
      }
    }
  }
}

PETSC_INTERN void RwNNSetOps_MLP(RwNN nn)
{
  nn->ops->forward = RwNNForward_MLP;
  nn->ops->tangent = RwNNTangent_MLP;
  nn->ops->adjoint = RwNNAdjoint_MLP;
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
  of point p at gw[w gs + p], overwritten) and/or summed into gsum[w]

  Not collective; xbar, gw or gsum may be NULL

  Notes:
  A gradient that must be the same on any number of ranks sums gw's terms
  exactly (RwReproSumAddArray(), RwModelAddScalarGradientArray()); gsum is a
  plain sum in point order.

  Level: intermediate

.seealso: RwNNForward(), RwNNTangent()
@*/
void RwNNAdjoint(RwNN nn, const PetscReal theta[], PetscInt n, const PetscReal x[], PetscInt xs, const PetscReal ybar[], PetscInt ys, PetscReal xbar[], PetscReal gw[], PetscInt gs, PetscReal gsum[])
{
  nn->ops->adjoint(nn, theta, n, x, xs, ybar, ys, xbar, gw, gs, gsum);
}
