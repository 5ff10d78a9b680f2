/*
  The evaluation journal: what makes an inversion resumable (doc/inverse.md).

  Every objective evaluation i keeps, per experiment e, the experiment's J_e
  and its gradient contribution in natural grid order, with checksums of the
  iterate x it was computed at and of the record itself.  With -rw_restart
  the app replays: while the journal has (i, e) and x matches bit for bit, the
  recorded values stand in for the solve.  TAO is deterministic, so it
  retraces the interrupted run exactly and rebuilds its own L-BFGS history
  and iteration count; nothing of TAO's private state is kept.

  The journal is a directory:

    problem                     text, "key: value" lines and a checksum line:
                                everything that decides the records' values
    eval-IIIIII-exp-EE.rec      one record, binary, native byte order:
                                8 words of header (magic "RWINVJ01", problem
                                hash, i, e, checksum of x, J_e, seconds,
                                field size N), N doubles (natural order), one
                                word: a checksum of all that precedes it

  Crash consistency: rank 0 writes each file under a temporary name in the
  same directory, fsyncs it, renames it into place (atomic on POSIX) and
  fsyncs the directory.  A final name therefore names a complete file or
  nothing; a kill leaves at most a stale temporary file, which is never read
  and is replaced by the next write.  A record that is nonetheless damaged
  (its size, magic, checksum or problem disagree) is refused with a message
  naming the file, and that solve is computed again.
*/
#include "inverse.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define INV_JOURNAL_MSGLEN  (3 * PETSC_MAX_PATH_LEN)
#define INV_JOURNAL_PATHLEN (PETSC_MAX_PATH_LEN + 64)
#define INV_JOURNAL_TEXTLEN 8192

typedef struct {
  char     magic[8];
  uint64_t problem, eval, exp, xsum;
  double   J, seconds;
  uint64_t n;
} InvRecordHead;

struct _n_InvJournal {
  char       dir[PETSC_MAX_PATH_LEN];
  char       text[INV_JOURNAL_TEXTLEN]; /* the problem, as the file "problem" holds it */
  uint64_t   problem;                   /* a hash of text */
  PetscBool  restart, overwrite, keep, torn, replay, completed;
  PetscInt   killat;        /* -rw_debug_kill_at_evaluation */
  PetscInt64 eval;          /* the evaluation in progress */
  PetscInt64 replayed;      /* records used */
  uint64_t   xsum;          /* checksum of this evaluation's iterate */
  Vec        w, natural, seq; /* a contribution: global, natural order, natural on rank 0 */
  VecScatter tozero;
};

static const char magic[8] = {'R', 'W', 'I', 'N', 'V', 'J', '0', '1'};

/* -log_view shows what the journal costs beside the solves */
static PetscLogEvent INV_JOURNAL_WRITE, INV_JOURNAL_READ;

static uint64_t HashBytes(uint64_t h, const void *p, size_t n)
{
  const unsigned char *c = (const unsigned char *)p;

  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001B3ULL; /* FNV-1a */
  return h;
}

static uint64_t HashWords(uint64_t h, const void *p, size_t n)
{
  const unsigned char *c = (const unsigned char *)p;

  for (size_t i = 0; i < n; i++) {
    uint64_t w;
    memcpy(&w, c + 8 * i, 8);
    h = RwSplitMix64(h ^ w);
  }
  return h;
}

/* Rank 0's verdict, the same error on every rank */
static PetscErrorCode Agree(char msg[], PetscErrorCode code)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Bcast(msg, INV_JOURNAL_MSGLEN, MPI_CHAR, 0, PETSC_COMM_WORLD));
  PetscCheck(!msg[0], PETSC_COMM_WORLD, code, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A checksum of a field on the state grid that does not depend on the decomposition */
static PetscErrorCode FieldChecksum(Inverse *inv, Vec v, uint64_t *sum)
{
  DM                 da;
  PetscInt           M[3], s[3], c[3];
  const PetscScalar *a;
  uint64_t           local;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &c[0], &c[1], &c[2]));
  PetscCall(VecGetArrayRead(v, &a));
  local = RwChecksumBlock(M, s, c, 1, a);
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCallMPI(MPI_Allreduce(&local, sum, 1, MPI_UINT64_T, MPI_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Line(char text[], const char key[], const char value[])
{
  size_t n = strlen(text);

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(text + n, INV_JOURNAL_TEXTLEN - n, "%s: %s\n", key, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HashLine(char text[], const char key[], uint64_t h)
{
  char v[32];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(v, sizeof(v), "%016llx", (unsigned long long)h));
  PetscCall(Line(text, key, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model: grid, steps, dt, and its identity (physics, boundaries and the linear solver as configured) */
static PetscErrorCode DescribeModel(Inverse *inv, char text[])
{
  char        v[512], id[256] = "";
  PetscInt    M[3];
  PetscInt64  n;
  PetscReal   dt;
  RwModelType type;
  DM          da;

  PetscFunctionBegin;
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, M[0], M[1], M[2]));
  PetscCall(Line(text, "grid", v));
  PetscCall(RwAdjointGetSteps(inv->adj, &n));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt64_FMT, n));
  PetscCall(Line(text, "steps", v));
  PetscCall(RwModelGetTimeStep(inv->model, &dt));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%.17g", (double)dt));
  PetscCall(Line(text, "dt", v));
  PetscCall(RwModelGetType(inv->model, &type));
  /* the model's identity names its linear solver as configured (type, preconditioner, tolerances), whatever set it */
  PetscCall(RwModelGetIdentity(inv->model, id, sizeof(id)));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%s (%s)", type, id));
  PetscCall(Line(text, "model", v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data: sensors, times, observations, noise levels, the experiments' known fields */
static PetscErrorCode DescribeData(Inverse *inv, char text[])
{
  uint64_t   h = 0;
  char       v[1024] = "";
  PetscInt   ns, nfields;
  PetscReal *r;

  PetscFunctionBegin;
  PetscCall(RwModelGetNumParameterScalars(inv->model, &ns));
  PetscCall(PetscMalloc1(ns + 1, &r));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT, inv->nexp));
  PetscCall(Line(text, "experiments", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " at %016llx", inv->nsensors, (unsigned long long)HashBytes(0, inv->coords, sizeof(PetscReal) * 2 * inv->nsensors)));
  PetscCall(Line(text, "sensors", v));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%" PetscInt_FMT " at %016llx", inv->ntimes, (unsigned long long)HashBytes(0, inv->steps, sizeof(PetscInt64) * inv->ntimes)));
  PetscCall(Line(text, "observation steps", v));
  for (PetscInt e = 0; e < inv->nexp; e++) h = HashBytes(h, inv->exp[e].data, sizeof(PetscReal) * inv->nobs);
  PetscCall(HashLine(text, "observations", h));
  v[0] = 0;
  for (PetscInt e = 0; e < inv->nexp; e++) PetscCall(PetscSNPrintf(v + strlen(v), sizeof(v) - strlen(v), "%s%.17g", e ? " " : "", (double)inv->exp[e].sigma));
  PetscCall(Line(text, "noise sigma", v));
  h = 0;
  PetscCall(RwModelGetParameterInfo(inv->model, &nfields, NULL, NULL));
  for (PetscInt e = 0; e < inv->nexp; e++) {
    uint64_t s;
    /* the fields the inversion does not overwrite: the unknown one is x */
    for (PetscInt f = 0; f < nfields; f++) {
      Vec fv;
      if (inv->target != INV_U0 && f == (inv->target == INV_KAPPA ? 0 : 1)) continue;
      PetscCall(RwModelGetParameterField(inv->model, inv->exp[e].m, f, &fv));
      PetscCall(FieldChecksum(inv, fv, &s));
      PetscCall(RwModelRestoreParameterField(inv->model, inv->exp[e].m, f, &fv));
      h = RwSplitMix64(h ^ s);
    }
    PetscCall(RwModelGetParameterScalars(inv->model, inv->exp[e].m, r)); /* one broadcast */
    for (PetscInt i = 0; i < ns; i++) h = HashBytes(h, &r[i], sizeof(r[i]));
    if (inv->target != INV_U0) {
      PetscCall(FieldChecksum(inv, inv->exp[e].u0, &s));
      h = RwSplitMix64(h ^ s);
    }
  }
  PetscCall(HashLine(text, "known fields of the experiments", h));
  PetscCall(PetscFree(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The inversion: target, start, regulariser, bounds, optimiser */
static PetscErrorCode DescribeInversion(Inverse *inv, Tao tao, char text[])
{
  char     v[256];
  uint64_t h, s;
  Vec      lb, ub;
  TaoType  type;

  PetscFunctionBegin;
  PetscCall(Line(text, "target", InvTargets[inv->target]));
  PetscCall(FieldChecksum(inv, inv->xinit, &h));
  PetscCall(HashLine(text, "start", h));
  PetscCall(PetscSNPrintf(v, sizeof(v), "%s, alpha %.17g, tv eps %.17g", RwRegTypes[inv->reg], (double)inv->alpha, (double)inv->tveps));
  PetscCall(Line(text, "regulariser", v));
  PetscCall(TaoGetVariableBounds(tao, &lb, &ub));
  h = 0;
  if (lb) PetscCall(FieldChecksum(inv, lb, &h));
  s = 0;
  if (ub) PetscCall(FieldChecksum(inv, ub, &s));
  if (lb && ub) {
    PetscReal lo, hi;
    PetscCall(VecMin(lb, NULL, &lo));
    PetscCall(VecMax(ub, NULL, &hi));
    PetscCall(PetscSNPrintf(v, sizeof(v), "[%.17g, %.17g], %016llx", (double)lo, (double)hi, (unsigned long long)RwSplitMix64(h ^ RwSplitMix64(s))));
  } else PetscCall(PetscSNPrintf(v, sizeof(v), "none"));
  PetscCall(Line(text, "bounds", v));
  PetscCall(TaoGetType(tao, &type));
  PetscCall(Line(text, "tao type", type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void RecordName(PetscInt64 i, PetscInt64 e, char name[], size_t len)
{
  snprintf(name, len, "eval-%06lld-exp-%02lld.rec", (long long)i, (long long)e);
}

/*
  On rank 0: writes name in the journal from parts, atomically (temporary
  file, fsync, rename, fsync of the directory).  torn > 0 (testing) writes
  only that many bytes to the temporary file and dies.
*/
static void WriteAtomic0(InvJournal j, const char name[], int nparts, const void *part[], const size_t size[], size_t torn, char msg[])
{
  char   tmp[INV_JOURNAL_PATHLEN], path[INV_JOURNAL_PATHLEN];
  int    fd, ok = 1;
  size_t done = 0;

  snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", j->dir, name);
  snprintf(path, sizeof(path), "%s/%s", j->dir, name);
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    snprintf(msg, INV_JOURNAL_MSGLEN, "Cannot create %s in the journal (-rw_inverse_state %s): %s", tmp, j->dir, strerror(errno));
    return;
  }
  for (int p = 0; p < nparts && ok; p++) {
    const char *c = (const char *)part[p];
    size_t      n = size[p];
    if (torn && done + n > torn) n = torn - done;
    while (n && ok) {
      ssize_t w = write(fd, c, n);
      if (w < 0 && errno == EINTR) continue;
      ok = w > 0;
      c += ok ? w : 0;
      n -= ok ? (size_t)w : 0;
      done += ok ? (size_t)w : 0;
    }
    if (torn && done >= torn) {
      (void)fsync(fd);
      raise(SIGKILL);
    }
  }
  if (!ok || fsync(fd)) ok = 0;
  if (close(fd)) ok = 0;
  if (!ok || rename(tmp, path)) {
    snprintf(msg, INV_JOURNAL_MSGLEN, "Cannot write %s in the journal (-rw_inverse_state %s): %s", path, j->dir, strerror(errno));
    return;
  }
  fd = open(j->dir, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    (void)fsync(fd); /* the rename itself survives a crash of the machine */
    close(fd);
  }
}

/* On rank 0: the whole of a journal file, or NULL if it does not exist (or msg says why not) */
static char *ReadAll0(const char path[], size_t *size, char msg[])
{
  FILE *fp = fopen(path, "rb");
  char *buf;
  long  n;

  *size = 0;
  if (!fp) {
    if (errno != ENOENT) snprintf(msg, INV_JOURNAL_MSGLEN, "Cannot read the journal's %s: %s", path, strerror(errno));
    return NULL;
  }
  if (fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) || !(buf = (char *)malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
    snprintf(msg, INV_JOURNAL_MSGLEN, "Cannot read the journal's %s", path);
    fclose(fp);
    return NULL;
  }
  fclose(fp);
  buf[n] = 0;
  *size  = (size_t)n;
  return buf;
}

/* On rank 0: the keys whose values differ between the journal's problem and this run's */
static void Differences0(const char here[], const char kept[], char msg[], size_t len)
{
  const char *l = here;

  msg[0] = 0;
  while (*l) {
    const char *colon = strstr(l, ": "), *end = strchr(l, '\n'), *k;
    char        key[128], want[1024] = "(absent)";
    size_t      kl;

    if (!colon || !end) break;
    kl = PetscMin((size_t)(colon - l), sizeof(key) - 1);
    memcpy(key, l, kl);
    key[kl] = 0;
    for (k = kept; k && *k; k = strchr(k, '\n') ? strchr(k, '\n') + 1 : NULL)
      if (!strncmp(k, l, kl + 2)) {
        const char *e = strchr(k, '\n');
        size_t      vl = e ? (size_t)(e - k) - kl - 2 : strlen(k) - kl - 2;
        vl             = PetscMin(vl, sizeof(want) - 1);
        memcpy(want, k + kl + 2, vl);
        want[vl] = 0;
        break;
      }
    if (strlen(want) != (size_t)(end - colon - 2) || strncmp(want, colon + 2, (size_t)(end - colon - 2))) {
      size_t o = strlen(msg);
      snprintf(msg + o, len - o, "%s%s is %.*s here but %s in the journal", o ? "; " : "", key, (int)(end - colon - 2), colon + 2, want);
    }
    l = end + 1;
  }
}

/* On rank 0: "problem" as it should be: the description and its checksum line */
static void ProblemFile0(InvJournal j, char out[], size_t len)
{
  snprintf(out, len, "%schecksum: %016llx\n", j->text, (unsigned long long)j->problem);
}

/* On rank 0: is there a journal, and does it describe this problem? */
static void CheckKept0(InvJournal j, int *exists, char msg[])
{
  char   path[INV_JOURNAL_PATHLEN], want[INV_JOURNAL_TEXTLEN + 64], diff[PETSC_MAX_PATH_LEN];
  size_t n;
  char  *kept;

  snprintf(path, sizeof(path), "%s/problem", j->dir);
  kept    = ReadAll0(path, &n, msg);
  *exists = kept != NULL;
  if (!kept) return;
  ProblemFile0(j, want, sizeof(want));
  if (strcmp(kept, want)) {
    const char *c = strstr(kept, "checksum: ");
    char        body[INV_JOURNAL_TEXTLEN + 64] = "";
    if (c && (size_t)(c - kept) < sizeof(body)) memcpy(body, kept, (size_t)(c - kept));
    if (!c || strtoull(c + 10, NULL, 16) != HashBytes(0, body, strlen(body))) snprintf(msg, INV_JOURNAL_MSGLEN, "The journal's %s is damaged (its checksum line does not match its text): refusing to resume from it; remove the directory %s or give -rw_inverse_state_overwrite", path, j->dir);
    else {
      Differences0(j->text, body, diff, sizeof(diff));
      snprintf(msg, INV_JOURNAL_MSGLEN, "The journal %s (-rw_inverse_state) belongs to a different problem: %s. Resume with the same data and options, or give -rw_inverse_state_overwrite to discard it", j->dir, diff[0] ? diff : "the descriptions differ");
    }
  }
  free(kept);
}

/* On rank 0: removes the records from evaluation `from` on (and the problem file if from == 0) */
static void Remove0(InvJournal j, PetscInt64 from)
{
  DIR           *d = opendir(j->dir);
  struct dirent *ent;
  char           path[INV_JOURNAL_PATHLEN + 256];

  if (!d) return;
  while ((ent = readdir(d))) {
    long long i, e;
    char      tail;
    int       rec = sscanf(ent->d_name, "eval-%lld-exp-%lld.re%c", &i, &e, &tail) == 3 && tail == 'c';
    int       tmp = !from && ent->d_name[0] == '.' && strstr(ent->d_name, ".tmp");
    if ((rec && i >= from) || tmp) {
      snprintf(path, sizeof(path), "%s/%s", j->dir, ent->d_name);
      unlink(path);
    }
  }
  closedir(d);
  if (!from) {
    snprintf(path, sizeof(path), "%s/problem", j->dir);
    unlink(path);
  }
}

static PetscErrorCode ReadJournalOptions(InvJournal j, const char output[])
{
  PetscFunctionBegin;
  if (output && output[0]) PetscCall(PetscSNPrintf(j->dir, sizeof(j->dir), "%s.state", output));
  else PetscCall(PetscStrncpy(j->dir, "rewind-heat-inverse.state", sizeof(j->dir)));
  j->killat = -1;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Resumable inversion", "rewind-heat-inverse");
  PetscCall(PetscOptionsString("-rw_inverse_state", "Directory of the evaluation journal (default <-rw_output>.state, or rewind-heat-inverse.state without -rw_output)", NULL, j->dir, j->dir, sizeof(j->dir), NULL));
  PetscCall(PetscOptionsBool("-rw_restart", "Resume the inversion from its journal (and the interrupted solve from its hdf5 store)", NULL, j->restart, &j->restart, NULL));
  PetscCall(PetscOptionsBool("-rw_inverse_state_overwrite", "Discard an existing journal instead of refusing to run (without -rw_restart, or when it belongs to another problem)", NULL, j->overwrite, &j->overwrite, NULL));
  PetscCall(PetscOptionsBool("-rw_inverse_state_keep", "Keep the journal after the run completes (default: remove it)", NULL, j->keep, &j->keep, NULL));
  PetscCall(RwOptionsInt("-rw_debug_kill_at_evaluation", "Testing: SIGKILL right after evaluation i's records are written", NULL, j->killat, &j->killat, NULL, -1, PETSC_MAX_INT));
  PetscCall(RwOptionsBool("-rw_debug_kill_torn", "Testing: with -rw_debug_kill_at_evaluation, die half way through writing that evaluation's last record instead", NULL, j->torn, &j->torn, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: opens the journal directory for this run, or says why not */
static void Open0(InvJournal j, char msg[])
{
  int exists = 0;

  if (mkdir(j->dir, 0755) && errno != EEXIST) {
    snprintf(msg, INV_JOURNAL_MSGLEN, "Cannot create the journal directory %s (-rw_inverse_state): %s", j->dir, strerror(errno));
    return;
  }
  CheckKept0(j, &exists, msg);
  if (exists && !j->restart && !j->overwrite) {
    snprintf(msg, INV_JOURNAL_MSGLEN, "The journal %s (-rw_inverse_state) holds an earlier run's evaluations: resume it with -rw_restart, or give -rw_inverse_state_overwrite to discard it (refusing to destroy it silently)", j->dir);
    return;
  }
  if (msg[0] && !j->overwrite) return;
  if (msg[0] || (exists && !j->restart)) {
    fprintf(stderr, "rewind-heat-inverse: -rw_inverse_state_overwrite: discarding the journal %s%s%s\n", j->dir, msg[0] ? ": " : "", msg);
    msg[0] = 0;
    Remove0(j, 0);
    exists = 0;
  }
  if (!exists) {
    char        text[INV_JOURNAL_TEXTLEN + 64];
    const void *part[1] = {text};
    size_t      size[1];
    if (j->restart) fprintf(stderr, "rewind-heat-inverse: -rw_restart found no journal in %s; starting from evaluation 0\n", j->dir);
    Remove0(j, 0); /* records without a problem file are no one's */
    ProblemFile0(j, text, sizeof(text));
    size[0] = strlen(text);
    WriteAtomic0(j, "problem", 1, part, size, 0, msg);
  }
  j->replay = (PetscBool)(exists && j->restart);
}

/*
  InvJournalSetUp - the journal of this inversion: describes the problem,
  refuses a kept journal of another problem or one not asked to be resumed,
  and with -rw_restart starts replaying it.  Called once TAO is configured.
*/
PetscErrorCode InvJournalSetUp(Inverse *inv, Tao tao, const char output[])
{
  InvJournal  j;
  DM          da;
  PetscMPIInt rank;
  char        msg[INV_JOURNAL_MSGLEN] = "";

  PetscFunctionBegin;
  if (!INV_JOURNAL_WRITE) {
    PetscClassId id;
    PetscCall(PetscClassIdRegister("InvJournal", &id));
    PetscCall(PetscLogEventRegister("InvJournalWrite", id, &INV_JOURNAL_WRITE));
    PetscCall(PetscLogEventRegister("InvJournalRead", id, &INV_JOURNAL_READ));
  }
  PetscCall(PetscNew(&j));
  inv->journal = j;
  PetscCall(ReadJournalOptions(j, output));
  PetscCall(DescribeModel(inv, j->text));
  PetscCall(DescribeData(inv, j->text));
  PetscCall(DescribeInversion(inv, tao, j->text));
  j->problem = HashBytes(0, j->text, strlen(j->text));
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMCreateGlobalVector(da, &j->w));
  PetscCall(DMDACreateNaturalVector(da, &j->natural));
  PetscCall(VecScatterCreateToZero(j->natural, &j->tozero, &j->seq));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) Open0(j, msg);
  PetscCall(Agree(msg, PETSC_ERR_FILE_UNEXPECTED));
  PetscCallMPI(MPI_Bcast(&j->replay, 1, MPIU_BOOL, 0, PETSC_COMM_WORLD));
  if (j->replay) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "rewind-heat-inverse: -rw_restart replays the journal %s\n", j->dir));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvJournalBeginEvaluation - a new evaluation at x: its checksum, for the records */
PetscErrorCode InvJournalBeginEvaluation(Inverse *inv, Vec x)
{
  PetscFunctionBegin;
  PetscCall(FieldChecksum(inv, x, &inv->journal->xsum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: a record read and checked: 0 absent, 1 usable, 2 refused (msg says why) */
static int Load0(InvJournal j, PetscInt64 e, InvRecordHead *head, PetscScalar *g, PetscInt64 N, char msg[])
{
  char          name[64], path[INV_JOURNAL_PATHLEN];
  size_t        size, want = sizeof(InvRecordHead) + 8 * (size_t)N + 8;
  char         *buf;
  uint64_t      sum;
  const char   *why = NULL;

  RecordName(j->eval, e, name, sizeof(name));
  snprintf(path, sizeof(path), "%s/%s", j->dir, name);
  buf = ReadAll0(path, &size, msg);
  if (!buf && msg[0]) {
    size_t n = strlen(msg);
    snprintf(msg + n, INV_JOURNAL_MSGLEN - n, ": refusing it; evaluation %lld, experiment %lld is computed again\n", (long long)j->eval, (long long)e);
  }
  if (!buf) return msg[0] ? 2 : 0;
  if (size != want) why = "its size is not that of a record of this grid";
  else {
    memcpy(head, buf, sizeof(*head));
    memcpy(&sum, buf + size - 8, 8);
    if (memcmp(head->magic, magic, 8)) why = "it is not a journal record";
    else if (head->problem != j->problem) why = "it belongs to another problem";
    else if (head->eval != (uint64_t)j->eval || head->exp != (uint64_t)e || head->n != (uint64_t)N) why = "its header names another evaluation, experiment or size";
    else if (sum != HashWords(j->problem, buf, (size - 8) / 8)) why = "its checksum does not match its contents";
  }
  if (why) snprintf(msg, INV_JOURNAL_MSGLEN, "rewind-heat-inverse: refusing the journal record %s: %s (%zu bytes); evaluation %lld, experiment %lld is computed again\n", path, why, size, (long long)j->eval, (long long)e);
  else memcpy(g, buf + sizeof(*head), 8 * (size_t)N);
  free(buf);
  return why ? 2 : 1;
}

/* The replay stops for good: the rest of the run computes */
static PetscErrorCode EndReplay(Inverse *inv, PetscInt64 e, const char why[])
{
  InvJournal j = inv->journal;

  PetscFunctionBegin;
  j->replay = PETSC_FALSE;
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "rewind-heat-inverse: -rw_restart used %" PetscInt64_FMT " journal records; %s; solving from evaluation %" PetscInt64_FMT ", experiment %" PetscInt64_FMT "\n", j->replayed, why, j->eval, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The iterate is not the interrupted run's: its later records are of no use */
static PetscErrorCode Depart(Inverse *inv, PetscInt64 e, uint64_t recorded)
{
  InvJournal  j = inv->journal;
  PetscMPIInt rank;
  char        why[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(why, sizeof(why), "the resumed run departs from the interrupted one at evaluation %" PetscInt64_FMT ": its iterate's checksum %016llx differs from %016llx recorded (another number of ranks, or other TAO options, round differently)", j->eval, (unsigned long long)j->xsum, (unsigned long long)recorded));
  PetscCall(EndReplay(inv, e, why));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) Remove0(j, j->eval);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The record's field, read on rank 0 in natural order, into the distributed w */
static PetscErrorCode FromRank0(Inverse *inv)
{
  InvJournal j = inv->journal;
  DM         da;

  PetscFunctionBegin;
  PetscCall(VecScatterBegin(j->tozero, j->seq, j->natural, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(j->tozero, j->seq, j->natural, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDANaturalToGlobalBegin(da, j->natural, INSERT_VALUES, j->w));
  PetscCall(DMDANaturalToGlobalEnd(da, j->natural, INSERT_VALUES, j->w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvJournalLookup - while replaying, experiment e's J_e and gradient
  contribution (in *w) at this evaluation, if the journal has them at this x;
  otherwise *w is where the caller puts them
*/
PetscErrorCode InvJournalLookup(Inverse *inv, PetscInt64 e, PetscReal *Je, Vec *w, PetscBool *found)
{
  InvJournal     j = inv->journal;
  InvRecordHead  head;
  PetscInt       N;
  PetscMPIInt    rank;
  PetscScalar   *g;
  PetscLogDouble now;
  char           msg[INV_JOURNAL_MSGLEN] = "";
  int            status                  = 0;

  PetscFunctionBegin;
  *w     = j->w;
  *found = PETSC_FALSE;
  if (!j->replay) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(INV_JOURNAL_READ, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&head, sizeof(head)));
  PetscCall(VecGetSize(j->natural, &N));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(VecGetArray(j->seq, &g));
  if (!rank) status = Load0(j, e, &head, g, N, msg);
  PetscCall(VecRestoreArray(j->seq, &g));
  PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&head, sizeof(head), MPI_BYTE, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(msg, sizeof(msg), MPI_CHAR, 0, PETSC_COMM_WORLD));
  if (status == 0) PetscCall(EndReplay(inv, e, "the journal ends here"));
  if (status == 2) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "%s", msg)); /* and the replay goes on */
  if (status == 1 && head.xsum != j->xsum) PetscCall(Depart(inv, e, head.xsum));
  if (status == 1 && j->replay) PetscCall(FromRank0(inv));
  PetscCall(PetscLogEventEnd(INV_JOURNAL_READ, 0, 0, 0, 0));
  if (status != 1 || !j->replay) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&now));
  inv->t0 = now - head.seconds; /* the history's seconds are the interrupted run's */
  *Je     = head.J;
  *found  = PETSC_TRUE;
  j->replayed++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvJournalRecord - keeps experiment e's J_e and gradient contribution w of
  this evaluation, durably, before the next solve starts
*/
PetscErrorCode InvJournalRecord(Inverse *inv, PetscInt64 e, PetscReal Je, Vec w)
{
  InvJournal         j = inv->journal;
  InvRecordHead      head;
  PetscInt           N;
  PetscMPIInt        rank;
  PetscLogDouble     now;
  DM                 da;
  char               msg[INV_JOURNAL_MSGLEN] = "", name[64];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(INV_JOURNAL_WRITE, 0, 0, 0, 0));
  PetscCall(RwModelGetStateDM(inv->model, &da));
  PetscCall(DMDAGlobalToNaturalBegin(da, w, INSERT_VALUES, j->natural));
  PetscCall(DMDAGlobalToNaturalEnd(da, w, INSERT_VALUES, j->natural));
  PetscCall(VecScatterBegin(j->tozero, j->natural, j->seq, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(j->tozero, j->natural, j->seq, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(j->natural, &N));
  PetscCall(PetscTime(&now));
  PetscCall(PetscMemzero(&head, sizeof(head)));
  memcpy(head.magic, magic, 8);
  head.problem = j->problem;
  head.eval    = (uint64_t)j->eval;
  head.exp     = (uint64_t)e;
  head.xsum    = j->xsum;
  head.J       = Je;
  head.seconds = now - inv->t0;
  head.n       = (uint64_t)N;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    const PetscScalar *g;
    uint64_t           sum;
    size_t             size[3] = {sizeof(head), 8 * (size_t)N, 8}, torn = 0;
    const void        *part[3];

    PetscCall(VecGetArrayRead(j->seq, &g));
    sum     = HashWords(HashWords(j->problem, &head, sizeof(head) / 8), g, (size_t)N);
    part[0] = &head;
    part[1] = g;
    part[2] = &sum;
    if (j->torn && j->eval == j->killat && e == inv->nexp - 1) torn = (size[0] + size[1] + size[2]) / 2;
    RecordName(j->eval, e, name, sizeof(name));
    WriteAtomic0(j, name, 3, part, size, torn, msg);
    PetscCall(VecRestoreArrayRead(j->seq, &g));
  }
  PetscCall(PetscLogEventEnd(INV_JOURNAL_WRITE, 0, 0, 0, 0));
  PetscCall(Agree(msg, PETSC_ERR_FILE_WRITE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvJournalEndEvaluation - the evaluation is complete (and, testing, the process may die here) */
PetscErrorCode InvJournalEndEvaluation(Inverse *inv)
{
  InvJournal j = inv->journal;

  PetscFunctionBegin;
  if (j->eval == j->killat && !j->replay && !j->torn) {
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    raise(SIGKILL);
  }
  j->eval++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InvJournalComplete - the optimisation finished: the journal may go once the outputs are written */
PetscErrorCode InvJournalComplete(Inverse *inv)
{
  InvJournal j = inv->journal;

  PetscFunctionBegin;
  if (j->replay) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "rewind-heat-inverse: -rw_restart used %" PetscInt64_FMT " journal records, all that were needed: nothing was solved\n", j->replayed));
  j->completed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  InvJournalDestroy - removes the journal of a completed run (its own files
  only, and the directory if that leaves it empty) unless -rw_inverse_state_keep
*/
PetscErrorCode InvJournalDestroy(Inverse *inv)
{
  InvJournal  j = inv->journal;
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!j) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank && j->completed && !j->keep) {
    Remove0(j, 0);
    (void)rmdir(j->dir);
  }
  PetscCall(VecDestroy(&j->w));
  PetscCall(VecDestroy(&j->natural));
  PetscCall(VecDestroy(&j->seq));
  PetscCall(VecScatterDestroy(&j->tozero));
  PetscCall(PetscFree(inv->journal));
  PetscFunctionReturn(PETSC_SUCCESS);
}
