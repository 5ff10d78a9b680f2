/*
  The evaluation journal: what makes an inversion resumable (doc/inverse.md),
  shared by rewind-heat-inverse and rewind-fwi.

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
                                (the app's description)
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
#include "journal.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define RW_JOURNAL_MSGLEN  (3 * PETSC_MAX_PATH_LEN)
#define RW_JOURNAL_PATHLEN (PETSC_MAX_PATH_LEN + 64)
#define RW_JOURNAL_TEXTLEN 8192

typedef struct {
  char     magic[8];
  uint64_t problem, eval, exp, xsum;
  double   J, seconds;
  uint64_t n;
} RwJournalHead;

struct _n_RwAppJournal {
  char       app[64], opt[3][64];       /* the program; its journal's options: the directory, _overwrite, _keep */
  char       dir[PETSC_MAX_PATH_LEN];
  char       text[RW_JOURNAL_TEXTLEN]; /* the problem, as the file "problem" holds it */
  uint64_t   problem;                   /* a hash of text */
  PetscBool  restart, overwrite, keep, torn, replay, completed;
  PetscInt   killat;        /* -rw_debug_kill_at_evaluation */
  PetscInt64 eval;          /* the evaluation in progress */
  PetscInt64 replayed;      /* records used */
  uint64_t   xsum;          /* checksum of this evaluation's iterate */
  PetscInt   nexp;          /* experiments an evaluation records */
  PetscLogDouble *t0;       /* the app's clock: a replayed record sets it back */
  DM         da;            /* the grid of the records' fields */
  Vec        w, natural, seq; /* a contribution: global, natural order, natural on rank 0 */
  VecScatter tozero;
};

static const char magic[8] = {'R', 'W', 'I', 'N', 'V', 'J', '0', '1'};

/* -log_view shows what the journal costs beside the solves */
static PetscLogEvent RW_JOURNAL_WRITE, RW_JOURNAL_READ;

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
  PetscCallMPI(MPI_Bcast(msg, RW_JOURNAL_MSGLEN, MPI_CHAR, 0, PETSC_COMM_WORLD));
  PetscCheck(!msg[0], PETSC_COMM_WORLD, code, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwAppJournalChecksum - a checksum of a field on the journal's grid that does not depend on the decomposition */
PetscErrorCode RwAppJournalChecksum(RwAppJournal j, Vec v, uint64_t *sum)
{
  DM                 da = j->da;
  PetscInt           M[3], s[3], c[3];
  const PetscScalar *a;
  uint64_t           local;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &c[0], &c[1], &c[2]));
  PetscCall(VecGetArrayRead(v, &a));
  local = RwChecksumBlock(M, s, c, 1, a);
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCallMPI(MPI_Allreduce(&local, sum, 1, MPI_UINT64_T, MPI_SUM, PETSC_COMM_WORLD));
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
static void WriteAtomic0(RwAppJournal j, const char name[], int nparts, const void *part[], const size_t size[], size_t torn, char msg[])
{
  char   tmp[RW_JOURNAL_PATHLEN], path[RW_JOURNAL_PATHLEN];
  int    fd, ok = 1;
  size_t done = 0;

  snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", j->dir, name);
  snprintf(path, sizeof(path), "%s/%s", j->dir, name);
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot create %s in the journal (%s %s): %s", tmp, j->opt[0], j->dir, strerror(errno));
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
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot write %s in the journal (%s %s): %s", path, j->opt[0], j->dir, strerror(errno));
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
    if (errno != ENOENT) snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot read the journal's %s: %s", path, strerror(errno));
    return NULL;
  }
  if (fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) || !(buf = (char *)malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot read the journal's %s", path);
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
static void ProblemFile0(RwAppJournal j, char out[], size_t len)
{
  snprintf(out, len, "%schecksum: %016llx\n", j->text, (unsigned long long)j->problem);
}

/* On rank 0: is there a journal, and does it describe this problem? */
static void CheckKept0(RwAppJournal j, int *exists, char msg[])
{
  char   path[RW_JOURNAL_PATHLEN], want[RW_JOURNAL_TEXTLEN + 64], diff[PETSC_MAX_PATH_LEN];
  size_t n;
  char  *kept;

  snprintf(path, sizeof(path), "%s/problem", j->dir);
  kept    = ReadAll0(path, &n, msg);
  *exists = kept != NULL;
  if (!kept) return;
  ProblemFile0(j, want, sizeof(want));
  if (strcmp(kept, want)) {
    const char *c = strstr(kept, "checksum: ");
    char        body[RW_JOURNAL_TEXTLEN + 64] = "";
    if (c && (size_t)(c - kept) < sizeof(body)) memcpy(body, kept, (size_t)(c - kept));
    if (!c || strtoull(c + 10, NULL, 16) != RwHashBytes(0, body, strlen(body))) snprintf(msg, RW_JOURNAL_MSGLEN, "The journal's %s is damaged (its checksum line does not match its text): refusing to resume from it; remove the directory %s or give %s", path, j->dir, j->opt[1]);
    else {
      Differences0(j->text, body, diff, sizeof(diff));
      snprintf(msg, RW_JOURNAL_MSGLEN, "The journal %s (%s) belongs to a different problem: %s. Resume with the same data and options, or give %s to discard it", j->dir, j->opt[0], diff[0] ? diff : "the descriptions differ", j->opt[1]);
    }
  }
  free(kept);
}

/* On rank 0: removes the records from evaluation `from` on (and the problem file if from == 0) */
static void Remove0(RwAppJournal j, PetscInt64 from)
{
  DIR           *d = opendir(j->dir);
  struct dirent *ent;
  char           path[RW_JOURNAL_PATHLEN + 256];

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

/* The journal's options: the app's names for them (-rw_inverse_state, -rw_inverse_state_overwrite, -rw_inverse_state_keep), and -rw_restart */
static PetscErrorCode ReadJournalOptions(RwAppJournal j, const char output[], PetscBool always)
{
  char help[256];

  PetscFunctionBegin;
  if (output && output[0]) PetscCall(PetscSNPrintf(j->dir, sizeof(j->dir), "%s.state", output));
  else if (always) PetscCall(PetscSNPrintf(j->dir, sizeof(j->dir), "%s.state", j->app));
  j->killat = -1;
  PetscCall(PetscSNPrintf(help, sizeof(help), "Directory of the evaluation journal (default <-rw_output>.state%s)", always ? ", or <program>.state without -rw_output" : "; none without -rw_output"));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Resumable inversion", j->app);
  PetscCall(PetscOptionsString(j->opt[0], help, NULL, j->dir, j->dir, sizeof(j->dir), NULL));
  PetscCall(PetscOptionsBool("-rw_restart", "Resume the inversion from its journal (and the interrupted solve from its hdf5 store)", NULL, j->restart, &j->restart, NULL));
  PetscCall(PetscOptionsBool(j->opt[1], "Discard an existing journal instead of refusing to run (without -rw_restart, or when it belongs to another problem)", NULL, j->overwrite, &j->overwrite, NULL));
  PetscCall(PetscOptionsBool(j->opt[2], "Keep the journal after the run completes (default: remove it)", NULL, j->keep, &j->keep, NULL));
  PetscCall(RwOptionsInt("-rw_debug_kill_at_evaluation", "Testing: SIGKILL right after evaluation i's records are written", NULL, j->killat, &j->killat, NULL, -1, PETSC_MAX_INT));
  PetscCall(RwOptionsBool("-rw_debug_kill_torn", "Testing: with -rw_debug_kill_at_evaluation, die half way through writing that evaluation's last record instead", NULL, j->torn, &j->torn, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: opens the journal directory for this run, or says why not */
static void Open0(RwAppJournal j, char msg[])
{
  int exists = 0;

  if (mkdir(j->dir, 0755) && errno != EEXIST) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot create the journal directory %s (%s): %s", j->dir, j->opt[0], strerror(errno));
    return;
  }
  CheckKept0(j, &exists, msg);
  if (exists && !j->restart && !j->overwrite) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "The journal %s (%s) holds an earlier run's evaluations: resume it with -rw_restart, or give %s to discard it (refusing to destroy it silently)", j->dir, j->opt[0], j->opt[1]);
    return;
  }
  if (msg[0] && !j->overwrite) return;
  if (msg[0] || (exists && !j->restart)) {
    fprintf(stderr, "%s: %s: discarding the journal %s%s%s\n", j->app, j->opt[1], j->dir, msg[0] ? ": " : "", msg);
    msg[0] = 0;
    Remove0(j, 0);
    exists = 0;
  }
  if (!exists) {
    char        text[RW_JOURNAL_TEXTLEN + 64];
    const void *part[1] = {text};
    size_t      size[1];
    if (j->restart) fprintf(stderr, "%s: -rw_restart found no journal in %s; starting from evaluation 0\n", j->app, j->dir);
    Remove0(j, 0); /* records without a problem file are no one's */
    ProblemFile0(j, text, sizeof(text));
    size[0] = strlen(text);
    WriteAtomic0(j, "problem", 1, part, size, 0, msg);
  }
  j->replay = (PetscBool)(exists && j->restart);
}

/*@C
  RwAppJournalCreate - an inversion's evaluation journal (doc/inverse.md):
  reads its options (the app names them: its directory, its _overwrite and
  its _keep; and -rw_restart); the records' fields live on da (one value a point).  Its
  directory defaults to <output>.state, or with always to <app>.state; without
  either the journal is off (RwAppJournalEnabled()) and every call does
  nothing.  Describe the problem (RwAppJournalAddLine() ...) then open it
  (RwAppJournalOpen()).

  Input Parameters:
+ app    - the program's name, for messages
. opt    - the names of its options: the directory, discard, keep
           (-rw_inverse_state, -rw_inverse_state_overwrite, -rw_inverse_state_keep)
. output - the run's -rw_output prefix, or NULL
. always - whether the journal is on without -rw_output and opt[0]
. da     - the DMDA of the unknown field and of the records' contributions
. nexp   - the experiments an evaluation records (0 .. nexp - 1)
- t0     - the app's clock: a replayed record puts it back to the interrupted run's
@*/
PetscErrorCode RwAppJournalCreate(const char app[], const char *const opt[3], const char output[], PetscBool always, DM da, PetscInt nexp, PetscLogDouble *t0, RwAppJournal *jp)
{
  RwAppJournal j;

  PetscFunctionBegin;
  if (!RW_JOURNAL_WRITE) {
    PetscClassId id;
    PetscCall(PetscClassIdRegister("Journal", &id));
    PetscCall(PetscLogEventRegister("JournalWrite", id, &RW_JOURNAL_WRITE));
    PetscCall(PetscLogEventRegister("JournalRead", id, &RW_JOURNAL_READ));
  }
  PetscCall(PetscNew(&j));
  *jp = j;
  PetscCall(PetscStrncpy(j->app, app, sizeof(j->app)));
  for (PetscInt i = 0; i < 3; i++) PetscCall(PetscStrncpy(j->opt[i], opt[i], sizeof(j->opt[i])));
  j->da = da, j->nexp = nexp, j->t0 = t0;
  PetscCall(ReadJournalOptions(j, output, always));
  if (!j->dir[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMCreateGlobalVector(da, &j->w));
  PetscCall(DMDACreateNaturalVector(da, &j->natural));
  PetscCall(VecScatterCreateToZero(j->natural, &j->tozero, &j->seq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwAppJournalEnabled - whether the run keeps a journal */
PetscBool RwAppJournalEnabled(RwAppJournal j)
{
  return j->dir[0] ? PETSC_TRUE : PETSC_FALSE;
}

/* RwAppJournalAddLine - a line "key: value" of the problem's description: what decides the records' values */
PetscErrorCode RwAppJournalAddLine(RwAppJournal j, const char key[], const char value[])
{
  size_t n = strlen(j->text);

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(j->text + n, RW_JOURNAL_TEXTLEN - n, "%s: %s\n", key, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwAppJournalAddHash - a line "key: h" (16 hex digits) */
PetscErrorCode RwAppJournalAddHash(RwAppJournal j, const char key[], uint64_t h)
{
  char v[32];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(v, sizeof(v), "%016llx", (unsigned long long)h));
  PetscCall(RwAppJournalAddLine(j, key, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalOpen - once the problem is described: refuses a kept journal
  of another problem or one not asked to be resumed, and with -rw_restart
  starts replaying it
*/
PetscErrorCode RwAppJournalOpen(RwAppJournal j)
{
  PetscMPIInt rank;
  char        msg[RW_JOURNAL_MSGLEN] = "";

  PetscFunctionBegin;
  if (!j->dir[0]) PetscFunctionReturn(PETSC_SUCCESS);
  j->problem = RwHashBytes(0, j->text, strlen(j->text));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) Open0(j, msg);
  PetscCall(Agree(msg, PETSC_ERR_FILE_UNEXPECTED));
  PetscCallMPI(MPI_Bcast(&j->replay, 1, MPIU_BOOL, 0, PETSC_COMM_WORLD));
  if (j->replay) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "%s: -rw_restart replays the journal %s\n", j->app, j->dir));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwAppJournalBeginEvaluation - a new evaluation at x (salt: what else tells it apart, such as a data band): its checksum, for the records */
PetscErrorCode RwAppJournalBeginEvaluation(RwAppJournal j, Vec x, uint64_t salt)
{
  PetscFunctionBegin;
  if (!j->dir[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwAppJournalChecksum(j, x, &j->xsum));
  j->xsum = salt ? RwSplitMix64(j->xsum ^ salt) : j->xsum;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: a record read and checked: 0 absent, 1 usable, 2 refused (msg says why) */
static int Load0(RwAppJournal j, PetscInt64 e, RwJournalHead *head, PetscScalar *g, PetscInt64 N, char msg[])
{
  char          name[64], path[RW_JOURNAL_PATHLEN];
  size_t        size, want = sizeof(RwJournalHead) + 8 * (size_t)N + 8;
  char         *buf;
  uint64_t      sum;
  const char   *why = NULL;

  RecordName(j->eval, e, name, sizeof(name));
  snprintf(path, sizeof(path), "%s/%s", j->dir, name);
  buf = ReadAll0(path, &size, msg);
  if (!buf && msg[0]) {
    size_t n = strlen(msg);
    snprintf(msg + n, RW_JOURNAL_MSGLEN - n, ": refusing it; evaluation %lld, experiment %lld is computed again\n", (long long)j->eval, (long long)e);
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
  if (why) snprintf(msg, RW_JOURNAL_MSGLEN, "%s: refusing the journal record %s: %s (%zu bytes); evaluation %lld, experiment %lld is computed again\n", j->app, path, why, size, (long long)j->eval, (long long)e);
  else memcpy(g, buf + sizeof(*head), 8 * (size_t)N);
  free(buf);
  return why ? 2 : 1;
}

/* The replay stops for good: the rest of the run computes */
static PetscErrorCode EndReplay(RwAppJournal j, PetscInt64 e, const char why[])
{
  PetscFunctionBegin;
  j->replay = PETSC_FALSE;
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "%s: -rw_restart used %" PetscInt64_FMT " journal records; %s; solving from evaluation %" PetscInt64_FMT ", experiment %" PetscInt64_FMT "\n", j->app, j->replayed, why, j->eval, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The iterate is not the interrupted run's: its later records are of no use */
static PetscErrorCode Depart(RwAppJournal j, PetscInt64 e, uint64_t recorded)
{
  PetscMPIInt rank;
  char        why[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(why, sizeof(why), "the resumed run departs from the interrupted one at evaluation %" PetscInt64_FMT ": its iterate's checksum %016llx differs from %016llx recorded (another number of ranks, or other TAO options, round differently)", j->eval, (unsigned long long)j->xsum, (unsigned long long)recorded));
  PetscCall(EndReplay(j, e, why));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) Remove0(j, j->eval);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The record's field, read on rank 0 in natural order, into the distributed w */
static PetscErrorCode FromRank0(RwAppJournal j)
{

  PetscFunctionBegin;
  PetscCall(VecScatterBegin(j->tozero, j->seq, j->natural, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(j->tozero, j->seq, j->natural, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(DMDANaturalToGlobalBegin(j->da, j->natural, INSERT_VALUES, j->w));
  PetscCall(DMDANaturalToGlobalEnd(j->da, j->natural, INSERT_VALUES, j->w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A lookup; peek: a record missing is not where the journal ends */
static PetscErrorCode Lookup(RwAppJournal j, PetscInt64 e, PetscBool peek, PetscReal *Je, Vec *w, PetscBool *found)
{
  RwJournalHead  head;
  PetscInt       N;
  PetscMPIInt    rank;
  PetscScalar   *g;
  PetscLogDouble now;
  char           msg[RW_JOURNAL_MSGLEN] = "";
  int            status                  = 0;

  PetscFunctionBegin;
  *w     = j->w;
  *found = PETSC_FALSE;
  if (!j->replay) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(RW_JOURNAL_READ, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&head, sizeof(head)));
  PetscCall(VecGetSize(j->natural, &N));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(VecGetArray(j->seq, &g));
  if (!rank) status = Load0(j, e, &head, g, N, msg);
  PetscCall(VecRestoreArray(j->seq, &g));
  PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&head, sizeof(head), MPI_BYTE, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(msg, sizeof(msg), MPI_CHAR, 0, PETSC_COMM_WORLD));
  if (status == 0 && !peek) PetscCall(EndReplay(j, e, "the journal ends here"));
  if (status == 2) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "%s", msg)); /* and the replay goes on */
  if (status == 1 && head.xsum != j->xsum) PetscCall(Depart(j, e, head.xsum));
  if (status == 1 && j->replay) PetscCall(FromRank0(j));
  PetscCall(PetscLogEventEnd(RW_JOURNAL_READ, 0, 0, 0, 0));
  if (status != 1 || !j->replay) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&now));
  *j->t0 = now - head.seconds; /* the history's seconds are the interrupted run's */
  *Je     = head.J;
  *found  = PETSC_TRUE;
  j->replayed++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalLookup - while replaying, experiment e's J_e and gradient
  contribution (in *w) at this evaluation, if the journal has them at this x;
  otherwise *w is where the caller puts them.  A record missing ends the replay
*/
PetscErrorCode RwAppJournalLookup(RwAppJournal j, PetscInt64 e, PetscReal *Je, Vec *w, PetscBool *found)
{
  PetscFunctionBegin;
  PetscCall(Lookup(j, e, PETSC_FALSE, Je, w, found));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalPeek - RwAppJournalLookup() of a record that may be missing
  without the replay ending there: a sum that stands for experiments
  recorded one by one (RwAppJournalForget())
*/
PetscErrorCode RwAppJournalPeek(RwAppJournal j, PetscInt64 e, PetscReal *Je, Vec *w, PetscBool *found)
{
  PetscFunctionBegin;
  PetscCall(Lookup(j, e, PETSC_TRUE, Je, w, found));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalRecord - keeps experiment e's J_e and gradient contribution w of
  this evaluation, durably, before the next solve starts
*/
PetscErrorCode RwAppJournalRecord(RwAppJournal j, PetscInt64 e, PetscReal Je, Vec w)
{
  RwJournalHead      head;
  PetscInt           N;
  PetscMPIInt        rank;
  PetscLogDouble     now;
  char               msg[RW_JOURNAL_MSGLEN] = "", name[64];

  PetscFunctionBegin;
  if (!j->dir[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(RW_JOURNAL_WRITE, 0, 0, 0, 0));
  PetscCall(DMDAGlobalToNaturalBegin(j->da, w, INSERT_VALUES, j->natural));
  PetscCall(DMDAGlobalToNaturalEnd(j->da, w, INSERT_VALUES, j->natural));
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
  head.seconds = now - *j->t0;
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
    if (j->torn && j->eval == j->killat && e == j->nexp - 1) torn = (size[0] + size[1] + size[2]) / 2;
    RecordName(j->eval, e, name, sizeof(name));
    WriteAtomic0(j, name, 3, part, size, torn, msg);
    PetscCall(VecRestoreArrayRead(j->seq, &g));
  }
  PetscCall(PetscLogEventEnd(RW_JOURNAL_WRITE, 0, 0, 0, 0));
  PetscCall(Agree(msg, PETSC_ERR_FILE_WRITE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalForget - removes this evaluation's records of experiments 0 ..
  n - 1, once a record (written before) stands for them all: the journal
  then keeps one field an evaluation, whatever its experiments
*/
PetscErrorCode RwAppJournalForget(RwAppJournal j, PetscInt64 n)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!j->dir[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank)
    for (PetscInt64 e = 0; e < n; e++) {
      char name[64], path[RW_JOURNAL_PATHLEN];

      RecordName(j->eval, e, name, sizeof(name));
      snprintf(path, sizeof(path), "%s/%s", j->dir, name);
      (void)unlink(path);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalRound - round r of an ensemble's n members, journalled: the
  journal's records of the round's members first (a damaged one is solved
  again, so the kept ones need not be a prefix), then each group solves its
  member unless kept (solve(ctx, member, &J_m), its gradient in gm on the
  group's grid), then every member's result comes to all ranks
  (RwEnsembleGatherMember()), is journalled, and added to *J and G in member
  order: the bits of RwEnsembleSumAdd(), whatever the groups and whatever
  was kept.  W: one vector a group on the parent's grid; nkept (or NULL)
  counts the members taken from the journal
*/
PetscErrorCode RwAppJournalRound(RwAppJournal j, RwEnsemble e, PetscInt n, PetscInt r, PetscErrorCode (*solve)(void *, PetscInt, PetscReal *), void *ctx, Vec gm, Vec W[], PetscReal *J, Vec G, PetscInt64 *nkept)
{
  PetscInt   ng, mine, first, m;
  PetscReal *Je, Jm = 0;
  PetscBool *kept;
  Vec        w;

  PetscFunctionBegin;
  PetscCall(RwEnsembleGetGroup(e, NULL, &ng));
  first = r * ng, m = PetscMin(ng, n - first);
  PetscCall(PetscMalloc2(m, &Je, m, &kept));
  for (PetscInt k = 0; k < m; k++) {
    PetscCall(RwAppJournalLookup(j, first + k, &Je[k], &w, &kept[k]));
    if (kept[k]) PetscCall(VecCopy(w, W[k]));
    if (nkept) *nkept += kept[k];
  }
  PetscCall(RwEnsembleGetRoundMember(e, r, &mine));
  if (mine >= 0 && !kept[mine - first]) PetscCall(solve(ctx, mine, &Jm));
  for (PetscInt k = 0; k < m; k++) {
    if (!kept[k]) {
      PetscCall(RwEnsembleGatherMember(e, first + k, Jm, gm, &Je[k], W[k]));
      PetscCall(RwAppJournalRecord(j, first + k, Je[k], W[k]));
    }
    *J += Je[k];
    PetscCall(VecAXPY(G, 1, W[k]));
  }
  PetscCall(PetscFree2(Je, kept));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwAppJournalEndEvaluation - the evaluation is complete (and, testing, the process may die here) */
PetscErrorCode RwAppJournalEndEvaluation(RwAppJournal j)
{

  PetscFunctionBegin;
  if (j->eval == j->killat && !j->replay && !j->torn) {
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    raise(SIGKILL);
  }
  j->eval++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwAppJournalComplete - the optimisation finished: the journal may go once the outputs are written */
PetscErrorCode RwAppJournalComplete(RwAppJournal j)
{

  PetscFunctionBegin;
  if (j->replay) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "%s: -rw_restart used %" PetscInt64_FMT " journal records, all that were needed: nothing was solved\n", j->app, j->replayed));
  j->completed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwAppJournalDestroy - removes the journal of a completed run (its own files
  only, and the directory if that leaves it empty) unless its _keep option (-rw_inverse_state_keep)
*/
PetscErrorCode RwAppJournalDestroy(RwAppJournal *jp)
{
  RwAppJournal j = *jp;
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!j) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank && j->dir[0] && j->completed && !j->keep) {
    Remove0(j, 0);
    (void)rmdir(j->dir);
  }
  PetscCall(VecDestroy(&j->w));
  PetscCall(VecDestroy(&j->natural));
  PetscCall(VecDestroy(&j->seq));
  PetscCall(VecScatterDestroy(&j->tozero));
  PetscCall(PetscFree(*jp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
