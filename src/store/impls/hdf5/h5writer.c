/* The hdf5 store's background writer and reader (h5writer.h): POSIX calls only, no HDF5, no MPI. */
#define _GNU_SOURCE /* sync_file_range() */
#include "h5writer.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static double RwH5WriterNow(void)
{
  struct timespec t;

  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Bytes [from, to) of the staged state (the runs one after the other) into the slot at base */
static int RwH5WriterCopy(RwH5Writer *w, off_t base, size_t from, size_t to)
{
  size_t first = 0; /* the staged offset of run r */

  for (size_t r = 0; r < w->runs->nruns; first += w->runs->runlen[r], r++) {
    size_t lo = from > first ? from : first, hi = to < first + w->runs->runlen[r] ? to : first + w->runs->runlen[r];

    while (lo < hi) {
      ssize_t n = pwrite(w->fd, w->stage + lo, hi - lo, base + w->runs->runoff[r] + (off_t)(lo - first));

      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n < 0 ? errno : EIO;
      lo += (size_t)n;
    }
  }
  return 0;
}

/* Starts the pages on their way to the device and waits for them, so the one
   fsync of the next flush has little left to do; not a barrier by itself */
static int RwH5WriterPush(RwH5Writer *w, off_t base)
{
#if defined(__linux__)
  off_t lo = base + w->runs->runoff[0], hi = base + w->runs->runoff[w->runs->nruns - 1] + (off_t)w->runs->runlen[w->runs->nruns - 1];

  if (sync_file_range(w->fd, lo, hi - lo, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER)) return errno;
#endif
  (void)w;
  (void)base;
  return 0;
}

/* Tells a reader waiting for this job's bytes that they are in the file (or never will be) */
static void RwH5WriterCopied(RwH5Writer *w)
{
  pthread_mutex_lock(&w->lock);
  w->copied++;
  pthread_cond_broadcast(&w->cond);
  pthread_mutex_unlock(&w->lock);
}

static void RwH5WriterJob(RwH5Writer *w)
{
  double t0 = RwH5WriterNow();

  w->failed = "pwrite";
  w->err    = RwH5WriterCopy(w, w->base, 0, w->runs->bytes / 2);
  if (!w->err && w->kill) raise(SIGKILL); /* tests: the slot's data half old, half new */
  if (!w->err) w->err = RwH5WriterCopy(w, w->base, w->runs->bytes / 2, w->runs->bytes);
  RwH5WriterCopied(w);
  w->local = w->err ? 0 : w->sum(w->sumctx, w->stage); /* off the sweep's thread; reduced at the settle */
  if (!w->err && w->runs->nruns) {
    w->failed = "sync_file_range";
    w->err    = RwH5WriterPush(w, w->base);
  }
  w->seconds = RwH5WriterNow() - t0;
}

/* The runs of the slot at base into buf, one after the other; a file that
   ends inside them is EIO: read as far as it goes, it is not the checkpoint */
static int RwH5ReaderCopy(RwH5Writer *r, off_t base)
{
  size_t first = 0;

  for (size_t i = 0; i < r->runs->nruns; first += r->runs->runlen[i], i++) {
    size_t lo = 0;

    while (lo < r->runs->runlen[i]) {
      ssize_t n = pread(r->fd, r->buf + first + lo, r->runs->runlen[i] - lo, base + r->runs->runoff[i] + (off_t)lo);

      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n < 0 ? errno : EIO;
      lo += (size_t)n;
    }
  }
  return 0;
}

/* A prefetch: after the writer has written the slot's new bytes, if it is
   writing them, the slot into buf and its checksum */
static void RwH5ReaderJob(RwH5Writer *r)
{
  double t0;

  if (r->after) {
    pthread_mutex_lock(&r->after->lock);
    while (r->after->copied < r->ticket) pthread_cond_wait(&r->after->cond, &r->after->lock);
    pthread_mutex_unlock(&r->after->lock);
  }
  t0        = RwH5WriterNow(); /* the reader's own work, not its wait for the writer */
  r->failed = r->kill ? "pread (simulated by -rw_store_hdf5_fail_read)" : "pread";
  r->err    = r->kill ? EIO : RwH5ReaderCopy(r, r->base);
  r->local  = r->err ? 0 : r->sum(r->sumctx, r->buf);
  r->seconds = RwH5WriterNow() - t0;
}

static void *RwH5WriterMain(void *arg)
{
  RwH5Writer *w = (RwH5Writer *)arg;

  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (!w->busy && !w->quit) pthread_cond_wait(&w->cond, &w->lock);
    if (w->quit) break;
    pthread_mutex_unlock(&w->lock);
    w->job(w);
    pthread_mutex_lock(&w->lock);
    w->busy = 0;
    pthread_cond_broadcast(&w->cond);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

/* Opens the file for the raw data and starts the thread; an errno on failure */
static int RwH5WorkerStart(RwH5Writer *w, const char path[], int flags, void (*job)(RwH5Writer *))
{
  int e;

  w->fd = open(path, flags);
  if (w->fd < 0) return errno;
  w->job = job;
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->cond, NULL);
  if ((e = pthread_create(&w->thread, NULL, RwH5WriterMain, w))) {
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    close(w->fd);
    w->fd = -1;
    return e;
  }
  w->running = 1;
  return 0;
}

int RwH5WriterStart(RwH5Writer *w, const char path[])
{
  return RwH5WorkerStart(w, path, O_WRONLY, RwH5WriterJob);
}

/* A reader fills buf (w->buf, w->sum set by the caller) from the file */
int RwH5ReaderStart(RwH5Writer *r, const char path[])
{
  return RwH5WorkerStart(r, path, O_RDONLY, RwH5ReaderJob);
}

/* Hands the staged state to the thread, for the slot whose data start at base */
void RwH5WriterPost(RwH5Writer *w, off_t base, int kill)
{
  pthread_mutex_lock(&w->lock);
  w->base = base;
  w->kill = kill;
  w->busy = 1;
  w->posted++;
  pthread_cond_broadcast(&w->cond);
  pthread_mutex_unlock(&w->lock);
}

/* Reads the slot whose data start at base into buf; when after is given,
   only once that writer's job number ticket has written its bytes (0: at once);
   fail: the read fails as one from a file cut short would (EIO) */
void RwH5ReaderPost(RwH5Writer *r, off_t base, RwH5Writer *after, long ticket, int fail)
{
  pthread_mutex_lock(&r->lock);
  r->base   = base;
  r->kill   = fail;
  r->after  = ticket > 0 ? after : NULL;
  r->ticket = ticket;
  r->busy   = 1;
  pthread_cond_broadcast(&r->cond);
  pthread_mutex_unlock(&r->lock);
}

/* Whether a job is in flight */
int RwH5WriterBusy(RwH5Writer *w)
{
  int busy;

  if (!w->running) return 0;
  pthread_mutex_lock(&w->lock);
  busy = w->busy;
  pthread_mutex_unlock(&w->lock);
  return busy;
}

/* Waits for the job in flight, if any, adding the time waited; its errno, 0 if it succeeded */
int RwH5WriterWait(RwH5Writer *w, double *waited)
{
  double t0 = RwH5WriterNow();

  pthread_mutex_lock(&w->lock);
  while (w->busy) pthread_cond_wait(&w->cond, &w->lock);
  pthread_mutex_unlock(&w->lock);
  *waited += RwH5WriterNow() - t0;
  return w->err;
}

/* Ends the thread and closes the file; an errno if closing failed */
int RwH5WriterStop(RwH5Writer *w)
{
  int e = 0;

  if (!w->running) return 0;
  pthread_mutex_lock(&w->lock);
  while (w->busy) pthread_cond_wait(&w->cond, &w->lock);
  w->quit = 1;
  pthread_cond_broadcast(&w->cond);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->cond);
  pthread_mutex_destroy(&w->lock);
  if (close(w->fd)) e = errno;
  w->fd      = -1;
  w->running = 0;
  return e;
}
