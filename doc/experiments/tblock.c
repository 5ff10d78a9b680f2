/*
  An experiment, not part of the library: what fusing T steps of the 2D
  wave forward (order 4) into one pass over the grid would buy on a host.

  One step a pass reads x_k and the fields and writes x_k+1: every step
  goes to memory and back.  T steps fused in a row wavefront compute row j
  of step t right after row j + R of step t - 1, so step t reads its input
  from cache while it is still there; each state is still written whole
  (the driver needs every state: the objective samples it, a schedule may
  keep it).  Memory traffic per step falls from 40 + 16 B (+ write-allocate)
  to 40 / T + 16.

  Two layouts: the library's (each point's (u_k, u_k-1) interleaved, x_k+1
  = (u+, u_k)) and a planar one (u_k-1, u_k in separate arrays, rotated).
  Every fused result is checked to be the bits of T single steps.

    cc -O3 -march=native -ffp-contract=off -o tblock doc/experiments/tblock.c
    ./tblock N reps [pad] [planar]    # pad: points added to each row
    ./tblock 4000 4 & ./tblock 4000 4; wait    # two cores sharing memory

  Prints CPU ns per point per step for T = 1, 2, 4, 8.  Results on the
  project's 2-vCPU host: doc/notes/benchmarks-log.md, "Temporal blocking, measured
  in a prototype".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define R    2 /* order 4 */
#define TMAX 8

static const double w[R + 1] = {-2.5, 4.0 / 3, -1.0 / 12};

static long N, S, D; /* side, row stride in points (N + pad), doubles a point of a state (2 interleaved, 1 planar) */

static double Cpu(void)
{
  struct timespec t;

  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Row j of u+ from u (stride D a point) and u_k-1 (interleaved: beside u;
   planar: um), into y (interleaved: u_k beside u+); the library's expression */
static inline void Row(const double *restrict u, const double *restrict um, const double *restrict ia, const double *restrict c1, const double *restrict c2, double *restrict y, long j)
{
  const long f = j * S;

  for (long i = f + R; i < f + N - R; i++) {
    const double a = u[D * i], b = D == 2 ? u[D * i + 1] : um[i];
    double       L = w[0] * a * 2;

    for (long t = 1; t <= R; t++) L += w[t] * (u[D * (i - t)] + u[D * (i + t)]) + w[t] * (u[D * (i - t * S)] + u[D * (i + t * S)]);
    y[D * i] = ia[i] * (L + c1[i] * (2 * a - b) + c2[i] * a);
    if (D == 2) y[D * i + 1] = a;
  }
}

/* Steps 1..T: step t writes x[t + 1] from x[t] (u_k; interleaved, u_k-1
   beside it; planar, u_k-1 in x[t - 1]), its row j after step t - 1's
   row j + R.  x[0] (planar) and x[1] are the input */
static void Steps(int T, double **x, const double *ia, const double *c1, const double *c2)
{
  for (long j = R; j < N - R + (T - 1) * R; j++)
    for (int t = 1; t <= T; t++) {
      const long jt = j - (t - 1) * R;

      if (jt < R || jt >= N - R) continue;
      Row(x[t], x[t - 1], ia, c1, c2, x[t + 1], jt);
    }
}

int main(int argc, char **argv)
{
  const int  reps   = argc > 2 ? atoi(argv[2]) : 4;
  const int  planar = argc > 4 && atoi(argv[4]);
  double    *ia, *c1, *c2, *x[TMAX + 2], *ref;
  long       n;

  if (argc < 2) return fprintf(stderr, "usage: %s N [reps] [pad] [planar]\n", argv[0]), 1;
  N = atol(argv[1]);
  S = N + (argc > 3 ? atol(argv[3]) : 0);
  D = planar ? 1 : 2;
  n = S * N;
  ia = aligned_alloc(64, n * 8);
  c1 = aligned_alloc(64, n * 8);
  c2 = aligned_alloc(64, n * 8);
  ref = aligned_alloc(64, D * n * 8);
  for (long p = 0; p < n; p++) c1[p] = 0.5, c2[p] = (p % 13) * 1e-4, ia[p] = 1 / (c1[p] + c2[p]);
  for (int t = 0; t < TMAX + 2; t++) x[t] = aligned_alloc(64, D * n * 8);
  printf("N %ld stride %ld %s:", N, S, planar ? "planar" : "interleaved");
  for (int T = 1; T <= TMAX; T *= 2) {
    double best = 1e9;
    int    same = 1;

    for (int t = 0; t < TMAX + 2; t++)
      for (long p = 0; p < D * n; p++) x[t][p] = (p % 7) * 1e-3;
    for (int r = 0; r < reps; r++) {
      const double t0 = Cpu();
      double       t;

      Steps(T, x, ia, c1, c2);
      t = (Cpu() - t0) / T;
      if (t < best) best = t;
    }
    memcpy(ref, x[T + 1], D * n * 8); /* the fused result, then T single steps */
    for (int t = 1; t <= T; t++) Steps(1, x + t - 1, ia, c1, c2);
    for (long j = R; j < N - R; j++)
      for (long i = j * S + R; i < j * S + N - R; i++) same &= ref[D * i] == x[T + 1][D * i];
    printf("  T%d %.2f%s", T, best * 1e9 / (N * N), same ? "" : " (bits differ!)");
  }
  printf(" ns/pt/step\n");
  return 0;
}
