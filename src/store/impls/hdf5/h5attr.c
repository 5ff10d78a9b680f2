/*
  The hdf5 store's typed attribute layer: HDF5 calls only, no MPI, no PETSc
  errors.  Each helper returns a negative status on failure, like HDF5, so a
  caller made by every rank can agree on it (RwH5Try) before anything is
  raised.  A read checks the attribute's type and dataspace against what
  rewind writes before HDF5 converts anything into the caller's buffer, and
  puts the reason for a refusal on HDF5's error stack for the message.
*/
#include "hdf5impl.h"

/* Writes an attribute created at set-up */
herr_t RwH5AttrPut(hid_t obj, const char name[], hid_t memtype, const void *buf)
{
  hid_t  a = H5Aopen(obj, name, H5P_DEFAULT);
  herr_t s;

  if (a < 0) return -1;
  s = H5Awrite(a, memtype, buf);
  return H5Aclose(a) < 0 ? -1 : s;
}

/* Creates an attribute of n values (a scalar when n is 0) and writes it */
herr_t RwH5AttrNew(hid_t obj, const char name[], hid_t filetype, hid_t memtype, hsize_t n, const void *buf)
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
hid_t RwH5StringType(size_t len)
{
  hid_t t = H5Tcopy(H5T_C_S1);

  if (t < 0) return -1;
  if (H5Tset_size(t, len) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
    H5Tclose(t);
    return -1;
  }
  return t;
}

herr_t RwH5AttrNewString(hid_t obj, const char name[], const char str[])
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
htri_t RwH5CheckType(hid_t ftype, hid_t memtype, const char what[], char why[], size_t len)
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
herr_t RwH5AttrGet(hid_t obj, const char name[], hid_t memtype, hsize_t n, void *buf)
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

/* Reads n attributes in one pass; *missing names the first absent one (or a
   list of another length) and stays as it was when every one is there */
herr_t RwH5AttrGetItems(hid_t obj, size_t n, const RwH5AttrItem item[], const char **missing)
{
  for (size_t i = 0; i < n; i++) {
    herr_t s = RwH5AttrGet(obj, item[i].name, item[i].type, item[i].n, item[i].buf);

    if (s < 0) return -1;
    if (s > 0 && !*missing) *missing = item[i].name;
  }
  return 0;
}

/* Reads a string attribute into buf, truncated to len - 1 characters; 1 when absent */
herr_t RwH5AttrGetString(hid_t obj, const char name[], char buf[], size_t len)
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
