/*
  The hdf5 store: checkpoints in one parallel HDF5 file shared by all ranks
  (or one file per node), one dataset per slot shaped like the global grid.
  doc/checkpoints.md describes the file for its readers (h5dump, h5py).

    /            attributes format, identity, slots, layout (node files: node,
                 nodes, blocks)
    /slot_<i>    the state of slot i in natural grid order, shape (z, y, x) with
                 dof as a last dimension when dof > 1; attributes model, dim,
                 grid, dof (fixed at set-up) and step, time, checksum, valid

  Datasets and attributes are all created at set-up: the time loop only writes.
  A write clears the slot's valid mark and flushes once (which also commits
  the previous write's record and mark), writes the data (in a background
  thread), and puts its record and mark in once the data are complete, so a
  crash at any moment leaves the slot either valid with complete data or not
  valid (RwStoreWrite_HDF5, doc/checkpoints.md).  A read checks the mark, step, grid and dof, and the checksum of what
  it read.

  The checksum does not depend on the decomposition: the sum, modulo 2^64, of
  splitmix64(splitmix64(i) ^ bits(v)) over the values v and their natural
  indices i = ((z ny + y) nx + x) dof + c, reduced with a wrapping MPI_SUM.

  Every rank makes every HDF5 call; a failure anywhere is agreed over the
  store's communicator before it is raised, so no rank is left waiting in a
  later collective call, and every rank reports the same cause.
*/
#include <rewind/private/storeimpl.h>
#include <petscdmda.h>
#include "h5writer.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#if !defined(PETSC_USE_REAL_DOUBLE) || defined(PETSC_USE_COMPLEX)
  #error "the hdf5 store keeps real double-precision states"
#endif

#define RW_H5_WHERELEN (PETSC_MAX_PATH_LEN + 128)
#define RW_H5_MSGLEN   (2 * PETSC_MAX_PATH_LEN + 1024)
#define RW_H5_FORMAT "rewind checkpoints 2" /* 2: checksummed HDF5 metadata, record checksums, per-solve identity */
#define RW_H5_SOLVELEN 1024 /* the root's "solve" is rewritten in place: a fixed size */

typedef enum {
  RW_H5_WORLD,
  RW_H5_NODE
} RwStoreHDF5Comm;
static const char *const RwStoreHDF5Comms[] = {"world", "node", "RwStoreHDF5Comm", "RW_H5_", NULL};

/* What a failing HDF5 call was doing, for the message and the error code */
typedef enum {
  RW_H5_CREATE,
  RW_H5_OPEN,
  RW_H5_WRITE,
  RW_H5_READ,
  RW_H5_CLOSE
} RwH5Doing;
static const char *const    RwH5Verbs[] = {"creating", "opening", "writing", "reading", "closing"};
static const PetscErrorCode RwH5Codes[] = {PETSC_ERR_FILE_WRITE, PETSC_ERR_FILE_OPEN, PETSC_ERR_FILE_WRITE, PETSC_ERR_FILE_READ, PETSC_ERR_FILE_WRITE};

typedef struct {
  /* options */
  char            file[PETSC_MAX_PATH_LEN]; /* -rw_store_hdf5_file */
  RwStoreHDF5Comm comm;                     /* -rw_store_hdf5_comm */
  PetscBool       keep;                     /* -rw_store_keep */
  PetscBool       overwrite;                /* -rw_store_overwrite: replace an existing file */
  PetscInt        alignment;                /* -rw_store_hdf5_alignment; 0: none */
  PetscInt        failwrite;                /* -rw_store_hdf5_fail_write; 0: never */
  PetscInt        failread, prefetched;     /* -rw_store_hdf5_fail_read; 0: never; the prefetches posted so far */
  PetscBool       async;                    /* -rw_store_hdf5_async: a background thread writes the data */
  PetscBool       prefetch;                 /* -rw_store_hdf5_prefetch: a background thread reads the slot the driver restores next */
  PetscInt        killwrite, killmark;      /* -rw_debug_kill_in_write, -rw_debug_kill_before_mark; 0: never */
  /* the file */
  char      path[PETSC_MAX_PATH_LEN]; /* this rank's file: file, or file with its node's suffix */
  MPI_Comm  fcomm;                    /* the ranks sharing the file */
  PetscInt  node, nodes;
  hid_t     fid, dxpl, rdxpl, memspace, filespace, *dset; /* dxpl: collective writes; rdxpl: independent reads */
  int64_t  *attach; /* a slot's attachment as read back, before its record checksum vouches for it */
  PetscBool opened;
  PetscBool owned; /* created here, or reopened and found to be this problem's: removed at the end unless kept */
  char      filesolve[RW_H5_SOLVELEN]; /* a reopened file's solve, and whether it completed */
  int       filecomplete;
  /* the grid, x first; a plain vector is a 1D grid */
  PetscInt dim, dof, M[3], start[3], count[3], n;
  int      frank; /* the datasets' rank and shape, and this rank's hyperslab */
  hsize_t  fdims[4], fstart[4], fcount[4];
  RwH5Runs    runs;     /* this rank's runs of bytes in a slot, for the threads */
  /* the write whose record is not yet in the file (see RwStoreWrite_HDF5) */
  RwH5Writer  writer;   /* the background thread, when async */
  Vec         stage;    /* the store's copy of a state it writes (RwStoreWrite) */
  Vec         held;     /* a state it took (RwStoreWriteTake), or its spare before any: handed back at the next take */
  haddr_t    *offset;   /* each slot's data in the file */
  PetscBool   inflight; /* the thread is writing the pending write's data */
  PetscBool   pending;  /* a write's data are written, or being written, and its record is not */
  PetscBool   uncommitted; /* a record is in HDF5's cache but not yet flushed */
  PetscInt64  pslot, pstep;
  uint64_t    plocal, psum; /* the pending state's checksum: this rank's part, the whole */
  int64_t    *pattach;  /* the pending write's attachment */
  int64_t     generation; /* writes started in this file's life; the root's "generation": those committed */
  /* the prefetch (RwStorePrefetch_HDF5): the reader thread reads one slot ahead of its restore */
  RwH5Writer   reader;
  Vec          rbuf;     /* what it read; RwStoreReadSwap gives it away and keeps the caller's vector instead */
  int64_t     *written;  /* each slot's writes in this store's life: a prefetch of an older one is stale */
  PetscBool    fposted;  /* a prefetch was posted and not yet used or discarded */
  PetscInt64   fslot, fstep;
  int64_t      fwritten; /* written[fslot] when it was posted */
  PetscBool   hasgen;     /* the root has "generation" (a file of an earlier rewind may not) */
  /* counters */
  PetscInt       calls; /* writes attempted */
} RwStore_HDF5;

/* The fixed and the changing attributes of one slot, as read back */
typedef struct {
  int         valid;
  int64_t     step, dim, dof, grid[3];
  double      time;
  uint64_t    checksum, record;
  int64_t    *attach;  /* nattach values, in a buffer of the store's */
  const char *missing; /* the first attribute absent or a list of another length */
} RwH5Record;

/* ---- HDF5-level helpers: return a negative status on failure, like HDF5 --- */

/* Writes an attribute created at set-up */
static herr_t RwH5AttrPut(hid_t obj, const char name[], hid_t memtype, const void *buf)
{
  hid_t  a = H5Aopen(obj, name, H5P_DEFAULT);
  herr_t s;

  if (a < 0) return -1;
  s = H5Awrite(a, memtype, buf);
  return H5Aclose(a) < 0 ? -1 : s;
}

/* Creates an attribute of n values (a scalar when n is 0) and writes it */
static herr_t RwH5AttrNew(hid_t obj, const char name[], hid_t filetype, hid_t memtype, hsize_t n, const void *buf)
{
  hid_t  sp = n ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_SCALAR), a;
  herr_t s  = -1;

  if (sp < 0) return -1;
  a = H5Acreate2(obj, name, filetype, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    s = H5Awrite(a, memtype, buf);
    if (H5Aclose(a) < 0) s = -1;
  }
  return H5Sclose(sp) < 0 ? -1 : s;
}

/* A fixed-length NUL-terminated string type of len bytes, which h5dump and h5py show as text */
static hid_t RwH5StringType(size_t len)
{
  hid_t t = H5Tcopy(H5T_C_S1);

  if (t < 0) return -1;
  if (H5Tset_size(t, len) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
    H5Tclose(t);
    return -1;
  }
  return t;
}

static herr_t RwH5AttrNewString(hid_t obj, const char name[], const char str[])
{
  hid_t  t = RwH5StringType(strlen(str) + 1);
  herr_t s;

  if (t < 0) return -1;
  s = RwH5AttrNew(obj, name, t, t, 0, str);
  return H5Tclose(t) < 0 ? -1 : s;
}

/* "a 64-bit signed integer", "a fixed-length string": what rewind writes for memtype */
static void RwH5TypeWanted(hid_t memtype, char buf[], size_t len)
{
  size_t size = H5Tget_size(memtype);

  switch (H5Tget_class(memtype)) {
  case H5T_INTEGER:
    snprintf(buf, len, "a %d-bit %s integer", (int)(8 * size), H5Tget_sign(memtype) == H5T_SGN_NONE ? "unsigned" : "signed");
    break;
  case H5T_FLOAT:
    snprintf(buf, len, "a %d-bit IEEE float", (int)(8 * size));
    break;
  default:
    snprintf(buf, len, "a fixed-length string");
  }
}

/* "type class float (4 bytes)", as HDF5 classifies what the file holds */
static void RwH5TypeSeen(hid_t ftype, char buf[], size_t len)
{
  static const char *const classes[] = {"integer", "float", "time", "string", "bitfield", "opaque", "compound", "reference", "enum", "variable-length", "array"};
  H5T_class_t              c         = H5Tget_class(ftype);
  const char              *name      = c >= 0 && c < (int)(sizeof(classes) / sizeof(classes[0])) ? classes[c] : "unknown";

  if (c == H5T_STRING && H5Tis_variable_str(ftype) > 0) snprintf(buf, len, "type class variable-length string");
  else if (c == H5T_INTEGER) snprintf(buf, len, "type class %s integer (%zu bytes)", H5Tget_sign(ftype) == H5T_SGN_NONE ? "unsigned" : "signed", H5Tget_size(ftype));
  else snprintf(buf, len, "type class %s (%zu bytes)", name, H5Tget_size(ftype));
}

/* Whether the file's type is the one rewind writes where it reads memtype:
   the same class, size and precision (and sign for integers); any fixed-length
   string for a string.  The byte order is left to HDF5's conversion. */
static htri_t RwH5TypeIs(hid_t ftype, hid_t memtype)
{
  H5T_class_t fc = H5Tget_class(ftype), mc = H5Tget_class(memtype);

  if (fc < 0 || mc < 0) return -1;
  if (fc != mc) return 0;
  if (mc == H5T_STRING) return H5Tis_variable_str(ftype) == 0;
  if (H5Tget_size(ftype) != H5Tget_size(memtype) || H5Tget_precision(ftype) != H5Tget_precision(memtype)) return 0;
  return mc != H5T_INTEGER || H5Tget_sign(ftype) == H5Tget_sign(memtype);
}

/* Whether an object's type is what rewind wrote; if not, why not, in why:
   what = "attribute \"step\" of /slot_3", "dataset /slot_3" */
static htri_t RwH5CheckType(hid_t ftype, hid_t memtype, const char what[], char why[], size_t len)
{
  htri_t is = RwH5TypeIs(ftype, memtype);
  char   seen[96], wanted[64];

  if (is == 0) {
    RwH5TypeSeen(ftype, seen, sizeof(seen));
    RwH5TypeWanted(memtype, wanted, sizeof(wanted));
    snprintf(why, len, "%s has %s, expected %s: the file is damaged or not rewind's", what, seen, wanted);
  }
  return is;
}

/* Whether a dataspace is the scalar (n = 0) or the one-dimensional list
   (n > 0) rewind writes; -1 (and why) for another kind, 1 for a list of another length */
static int RwH5CheckSpace(hid_t space, hsize_t n, const char what[], char why[], size_t len)
{
  H5S_class_t c    = H5Sget_simple_extent_type(space);
  int         rank = c == H5S_SIMPLE ? H5Sget_simple_extent_ndims(space) : 0;
  hsize_t     dims[1];

  if (n && c == H5S_SIMPLE && rank == 1 && H5Sget_simple_extent_dims(space, dims, NULL) == 1) return dims[0] == n ? 0 : 1;
  if (!n && c == H5S_SCALAR) return 0;
  snprintf(why, len, "%s has a %s dataspace%s, expected %s: the file is damaged or not rewind's", what, c == H5S_SCALAR ? "scalar" : c == H5S_NULL ? "null" : c == H5S_SIMPLE ? "simple" : "unreadable", c == H5S_SIMPLE && rank != 1 ? " of another rank" : "", n ? "a one-dimensional list" : "a scalar");
  return -1;
}

/* Puts a message of rewind's on HDF5's error stack, after the calls that would clear it */
static herr_t RwH5Refuse(const char func[], const char why[])
{
  H5Epush2(H5E_DEFAULT, __FILE__, func, __LINE__, H5E_ERR_CLS, H5E_ARGS, H5E_BADTYPE, "%s", why);
  return -1;
}

/* "attribute \"step\" of /slot_3", for messages */
static void RwH5AttrWhat(hid_t obj, const char name[], char buf[], size_t len)
{
  char    path[64] = "?";
  ssize_t l        = H5Iget_name(obj, path, sizeof(path));

  if (l <= 0) snprintf(path, sizeof(path), "?");
  snprintf(buf, len, "attribute \"%s\" of %s", name, path);
}

/* Reads an attribute of n values (a scalar when n is 0); 1 when it is absent
   or a list of another length.  Its type and dataspace are checked first, so
   HDF5 converts (and writes into buf) nothing but what rewind wrote. */
static herr_t RwH5AttrGet(hid_t obj, const char name[], hid_t memtype, hsize_t n, void *buf)
{
  htri_t e = H5Aexists(obj, name);
  hid_t  a, sp = -1, ft = -1, es = -1;
  herr_t s         = -1;
  char   what[128] = "", why[256] = "";

  if (e <= 0) return e < 0 ? -1 : 1;
  if ((a = H5Aopen(obj, name, H5P_DEFAULT)) < 0) return -1;
  RwH5AttrWhat(obj, name, what, sizeof(what));
  if ((ft = H5Aget_type(a)) >= 0 && (sp = H5Aget_space(a)) >= 0 && RwH5CheckType(ft, memtype, what, why, sizeof(why)) > 0) s = RwH5CheckSpace(sp, n, what, why, sizeof(why));
  if (s == 0) s = H5Aread(a, memtype, buf);
  if (s < 0 && !why[0]) es = H5Eget_current_stack(); /* HDF5's reason, which the closes would clear */
  if (sp >= 0 && H5Sclose(sp) < 0) s = -1;
  if (ft >= 0 && H5Tclose(ft) < 0) s = -1;
  if (H5Aclose(a) < 0) s = -1;
  if (es >= 0) H5Eset_current_stack(es);
  return why[0] ? RwH5Refuse("RwH5AttrGet", why) : s;
}

/* Reads a string attribute into buf, truncated to len - 1 characters; 1 when absent */
static herr_t RwH5AttrGetString(hid_t obj, const char name[], char buf[], size_t len)
{
  hid_t  t = RwH5StringType(len), es = -1;
  herr_t s;

  if (t < 0) return -1;
  buf[0] = 0;
  s      = RwH5AttrGet(obj, name, t, 0, buf);
  buf[len - 1] = 0;
  if (s < 0) es = H5Eget_current_stack(); /* the reason, which H5Tclose would clear */
  if (H5Tclose(t) < 0) s = -1;
  if (es >= 0) H5Eset_current_stack(es);
  return s;
}


/* The checksum of a slot's record: what a read trusts beside the data (the
   slot, the step, the time, the data's checksum and the attachment), chained
   through splitmix64, so that a changed bit in any of them is found */
static uint64_t RwH5RecordSum(int64_t slot, int64_t step, double time, uint64_t checksum, PetscInt nattach, const int64_t attach[])
{
  uint64_t h = RwSplitMix64(0x7265776e64ULL), t; /* "rewnd" */

  memcpy(&t, &time, sizeof(t));
  h = RwSplitMix64(h ^ (uint64_t)slot);
  h = RwSplitMix64(h ^ (uint64_t)step);
  h = RwSplitMix64(h ^ t);
  h = RwSplitMix64(h ^ checksum);
  h = RwSplitMix64(h ^ (uint64_t)nattach);
  for (PetscInt i = 0; i < nattach; i++) h = RwSplitMix64(h ^ (uint64_t)attach[i]);
  return h;
}

/* Everything a read or a restart checks, in one pass over the attributes */
static herr_t RwH5GetRecord(hid_t dset, PetscInt dim, PetscInt nattach, int64_t attach[], RwH5Record *r)
{
  struct {
    const char *name;
    hid_t       type;
    hsize_t     n;
    void       *buf;
  } attr[] = {
    {"valid",           H5T_NATIVE_INT,    0,                &r->valid   },
    {"step",            H5T_NATIVE_INT64,  0,                &r->step    },
    {"dim",             H5T_NATIVE_INT64,  0,                &r->dim     },
    {"grid",            H5T_NATIVE_INT64,  (hsize_t)dim,     r->grid     },
    {"dof",             H5T_NATIVE_INT64,  0,                &r->dof     },
    {"time",            H5T_NATIVE_DOUBLE, 0,                &r->time    },
    {"checksum",        H5T_NATIVE_UINT64, 0,                &r->checksum},
    {"record_checksum", H5T_NATIVE_UINT64, 0,                &r->record  },
    {"attachment",      H5T_NATIVE_INT64,  (hsize_t)nattach, attach      }
  };

  memset(r, 0, sizeof(*r));
  r->attach = attach;
  for (size_t i = 0; i < sizeof(attr) / sizeof(attr[0]) - (nattach ? 0 : 1); i++) {
    herr_t s = RwH5AttrGet(dset, attr[i].name, attr[i].type, attr[i].n, attr[i].buf);

    if (s < 0) return -1;
    if (s > 0 && !r->missing) r->missing = attr[i].name;
  }
  return 0;
}

/* ---- agreement and messages ------------------------------------------------ */

/* Each rank states its problem (msg empty: none); if any rank has one, every
   rank raises the error of the lowest such rank */
static PetscErrorCode RwStoreHDF5Agree(RwStore store, PetscErrorCode code, char msg[])
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)store);
  PetscMPIInt rank, size, mine, first;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  mine = msg[0] ? rank : size;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Bcast(msg, RW_H5_MSGLEN, MPI_CHAR, first, comm));
  SETERRQ(comm, code, "%s", msg);
}

/* "-<prefix>rw_store_hdf5_file", as the user types it */
static void RwStoreHDF5Option(RwStore store, const char name[], char buf[], size_t len)
{
  const char *prefix = ((PetscObject)store)->prefix;

  snprintf(buf, len, "-%s%s", prefix ? prefix : "", name + 1);
}

/* "checkpoint /slot_3 in file ck.h5 (step 12)"; without the step when it is
   not known (k < 0), "file ck.h5" for the file as a whole (slot < 0) */
static void RwStoreHDF5Where(RwStore store, PetscInt64 slot, PetscInt64 k, char buf[], size_t len)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  if (slot < 0) snprintf(buf, len, "file %s", h5->path);
  else if (k < 0) snprintf(buf, len, "checkpoint /slot_%" PetscInt64_FMT " in file %s", slot, h5->path);
  else snprintf(buf, len, "checkpoint /slot_%" PetscInt64_FMT " in file %s (step %" PetscInt64_FMT ")", slot, h5->path, k);
}

/* A failed write most often means a full disk or quota: say how much room is left */
static void RwStoreHDF5WriteHint(RwStore store, char msg[], size_t len)
{
  RwStore_HDF5  *h5 = (RwStore_HDF5 *)store->data;
  struct statvfs fs;

  snprintf(msg + strlen(msg), len - strlen(msg), "; the checkpoint is not valid");
  if (!statvfs(h5->path, &fs)) snprintf(msg + strlen(msg), len - strlen(msg), " (%.4g MB free on the file system; is the disk full or over quota?)", (double)fs.f_bavail * (double)fs.f_frsize / 1e6);
}

/* Agrees on the status of an HDF5 call every rank made; a failure is reported
   with the file, the checkpoint and HDF5's own explanation */
static PetscErrorCode RwStoreHDF5Why(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Doing doing, herr_t status, char msg[])
{
  PetscFunctionBegin;
  if (PetscUnlikely(status < 0)) {
    char where[RW_H5_WHERELEN], why[256];

    PetscCall(RwHDF5ErrorMessage(why, sizeof(why)));
    RwStoreHDF5Where(store, slot, k, where, sizeof(where));
    snprintf(msg, RW_H5_MSGLEN, "%s %s failed: %s", RwH5Verbs[doing], where, why);
    if (doing == RW_H5_WRITE) RwStoreHDF5WriteHint(store, msg, RW_H5_MSGLEN);
    else if (strstr(why, "metadata checksum")) snprintf(msg + strlen(msg), RW_H5_MSGLEN - strlen(msg), ": the file is damaged");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreHDF5Check(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Doing doing, herr_t status)
{
  char msg[RW_H5_MSGLEN] = "";

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Why(store, slot, k, doing, status, msg));
  PetscCall(RwStoreHDF5Agree(store, RwH5Codes[doing], msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Like RwCallHDF5(), for a call (or helper) made by every rank, returning a handle or a status */
#define RwH5Try(store, slot, k, doing, call) PetscCall(RwStoreHDF5Check(store, slot, k, doing, (call) < 0 ? -1 : 0))
#define RwH5TryReturn(ret, store, slot, k, doing, call) \
  do { \
    ret = (call); \
    PetscCall(RwStoreHDF5Check(store, slot, k, doing, (ret) < 0 ? -1 : 0)); \
  } while (0)

/* "4096 x 4096 x 3" */
static void RwH5Shape(int rank, const hsize_t dims[], char buf[], size_t len)
{
  buf[0] = 0;
  for (int i = 0; i < rank; i++) snprintf(buf + strlen(buf), len - strlen(buf), "%s%llu", i ? " x " : "", (unsigned long long)dims[i]);
}

/* ---- the checksum ---------------------------------------------------------- */


/* The checksum of the state over the file's ranks, from this rank's part
   local, and the agreement on msg, in one reduction when the file is the
   store's communicator's (world files): a store operation then costs one
   collective call, not two.  Node files reduce over the node, then agree. */
static PetscErrorCode RwStoreHDF5AgreeSum(RwStore store, PetscErrorCode code, char msg[], uint64_t local, uint64_t *sum)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  uint64_t      in[2] = {local, msg[0] ? 1 : 0}, out[2];

  PetscFunctionBegin;
  if (h5->comm == RW_H5_NODE) {
    PetscCall(RwStoreHDF5Agree(store, code, msg));
    PetscCallMPI(MPI_Allreduce(&local, sum, 1, MPI_UINT64_T, MPI_SUM, h5->fcomm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_SUM, h5->fcomm));
  if (out[1]) PetscCall(RwStoreHDF5Agree(store, code, msg)); /* some rank failed: raise its message everywhere */
  *sum = out[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- set-up ---------------------------------------------------------------- */

/* The global grid and this rank's block, from the template's DMDA */
static PetscErrorCode RwStoreHDF5Layout(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  DM            dm;
  PetscBool     isda = PETSC_FALSE;
  PetscInt      lo, hi, nlocal;

  PetscFunctionBegin;
  PetscCall(VecGetDM(store->templ, &dm));
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  for (int d = 0; d < 3; d++) {
    h5->M[d]     = 1;
    h5->start[d] = 0;
    h5->count[d] = 1;
  }
  if (isda) {
    PetscCall(DMDAGetInfo(dm, &h5->dim, &h5->M[0], &h5->M[1], &h5->M[2], NULL, NULL, NULL, &h5->dof, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(dm, &h5->start[0], &h5->start[1], &h5->start[2], &h5->count[0], &h5->count[1], &h5->count[2]));
  } else { /* a plain vector: a 1D grid in the order of its ownership ranges */
    PetscCall(VecGetSize(store->templ, &h5->M[0]));
    PetscCall(VecGetOwnershipRange(store->templ, &lo, &hi));
    h5->dim      = 1;
    h5->dof      = 1;
    h5->start[0] = lo;
    h5->count[0] = hi - lo;
  }
  h5->n = h5->count[0] * h5->count[1] * h5->count[2] * h5->dof;
  PetscCall(VecGetLocalSize(store->templ, &nlocal));
  PetscCheck(nlocal == h5->n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The store's template has %" PetscInt_FMT " local values but its DMDA block has %" PetscInt_FMT, nlocal, h5->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ranks sharing a file and its name: ck.h5 for all ranks, ck-node<i>.h5 per node */
static PetscErrorCode RwStoreHDF5FileComm(RwStore store)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)store), leaders;
  PetscMPIInt   rank, frank, node = 0, nodes = 1;
  size_t        len;
  PetscBool     h5ext;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(h5->path, h5->file, sizeof(h5->path)));
  if (h5->comm == RW_H5_WORLD) {
    PetscCallMPI(MPI_Comm_dup(comm, &h5->fcomm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &h5->fcomm));
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  /* nodes are numbered in the order of their first ranks */
  PetscCallMPI(MPI_Comm_split(comm, frank ? MPI_UNDEFINED : 0, rank, &leaders));
  if (leaders != MPI_COMM_NULL) {
    PetscCallMPI(MPI_Comm_rank(leaders, &node));
    PetscCallMPI(MPI_Comm_size(leaders, &nodes));
    PetscCallMPI(MPI_Comm_free(&leaders));
  }
  PetscCallMPI(MPI_Bcast(&node, 1, MPI_INT, 0, h5->fcomm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nodes, 1, MPI_INT, MPI_MAX, comm));
  h5->node  = node;
  h5->nodes = nodes;
  PetscCall(PetscStrendswith(h5->file, ".h5", &h5ext));
  PetscCall(PetscStrlen(h5->file, &len));
  if (h5ext) len -= 3;
  PetscCall(PetscSNPrintf(h5->path, sizeof(h5->path), "%.*s-node%d%s", (int)len, h5->file, node, h5ext ? ".h5" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The datasets' shape and this rank's part: its DMDA block in a grid-shaped
   dataset, or its contiguous run, in rank order, in a node file's 1D dataset */
static PetscErrorCode RwStoreHDF5Selection(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  PetscInt64    n = h5->n, offset = 0, total = 0;
  PetscMPIInt   frank;

  PetscFunctionBegin;
  if (h5->comm == RW_H5_NODE) {
    PetscCallMPI(MPI_Exscan(&n, &offset, 1, MPIU_INT64, MPI_SUM, h5->fcomm));
    PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
    if (!frank) offset = 0; /* MPI leaves rank 0's result undefined */
    PetscCallMPI(MPI_Allreduce(&n, &total, 1, MPIU_INT64, MPI_SUM, h5->fcomm));
    h5->frank     = 1;
    h5->fdims[0]  = (hsize_t)total;
    h5->fstart[0] = (hsize_t)offset;
    h5->fcount[0] = (hsize_t)n;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  h5->frank = 0;
  for (PetscInt d = h5->dim - 1; d >= 0; d--, h5->frank++) {
    h5->fdims[h5->frank]  = (hsize_t)h5->M[d];
    h5->fstart[h5->frank] = (hsize_t)h5->start[d];
    h5->fcount[h5->frank] = (hsize_t)h5->count[d];
  }
  if (h5->dof > 1) {
    h5->fdims[h5->frank]  = (hsize_t)h5->dof;
    h5->fstart[h5->frank] = 0;
    h5->fcount[h5->frank] = (hsize_t)h5->dof;
    h5->frank++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 of each file tries what HDF5 is about to do, so that a bad path is
   reported with the system's reason and the option that chose it */
static PetscErrorCode RwStoreHDF5CheckPath(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "", opt[256];
  PetscMPIInt   frank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  if (!frank) {
    int fd = -1, ok;

    if (store->restart) ok = access(h5->path, R_OK | W_OK) == 0;
    else if (!h5->overwrite && !access(h5->path, F_OK)) {
      RwStoreHDF5Option(store, "-rw_store_hdf5_file", opt, sizeof(opt));
      snprintf(msg, sizeof(msg), "Checkpoint file %s (%s) exists and may hold checkpoints a run kept: resume from it with -rw_restart, replace it with -rw_store_overwrite, or choose another file; it is left as it is", h5->path, opt);
      ok = 1;
    } else ok = (fd = open(h5->path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0;
    if (!ok) {
      RwStoreHDF5Option(store, "-rw_store_hdf5_file", opt, sizeof(opt));
      snprintf(msg, sizeof(msg), "Cannot %s checkpoint file %s%s (%s %s): %s", store->restart ? "reopen" : "create", h5->path, store->restart ? " for a restart" : "", opt, h5->file, strerror(errno));
    }
    if (fd >= 0) close(fd);
  }
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_OPEN, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file format of HDF5 1.8 (superblock 2, object headers 2): every piece
   of metadata carries a checksum that HDF5 verifies when it reads it, so a
   damaged header is refused instead of decoded; attributes stay in the
   object header (compact), which that checksum covers */
#define RW_H5_MAX_COMPACT 64
static PetscErrorCode RwStoreHDF5Format(hid_t fapl, hid_t ocpl)
{
  PetscFunctionBegin;
  if (fapl >= 0) RwCallHDF5(H5Pset_libver_bounds, (fapl, H5F_LIBVER_V18, H5F_LIBVER_V18));
  if (ocpl >= 0) RwCallHDF5(H5Pset_attr_phase_change, (ocpl, RW_H5_MAX_COMPACT, RW_H5_MAX_COMPACT - 8));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 of a file to reopen looks at its superblock before HDF5 does: a
   file without checksummed metadata (an older rewind's, or not rewind's) is
   refused unread, since HDF5 1.10 can crash decoding a damaged header */
static PetscErrorCode RwStoreHDF5CheckSuperblock(RwStore store)
{
  RwStore_HDF5       *h5                = (RwStore_HDF5 *)store->data;
  static const char   sig[8]            = {'\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n'};
  char                msg[RW_H5_MSGLEN] = "";
  unsigned char       sb[9];
  PetscMPIInt         frank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  if (!frank) {
    int         fd = open(h5->path, O_RDONLY);
    struct stat st;
    ssize_t     got = fd < 0 ? -1 : read(fd, sb, sizeof(sb));

    if (fd < 0 || fstat(fd, &st)) snprintf(msg, sizeof(msg), "Cannot read checkpoint file %s for a restart: %s", h5->path, strerror(errno));
    else if (got < (ssize_t)sizeof(sb) || memcmp(sb, sig, sizeof(sig))) snprintf(msg, sizeof(msg), "File %s is truncated or not an HDF5 file: %lld bytes, without HDF5's signature at the start", h5->path, (long long)st.st_size);
    else if (sb[8] < 2) snprintf(msg, sizeof(msg), "File %s is not a rewind checkpoint file of this version (format \"%s\"): its HDF5 superblock has version %d, expected 2 or more, whose metadata carries checksums; it is not opened, since HDF5 could not verify it", h5->path, RW_H5_FORMAT, (int)sb[8]);
    if (fd >= 0) close(fd);
  }
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* H5Fopen failed on some rank: most often a file cut short (a full disk, a
   copy interrupted) or damaged metadata; say so with its size and HDF5's
   reason.  Where MPI-IO itself could not open the file, HDF5 read none of
   it: that says nothing of the file (an Open MPI singleton run beside
   others that share its session directory fails so, t307) */
static PetscErrorCode RwStoreHDF5OpenFailed(RwStore store, PetscBool failed)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "", why[256];
  struct stat   st;

  PetscFunctionBegin;
  if (failed) {
    PetscCall(RwHDF5ErrorMessage(why, sizeof(why)));
    if (stat(h5->path, &st)) snprintf(msg, sizeof(msg), "opening file %s failed: %s (%s)", h5->path, why, strerror(errno));
    else if (strstr(why, "MPI_File_open failed")) snprintf(msg, sizeof(msg), "MPI-IO could not open checkpoint file %s (%lld bytes) for a restart, so none of it was read: %s; the MPI library's own message, above, says why", h5->path, (long long)st.st_size, why);
    else snprintf(msg, sizeof(msg), "File %s is truncated, damaged or not an HDF5 file: %lld bytes, and HDF5 cannot open it: %s", h5->path, (long long)st.st_size, why);
  }
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_OPEN, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective MPI-IO, collective metadata, and the alignment striped file systems want */
static PetscErrorCode RwStoreHDF5OpenFile(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  hid_t         fapl, fcpl, es = H5I_INVALID_HID;

  PetscFunctionBegin;
  if (store->restart) PetscCall(RwStoreHDF5CheckSuperblock(store));
  RwCallHDF5Return(fapl, H5Pcreate, (H5P_FILE_ACCESS));
  RwCallHDF5Return(fcpl, H5Pcreate, (H5P_FILE_CREATE));
  RwCallHDF5(H5Pset_fapl_mpio, (fapl, h5->fcomm, MPI_INFO_NULL));
  RwCallHDF5(H5Pset_all_coll_metadata_ops, (fapl, 1));
  RwCallHDF5(H5Pset_coll_metadata_write, (fapl, 1));
  PetscCall(RwStoreHDF5Format(fapl, fcpl));
  if (h5->alignment > 0) RwCallHDF5(H5Pset_alignment, (fapl, (hsize_t)h5->alignment, (hsize_t)h5->alignment));
  if (store->restart) h5->fid = H5Fopen(h5->path, H5F_ACC_RDWR, fapl);
  else h5->fid = H5Fcreate(h5->path, H5F_ACC_TRUNC, fcpl, fapl);
  if (h5->fid < 0) es = H5Eget_current_stack(); /* HDF5's reason, which the closes would clear */
  RwCallHDF5(H5Pclose, (fapl));
  RwCallHDF5(H5Pclose, (fcpl));
  if (es >= 0) H5Eset_current_stack(es);
  if (store->restart) PetscCall(RwStoreHDF5OpenFailed(store, (PetscBool)(h5->fid < 0)));
  else RwH5Try(store, -1, 0, RW_H5_CREATE, h5->fid);
  h5->opened = PETSC_TRUE;
  h5->owned  = (PetscBool)!store->restart;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Node files record every rank's block, since only the same blocks can read them back */
static PetscErrorCode RwStoreHDF5GatherBlocks(RwStore store, int64_t **blocks, PetscMPIInt *nf)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  int64_t       mine[6];

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    mine[d]     = h5->start[d];
    mine[3 + d] = h5->count[d];
  }
  PetscCallMPI(MPI_Comm_size(h5->fcomm, nf));
  PetscCall(PetscMalloc1(6 * (size_t)*nf, blocks));
  PetscCallMPI(MPI_Allgather(mine, 6, MPI_INT64_T, *blocks, 6, MPI_INT64_T, h5->fcomm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The root's "solve" (fixed size, so that a new solve rewrites it in place) and "complete" */
static herr_t RwH5NewSolve(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          solve[RW_H5_SOLVELEN] = "";
  int           complete = 0;
  hid_t         t = RwH5StringType(RW_H5_SOLVELEN);
  herr_t        s;

  if (t < 0) return -1;
  if (store->solve) strncpy(solve, store->solve, sizeof(solve) - 1);
  s = RwH5AttrNew(h5->fid, "solve", t, t, 0, solve);
  if (H5Tclose(t) < 0) s = -1;
  return s < 0 ? -1 : RwH5AttrNew(h5->fid, "complete", H5T_STD_I32LE, H5T_NATIVE_INT, 0, &complete);
}

static herr_t RwH5NewRoot(RwStore store, const int64_t blocks[], PetscMPIInt nf)
{
  RwStore_HDF5 *h5    = (RwStore_HDF5 *)store->data;
  int64_t       slots = store->slots, node = h5->node, nodes = h5->nodes;
  herr_t        s     = 0;

  s |= RwH5AttrNewString(h5->fid, "format", RW_H5_FORMAT);
  s |= RwH5AttrNewString(h5->fid, "identity", store->identity ? store->identity : "");
  s |= RwH5AttrNew(h5->fid, "slots", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &slots);
  s |= RwH5AttrNew(h5->fid, "generation", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &h5->generation);
  h5->hasgen = PETSC_TRUE;
  s |= RwH5NewSolve(store);
  s |= RwH5AttrNewString(h5->fid, "layout", RwStoreHDF5Comms[h5->comm]);
  if (h5->comm == RW_H5_NODE) {
    s |= RwH5AttrNew(h5->fid, "node", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &node);
    s |= RwH5AttrNew(h5->fid, "nodes", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &nodes);
    s |= RwH5AttrNew(h5->fid, "blocks", H5T_STD_I64LE, H5T_NATIVE_INT64, 6 * (hsize_t)nf, blocks);
  }
  return s < 0 ? -1 : 0;
}

/* One slot's dataset with all its attributes; the changing ones say "nothing valid yet" */
static herr_t RwH5NewSlot(RwStore store, PetscInt64 slot, hid_t space, hid_t dcpl)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          name[64];
  int64_t       dim = h5->dim, dof = h5->dof, grid[3] = {h5->M[0], h5->M[1], h5->M[2]}, step = -1;
  double        time     = NAN;
  uint64_t      checksum = 0, record = RwH5RecordSum(slot, step, time, checksum, store->nattach, store->attach);
  int           valid    = 0;
  hid_t         d;
  herr_t        s = 0;

  snprintf(name, sizeof(name), "slot_%" PetscInt64_FMT, slot);
  h5->dset[slot] = d = H5Dcreate2(h5->fid, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (d < 0) return -1;
  s |= RwH5AttrNewString(d, "model", store->modeltype ? store->modeltype : "unknown");
  s |= RwH5AttrNew(d, "dim", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &dim);
  s |= RwH5AttrNew(d, "grid", H5T_STD_I64LE, H5T_NATIVE_INT64, (hsize_t)dim, grid);
  s |= RwH5AttrNew(d, "dof", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &dof);
  s |= RwH5AttrNew(d, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &step);
  s |= RwH5AttrNew(d, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &time);
  s |= RwH5AttrNew(d, "checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64, 0, &checksum);
  s |= RwH5AttrNew(d, "valid", H5T_STD_I32LE, H5T_NATIVE_INT, 0, &valid);
  if (store->nattach) s |= RwH5AttrNew(d, "attachment", H5T_STD_I64LE, H5T_NATIVE_INT64, (hsize_t)store->nattach, store->attach);
  s |= RwH5AttrNew(d, "record_checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64, 0, &record);
  return s < 0 ? -1 : 0;
}

/* A new file: root attributes and every slot's dataset, allocated now (no fill:
   the space is written by the first store) so the time loop creates nothing */
static PetscErrorCode RwStoreHDF5CreateFile(RwStore store)
{
  RwStore_HDF5 *h5     = (RwStore_HDF5 *)store->data;
  int64_t      *blocks = NULL;
  PetscMPIInt   nf     = 0;
  hid_t         space, dcpl;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5CheckPath(store));
  PetscCall(RwStoreHDF5OpenFile(store));
  if (h5->comm == RW_H5_NODE) PetscCall(RwStoreHDF5GatherBlocks(store, &blocks, &nf));
  RwH5Try(store, -1, 0, RW_H5_CREATE, RwH5NewRoot(store, blocks, nf));
  PetscCall(PetscFree(blocks));
  RwCallHDF5Return(space, H5Screate_simple, (h5->frank, h5->fdims, NULL));
  RwCallHDF5Return(dcpl, H5Pcreate, (H5P_DATASET_CREATE));
  RwCallHDF5(H5Pset_alloc_time, (dcpl, H5D_ALLOC_TIME_EARLY));
  RwCallHDF5(H5Pset_fill_time, (dcpl, H5D_FILL_TIME_NEVER));
  PetscCall(RwStoreHDF5Format(H5I_INVALID_HID, dcpl));
  for (PetscInt64 i = 0; i < store->slots; i++) RwH5Try(store, i, -1, RW_H5_CREATE, RwH5NewSlot(store, i, space, dcpl));
  RwCallHDF5(H5Pclose, (dcpl));
  RwCallHDF5(H5Sclose, (space));
  RwH5Try(store, -1, 0, RW_H5_CREATE, H5Fflush(h5->fid, H5F_SCOPE_LOCAL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A node file can only be read back by the ranks, with the blocks, that wrote it */
static PetscErrorCode RwStoreHDF5CheckBlocks(RwStore store, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  int64_t      *mine, *rec;
  PetscMPIInt   nf, frank;
  herr_t        s;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5GatherBlocks(store, &mine, &nf));
  PetscCall(PetscMalloc1(6 * (size_t)nf, &rec));
  s = RwH5AttrGet(h5->fid, "blocks", H5T_NATIVE_INT64, 6 * (hsize_t)nf, rec);
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  RwH5Try(store, -1, 0, RW_H5_OPEN, s);
  if (s > 0 || memcmp(rec + 6 * frank, mine + 6 * frank, 6 * sizeof(int64_t)))
    snprintf(msg, RW_H5_MSGLEN, "Node file %s was written with another decomposition than this run's %d ranks on node %d (rank %d's block differs): restoring from node files (-rw_store_hdf5_comm node) needs the same ranks, nodes and grid decomposition; use -rw_store_hdf5_comm world to restore on other rank counts", h5->path, nf, (int)h5->node, frank);
  PetscCall(PetscFree(mine));
  PetscCall(PetscFree(rec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The root of a file to restart from: ours, this problem's, as many slots, same layout */
static PetscErrorCode RwStoreHDF5CheckRoot(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "", format[64], layout[16], *identity;
  size_t        len;
  int64_t       slots = -1;
  herr_t        gen;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(store->identity, &len));
  PetscCall(PetscMalloc1(len + 2, &identity)); /* one more: a longer identity in the file shows as different */
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "format", format, sizeof(format)));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "identity", identity, len + 2));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "layout", layout, sizeof(layout)));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "slots", H5T_NATIVE_INT64, 0, &slots));
  RwH5TryReturn(gen, store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "generation", H5T_NATIVE_INT64, 0, &h5->generation));
  h5->hasgen = (PetscBool)(gen == 0);
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "solve", h5->filesolve, sizeof(h5->filesolve)));
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "complete", H5T_NATIVE_INT, 0, &h5->filecomplete));
  if (strcmp(format, RW_H5_FORMAT)) snprintf(msg, sizeof(msg), "File %s is not a rewind checkpoint file: its root attribute \"format\" is \"%s\", expected \"%s\"", h5->path, format, RW_H5_FORMAT);
  else if (strcmp(identity, store->identity)) {
    char diff[RW_H5_MSGLEN / 2];

    RwIdentityDiff(identity, store->identity, diff, sizeof(diff));
    snprintf(msg, sizeof(msg), "File %s belongs to a different problem (%s); it is left as it is", h5->path, diff);
  }
  else if (slots != store->slots) snprintf(msg, sizeof(msg), "File %s holds %" PetscInt64_FMT " checkpoint slots, this run uses %" PetscInt64_FMT, h5->path, (PetscInt64)slots, store->slots);
  else if (strcmp(layout, RwStoreHDF5Comms[h5->comm])) snprintf(msg, sizeof(msg), "File %s was written with -rw_store_hdf5_comm %s, this run uses %s", h5->path, layout, RwStoreHDF5Comms[h5->comm]);
  else if (h5->comm == RW_H5_NODE) PetscCall(RwStoreHDF5CheckBlocks(store, msg));
  PetscCall(PetscFree(identity));
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why a slot's dataset is not one of this run's states (8-byte IEEE floats,
   a simple dataspace of this shape), in msg; empty when it is */
static PetscErrorCode RwStoreHDF5CheckSlot(RwStore store, PetscInt64 slot, char msg[])
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  hid_t         dset = h5->dset[slot], space, type;
  hsize_t       dims[8];
  int           rank = -1;
  char          what[RW_H5_WHERELEN], why[RW_H5_MSGLEN] = "", have[128], want[128];
  htri_t        isfloat, hasattach;
  hssize_t      nattach = 0;

  PetscFunctionBegin;
  RwCallHDF5Return(type, H5Dget_type, (dset));
  snprintf(what, sizeof(what), "Dataset /slot_%" PetscInt64_FMT " in file %s", slot, h5->path);
  isfloat = RwH5CheckType(type, H5T_NATIVE_DOUBLE, what, why, sizeof(why));
  RwCallHDF5(H5Tclose, (type));
  RwCallHDF5Return(space, H5Dget_space, (dset));
  if (H5Sget_simple_extent_type(space) == H5S_SIMPLE) rank = H5Sget_simple_extent_ndims(space);
  if (rank > 0 && rank <= 8) RwCallHDF5Return(rank, H5Sget_simple_extent_dims, (space, dims, NULL));
  RwCallHDF5(H5Sclose, (space));
  RwCallHDF5Return(hasattach, H5Aexists, (dset, "attachment"));
  if (hasattach > 0) { /* what the run keeps beside each state (the objective's partial sums, ...): its length is the layout's */
    hid_t a, sp;

    RwCallHDF5Return(a, H5Aopen, (dset, "attachment", H5P_DEFAULT));
    RwCallHDF5Return(sp, H5Aget_space, (a));
    RwCallHDF5Return(nattach, H5Sget_simple_extent_npoints, (sp));
    RwCallHDF5(H5Sclose, (sp));
    RwCallHDF5(H5Aclose, (a));
  }
  if (isfloat <= 0) snprintf(msg, RW_H5_MSGLEN, "%s", why);
  else if (rank != h5->frank || memcmp(dims, h5->fdims, (size_t)rank * sizeof(hsize_t))) {
    RwH5Shape(rank < 0 || rank > 8 ? 0 : rank, dims, have, sizeof(have));
    RwH5Shape(h5->frank, h5->fdims, want, sizeof(want));
    snprintf(msg, RW_H5_MSGLEN, "%s has shape %s, but this run's states have shape %s", what, rank < 0 ? "(not a simple dataspace)" : have, want);
  } else if (nattach != (hssize_t)store->nattach)
    snprintf(msg, RW_H5_MSGLEN, "%s keeps %lld values beside its state, this run keeps %lld: it was written by another version of rewind or for an objective with other terms; it is left as it is", what, (long long)nattach, (long long)store->nattach);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slots' datasets of a file to restart from, each one of this run's states */
static PetscErrorCode RwStoreHDF5OpenSlots(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  for (PetscInt64 i = 0; i < store->slots; i++) {
    char name[64], msg[RW_H5_MSGLEN] = "";

    snprintf(name, sizeof(name), "slot_%" PetscInt64_FMT, i);
    RwH5TryReturn(h5->dset[i], store, i, -1, RW_H5_OPEN, H5Dopen2(h5->fid, name, H5P_DEFAULT));
    PetscCall(RwStoreHDF5CheckSlot(store, i, msg));
    PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreSetSolve_HDF5(RwStore);
static PetscErrorCode RwStoreGetValidSteps_HDF5(RwStore, PetscInt64[]);
static PetscErrorCode RwStoreTake_HDF5(RwStore, PetscInt64, PetscInt64, Vec, Vec *);
static PetscErrorCode RwStoreReadSwap_HDF5(RwStore, PetscInt64, PetscInt64, Vec *);

/* A file of this problem resumes only the solve it holds.  Another solve's
   file is started over if that solve completed or left no valid slot (nothing
   is lost), and refused otherwise: it is the data of an interrupted solve */
static PetscErrorCode RwStoreHDF5CheckSolve(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  MPI_Comm      comm = PetscObjectComm((PetscObject)store);
  char          mine[RW_H5_SOLVELEN] = "", msg[RW_H5_MSGLEN] = "", diff[RW_H5_MSGLEN / 2];
  PetscInt64    nvalid = 0, *steps;

  PetscFunctionBegin;
  if (store->solve) PetscCall(PetscStrncpy(mine, store->solve, sizeof(mine)));
  if (!strcmp(mine, h5->filesolve)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(PetscMax(store->slots, 1), &steps));
  PetscCall(RwStoreGetValidSteps_HDF5(store, steps));
  for (PetscInt64 i = 0; i < store->slots; i++) nvalid += steps[i] >= 0;
  PetscCall(PetscFree(steps));
  RwIdentityDiff(h5->filesolve, mine, diff, sizeof(diff));
  if (h5->filecomplete == 1 || !nvalid) {
    PetscCall(PetscFPrintf(comm, PETSC_STDERR, "rewind: checkpoint file %s holds %s solve of this problem (%s); it has nothing to resume and is started over\n", h5->path, h5->filecomplete == 1 ? "a completed" : "no valid checkpoint of another", diff));
    for (PetscInt64 i = 0; i < store->slots; i++) store->step[i] = -1;
    PetscCall(RwStoreSetSolve_HDF5(store));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  snprintf(msg, sizeof(msg), "File %s holds %" PetscInt64_FMT " checkpoints of an interrupted solve of this problem that is not this one (%s): -rw_restart resumes only the solve that was interrupted; the file is left as it is", h5->path, nvalid, diff);
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Another problem's file is refused, and left alone */
static PetscErrorCode RwStoreHDF5ReopenFile(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCheck(store->identity, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "A restart must check the file belongs to this problem: call RwStoreSetIdentity() before RwStoreSetUp()");
  PetscCall(RwStoreHDF5CheckPath(store));
  PetscCall(RwStoreHDF5OpenFile(store));
  PetscCall(RwStoreHDF5CheckRoot(store));
  PetscCall(RwStoreHDF5OpenSlots(store));
  h5->owned = PETSC_TRUE;
  PetscCall(RwStoreHDF5CheckSolve(store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's part of a dataset, and collective transfers */
static PetscErrorCode RwStoreHDF5Spaces(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  hsize_t       n  = (hsize_t)PetscMax(h5->n, 1);

  PetscFunctionBegin;
  RwCallHDF5Return(h5->memspace, H5Screate_simple, (1, &n, NULL));
  RwCallHDF5Return(h5->filespace, H5Screate_simple, (h5->frank, h5->fdims, NULL));
  if (h5->n) RwCallHDF5(H5Sselect_hyperslab, (h5->filespace, H5S_SELECT_SET, h5->fstart, NULL, h5->fcount, NULL));
  else {
    RwCallHDF5(H5Sselect_none, (h5->memspace));
    RwCallHDF5(H5Sselect_none, (h5->filespace));
  }
  RwCallHDF5Return(h5->dxpl, H5Pcreate, (H5P_DATASET_XFER));
  RwCallHDF5(H5Pset_dxpl_mpio, (h5->dxpl, H5FD_MPIO_COLLECTIVE));
  RwCallHDF5Return(h5->rdxpl, H5Pcreate, (H5P_DATASET_XFER));
  RwCallHDF5(H5Pset_dxpl_mpio, (h5->rdxpl, H5FD_MPIO_INDEPENDENT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's runs of bytes in a slot's contiguous dataset: the x-rows of its
   block, merged where they follow each other in the file (a block of whole
   rows is one run), or its part of a node file */
static PetscErrorCode RwStoreHDF5Runs(RwStore store)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  RwH5Runs     *w    = &h5->runs;
  size_t        row  = (size_t)(h5->count[0] * h5->dof) * sizeof(double);
  PetscInt      rows = h5->comm == RW_H5_NODE ? 1 : h5->count[1] * h5->count[2];

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(PetscMax(rows, 1), &w->runoff, PetscMax(rows, 1), &w->runlen));
  w->nruns = 0;
  w->bytes = (size_t)h5->n * sizeof(double);
  if (!h5->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (h5->comm == RW_H5_NODE) {
    w->runoff[0] = (off_t)(h5->fstart[0] * sizeof(double));
    w->runlen[0] = w->bytes;
    w->nruns     = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt z = 0; z < h5->count[2]; z++) {
    for (PetscInt y = 0; y < h5->count[1]; y++) {
      off_t off = (off_t)((((h5->start[2] + z) * h5->M[1] + h5->start[1] + y) * h5->M[0] + h5->start[0]) * h5->dof) * (off_t)sizeof(double);

      if (w->nruns && w->runoff[w->nruns - 1] + (off_t)w->runlen[w->nruns - 1] == off) w->runlen[w->nruns - 1] += row;
      else {
        w->runoff[w->nruns] = off;
        w->runlen[w->nruns++] = row;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The writer copies raw doubles to the slots' file offsets: little-endian
   IEEE doubles (the datasets' type) in contiguous, allocated datasets */
static PetscErrorCode RwStoreHDF5Offsets(RwStore store, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  htri_t        le;

  PetscFunctionBegin;
  RwCallHDF5Return(le, H5Tequal, (H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE));
  if (!le) snprintf(msg, RW_H5_MSGLEN, "The asynchronous hdf5 store writes raw doubles into file %s, but this machine's doubles are not the file's little-endian IEEE doubles: use -rw_store_hdf5_async 0", h5->path);
  for (PetscInt64 i = 0; le && i < store->slots; i++) {
    h5->offset[i] = H5Dget_offset(h5->dset[i]);
    if (h5->offset[i] == HADDR_UNDEF && !msg[0]) snprintf(msg, RW_H5_MSGLEN, "Dataset /slot_%" PetscInt64_FMT " in file %s has no contiguous storage allocated in the file, which the asynchronous writer needs: use -rw_store_hdf5_async 0", i, h5->path);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reader's checksum of this rank's part, on its own thread: a pure function of the block */
static uint64_t RwStoreHDF5SumBlock(void *ctx, const char *buf)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)ctx;

  return RwChecksumBlock(h5->M, h5->start, h5->count, h5->dof, (const PetscScalar *)buf);
}

/* The bytes of one of the store's vectors, which its threads use between
   calls: plain host vectors (like the template), whose arrays never move */
static PetscErrorCode RwStoreHDF5Array(Vec v, char **bytes)
{
  PetscScalar *a, *keep;

  PetscFunctionBegin;
  PetscCall(VecGetArray(v, &a));
  keep = a;
  PetscCall(VecRestoreArray(v, &a));
  *bytes = (char *)keep;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The prefetch's buffer and thread (-rw_store_hdf5_prefetch), which share the writer's runs */
static PetscErrorCode RwStoreHDF5StartReader(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  int           e;

  PetscFunctionBegin;
  if (!h5->prefetch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwVecDuplicateStaggered(store->templ, &h5->rbuf)); /* staggered as the driver's states: swapped into the sweep */
  PetscCall(RwStoreHDF5Array(h5->rbuf, &h5->reader.buf));
  h5->reader.runs   = &h5->runs;
  h5->reader.sum    = RwStoreHDF5SumBlock;
  h5->reader.sumctx = h5;
  if ((e = RwH5ReaderStart(&h5->reader, h5->path))) snprintf(msg, sizeof(msg), "Cannot start the prefetching reader of checkpoint file %s: %s", h5->path, strerror(e));
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_SYS, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The staging buffer and the thread, when writes are asynchronous */
static PetscErrorCode RwStoreHDF5StartWriter(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  int           e;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(store->nattach, 1), &h5->pattach));
  PetscCall(PetscCalloc1(PetscMax(store->slots, 1), &h5->written));
  if (!h5->async && !h5->prefetch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(PetscMax(store->slots, 1), &h5->offset));
  PetscCall(RwStoreHDF5Offsets(store, msg));
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_SUP, msg));
  PetscCall(RwStoreHDF5Runs(store));
  h5->writer.runs = &h5->runs;
  PetscCall(RwStoreHDF5StartReader(store));
  if (!h5->async) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwVecDuplicateStaggered(store->templ, &h5->stage));
  PetscCall(RwVecDuplicateStaggered(store->templ, &h5->held)); /* handed to the sweep by the first take */
  h5->writer.sum    = RwStoreHDF5SumBlock;
  h5->writer.sumctx = h5;
  if ((e = RwH5WriterStart(&h5->writer, h5->path))) snprintf(msg, sizeof(msg), "Cannot start the asynchronous writer of checkpoint file %s: %s", h5->path, strerror(e));
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_SYS, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreSetUp_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Layout(store));
  PetscCall(RwStoreHDF5FileComm(store));
  PetscCall(RwStoreHDF5Selection(store));
  PetscCall(PetscMalloc1(PetscMax(store->slots, 1), &h5->dset));
  PetscCall(PetscMalloc1(PetscMax(store->nattach, 1), &h5->attach));
  for (PetscInt64 i = 0; i < store->slots; i++) h5->dset[i] = H5I_INVALID_HID;
  if (store->restart) PetscCall(RwStoreHDF5ReopenFile(store));
  else PetscCall(RwStoreHDF5CreateFile(store));
  PetscCall(RwStoreHDF5Spaces(store));
  PetscCall(RwStoreHDF5StartWriter(store));
  /* without the copies only where a thread writes or reads a vector of the store's */
  store->ops->take     = h5->async ? RwStoreTake_HDF5 : NULL;
  store->ops->readswap = h5->prefetch ? RwStoreReadSwap_HDF5 : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- write, read, valid steps ----------------------------------------------- */


/* The changing attributes of a write, all covered by the record checksum,
   and the valid mark, into HDF5's cache: the next flush commits them */
static herr_t RwH5PutRecord(RwStore store, hid_t dset, int64_t slot, int64_t step, double time, uint64_t checksum, const int64_t attach[])
{
  uint64_t record = RwH5RecordSum(slot, step, time, checksum, store->nattach, attach);
  int      one    = 1;

  if (store->nattach && RwH5AttrPut(dset, "attachment", H5T_NATIVE_INT64, attach) < 0) return -1;
  if (RwH5AttrPut(dset, "step", H5T_NATIVE_INT64, &step) < 0) return -1;
  if (RwH5AttrPut(dset, "time", H5T_NATIVE_DOUBLE, &time) < 0) return -1;
  if (RwH5AttrPut(dset, "checksum", H5T_NATIVE_UINT64, &checksum) < 0) return -1;
  if (RwH5AttrPut(dset, "record_checksum", H5T_NATIVE_UINT64, &record) < 0) return -1;
  return RwH5AttrPut(dset, "valid", H5T_NATIVE_INT, &one);
}

/* Tests: the process dies as a node failure would */
static void RwStoreHDF5MaybeKill(PetscInt at, PetscInt call)
{
  if (at > 0 && at == call) raise(SIGKILL);
}

/* Why the writer failed: the checkpoint, the call and the system's reason */
static void RwStoreHDF5WriterWhy(RwStore store, int err, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          where[RW_H5_WHERELEN];

  RwStoreHDF5Where(store, h5->pslot, h5->pstep, where, sizeof(where));
  snprintf(msg, RW_H5_MSGLEN, "writing %s failed: %s in the background writer: %s", where, h5->writer.failed, strerror(err));
  RwStoreHDF5WriteHint(store, msg, RW_H5_MSGLEN);
}

/* Finishes the pending write: waits for its data (async), then puts its
   record and valid mark in HDF5's cache.  Called before anything else touches
   the file, so the thread never runs beside another HDF5 call on a slot it
   writes, and nothing reads data still being written */
static PetscErrorCode RwStoreHDF5SettleDefer(RwStore store, herr_t *put)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  double        time              = store->dt > 0 ? (double)h5->pstep * (double)store->dt : NAN;
  char          msg[RW_H5_MSGLEN] = "";
  int           err               = 0;

  PetscFunctionBegin;
  if (!h5->pending) PetscFunctionReturn(PETSC_SUCCESS);
  h5->pending = PETSC_FALSE;
  if (h5->inflight) {
    err          = RwH5WriterWait(&h5->writer, &store->counts.seconds_wait);
    h5->inflight = PETSC_FALSE;
    h5->plocal   = h5->writer.local;
    store->counts.seconds_async += h5->writer.seconds;
  }
  RwStoreHDF5MaybeKill(h5->killmark, h5->calls); /* tests: data complete, record not written */
  store->step[h5->pslot] = -1;                   /* until its record is in */
  /* one reduction: the writers' outcome and the state's checksum */
  if (err) RwStoreHDF5WriterWhy(store, err, msg);
  PetscCall(RwStoreHDF5AgreeSum(store, PETSC_ERR_FILE_WRITE, msg, h5->plocal, &h5->psum));
  /* the record only goes to HDF5's cache (no communication); its status is agreed by the caller */
  *put                   = RwH5PutRecord(store, h5->dset[h5->pslot], h5->pslot, h5->pstep, time, h5->psum, h5->pattach);
  store->step[h5->pslot] = *put < 0 ? -1 : h5->pstep;
  h5->uncommitted        = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Settles and agrees on the record's status at once */
static PetscErrorCode RwStoreHDF5Settle(RwStore store)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  herr_t        put = 0;

  PetscFunctionBegin;
  if (!h5->pending) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreHDF5SettleDefer(store, &put));
  RwH5Try(store, h5->pslot, h5->pstep, RW_H5_WRITE, put);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one flush (and fsync) of a write: it commits the records settled so far,
   the root's generation (the writes committed) and whatever was marked invalid */
static herr_t RwH5Commit(RwStore store, PetscInt64 invalidate, herr_t put)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  int64_t       gen  = h5->generation;
  int           zero = 0;
  herr_t        s    = put, f;

  if (invalidate >= 0) s = RwH5AttrPut(h5->dset[invalidate], "valid", H5T_NATIVE_INT, &zero);
  if (s >= 0) s = h5->hasgen ? RwH5AttrPut(h5->fid, "generation", H5T_NATIVE_INT64, &gen) : RwH5AttrNew(h5->fid, "generation", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &gen);
  f = H5Fflush(h5->fid, H5F_SCOPE_LOCAL); /* collective: made even after a failure above, so no rank waits */
  return s < 0 || f < 0 ? -1 : 0;
}

/* The flush, with slot (>= 0) marked not valid first; one agreement */
static PetscErrorCode RwStoreHDF5FlushAfter(RwStore store, PetscInt64 slot, PetscInt64 k, herr_t put)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  RwH5Try(store, slot, k, RW_H5_WRITE, RwH5Commit(store, slot, put));
  h5->hasgen      = PETSC_TRUE;
  h5->uncommitted = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreHDF5Flush(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  PetscFunctionBegin;
  PetscCall(RwStoreHDF5FlushAfter(store, slot, k, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Settles and commits whatever is pending: nothing is left in flight or in HDF5's cache */
static PetscErrorCode RwStoreSync_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  if (h5->uncommitted) PetscCall(RwStoreHDF5Flush(store, -1, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data, synchronously: one collective H5Dwrite; -rw_store_hdf5_fail_write
   makes one fail as a full disk would, with its reason on HDF5's error stack */
static herr_t RwStoreHDF5WriteData(RwStore store, PetscInt64 slot, const PetscScalar a[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  return H5Dwrite(h5->dset[slot], H5T_NATIVE_DOUBLE, h5->memspace, h5->filespace, h5->dxpl, a);
}

static herr_t RwStoreHDF5FailWrite(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  if (h5->calls != h5->failwrite) return 0;
  H5Epush2(H5E_DEFAULT, __FILE__, "H5Dwrite", __LINE__, H5E_ERR_CLS, H5E_IO, H5E_WRITEERROR, "No space left on device (simulated by -rw_store_hdf5_fail_write %d)", (int)h5->failwrite);
  return -1;
}

/*
  A write of x_k into slot s, with one flush (one fsync):

  1. the previous write is settled (its data complete, its record and valid
     mark put in HDF5's cache);
  2. valid := 0 on slot s, the root's generation := the writes settled, and
     H5Fflush: this commits the previous write and makes slot s not valid on
     disk before any of its new data reach the file;
  3. the data are written: staged and handed to the writer thread (async),
     or by one collective H5Dwrite;
  4. the record and the valid mark follow at the next settle, once the data
     are complete, and reach the disk at the next flush.

  So the mark on disk is set only over complete data, and the data are
  changed only under a mark that is off on disk.  doc/checkpoints.md has the
  whole argument, with what a crash at each point leaves.  Steps 1 and 2 are
  the same for a write that copies and for one that takes the caller's vector.
*/
static PetscErrorCode RwStoreHDF5WriteBegin(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  herr_t        put = 0;

  PetscFunctionBegin;
  if (h5->pending) PetscCall(RwStoreHDF5SettleDefer(store, &put));
  h5->calls++;
  PetscCall(RwStoreHDF5FlushAfter(store, slot, k, put)); /* slot s not valid on disk, the previous write committed */
  if (h5->failwrite) RwH5Try(store, slot, k, RW_H5_WRITE, RwStoreHDF5FailWrite(store));
  h5->generation++;
  h5->written[slot]++; /* a prefetch of the slot's older data is stale from now on */
  h5->pslot = slot;
  h5->pstep = k;
  PetscCall(PetscArraycpy(h5->pattach, store->attach, store->nattach));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 3 when asynchronous: the thread writes the state at data, which nobody changes until the next settle */
static void RwStoreHDF5Post(RwStore store, PetscInt64 slot, const PetscScalar *data)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  h5->writer.stage = (const char *)data;
  RwH5WriterPost(&h5->writer, (off_t)h5->offset[slot], h5->killwrite > 0 && h5->killwrite == h5->calls);
  h5->inflight = PETSC_TRUE;
  h5->pending  = PETSC_TRUE;
  store->counts.bytes_async += store->bytes;
}

static PetscErrorCode RwStoreWrite_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_HDF5      *h5 = (RwStore_HDF5 *)store->data;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5WriteBegin(store, slot, k));
  if (h5->async) {
    /* the caller's state may change as soon as this returns: the thread writes a copy */
    PetscCall(VecCopy(u, h5->stage));
    PetscCall(VecGetArrayRead(h5->stage, &a));
    RwStoreHDF5Post(store, slot, a);
    PetscCall(VecRestoreArrayRead(h5->stage, &a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayRead(u, &a));
  h5->plocal = RwChecksumBlock(h5->M, h5->start, h5->count, h5->dof, a);
  RwH5Try(store, slot, k, RW_H5_WRITE, RwStoreHDF5WriteData(store, slot, a));
  PetscCall(VecRestoreArrayRead(u, &a));
  h5->pending = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write without the copy (asynchronous writes): the thread writes the
   caller's vector itself, which the caller only reads from now on (the take
   contract), and the vector of the write before, done with since the settle,
   goes back to the caller.  A later copying write goes to the store's own
   staging vector, never to one the caller may still read */
static PetscErrorCode RwStoreTake_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, Vec *spare)
{
  RwStore_HDF5      *h5 = (RwStore_HDF5 *)store->data;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5WriteBegin(store, slot, k));
  *spare   = h5->held;
  h5->held = u;
  PetscCall(VecGetArrayRead(u, &a));
  RwStoreHDF5Post(store, slot, a);
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads a slot's record; a slot marked valid must have all of it, and its
   record checksum must match, else msg says what is wrong (for the caller to agree on).  A slot without
   its valid mark (half-written, or never) comes back with valid 0. */
static PetscErrorCode RwStoreHDF5GetRecord(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Record *r, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          where[RW_H5_WHERELEN];
  uint64_t      sum;

  herr_t        status;

  PetscFunctionBegin;
  /* attributes of a cached object header: no communication, so the caller agrees on msg */
  status = RwH5GetRecord(h5->dset[slot], h5->dim, store->nattach, h5->attach, r);
  if (status < 0) {
    PetscCall(RwStoreHDF5Why(store, slot, k, RW_H5_READ, status, msg));
    r->valid = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  RwStoreHDF5Where(store, slot, k, where, sizeof(where));
  sum = RwH5RecordSum(slot, r->step, r->time, r->checksum, store->nattach, r->attach);
  if (r->valid != 1 || (r->missing && !strcmp(r->missing, "valid"))) r->valid = 0;
  else if (r->missing) snprintf(msg, RW_H5_MSGLEN, "%s: attribute \"%s\" is missing or malformed: the file is damaged", where, r->missing);
  else if (sum != r->record) snprintf(msg, RW_H5_MSGLEN, "%s: checksum 0x%016llx of its record (step, time, data checksum, attachment) differs from 0x%016llx recorded: the file is corrupted", where, (unsigned long long)sum, (unsigned long long)r->record);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The record of a slot about to be trusted: valid and intact, else msg says why not */
static PetscErrorCode RwStoreHDF5GetValidRecord(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Record *r, char msg[])
{
  char where[RW_H5_WHERELEN];

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5GetRecord(store, slot, k, r, msg));
  RwStoreHDF5Where(store, slot, k, where, sizeof(where));
  if (!msg[0] && !r->valid) snprintf(msg, RW_H5_MSGLEN, "%s has no valid mark: its write never completed (or the mark was removed); refusing to read it", where);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether what the file records for a slot agrees with the read asked for:
   valid, intact, step k, this grid; if not, msg says why (not agreed yet) */
static PetscErrorCode RwStoreHDF5CheckRecord(RwStore store, PetscInt64 slot, PetscInt64 k, uint64_t *checksum, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          where[RW_H5_WHERELEN];
  RwH5Record    r;
  PetscBool     samegrid;
  hsize_t       have[3], want[3];
  char          hs[96], ws[96];

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5GetValidRecord(store, slot, k, &r, msg));
  RwStoreHDF5Where(store, slot, k, where, sizeof(where));
  samegrid = (PetscBool)(r.dim == h5->dim && r.dof == h5->dof);
  for (PetscInt d = 0; d < h5->dim; d++) {
    have[d] = (hsize_t)r.grid[d];
    want[d] = (hsize_t)h5->M[d];
    samegrid = (PetscBool)(samegrid && have[d] == want[d]);
  }
  if (msg[0]) { /* reported as found */
  } else if (r.step != k) snprintf(msg, RW_H5_MSGLEN, "%s records step %" PetscInt64_FMT ", not the step expected", where, (PetscInt64)r.step);
  else if (!samegrid) {
    RwH5Shape((int)h5->dim, have, hs, sizeof(hs));
    RwH5Shape((int)h5->dim, want, ws, sizeof(ws));
    snprintf(msg, RW_H5_MSGLEN, "%s records a %dD grid %s with dof %d; the state is %dD, %s with dof %d", where, (int)r.dim, hs, (int)r.dof, (int)h5->dim, ws, (int)h5->dof);
  }
  *checksum = r.checksum;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Waits for the prefetch in flight, if any, and forgets it: its errno, 0 if it succeeded */
static int RwStoreHDF5PrefetchWait(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  int           err;

  if (!h5->fposted) return 0;
  err         = RwH5WriterWait(&h5->reader, &store->counts.seconds_prefetch_wait);
  h5->fposted = PETSC_FALSE;
  store->counts.seconds_prefetch += h5->reader.seconds;
  return err;
}

/*
  A prefetch: the reader thread reads slot s into the store's read buffer and
  checksums this rank's part while the sweep goes on; the read of step k from
  s then waits for it, checks the record as any read does, agrees on the
  checksum and copies.  If the write of s is in flight, the reader starts once
  the writer has written its bytes.  The prefetch belongs to the write of s it
  followed: if s is written again before the read (written[s] changes), it is
  stale and the read goes to the file, so a prefetched slot overwritten
  before it is read is never returned.  One prefetch at a time.
*/
static PetscErrorCode RwStorePrefetch_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  long          ticket;

  PetscFunctionBegin;
  if (!h5->prefetch) PetscFunctionReturn(PETSC_SUCCESS);
  if (h5->fposted && h5->fslot == slot && h5->fstep == k && h5->fwritten == h5->written[slot]) PetscFunctionReturn(PETSC_SUCCESS); /* on its way */
  (void)RwStoreHDF5PrefetchWait(store); /* a prefetch never used: its outcome does not matter */
  ticket = h5->inflight && h5->pslot == slot ? h5->writer.posted : 0;
  h5->prefetched++;
  RwH5ReaderPost(&h5->reader, (off_t)h5->offset[slot], &h5->writer, ticket, h5->failread > 0 && h5->failread == h5->prefetched);
  h5->fposted  = PETSC_TRUE;
  h5->fslot    = slot;
  h5->fstep    = k;
  h5->fwritten = h5->written[slot];
  store->counts.prefetches++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The prefetched state into *u: copied, or with swap the read buffer itself,
   the caller's vector becoming the next buffer (the reader is idle now) */
static PetscErrorCode RwStoreHDF5TakePrefetch(RwStore store, Vec *u, PetscBool swap)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  Vec           t  = *u;

  PetscFunctionBegin;
  if (!swap) {
    PetscCall(VecCopy(h5->rbuf, *u));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *u       = h5->rbuf;
  h5->rbuf = t;
  PetscCall(PetscObjectStateIncrease((PetscObject)*u)); /* the reader wrote its array behind PETSc's back */
  PetscCall(RwStoreHDF5Array(h5->rbuf, &h5->reader.buf));
  store->counts.swaps++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's part of slot into *u, and its checksum: from the prefetch if it
   holds the slot's last write, else from the file; a failure goes to msg */
static PetscErrorCode RwStoreHDF5ReadData(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u, PetscBool swap, uint64_t *local, char msg[], PetscErrorCode *code)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  PetscBool     hit = (PetscBool)(h5->fposted && h5->fslot == slot && h5->fstep == k && h5->fwritten == h5->written[slot]);
  char          where[RW_H5_WHERELEN];
  PetscScalar  *a;
  herr_t        status;
  int           err;

  PetscFunctionBegin;
  if (hit) {
    err = RwStoreHDF5PrefetchWait(store);
    if (err && !msg[0]) {
      RwStoreHDF5Where(store, slot, k, where, sizeof(where));
      snprintf(msg, RW_H5_MSGLEN, "reading %s failed: %s in the prefetching reader: %s%s", where, h5->reader.failed, strerror(err), err == EIO ? " (the file ends inside the checkpoint: truncated?)" : "");
      *code = PETSC_ERR_FILE_READ;
    }
    PetscCall(RwStoreHDF5TakePrefetch(store, u, swap));
    *local = h5->reader.local;
    store->counts.prefetch_hits++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayWrite(*u, &a));
  status = H5Dread(h5->dset[slot], H5T_NATIVE_DOUBLE, h5->memspace, h5->filespace, h5->rdxpl, a);
  if (!msg[0] && status < 0) {
    PetscCall(RwStoreHDF5Why(store, slot, k, RW_H5_READ, status, msg));
    *code = PETSC_ERR_FILE_READ;
  }
  *local = RwChecksumBlock(h5->M, h5->start, h5->count, h5->dof, a);
  PetscCall(VecRestoreArrayWrite(*u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Only a read of the slot being written waits for its write (and settles
   it); the writer runs on beside a read of another slot, whose bytes it
   does not touch */
static PetscErrorCode RwStoreHDF5Read(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u, PetscBool swap)
{
  RwStore_HDF5  *h5                = (RwStore_HDF5 *)store->data;
  char           msg[RW_H5_MSGLEN] = "", where[RW_H5_WHERELEN];
  uint64_t       recorded = 0, sum, local = 0;
  PetscErrorCode code     = PETSC_ERR_FILE_UNEXPECTED;
  herr_t         put      = 0;

  PetscFunctionBegin;
  if (h5->pending && h5->pslot == slot) PetscCall(RwStoreHDF5SettleDefer(store, &put));
  if (put < 0) PetscCall(RwStoreHDF5Why(store, h5->pslot, h5->pstep, RW_H5_WRITE, put, msg));
  /* one reduction for the record's verdict, the read's and the data's checksum:
     each rank reads its own part (independent I/O, no exchange between ranks) */
  if (!msg[0]) PetscCall(RwStoreHDF5CheckRecord(store, slot, k, &recorded, msg));
  PetscCall(RwStoreHDF5ReadData(store, slot, k, u, swap, &local, msg, &code));
  PetscCall(RwStoreHDF5AgreeSum(store, code, msg, local, &sum));
  if (sum != recorded) { /* the same verdict on every rank of a world file */
    RwStoreHDF5Where(store, slot, k, where, sizeof(where));
    snprintf(msg, sizeof(msg), "%s: checksum 0x%016llx of the data read differs from 0x%016llx recorded: the file is corrupted", where, (unsigned long long)sum, (unsigned long long)recorded);
  }
  if (h5->comm == RW_H5_NODE) PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg)); /* another node may differ */
  else PetscCheck(!msg[0], PetscObjectComm((PetscObject)store), PETSC_ERR_FILE_UNEXPECTED, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreRead_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Read(store, slot, k, &u, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A read that gives the caller the prefetch buffer itself, when it holds the slot */
static PetscErrorCode RwStoreReadSwap_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec *u)
{
  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Read(store, slot, k, u, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A slot holds a step when its file marks it valid; a slot marked valid
   whose record is damaged is refused here, before anything trusts its step.
   Node files answer for their node only, so a step counts when every node's
   file holds it */
static PetscErrorCode RwStoreGetValidSteps_HDF5(RwStore store, PetscInt64 steps[])
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)store);
  PetscInt64 *lo, *hi;
  RwH5Record  r;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  for (PetscInt64 i = 0; i < store->slots; i++) {
    char msg[RW_H5_MSGLEN] = "";

    PetscCall(RwStoreHDF5GetRecord(store, i, -1, &r, msg));
    steps[i] = r.valid ? (PetscInt64)r.step : -1;
    PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg));
  }
  PetscCall(PetscMalloc2(store->slots, &lo, store->slots, &hi));
  PetscCallMPI(MPI_Allreduce(steps, lo, (PetscMPIInt)store->slots, MPIU_INT64, MPI_MIN, comm));
  PetscCallMPI(MPI_Allreduce(steps, hi, (PetscMPIInt)store->slots, MPIU_INT64, MPI_MAX, comm));
  for (PetscInt64 i = 0; i < store->slots; i++) steps[i] = lo[i] == hi[i] ? lo[i] : -1;
  PetscCall(PetscFree2(lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integers kept with a slot's checkpoint, as the file holds them, once
   its record checksum vouches for them */
static PetscErrorCode RwStoreGetAttachment_HDF5(RwStore store, PetscInt64 slot, PetscInt64 data[])
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  RwH5Record    r;

  PetscFunctionBegin;
  if (!store->nattach) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreHDF5Settle(store));
  PetscCall(RwStoreHDF5GetValidRecord(store, slot, store->step[slot], &r, msg));
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_UNEXPECTED, msg));
  PetscCall(PetscArraycpy(data, h5->attach, store->nattach));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new solve: every slot loses its valid mark before the root names the
   solve, so a crash in between leaves nothing valid under either name */
static PetscErrorCode RwStoreSetSolve_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          solve[RW_H5_SOLVELEN] = "";
  int           zero = 0;
  hid_t         t;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  (void)RwStoreHDF5PrefetchWait(store); /* nothing of another solve is read back */
  RwH5Try(store, -1, 0, RW_H5_WRITE, RwH5AttrPut(h5->fid, "complete", H5T_NATIVE_INT, &zero));
  for (PetscInt64 i = 0; i < store->slots; i++) RwH5Try(store, i, -1, RW_H5_WRITE, RwH5AttrPut(h5->dset[i], "valid", H5T_NATIVE_INT, &zero));
  RwH5Try(store, -1, 0, RW_H5_WRITE, H5Fflush(h5->fid, H5F_SCOPE_LOCAL));
  if (store->solve) PetscCall(PetscStrncpy(solve, store->solve, sizeof(solve)));
  RwCallHDF5Return(t, RwH5StringType, (RW_H5_SOLVELEN));
  RwH5Try(store, -1, 0, RW_H5_WRITE, RwH5AttrPut(h5->fid, "solve", t, solve));
  RwCallHDF5(H5Tclose, (t));
  PetscCall(RwStoreHDF5Flush(store, -1, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreSetComplete_HDF5(RwStore store)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  int           one = 1;

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5Settle(store));
  RwH5Try(store, -1, 0, RW_H5_WRITE, RwH5AttrPut(h5->fid, "complete", H5T_NATIVE_INT, &one));
  PetscCall(RwStoreHDF5Flush(store, -1, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file and its fate, for a store the driver derives from another (the reverse-sweep keep) */
static PetscErrorCode RwStoreHDF5SetFileOptions_HDF5(RwStore store, const char file[], PetscBool keep, PetscBool overwrite)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the hdf5 store's file before RwStoreSetUp()");
  PetscCall(PetscStrncpy(h5->file, file, sizeof(h5->file)));
  h5->keep      = keep;
  h5->overwrite = overwrite;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreHDF5GetFileOptions_HDF5(RwStore store, const char **file, PetscBool *keep, PetscBool *overwrite)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  *file      = h5->file;
  *keep      = h5->keep;
  *overwrite = h5->overwrite;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreHDF5SetFileOptions - the file of an hdf5 store, whether it is kept at
  the end and whether an existing one may be replaced (-rw_store_hdf5_file,
  -rw_store_keep, -rw_store_overwrite); ignored by other store types

  Logically collective; before RwStoreSetUp()

  Level: developer

.seealso: RwStoreHDF5GetFileOptions(), RWSTOREHDF5
@*/
PetscErrorCode RwStoreHDF5SetFileOptions(RwStore store, const char file[], PetscBool keep, PetscBool overwrite)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  PetscTryMethod(store, "RwStoreHDF5SetFileOptions_C", (RwStore, const char[], PetscBool, PetscBool), (store, file, keep, overwrite));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwStoreHDF5GetFileOptions - the file of an hdf5 store and its fate; *file is NULL for other types

  Not collective

  Level: developer

.seealso: RwStoreHDF5SetFileOptions()
@*/
PetscErrorCode RwStoreHDF5GetFileOptions(RwStore store, const char **file, PetscBool *keep, PetscBool *overwrite)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(store, RW_STORE_CLASSID, 1);
  *file      = NULL;
  *keep      = PETSC_FALSE;
  *overwrite = PETSC_FALSE;
  PetscTryMethod(store, "RwStoreHDF5GetFileOptions_C", (RwStore, const char **, PetscBool *, PetscBool *), (store, file, keep, overwrite));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- options, view, destroy ------------------------------------------------ */

static PetscErrorCode RwStoreSetFromOptions_HDF5(RwStore store, PetscOptionItems *PetscOptionsObject)
{
  RwStore_HDF5 *h5     = (RwStore_HDF5 *)store->data;
  const char   *prefix = ((PetscObject)store)->prefix ? ((PetscObject)store)->prefix : "";

  PetscFunctionBegin;
  PetscCheck(!store->setupcalled, PetscObjectComm((PetscObject)store), PETSC_ERR_ORDER, "Set the hdf5 store's options before RwStoreSetUp()");
  PetscOptionsHeadBegin(PetscOptionsObject, "HDF5 checkpoint store options");
  PetscCall(PetscOptionsString("-rw_store_hdf5_file", "Checkpoint file (node files get a -node<i> suffix)", "RWSTOREHDF5", h5->file, h5->file, sizeof(h5->file), NULL));
  PetscCall(PetscOptionsEnum("-rw_store_hdf5_comm", "One file shared by all ranks (world) or one file per node (node)", "RWSTOREHDF5", RwStoreHDF5Comms, (PetscEnum)h5->comm, (PetscEnum *)&h5->comm, NULL));
  PetscCall(PetscOptionsBool("-rw_store_keep", "Keep the checkpoint file at the end (it is removed by default)", "RWSTOREHDF5", h5->keep, &h5->keep, NULL));
  PetscCall(PetscOptionsBool("-rw_store_overwrite", "Replace an existing checkpoint file (without it, a run that does not resume refuses to touch one)", "RWSTOREHDF5", h5->overwrite, &h5->overwrite, NULL));
  PetscCall(RwOptionsInt("-rw_store_hdf5_alignment", "Align checkpoint datasets of at least this many bytes to multiples of it, e.g. the stripe size (0: no alignment)", "RWSTOREHDF5", h5->alignment, &h5->alignment, NULL, 0, PETSC_MAX_INT));
  PetscCall(PetscOptionsBool("-rw_store_hdf5_async", "Write checkpoint data in a background thread while the sweep goes on", "RWSTOREHDF5", h5->async, &h5->async, NULL));
  PetscCall(PetscOptionsBool("-rw_store_hdf5_prefetch", "Read the checkpoint the driver restores next in a background thread while the sweep goes on (needs -rw_store_hdf5_async)", "RWSTOREHDF5", h5->prefetch, &h5->prefetch, NULL));
  PetscCall(RwOptionsInt("-rw_debug_kill_in_write", "Testing: SIGKILL half way through the data of this write (from 1) of the store", "RWSTOREHDF5", h5->killwrite, &h5->killwrite, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_debug_kill_before_mark", "Testing: SIGKILL once the data of this write (from 1) are complete, before its record and valid mark", "RWSTOREHDF5", h5->killmark, &h5->killmark, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_store_hdf5_fail_write", "Debugging: make the k-th write fail as a full disk would (0: never)", "RWSTOREHDF5", h5->failwrite, &h5->failwrite, NULL, 0, PETSC_MAX_INT));
  PetscCall(RwOptionsInt("-rw_store_hdf5_fail_read", "Debugging: make the k-th prefetched read fail as one from a file cut short would (0: never)", "RWSTOREHDF5", h5->failread, &h5->failread, NULL, 0, PETSC_MAX_INT));
  PetscOptionsHeadEnd();
  /* a collective H5Dwrite's bytes may still be on their way through another rank's MPI-IO when it returns here, so only the writer thread's, whose end the reader waits for, are prefetched */
  if (!h5->async) h5->prefetch = PETSC_FALSE;
  PetscCheck(h5->file[0], PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_WRONG, "-%srw_store_hdf5_file needs a file name", prefix);
  PetscCheck(h5->alignment >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_store_hdf5_alignment %" PetscInt_FMT ": expected a number of bytes >= 0 (0: no alignment)", prefix, h5->alignment);
  PetscCheck(h5->failwrite >= 0, PetscObjectComm((PetscObject)store), PETSC_ERR_ARG_OUTOFRANGE, "-%srw_store_hdf5_fail_write %" PetscInt_FMT ": expected the number of the write to fail, >= 1 (0: none)", prefix, h5->failwrite);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "<MB> in <s> s (<MB/s> MB/s)" for n transfers of the whole state, timed on the slowest rank */
static PetscErrorCode RwStoreHDF5Rate(RwStore store, PetscInt64 n, PetscLogDouble t, char buf[], size_t len)
{
  PetscInt       N;
  PetscLogDouble tmax;
  double         mb;

  PetscFunctionBegin;
  PetscCall(VecGetSize(store->templ, &N));
  PetscCall(MPIU_Allreduce(&t, &tmax, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, PetscObjectComm((PetscObject)store)));
  mb = (double)n * (double)N * sizeof(PetscScalar) / 1e6;
  PetscCall(PetscSNPrintf(buf, len, "%.4g MB in %.3g s (%.4g MB/s)", mb, tmax, tmax > 0 ? mb / tmax : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the background writer did and how much of it the sweep did not wait for, summed over ranks */
static PetscErrorCode RwStoreHDF5ViewAsync(RwStore store, PetscViewer viewer)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  double        mine[3] = {(double)store->counts.bytes_async, store->counts.seconds_async, store->counts.seconds_wait}, all[3];

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(mine, all, 3, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)store)));
  if (!h5->async) PetscCall(PetscViewerASCIIPrintf(viewer, "synchronous writes (-rw_store_hdf5_async 0)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "asynchronous: %.4g MB written by the background writers in %.3g s, the sweep waited %.3g s for them: overlap %.1f%%\n", all[0] / 1e6, all[1], all[2], all[1] > 0 ? 100.0 * PetscMax(0.0, 1.0 - all[2] / all[1]) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How many reads the prefetch served and how much of its reading the sweep did not wait for, summed over ranks */
static PetscErrorCode RwStoreHDF5ViewPrefetch(RwStore store, PetscViewer viewer)
{
  RwStore_HDF5 *h5      = (RwStore_HDF5 *)store->data;
  double        mine[4] = {(double)store->counts.prefetches, (double)store->counts.prefetch_hits, store->counts.seconds_prefetch, store->counts.seconds_prefetch_wait}, all[4];
  PetscMPIInt   size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)store), &size));
  PetscCall(MPIU_Allreduce(mine, all, 4, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)store)));
  if (!h5->prefetch) PetscCall(PetscViewerASCIIPrintf(viewer, "no prefetch (-rw_store_hdf5_prefetch 0, or synchronous writes)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "prefetch: %.0f of %.0f prefetched checkpoints used by the reads (the others were rewritten first), read by the background readers in %.3g s, the sweep waited %.3g s for them: overlap %.1f%%\n", all[1] / size, all[0] / size, all[2], all[3], all[2] > 0 ? 100.0 * PetscMax(0.0, 1.0 - all[3] / all[2]) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreView_HDF5(RwStore store, PetscViewer viewer)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          shape[128], rate[128], align[64] = "";

  PetscFunctionBegin;
  if (!store->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "file %s (%s), not set up\n", h5->file, RwStoreHDF5Comms[h5->comm]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h5->comm == RW_H5_NODE) PetscCall(PetscViewerASCIIPrintf(viewer, "one file per node: %" PetscInt_FMT " files like %s, %s at the end\n", h5->nodes, h5->path, h5->keep ? "kept" : "removed"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "file %s shared by all ranks, %s at the end\n", h5->path, h5->keep ? "kept" : "removed"));
  RwH5Shape(h5->frank, h5->fdims, shape, sizeof(shape));
  if (h5->alignment) PetscCall(PetscSNPrintf(align, sizeof(align), ", aligned to %" PetscInt_FMT " bytes", h5->alignment));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt64_FMT " slots: datasets /slot_<i> of %s doubles%s%s\n", store->slots, shape, align, store->restart ? ", reopened for a restart" : ""));
  PetscCall(RwStoreHDF5Rate(store, store->counts.writes, store->counts.seconds_write, rate, sizeof(rate)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "written: %" PetscInt64_FMT " checkpoints, %s, one fsync each\n", store->counts.writes, rate));
  PetscCall(RwStoreHDF5ViewAsync(store, viewer));
  PetscCall(RwStoreHDF5Rate(store, store->counts.reads, store->counts.seconds_read, rate, sizeof(rate)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "read: %" PetscInt64_FMT " checkpoints, %s, checksums verified\n", store->counts.reads, rate));
  PetscCall(RwStoreHDF5ViewPrefetch(store, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closes every handle even when one fails; the file is removed unless kept or not ours */
static PetscErrorCode RwStoreHDF5Close(RwStore store)
{
  RwStore_HDF5 *h5                = (RwStore_HDF5 *)store->data;
  char          msg[RW_H5_MSGLEN] = "";
  herr_t        s                 = 0;
  PetscMPIInt   frank;
  int           e;

  PetscFunctionBegin;
  if (h5->opened) PetscCall(RwStoreSync_HDF5(store));
  (void)RwStoreHDF5PrefetchWait(store); /* first: a prefetch may wait for the writer */
  if ((e = RwH5WriterStop(&h5->reader))) snprintf(msg, sizeof(msg), "Closing the prefetching reader's handle of checkpoint file %s failed: %s", h5->path, strerror(e));
  if ((e = RwH5WriterStop(&h5->writer))) snprintf(msg, sizeof(msg), "Closing the asynchronous writer's handle of checkpoint file %s failed: %s", h5->path, strerror(e));
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_WRITE, msg));
  for (PetscInt64 i = 0; h5->dset && i < store->slots; i++)
    if (h5->dset[i] >= 0) s |= H5Dclose(h5->dset[i]);
  if (h5->memspace > 0) s |= H5Sclose(h5->memspace);
  if (h5->filespace > 0) s |= H5Sclose(h5->filespace);
  if (h5->dxpl > 0) s |= H5Pclose(h5->dxpl);
  if (h5->rdxpl > 0) s |= H5Pclose(h5->rdxpl);
  if (h5->opened) s |= H5Fclose(h5->fid);
  RwH5Try(store, -1, 0, RW_H5_CLOSE, s < 0 ? -1 : 0);
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &frank));
  if (h5->owned && !h5->keep && !frank && unlink(h5->path) && errno != ENOENT) snprintf(msg, sizeof(msg), "Cannot remove checkpoint file %s at the end (use -rw_store_keep to keep it): %s", h5->path, strerror(errno));
  h5->opened = h5->owned = PETSC_FALSE;
  PetscCall(RwStoreHDF5Agree(store, PETSC_ERR_FILE_WRITE, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwStoreDestroy_HDF5(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  if (h5->fcomm != MPI_COMM_NULL) {
    PetscCall(RwStoreHDF5Close(store));
    PetscCallMPI(MPI_Comm_free(&h5->fcomm));
  }
  PetscCall(PetscFree(h5->dset));
  PetscCall(PetscFree(h5->attach));
  PetscCall(PetscFree(h5->pattach));
  PetscCall(PetscFree(h5->offset));
  PetscCall(VecDestroy(&h5->stage));
  PetscCall(VecDestroy(&h5->held));
  PetscCall(VecDestroy(&h5->rbuf));
  PetscCall(PetscFree(h5->written));
  PetscCall(PetscFree2(h5->runs.runoff, h5->runs.runlen));
  PetscCall(PetscFree(store->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5SetFileOptions_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5GetFileOptions_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  RWSTOREHDF5 - "hdf5": checkpoints in a parallel HDF5 file, one dataset per
  slot shaped like the global grid, written by a background thread (or
  collectively), read with independent MPI-IO; each
  checkpoint records its step, time, grid and a checksum independent of the
  decomposition, and is marked valid only once written and flushed.

  Options Database Keys:
+ -rw_store_hdf5_file <name>           - the file (default rewind-checkpoints.h5 in the working directory)
. -rw_store_hdf5_comm <world,node>     - one file shared by all ranks (default), or one file per node (name-node<i>.h5), which only the same decomposition can read back
. -rw_store_keep                       - keep the file at the end (by default RwStoreDestroy() removes it)
. -rw_store_overwrite                  - replace an existing file (by default a run that does not resume refuses to touch it)
. -rw_store_hdf5_alignment <bytes>     - align datasets of at least that size to multiples of it (the stripe size of a parallel file system); default none
. -rw_store_hdf5_async <bool>          - a background thread writes each checkpoint's data while the sweep goes on (default true)
. -rw_store_hdf5_prefetch <bool>       - a background thread reads the checkpoint the driver restores next (RwStorePrefetch()) while the sweep goes on (default true; needs async writes)
. -rw_debug_kill_in_write <k>          - testing: SIGKILL half way through the data of the k-th write
. -rw_debug_kill_before_mark <k>       - testing: SIGKILL once the k-th write's data are complete, before its valid mark
. -rw_store_hdf5_fail_write <k>        - debugging: the k-th write fails as a full disk would
- -rw_store_hdf5_fail_read <k>         - debugging: the k-th prefetched read fails as one from a file cut short would

  Level: beginner

  Notes:
  A file written on P ranks (world layout) can be restored on any number of
  ranks.  The file layout is described in doc/checkpoints.md.

.seealso: RwStoreCreate(), RWSTOREMEMORY, RwStoreSetRestart(), RwStoreSetIdentity(), RwStoreSetInfo()
M*/
PetscErrorCode RwStoreCreate_HDF5(RwStore store)
{
  RwStore_HDF5 *h5;

  PetscFunctionBegin;
  PetscCall(PetscNew(&h5));
  PetscCall(PetscStrncpy(h5->file, "rewind-checkpoints.h5", sizeof(h5->file)));
  h5->fcomm               = MPI_COMM_NULL;
  h5->fid                 = H5I_INVALID_HID;
  h5->memspace            = H5I_INVALID_HID;
  h5->filespace           = H5I_INVALID_HID;
  h5->dxpl                = H5I_INVALID_HID;
  h5->rdxpl               = H5I_INVALID_HID;
  h5->async               = PETSC_TRUE;
  h5->prefetch            = PETSC_TRUE;
  h5->writer.fd           = -1;
  h5->reader.fd           = -1;
  store->data             = h5;
  store->ops->setfromoptions = RwStoreSetFromOptions_HDF5;
  store->ops->setup          = RwStoreSetUp_HDF5;
  store->ops->write          = RwStoreWrite_HDF5;
  store->ops->read           = RwStoreRead_HDF5;
  store->ops->getattachment  = RwStoreGetAttachment_HDF5;
  store->ops->validsteps     = RwStoreGetValidSteps_HDF5;
  store->ops->setsolve       = RwStoreSetSolve_HDF5;
  store->ops->setcomplete    = RwStoreSetComplete_HDF5;
  store->ops->sync           = RwStoreSync_HDF5;
  store->ops->prefetch       = RwStorePrefetch_HDF5;
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5SetFileOptions_C", RwStoreHDF5SetFileOptions_HDF5));
  PetscCall(PetscObjectComposeFunction((PetscObject)store, "RwStoreHDF5GetFileOptions_C", RwStoreHDF5GetFileOptions_HDF5));
  store->ops->view           = RwStoreView_HDF5;
  store->ops->destroy        = RwStoreDestroy_HDF5;
  PetscFunctionReturn(PETSC_SUCCESS);
}
