/*
  The hdf5 store's background workers: POSIX threads that move a slot's raw
  data between the file and a buffer of the store while the sweep goes on.
  The writer copies a staged state into a slot with pwrite(), then pushes
  those pages to the device (sync_file_range on Linux); the reader (prefetch)
  reads a slot into a buffer with pread() and checksums this rank's part, so
  that a restore only waits and copies.

  They call neither HDF5 nor MPI: Debian's parallel HDF5 1.10 is not
  thread-safe, and PETSc initializes MPI with MPI_THREAD_FUNNELED.  The main
  thread keeps every HDF5 and MPI call; the workers only need the file
  offsets of the slots' contiguous datasets (H5Dget_offset()) and this rank's
  runs of bytes in them, both fixed at set-up.
*/
#ifndef REWIND_STORE_H5WRITER_H
#define REWIND_STORE_H5WRITER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* This rank's contiguous runs of bytes within a slot, fixed at set-up */
typedef struct {
  size_t  nruns;
  off_t  *runoff; /* each run's offset from the slot's first byte */
  size_t *runlen; /* its length in bytes */
  size_t  bytes;  /* this rank's bytes: the sum of runlen */
} RwH5Runs;

typedef struct RwH5Writer RwH5Writer;
struct RwH5Writer {
  /* fixed at set-up */
  int         fd;     /* the checkpoint file, opened for the raw data only */
  const RwH5Runs *runs; /* the store's: the writer and the reader share them */
  const char *stage;  /* writer: the staged state, runs one after the other */
  char       *buf;    /* reader: where a slot's runs land, one after the other */
  uint64_t (*sum)(void *, const char *); /* the checksum of this rank's part of stage (writer) or buf (reader) */
  void       *sumctx;
  void (*job)(RwH5Writer *);
  pthread_t       thread;
  pthread_mutex_t lock;
  pthread_cond_t  cond;
  int             running; /* the thread exists */
  /* one job at a time, under lock */
  int         busy, quit;
  off_t       base;   /* the slot's file offset */
  int         kill;   /* writer, tests: SIGKILL once half of the bytes are written; reader, debugging: fail as a file cut short would */
  RwH5Writer *after;  /* reader: the writer whose job number ticket must have written its bytes first */
  long        ticket;
  long        posted, copied; /* writer: jobs posted, jobs whose bytes are written (or failed) */
  /* the last job's outcome and how long it took */
  int         err;    /* errno of the call that failed, 0 if none */
  const char *failed; /* the name of that call */
  double      seconds;
  uint64_t    local;  /* the checksum of what it wrote or read */
};

int  RwH5WriterStart(RwH5Writer *, const char path[]);
int  RwH5ReaderStart(RwH5Writer *, const char path[]);
void RwH5WriterPost(RwH5Writer *, off_t base, int kill);
void RwH5ReaderPost(RwH5Writer *, off_t base, RwH5Writer *after, long ticket, int fail);
int  RwH5WriterBusy(RwH5Writer *);
int  RwH5WriterWait(RwH5Writer *, double *waited);
int  RwH5WriterStop(RwH5Writer *);

#endif
