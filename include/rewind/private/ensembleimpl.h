/* Private RwEnsemble structure. */
#ifndef REWIND_PRIVATE_ENSEMBLEIMPL_H
#define REWIND_PRIVATE_ENSEMBLEIMPL_H

#include <rewind/private/rwimpl.h>
#include <rewind/ensemble.h>

PETSC_EXTERN PetscLogEvent RW_EnsembleSum, RW_EnsembleGather;

struct _RwEnsembleOps {
  PetscErrorCode (*view)(RwEnsemble, PetscViewer);
};

#define RW_ENSEMBLE_MAX_DMS 8

/* One pair of grids: a group's DM and the parent's, with the same global grid.
   A member's vector goes group -> natural order -> parent; for a DM whose
   global ordering does not depend on the ranks (a DMRedundant) the global
   vector is its own natural one */
typedef struct {
  DM          subda, da;
  PetscBool   isda;        /* DMDAs: natural order through DMDAGlobalToNatural */
  Vec         subnat;      /* natural ordering on the group */
  Vec         nat, work;   /* natural ordering and a global vector on the parent */
  Vec        *wrap;        /* [ngroups]: parent-comm views of group k's natural vector */
  VecScatter *sct;         /* [ngroups]: wrap[k] -> nat */
  PetscBool   planes;      /* vectors hold their components in planes (RwEnsembleSetDMPlanes()) */
  Vec         subperm, perm; /* then: global vectors of the group's and the parent's DM, interleaved */
} RwEnsembleMove;

struct _p_RwEnsemble {
  PETSCHEADER(struct _RwEnsembleOps);
  PetscInt    nmembers;
  PetscInt    ngroups;     /* asked for: 0 picks gcd(ranks, members); set up: the groups made */
  PetscBool   setupcalled;
  PetscMPIInt size, rank;  /* in the parent communicator */
  PetscInt    group;       /* this rank's group */
  PetscMPIInt *first;      /* first parent rank of each group, [ngroups + 1] */
  MPI_Comm    sub;         /* this rank's group */
  PetscInt    nmine, *mine; /* this group's members, in order */
  /* the grids vectors move between (RwEnsembleSetDM): one pair per parent grid */
  RwEnsembleMove moves[RW_ENSEMBLE_MAX_DMS];
  PetscInt       nmoves;
  /* the sum in progress (RwEnsembleSumBegin/Add/End) */
  Vec             G;
  RwEnsembleMove *Gmove;   /* G's grids */
  PetscReal   J, *Jm;      /* the running sum and every member's J */
  PetscInt    next;        /* members summed so far */
};

#endif
