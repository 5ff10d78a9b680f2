/*
  rewind-fwi's files: the observations of the embedded problem (HDF5, SEG-Y
  shot gathers, and its true and starting models in both forms), and
  the results (HDF5 + XDMF fields, history, survey, every shot's gather).
*/
#include "fwi.h"
#include <petscviewerhdf5.h>
#include <rewind/hdf5.h>

/* name without its extension, for the SEG-Y files beside an HDF5 file */
static PetscErrorCode Stem(const char file[], char stem[], size_t len)
{
  char *dot;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(stem, file, len));
  if ((dot = strrchr(stem, '.')) && !strchr(dot, '/')) *dot = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  FwiWriteObservations - -rw_obs_write obs.h5: the survey in rewind's
  schema with the models c_true and c_start beside it, and obs-shot<i>.sgy
  and obs-true.sgy, obs-start.sgy; the models carry their first point's
  coordinates, so that a run on these files finds the origin
*/
PetscErrorCode FwiWriteObservations(Fwi *f)
{
  const PetscInt dim = f->dim;
  char           stem[PETSC_MAX_PATH_LEN], sgy[PETSC_MAX_PATH_LEN + 32];
  FwiSurvey     *sv = &f->sv;
  PetscReal      ot[3], os[3]; /* the models' first points */

  PetscFunctionBegin;
  PetscCall(FwiFirstPoint(f, &f->vtrue, ot));
  PetscCall(FwiFirstPoint(f, &f->vstart, os));
  PetscCall(RwWaveObsWrite(PETSC_COMM_WORLD, f->obswrite, sv->nshots, dim, sv->dt, sv->src, sv->nrec, sv->rec, sv->nt, sv->data));
  if (f->hastrue) PetscCall(RwWaveObsWriteModel(PETSC_COMM_WORLD, f->obswrite, "c_true", dim, f->vtrue.shape, f->h, f->vtrue.c, ot));
  PetscCall(RwWaveObsWriteModel(PETSC_COMM_WORLD, f->obswrite, "c_start", dim, f->vstart.shape, f->h, f->vstart.c, os));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote the observations to %s (with the models c_true, c_start)\n", f->obswrite));
  PetscCall(Stem(f->obswrite, stem, sizeof(stem)));
  for (PetscInt s = 0; s < sv->nshots; s++) {
    PetscCall(PetscSNPrintf(sgy, sizeof(sgy), "%s-shot%" PetscInt_FMT ".sgy", stem, s));
    PetscCall(RwWaveSegyWrite(PETSC_COMM_WORLD, sgy, dim, sv->dt, sv->src + dim * s, sv->nrec[s], sv->rec + dim * sv->off[s], sv->nt, sv->data + sv->off[s] * sv->nt));
  }
  PetscCall(PetscSNPrintf(sgy, sizeof(sgy), "%s-start.sgy", stem));
  PetscCall(RwWaveSegyWriteModel(PETSC_COMM_WORLD, sgy, dim, f->h, os, f->vstart.shape, f->vstart.c));
  if (f->hastrue) {
    PetscCall(PetscSNPrintf(sgy, sizeof(sgy), "%s-true.sgy", stem));
    PetscCall(RwWaveSegyWriteModel(PETSC_COMM_WORLD, sgy, dim, f->h, ot, f->vtrue.shape, f->vtrue.c));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote SEG-Y shot gathers %s-shot0.sgy .. %s-shot%" PetscInt_FMT ".sgy and the models %s-start.sgy%s\n", stem, stem, sv->nshots - 1, stem, f->hastrue ? ", -true.sgy" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x, in m, to c = 1/sqrt(m) */
static PetscErrorCode ToVelocity(Vec m, Vec c)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(m, c));
  PetscCall(VecSqrtAbs(c));
  PetscCall(VecReciprocal(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The survey (sources, shot 0's receivers) for the pictures, by rank 0 */
static PetscErrorCode WriteSurvey(Fwi *f, const char h5[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    hid_t   file;
    hsize_t ds[2] = {(hsize_t)f->sv.nshots, (hsize_t)f->dim}, dr[2] = {(hsize_t)f->sv.nrec[0], (hsize_t)f->dim};

    RwCallHDF5Return(file, H5Fopen, (h5, H5F_ACC_RDWR, H5P_DEFAULT));
    PetscCall(RwH5WriteArray(file, "sources", 2, ds, f->sv.src));
    PetscCall(RwH5WriteArray(file, "receivers_shot0", 2, dr, f->sv.rec));
    RwCallHDF5(H5Fclose, (file));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Every shot's gather, on rank 0: /shot<i>/observed and /shot<i>/predicted
  (by the recovered model) [nt, nrec], /shot<i>/receivers [nrec, dim],
  /shot<i>/source [dim]; attributes shots, dim, dt
*/
static PetscErrorCode WriteGather0(Fwi *f, const char gather[], const PetscReal *pred)
{
  const FwiSurvey *sv = &f->sv;
  hid_t            file, g, space, a;
  int              ns = (int)sv->nshots, nd = (int)f->dim;

  PetscFunctionBegin;
  RwCallHDF5Return(file, H5Fcreate, (gather, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5Return(space, H5Screate, (H5S_SCALAR));
  RwCallHDF5Return(a, H5Acreate2, (file, "shots", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5(H5Awrite, (a, H5T_NATIVE_INT, &ns));
  RwCallHDF5(H5Aclose, (a));
  RwCallHDF5Return(a, H5Acreate2, (file, "dim", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5(H5Awrite, (a, H5T_NATIVE_INT, &nd));
  RwCallHDF5(H5Aclose, (a));
  RwCallHDF5Return(a, H5Acreate2, (file, "dt", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT));
  RwCallHDF5(H5Awrite, (a, H5T_NATIVE_DOUBLE, &sv->dt));
  RwCallHDF5(H5Aclose, (a));
  RwCallHDF5(H5Sclose, (space));
  for (PetscInt s = 0; s < sv->nshots; s++) {
    char    name[32];
    hsize_t d1[1] = {(hsize_t)f->dim}, d2[2] = {(hsize_t)sv->nrec[s], (hsize_t)f->dim}, d3[2] = {(hsize_t)sv->nt, (hsize_t)sv->nrec[s]};

    PetscCall(PetscSNPrintf(name, sizeof(name), "shot%" PetscInt_FMT, s));
    RwCallHDF5Return(g, H5Gcreate2, (file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    PetscCall(RwH5WriteArray(g, "observed", 2, d3, sv->data + sv->off[s] * sv->nt));
    PetscCall(RwH5WriteArray(g, "predicted", 2, d3, pred + sv->off[s] * sv->nt));
    PetscCall(RwH5WriteArray(g, "receivers", 2, d2, sv->rec + sv->off[s] * f->dim));
    PetscCall(RwH5WriteArray(g, "source", 1, d1, sv->src + s * f->dim));
    RwCallHDF5(H5Gclose, (g));
  }
  RwCallHDF5(H5Fclose, (file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The gathers: every shot observed (full band) and predicted by the recovered model, and their units */
static PetscErrorCode WriteGather(Fwi *f, const char gather[])
{
  PetscReal      *pred;
  Vec             m, fm;
  RwModel         gmodel;
  PetscMPIInt     rank;
  RwIODatasetInfo *info;
  char            (*path)[40];
  PetscInt        n = 0;

  PetscFunctionBegin;
  PetscCall(RwProblemGetMemberSolver(f->prob, &gmodel, NULL, NULL));
  PetscCall(RwModelCreateParameters(f->model, &m));
  PetscCall(RwModelGetParameterField(f->model, m, 0, &fm));
  PetscCall(VecCopy(f->x, fm));
  PetscCall(RwModelRestoreParameterField(f->model, m, 0, &fm));
  PetscCall(PetscMalloc1(f->sv.ntotal * f->sv.nt, &pred));
  PetscCall(RwModelWaveSetWavelet(gmodel, 0, NULL));
  PetscCall(FwiRecordAll(f, m, pred));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(WriteGather0(f, gather, pred));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscFree(pred));
  PetscCall(VecDestroy(&m));
  PetscCall(PetscMalloc2(4 * f->sv.nshots, &info, 4 * f->sv.nshots, &path));
  for (PetscInt s = 0; s < f->sv.nshots; s++) {
    const char *what[4] = {"observed", "predicted", "receivers", "source"};
    const char *units[4] = {"source units", "source units", "m", "m"};
    const char *lname[4] = {"observed pressure at the receivers, [time step, receiver]", "pressure at the receivers predicted by the recovered model, [time step, receiver]", "receiver coordinates, a row a receiver (x first, depth last)", "source coordinates (x first, depth last)"};

    for (PetscInt k = 0; k < 4; k++, n++) {
      PetscCall(PetscSNPrintf(path[n], sizeof(path[n]), "shot%" PetscInt_FMT "/%s", s, what[k]));
      info[n] = (RwIODatasetInfo){path[n], units[k], lname[k]};
    }
  }
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, gather, n, info));
  PetscCall(PetscFree2(info, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every dataset of prefix.h5 holds, in the wave model's units (m, ms, km/s) */
static PetscErrorCode WriteUnits(const char h5[])
{
  const RwIODatasetInfo info[] = {
    {"c_true",          "km/s",                        "true velocity (that made the data)"                                     },
    {"c_start",         "km/s",                        "starting velocity"                                                      },
    {"c_recovered",     "km/s",                        "recovered velocity"                                                     },
    {"gradient_first",  "(source units)^2/(s^2/km^2)", "gradient dJ/dm of the first evaluation, m = 1/c^2 the squared slowness"},
    {"sources",         "m",                           "source coordinates, a row a shot (x first, depth last)"                },
    {"receivers_shot0", "m",                           "shot 0's receiver coordinates, a row a receiver (x first, depth last)" }
  };

  PetscFunctionBegin;
  PetscCall(RwIOWriteDatasetInfo(PETSC_COMM_WORLD, h5, (PetscInt)PETSC_STATIC_ARRAY_LENGTH(info), info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FwiWriteOutputs - prefix.h5 / prefix.xmf (fields, grid metadata, history, survey) and prefix-gather.h5 */
PetscErrorCode FwiWriteOutputs(Fwi *f)
{
  char        h5[PETSC_MAX_PATH_LEN], xmf[PETSC_MAX_PATH_LEN], gather[PETSC_MAX_PATH_LEN];
  const char *all[4] = {"c_true", "c_start", "c_recovered", "gradient_first"}, *names[4], *base;
  PetscInt     nf = 0;
  PetscViewer  v;
  Vec          c, G0;
  RwOutputFile out;
  const char  *path;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(h5, sizeof(h5), "%s.h5", f->output));
  PetscCall(PetscSNPrintf(xmf, sizeof(xmf), "%s.xmf", f->output));
  PetscCall(PetscSNPrintf(gather, sizeof(gather), "%s-gather.h5", f->output));
  PetscCall(VecDuplicate(f->x, &c));
  /* written whole under a temporary name: a failure leaves no partial file and a kept one as it was */
  PetscCall(RwOutputFileBegin(PETSC_COMM_WORLD, h5, PETSC_FALSE, "-rw_output file", &out, &path));
  PetscCall(PetscViewerHDF5Open(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &v));
  PetscCall(RwIOWriteMetadata(f->model, v));
  if (f->hastrue) PetscCall(RwIOWriteField(f->model, v, names[nf++] = all[0], f->ctrue));
  PetscCall(RwIOWriteField(f->model, v, names[nf++] = all[1], f->cstart));
  PetscCall(ToVelocity(f->x, c));
  PetscCall(RwIOWriteField(f->model, v, names[nf++] = all[2], c));
  PetscCall(RwProblemGetFirstEvaluation(f->prob, NULL, &G0));
  PetscCall(RwIOWriteField(f->model, v, names[nf++] = all[3], G0 ? G0 : f->G));
  PetscCall(PetscViewerHDF5WriteAttribute(v, "/", "nbl", PETSC_INT, &f->nbl));
  PetscCall(RwProblemHistoryView(f->prob, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(WriteSurvey(f, path));
  PetscCall(WriteUnits(path));
  PetscCall(RwOutputFileEnd(&out));
  base = strrchr(h5, '/') ? strrchr(h5, '/') + 1 : h5;
  PetscCall(RwIOWriteXDMF(f->model, xmf, base, nf, names));
  PetscCall(RwOutputFileBegin(PETSC_COMM_WORLD, gather, PETSC_FALSE, "-rw_output gather file", &out, &path));
  PetscCall(WriteGather(f, path));
  PetscCall(RwOutputFileEnd(&out));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s, %s (%sc_start, c_recovered, gradient_first, history, sources, receivers_shot0) and %s (shot<i>/observed and shot<i>/predicted: every shot's gather, observed and predicted by the recovered model)\n", h5, xmf, f->hastrue ? "c_true, " : "", gather));
  PetscCall(VecDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
