/*
  Regularisation of a parameter field f on the model's grid, with cell volume
  h^d and forward differences D_d f_i = (f_{i+e_d} - f_i) / h_d:

    l2  R = alpha/2 h^d sum_i (f_i - ref_i)^2
    h1  R = alpha/2 h^d sum_i sum_d (D_d f_i)^2
    tv  R = alpha   h^d sum_i S_i,  S_i = sqrt(sum_d (D_d f_i)^2 + eps^2)

  Ghosts beyond a non-periodic boundary mirror the adjacent value, so the
  boundary faces carry no difference.  Gradients are gathered point by point
  and the value is summed exactly, so both are the same on any number of ranks.
*/
#include <rewind/private/objectiveimpl.h>

const char *const RwRegTypes[] = {"none", "l2", "h1", "tv", "RwRegType", "RW_REG_", NULL};

typedef struct {
  PetscInt  dim, s[3], n[3], gs[3], gn[3], stride[3];
  PetscReal ih2[3], vol;
} RegGrid;

static PetscErrorCode RegGridGet(RwModel model, RegGrid *g)
{
  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(model->da, &g->dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(model->da, &g->s[0], &g->s[1], &g->s[2], &g->n[0], &g->n[1], &g->n[2]));
  PetscCall(DMDAGetGhostCorners(model->da, &g->gs[0], &g->gs[1], &g->gs[2], &g->gn[0], &g->gn[1], &g->gn[2]));
  g->stride[0] = 1;
  g->stride[1] = g->gn[0];
  g->stride[2] = g->gn[0] * g->gn[1];
  for (PetscInt d = 0; d < 3; d++) {
    PetscReal x0 = 0, x1 = 1;
    if (d < g->dim) {
      PetscCall(RwModelGetCoordinates(model, d, 0, &x0));
      PetscCall(RwModelGetCoordinates(model, d, 1, &x1));
    }
    g->ih2[d] = d < g->dim ? 1 / ((x1 - x0) * (x1 - x0)) : 0;
  }
  PetscCall(RwModelGetCellVolume(model, &g->vol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ghosted index of owned point number p (in the owned ordering) */
static inline PetscInt RegGhostIndex(const RegGrid *g, PetscInt p)
{
  PetscInt i = p % g->n[0], j = (p / g->n[0]) % g->n[1], k = p / (g->n[0] * g->n[1]);
  return (i + g->s[0] - g->gs[0]) + (j + g->s[1] - g->gs[1]) * g->stride[1] + (k + g->s[2] - g->gs[2]) * g->stride[2];
}

/* sum_d (D_d f)^2 at ghosted index q */
static inline PetscReal RegGrad2(const RegGrid *g, const PetscScalar *f, PetscInt q)
{
  PetscReal s = 0;
  for (PetscInt d = 0; d < g->dim; d++) {
    PetscReal df = PetscRealPart(f[q + g->stride[d]] - f[q]);
    s += df * df * g->ih2[d];
  }
  return s;
}

static PetscErrorCode RegL2(RwModel model, const RegGrid *g, PetscReal alpha, Vec f, Vec ref, RwReproSum acc, Vec grad)
{
  const PetscScalar *a, *r;
  PetscScalar       *gr;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetArrayRead(f, &a));
  PetscCall(VecGetArrayRead(ref, &r));
  PetscCall(VecGetArray(grad, &gr));
  for (PetscInt p = 0; p < n; p++) {
    PetscReal e = PetscRealPart(a[p] - r[p]);
    PetscCall(RwReproSumAdd(acc, 0, 0.5 * alpha * g->vol * e * e));
    gr[p] = alpha * g->vol * e;
  }
  PetscCall(VecRestoreArray(grad, &gr));
  PetscCall(VecRestoreArrayRead(ref, &r));
  PetscCall(VecRestoreArrayRead(f, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RegH1(RwModel model, const RegGrid *g, PetscReal alpha, Vec f, RwReproSum acc, Vec grad)
{
  Vec                floc;
  const PetscScalar *a;
  PetscScalar       *gr;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(model->da, &floc));
  PetscCall(RwModelFieldGlobalToLocal(model, f, floc));
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetArrayRead(floc, &a));
  PetscCall(VecGetArray(grad, &gr));
  for (PetscInt p = 0; p < n; p++) {
    PetscInt  q = RegGhostIndex(g, p);
    PetscReal dr = 0;
    PetscCall(RwReproSumAdd(acc, 0, 0.5 * alpha * g->vol * RegGrad2(g, a, q)));
    for (PetscInt d = 0; d < g->dim; d++) dr += g->ih2[d] * PetscRealPart(2 * a[q] - a[q + g->stride[d]] - a[q - g->stride[d]]);
    gr[p] = alpha * g->vol * dr;
  }
  PetscCall(VecRestoreArray(grad, &gr));
  PetscCall(VecRestoreArrayRead(floc, &a));
  PetscCall(DMRestoreLocalVector(model->da, &floc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TV needs S at the backward neighbours: computed on owned points, then exchanged */
static PetscErrorCode RegTV(RwModel model, const RegGrid *g, PetscReal alpha, PetscReal eps, Vec f, RwReproSum acc, Vec grad)
{
  Vec                floc, S, Sloc;
  const PetscScalar *a, *sl;
  PetscScalar       *gr, *sg;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(model->da, &floc));
  PetscCall(DMGetLocalVector(model->da, &Sloc));
  PetscCall(DMGetGlobalVector(model->da, &S));
  PetscCall(RwModelFieldGlobalToLocal(model, f, floc));
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetArrayRead(floc, &a));
  PetscCall(VecGetArray(S, &sg));
  for (PetscInt p = 0; p < n; p++) {
    sg[p] = PetscSqrtReal(RegGrad2(g, a, RegGhostIndex(g, p)) + eps * eps);
    PetscCall(RwReproSumAdd(acc, 0, alpha * g->vol * PetscRealPart(sg[p])));
  }
  PetscCall(VecRestoreArray(S, &sg));
  PetscCall(RwModelFieldGlobalToLocal(model, S, Sloc));
  PetscCall(VecGetArrayRead(Sloc, &sl));
  PetscCall(VecGetArray(grad, &gr));
  for (PetscInt p = 0; p < n; p++) {
    PetscInt  q = RegGhostIndex(g, p);
    PetscReal dr = 0;
    for (PetscInt d = 0; d < g->dim; d++) {
      PetscInt e = g->stride[d];
      dr += g->ih2[d] * (PetscRealPart(a[q] - a[q + e]) / PetscRealPart(sl[q]) + PetscRealPart(a[q] - a[q - e]) / PetscRealPart(sl[q - e]));
    }
    gr[p] = alpha * g->vol * dr;
  }
  PetscCall(VecRestoreArray(grad, &gr));
  PetscCall(VecRestoreArrayRead(Sloc, &sl));
  PetscCall(VecRestoreArrayRead(floc, &a));
  PetscCall(DMRestoreGlobalVector(model->da, &S));
  PetscCall(DMRestoreLocalVector(model->da, &Sloc));
  PetscCall(DMRestoreLocalVector(model->da, &floc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwRegularize - the value and gradient of a regulariser of a field on the model's grid

  Collective

  Input Parameters:
+ model - the model whose grid the field lives on
. type  - RW_REG_NONE, RW_REG_L2, RW_REG_H1 or RW_REG_TV
. alpha - the weight, >= 0
. eps   - TV smoothing, > 0 (ignored otherwise)
. f     - the field
- ref   - the reference field of l2 (may be NULL otherwise)

  Output Parameters:
+ R    - the value, the same on any number of ranks
- grad - dR/df (overwritten)

  Level: intermediate

.seealso: RwObjectiveCreate()
@*/
PetscErrorCode RwRegularize(RwModel model, RwRegType type, PetscReal alpha, PetscReal eps, Vec f, Vec ref, PetscReal *R, Vec grad)
{
  RegGrid    g;
  RwReproSum acc;

  PetscFunctionBegin;
  PetscCheck(alpha >= 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "Regularisation weight -rw_reg_alpha %g must be >= 0", (double)alpha);
  PetscCheck(type != RW_REG_TV || eps > 0, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "TV smoothing -rw_reg_tv_eps %g must be > 0", (double)eps);
  PetscCheck(type != RW_REG_L2 || ref, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_NULL, "The l2 regulariser needs a reference field");
  PetscCall(RegGridGet(model, &g));
  PetscCall(RwReproSumCreate(1, &acc));
  switch (type) {
  case RW_REG_NONE: PetscCall(VecSet(grad, 0)); break;
  case RW_REG_L2: PetscCall(RegL2(model, &g, alpha, f, ref, acc, grad)); break;
  case RW_REG_H1: PetscCall(RegH1(model, &g, alpha, f, acc, grad)); break;
  case RW_REG_TV: PetscCall(RegTV(model, &g, alpha, eps, f, acc, grad)); break;
  }
  PetscCall(RwReproSumAllreduce(acc, PetscObjectComm((PetscObject)model), R));
  PetscCall(RwReproSumDestroy(&acc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
