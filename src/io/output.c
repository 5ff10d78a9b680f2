/*
  An output file written whole or not at all: the run locks FILE (FILE.lock,
  src/sys/filelock.c), writes FILE.partial (a copy of FILE first when it
  appends) and renames it onto FILE once every part is written and closed.
  A failure on the way (a full disk, a quota, a read-only file system)
  leaves FILE as it was, and what was half-written is removed at the error
  (after a SIGKILL, the next run's FILE.partial replaces it).
  While a write is under way, every PETSc error names the file and, where
  the file system tells it, the reason (full, read-only).
*/
#include <rewind/private/rwimpl.h>
#include <rewind/io.h>
#include <rewind/hdf5.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define RW_OUT_MSGLEN (3 * PETSC_MAX_PATH_LEN + 512)

struct _n_RwOutputFile {
  MPI_Comm    comm;
  PetscMPIInt rank;
  char       file[PETSC_MAX_PATH_LEN];
  char       partial[PETSC_MAX_PATH_LEN + 16];
  char       what[PETSC_MAX_PATH_LEN + 128];
  RwFileLock lock;
};

/* PETSc's messages inside a write say which file it was, and why if the file system knows */
static PetscErrorCode RwOutputErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  RwOutputFile out = (RwOutputFile)ctx;
  char         why[256], msg[RW_OUT_MSGLEN + 512];

  if (p != PETSC_ERROR_INITIAL) return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, NULL);
  RwFileSystemReason(out->partial, why, sizeof(why));
  /* the run stops here (an app aborts, running no destroy and no exit hook): nothing partial stays */
  if (out->rank == 0) (void)unlink(out->partial);
  RwFileLockDrop(out->lock);
  if (!why[0]) {
    char h5[256];

    (void)RwHDF5ErrorMessage(h5, sizeof(h5));
    snprintf(why, sizeof(why), "%s", h5);
  }
  snprintf(msg, sizeof(msg), "%s: writing %s failed: %s; %s is left as it was and the partial %s is removed", mess ? mess : "error", out->what, why, out->file, out->partial);
  return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, msg, NULL);
}

/* Rank 0: FILE.partial, empty or a copy of FILE to append to */
static void Start0(RwOutputFile out, PetscBool append, char msg[])
{
  char    buf[1 << 16];
  int     in = -1, fd = open(out->partial, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ssize_t n  = 0;

  if (fd < 0) {
    snprintf(msg, RW_OUT_MSGLEN, "Cannot write %s: cannot create %s: %s", out->what, out->partial, strerror(errno));
    return;
  }
  if (append && (in = open(out->file, O_RDONLY)) < 0 && errno != ENOENT) snprintf(msg, RW_OUT_MSGLEN, "Cannot append to %s: cannot read it: %s", out->what, strerror(errno));
  while (in >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
    if (write(fd, buf, (size_t)n) != n) break;
  if (n != 0) {
    char why[256];

    RwFileSystemReason(out->partial, why, sizeof(why));
    snprintf(msg, RW_OUT_MSGLEN, "Cannot append to %s: copying it to %s failed: %s", out->what, out->partial, why[0] ? why : strerror(errno));
  }
  if (in >= 0) close(in);
  if (close(fd) && !msg[0]) snprintf(msg, RW_OUT_MSGLEN, "Cannot write %s: %s", out->what, strerror(errno));
  if (msg[0]) (void)unlink(out->partial);
}

/*@C
  RwOutputFileBegin - starts writing an output file as a whole: locks it,
  and gives the name to write it under (FILE.partial) until RwOutputFileEnd()

  Collective

  Input Parameters:
+ comm   - the ranks that write the file
. file   - the file
. append - add to the file's present content (PETSc's FILE_MODE_APPEND) rather than replace it
- what   - the file as messages name it, with its option ("-rw_gradient_view file g.h5")

  Output Parameters:
+ out  - the write, ended by RwOutputFileEnd()
- path - the name to open and write (with FILE_MODE_APPEND when append, else FILE_MODE_WRITE)

  Notes:
  Until RwOutputFileEnd(), a PETSc error says which file was being written
  and, when its file system is full or read-only, that reason.  A failed
  write leaves no partial file under the file's name, and the file itself
  as it was.

  Level: intermediate

.seealso: RwOutputFileEnd(), RwFileLockAcquire()
@*/
PetscErrorCode RwOutputFileBegin(MPI_Comm comm, const char file[], PetscBool append, const char what[], RwOutputFile *out, const char **path)
{
  RwOutputFile o;
  PetscMPIInt  rank;
  char         msg[RW_OUT_MSGLEN] = "";

  PetscFunctionBegin;
  PetscCall(PetscNew(&o));
  o->comm = comm;
  PetscCall(PetscStrncpy(o->file, file, sizeof(o->file)));
  PetscCall(PetscSNPrintf(o->partial, sizeof(o->partial), "%s.partial", file));
  PetscCall(PetscSNPrintf(o->what, sizeof(o->what), "%s %s", what, file));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  o->rank = rank;
  PetscCall(RwFileLockAcquire(comm, (PetscBool)!rank, file, o->what, &o->lock));
  if (!rank) Start0(o, append, msg);
  PetscCall(RwErrorAgree(comm, 0, PETSC_ERR_FILE_WRITE, msg, sizeof(msg)));
  PetscCall(RwFileLockRemoveAtExit(o->lock, o->partial));
  PetscCall(PetscPushErrorHandler(RwOutputErrorHandler, o));
  *out  = o;
  *path = o->partial;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwOutputFileEnd - the file is complete: every rank has closed it; it
  takes the file's name and the lock is released

  Collective

  Level: intermediate

.seealso: RwOutputFileBegin()
@*/
PetscErrorCode RwOutputFileEnd(RwOutputFile *out)
{
  RwOutputFile o = *out;
  PetscMPIInt  rank;
  char         msg[RW_OUT_MSGLEN] = "";

  PetscFunctionBegin;
  PetscCall(PetscPopErrorHandler());
  PetscCallMPI(MPI_Barrier(o->comm)); /* every rank has closed it */
  PetscCallMPI(MPI_Comm_rank(o->comm, &rank));
  if (!rank && rename(o->partial, o->file)) {
    snprintf(msg, sizeof(msg), "Cannot write %s: renaming %s onto it failed: %s", o->what, o->partial, strerror(errno));
    (void)unlink(o->partial);
  }
  PetscCall(RwErrorAgree(o->comm, 0, PETSC_ERR_FILE_WRITE, msg, sizeof(msg)));
  PetscCall(RwFileLockRelease(&o->lock));
  PetscCall(PetscFree(*out));
  PetscFunctionReturn(PETSC_SUCCESS);
}
