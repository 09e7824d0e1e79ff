// stream.c measures the machine's memory-bandwidth limit for the add row:
// c = a + b over 16M float32 (128 MiB read, 64 MiB written), the output
// reused, every core given a contiguous slice, timed both with ordinary
// stores and with non-temporal ones. bench/compare builds and runs it in the
// same session as the suite, so "add is within 1.5x of the limit" is checked
// against a figure taken minutes apart, not against a number from another day.
//
//   cc -O2 -march=native -pthread bench/stream.c -o stream && ./stream [runs]
//
// It prints one line per store kind, "stream <kind> <median ms> <min ms>
// <max ms> <GB/s at the median>", then "stream best <GB/s>".
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { N = 1 << 24 };

static float *a, *b, *c;
static int nthreads, nontemporal;

typedef struct { long start, end; } slice;

static void *add(void *arg) {
  slice *s = arg;
  if (nontemporal) {
    // Slices start on a 64-byte boundary (N / nthreads is a multiple of 16
    // for the thread counts used here), so aligned stream stores are safe.
    for (long i = s->start; i < s->end; i += 8) {
      __m256 v = _mm256_add_ps(_mm256_load_ps(a + i), _mm256_load_ps(b + i));
      _mm256_stream_ps(c + i, v);
    }
    _mm_sfence();
  } else {
    for (long i = s->start; i < s->end; i++) c[i] = a[i] + b[i];
  }
  return NULL;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double once(void) {
  pthread_t th[64];
  slice sl[64];
  double t0 = now_ms();
  for (int k = 0; k < nthreads; k++) {
    sl[k].start = (long)N / nthreads * k;
    sl[k].end = k == nthreads - 1 ? N : (long)N / nthreads * (k + 1);
    pthread_create(&th[k], NULL, add, &sl[k]);
  }
  for (int k = 0; k < nthreads; k++) pthread_join(th[k], NULL);
  return now_ms() - t0;
}

static int cmp(const void *x, const void *y) {
  double d = *(const double *)x - *(const double *)y;
  return (d > 0) - (d < 0);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 7;
  if (runs < 1 || runs > 1000) runs = 7;
  nthreads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (nthreads < 1) nthreads = 1;
  if (nthreads > 64) nthreads = 64;
  if (posix_memalign((void **)&a, 64, N * sizeof(float)) ||
      posix_memalign((void **)&b, 64, N * sizeof(float)) ||
      posix_memalign((void **)&c, 64, N * sizeof(float))) {
    fprintf(stderr, "stream: out of memory\n");
    return 1;
  }
  for (long i = 0; i < N; i++) a[i] = (float)(i % 1000) / 1000, b[i] = 1;
  memset(c, 0, N * sizeof(float)); // fault the output in once, as a reused buffer is
  const double bytes = 3.0 * N * sizeof(float);
  double best = 0;
  for (nontemporal = 0; nontemporal <= 1; nontemporal++) {
    double t[1000];
    once(), once(); // warm-up
    for (int r = 0; r < runs; r++) t[r] = once();
    qsort(t, runs, sizeof t[0], cmp);
    double med = t[runs / 2], gbs = bytes / med / 1e6;
    printf("stream %s %.3f %.3f %.3f %.1f\n", nontemporal ? "nontemporal" : "plain", med, t[0],
           t[runs - 1], gbs);
    if (gbs > best) best = gbs;
  }
  printf("stream best %.1f\n", best);
  return c[N / 2] == 0; // keep the stores observable
}
