/* Private RwProblem structure, its journal and its history. */
#ifndef REWIND_PRIVATE_PROBLEMIMPL_H
#define REWIND_PRIVATE_PROBLEMIMPL_H

#include <rewind/private/observationsimpl.h>
#include <rewind/private/adjointimpl.h>
#include <rewind/problem.h>

PETSC_EXTERN PetscLogEvent RW_ProblemEvaluate, RW_JournalWrite, RW_JournalRead;
PETSC_EXTERN PetscClassId  RW_JOURNAL_CLASSID;

#define RW_PROBLEM_MAX_REGS    4
#define RW_PROBLEM_MAX_COLUMNS 16
#define RW_PROBLEM_IDLEN       4096

/* The journal (journal.c): what makes an optimisation resumable */
typedef struct _p_RwJournal *RwJournal;

/* What the unknown is: one parameter of the model, or a program's map */
typedef enum {
  RW_UNKNOWN_NONE, /* none: RwProblemComputeGradient() only */
  RW_UNKNOWN_FIELD,
  RW_UNKNOWN_BLOCK,
  RW_UNKNOWN_U0,
  RW_UNKNOWN_CUSTOM
} RwUnknownKind;

typedef struct {
  char      name[64]; /* the parameter regularised */
  RwRegType type;
  PetscReal alpha, eps;
  Vec       ref;      /* l2's reference (NULL: the start) */
  Vec       x0;       /* the start: what it acted on at the first evaluation (l2 without ref) */
  PetscInt  member;   /* an unknown per member: the member whose parameters it acts on (-1: each member's, summed) */
} RwProblemReg;

typedef struct {
  char name[64];
  PetscErrorCode (*fn)(RwProblem, Vec, PetscReal *, void *);
  void *ctx;
  char  units[64], long_name[128]; /* for its dataset (RwProblemSetHistoryColumnInfo()) */
} RwHistoryColumn;

struct _RwProblemOps {
  PetscErrorCode (*view)(RwProblem, PetscViewer);
};

struct _p_RwProblem {
  PETSCHEADER(struct _RwProblemOps);
  PetscBool   setupcalled;
  char        modeltype[64];
  PetscErrorCode (*modeldefaults)(RwModel, void *);
  void       *modelctx;
  PetscErrorCode (*adjointdefaults)(RwAdjoint, void *);
  void       *adjointctx;
  PetscErrorCode (*terms)(RwProblem, RwObjective, void *);
  void       *termsctx;
  RwObservations obs;
  char        params[16][PETSC_MAX_PATH_LEN + 64]; /* -rw_parameter name=spec */
  PetscInt    nparams;
  PetscInt    member;   /* -rw_obs_member: the one member solved (-1: all) */
  PetscInt    nmembers;
  /* the parent's objects (every rank): layouts, outputs, the base parameters */
  RwModel     model;
  RwObjective obj;
  RwAdjoint   adj;
  Vec         m, u0;
  /* this rank's group: its solver, its members' parameters (their own or the base) */
  RwEnsemble  ens;
  PetscInt    ngroups, group;
  PetscBool   shared;   /* one group: the group's objects are the parent's */
  RwModel     gmodel;
  RwObjective gobj;
  RwAdjoint   gadj;
  Vec         gm, gu0;  /* the base on the group */
  Vec        *mm, *mu0; /* [nmembers]: this group's members' (own or the base), NULL elsewhere */
  Vec       **states;   /* [nmembers]: observed fields on the group's grid */
  PetscInt    fieldterm; /* the field-observation term of the group's objective, or -1 */
  Vec         gg, ggu0; /* a member's gradient */
  /* the unknown */
  char                unknown[64];
  RwUnknownKind       ukind;
  PetscInt            uindex;
  RwProblemUnknownOps uops;
  void               *uctx;
  PetscBool           permember; /* a built-in unknown, one part per member (components e*dof..: a DMDA of members*dof) */
  PetscInt64          shootsteps;  /* multiple shooting (problemshoot.c): each member a segment of this many steps (0: none) */
  PetscReal           shootweight; /* its matching weight */
  PetscInt            shootterm;   /* the matching term in the group's objective */
  void               *shootctx;    /* the term's context, owned by the objective */
  DM                  udm, gudm; /* x's DM on the parent and on the group */
  Vec                 xg, wg;    /* x and a member's dJ/dx, on the group */
  Vec                *W;         /* [ngroups]: a round's members' dJ/dx on the parent */
  Vec                 mask, gx; /* gx: of x's layout on the parent (x on its way to the groups, a regulariser's gradient) */
  Vec                 rm, ru0, rg, rgu0; /* a regulariser of a named parameter in an optimisation: m(x), u0(x) and its gradient, on the parent */
  RwProblemReg        reg[RW_PROBLEM_MAX_REGS];
  PetscInt            nreg;
  /* the last evaluation, and the first */
  char            termnames[RW_PROBLEM_MAX_REGS + 1][64];
  const char     *termptr[RW_PROBLEM_MAX_REGS + 1];
  PetscReal       terms_[RW_PROBLEM_MAX_REGS + 1]; /* misfit, then each regulariser */
  PetscReal       J0;
  Vec             G0;
  PetscInt64      evaluations, solves, fsteps, replayed;
  PetscLogDouble  t0;
  /* the journal */
  RwJournal       journal;
  char            journaldir[PETSC_MAX_PATH_LEN];
  char            identity[RW_PROBLEM_IDLEN]; /* what the caller adds (RwProblemAddIdentity()) */
  uint64_t        salt;
  Tao             tao;      /* the one being solved, described in the journal */
  /* the history */
  RwHistoryColumn columns[RW_PROBLEM_MAX_COLUMNS];
  PetscInt        ncolumns;
  char           *colnames[RW_PROBLEM_MAX_COLUMNS + RW_PROBLEM_MAX_REGS + 8];
  PetscInt        nhist, hcols, hmax;
  char            junits[64], xunits[64]; /* J's and the unknown's units, for the history's datasets (RwProblemSetUnits()) */
  PetscInt        hsolve, nsolve; /* the RwProblemSolve() in progress, and how many began */
  PetscReal      *hist;     /* nhist rows of hcols: iteration, J, terms, gradient norm, seconds, the program's columns */
  PetscViewer     hviewer;  /* -rw_history_view */
  PetscViewerFormat hformat;
  PetscBool       monitorset;
  /* the outputs y of the member's run and their vector-Jacobian products (problemvjp.c) */
  RwObjective     vobj;
  RwAdjoint       vadj;
  PetscInt        vfirst, vterms; /* vobj's linear terms */
  Vec             vm, vu0;        /* the parameters and u0 of vadj's last forward part, which a VJP at the same values continues */
};

/* problem.c, problemunknown.c, problemeval.c, history.c */
PETSC_INTERN PetscErrorCode RwProblemFindField_Private(RwModel, const char[], PetscInt *);
PETSC_INTERN PetscErrorCode RwProblemSetUpUnknown_Private(RwProblem);
PETSC_INTERN PetscErrorCode RwProblemApplyParameters_Private(RwProblem);
PETSC_INTERN PetscErrorCode RwProblemToParameters_Private(RwProblem, PetscInt, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwProblemMemberGradient_Private(RwProblem, PetscInt, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode RwProblemMovePart_Private(RwModel, PetscInt, Vec, Vec, PetscBool);
PETSC_INTERN PetscErrorCode RwProblemShootingSetUp_Private(RwProblem);
PETSC_INTERN PetscErrorCode RwProblemShootingToMember_Private(RwProblem, PetscInt, Vec);
PETSC_INTERN PetscErrorCode RwProblemShootingGradient_Private(RwProblem, PetscInt, Vec);
PETSC_INTERN PetscErrorCode RwProblemRegularize_Private(RwProblem, Vec, PetscReal *, Vec, Vec);
PETSC_INTERN PetscErrorCode RwProblemCheckRegularizers_Private(RwProblem);
PETSC_INTERN PetscErrorCode RwProblemDescribe_Private(RwProblem, char[], size_t);
PETSC_INTERN PetscErrorCode RwProblemHistorySetUp_Private(RwProblem);
PETSC_INTERN PetscErrorCode RwProblemHistoryMonitor_Private(Tao, void *);
PETSC_INTERN PetscErrorCode RwProblemHistoryDestroy_Private(RwProblem);
PETSC_INTERN PetscErrorCode RwProblemCreateAdjoint_Private(RwProblem, RwModel, RwObjective, RwAdjoint *);

/* journal.c */
PETSC_INTERN PetscErrorCode RwJournalCreate(RwProblem, DM, PetscInt, const char[], RwJournal *);
PETSC_INTERN PetscBool      RwJournalEnabled(RwJournal);
PETSC_INTERN PetscErrorCode RwJournalOpen(RwJournal, const char[]);
PETSC_INTERN PetscErrorCode RwJournalChecksum(RwJournal, Vec, uint64_t *);
PETSC_INTERN PetscErrorCode RwJournalBeginEvaluation(RwJournal, Vec, uint64_t);
PETSC_INTERN PetscErrorCode RwJournalLookup(RwJournal, PetscInt64, PetscBool, PetscReal *, Vec *, PetscBool *);
PETSC_INTERN PetscErrorCode RwJournalRecord(RwJournal, PetscInt64, PetscReal, Vec);
PETSC_INTERN PetscErrorCode RwJournalForget(RwJournal, PetscInt64);
PETSC_INTERN PetscErrorCode RwJournalEndEvaluation(RwJournal);
PETSC_INTERN PetscErrorCode RwJournalComplete(RwJournal);
PETSC_INTERN PetscErrorCode RwJournalDestroy(RwJournal *);

#endif
