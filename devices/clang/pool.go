package clang

import (
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// This file defines the worker pool of C threads that run a kernel's chunk
// loop (chunkLoop) beside the calling goroutine. Workers that were
// goroutines each sat in a C call for the whole kernel, and while every
// processor of the Go scheduler (GOMAXPROCS, one per core) is in a C call,
// the runtime's monitor takes one back after 20 us and then polls every
// 20 us for a millisecond before it backs off: about 4% of matmul512's
// CPU, its sleeps and wake-ups, and a processor handed from thread to
// thread at each kernel. With the pool only the calling goroutine is in C,
// a processor stays idle, and the monitor sleeps; the pool's threads watch
// for the next kernel for 200 us after each (POOL_SPIN_NS), then wait on a
// futex (no spinning while nothing runs), and block every signal, so that
// none of the Go runtime's lands on a thread it does not know.

// poolSource is the pool's C. tiny_pool_run runs loop on the calling
// thread and on workers-1 pool threads (started on first need, at most
// poolMax), all taking chunks from the same counter, and returns the
// number of chunks they ran. One kernel uses the pool at a time: a caller
// that finds it busy (another goroutine's kernel) runs the loop alone.
const poolSource = `#include <pthread.h>
#include <signal.h>
#include <limits.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef long (*tiny_loop)(void* const*, long, long, long*, unsigned char*, long, const long*, const int*);

#define POOL_MAX 63
static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;
static int started;    /* pool threads running (written under busy) */
/* The futex word: a job's number times 256 plus the number of threads
   that take it (those with an id below it), written once, after the job,
   so that a thread reads the count of the job it saw and no other. */
static unsigned gen;
static int pending;    /* futex word: threads still on the job */
static int sleepers;   /* pool threads in (or going into) futex_wait on gen */
static long total;     /* chunks the threads ran */
static struct {
  tiny_loop f;
  void* const* bufs;
  long n, chunks;
  long* next;
  unsigned char* parts;
  long pb;
  const long* vars;
  const int* stop;
} job;

static void futex_wait(void* addr, int val) { syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, 0, 0, 0); }
static void futex_wake(void* addr, int n) { syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, 0, 0, 0); }

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* POOL_SPIN_NS is how long a pool thread watches gen after a job before it
   sleeps on the futex: the next kernel of a sequence (a training step's
   150, with Go's scheduling between them) finds it awake, and its caller
   skips the wake-up. Waking an idle thread on this VM cost the waker 17-36
   us in the system call and the sleeper 30-100 us before it ran. A program
   that stops launching kernels has the thread asleep this long after. */
#define POOL_SPIN_NS 200000L

static void* pool_thread(void* arg) {
  long id = (long)arg >> 32;
  unsigned seen = (unsigned)(long)arg;
  for (;;) {
    unsigned g;
    long until = now_ns() + POOL_SPIN_NS;
    for (long k = 0; (g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE)) == seen; k++) {
      if ((k & 63) != 63 || now_ns() < until) {
        __builtin_ia32_pause();
        continue;
      }
      /* Announce the sleep before the last look at gen; the caller
         stores gen before it reads sleepers (both sequentially
         consistent), so one of the two sees the other. */
      __atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n(&gen, __ATOMIC_SEQ_CST) == seen) futex_wait(&gen, (int)seen);
      __atomic_sub_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
    }
    seen = g;
    if (id >= (long)(g & 255)) continue;
    long d = job.f(job.bufs, job.n, job.chunks, job.next, job.parts, job.pb, job.vars, job.stop);
    __atomic_add_fetch(&total, d, __ATOMIC_RELAXED);
    if (__atomic_sub_fetch(&pending, 1, __ATOMIC_ACQ_REL) == 0) futex_wake(&pending, 1);
  }
  return 0;
}

long tiny_pool_run(tiny_loop f, void* const* bufs, long n, long chunks, long* next, unsigned char* parts, long pb, const long* vars, const int* stop, long workers) {
  long helpers = workers - 1;
  if (helpers > POOL_MAX) helpers = POOL_MAX;
  if (helpers <= 0 || pthread_mutex_trylock(&busy) != 0) return f(bufs, n, chunks, next, parts, pb, vars, stop);
  if (started < helpers) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (started < helpers) {
      pthread_t t;
      long arg = ((long)started << 32) | (long)__atomic_load_n(&gen, __ATOMIC_ACQUIRE);
      if (pthread_create(&t, 0, pool_thread, (void*)arg) != 0) break;
      pthread_detach(t);
      started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, 0);
    if (helpers > started) helpers = started;
  }
  long d = 0;
  if (helpers > 0) {
    job.f = f; job.bufs = bufs; job.n = n; job.chunks = chunks; job.next = next;
    job.parts = parts; job.pb = pb; job.vars = vars; job.stop = stop;
    total = 0;
    __atomic_store_n(&pending, (int)helpers, __ATOMIC_RELAXED);
    __atomic_store_n(&gen, ((gen >> 8) + 1) << 8 | (unsigned)helpers, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&sleepers, __ATOMIC_SEQ_CST) > 0) futex_wake(&gen, INT_MAX);
  }
  d = f(bufs, n, chunks, next, parts, pb, vars, stop);
  if (helpers > 0) {
    int p;
    long spins = 0;
    while ((p = __atomic_load_n(&pending, __ATOMIC_ACQUIRE)) != 0) {
      if (++spins < 2048) __builtin_ia32_pause();
      else futex_wait(&pending, p);
    }
    d += __atomic_load_n(&total, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&busy);
  return d;
}

long tiny_pool_threads(void) { return __atomic_load_n(&started, __ATOMIC_RELAXED); }

/* A pair of kernels run chunk by chunk (pairChunks). */
typedef void (*tiny_entry)(void* const*, long, long, unsigned char*, const long*);
struct tiny_pair { tiny_entry first, second; void* const* fbufs; void* const* sbufs; const long* fvars; const long* svars; long ratio; };

long tiny_pair_chunks(void* const* arg, long n, long chunks, long* next, unsigned char* parts, long pb, const long* vars, const int* stop) {
  const struct tiny_pair* p = (const struct tiny_pair*)arg;
  long done = 0;
  while (!__atomic_load_n(stop, __ATOMIC_RELAXED)) {
    long c = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
    if (c >= chunks) break;
    long lo = n*c/chunks, hi = n*(c+1)/chunks;
    p->first(p->fbufs, lo*p->ratio, hi*p->ratio, 0, p->fvars);
    p->second(p->sbufs, lo, hi, 0, p->svars);
    done++;
  }
  return done;
}
`

// poolRun calls tiny_pool_run at run: the chunk loop loop (a C function
// pointer) and its arguments, and the number of workers. It returns the
// number of chunks run.
func poolRun(run, loop uintptr, bufs unsafe.Pointer, n, chunks int64, next, parts unsafe.Pointer, partBytes int64, vars, stop unsafe.Pointer, workers int64) int64 {
	done, _, _ := purego.SyscallN(run, loop, uintptr(bufs), uintptr(n), uintptr(chunks), uintptr(next), uintptr(parts), uintptr(partBytes), uintptr(vars), uintptr(stop), uintptr(workers))
	return int64(done)
}

var pool struct {
	once    sync.Once
	run     uintptr      // tiny_pool_run; 0 when the pool could not be built: workers are goroutines
	pair    uintptr      // tiny_pair_chunks: the chunk loop of a pair of kernels (runner.RunPair)
	threads func() int64 // tiny_pool_threads: how many threads the pool has started
}

// workerPool returns the address of the pool's entry point (poolRun),
// building it (or finding it in the user's cache) on the first call, or 0
// if it cannot be built.
func workerPool() uintptr {
	pool.once.Do(func() {
		tc, err := findCompiler()
		if err != nil {
			return
		}
		dir, err := cacheDir("")
		if err != nil {
			return
		}
		l, _, err := build(tc, dir, poolSource)
		if err != nil {
			return
		}
		fn, err := l.sym("tiny_pool_run")
		if err != nil {
			return
		}
		th, err := l.sym("tiny_pool_threads")
		if err != nil {
			return
		}
		pair, err := l.sym("tiny_pair_chunks")
		if err != nil {
			return
		}
		purego.RegisterFunc(&pool.threads, th)
		pool.run, pool.pair = fn, pair
	})
	return pool.run
}
