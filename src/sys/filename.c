/*
  File names with a tag: "ck.h5" tagged m3 is "ck-m3.h5".  The tag goes
  before the extension of the last component, so that the files of the
  members of an ensemble sit beside the name the user gave and keep its type
  (RwEnsembleGetMemberFileName(), RwAdjointSetFileTag(), RwStoreHDF5SetFileTag()).
  And what the file system says of a failed write (RwFileSystemReason()).
*/
#include <rewind/private/rwimpl.h>
#include <errno.h>
#include <string.h>
#include <sys/statvfs.h>

/*@C
  RwFileNameTag - a file name with "-<tag>" before the extension of its last
  component: "ck.h5" -> "ck-m3.h5", "run.d/ck" -> "run.d/ck-m3", "/tmp/.h5" -> "/tmp/.h5-m3"

  Not collective

  Input Parameters:
+ file - the name
. tag  - the tag; NULL or empty: the name unchanged
- len  - the size of out

  Output Parameter:
. out - the tagged name (not file itself)

  Level: developer
@*/
PetscErrorCode RwFileNameTag(const char file[], const char tag[], char out[], size_t len)
{
  const char *slash = strrchr(file, '/'), *dot = strrchr(file, '.');
  size_t      stem;

  PetscFunctionBegin;
  if (!tag || !tag[0]) {
    PetscCheck(strlen(file) < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "File name %s is too long: %zu characters at most", file, len - 1);
    PetscCall(PetscStrncpy(out, file, len));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* a dot in a directory name, or a leading dot (".h5"), is no extension */
  if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : file)) dot = file + strlen(file);
  stem = (size_t)(dot - file);
  PetscCheck(stem + 1 + strlen(tag) + strlen(dot) < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "File name %s with tag %s is too long: %zu characters at most", file, tag, len - 1);
  PetscCall(PetscSNPrintf(out, len, "%.*s-%s%s", (int)stem, file, tag, dot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A tag fit for RwFileNameTag(): short, and no directory of its own */
PetscErrorCode RwFileTagCheck(MPI_Comm comm, const char tag[])
{
  PetscFunctionBegin;
  if (!tag) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(strlen(tag) < RW_FILE_TAG_LEN, comm, PETSC_ERR_ARG_SIZ, "File tag %s: at most %d characters", tag, RW_FILE_TAG_LEN - 1);
  PetscCheck(!strchr(tag, '/'), comm, PETSC_ERR_ARG_WRONG, "File tag %s: expected a name without '/', which goes into the file's name (ck.h5 -> ck-<tag>.h5)", tag);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RwFileSystemReason - why a write to path failed, as far as its file system
  tells: "Read-only file system", or "No space left on device (N kB free)"
  when less than 1 MB is left; "" when it tells neither (a quota, an I/O
  error: the caller's own reason stands).  Safe in an error handler.
*/
void RwFileSystemReason(const char path[], char buf[], size_t len)
{
  struct statvfs fs;

  buf[0] = 0;
  if (statvfs(path, &fs)) return;
  if (fs.f_flag & ST_RDONLY) snprintf(buf, len, "%s", strerror(EROFS));
  else if ((double)fs.f_bavail * (double)fs.f_frsize < 1e6) snprintf(buf, len, "%s (%.0f kB free)", strerror(ENOSPC), (double)fs.f_bavail * (double)fs.f_frsize / 1e3);
}
