/*
  rewind-bench's results: sections of rows, each row a case name and named
  values.  Rank 0 prints a section as a table when it ends (a new header
  whenever the columns change) and writes the whole table as CSV (one line per
  value: section,case,metric,value,unit) or JSON (sections with their notes
  and rows).  Every rank adds the same rows: the figures are reduced first.
*/
#include "bench.h"
#include <errno.h>
#include <math.h>

#define BENCH_MAXVALS  20
#define BENCH_MAXNOTES 16

typedef enum {
  BENCH_REAL,
  BENCH_INT,
  BENCH_TEXT
} BenchKind;

typedef struct {
  char      key[32], unit[16], text[64];
  BenchKind kind;
  PetscReal v;
} BenchValue;

typedef struct {
  PetscInt   section;
  char       name[80];
  PetscInt   n;
  BenchValue val[BENCH_MAXVALS];
} BenchRowData;

typedef struct {
  char     name[16], title[128];
  char     note[BENCH_MAXNOTES][512];
  PetscInt nnotes;
} BenchSectionData;

struct _n_BenchResults {
  MPI_Comm          comm;
  BenchRowData     *rows;
  PetscInt          nrows, maxrows;
  BenchSectionData *sec;
  PetscInt          nsec, maxsec;
  PetscBool         open; /* a section is open: rows go to sec[nsec-1] */
};

PetscErrorCode BenchResultsCreate(MPI_Comm comm, BenchResults *res)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(res));
  (*res)->comm = comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchResultsDestroy(BenchResults *res)
{
  PetscFunctionBegin;
  if (!*res) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*res)->rows));
  PetscCall(PetscFree((*res)->sec));
  PetscCall(PetscFree(*res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Grows an array of n used entries of size sz to hold one more */
static PetscErrorCode BenchGrow(void **a, PetscInt n, PetscInt *max, size_t sz)
{
  PetscFunctionBegin;
  if (n < *max) PetscFunctionReturn(PETSC_SUCCESS);
  *max = PetscMax(16, 2 * *max);
  PetscCall(PetscRealloc(*max * sz, a));
  PetscCall(PetscArrayzero((char *)*a + n * sz, (*max - n) * sz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchSectionBegin(BenchResults res, const char name[], const char title[])
{
  BenchSectionData *s;

  PetscFunctionBegin;
  PetscCheck(!res->open, res->comm, PETSC_ERR_PLIB, "Section %s begins inside another", name);
  PetscCall(BenchGrow((void **)&res->sec, res->nsec, &res->maxsec, sizeof(*res->sec)));
  s = &res->sec[res->nsec++];
  PetscCall(PetscStrncpy(s->name, name, sizeof(s->name)));
  PetscCall(PetscStrncpy(s->title, title, sizeof(s->title)));
  res->open = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchNote(BenchResults res, const char fmt[], ...)
{
  BenchSectionData *s = &res->sec[res->nsec - 1];
  va_list           ap;
  size_t            len;

  PetscFunctionBegin;
  PetscCheck(res->open && s->nnotes < BENCH_MAXNOTES, res->comm, PETSC_ERR_PLIB, "No open section, or too many notes");
  va_start(ap, fmt);
  PetscCall(PetscVSNPrintf(s->note[s->nnotes++], sizeof(s->note[0]), fmt, &len, ap));
  va_end(ap);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Starts a row of the open section; the values that follow belong to it */
PetscErrorCode BenchRow(BenchResults res, const char fmt[], ...)
{
  BenchRowData *r;
  va_list       ap;
  size_t        len;

  PetscFunctionBegin;
  PetscCheck(res->open, res->comm, PETSC_ERR_PLIB, "A row outside a section");
  PetscCall(BenchGrow((void **)&res->rows, res->nrows, &res->maxrows, sizeof(*res->rows)));
  r          = &res->rows[res->nrows++];
  r->section = res->nsec - 1;
  va_start(ap, fmt);
  PetscCall(PetscVSNPrintf(r->name, sizeof(r->name), fmt, &len, ap));
  va_end(ap);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchAddValue(BenchResults res, const char key[], BenchValue **v)
{
  BenchRowData *r = &res->rows[res->nrows - 1];

  PetscFunctionBegin;
  PetscCheck(res->nrows > 0 && r->n < BENCH_MAXVALS, res->comm, PETSC_ERR_PLIB, "Value %s without a row, or too many values in row %s", key, r->name);
  *v = &r->val[r->n++];
  PetscCall(PetscStrncpy((*v)->key, key, sizeof((*v)->key)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchReal(BenchResults res, const char key[], const char unit[], PetscReal x)
{
  BenchValue *v;

  PetscFunctionBegin;
  PetscCall(BenchAddValue(res, key, &v));
  v->kind = BENCH_REAL;
  v->v    = x;
  PetscCall(PetscStrncpy(v->unit, unit ? unit : "", sizeof(v->unit)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchInt(BenchResults res, const char key[], PetscInt64 i)
{
  BenchValue *v;

  PetscFunctionBegin;
  PetscCall(BenchAddValue(res, key, &v));
  v->kind = BENCH_INT;
  v->v    = (PetscReal)i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchText(BenchResults res, const char key[], const char text[])
{
  BenchValue *v;

  PetscFunctionBegin;
  PetscCall(BenchAddValue(res, key, &v));
  v->kind = BENCH_TEXT;
  PetscCall(PetscStrncpy(v->text, text, sizeof(v->text)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The case name of the last row added */
PetscErrorCode BenchLastRowName(BenchResults res, char name[], size_t len)
{
  PetscFunctionBegin;
  PetscCheck(res->nrows > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "BenchLastRowName: no row yet");
  PetscCall(PetscStrncpy(name, res->rows[res->nrows - 1].name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The number stored under section/case/key; NaN when there is none */
PetscErrorCode BenchLookup(BenchResults res, const char section[], const char name[], const char key[], PetscReal *x)
{
  PetscFunctionBegin;
  *x = (PetscReal)NAN;
  for (PetscInt i = 0; i < res->nrows; i++) {
    const BenchRowData *r = &res->rows[i];
    PetscBool           s, c;

    PetscCall(PetscStrcmp(res->sec[r->section].name, section, &s));
    PetscCall(PetscStrcmp(r->name, name, &c));
    if (!s || !c) continue;
    for (PetscInt j = 0; j < r->n; j++) {
      PetscBool k;
      PetscCall(PetscStrcmp(r->val[j].key, key, &k));
      if (k && r->val[j].kind != BENCH_TEXT) *x = r->val[j].v;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The copy bandwidth of all the run's ranks from the stream section (NaN if
   it did not run): what every fraction of bandwidth is of */
PetscErrorCode BenchCopyBandwidth(BenchResults res, PetscReal *copy)
{
  PetscMPIInt size;
  char        row[32];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscSNPrintf(row, sizeof(row), "%d/%d ranks", size, size));
  PetscCall(BenchLookup(res, "stream", row, "copy", copy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The best copy bandwidth of all ranks the run measured: the stream
   section's and every case's copy_near (NaN if none ran).  On a shared host
   copy reads 34-38 or 50-63 GB/s from one timing to the next, and the
   kernels beside it follow only sometimes (doc/notes/benchmarks-log.md), so a
   fraction of one copy swings with the copy; the best is the machine's */
PetscErrorCode BenchCopyBest(BenchResults res, PetscReal *best)
{
  PetscFunctionBegin;
  PetscCall(BenchCopyBandwidth(res, best));
  for (PetscInt i = 0; i < res->nrows; i++) {
    const BenchRowData *r = &res->rows[i];

    for (PetscInt j = 0; j < r->n; j++) {
      PetscBool k;

      PetscCall(PetscStrcmp(r->val[j].key, "copy_near", &k));
      if (k && r->val[j].kind != BENCH_TEXT && (PetscIsInfOrNanReal(*best) || r->val[j].v > *best)) *best = r->val[j].v;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the table on rank 0 ---------------------------------------------------- */

static void BenchFormat(const BenchValue *v, char buf[], size_t len)
{
  if (v->kind == BENCH_TEXT) snprintf(buf, len, "%s", v->text);
  else if (PetscIsInfOrNanReal(v->v)) snprintf(buf, len, "-");
  else if (v->kind == BENCH_INT) snprintf(buf, len, "%lld", (long long)v->v);
  else snprintf(buf, len, "%.4g", (double)v->v);
}

static void BenchHeader(const BenchValue *v, char buf[], size_t len)
{
  if (v->unit[0]) snprintf(buf, len, "%s[%s]", v->key, v->unit);
  else snprintf(buf, len, "%s", v->key);
}

static PetscBool BenchSameColumns(const BenchRowData *a, const BenchRowData *b)
{
  if (a->n != b->n) return PETSC_FALSE;
  for (PetscInt j = 0; j < a->n; j++)
    if (strcmp(a->val[j].key, b->val[j].key) || strcmp(a->val[j].unit, b->val[j].unit)) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* Rows [lo, hi) share their columns: one header, then the rows, aligned */
static PetscErrorCode BenchPrintBlock(BenchResults res, PetscInt lo, PetscInt hi)
{
  int  w[BENCH_MAXVALS + 1];
  char buf[128];

  PetscFunctionBegin;
  w[0] = 4;
  for (PetscInt i = lo; i < hi; i++) w[0] = PetscMax(w[0], (int)strlen(res->rows[i].name));
  for (PetscInt j = 0; j < res->rows[lo].n; j++) {
    BenchHeader(&res->rows[lo].val[j], buf, sizeof(buf));
    w[j + 1] = (int)strlen(buf);
    for (PetscInt i = lo; i < hi; i++) {
      BenchFormat(&res->rows[i].val[j], buf, sizeof(buf));
      w[j + 1] = PetscMax(w[j + 1], (int)strlen(buf));
    }
  }
  PetscCall(PetscPrintf(res->comm, "  %-*s", w[0], "case"));
  for (PetscInt j = 0; j < res->rows[lo].n; j++) {
    BenchHeader(&res->rows[lo].val[j], buf, sizeof(buf));
    PetscCall(PetscPrintf(res->comm, "  %*s", w[j + 1], buf));
  }
  PetscCall(PetscPrintf(res->comm, "\n"));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(PetscPrintf(res->comm, "  %-*s", w[0], res->rows[i].name));
    for (PetscInt j = 0; j < res->rows[i].n; j++) {
      BenchFormat(&res->rows[i].val[j], buf, sizeof(buf));
      PetscCall(PetscPrintf(res->comm, "  %*s", w[j + 1], buf));
    }
    PetscCall(PetscPrintf(res->comm, "\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ends the open section and prints it: title, tables, notes */
PetscErrorCode BenchSectionEnd(BenchResults res)
{
  const PetscInt          cur = res->nsec - 1;
  const BenchSectionData *s   = &res->sec[cur];
  PetscInt                lo  = 0;

  PetscFunctionBegin;
  PetscCheck(res->open, res->comm, PETSC_ERR_PLIB, "No section to end");
  res->open = PETSC_FALSE;
  PetscCall(PetscPrintf(res->comm, "\n== %s: %s\n", s->name, s->title));
  while (lo < res->nrows && res->rows[lo].section != cur) lo++;
  while (lo < res->nrows) {
    PetscInt hi = lo + 1;
    while (hi < res->nrows && BenchSameColumns(&res->rows[lo], &res->rows[hi])) hi++;
    PetscCall(BenchPrintBlock(res, lo, hi));
    lo = hi;
  }
  for (PetscInt i = 0; i < s->nnotes; i++) PetscCall(PetscPrintf(res->comm, "  * %s\n", s->note[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- files on rank 0 -------------------------------------------------------- */

/* A CSV field, quoted when it holds a comma or a quote */
static void BenchCSVField(FILE *f, const char *s)
{
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void BenchCSVValue(FILE *f, const BenchValue *v)
{
  if (v->kind == BENCH_TEXT) BenchCSVField(f, v->text);
  else if (v->kind == BENCH_INT) fprintf(f, "%lld", (long long)v->v);
  else if (PetscIsInfOrNanReal(v->v)) fputs("nan", f);
  else fprintf(f, "%.9g", (double)v->v);
}

static void BenchWriteCSV(BenchResults res, FILE *f)
{
  fputs("section,case,metric,value,unit\n", f);
  for (PetscInt i = 0; i < res->nrows; i++) {
    const BenchRowData *r = &res->rows[i];
    for (PetscInt j = 0; j < r->n; j++) {
      fprintf(f, "%s,", res->sec[r->section].name);
      BenchCSVField(f, r->name);
      fprintf(f, ",%s,", r->val[j].key);
      BenchCSVValue(f, &r->val[j]);
      fprintf(f, ",%s\n", r->val[j].unit);
    }
  }
}

static void BenchJSONString(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned)*s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

static void BenchJSONRow(FILE *f, const BenchRowData *r)
{
  fputs("      {\"case\": ", f);
  BenchJSONString(f, r->name);
  fputs(", \"values\": {", f);
  for (PetscInt j = 0; j < r->n; j++) {
    const BenchValue *v = &r->val[j];
    fputs(j ? ", " : "", f);
    BenchJSONString(f, v->key);
    fputs(": ", f);
    if (v->kind == BENCH_TEXT) BenchJSONString(f, v->text);
    else if (PetscIsInfOrNanReal(v->v)) fputs("null", f);
    else if (v->kind == BENCH_INT) fprintf(f, "%lld", (long long)v->v);
    else fprintf(f, "%.9g", (double)v->v);
  }
  fputs("}, \"units\": {", f);
  for (PetscInt j = 0, k = 0; j < r->n; j++) {
    if (!r->val[j].unit[0]) continue;
    fputs(k++ ? ", " : "", f);
    BenchJSONString(f, r->val[j].key);
    fputs(": ", f);
    BenchJSONString(f, r->val[j].unit);
  }
  fputs("}}", f);
}

static void BenchWriteJSON(BenchResults res, FILE *f)
{
  fputs("{\n  \"program\": \"rewind-bench\",\n  \"sections\": [\n", f);
  for (PetscInt s = 0; s < res->nsec; s++) {
    PetscBool first = PETSC_TRUE;

    fputs("    {\"name\": ", f);
    BenchJSONString(f, res->sec[s].name);
    fputs(", \"title\": ", f);
    BenchJSONString(f, res->sec[s].title);
    fputs(",\n     \"notes\": [", f);
    for (PetscInt i = 0; i < res->sec[s].nnotes; i++) {
      fputs(i ? ", " : "", f);
      BenchJSONString(f, res->sec[s].note[i]);
    }
    fputs("],\n     \"rows\": [\n", f);
    for (PetscInt i = 0; i < res->nrows; i++) {
      if (res->rows[i].section != s) continue;
      fputs(first ? "" : ",\n", f);
      first = PETSC_FALSE;
      BenchJSONRow(f, &res->rows[i]);
    }
    fprintf(f, "\n    ]}%s\n", s + 1 < res->nsec ? "," : "");
  }
  fputs("  ]\n}\n", f);
}

/* Writes the table to file: JSON if its name ends in .json, else CSV; the
   outcome on rank 0 is agreed, so a failure stops every rank */
PetscErrorCode BenchResultsWrite(BenchResults res, const char file[])
{
  PetscMPIInt rank;
  PetscBool   json;
  int         ok = 1;

  PetscFunctionBegin;
  PetscCall(PetscStrendswith(file, ".json", &json));
  PetscCallMPI(MPI_Comm_rank(res->comm, &rank));
  if (rank == 0) {
    FILE *f = fopen(file, "w");

    if (f) {
      if (json) BenchWriteJSON(res, f);
      else BenchWriteCSV(res, f);
    }
    ok = f && !ferror(f) && fclose(f) == 0;
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, res->comm));
  PetscCheck(ok, res->comm, PETSC_ERR_FILE_WRITE, "-rw_bench_output %s: cannot write the file (%s)", file, rank == 0 ? strerror(errno) : "see rank 0");
  PetscFunctionReturn(PETSC_SUCCESS);
}
