/* Looking up registered implementations by name, shared by every rewind class. */
#include <rewind/private/rwimpl.h>

/*
  RwTypeFind - finds the constructor registered under type in list; an unknown
  name is a user error that names the option and lists the registered types,
  because that is what a user mistyping -rw_model_type needs to read.
*/
PetscErrorCode RwTypeFind(PetscObject obj, PetscFunctionList list, const char option[], const char type[], void (**create)(void))
{
  const char **names = NULL;
  int          n     = 0;
  char         known[1024];

  PetscFunctionBegin;
  PetscCall(PetscFunctionListFind(list, type, create));
  if (*create) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFunctionListGet(list, &names, &n));
  known[0] = 0;
  for (int i = 0; i < n; i++) {
    if (!names[i] || !names[i][0]) continue; /* PETSc 3.18 may hand back an empty entry */
    if (known[0]) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
    PetscCall(PetscStrlcat(known, names[i], sizeof(known)));
  }
  PetscCall(PetscFree(names));
  SETERRQ(PetscObjectComm(obj), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown %s type \"%s\" (option -%s%s); registered types: %s", obj->class_name, type, obj->prefix ? obj->prefix : "", option + 1, known[0] ? known : "none");
}
