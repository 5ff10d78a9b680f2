/*
  Compressed slots of the hdf5 store (-rw_store_compress lossless|zfp).

  A compressed state's size differs from rank to rank and from write to
  write, and parallel HDF5 1.10 cannot write filtered (chunk-compressed)
  datasets collectively.  So each slot is one contiguous dataset of bytes
  (H5T_STD_U8LE), allocated at set-up, in which every rank of the file owns
  a fixed part of its codec's capacity (the state's bytes plus Blosc's
  header: src/store/compress/compress.c), the ranks' parts in rank order.
  A write encodes the state and writes only the bytes kept into this rank's
  part: by the background writer thread with pwrite() at the part's file
  offset (-rw_store_hdf5_async, the default), or by one H5Dwrite per rank
  selecting its own length.  That H5Dwrite is independent, not collective:
  each rank's bytes are one contiguous run of its own, and the collective
  transfer took twice the time (revolve, 256^2, 400 steps, 2 ranks: 16.3 s
  of writes against 7.9 s).  The rest of a part is padding nobody reads.  Each rank's length and
  XXH3-64 checksum go beside the data, as the slot's attributes "lengths"
  and "sums" (one per rank of the file), with "encoding" (Blosc, zfp or the
  raw values: the same on every rank) and "tolerance_abs" (zfp's absolute
  bound).  The slot's "checksum" is a hash of all four, which its record
  checksum covers as before, so a damaged length is found before it is
  used, and each rank checks its bytes' XXH3 before it decodes them.

  The valid-mark protocol is the one of uncompressed slots (h5write.c):
  the lengths and sums are part of the record, put with the valid mark once
  the data are complete.  There is no prefetch (the reader would need a
  slot's lengths before its record is read), and the bytes of a rank's part are
  only meaningful for that rank's block: the root keeps every rank's block
  ("blocks"), the codec ("compress") and zfp's tolerance, and a restart
  needs the same decomposition and codec.

  A disk budget buys slots at the compressed size (src/adjoint/pooldisk.c):
  RwStoreSetPartCapacity() sizes every rank's part at a planned compressed
  size instead of the full capacity.  A state that compresses to more than
  its part on some rank is kept nowhere: the lengths are gathered before any
  byte is written, so every rank of the file sees the refusal, and one
  reduction carries it to the ranks of other files (node files).  The slot
  stays not valid on disk (its mark went off at the write's start), and
  RwStoreTryWrite() reports it.  The root's "part" records the planned size
  (0: full capacity); a restart needs the same.
*/
#include "hdf5impl.h"
#include <signal.h>

/* The ranks of the file, this rank's part of a slot, and the buffers of a write and a read */
PetscErrorCode RwStoreHDF5PackedSetUp(RwStore store)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  int64_t       cap = 0, ofs = 0, total = 0;

  PetscFunctionBegin;
  h5->packed   = PETSC_TRUE;
  h5->prefetch = PETSC_FALSE; /* the reader would need the lengths before the record is read */
  PetscCall(RwCodecSetUp(store));
  PetscCallMPI(MPI_Comm_size(h5->fcomm, &h5->fsize));
  PetscCallMPI(MPI_Comm_rank(h5->fcomm, &h5->fme));
  cap = (int64_t)store->codec.cap;
  if (store->partcap) cap = PetscMin(cap, store->partcap); /* the planned size (the driver's disk budget), the same on every rank */
  h5->part = (size_t)cap;
  PetscCallMPI(MPI_Exscan(&cap, &ofs, 1, MPI_INT64_T, MPI_SUM, h5->fcomm));
  if (!h5->fme) ofs = 0; /* MPI leaves rank 0's result undefined */
  PetscCallMPI(MPI_Allreduce(&cap, &total, 1, MPI_INT64_T, MPI_SUM, h5->fcomm));
  h5->cofs      = (hsize_t)ofs;
  h5->frank     = 1;
  h5->fdims[0]  = (hsize_t)total;
  h5->fstart[0] = (hsize_t)ofs;
  h5->fcount[0] = (hsize_t)cap;
  PetscCall(PetscMalloc2(store->codec.cap, &h5->cbuf, store->codec.cap, &h5->rcbuf)); /* a read may run beside the writer */
  PetscCall(PetscMalloc5(h5->fsize, &h5->plen, h5->fsize, &h5->rlen, h5->fsize, &h5->psums, h5->fsize, &h5->rsums, 2 * (size_t)h5->fsize, &h5->gather));
  for (PetscMPIInt r = 0; r < h5->fsize; r++) h5->plen[r] = h5->rlen[r] = 0, h5->psums[r] = h5->rsums[r] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwStoreHDF5PackedDestroy(RwStore store)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  PetscFunctionBegin;
  PetscCall(PetscFree2(h5->cbuf, h5->rcbuf));
  PetscCall(PetscFree5(h5->plen, h5->rlen, h5->psums, h5->rsums, h5->gather));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slot's "checksum": every rank's length and XXH3, the encoding and zfp's bound, chained */
uint64_t RwH5PackedSum(RwStore store, int encoding, double tolabs, const int64_t len[], const uint64_t sums[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  uint64_t      h  = RwSplitMix64(0x7061636b6564ULL), t; /* "packed" */

  memcpy(&t, &tolabs, sizeof(t));
  h = RwSplitMix64(h ^ (uint64_t)encoding);
  h = RwSplitMix64(h ^ t);
  h = RwSplitMix64(h ^ (uint64_t)h5->fsize);
  for (PetscMPIInt r = 0; r < h5->fsize; r++) {
    h = RwSplitMix64(h ^ (uint64_t)len[r]);
    h = RwSplitMix64(h ^ sums[r]);
  }
  return h;
}

/* The root's record of how its slots were made: the codec, zfp's tolerance
   and, in a file shared by all ranks, every rank's block (node files have it) */
herr_t RwH5PackedNewRoot(RwStore store, hid_t fid)
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  double        tol  = store->codec.type == RW_STORE_COMPRESS_ZFP ? (double)store->codec.tol : 0;
  int64_t       part = (int64_t)store->partcap;
  herr_t        s    = 0;

  if (!h5->packed) return 0;
  s |= RwH5AttrNewString(fid, "compress", RwStoreCompressTypes[store->codec.type]);
  s |= RwH5AttrNew(fid, "tolerance", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &tol);
  s |= RwH5AttrNew(fid, "part", H5T_STD_I64LE, H5T_NATIVE_INT64, 0, &part);
  return s < 0 ? -1 : 0;
}

/* A compressed slot's own attributes beside the common ones, saying "nothing kept yet" */
herr_t RwH5PackedNewSlot(RwStore store, hid_t d)
{
  RwStore_HDF5 *h5       = (RwStore_HDF5 *)store->data;
  int           encoding = RW_CODEC_RAW;
  double        tolabs   = 0;
  herr_t        s        = 0;

  s |= RwH5AttrNew(d, "encoding", H5T_STD_I32LE, H5T_NATIVE_INT, 0, &encoding);
  s |= RwH5AttrNew(d, "tolerance_abs", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &tolabs);
  s |= RwH5AttrNew(d, "lengths", H5T_STD_I64LE, H5T_NATIVE_INT64, (hsize_t)h5->fsize, h5->plen);
  s |= RwH5AttrNew(d, "sums", H5T_STD_U64LE, H5T_NATIVE_UINT64, (hsize_t)h5->fsize, h5->psums);
  return s < 0 ? -1 : 0;
}

/* The pending write's lengths and sums, into HDF5's cache with its record */
herr_t RwH5PackedPutRecord(RwStore store, hid_t d)
{
  RwStore_HDF5 *h5       = (RwStore_HDF5 *)store->data;
  int           encoding = (int)h5->prec.method;
  double        tolabs   = (double)h5->prec.tolabs;

  if (RwH5AttrPut(d, "encoding", H5T_NATIVE_INT, &encoding) < 0) return -1;
  if (RwH5AttrPut(d, "tolerance_abs", H5T_NATIVE_DOUBLE, &tolabs) < 0) return -1;
  if (RwH5AttrPut(d, "lengths", H5T_NATIVE_INT64, h5->plen) < 0) return -1;
  return RwH5AttrPut(d, "sums", H5T_NATIVE_UINT64, h5->psums);
}

/* A slot's lengths and sums as the file holds them (r->missing names one absent) */
herr_t RwH5PackedGetRecord(RwStore store, hid_t d, RwH5Record *r)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  const RwH5AttrItem attr[] = {
    {"encoding",      H5T_NATIVE_INT,    0,                  &r->encoding},
    {"tolerance_abs", H5T_NATIVE_DOUBLE, 0,                  &r->tolabs  },
    {"lengths",       H5T_NATIVE_INT64,  (hsize_t)h5->fsize, h5->rlen    },
    {"sums",          H5T_NATIVE_UINT64, (hsize_t)h5->fsize, h5->rsums   }
  };

  return RwH5AttrGetItems(d, sizeof(attr) / sizeof(attr[0]), attr, &r->missing);
}

/* A file to restart from was made with this run's codec (and tolerance); msg says why not */
PetscErrorCode RwStoreHDF5PackedCheckRoot(RwStore store, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          codec[32];
  double        tol  = 0;
  int64_t       part = 0;
  const char   *mine = RwStoreCompressTypes[store->codec.type];

  PetscFunctionBegin;
  RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGetString(h5->fid, "compress", codec, sizeof(codec)));
  if (!codec[0]) PetscCall(PetscStrncpy(codec, "none", sizeof(codec))); /* files without compression do not say so */
  if (strcmp(codec, "none")) RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "tolerance", H5T_NATIVE_DOUBLE, 0, &tol));
  if (strcmp(codec, "none") && H5Aexists(h5->fid, "part") > 0) RwH5Try(store, -1, 0, RW_H5_OPEN, RwH5AttrGet(h5->fid, "part", H5T_NATIVE_INT64, 0, &part)); /* older files: full capacity */
  if (strcmp(codec, mine)) snprintf(msg, RW_H5_MSGLEN, "File %s was written with -rw_store_compress %s, this run uses %s: resume with the codec that wrote it; the file is left as it is", h5->path, codec, mine);
  else if (part != (int64_t)store->partcap) snprintf(msg, RW_H5_MSGLEN, "File %s was written with compressed parts of %s%lld bytes a rank, this run plans %s%lld (parts are planned at the compressed size from -rw_checkpoint_disk, without -rw_restart or keeps): resume with the parts that wrote it; the file is left as it is", h5->path, part ? "" : "full capacity, ", part ? (long long)part : (long long)store->codec.cap, store->partcap ? "" : "full capacity, ", store->partcap ? (long long)store->partcap : (long long)store->codec.cap);
  else if (store->codec.type == RW_STORE_COMPRESS_ZFP && tol != (double)store->codec.tol) snprintf(msg, RW_H5_MSGLEN, "File %s was written with -rw_store_compress_tolerance %g, this run uses %g: resume with the tolerance that wrote it; the file is left as it is", h5->path, tol, (double)store->codec.tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Selects this rank's first len bytes of its part (none when len is 0) */
static herr_t RwH5PackedSelect(RwStore store, size_t len)
{
  RwStore_HDF5 *h5    = (RwStore_HDF5 *)store->data;
  hsize_t       zero  = 0, n = (hsize_t)len;

  if (!len) return H5Sselect_none(h5->memspace) < 0 || H5Sselect_none(h5->filespace) < 0 ? -1 : 0;
  if (H5Sselect_hyperslab(h5->memspace, H5S_SELECT_SET, &zero, NULL, &n, NULL) < 0) return -1;
  return H5Sselect_hyperslab(h5->filespace, H5S_SELECT_SET, &h5->cofs, NULL, &n, NULL);
}

/* This rank's bytes of the state, synchronously; -rw_debug_kill_in_write stops half way */
static herr_t RwH5PackedWriteData(RwStore store, PetscInt64 slot, size_t len)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;

  if (h5->killwrite > 0 && h5->killwrite == h5->calls) {
    if (RwH5PackedSelect(store, len / 2) >= 0) (void)H5Dwrite(h5->dset[slot], H5T_NATIVE_UCHAR, h5->memspace, h5->filespace, h5->rdxpl, h5->cbuf);
    raise(SIGKILL); /* tests: the slot's bytes half old, half new */
  }
  if (RwH5PackedSelect(store, len) < 0) return -1;
  return H5Dwrite(h5->dset[slot], H5T_NATIVE_UCHAR, h5->memspace, h5->filespace, h5->rdxpl, h5->cbuf);
}

/* A state larger than its planned part on some rank of any file: kept
   nowhere (store->missed on every rank of the store) */
static PetscErrorCode RwStoreHDF5PackedRefuse(RwStore store)
{
  RwStore_HDF5 *h5   = (RwStore_HDF5 *)store->data;
  PetscBool     over = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscMPIInt r = 0; r < h5->fsize; r++) over = (PetscBool)(over || h5->plen[r] > store->partcap); /* rank r's part: the planned size, or its full capacity where that is less (which holds any state) */
  if (h5->comm == RW_H5_NODE) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &over, 1, MPIU_BOOL, MPI_LOR, PetscObjectComm((PetscObject)store))); /* other nodes' files */
  store->missed = over;
  if (over) store->counts.pool_misses++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write: the slot made not valid on disk (RwStoreHDF5WriteBegin), the state
   encoded, every rank's length and sum gathered for the record, the bytes
   written; the record and mark follow at the next settle, as for any write */
PetscErrorCode RwStoreWritePacked_HDF5(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u)
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  uint64_t      mine[2];

  PetscFunctionBegin;
  PetscCall(RwStoreHDF5WriteBegin(store, slot, k));
  PetscCall(RwCodecEncode(store, u, h5->cbuf, &h5->prec));
  /* one gather of (length, sum) pairs: on a loaded machine each collective costs a time slice */
  mine[0] = (uint64_t)h5->prec.len;
  mine[1] = h5->prec.sum;
  PetscCallMPI(MPI_Allgather(mine, 2, MPI_UINT64_T, h5->gather, 2, MPI_UINT64_T, h5->fcomm));
  for (PetscMPIInt r = 0; r < h5->fsize; r++) {
    h5->plen[r]  = (int64_t)h5->gather[2 * r];
    h5->psums[r] = h5->gather[2 * r + 1];
  }
  if (store->partcap) PetscCall(RwStoreHDF5PackedRefuse(store));
  if (store->missed) PetscFunctionReturn(PETSC_SUCCESS); /* the slot stays not valid, nothing pending */
  h5->plocal = 0; /* the record's checksum is RwH5PackedSum(), made at the settle */
  if (h5->async) { /* the writer thread writes this rank's run of bytes; nothing touches cbuf until the next settle */
    h5->runs.runlen[0] = h5->prec.len;
    h5->runs.bytes     = h5->prec.len;
    RwStoreHDF5Post(store, slot, (const PetscScalar *)h5->cbuf);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  RwH5Try(store, slot, k, RW_H5_WRITE, RwH5PackedWriteData(store, slot, h5->prec.len));
  h5->pending = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A read once the record was checked (msg empty) or found wanting (msg says
   why): this rank's bytes, then the codec checks their sum and decodes them;
   every rank agrees on any failure */
PetscErrorCode RwStoreHDF5PackedRead(RwStore store, PetscInt64 slot, PetscInt64 k, Vec u, char msg[])
{
  RwStore_HDF5 *h5  = (RwStore_HDF5 *)store->data;
  RwCodecRecord rec = h5->rrec;
  char          where[RW_H5_WHERELEN];
  herr_t        status = 0;

  PetscFunctionBegin;
  RwStoreHDF5Where(store, slot, k, where, sizeof(where));
  if (!msg[0] && (h5->rlen[h5->fme] < 0 || (size_t)h5->rlen[h5->fme] > h5->part)) snprintf(msg, RW_H5_MSGLEN, "%s: rank %d's compressed part has %lld bytes, more than its %zu: the file is damaged", where, (int)h5->fme, (long long)h5->rlen[h5->fme], h5->part);
  rec.len = msg[0] ? 0 : (size_t)h5->rlen[h5->fme];
  rec.sum = h5->rsums[h5->fme];
  if (rec.len) status = RwH5PackedSelect(store, rec.len) < 0 ? -1 : H5Dread(h5->dset[slot], H5T_NATIVE_UCHAR, h5->memspace, h5->filespace, h5->rdxpl, h5->rcbuf);
  if (!msg[0] && status < 0) PetscCall(RwStoreHDF5Why(store, slot, k, RW_H5_READ, status, msg));
  PetscCall(RwCodecDecodeAgree(store, h5->rcbuf, &rec, where, msg, u)); /* one agreement: the record's, the read's or the bytes' refusal */
  PetscFunctionReturn(PETSC_SUCCESS);
}
