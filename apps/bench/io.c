/*
  Checkpoint bandwidth: RwStoreWrite and RwStoreRead of an hdf5 store (one
  shared file, collective) against each rank writing the same bytes to its own
  file in the same directory with write() + fdatasync(), and reading them back
  with read().  Reads of both are served by the page cache when the data fit
  in RAM: they measure the software path, not the disk.
*/
#include "bench.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

typedef struct {
  RwStore    store;
  Vec        u;
  PetscInt64 slots, next;
  int        fd;
  size_t     bytes; /* this rank's part of a state */
  char      *buf;
  PetscBool  write;
} IOCtx;

static PetscErrorCode IOStore(void *ctx, PetscInt calls)
{
  IOCtx *c = (IOCtx *)ctx;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++, c->next++) {
    PetscInt64 slot = c->next % c->slots;
    if (c->write) PetscCall(RwStoreWrite(c->store, slot, slot, c->u));
    else PetscCall(RwStoreRead(c->store, slot, slot, c->u));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One state's bytes from this rank through write() + fdatasync() or read() */
static PetscErrorCode IOPlain(void *ctx, PetscInt calls)
{
  IOCtx  *c = (IOCtx *)ctx;
  ssize_t done;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < calls; i++) {
    done = c->write ? pwrite(c->fd, c->buf, c->bytes, 0) : pread(c->fd, c->buf, c->bytes, 0);
    PetscCheck(done == (ssize_t)c->bytes, PETSC_COMM_SELF, c->write ? PETSC_ERR_FILE_WRITE : PETSC_ERR_FILE_READ, "Plain %s of %zu bytes in -rw_bench_dir moved %zd: %s", c->write ? "write" : "read", c->bytes, done, strerror(errno));
    if (c->write) PetscCheck(fdatasync(c->fd) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "fdatasync in -rw_bench_dir failed: %s", strerror(errno));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IORow(BenchResults res, const char *name, PetscReal mb, const BenchTiming *t, PetscReal plain)
{
  PetscFunctionBegin;
  PetscCall(BenchRow(res, "%s", name));
  PetscCall(BenchReal(res, "state", "MB", mb));
  PetscCall(BenchReal(res, "time", "ms", 1e3 * t->best));
  PetscCall(BenchReal(res, "bw", "MB/s", mb / t->best));
  PetscCall(BenchReal(res, "of_plain", "", plain > 0 ? plain / t->best : 1.0));
  PetscCall(BenchReal(res, "spread", "%", 100 * BenchSpread(t)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hdf5 store of a state vector, writable in slots 0..slots-1 */
static PetscErrorCode IOStoreCreate(const BenchConfig *cfg, IOCtx *c)
{
  PetscOptions opts;
  char         file[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(BenchPath(cfg, "rewind-bench-io.h5", file, sizeof(file)));
  PetscCall(BenchOptionsPush(&opts, "-rw_store_hdf5_file %s", file));
  PetscCall(RwStoreCreate(PETSC_COMM_WORLD, &c->store));
  PetscCall(RwStoreSetType(c->store, RWSTOREHDF5));
  PetscCall(RwStoreSetSlots(c->store, c->slots));
  PetscCall(RwStoreSetTemplate(c->store, c->u));
  PetscCall(RwStoreSetFromOptions(c->store));
  PetscCall(RwStoreSetUp(c->store));
  PetscCall(BenchOptionsPop(&opts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's plain file: open, agreed across ranks so that a failure stops all */
static PetscErrorCode IOPlainOpen(const BenchConfig *cfg, IOCtx *c, char path[], size_t len)
{
  PetscMPIInt rank;
  int         ok, all;
  char        name[64];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscSNPrintf(name, sizeof(name), "rewind-bench-plain-%d.bin", rank));
  PetscCall(BenchPath(cfg, name, path, len));
  c->fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
  ok    = c->fd >= 0;
  PetscCallMPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCheck(all, PETSC_COMM_WORLD, PETSC_ERR_FILE_OPEN, "-rw_bench_dir %s: cannot create files there (%s on some rank)", cfg->dir, ok ? "ok here, failed" : strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchIO(const BenchConfig *cfg, BenchResults res)
{
  const PetscInt M[2] = {cfg->io_grid, cfg->io_grid};
  RwModel        model;
  IOCtx          c;
  BenchTiming    pw, pr, hw, hr;
  PetscInt       n, N;
  char           path[PETSC_MAX_PATH_LEN], grid[64];
  PetscReal      mb;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  PetscCall(BenchSectionBegin(res, "io", "checkpoint write and read: hdf5 store against plain files"));
  PetscCall(BenchHeatModel(PETSC_COMM_WORLD, 2, "explicit", M, &model));
  PetscCall(BenchGridName(model, grid, sizeof(grid)));
  PetscCall(RwModelCreateState(model, &c.u));
  PetscCall(VecSet(c.u, 1.0));
  PetscCall(VecGetLocalSize(c.u, &n));
  PetscCall(VecGetSize(c.u, &N));
  mb      = N * sizeof(PetscScalar) / 1e6;
  c.slots = cfg->io_slots;
  c.bytes = n * sizeof(PetscScalar);
  PetscCall(PetscMalloc1(c.bytes, &c.buf));
  PetscCall(PetscMemzero(c.buf, c.bytes));
  PetscCall(IOPlainOpen(cfg, &c, path, sizeof(path)));
  c.write = PETSC_TRUE;
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, IOPlain, &c, &pw));
  c.write = PETSC_FALSE;
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, IOPlain, &c, &pr));
  PetscCheck(close(c.fd) == 0 && unlink(path) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot close or remove %s: %s", path, strerror(errno));
  PetscCall(IOStoreCreate(cfg, &c));
  c.write = PETSC_TRUE;
  PetscCall(IOStore(&c, c.slots)); /* every slot valid before the reads */
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, IOStore, &c, &hw));
  c.write = PETSC_FALSE;
  PetscCall(BenchTime(PETSC_COMM_WORLD, cfg, IOStore, &c, &hr));
  PetscCall(IORow(res, "plain write+fdatasync", mb, &pw, 0));
  PetscCall(IORow(res, "hdf5 store write", mb, &hw, pw.best));
  PetscCall(IORow(res, "plain read", mb, &pr, 0));
  PetscCall(IORow(res, "hdf5 store read", mb, &hr, pr.best));
  PetscCall(BenchNote(res, "one state of the %s grid (%.4g MB) per operation, in -rw_bench_dir %s; hdf5: %" PetscInt64_FMT " slots written in turn, each write marked valid only after its data (doc/checkpoints.md)", grid, (double)mb, cfg->dir, c.slots));
  PetscCall(BenchNote(res, "plain: each rank writes its part of the state to its own file with pwrite() + fdatasync(), reads it with pread(); of_plain = plain time / hdf5 time; reads come from the page cache"));
  PetscCall(BenchSectionEnd(res));
  PetscCall(RwStoreDestroy(&c.store));
  PetscCall(PetscFree(c.buf));
  PetscCall(VecDestroy(&c.u));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}
