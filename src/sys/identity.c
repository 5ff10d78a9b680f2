/*
  Identities of checkpointed solves: strings of "name value" items separated
  by "; ", made by the driver (what determines the states) and compared by
  stores that keep files.  RwIdentityDiff() names the items that differ, so
  a refused restart says what changed instead of printing two long strings.
*/
#include <rewind/private/rwimpl.h>
#include <string.h>

/* The next item of an identity: its start and length; NULL at the end */
static const char *RwIdentityItem(const char *s, size_t *len)
{
  const char *end;

  if (!s || !*s) return NULL;
  end  = strstr(s, "; ");
  *len = end ? (size_t)(end - s) : strlen(s);
  return s;
}

/* The length of an item's name: up to its first space */
static size_t RwIdentityNameLength(const char *item, size_t len)
{
  const char *sp = memchr(item, ' ', len);
  return sp ? (size_t)(sp - item) : len;
}

/* The item of s with the given name, or NULL */
static const char *RwIdentityFind(const char *s, const char *name, size_t nlen, size_t *len)
{
  for (const char *it = RwIdentityItem(s, len); it; it = RwIdentityItem(it + *len + (it[*len] ? 2 : 0), len))
    if (RwIdentityNameLength(it, *len) == nlen && !strncmp(it, name, nlen)) return it;
  return NULL;
}

/*@C
  RwIdentityDiff - the items in which two identities differ, as
  "steps: 60 in the file, 61 in this run; u0: ..."

  Not collective

  Input Parameters:
+ kept - the identity a file records
. mine - this run's
- len  - size of msg

  Output Parameter:
. msg - the differences; empty when the two are equal

  Level: developer
@*/
void RwIdentityDiff(const char kept[], const char mine[], char msg[], size_t len)
{
  size_t ilen, klen;

  msg[0] = 0;
  for (const char *it = RwIdentityItem(mine, &ilen); it; it = RwIdentityItem(it + ilen + (it[ilen] ? 2 : 0), &ilen)) {
    size_t      nlen = RwIdentityNameLength(it, ilen);
    const char *k    = RwIdentityFind(kept, it, nlen, &klen);
    size_t      used = strlen(msg);

    if (k && klen == ilen && !strncmp(k, it, ilen)) continue;
    if (k) snprintf(msg + used, len - used, "%s%.*s: %.*s in the file, %.*s in this run", used ? "; " : "", (int)nlen, it, (int)(klen - PetscMin(klen, nlen + 1)), k + PetscMin(klen, nlen + 1), (int)(ilen - PetscMin(ilen, nlen + 1)), it + PetscMin(ilen, nlen + 1));
    else snprintf(msg + used, len - used, "%s%.*s: not in the file", used ? "; " : "", (int)nlen, it);
  }
  for (const char *it = RwIdentityItem(kept, &klen); it; it = RwIdentityItem(it + klen + (it[klen] ? 2 : 0), &klen)) {
    size_t nlen = RwIdentityNameLength(it, klen), used = strlen(msg);

    if (!RwIdentityFind(mine, it, nlen, &ilen)) snprintf(msg + used, len - used, "%s%.*s: only in the file", used ? "; " : "", (int)nlen, it);
  }
  if (!msg[0] && strcmp(kept, mine)) snprintf(msg, len, "\"%s\" in the file, \"%s\" in this run", kept, mine);
}
