/*
  rewind-fwi's inputs from files: the observations (rewind's HDF5 schema, or
  SEG-Y shot gathers: a list of files or a pattern with %d) and velocity
  models (an HDF5 dataset, or a SEG-Y depth section).  Every check names the
  file, the item and what was expected.
*/
#include "fwi.h"

static PetscBool IsSegy(const char file[])
{
  size_t n = strlen(file);
  return (PetscBool)((n > 4 && !strcmp(file + n - 4, ".sgy")) || (n > 5 && !strcmp(file + n - 5, ".segy")));
}

/* The SEG-Y files of -rw_fwi_obs: as listed, or a pattern's files for shots 0, 1, ... while they exist */
static PetscErrorCode SegyFiles(Fwi *f, PetscInt *n, char ***files)
{
  PetscFunctionBegin;
  if (f->nobs == 1 && strstr(f->obs[0], "%d")) {
    PetscInt max = f->shotsset ? f->nshots : FWI_MAX_FILES;

    PetscCall(PetscMalloc1(max, files));
    for (*n = 0; *n < max; (*n)++) {
      char      name[PETSC_MAX_PATH_LEN];
      PetscBool exists;

      PetscCall(PetscSNPrintf(name, sizeof(name), f->obs[0], (int)*n));
      PetscCall(PetscTestFile(name, 'r', &exists));
      PetscCheck(exists || !f->shotsset, PETSC_COMM_WORLD, PETSC_ERR_FILE_OPEN, "-rw_fwi_obs %s: no file %s for shot %" PetscInt_FMT ": -rw_fwi_shots %" PetscInt_FMT " expects shots 0 to %" PetscInt_FMT, f->obs[0], name, *n, f->nshots, f->nshots - 1);
      if (!exists) break;
      PetscCall(PetscStrallocpy(name, &(*files)[*n]));
    }
    PetscCheck(*n > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_OPEN, "-rw_fwi_obs %s: no file for shot 0", f->obs[0]);
  } else {
    PetscCall(PetscMalloc1(f->nobs, files));
    for (*n = 0; *n < f->nobs; (*n)++) {
      PetscCheck(IsSegy(f->obs[*n]), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rw_fwi_obs: %s is not a SEG-Y file (.sgy, .segy); several files are SEG-Y shot gathers, one a shot", f->obs[*n]);
      PetscCall(PetscStrallocpy(f->obs[*n], &(*files)[*n]));
    }
  }
  PetscCheck(!f->shotsset || *n == f->nshots, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "-rw_fwi_obs gives %" PetscInt_FMT " SEG-Y shot gathers; -rw_fwi_shots %" PetscInt_FMT " expected that many", *n, f->nshots);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Packs shots read one by one (src, nrec, rec, data per shot) into the survey, freeing them */
static PetscErrorCode Pack(Fwi *f, PetscInt dim, PetscInt ns, PetscInt nt, PetscReal dt, PetscReal **src, PetscInt *nrec, PetscReal **rec, PetscReal **data)
{
  PetscFunctionBegin;
  PetscCall(FwiSurveyAllocate(&f->sv, dim, ns, nrec, nt));
  f->sv.dt = dt;
  for (PetscInt s = 0; s < ns; s++) {
    PetscCall(PetscArraycpy(f->sv.src + s * dim, src[s], dim));
    PetscCall(PetscArraycpy(f->sv.rec + f->sv.off[s] * dim, rec[s], nrec[s] * dim));
    PetscCall(PetscArraycpy(f->sv.data + f->sv.off[s] * nt, data[s], nrec[s] * nt));
    PetscCall(PetscFree(src[s]));
    PetscCall(PetscFree(rec[s]));
    PetscCall(PetscFree(data[s]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every shot's record length is the one most shots have: a shot cut short
   or damaged is named as such, whichever shot it is */
static PetscErrorCode RecordLength(const char file[], PetscInt64 ns, PetscInt *nt)
{
  const PetscInt64 any[2] = {-1, -1};
  PetscInt64      *len, dims[2], best = 0, most = 0, odd, oddlen;
  char             name[64];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ns, &len));
  for (PetscInt64 s = 0; s < ns; s++) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "/shot%" PetscInt64_FMT "/data", s));
    PetscCall(RwIOCheckDataset(PETSC_COMM_WORLD, file, name, 2, any, dims));
    len[s] = dims[0];
  }
  for (PetscInt64 s = 0; s < ns; s++) {
    PetscInt64 c = 0;
    for (PetscInt64 t = 0; t < ns; t++) c += len[t] == len[s];
    if (c > most) most = c, best = len[s];
  }
  for (odd = 0; odd < ns && len[odd] == best; odd++) {}
  oddlen = odd < ns ? len[odd] : best;
  PetscCall(PetscFree(len));
  PetscCheck(odd == ns, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: /shot%" PetscInt64_FMT "/data has %" PetscInt64_FMT " samples a trace, %" PetscInt64_FMT " of the %" PetscInt64_FMT " shots have %" PetscInt64_FMT ": every shot needs the same record length (is shot %" PetscInt64_FMT " cut short or damaged?)", file, odd, oddlen, most, ns, best, odd);
  *nt = (PetscInt)best;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* HDF5: the shot count, the dimension and dt from the root's attributes; every shot the record length most have */
static PetscErrorCode ReadSurveyHDF5(Fwi *f, const char file[])
{
  PetscInt64 ns, dim;
  PetscReal  dt, **src, **rec, **data;
  PetscInt  *nrec, nt = -1;
  PetscBool  found;

  PetscFunctionBegin;
  PetscCall(RwIOReadAttributeInt(PETSC_COMM_WORLD, file, "/", "nshots", 1, PETSC_MAX_INT, &ns, &found));
  PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no attribute nshots on / (expected rewind's wave schema, doc/wave.md)", file);
  PetscCheck(!f->shotsset || ns == f->nshots, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s hold %" PetscInt64_FMT " shots (attribute nshots); -rw_fwi_shots %" PetscInt_FMT " expected that many", file, ns, f->nshots);
  PetscCall(RwIOReadAttributeInt(PETSC_COMM_WORLD, file, "/", "dim", 2, 3, &dim, &found));
  PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no attribute dim on / (expected 2 or 3)", file);
  PetscCheck(!f->dim || dim == f->dim, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s are %" PetscInt64_FMT "D (attribute dim); -rw_fwi_dim %" PetscInt_FMT " expected %" PetscInt_FMT "D", file, dim, f->dim, f->dim);
  f->dim = (PetscInt)dim;
  PetscCall(RwIOReadAttribute(PETSC_COMM_WORLD, file, "/", "dt", &dt, &found));
  PetscCheck(found && dt > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: no positive attribute dt on / (the sample interval)", file);
  PetscCall(PetscMalloc4(ns, &src, ns, &rec, ns, &data, ns, &nrec));
  PetscCall(RecordLength(file, ns, &nt));
  for (PetscInt s = 0; s < ns; s++) PetscCall(RwWaveObsRead(PETSC_COMM_WORLD, file, s, f->dim, (PetscInt)ns, -1, nt, f->dtset ? f->sv.dt : 0, &src[s], &nrec[s], &rec[s], &data[s]));
  PetscCheck(nt >= 2, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "Observations %s: /shot0/data has %" PetscInt_FMT " samples a trace: expected at least 2", file, nt);
  PetscCall(Pack(f, f->dim, (PetscInt)ns, nt, dt, src, nrec, rec, data));
  PetscCall(PetscFree4(src, rec, data, nrec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The dimension of SEG-Y gathers, unless -rw_fwi_dim gave it: 3D when their
   sources' and receivers' y (SourceY, GroupY) differ, else a 2D line's
   (a 3D survey on one line needs -rw_fwi_dim 3); says which */
static PetscErrorCode SegyDimension(Fwi *f, PetscInt ns, char **files)
{
  PetscReal y[2] = {PETSC_MAX_REAL, PETSC_MIN_REAL};

  PetscFunctionBegin;
  if (f->dim) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt s = 0; s < ns; s++) {
    PetscReal ys[2];

    PetscCall(RwWaveSegyReadSpanY(PETSC_COMM_WORLD, files[s], ys));
    y[0] = PetscMin(y[0], ys[0]), y[1] = PetscMax(y[1], ys[1]);
  }
  f->dim = y[1] - y[0] > RW_WAVE_SEGY_SAME ? 3 : 2;
  if (f->dim > 2) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rewind-fwi: 3D, as the SEG-Y gathers' SourceY and GroupY span %g to %g m (-rw_fwi_dim sets it)\n", (double)y[0], (double)y[1]));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rewind-fwi: 2D, as every SourceY and GroupY of the SEG-Y gathers is %g m (-rw_fwi_dim 3 for a 3D survey on one line)\n", (double)y[0]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SEG-Y: the dimension from -rw_fwi_dim or the gathers' y; dt from -rw_dt or the first file, which every file must share, as its number of samples */
static PetscErrorCode ReadSurveySegy(Fwi *f)
{
  char      **files;
  PetscInt    ns, *nrec, nt = -1;
  PetscReal   dt = f->sv.dt, **src, **rec, **data;

  PetscFunctionBegin;
  PetscCall(SegyFiles(f, &ns, &files));
  PetscCall(SegyDimension(f, ns, files));
  PetscCall(RwWaveSegyReadBinaryHeader(PETSC_COMM_WORLD, files[0], f->dtset ? NULL : &dt, &nt));
  PetscCall(PetscMalloc4(ns, &src, ns, &rec, ns, &data, ns, &nrec));
  for (PetscInt s = 0; s < ns; s++) PetscCall(RwWaveSegyRead(PETSC_COMM_WORLD, files[s], f->dim, dt, nt, &src[s], &nrec[s], &rec[s], &data[s]));
  PetscCall(Pack(f, f->dim, ns, nt, dt, src, nrec, rec, data));
  PetscCall(PetscFree4(src, rec, data, nrec));
  for (PetscInt s = 0; s < ns; s++) PetscCall(PetscFree(files[s]));
  PetscCall(PetscFree(files));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiReadSurvey - the survey of -rw_fwi_obs: one HDF5 file of rewind's
  schema, or SEG-Y shot gathers (several files, or one pattern with %d)
*/
PetscErrorCode FwiReadSurvey(Fwi *f)
{
  PetscFunctionBegin;
  if (f->nobs == 1 && !IsSegy(f->obs[0]) && !strstr(f->obs[0], "%d")) PetscCall(ReadSurveyHDF5(f, f->obs[0]));
  else PetscCall(ReadSurveySegy(f));
  f->nshots = f->sv.nshots;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every velocity positive and finite, named by the file and the point */
static PetscErrorCode CheckVelocity(const char opt[], const char spec[], const FwiVelocity *v)
{
  const PetscInt total = v->shape[0] * v->shape[1] * v->shape[2];

  PetscFunctionBegin;
  for (PetscInt q = 0; q < total; q++)
    PetscCheck(v->c[q] > 0 && !PetscIsInfOrNanReal(v->c[q]), PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: c = %g at point (%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") (x fastest, depth last): expected a positive, finite velocity (km/s) everywhere", opt, spec, (double)v->c[q], q % v->shape[0], (q / v->shape[0]) % v->shape[1], q / (v->shape[0] * v->shape[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model's shape against the grid: the grid's physical region or the whole grid; the first model read fixes an unset grid */
static PetscErrorCode CheckShape(Fwi *f, const char opt[], const char spec[], const PetscInt shape[3])
{
  const PetscInt dim = f->dim, w = 2 * f->nbl;
  PetscBool      phys = PETSC_TRUE, whole = PETSC_TRUE;

  PetscFunctionBegin;
  if (!f->gridset) {
    for (PetscInt d = 0; d < dim; d++) f->n[d] = shape[d];
    f->gridset = PETSC_TRUE;
  }
  for (PetscInt d = 0; d < dim; d++) {
    phys  = (PetscBool)(phys && shape[d] == f->n[d]);
    whole = (PetscBool)(whole && shape[d] == f->n[d] + w);
  }
  PetscCheck(phys || whole, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: a model of %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " points (x fastest); the grid has %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " physical points (-rw_fwi_grid, or the starting model), %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " with the absorbing layers: expected one of these", opt, spec, shape[0], shape[1], dim > 2 ? shape[2] : 1, f->n[0], f->n[1], dim > 2 ? f->n[2] : 1, f->n[0] + w, f->n[1] + w, dim > 2 ? f->n[2] + w : 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The spacing a file gives, against -rw_fwi_spacing or the starting model's */
static PetscErrorCode CheckSpacing(Fwi *f, const char opt[], const char spec[], PetscReal h)
{
  PetscFunctionBegin;
  PetscCheck(h > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: spacing %g m: expected a positive spacing", opt, spec, (double)h);
  if (!f->spacingset) {
    f->h          = h;
    f->spacingset = PETSC_TRUE;
  }
  PetscCheck(PetscAbsReal(h - f->h) <= 1e-9 * f->h, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: spacing %g m; the grid's is %g m (-rw_fwi_spacing, or the starting model): expected the same", opt, spec, (double)h, (double)f->h);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A model of the whole grid (absorbing layers included), not of the physical region */
static PetscBool IsWhole(Fwi *f, const FwiVelocity *v)
{
  return (PetscBool)(f->nbl > 0 && v->shape[0] == f->n[0] + 2 * f->nbl);
}

/* FwiFirstPoint - the coordinates of a model's first point: the physical region's, or nbl points before on the whole grid */
PetscErrorCode FwiFirstPoint(Fwi *f, const FwiVelocity *v, PetscReal o[3])
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) o[d] = f->origin[d] - (IsWhole(f, v) ? f->nbl * f->h : 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiSetOrigin - the physical region's first point o (dim values) from
  "from" (-rw_fwi_origin or a model file): the first sets it (every model
  of the app gets it, FwiModelDefaults()), the others must agree within
  tol m (SEG-Y: centimetres) or stop naming both
*/
PetscErrorCode FwiSetOrigin(Fwi *f, const char from[], const PetscReal o[], PetscReal tol)
{
  const PetscInt dim = f->dim;
  char           v[128], w[128];

  PetscFunctionBegin;
  if (!f->originset) {
    for (PetscInt d = 0; d < dim; d++) f->origin[d] = o[d];
    PetscCall(PetscStrncpy(f->originfrom, from, sizeof(f->originfrom)));
    f->originset = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(w, sizeof(w), dim > 2 ? "%g, %g, %g" : "%g, %g", (double)f->origin[0], (double)f->origin[1], (double)f->origin[2]));
  PetscCall(PetscSNPrintf(v, sizeof(v), dim > 2 ? "%g, %g, %g" : "%g, %g", (double)o[0], (double)o[1], (double)(dim > 2 ? o[2] : 0)));
  for (PetscInt d = 0; d < dim; d++) PetscCheck(PetscAbsReal(o[d] - f->origin[d]) <= tol + 1e-9 * (1 + PetscAbsReal(o[d])), PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s puts the physical region's first point at (%s) m; %s at (%s) m: expected the same origin", from, v, f->originfrom, w);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The origin a model file gives (of its first point), once its shape is known: the physical region's against the run's */
static PetscErrorCode ModelOrigin(Fwi *f, const char opt[], const char spec[], const FwiVelocity *v, const PetscReal first[], PetscReal tol)
{
  char      from[PETSC_MAX_PATH_LEN + 32];
  PetscReal o[3];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < f->dim; d++) o[d] = first[d] + (IsWhole(f, v) ? f->nbl * f->h : 0);
  PetscCall(PetscSNPrintf(from, sizeof(from), "%s %s", opt, spec));
  PetscCall(FwiSetOrigin(f, from, o, tol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A SEG-Y depth section: a trace per column, the vertical spacing from the
   sample interval; the columns' layout, spacing and origin from the
   traces' GroupX (and GroupY), in any order, or else (no coordinates, or
   none that lay out a grid) the file's order, x fastest, with in 3D the
   grid's columns along x, and the origin from the first trace */
static PetscErrorCode ReadVelocitySegy(Fwi *f, const char opt[], const char spec[], FwiVelocity *v)
{
  PetscInt  ncol, ns, laid;
  PetscReal h[3], first[3];
  PetscBool hasorigin;

  PetscFunctionBegin;
  PetscCall(RwWaveSegyReadModel(PETSC_COMM_WORLD, spec, f->dim, &ncol, &laid, &ns, h, first, &hasorigin, &v->c));
  v->shape[0] = ncol, v->shape[1] = ns, v->shape[2] = 1;
  if (f->dim > 2 && laid > 0) v->shape[0] = laid, v->shape[1] = ncol / laid, v->shape[2] = ns; /* CheckShape holds it against the grid */
  else if (f->dim > 2) {
    PetscInt nx = -1;

    PetscCheck(f->gridset, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s %s: the GroupX and GroupY of its %" PetscInt_FMT " traces do not lay out a grid (one trace at each crossing of their distinct x and y): give -rw_fwi_grid nx,ny,nz to lay the columns out in the file's order, x fastest", opt, spec, ncol);
    if (ncol == f->n[0] * f->n[1]) nx = f->n[0];
    if (ncol == (f->n[0] + 2 * f->nbl) * (f->n[1] + 2 * f->nbl)) nx = f->n[0] + 2 * f->nbl;
    PetscCheck(nx > 0, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: %" PetscInt_FMT " traces; the grid has %" PetscInt_FMT " x %" PetscInt_FMT " physical columns, %" PetscInt_FMT " x %" PetscInt_FMT " with the absorbing layers: expected one trace per column", opt, spec, ncol, f->n[0], f->n[1], f->n[0] + 2 * f->nbl, f->n[1] + 2 * f->nbl);
    v->shape[0] = nx, v->shape[1] = ncol / nx, v->shape[2] = ns;
  }
  PetscCall(CheckVelocity(opt, spec, v));
  PetscCall(CheckSpacing(f, opt, spec, h[f->dim - 1]));
  for (PetscInt d = 0; d < f->dim - 1; d++) /* the columns' spacing, to the headers' centimetres over the whole model */
    PetscCheck(h[d] == 0 || PetscAbsReal(h[d] - f->h) * (v->shape[d] - 1) <= RW_WAVE_SEGY_EVEN, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: its columns are %g m apart along %c (Group%c); the grid's spacing is %g m (the sample interval, -rw_fwi_spacing or the starting model): expected the same", opt, spec, (double)h[d], "xy"[d], "XY"[d], (double)f->h);
  PetscCall(CheckShape(f, opt, spec, v->shape));
  if (hasorigin) PetscCall(ModelOrigin(f, opt, spec, v, first, 0.005));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An HDF5 model's origin: attributes origin_x, origin_y[, origin_z] (RwIOWriteMetadata()'s names) on the dataset, or else on the root */
static PetscErrorCode ReadOriginHDF5(Fwi *f, const char opt[], const char spec[], const char file[], const char dataset[], PetscReal first[], PetscBool *found)
{
  PetscFunctionBegin;
  *found = PETSC_FALSE;
  for (PetscInt w = 0; w < 2 && !*found; w++) {
    const char *at = w ? "/" : dataset;
    PetscInt    nfound = 0;

    for (PetscInt d = 0; d < f->dim; d++) {
      char      name[16];
      PetscBool has;

      PetscCall(PetscSNPrintf(name, sizeof(name), "origin_%c", "xyz"[d]));
      PetscCall(RwIOReadAttribute(PETSC_COMM_WORLD, file, at, name, &first[d], &has));
      nfound += has;
    }
    PetscCheck(nfound == 0 || nfound == f->dim, PETSC_COMM_WORLD, PETSC_ERR_FILE_UNEXPECTED, "%s %s: %" PetscInt_FMT " of the attributes origin_x, origin_y%s on %s: expected all or none", opt, spec, nfound, f->dim > 2 ? ", origin_z" : "", at);
    *found = (PetscBool)(nfound > 0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiReadVelocity - a velocity model of option opt: file.h5:dataset (the
  physical region or the whole grid, C order with x last; an optional real
  attribute "spacing" and the origin of its first point, origin_x, ..., on
  the dataset or the root) or a SEG-Y depth section
*/
PetscErrorCode FwiReadVelocity(Fwi *f, const char opt[], const char spec[], FwiVelocity *v)
{
  char       file[PETSC_MAX_PATH_LEN], *colon;
  PetscInt64 dims[3] = {1, 1, 1}, any[3] = {-1, -1, -1};
  PetscReal  h, first[3];
  PetscBool  found;

  PetscFunctionBegin;
  if (IsSegy(spec)) {
    PetscCall(ReadVelocitySegy(f, opt, spec, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(file, spec, sizeof(file)));
  colon = strrchr(file, ':');
  PetscCheck(colon && colon[1], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s %s: expected file.h5:dataset or a SEG-Y file (.sgy)", opt, spec);
  *colon = 0;
  PetscCall(RwIOReadArray(PETSC_COMM_WORLD, file, colon + 1, f->dim, any, dims, &v->c));
  v->shape[0] = v->shape[1] = v->shape[2] = 1;
  for (PetscInt d = 0; d < f->dim; d++) v->shape[d] = (PetscInt)dims[f->dim - 1 - d]; /* C order: x is the last dimension */
  PetscCall(CheckVelocity(opt, spec, v));
  PetscCall(RwIOReadAttribute(PETSC_COMM_WORLD, file, colon + 1, "spacing", &h, &found));
  if (found) PetscCall(CheckSpacing(f, opt, spec, h));
  PetscCall(CheckShape(f, opt, spec, v->shape));
  PetscCall(ReadOriginHDF5(f, opt, spec, file, colon + 1, first, &found));
  if (found) PetscCall(ModelOrigin(f, opt, spec, v, first, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sources and receivers inside the grid (a stop naming the file and shot), or in the absorbing layer (a warning) */
PetscErrorCode FwiCheckSurvey(Fwi *f)
{
  char what[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBegin;
  for (PetscInt s = 0; s < f->sv.nshots; s++) {
    const char *label = f->nobs > 1 ? f->obs[s] : f->nobs ? f->obs[0] : "the embedded survey";

    PetscCall(PetscSNPrintf(what, sizeof(what), "Observations %s, shot %" PetscInt_FMT ": source", label, s));
    PetscCall(RwModelWaveCheckPoints(f->model, what, 1, f->sv.src + s * f->dim));
    PetscCall(PetscSNPrintf(what, sizeof(what), "Observations %s, shot %" PetscInt_FMT ": receiver", label, s));
    PetscCall(RwModelWaveCheckPoints(f->model, what, f->sv.nrec[s], f->sv.rec + f->sv.off[s] * f->dim));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
