/*
  The evaluation journal: what makes an optimisation over a problem
  resumable (doc/problem.md, "Resuming a killed optimisation").

  Every evaluation i keeps each member's J and its dJ/dx as they come, then
  one record of their sum that stands for them (the member records are
  removed), all in natural order, with the checksum of the iterate x it was
  computed at.  With -rw_restart a run replays: while the journal has the
  record and x matches bit for bit, the record stands in for the solves.  TAO
  is deterministic, so it retraces the interrupted run and rebuilds its own
  history; nothing of TAO's private state is kept.

  The journal is a directory:

    problem                  text: the problem's identity ("name value; ..."
                             items: the driver's, the problem's, the program's)
                             and a checksum line
    eval-IIIIII-exp-EE.rec   one record, binary, native byte order: 8 words of
                             header (magic "RWINVJ01", problem hash, i, e,
                             checksum of x, J, seconds, N), N doubles, one word:
                             a checksum of all that precedes it

  Crash consistency: rank 0 writes each file under a temporary name in the
  same directory, fsyncs it, renames it into place (atomic on POSIX) and
  fsyncs the directory: a final name names a complete file or nothing.  A
  record that is nonetheless damaged is refused with a message naming the
  file, and its solves are computed again.
*/
#include <rewind/private/problemimpl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define RW_JOURNAL_MSGLEN  (3 * PETSC_MAX_PATH_LEN + RW_PROBLEM_IDLEN)
#define RW_JOURNAL_PATHLEN (PETSC_MAX_PATH_LEN + 64)

PetscClassId  RW_JOURNAL_CLASSID;
PetscLogEvent RW_JournalWrite, RW_JournalRead;

typedef struct {
  char     magic[8];
  uint64_t problem, eval, exp, xsum;
  double   J, seconds;
  uint64_t n;
} RwJournalHead;

struct _RwJournalOps {
  PetscErrorCode (*view)(RwJournal, PetscViewer);
};

struct _p_RwJournal {
  PETSCHEADER(struct _RwJournalOps);
  char            app[64];
  char            dir[PETSC_MAX_PATH_LEN];
  char            text[RW_PROBLEM_IDLEN + 8]; /* the problem's identity, as the file "problem" holds it */
  uint64_t        problem;                    /* a hash of text */
  PetscBool       restart, overwrite, keep, torn, replay, completed, opened;
  PetscInt        killat;   /* -rw_debug_kill_at_evaluation */
  PetscInt64      eval;     /* the evaluation in progress */
  PetscInt64      replayed; /* records used */
  uint64_t        xsum;     /* checksum of this evaluation's iterate */
  PetscInt        nrec;     /* records an evaluation may hold: the members and their sum */
  PetscLogDouble *t0;       /* the problem's clock: a replayed record sets it back */
  DM              dm;       /* the grid of the records: x's */
  PetscBool       isda;
  Vec             w, natural, seq; /* a record: global, natural order, natural on rank 0 */
  VecScatter      tozero;
  RwFileLock      lock; /* dir.lock: the journal is this run's */
};

static const char magic[8] = {'R', 'W', 'I', 'N', 'V', 'J', '0', '1'};

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

static MPI_Comm JComm(RwJournal j)
{
  return PetscObjectComm((PetscObject)j);
}

/* x's values in an order that does not depend on the decomposition */
static PetscErrorCode ToNatural(RwJournal j, Vec v)
{
  PetscFunctionBegin;
  if (j->isda) {
    PetscCall(DMDAGlobalToNaturalBegin(j->dm, v, INSERT_VALUES, j->natural));
    PetscCall(DMDAGlobalToNaturalEnd(j->dm, v, INSERT_VALUES, j->natural));
  } else PetscCall(VecCopy(v, j->natural));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwJournalChecksum - a checksum of a vector of x's layout that does not depend on the decomposition */
PetscErrorCode RwJournalChecksum(RwJournal j, Vec v, uint64_t *sum)
{
  PetscFunctionBegin;
  PetscCall(ToNatural(j, v));
  PetscCall(RwVecChecksum(j->natural, sum));
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
static void WriteAtomic0(RwJournal j, const char name[], int nparts, const void *part[], const size_t size[], size_t torn, char msg[])
{
  char   tmp[RW_JOURNAL_PATHLEN], path[RW_JOURNAL_PATHLEN];
  int    fd, ok = 1;
  size_t done = 0;

  snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", j->dir, name);
  snprintf(path, sizeof(path), "%s/%s", j->dir, name);
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot create %s in the journal (-rw_journal %s): %s", tmp, j->dir, strerror(errno));
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
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot write %s in the journal (-rw_journal %s): %s", path, j->dir, strerror(errno));
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

/* On rank 0: "problem" as it should be: the identity, a newline and its checksum line */
static void ProblemFile0(RwJournal j, char out[], size_t len)
{
  snprintf(out, len, "%s\nchecksum: %016llx\n", j->text, (unsigned long long)j->problem);
}

/* On rank 0: is there a journal, and does it describe this problem? */
static void CheckKept0(RwJournal j, int *exists, char msg[])
{
  char   path[RW_JOURNAL_PATHLEN], want[RW_PROBLEM_IDLEN + 64], diff[RW_PROBLEM_IDLEN];
  size_t n;
  char  *kept, *c;

  snprintf(path, sizeof(path), "%s/problem", j->dir);
  kept    = ReadAll0(path, &n, msg);
  *exists = kept != NULL;
  if (!kept) return;
  ProblemFile0(j, want, sizeof(want));
  if (strcmp(kept, want)) {
    c = strstr(kept, "\nchecksum: ");
    if (c) *c = 0;
    if (!c || strtoull(c + 11, NULL, 16) != RwHashBytes(0, kept, strlen(kept))) snprintf(msg, RW_JOURNAL_MSGLEN, "The journal's %s is damaged (its checksum line does not match its text): refusing to resume from it; remove the directory %s or give -rw_journal_overwrite", path, j->dir);
    else {
      RwIdentityDiff(kept, j->text, diff, sizeof(diff));
      snprintf(msg, RW_JOURNAL_MSGLEN, "The journal %s (-rw_journal) belongs to a different problem: %s. Resume with the same data and options, or give -rw_journal_overwrite to discard it", j->dir, diff);
    }
  }
  free(kept);
}

/* On rank 0: removes the records from evaluation `from` on (and the problem file if from == 0) */
static void Remove0(RwJournal j, PetscInt64 from)
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

/* The journal's options: its directory, resume, discard, keep; and the kills of the tests */
static PetscErrorCode ReadOptions(RwJournal j)
{
  PetscFunctionBegin;
  j->killat = -1;
  PetscObjectOptionsBegin((PetscObject)j);
  PetscCall(PetscOptionsString("-rw_journal", "Directory of the evaluation journal that makes the optimisation resumable (none: no journal)", "RwProblemSetJournal", j->dir, j->dir, sizeof(j->dir), NULL));
  PetscCall(PetscOptionsBool("-rw_restart", "Resume the optimisation from its journal (and the interrupted solve from its hdf5 store)", "RwProblemSolve", j->restart, &j->restart, NULL));
  PetscCall(PetscOptionsBool("-rw_journal_overwrite", "Discard an existing journal instead of refusing to run (without -rw_restart, or when it belongs to another problem)", "RwProblemSolve", j->overwrite, &j->overwrite, NULL));
  PetscCall(PetscOptionsBool("-rw_journal_keep", "Keep the journal after the optimisation completes (default: remove it)", "RwProblemSolve", j->keep, &j->keep, NULL));
  PetscCall(RwOptionsInt("-rw_debug_kill_at_evaluation", "Testing: SIGKILL right after evaluation i's records are written", NULL, j->killat, &j->killat, NULL, -1, PETSC_MAX_INT));
  PetscCall(RwOptionsBool("-rw_debug_kill_torn", "Testing: with -rw_debug_kill_at_evaluation, die half way through writing that evaluation's last record instead", NULL, j->torn, &j->torn, NULL));
  PetscOptionsEnd();
  if (!strcmp(j->dir, "none")) j->dir[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: opens the journal directory for this run, or says why not */
static void Open0(RwJournal j, char msg[])
{
  int exists = 0;

  if (mkdir(j->dir, 0755) && errno != EEXIST) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "Cannot create the journal directory %s (-rw_journal): %s", j->dir, strerror(errno));
    return;
  }
  CheckKept0(j, &exists, msg);
  if (exists && !j->restart && !j->overwrite) {
    snprintf(msg, RW_JOURNAL_MSGLEN, "The journal %s (-rw_journal) holds an earlier run's evaluations: resume it with -rw_restart, or give -rw_journal_overwrite to discard it (refusing to destroy it silently)", j->dir);
    return;
  }
  if (msg[0] && !j->overwrite) return;
  if (msg[0] || (exists && !j->restart)) {
    fprintf(stderr, "%s: -rw_journal_overwrite: discarding the journal %s%s%s\n", j->app, j->dir, msg[0] ? ": " : "", msg);
    msg[0] = 0;
    Remove0(j, 0);
    exists = 0;
  }
  if (!exists) {
    char        text[RW_PROBLEM_IDLEN + 64];
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

static PetscErrorCode RwJournalView(RwJournal j, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (!j->dir[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "RwJournal: off\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "RwJournal %s: evaluation %" PetscInt64_FMT ", %" PetscInt64_FMT " records replayed%s\n", j->dir, j->eval, j->replayed, j->replay ? ", replaying" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwJournalCreate - the journal of a problem's optimisation: records of nrec
  vectors an evaluation (the members and their sum) on x's DM; dir is the
  default place (NULL or "": none unless -rw_journal gives one)
*/
PetscErrorCode RwJournalCreate(RwProblem prob, DM dm, PetscInt nrec, const char dir[], RwJournal *jp)
{
  RwJournal   j;
  const char *prefix, *name;

  PetscFunctionBegin;
  PetscCall(PetscHeaderCreate(j, RW_JOURNAL_CLASSID, "RwJournal", "Evaluation journal", "RwProblem", PetscObjectComm((PetscObject)prob), RwJournalDestroy, RwJournalView));
  *jp = j;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)prob, &prefix));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)j, prefix));
  PetscCall(PetscGetProgramName((char *)j->app, sizeof(j->app)));
  name = strrchr(j->app, '/');
  if (name) PetscCall(PetscStrncpy(j->app, name + 1, sizeof(j->app)));
  PetscCall(PetscStrncpy(j->dir, dir ? dir : "", sizeof(j->dir)));
  j->nrec = nrec, j->t0 = &prob->t0;
  PetscCall(ReadOptions(j));
  if (!j->dir[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectReference((PetscObject)dm));
  j->dm = dm;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &j->isda));
  PetscCall(DMCreateGlobalVector(dm, &j->w));
  if (j->isda) PetscCall(DMDACreateNaturalVector(dm, &j->natural));
  else PetscCall(VecDuplicate(j->w, &j->natural));
  PetscCall(VecScatterCreateToZero(j->natural, &j->tozero, &j->seq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwJournalEnabled - whether the run keeps a journal */
PetscBool RwJournalEnabled(RwJournal j)
{
  return j && j->dir[0] ? PETSC_TRUE : PETSC_FALSE;
}

/* Before anything in the directory is read or removed: a second run on the
   journal is refused with the first one's host and pid */
static PetscErrorCode Lock(RwJournal j, PetscMPIInt rank)
{
  char   dir[PETSC_MAX_PATH_LEN], what[PETSC_MAX_PATH_LEN + 64];
  size_t n;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(dir, j->dir, sizeof(dir)));
  PetscCall(PetscStrlen(dir, &n));
  while (n > 1 && dir[n - 1] == '/') dir[--n] = 0; /* jr/ is locked by jr.lock beside it */
  PetscCall(PetscSNPrintf(what, sizeof(what), "The journal %s (-rw_journal)", dir));
  PetscCall(RwFileLockAcquire(JComm(j), (PetscBool)!rank, dir, what, &j->lock));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwJournalOpen - with the problem's identity: refuses a kept journal of
  another problem or one not asked to be resumed, and with -rw_restart
  starts replaying it; once
*/
PetscErrorCode RwJournalOpen(RwJournal j, const char identity[])
{
  PetscMPIInt rank;
  char        msg[RW_JOURNAL_MSGLEN] = "";

  PetscFunctionBegin;
  if (!RwJournalEnabled(j) || j->opened) PetscFunctionReturn(PETSC_SUCCESS);
  j->opened = PETSC_TRUE;
  PetscCall(PetscStrncpy(j->text, identity, sizeof(j->text)));
  j->problem = RwHashBytes(0, j->text, strlen(j->text));
  PetscCallMPI(MPI_Comm_rank(JComm(j), &rank));
  PetscCall(Lock(j, rank));
  if (!rank) Open0(j, msg);
  PetscCall(RwErrorAgree(JComm(j), 0, PETSC_ERR_FILE_UNEXPECTED, msg, sizeof(msg))); /* rank 0's verdict */
  PetscCallMPI(MPI_Bcast(&j->replay, 1, MPIU_BOOL, 0, JComm(j)));
  if (j->replay) PetscCall(PetscFPrintf(JComm(j), PETSC_STDERR, "%s: -rw_restart replays the journal %s\n", j->app, j->dir));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwJournalBeginEvaluation - a new evaluation at x (salt: what else tells it apart, such as a data band) */
PetscErrorCode RwJournalBeginEvaluation(RwJournal j, Vec x, uint64_t salt)
{
  PetscFunctionBegin;
  if (!RwJournalEnabled(j)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwJournalChecksum(j, x, &j->xsum));
  j->xsum = salt ? RwSplitMix64(j->xsum ^ salt) : j->xsum;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On rank 0: a record read and checked: 0 absent, 1 usable, 2 refused (msg says why) */
static int Load0(RwJournal j, PetscInt64 e, RwJournalHead *head, PetscScalar *g, PetscInt64 N, char msg[])
{
  char        name[64], path[RW_JOURNAL_PATHLEN];
  size_t      size, want = sizeof(RwJournalHead) + 8 * (size_t)N + 8;
  char       *buf;
  uint64_t    sum;
  const char *why = NULL;

  RecordName(j->eval, e, name, sizeof(name));
  snprintf(path, sizeof(path), "%s/%s", j->dir, name);
  buf = ReadAll0(path, &size, msg);
  if (!buf && msg[0]) {
    size_t n = strlen(msg);
    snprintf(msg + n, RW_JOURNAL_MSGLEN - n, ": refusing it; evaluation %lld, record %lld is computed again\n", (long long)j->eval, (long long)e);
  }
  if (!buf) return msg[0] ? 2 : 0;
  if (size != want) why = "its size is not that of a record of this grid";
  else {
    memcpy(head, buf, sizeof(*head));
    memcpy(&sum, buf + size - 8, 8);
    if (memcmp(head->magic, magic, 8)) why = "it is not a journal record";
    else if (head->problem != j->problem) why = "it belongs to another problem";
    else if (head->eval != (uint64_t)j->eval || head->exp != (uint64_t)e || head->n != (uint64_t)N) why = "its header names another evaluation, record or size";
    else if (sum != HashWords(j->problem, buf, (size - 8) / 8)) why = "its checksum does not match its contents";
  }
  if (why) snprintf(msg, RW_JOURNAL_MSGLEN, "%s: refusing the journal record %s: %s (%zu bytes); evaluation %lld, record %lld is computed again\n", j->app, path, why, size, (long long)j->eval, (long long)e);
  else memcpy(g, buf + sizeof(*head), 8 * (size_t)N);
  free(buf);
  return why ? 2 : 1;
}

/* The replay stops for good: the rest of the run computes */
static PetscErrorCode EndReplay(RwJournal j, PetscInt64 e, const char why[])
{
  PetscFunctionBegin;
  j->replay = PETSC_FALSE;
  PetscCall(PetscFPrintf(JComm(j), PETSC_STDERR, "%s: -rw_restart used %" PetscInt64_FMT " journal records; %s; solving from evaluation %" PetscInt64_FMT ", member %" PetscInt64_FMT "\n", j->app, j->replayed, why, j->eval, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The iterate is not the interrupted run's: its later records are of no use */
static PetscErrorCode Depart(RwJournal j, PetscInt64 e, uint64_t recorded)
{
  PetscMPIInt rank;
  char        why[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(why, sizeof(why), "the resumed run departs from the interrupted one at evaluation %" PetscInt64_FMT ": its iterate's checksum %016llx differs from %016llx recorded (another number of ranks, or other TAO options, round differently)", j->eval, (unsigned long long)j->xsum, (unsigned long long)recorded));
  PetscCall(EndReplay(j, e, why));
  PetscCallMPI(MPI_Comm_rank(JComm(j), &rank));
  if (!rank) Remove0(j, j->eval);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The record's field, read on rank 0 in natural order, into the distributed w */
static PetscErrorCode FromRank0(RwJournal j)
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(j->tozero, j->seq, j->natural, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(j->tozero, j->seq, j->natural, INSERT_VALUES, SCATTER_REVERSE));
  if (j->isda) {
    PetscCall(DMDANaturalToGlobalBegin(j->dm, j->natural, INSERT_VALUES, j->w));
    PetscCall(DMDANaturalToGlobalEnd(j->dm, j->natural, INSERT_VALUES, j->w));
  } else PetscCall(VecCopy(j->natural, j->w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwJournalLookup - while replaying, record e of this evaluation (a member's,
  or their sum) at this x, if the journal has it: J and the vector (in *w);
  otherwise *w is where the caller may put them.  A missing record ends the
  replay, unless peek (a sum that may stand for members recorded one by one)
*/
PetscErrorCode RwJournalLookup(RwJournal j, PetscInt64 e, PetscBool peek, PetscReal *Je, Vec *w, PetscBool *found)
{
  RwJournalHead  head;
  PetscInt       N;
  PetscMPIInt    rank;
  PetscScalar   *g;
  PetscLogDouble now;
  char           msg[RW_JOURNAL_MSGLEN] = "";
  int            status                  = 0;

  PetscFunctionBegin;
  *w     = RwJournalEnabled(j) ? j->w : NULL;
  *found = PETSC_FALSE;
  if (!RwJournalEnabled(j) || !j->replay) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(RW_JournalRead, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&head, sizeof(head)));
  PetscCall(VecGetSize(j->natural, &N));
  PetscCallMPI(MPI_Comm_rank(JComm(j), &rank));
  PetscCall(VecGetArray(j->seq, &g));
  if (!rank) status = Load0(j, e, &head, g, N, msg);
  PetscCall(VecRestoreArray(j->seq, &g));
  PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, JComm(j)));
  PetscCallMPI(MPI_Bcast(&head, sizeof(head), MPI_BYTE, 0, JComm(j)));
  PetscCallMPI(MPI_Bcast(msg, sizeof(msg), MPI_CHAR, 0, JComm(j)));
  if (status == 0 && !peek) PetscCall(EndReplay(j, e, "the journal ends here"));
  if (status == 2) PetscCall(PetscFPrintf(JComm(j), PETSC_STDERR, "%s", msg)); /* and the replay goes on */
  if (status == 1 && head.xsum != j->xsum) PetscCall(Depart(j, e, head.xsum));
  if (status == 1 && j->replay) PetscCall(FromRank0(j));
  PetscCall(PetscLogEventEnd(RW_JournalRead, 0, 0, 0, 0));
  if (status != 1 || !j->replay) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&now));
  *j->t0 = now - head.seconds; /* the history's seconds are the interrupted run's */
  *Je    = head.J;
  *found = PETSC_TRUE;
  j->replayed++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwJournalRecord - keeps record e of this evaluation, durably, before the next solve starts */
PetscErrorCode RwJournalRecord(RwJournal j, PetscInt64 e, PetscReal Je, Vec w)
{
  RwJournalHead  head;
  PetscInt       N;
  PetscMPIInt    rank;
  PetscLogDouble now;
  char           msg[RW_JOURNAL_MSGLEN] = "", name[64];

  PetscFunctionBegin;
  if (!RwJournalEnabled(j)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(RW_JournalWrite, 0, 0, 0, 0));
  PetscCall(ToNatural(j, w));
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
  PetscCallMPI(MPI_Comm_rank(JComm(j), &rank));
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
    if (j->torn && j->eval == j->killat && e == j->nrec - 1) torn = (size[0] + size[1] + size[2]) / 2;
    RecordName(j->eval, e, name, sizeof(name));
    WriteAtomic0(j, name, 3, part, size, torn, msg);
    PetscCall(VecRestoreArrayRead(j->seq, &g));
  }
  PetscCall(PetscLogEventEnd(RW_JournalWrite, 0, 0, 0, 0));
  PetscCall(RwErrorAgree(JComm(j), 0, PETSC_ERR_FILE_WRITE, msg, sizeof(msg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwJournalForget - removes this evaluation's records 0 .. n - 1 once a
  record written before stands for them all: the journal then keeps one
  vector an evaluation, whatever its members
*/
PetscErrorCode RwJournalForget(RwJournal j, PetscInt64 n)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!RwJournalEnabled(j)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(JComm(j), &rank));
  if (!rank)
    for (PetscInt64 e = 0; e < n; e++) {
      char name[64], path[RW_JOURNAL_PATHLEN];

      RecordName(j->eval, e, name, sizeof(name));
      snprintf(path, sizeof(path), "%s/%s", j->dir, name);
      (void)unlink(path);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwJournalEndEvaluation - the evaluation is complete (and, testing, the process may die here) */
PetscErrorCode RwJournalEndEvaluation(RwJournal j)
{
  PetscFunctionBegin;
  if (!RwJournalEnabled(j)) PetscFunctionReturn(PETSC_SUCCESS);
  if (j->eval == j->killat && !j->replay && !j->torn) {
    PetscCallMPI(MPI_Barrier(JComm(j)));
    raise(SIGKILL);
  }
  j->eval++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* RwJournalComplete - the optimisation finished: the journal may go once the outputs are written */
PetscErrorCode RwJournalComplete(RwJournal j)
{
  PetscFunctionBegin;
  if (!RwJournalEnabled(j)) PetscFunctionReturn(PETSC_SUCCESS);
  if (j->replay) PetscCall(PetscFPrintf(JComm(j), PETSC_STDERR, "%s: -rw_restart used %" PetscInt64_FMT " journal records, all that were needed: nothing was solved\n", j->app, j->replayed));
  j->completed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwJournalDestroy - removes the journal of a completed run (its own files
  only, and the directory if that leaves it empty) unless -rw_journal_keep
*/
PetscErrorCode RwJournalDestroy(RwJournal *jp)
{
  RwJournal   j;
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!jp || !*jp) PetscFunctionReturn(PETSC_SUCCESS);
  j = *jp;
  if (--((PetscObject)j)->refct > 0) {
    *jp = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_rank(JComm(j), &rank));
  if (!rank && j->dir[0] && j->completed && !j->keep) {
    Remove0(j, 0);
    (void)rmdir(j->dir);
  }
  PetscCall(RwFileLockRelease(&j->lock));
  PetscCall(VecDestroy(&j->w));
  PetscCall(VecDestroy(&j->natural));
  PetscCall(VecDestroy(&j->seq));
  PetscCall(VecScatterDestroy(&j->tozero));
  PetscCall(DMDestroy(&j->dm));
  PetscCall(PetscHeaderDestroy(jp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
