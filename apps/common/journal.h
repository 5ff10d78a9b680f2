/*
  The evaluation journal of an inversion (journal.c, doc/inverse.md): a
  killed run resumed with -rw_restart replays its evaluations and goes on,
  bit for bit.
*/
#ifndef REWIND_APP_JOURNAL_H
#define REWIND_APP_JOURNAL_H

#include <rewind.h>
#include <petscdmda.h>

typedef struct _n_RwAppJournal *RwAppJournal;

PetscErrorCode RwAppJournalCreate(const char[], const char *const[3], const char[], PetscBool, DM, PetscInt, PetscLogDouble *, RwAppJournal *);
PetscBool      RwAppJournalEnabled(RwAppJournal);
PetscErrorCode RwAppJournalAddLine(RwAppJournal, const char[], const char[]);
PetscErrorCode RwAppJournalAddHash(RwAppJournal, const char[], uint64_t);
PetscErrorCode RwAppJournalChecksum(RwAppJournal, Vec, uint64_t *);
PetscErrorCode RwAppJournalOpen(RwAppJournal);
PetscErrorCode RwAppJournalBeginEvaluation(RwAppJournal, Vec, uint64_t);
PetscErrorCode RwAppJournalLookup(RwAppJournal, PetscInt64, PetscReal *, Vec *, PetscBool *);
PetscErrorCode RwAppJournalPeek(RwAppJournal, PetscInt64, PetscReal *, Vec *, PetscBool *);
PetscErrorCode RwAppJournalRecord(RwAppJournal, PetscInt64, PetscReal, Vec);
PetscErrorCode RwAppJournalForget(RwAppJournal, PetscInt64);
PetscErrorCode RwAppJournalRound(RwAppJournal, RwEnsemble, PetscInt, PetscInt, PetscErrorCode (*)(void *, PetscInt, PetscReal *), void *, Vec, Vec[], PetscReal *, Vec, PetscInt64 *);
PetscErrorCode RwAppJournalEndEvaluation(RwAppJournal);
PetscErrorCode RwAppJournalComplete(RwAppJournal);
PetscErrorCode RwAppJournalDestroy(RwAppJournal *);

#endif
