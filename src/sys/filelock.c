/*
  Files in use: a run that writes a file (a checkpoint or keep file, a
  journal, an output) holds a lock file FILE.lock beside it for as long as it
  may write it, so that a second run is refused with the first one's host and
  pid instead of overwriting the file under it (or tripping over its
  half-written bytes and calling them corrupt).

  One rank per file holds the lock: under MPI-IO every rank opens the file,
  but only a plain lock file works the same on every file system and can say
  who holds it.  The lock file is written complete under a private name,
  locked with flock() and then linked to FILE.lock, which fails if the name
  exists: so FILE.lock always holds "host H pid P since T" and is always
  flocked while its run lives.  A FILE.lock whose flock is free was left by a
  run that died (SIGKILL, a lost node): the next run takes it over with a
  warning.  Where flock() is not supported (some parallel file systems
  without the flock mount option), a lock of this host whose pid is gone is
  stale and any other is taken to be alive.  The lock file is removed when
  the lock is released, and at exit for locks still held (an error path that
  never reached the owner's destroy).
*/
#include <rewind/private/rwimpl.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RW_LOCK_OWNERLEN 320
#define RW_LOCK_MSGLEN   (3 * PETSC_MAX_PATH_LEN + 512)

struct _n_RwFileLock {
  char                  path[PETSC_MAX_PATH_LEN + 8]; /* FILE.lock, on the rank that holds it */
  char                  partial[PETSC_MAX_PATH_LEN + 16]; /* a file that is incomplete while the lock is held */
  int                   fd;                           /* held open (and flocked) for the run; -1 elsewhere */
  struct _n_RwFileLock *next;                         /* the process's held locks, removed at exit */
};

static struct _n_RwFileLock *held;
static int                   atexitset;

/* Locks still held at exit belong to a run that stopped on an error */
static void RwFileLockAtExit(void)
{
  for (struct _n_RwFileLock *l = held; l; l = l->next) {
    if (l->partial[0]) (void)unlink(l->partial);
    if (l->fd >= 0) (void)unlink(l->path);
  }
}

/* "host H pid P since T", this process's */
static void Owner(char buf[], size_t len)
{
  char       host[256] = "unknown";
  time_t     now       = time(NULL);
  struct tm  tm;
  char       since[64] = "?";

  (void)gethostname(host, sizeof(host));
  host[sizeof(host) - 1] = 0;
  if (gmtime_r(&now, &tm)) strftime(since, sizeof(since), "%Y-%m-%d %H:%M:%S UTC", &tm);
  snprintf(buf, len, "host %s pid %ld since %s\n", host, (long)getpid(), since);
}

/* What a lock file says, without its newline ("" if unreadable) */
static void ReadOwner(int fd, char buf[], size_t len)
{
  ssize_t n = pread(fd, buf, len - 1, 0);

  buf[n > 0 ? n : 0] = 0;
  buf[strcspn(buf, "\n")] = 0;
}

/* Without flock(): a lock of this host whose process is gone is stale */
static int OwnerGone(const char owner[])
{
  char host[256] = "", mine[256] = "";
  long pid       = 0;

  if (sscanf(owner, "host %255s pid %ld", host, &pid) != 2 || pid <= 0) return 0;
  (void)gethostname(mine, sizeof(mine));
  return !strcmp(host, mine) && kill((pid_t)pid, 0) && errno == ESRCH;
}

/* flock() that says 1 (held), 0 (free) or -1 (not supported here) */
static int TryFlock(int fd)
{
  if (!flock(fd, LOCK_EX | LOCK_NB)) return 0;
  if (errno == EWOULDBLOCK) return 1;
  return -1;
}

static int SameFile(int fd, const char path[])
{
  struct stat a, b;

  return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* A new lock file, complete and flocked before it appears under its name */
static int Create(const char path[], const char owner[], int *fd)
{
  char tmp[PETSC_MAX_PATH_LEN + 64];
  int  e;

  snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
  if ((*fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) return errno;
  if (write(*fd, owner, strlen(owner)) != (ssize_t)strlen(owner) || TryFlock(*fd) > 0) e = errno ? errno : EIO;
  else e = link(tmp, path) ? errno : 0;
  (void)unlink(tmp);
  if (e) {
    close(*fd);
    *fd = -1;
  }
  return e;
}

/* An existing lock file: in use (msg), or stale and now ours (warn) */
static void TakeOver(const char path[], const char what[], const char owner[], int *fd, int *retry, char msg[], char warn[])
{
  char old[RW_LOCK_OWNERLEN];
  int  state;

  *retry = 0;
  if ((*fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
    if (errno == ENOENT) *retry = 1; /* released meanwhile */
    else snprintf(msg, RW_LOCK_MSGLEN, "%s: cannot open its lock file %s: %s", what, path, strerror(errno));
    return;
  }
  ReadOwner(*fd, old, sizeof(old));
  state = TryFlock(*fd);
  if (state < 0) state = !OwnerGone(old);
  if (state == 0 && !SameFile(*fd, path)) *retry = 1; /* released and removed while we looked */
  else if (state) {
    char host[256], since[64];
    long pid;

    if (sscanf(old, "host %255s pid %ld since %63[^\n]", host, &pid, since) == 3) snprintf(msg, RW_LOCK_MSGLEN, "%s is in use by host %s pid %ld (since %s; lock file %s): another run is writing it; wait for that run to end, or choose another file", what, host, pid, since, path);
    else snprintf(msg, RW_LOCK_MSGLEN, "%s is in use by %s (lock file %s): another run is writing it; wait for that run to end, or choose another file", what, old[0] ? old : "a run that is starting", path);
  }
  else {
    snprintf(warn, RW_LOCK_MSGLEN, "WARNING: %s: taking over the lock file %s left by %s, which is no longer running\n", what, path, old[0] ? old : "a run");
    if (ftruncate(*fd, 0) || pwrite(*fd, owner, strlen(owner), 0) != (ssize_t)strlen(owner)) snprintf(msg, RW_LOCK_MSGLEN, "%s: cannot rewrite its lock file %s: %s", what, path, strerror(errno));
    else return;
  }
  close(*fd);
  *fd = -1;
}

static void Acquire0(RwFileLock l, const char what[], char msg[], char warn[])
{
  char owner[RW_LOCK_OWNERLEN];
  int  retry = 1, e;

  Owner(owner, sizeof(owner));
  for (int tries = 0; retry && tries < 16; tries++) {
    /* an existing lock first: a dead run's is rewritten in place, which needs no new block on a full disk */
    e = access(l->path, F_OK) ? Create(l->path, owner, &l->fd) : EEXIST;
    if (!e) return;
    if (e == EEXIST) TakeOver(l->path, what, owner, &l->fd, &retry, msg, warn);
    else {
      snprintf(msg, RW_LOCK_MSGLEN, "%s: cannot create its lock file %s: %s", what, l->path, strerror(e));
      return;
    }
  }
  if (retry) snprintf(msg, RW_LOCK_MSGLEN, "%s: its lock file %s keeps appearing and disappearing: is another run starting on it?", what, l->path);
}

/*@C
  RwFileLockAcquire - locks a file for the run: one rank holds FILE.lock,
  which names its host, pid and start time; a second run is refused with
  "FILE is in use by host H pid P", and a lock left by a run that died is
  taken over with a warning

  Collective

  Input Parameters:
+ comm   - the ranks that agree on the verdict
. holder - whether this rank holds the lock (one rank of the ranks that write the file)
. file   - the file (or directory) to lock; the lock file is file.lock
- what   - the file as messages name it, with its option ("Checkpoint file ck.h5 (-rw_store_hdf5_file)")

  Output Parameter:
. lock - the lock, released by RwFileLockRelease()

  Level: developer

.seealso: RwFileLockRelease()
@*/
PetscErrorCode RwFileLockAcquire(MPI_Comm comm, PetscBool holder, const char file[], const char what[], RwFileLock *lock)
{
  RwFileLock l;
  char       msg[RW_LOCK_MSGLEN] = "", warn[RW_LOCK_MSGLEN] = "";
  PetscBool  failed;

  PetscFunctionBegin;
  PetscCall(PetscNew(&l));
  l->fd = -1;
  PetscCall(PetscSNPrintf(l->path, sizeof(l->path), "%s.lock", file));
  if (holder) Acquire0(l, what, msg, warn);
  if (l->fd >= 0) {
    l->next = held;
    held    = l;
    if (!atexitset) atexitset = !atexit(RwFileLockAtExit);
  }
  if (warn[0]) fputs(warn, stderr);
  *lock = l;
  PetscCall(RwErrorAgreeTest(comm, RW_AGREE_ANY, msg, sizeof(msg), &failed));
  if (failed) {
    PetscCall(RwFileLockRelease(lock));
    SETERRQ(comm, PETSC_ERR_FILE_OPEN, "%s", msg);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwFileLockRemoveAtExit - a file the lock's holder writes that is not yet
  complete: the process removes it if it exits (on an error) before the lock
  is released

  Not collective

  Level: developer

.seealso: RwFileLockAcquire()
@*/
PetscErrorCode RwFileLockRemoveAtExit(RwFileLock lock, const char partial[])
{
  PetscFunctionBegin;
  if (lock->fd >= 0) PetscCall(PetscStrncpy(lock->partial, partial, sizeof(lock->partial)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwFileLockDrop - lets the file go now (its lock file removed) but keeps the
  lock object for RwFileLockRelease(); safe to call from an error handler

  Not collective

  Level: developer

.seealso: RwFileLockAcquire(), RwFileLockRelease()
@*/
void RwFileLockDrop(RwFileLock l)
{
  if (!l) return;
  for (struct _n_RwFileLock **p = &held; *p; p = &(*p)->next)
    if (*p == l) {
      *p = l->next;
      break;
    }
  if (l->fd >= 0) {
    if (SameFile(l->fd, l->path)) (void)unlink(l->path);
    close(l->fd);
  }
  l->fd = -1;
}

/*@C
  RwFileLockRelease - removes the lock file and lets the file go; NULL-safe

  Not collective

  Level: developer

.seealso: RwFileLockAcquire()
@*/
PetscErrorCode RwFileLockRelease(RwFileLock *lock)
{
  PetscFunctionBegin;
  if (!lock || !*lock) PetscFunctionReturn(PETSC_SUCCESS);
  RwFileLockDrop(*lock);
  PetscCall(PetscFree(*lock));
  PetscFunctionReturn(PETSC_SUCCESS);
}
