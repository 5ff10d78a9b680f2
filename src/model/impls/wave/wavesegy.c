/*
  SEG-Y shot gathers (one shot a file) through libsegyio, the form field
  data arrives in.  Positions (x, z) in 2D, (x, y, z) in 3D, z down:

    source x, y    SourceX (byte 73), SourceY (byte 77; 3D), scaled by SourceGroupScalar (byte 71)
    receiver x, y  GroupX (byte 81), GroupY (byte 85; 3D), the same scalar
    source z       SourceDepth (byte 49), scaled by ElevationScalar (byte 69)
    receiver z     minus ReceiverGroupElevation (byte 41), the same scalar
    dt             the binary header's Interval (byte 3217, microseconds), in ms

  A scalar s > 0 multiplies, s < 0 divides by |s|, 0 means 1 (the standard).
  Samples: 4-byte IEEE floats written, any segyio format read.  Without
  libsegyio (configure found none) these stop with how to get it.

  A velocity model is a depth section: one trace per grid column, its
  samples the column top to bottom, the sample interval the vertical
  spacing in mm (byte 3217), GroupX/GroupY the column's position and minus
  ReceiverGroupElevation its top's depth (the receiver scheme above).
  Written x fastest, then y; read in any trace order when the positions lay
  out an evenly spaced grid (the origin its first column), else in the
  file's order, x fastest (the origin the first trace's).
*/
#include <sys/stat.h>
#include "waveimpl.h"
#include "rwconfig.h"

#if defined(RW_HAVE_SEGYIO)
  #include <segyio/segy.h>

static PetscReal SegyScale(int32_t s)
{
  return s > 0 ? (PetscReal)s : s < 0 ? 1.0 / (PetscReal)(-s) : 1.0;
}

/*
  A position p (x, z or x, y, z, in m) in a trace header, in centimetres
  (both scalars -100): x, y in fields fx, fy (y in 3D only), depth in fz
  times zsign (SourceDepth is a depth, ReceiverGroupElevation a height)
*/
static int SegySetPosition(char tr[], int fx, int fy, int fz, int zsign, PetscInt dim, const PetscReal p[])
{
  int err = segy_set_field(tr, SEGY_TR_SOURCE_GROUP_SCALAR, -100);

  err = err ? err : segy_set_field(tr, SEGY_TR_ELEV_SCALAR, -100);
  err = err ? err : segy_set_field(tr, fx, (int32_t)lround(p[0] * 100));
  if (dim > 2) err = err ? err : segy_set_field(tr, fy, (int32_t)lround(p[1] * 100));
  return err ? err : segy_set_field(tr, fz, (int32_t)lround(zsign * p[dim - 1] * 100));
}

/* The position a trace header gives (SegySetPosition's fields), in m */
static void SegyGetPosition(const char tr[], int fx, int fy, int fz, int zsign, PetscInt dim, PetscReal p[])
{
  int32_t s1 = 0, s2 = 0, x = 0, y = 0, z = 0;

  segy_get_field(tr, SEGY_TR_SOURCE_GROUP_SCALAR, &s1);
  segy_get_field(tr, SEGY_TR_ELEV_SCALAR, &s2);
  segy_get_field(tr, fx, &x);
  segy_get_field(tr, fy, &y);
  segy_get_field(tr, fz, &z);
  p[0] = x * SegyScale(s1);
  if (dim > 2) p[1] = y * SegyScale(s1);
  p[dim - 1] = zsign * z * SegyScale(s2);
}

/* "(x, z)" or "(x, y, z)" */
static PetscErrorCode SegyFormatPosition(PetscInt dim, const PetscReal p[], char s[], size_t len)
{
  PetscFunctionBegin;
  if (dim > 2) PetscCall(PetscSNPrintf(s, len, "(%g, %g, %g)", (double)p[0], (double)p[1], (double)p[2]));
  else PetscCall(PetscSNPrintf(s, len, "(%g, %g)", (double)p[0], (double)p[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Creates file with its text header (padded here) and binary header, ns 4-byte
   IEEE samples a trace every interval, and a buffer of one trace's samples;
   *err is segyio's first error (the writers go on only without one) */
static PetscErrorCode SegyCreate(const char file[], char text[], int32_t interval, int ns, segy_file **fp, float **buf, int *err)
{
  char bin[SEGY_BINARY_HEADER_SIZE];

  PetscFunctionBegin;
  *fp = segy_open(file, "w+b");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create SEG-Y file %s", file);
  for (size_t i = strlen(text); i < SEGY_TEXT_HEADER_SIZE; i++) text[i] = ' ';
  memset(bin, 0, sizeof(bin));
  *err = segy_set_bfield(bin, SEGY_BIN_INTERVAL, interval);
  *err = *err ? *err : segy_set_bfield(bin, SEGY_BIN_SAMPLES, ns);
  *err = *err ? *err : segy_set_bfield(bin, SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE);
  *err = *err ? *err : segy_write_textheader(*fp, 0, text);
  *err = *err ? *err : segy_write_binheader(*fp, bin);
  PetscCall(PetscMalloc1(ns, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closes a file SegyCreate() made, and says if writing it failed */
static PetscErrorCode SegyClose(const char file[], segy_file *fp, float *buf, int err)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(buf));
  segy_close(fp);
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing SEG-Y file %s failed (segyio error %d)", file, err);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Trace t: its header tr (numbered, with its samples and interval here) and its ns samples buf (converted in place) */
static int SegyWriteTrace(segy_file *fp, int t, char tr[], float buf[], int32_t interval, int ns)
{
  const int  bsize  = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, ns);
  const long trace0 = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;
  int        err    = segy_set_field(tr, SEGY_TR_SEQ_LINE, t + 1);

  err = err ? err : segy_set_field(tr, SEGY_TR_SAMPLE_COUNT, ns);
  err = err ? err : segy_set_field(tr, SEGY_TR_SAMPLE_INTER, interval);
  err = err ? err : segy_write_traceheader(fp, t, tr, trace0, bsize);
  err = err ? err : segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, ns, buf);
  return err ? err : segy_writetrace(fp, t, buf, trace0, bsize);
}

/* A SEG-Y file open to read: its binary header's interval, samples,
   format and trace layout, and how many traces it holds (0 when its size
   is not a whole number of them) */
typedef struct {
  segy_file *fp;
  int32_t    interval;
  int        samples, format, bsize, traces;
  long       trace0;
} SegyIn;

/* Opens file to read, with its binary header; msg says what failed */
static void SegyOpenRead(const char file[], SegyIn *in, char msg[], size_t len)
{
  char bin[SEGY_BINARY_HEADER_SIZE];

  memset(in, 0, sizeof(*in));
  in->fp = segy_open(file, "rb");
  if (!in->fp) snprintf(msg, len, "Cannot open SEG-Y file %s", file);
  else if (segy_binheader(in->fp, bin) || segy_get_bfield(bin, SEGY_BIN_INTERVAL, &in->interval)) snprintf(msg, len, "SEG-Y %s: cannot read the binary header", file);
  else {
    struct stat st;

    in->samples = segy_samples(bin);
    in->format  = segy_format(bin);
    in->trace0  = segy_trace0(bin);
    /* the reader converts IBM and IEEE floats: integer samples would be read as floats' bits */
    if (in->format != SEGY_IBM_FLOAT_4_BYTE && in->format != SEGY_IEEE_FLOAT_4_BYTE) snprintf(msg, len, "SEG-Y %s: sample format code %d (binary header byte 3225) is not one rewind reads: expected 1 (IBM float) or 5 (IEEE float)", file, in->format);
    else if (in->samples < 1) snprintf(msg, len, "SEG-Y %s: %d samples a trace in the binary header (byte 3221): expected at least 1", file, in->samples);
    else if (segy_traces(in->fp, &in->traces, in->trace0, in->bsize = segy_trsize(in->format, in->samples))) {
      long long size = stat(file, &st) ? -1 : (long long)st.st_size;

      in->traces = 0;
      if (size <= in->trace0) snprintf(msg, len, "SEG-Y %s: no traces (the file is %lld bytes, its headers %ld)", file, size, in->trace0);
      else snprintf(msg, len, "SEG-Y %s is truncated (or has trailing bytes): the %lld bytes after its %ld bytes of headers are not a whole number of traces of %d bytes (240 of header, %d samples of format %d)", file, size - in->trace0, in->trace0, SEGY_TRACE_HEADER_SIZE + in->bsize, in->samples, in->format);
    }
  }
}
#endif

/*@C
  RwWaveSegyWrite - writes one shot gather as SEG-Y (rank 0 writes): nrec
  traces of nt samples, data[k * nrec + r], dt in ms (a whole number of
  microseconds), positions in m (dim values each: x, z or x, y, z) stored
  in centimetres (scalar -100)

  Collective

  Level: intermediate

.seealso: RwWaveSegyRead(), RwWaveObsWrite()
@*/
PetscErrorCode RwWaveSegyWrite(MPI_Comm comm, const char file[], PetscInt dim, PetscReal dt, const PetscReal src[], PetscInt nrec, const PetscReal rec[], PetscInt nt, const PetscReal data[])
{
#if defined(RW_HAVE_SEGYIO)
  PetscMPIInt rank;
  long        us = lround(dt * 1000);

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "SEG-Y %s: dimension %" PetscInt_FMT ": expected 2 or 3", file, dim);
  PetscCheck(PetscAbsReal(us - dt * 1000) <= 1e-6 * dt * 1000 && us > 0 && us < 65536, comm, PETSC_ERR_ARG_OUTOFRANGE, "SEG-Y %s: the sample interval dt = %g ms is not a whole number of microseconds below 65536; use such a -rw_dt", file, (double)dt);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    char       text[SEGY_TEXT_HEADER_SIZE + 1], tr[SEGY_TRACE_HEADER_SIZE];
    float     *buf;
    segy_file *fp;
    int        err;

    PetscCall(PetscMemzero(text, sizeof(text)));
    PetscCall(PetscSNPrintf(text, sizeof(text), "C 1 rewind-fwi shot gather: %" PetscInt_FMT " traces, %" PetscInt_FMT " samples, dt %ld us", nrec, nt, us));
    PetscCall(SegyCreate(file, text, (int32_t)us, (int)nt, &fp, &buf, &err));
    for (PetscInt r = 0; r < nrec && !err; r++) {
      PetscCall(PetscMemzero(tr, sizeof(tr)));
      err = err ? err : SegySetPosition(tr, SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_Y, SEGY_TR_SOURCE_DEPTH, 1, dim, src);
      err = err ? err : SegySetPosition(tr, SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y, SEGY_TR_RECV_GROUP_ELEV, -1, dim, rec + dim * r);
      for (PetscInt k = 0; k < nt; k++) buf[k] = (float)data[k * nrec + r];
      err = err ? err : SegyWriteTrace(fp, (int)r, tr, buf, (int32_t)us, (int)nt);
    }
    PetscCall(SegyClose(file, fp, buf, err));
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(comm, PETSC_ERR_SUP, "SEG-Y %s: rewind was built without libsegyio; install it (Debian: apt-get install libsegyio-dev) and re-run configure", file);
#endif
}

/*@C
  RwWaveSegyRead - reads one SEG-Y shot gather of dimension dim: the source
  position (all traces must agree), the receivers (dim values each) and the
  samples data[k * nrec + r]; the sample interval must be the run's dt (ms),
  the samples nt (n + 1) if nt >= 0; in 3D some trace must carry a y
  (SourceY or GroupY not 0)

  Collective (rank 0 reads, every rank gets the arrays: free with PetscFree())

  Level: intermediate

.seealso: RwWaveSegyWrite(), RwWaveObsRead()
@*/
PetscErrorCode RwWaveSegyRead(MPI_Comm comm, const char file[], PetscInt dim, PetscReal dt, PetscInt nt, PetscReal **src, PetscInt *nrec, PetscReal **rec, PetscReal **data)
{
#if defined(RW_HAVE_SEGYIO)
  PetscMPIInt rank;
  char        msg[512] = "";
  PetscInt    n[2] = {0, 0}; /* traces, samples */
  PetscBool   failed;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "SEG-Y %s: dimension %" PetscInt_FMT ": expected 2 or 3", file, dim);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMalloc1(dim, src));
  *rec = *data = NULL;
  if (!rank) {
    char   tr[SEGY_TRACE_HEADER_SIZE];
    SegyIn in;

    SegyOpenRead(file, &in, msg, sizeof(msg));
    if (!msg[0]) {
      if (in.interval <= 0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: no sample interval in the binary header (byte 3217): expected %g ms = %ld us", file, (double)dt, lround(dt * 1000)));
      else if (PetscAbsReal(in.interval / 1000.0 - dt) > 1e-9 * dt) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s has sample interval %d us; expected %ld us, the run's dt %g ms (-rw_dt, or the first gather's)", file, (int)in.interval, lround(dt * 1000), (double)dt));
      else if (nt >= 0 && in.samples != nt) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s has %d samples a trace; expected %" PetscInt_FMT " (the run's steps + 1)", file, in.samples, nt));
      else if (in.traces < 1) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: no traces: the file ends after its %ld bytes of headers", file, in.trace0));
    }
    if (!msg[0]) {
      float    *buf;
      PetscBool hasy = PETSC_FALSE, hasx = PETSC_FALSE;

      n[0] = in.traces, n[1] = in.samples;
      PetscCall(PetscMalloc1(dim * in.traces, rec));
      PetscCall(PetscMalloc1((size_t)in.traces * in.samples, data));
      PetscCall(PetscMalloc1(in.samples, &buf));
      for (int r = 0; r < in.traces && !msg[0]; r++) {
        int32_t   sx, gx, sy, gy, s1;
        PetscReal p[3];
        PetscBool same = PETSC_TRUE;

        if (segy_traceheader(in.fp, r, tr, in.trace0, in.bsize)) {
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: cannot read the header of trace %d", file, r));
          break;
        }
        segy_get_field(tr, SEGY_TR_SOURCE_GROUP_SCALAR, &s1);
        segy_get_field(tr, SEGY_TR_SOURCE_X, &sx);
        segy_get_field(tr, SEGY_TR_GROUP_X, &gx);
        segy_get_field(tr, SEGY_TR_SOURCE_Y, &sy);
        segy_get_field(tr, SEGY_TR_GROUP_Y, &gy);
        hasy = (PetscBool)(hasy || sy || gy);
        hasx = (PetscBool)(hasx || sx || gx);
        if (!s1 && !sx && !gx) {
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: trace %d has no source or receiver coordinates (SourceX byte 73, GroupX byte 81, scalar byte 71 all 0)", file, r));
          break;
        }
        SegyGetPosition(tr, SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_Y, SEGY_TR_SOURCE_DEPTH, 1, dim, p);
        for (PetscInt d = 0; d < dim; d++) same = (PetscBool)(same && (!r || p[d] == (*src)[d]));
        if (!r) PetscCall(PetscArraycpy(*src, p, dim));
        else if (!same) {
          char at[2][96];

          PetscCall(SegyFormatPosition(dim, p, at[0], sizeof(at[0])));
          PetscCall(SegyFormatPosition(dim, *src, at[1], sizeof(at[1])));
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: trace %d has its source at %s, trace 0 at %s: expected one shot a file", file, r, at[0], at[1]));
          break;
        }
        SegyGetPosition(tr, SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y, SEGY_TR_RECV_GROUP_ELEV, -1, dim, *rec + dim * r);
        if (segy_readtrace(in.fp, r, buf, in.trace0, in.bsize) || segy_to_native(in.format, in.samples, buf)) {
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: cannot read trace %d", file, r));
          break;
        }
        for (int k = 0; k < in.samples; k++) (*data)[(size_t)k * in.traces + r] = buf[k];
      }
      /* a scalar with every x zero: a file whose positions were never filled in, not a survey at x = 0 */
      if (!msg[0] && !hasx && !hasy) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: the traces have no positions: SourceX (byte 73), GroupX (byte 81), SourceY and GroupY are 0 in all %d traces (whatever the coordinate scalar, byte 71)", file, in.traces));
      /* a 2D line's file has y = 0 everywhere: in 3D that is a file without y, not a survey on y = 0 */
      if (!msg[0] && dim > 2 && !hasy) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: trace 0 has no y coordinates (SourceY byte 77 and GroupY byte 85 are 0 in all %d traces): a 3D gather needs them", file, in.traces));
      PetscCall(PetscFree(buf));
    }
    if (in.fp) segy_close(in.fp);
  }
  PetscCall(RwErrorAgreeTest(comm, 0, msg, sizeof(msg), &failed));
  if (failed) {
    PetscCall(PetscFree(*rec));
    PetscCall(PetscFree(*data));
  }
  PetscCheck(!failed, comm, PETSC_ERR_FILE_UNEXPECTED, "%s", msg);
  PetscCallMPI(MPI_Bcast(n, 2, MPIU_INT, 0, comm));
  if (rank) {
    PetscCall(PetscMalloc1(dim * n[0], rec));
    PetscCall(PetscMalloc1(n[0] * n[1], data));
  }
  PetscCallMPI(MPI_Bcast(*src, dim, MPIU_REAL, 0, comm));
  PetscCallMPI(MPI_Bcast(*rec, dim * n[0], MPIU_REAL, 0, comm));
  PetscCallMPI(MPI_Bcast(*data, n[0] * n[1], MPIU_REAL, 0, comm));
  *nrec = n[0];
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(comm, PETSC_ERR_SUP, "SEG-Y %s: rewind was built without libsegyio; install it (Debian: apt-get install libsegyio-dev) and re-run configure", file);
#endif
}

/*@C
  RwWaveSegyReadSpanY - the least and greatest y (m) of a SEG-Y shot
  gather's sources and receivers (SourceY, byte 77, and GroupY, byte 85,
  scaled by byte 71): a gather whose y is one value is a 2D line's

  Collective (rank 0 reads the trace headers)

  Level: intermediate

.seealso: RwWaveSegyRead()
@*/
PetscErrorCode RwWaveSegyReadSpanY(MPI_Comm comm, const char file[], PetscReal y[])
{
#if defined(RW_HAVE_SEGYIO)
  PetscMPIInt rank;
  char        msg[512] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  y[0] = PETSC_MAX_REAL, y[1] = PETSC_MIN_REAL;
  if (!rank) {
    char   tr[SEGY_TRACE_HEADER_SIZE];
    SegyIn in;

    SegyOpenRead(file, &in, msg, sizeof(msg));
    if (!msg[0] && in.traces < 1) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: no traces: the file ends after its %ld bytes of headers", file, in.trace0));
    for (int r = 0; r < in.traces && !msg[0]; r++) {
      PetscReal p[3];

      if (segy_traceheader(in.fp, r, tr, in.trace0, in.bsize)) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: cannot read the header of trace %d", file, r));
      for (PetscInt w = 0; w < 2 && !msg[0]; w++) {
        if (w) SegyGetPosition(tr, SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y, SEGY_TR_RECV_GROUP_ELEV, -1, 3, p);
        else SegyGetPosition(tr, SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_Y, SEGY_TR_SOURCE_DEPTH, 1, 3, p);
        y[0] = PetscMin(y[0], p[1]), y[1] = PetscMax(y[1], p[1]);
      }
    }
    if (in.fp) segy_close(in.fp);
  }
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(y, 2, MPIU_REAL, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(comm, PETSC_ERR_SUP, "SEG-Y %s: rewind was built without libsegyio; install it (Debian: apt-get install libsegyio-dev) and re-run configure", file);
#endif
}

/*@C
  RwWaveSegyReadBinaryHeader - the sample interval (ms, if dt is not NULL) and the samples a trace of a SEG-Y file's binary header

  Collective (rank 0 reads)

  Level: intermediate

.seealso: RwWaveSegyRead()
@*/
PetscErrorCode RwWaveSegyReadBinaryHeader(MPI_Comm comm, const char file[], PetscReal *dt, PetscInt *samples)
{
#if defined(RW_HAVE_SEGYIO)
  PetscMPIInt rank;
  char        msg[512] = "";
  PetscReal   v[2]     = {0, 0};

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    SegyIn in;

    SegyOpenRead(file, &in, msg, sizeof(msg));
    if (msg[0]) { /* said */
    } else if (in.interval <= 0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: no sample interval in the binary header (byte 3217): expected a positive number of microseconds", file));
    else if (in.samples < 2) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y %s: %d samples a trace in the binary header (byte 3221): expected at least 2", file, in.samples));
    if (!msg[0]) v[0] = in.interval / 1000.0, v[1] = in.samples;
    if (in.fp) segy_close(in.fp);
  }
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg)));
  PetscCallMPI(MPI_Bcast(v, 2, MPIU_REAL, 0, comm));
  if (dt) *dt = v[0];
  *samples = (PetscInt)v[1];
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(comm, PETSC_ERR_SUP, "SEG-Y %s: rewind was built without libsegyio; install it (Debian: apt-get install libsegyio-dev) and re-run configure", file);
#endif
}

/*@C
  RwWaveSegyWriteModel - writes a velocity model (physical region, x fastest,
  depth last: c[col + ncol * k]) as a SEG-Y depth section, one trace a column

  Collective (rank 0 writes)

  Input Parameters:
+ comm, file - the ranks, the file
. dim, h     - the dimension and the spacing (m, whole millimetres)
. origin     - the first point's coordinates (dim values, m; NULL: 0)
. n          - the points per direction (n[dim - 1]: samples a trace)
- c          - the velocities

  Level: intermediate

.seealso: RwWaveSegyReadModel()
@*/
PetscErrorCode RwWaveSegyWriteModel(MPI_Comm comm, const char file[], PetscInt dim, PetscReal h, const PetscReal origin[], const PetscInt n[], const PetscReal c[])
{
#if defined(RW_HAVE_SEGYIO)
  PetscMPIInt    rank;
  const PetscInt ns = n[dim - 1], ncol = dim > 2 ? n[0] * n[1] : n[0];
  long           mm = lround(h * 1000);

  PetscFunctionBegin;
  PetscCheck(mm > 0 && mm < 65536 && PetscAbsReal(mm - h * 1000) <= 1e-9 * h * 1000, comm, PETSC_ERR_ARG_OUTOFRANGE, "SEG-Y %s: the spacing %g m is not a whole number of millimetres below 65536", file, (double)h);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    char       text[SEGY_TEXT_HEADER_SIZE + 1], tr[SEGY_TRACE_HEADER_SIZE];
    float     *buf;
    segy_file *fp;
    int        err;

    PetscCall(PetscMemzero(text, sizeof(text)));
    PetscCall(PetscSNPrintf(text, sizeof(text), "C 1 rewind-fwi velocity model (km/s): %" PetscInt_FMT " columns, %" PetscInt_FMT " depth samples every %ld mm", ncol, ns, mm));
    PetscCall(SegyCreate(file, text, (int32_t)mm, (int)ns, &fp, &buf, &err));
    for (PetscInt t = 0; t < ncol && !err; t++) {
      PetscReal p[3] = {(t % n[0]) * h, dim > 2 ? (t / n[0]) * h : 0, 0}; /* the column's top */

      for (PetscInt d = 0; d < dim && origin; d++) p[d] += origin[d];
      PetscCall(PetscMemzero(tr, sizeof(tr)));
      err = err ? err : SegySetPosition(tr, SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y, SEGY_TR_RECV_GROUP_ELEV, -1, dim, p);
      for (PetscInt k = 0; k < ns; k++) buf[k] = (float)c[t + ncol * k];
      err = err ? err : SegyWriteTrace(fp, (int)t, tr, buf, (int32_t)mm, (int)ns);
    }
    PetscCall(SegyClose(file, fp, buf, err));
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(comm, PETSC_ERR_SUP, "SEG-Y %s: rewind was built without libsegyio; install it (Debian: apt-get install libsegyio-dev) and re-run configure", file);
#endif
}

#if defined(RW_HAVE_SEGYIO)
/* Sorted distinct values of v[0..n) into u (n long), two within tol the
   same (SEG-Y positions are whole centimetres or millimetres apart) */
static PetscErrorCode SegyDistinct(PetscInt n, const PetscReal v[], PetscReal tol, PetscReal u[], PetscInt *m)
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(u, v, n));
  PetscCall(PetscSortReal(n, u));
  *m = 0;
  for (PetscInt i = 0; i < n; i++)
    if (!*m || u[i] - u[*m - 1] > tol) u[(*m)++] = u[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where a, one of the values SegyDistinct() took, falls among the m values u */
static PetscInt SegyIndex(PetscInt m, const PetscReal u[], PetscReal a, PetscReal tol)
{
  PetscInt lo = 0, hi = m - 1;

  while (lo < hi) {
    const PetscInt mid = (lo + hi) / 2;

    if (u[mid] < a - tol) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


/*
  The grid the columns' tops (pos: dim values a trace, x, [y,] z) lay out,
  in any trace order: the distinct x (and y), one trace at each of their
  crossings, each direction evenly spaced.  col[t]: trace t's column, x
  fastest; first: the grid's first top; hxy: the spacings along x (and y),
  0 along a direction of one column; *nx the columns along x, 0 when the
  traces lay out no such grid.  A grid whose columns are uneven, or whose
  tops lie at different depths, is said in msg.
*/
static PetscErrorCode SegyLayOut(const char file[], PetscInt dim, PetscInt traces, const PetscReal pos[], PetscInt col[], PetscReal first[], PetscReal hxy[], PetscInt *nx, char msg[], size_t len)
{
  const char *name[2] = {"GroupX (byte 81)", "GroupY (byte 85)"};
  PetscReal  *v, *u[2] = {NULL, NULL};
  PetscInt    m[2] = {1, 1}, *at;

  PetscFunctionBegin;
  *nx = 0;
  PetscCall(PetscMalloc4(traces, &v, traces, &u[0], traces, &u[1], traces, &at));
  for (PetscInt d = 0; d < dim - 1; d++) {
    for (PetscInt t = 0; t < traces; t++) v[t] = pos[dim * t + d];
    PetscCall(SegyDistinct(traces, v, RW_WAVE_SEGY_SAME, u[d], &m[d]));
  }
  if (m[0] * m[1] == traces) { /* then one trace at each crossing, or some crossing twice */
    PetscBool grid = PETSC_TRUE;

    for (PetscInt t = 0; t < traces; t++) at[t] = -1;
    for (PetscInt t = 0; t < traces && grid; t++) {
      const PetscInt i = SegyIndex(m[0], u[0], pos[dim * t], RW_WAVE_SEGY_SAME), j = dim > 2 ? SegyIndex(m[1], u[1], pos[dim * t + 1], RW_WAVE_SEGY_SAME) : 0;

      col[t] = i + m[0] * j;
      grid   = (PetscBool)(at[col[t]] < 0);
      at[col[t]] = t;
    }
    if (grid) *nx = m[0];
  }
  for (PetscInt d = 0; d < dim - 1 && *nx && !msg[0]; d++) {
    hxy[d]   = m[d] > 1 ? (u[d][m[d] - 1] - u[d][0]) / (m[d] - 1) : 0;
    first[d] = u[d][0];
    for (PetscInt i = 0; i < m[d] && !msg[0]; i++)
      if (PetscAbsReal(u[d][i] - (u[d][0] + i * hxy[d])) > RW_WAVE_SEGY_EVEN) PetscCall(PetscSNPrintf(msg, len, "SEG-Y model %s: the columns' %s are not evenly spaced: column %" PetscInt_FMT " of %" PetscInt_FMT " at %g m, expected %g m (%g m apart from %g to %g m)", file, name[d], i, m[d], (double)u[d][i], (double)(u[d][0] + i * hxy[d]), (double)hxy[d], (double)u[d][0], (double)u[d][m[d] - 1]));
  }
  for (PetscInt t = 1; t < traces && *nx && !msg[0]; t++)
    if (PetscAbsReal(pos[dim * t + dim - 1] - pos[dim - 1]) > RW_WAVE_SEGY_EVEN) PetscCall(PetscSNPrintf(msg, len, "SEG-Y model %s: trace %" PetscInt_FMT " starts at depth %g m, trace 0 at %g m (minus ReceiverGroupElevation, byte 41): expected every column to start at one depth", file, t, (double)pos[dim * t + dim - 1], (double)pos[dim - 1]));
  PetscCall(PetscFree4(v, u[0], u[1], at));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*@C
  RwWaveSegyReadModel - reads a SEG-Y depth section of dimension dim: ncol
  traces of ns samples, c[col + ncol * k] (x fastest), the vertical
  spacing (m) from the sample interval (mm) and, if the first trace carries
  coordinates (its scalar, byte 71, is set; *hasorigin), the columns'
  layout and the model's origin from their GroupX, GroupY and
  ReceiverGroupElevation

  Collective (rank 0 reads, every rank gets the values: free with PetscFree())

  Output Parameters:
+ ncol      - the traces, one per column
. nx        - the columns along x as the traces' GroupX (and GroupY) lay
              them out, in any trace order: the columns are then in c x
              fastest and evenly spaced (a grid that is not stops, naming
              the column); 0 when the traces carry no coordinates or lay
              out no grid: c then holds them in the file's order (may be NULL)
. ns        - the samples of a trace (depth points)
. h         - dim values: the spacing along x (and y) from the coordinates
              (0 when not known: one column, or no layout), then the
              vertical spacing
. origin    - the first point, if hasorigin: the grid's first column with a
              layout, else the first trace's
. hasorigin - whether the first trace carries coordinates
- c         - the velocities

  Level: intermediate

.seealso: RwWaveSegyWriteModel()
@*/
PetscErrorCode RwWaveSegyReadModel(MPI_Comm comm, const char file[], PetscInt dim, PetscInt *ncol, PetscInt *nx, PetscInt *ns, PetscReal h[], PetscReal origin[], PetscBool *hasorigin, PetscReal **c)
{
#if defined(RW_HAVE_SEGYIO)
  PetscMPIInt rank;
  char        msg[512] = "";
  PetscInt    n[3]     = {0, 0, 0};             /* traces, samples, columns along x */
  PetscReal   v[7]     = {0, 0, 0, 0, 0, 0, 0}; /* has an origin, the origin, the spacings */
  PetscBool   failed;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "SEG-Y model %s: dimension %" PetscInt_FMT ": expected 2 or 3", file, dim);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  *c = NULL;
  if (!rank) {
    SegyIn in;

    SegyOpenRead(file, &in, msg, sizeof(msg));
    if (!msg[0]) {
      if (in.interval <= 0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y model %s: no sample interval in the binary header (byte 3217): expected the vertical spacing in mm", file));
      else if (in.traces < 1) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y model %s: no traces or no samples", file));
    }
    if (!msg[0]) {
      float     *buf;
      PetscReal *pos, *raw;
      PetscInt  *col;
      char       tr[SEGY_TRACE_HEADER_SIZE];
      int32_t    s1 = 0;

      n[0] = in.traces, n[1] = in.samples, v[1 + dim + dim - 1] = in.interval / 1000.0;
      PetscCall(PetscMalloc1((size_t)in.traces * in.samples, c));
      PetscCall(PetscMalloc4(in.samples, &buf, (size_t)dim * in.traces, &pos, in.traces, &col, (size_t)in.traces * in.samples, &raw));
      for (int t = 0; t < in.traces && !msg[0]; t++) {
        if (segy_traceheader(in.fp, t, tr, in.trace0, in.bsize) || segy_readtrace(in.fp, t, buf, in.trace0, in.bsize) || segy_to_native(in.format, in.samples, buf)) PetscCall(PetscSNPrintf(msg, sizeof(msg), "SEG-Y model %s: cannot read trace %d", file, t));
        if (!t) segy_get_field(tr, SEGY_TR_SOURCE_GROUP_SCALAR, &s1); /* the first trace's scalar says whether the traces carry coordinates */
        SegyGetPosition(tr, SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y, SEGY_TR_RECV_GROUP_ELEV, -1, dim, pos + dim * t);
        for (int k = 0; k < in.samples; k++) raw[(size_t)k * in.traces + t] = buf[k];
      }
      v[0] = s1 != 0;
      if (s1 && !msg[0]) {
        PetscCall(PetscArraycpy(v + 1, pos, dim)); /* the first trace's top, unless the traces lay out a grid */
        PetscCall(SegyLayOut(file, dim, in.traces, pos, col, v + 1, v + 1 + dim, &n[2], msg, sizeof(msg)));
      }
      for (int t = 0; t < in.traces && !msg[0]; t++)
        for (int k = 0; k < in.samples; k++) (*c)[(size_t)k * in.traces + (n[2] ? col[t] : t)] = raw[(size_t)k * in.traces + t];
      PetscCall(PetscFree4(buf, pos, col, raw));
    }
    if (in.fp) segy_close(in.fp);
  }
  PetscCall(RwErrorAgreeTest(comm, 0, msg, sizeof(msg), &failed));
  if (failed) PetscCall(PetscFree(*c));
  PetscCheck(!failed, comm, PETSC_ERR_FILE_UNEXPECTED, "%s", msg);
  PetscCallMPI(MPI_Bcast(n, 3, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(v, 7, MPIU_REAL, 0, comm));
  if (rank) PetscCall(PetscMalloc1(n[0] * n[1], c));
  PetscCallMPI(MPI_Bcast(*c, n[0] * n[1], MPIU_REAL, 0, comm));
  *ncol = n[0], *ns = n[1], *hasorigin = (PetscBool)(v[0] != 0);
  if (nx) *nx = n[2];
  for (PetscInt d = 0; d < dim; d++) origin[d] = v[1 + d], h[d] = v[1 + dim + d];
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  SETERRQ(comm, PETSC_ERR_SUP, "SEG-Y %s: rewind was built without libsegyio; install it (Debian: apt-get install libsegyio-dev) and re-run configure", file);
#endif
}
