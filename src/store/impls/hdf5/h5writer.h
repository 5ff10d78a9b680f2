/*
  The hdf5 store's background writer: one POSIX thread that copies a staged
  state into a slot's raw data in the file with pwrite(), then pushes those
  pages to the device (sync_file_range on Linux), while the sweep goes on.

  It calls neither HDF5 nor MPI: Debian's parallel HDF5 1.10 is not
  thread-safe, and PETSc initializes MPI with MPI_THREAD_FUNNELED.  The main
  thread keeps every HDF5 and MPI call; the writer only needs the file
  offsets of the slots' contiguous datasets (H5Dget_offset()) and this rank's
  runs of bytes in them, both fixed at set-up.
*/
#ifndef REWIND_STORE_H5WRITER_H
#define REWIND_STORE_H5WRITER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
  /* fixed at set-up */
  int         fd;     /* the checkpoint file, opened for the raw data only */
  size_t      nruns;  /* this rank's contiguous runs of bytes within a slot */
  off_t      *runoff; /* each run's offset from the slot's first byte */
  size_t     *runlen; /* its length in bytes */
  size_t      bytes;  /* this rank's bytes: the sum of runlen */
  const char *stage;  /* the staged state, runs one after the other */
  pthread_t       thread;
  pthread_mutex_t lock;
  pthread_cond_t  cond;
  int             running; /* the thread exists */
  /* one job at a time, under lock */
  int   busy, quit;
  off_t base; /* the slot's file offset */
  int   kill; /* tests: SIGKILL once half of the bytes are written */
  /* the last job's outcome and how long it took */
  int         err;    /* errno of the call that failed, 0 if none */
  const char *failed; /* the name of that call */
  double      seconds;
} RwH5Writer;

int  RwH5WriterStart(RwH5Writer *, const char path[]);
void RwH5WriterPost(RwH5Writer *, off_t base, int kill);
int  RwH5WriterWait(RwH5Writer *, double *waited);
int  RwH5WriterStop(RwH5Writer *);

#endif
