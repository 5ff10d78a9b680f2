/*
  A slot's record: the attributes that say what its data are (step, time,
  checksum, the caller's attachment) and whether they may be trusted (valid,
  record_checksum).  Written into HDF5's cache once the data are complete
  (the next flush commits it, h5write.c), read back and checked before a read
  or a restart trusts the slot.
*/
#include "hdf5impl.h"

/* The checksum of a slot's record: what a read trusts beside the data (the
   slot, the step, the time, the data's checksum and the attachment), chained
   through splitmix64, so that a changed bit in any of them is found */
uint64_t RwH5RecordSum(int64_t slot, int64_t step, double time, uint64_t checksum, PetscInt nattach, const int64_t attach[])
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
  const RwH5AttrItem attr[] = {
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
  return RwH5AttrGetItems(dset, sizeof(attr) / sizeof(attr[0]) - (nattach ? 0 : 1), attr, &r->missing);
}

/* The changing attributes of a write, all covered by the record checksum,
   and the valid mark, into HDF5's cache: the next flush commits them */
herr_t RwH5PutRecord(RwStore store, hid_t dset, int64_t slot, int64_t step, double time, uint64_t checksum, const int64_t attach[])
{
  uint64_t record = RwH5RecordSum(slot, step, time, checksum, store->nattach, attach);
  int      one    = 1;

  if (store->nattach && RwH5AttrPut(dset, "attachment", H5T_NATIVE_INT64, attach) < 0) return -1;
  if (((RwStore_HDF5 *)store->data)->packed && RwH5PackedPutRecord(store, dset) < 0) return -1;
  if (RwH5AttrPut(dset, "step", H5T_NATIVE_INT64, &step) < 0) return -1;
  if (RwH5AttrPut(dset, "time", H5T_NATIVE_DOUBLE, &time) < 0) return -1;
  if (RwH5AttrPut(dset, "checksum", H5T_NATIVE_UINT64, &checksum) < 0) return -1;
  if (RwH5AttrPut(dset, "record_checksum", H5T_NATIVE_UINT64, &record) < 0) return -1;
  return RwH5AttrPut(dset, "valid", H5T_NATIVE_INT, &one);
}

/* Reads a slot's record; a slot marked valid must have all of it, and its
   record checksum must match, else msg says what is wrong (for the caller to agree on).  A slot without
   its valid mark (half-written, or never) comes back with valid 0. */
PetscErrorCode RwStoreHDF5GetRecord(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Record *r, char msg[])
{
  RwStore_HDF5 *h5 = (RwStore_HDF5 *)store->data;
  char          where[RW_H5_WHERELEN];
  uint64_t      sum;

  herr_t        status;

  PetscFunctionBegin;
  /* attributes of a cached object header: no communication, so the caller agrees on msg */
  status = RwH5GetRecord(h5->dset[slot], h5->dim, store->nattach, h5->attach, r);
  if (status >= 0 && h5->packed) status = RwH5PackedGetRecord(store, h5->dset[slot], r);
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
  else if (h5->packed && RwH5PackedSum(store, r->encoding, r->tolabs, h5->rlen, h5->rsums) != r->checksum) snprintf(msg, RW_H5_MSGLEN, "%s: the lengths and checksums of its compressed parts differ from its record: the file is corrupted", where);
  if (h5->packed) {
    h5->rrec.method = (RwCodecMethod)r->encoding;
    h5->rrec.tolabs = r->tolabs;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The record of a slot about to be trusted: valid and intact, else msg says why not */
PetscErrorCode RwStoreHDF5GetValidRecord(RwStore store, PetscInt64 slot, PetscInt64 k, RwH5Record *r, char msg[])
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
PetscErrorCode RwStoreHDF5CheckRecord(RwStore store, PetscInt64 slot, PetscInt64 k, uint64_t *checksum, char msg[])
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
