package codegen

import "strings"

// This file holds the C prelude RenderC writes before a kernel: includes,
// the streaming store and the float16, exp2, log2 and sin helpers.

// cPrelude returns the includes and the helper functions the kernel uses.
// Each helper sits inside an include guard, so that several kernels' sources
// concatenated into one file (a device compiling a batch) define it once.
func cPrelude(used map[string]bool) string {
	var b strings.Builder
	b.WriteString("#include <stdint.h>\n#include <math.h>\n")
	for _, h := range []struct{ name, code string }{
		{"optattr", cOptimize}, {"fold16", cFold16}, {"vec8", cVec8}, {"vec16", cVec16}, {"half", cHalf}, {"stream", cStream}, {"tr8", cTr8}, {"max", cMax}, {"f2i", cF2I}, {"exp2", cExp2}, {"log2", cLog2}, {"pow", cPow}, {"sin", cSin},
	} {
		if used[h.name] {
			g := "TINY_" + strings.ToUpper(h.name)
			b.WriteString("#ifndef " + g + "\n#define " + g + "\n" + h.code + "#endif\n")
		}
	}
	return b.String()
}

// tiny_tr8 copies an 8 x 8 tile of 4-byte elements transposed: element
// (a, b) of the source, at s[b*ss + a], to d[a*ds + b]. With AVX: the
// source's eight rows as vectors, transposed by unpacks and shuffles within
// 128-bit halves and then across them (tiny_tr8r), and stored as eight
// rows; only bits move (no arithmetic on the floats, NaN payloads kept).
//
// tiny_tr16s copies a 16 x 16 tile the same way for a large output
// (OptStream): each destination row's 16 elements, one whole cache line,
// go out in one non-temporal store (two halves back to back without
// AVX-512), so the line is written without first being read. Streamed
// half-lines, eight rows apart as tiny_tr8 writes them, ran three times
// slower than plain stores (the write-combining buffers flush them
// partly written); whole lines took the suite's 4096x4096 transpose from
// 11.8-14.1 to 7.6-9.0 ms (two threads, a C harness, alternated). Where d
// or the row stride is not a multiple of 64 bytes, and without AVX, it is
// tiny_tr16: four tiny_tr8 blocks with plain stores.
const cTr8 = `#if defined(__AVX__)
#include <immintrin.h>
static inline void tiny_tr8r(const float* s, long ss, __m256* o) {
  __m256 r0 = _mm256_loadu_ps(s), r1 = _mm256_loadu_ps(s + ss), r2 = _mm256_loadu_ps(s + 2*ss), r3 = _mm256_loadu_ps(s + 3*ss);
  __m256 r4 = _mm256_loadu_ps(s + 4*ss), r5 = _mm256_loadu_ps(s + 5*ss), r6 = _mm256_loadu_ps(s + 6*ss), r7 = _mm256_loadu_ps(s + 7*ss);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5), t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee), u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
  __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee), u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);
  o[0] = _mm256_permute2f128_ps(u0, u4, 0x20); o[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  o[2] = _mm256_permute2f128_ps(u2, u6, 0x20); o[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  o[4] = _mm256_permute2f128_ps(u0, u4, 0x31); o[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  o[6] = _mm256_permute2f128_ps(u2, u6, 0x31); o[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}
static inline void tiny_tr8(const void* sv, long ss, void* dv, long ds) {
  float* d = (float*)dv;
  __m256 o[8];
  tiny_tr8r((const float*)sv, ss, o);
  for (int a = 0; a < 8; a++) _mm256_storeu_ps(d + a*ds, o[a]);
}
#else
static inline void tiny_tr8(const void* sv, long ss, void* dv, long ds) {
  const unsigned char* s = (const unsigned char*)sv;
  unsigned char* d = (unsigned char*)dv;
  for (long a = 0; a < 8; a++)
    for (long b = 0; b < 8; b++) __builtin_memcpy(d + 4*(a*ds + b), s + 4*(b*ss + a), 4);
}
#endif
static inline void tiny_tr16(const void* sv, long ss, void* dv, long ds) {
  const unsigned char* s = (const unsigned char*)sv;
  unsigned char* d = (unsigned char*)dv;
  for (long ta = 0; ta < 16; ta += 8) for (long tb = 0; tb < 16; tb += 8) tiny_tr8(s + 4*(ta + tb*ss), ss, d + 4*(ta*ds + tb), ds);
}
#if defined(__AVX__)
static inline void tiny_tr16s(const void* sv, long ss, void* dv, long ds) {
  const float* s = (const float*)sv;
  float* d = (float*)dv;
  if ((((uintptr_t)dv) | (uintptr_t)(ds * 4)) & 63) {
    tiny_tr16(sv, ss, dv, ds);
    return;
  }
  for (long ta = 0; ta < 16; ta += 8) {
    __m256 lo[8], hi[8];
    tiny_tr8r(s + ta, ss, lo);
    tiny_tr8r(s + ta + 8*ss, ss, hi);
    for (int a = 0; a < 8; a++) {
#if defined(__AVX512F__)
      __m512d v = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(lo[a])), _mm256_castps_pd(hi[a]), 1);
      _mm512_stream_ps(d + (ta + a)*ds, _mm512_castpd_ps(v));
#else
      _mm256_stream_ps(d + (ta + a)*ds, lo[a]);
      _mm256_stream_ps(d + (ta + a)*ds + 8, hi[a]);
#endif
    }
  }
}
#else
static inline void tiny_tr16s(const void* sv, long ss, void* dv, long ds) { tiny_tr16(sv, ss, dv, ds); }
#endif
`

// The float32 helpers are branch-free so that the compiler vectorizes the
// loops calling them; each is accurate to about 2 ulp over the whole range.
const (
	cVec8 = `typedef float tiny_v8 __attribute__((vector_size(32)));
static inline tiny_v8 tiny_bc8(float x) { return (tiny_v8){x, x, x, x, x, x, x, x}; }
#if defined(__FMA__) && defined(__x86_64__)
#include <immintrin.h>
static inline tiny_v8 tiny_fma8(tiny_v8 a, tiny_v8 b, tiny_v8 c) { return (tiny_v8)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c); }
#else
static inline tiny_v8 tiny_fma8(tiny_v8 a, tiny_v8 b, tiny_v8 c) { tiny_v8 r; for (int i = 0; i < 8; i++) r[i] = __builtin_fmaf(a[i], b[i], c[i]); return r; }
#endif
`
	// cVec16 is cVec8 for targets with 512-bit vectors (Target.Vector 16):
	// one AVX-512 register a vector; without AVX-512 gcc splits each into
	// two, which is correct but keeps half as many in registers.
	cVec16 = `typedef float tiny_v16 __attribute__((vector_size(64)));
static inline tiny_v16 tiny_bc16(float x) { return (tiny_v16){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}; }
#if defined(__AVX512F__) && defined(__x86_64__)
#include <immintrin.h>
static inline tiny_v16 tiny_fma16(tiny_v16 a, tiny_v16 b, tiny_v16 c) { return (tiny_v16)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c); }
#else
static inline tiny_v16 tiny_fma16(tiny_v16 a, tiny_v16 b, tiny_v16 c) { tiny_v16 r; for (int i = 0; i < 16; i++) r[i] = __builtin_fmaf(a[i], b[i], c[i]); return r; }
#endif
`
	// The conversions use F16C's instructions where the compiler has them:
	// on a CPU with AVX512-FP16, gcc 12 at -O3 dropped the rounding of
	// (_Float16)x when it was read back as a float (an unrolled x.half().float()
	// gave x; TestHalfRoundTrip), which the instructions' builtins leave alone.
	cHalf = `#if defined(__F16C__) && defined(__x86_64__)
#include <immintrin.h>
static inline float tiny_h2f(uint16_t h) { return _cvtsh_ss(h); }
static inline uint16_t tiny_f2h(float x) { return _cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT); }
#elif defined(__FLT16_MAX__)
static inline float tiny_h2f(uint16_t h) { _Float16 f; __builtin_memcpy(&f, &h, 2); return (float)f; }
static inline uint16_t tiny_f2h(float x) { _Float16 f = (_Float16)x; uint16_t h; __builtin_memcpy(&h, &f, 2); return h; }
#else
static inline float tiny_h2f(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, b;
  float f;
  if (e == 0x1f) b = s | 0x7f800000u | m << 13;
  else if (e) b = s | (e + 112) << 23 | m << 13;
  else { f = (float)m * 0x1p-24f; return s ? -f : f; }
  __builtin_memcpy(&f, &b, 4);
  return f;
}
static inline uint16_t tiny_f2h(float x) {
  uint32_t b; __builtin_memcpy(&b, &x, 4);
  uint16_t s = (b >> 16) & 0x8000;
  int32_t e = (int32_t)((b >> 23) & 0xff) - 127 + 15;
  uint32_t m = b & 0x7fffff;
  if (((b >> 23) & 0xff) == 0xff) return s | (m ? 0x7e00 : 0x7c00);
  if (e >= 0x1f) return s | 0x7c00;
  if (e <= 0) {
    if (e < -10) return s;
    uint32_t mm = m | 0x800000, sh = 14 - e, h = mm >> sh, rem = mm & ((1u << sh) - 1), hf = 1u << (sh - 1);
    if (rem > hf || (rem == hf && (h & 1))) h++;
    return s | h;
  }
  uint32_t h = (uint32_t)e << 10 | m >> 13, rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
  return s | h;
}
#endif
/* double -> half in one rounding: the float step rounds to odd, as Float64ToHalf */
static inline uint16_t tiny_d2h(double x) {
  float t = (float)x;
  if ((double)t != x && t - t == 0 && x == x) {
    uint32_t b; __builtin_memcpy(&b, &t, 4);
    if (__builtin_fabs((double)t) > __builtin_fabs(x)) b--;
    b |= 1; __builtin_memcpy(&t, &b, 4);
  }
  return tiny_f2h(t);
}
`
	// tiny_stream copies n elements of esz bytes (an output of any dtype:
	// float32, a bool mask, one_hot's int32s) to dst with non-temporal
	// stores where the compiler has them for AVX-512 or AVX (this machine, a
	// Zen 3, has no AVX-512: before the AVX form the streamed kernels copied
	// their blocks with plain stores): whole 64-byte lines only, the partial lines at
	// either end with plain stores (a line written partly by non-temporal
	// stores goes to memory as a partial write). A pad of 4096x1024, its
	// rows of 1026 floats streamed one by one, on one thread in a C
	// harness: 2.8-3.6 ms in 32-byte pieces with a fence after each row,
	// 2.0-2.5 not streamed, 1.5-1.8 in whole lines with one fence at the
	// end. tiny_sfence orders them before the kernel returns. The source
	// block is read through memcpy and byte pointers, so that any element
	// type may be copied without breaking C's aliasing rules.
	cStream = `#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
typedef float tiny_v16sf __attribute__((vector_size(64)));
typedef float tiny_v16sfu __attribute__((vector_size(64), aligned(1)));
static inline void tiny_stream(void* restrict dv, const void* restrict sv, long n, long esz) {
  unsigned char* dst = (unsigned char*)dv;
  const unsigned char* src = (const unsigned char*)sv;
  long i = 0;
  n *= esz;
  for (; i < n && ((uintptr_t)(dst + i) & 63); i += esz) __builtin_memcpy(dst + i, src + i, esz);
  for (; i + 64 <= n; i += 64) {
    tiny_v16sfu v;
    __builtin_memcpy(&v, src + i, 64);
    __builtin_ia32_movntps512((float*)(dst + i), v);
  }
  for (; i < n; i += esz) __builtin_memcpy(dst + i, src + i, esz);
}
static inline void tiny_sfence(void) { __builtin_ia32_sfence(); }
#elif defined(__AVX__) && defined(__GNUC__) && !defined(__clang__)
typedef float tiny_v8sfu __attribute__((vector_size(32), aligned(1)));
static inline void tiny_stream(void* restrict dv, const void* restrict sv, long n, long esz) {
  unsigned char* dst = (unsigned char*)dv;
  const unsigned char* src = (const unsigned char*)sv;
  long i = 0;
  n *= esz;
  for (; i < n && ((uintptr_t)(dst + i) & 63); i += esz) __builtin_memcpy(dst + i, src + i, esz);
  for (; i + 64 <= n; i += 64) {
    tiny_v8sfu a, b;
    __builtin_memcpy(&a, src + i, 32);
    __builtin_memcpy(&b, src + i + 32, 32);
    __builtin_ia32_movntps256((float*)(dst + i), a);
    __builtin_ia32_movntps256((float*)(dst + i + 32), b);
  }
  for (; i < n; i += esz) __builtin_memcpy(dst + i, src + i, esz);
}
static inline void tiny_sfence(void) { __builtin_ia32_sfence(); }
#else
static inline void tiny_stream(void* restrict dv, const void* restrict sv, long n, long esz) {
  __builtin_memcpy(dv, sv, n * esz);
}
static inline void tiny_sfence(void) {}
#endif
`
	// cFold16 folds the 16 lanes of a float32 or int32 accumulator in the
	// order of the fold's uops, a pairwise tree of neighbours
	// ((a0+a1)+(a2+a3))+..., each step with the same left operand: four
	// steps of the vector and its lanes swapped by 1, 2, 4 and 8, lane 0
	// holding the result (cRenderer.planFolds). A MAX keeps the right
	// operand where it is greater or NaN, as maxExpr does.
	cFold16 = `typedef float tiny_f16v __attribute__((vector_size(64)));
typedef int32_t tiny_i16v __attribute__((vector_size(64)));
#if defined(__clang__)
#define TINY_SWAP16(v, ...) __builtin_shufflevector(v, v, __VA_ARGS__)
#else
#define TINY_SWAP16(v, ...) __builtin_shuffle(v, (tiny_i16v){__VA_ARGS__})
#endif
#define TINY_FOLD16(V, a, STEP) \
  V v; \
  __builtin_memcpy(&v, a, sizeof v); \
  V w = TINY_SWAP16(v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14); STEP; \
  w = TINY_SWAP16(v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13); STEP; \
  w = TINY_SWAP16(v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11); STEP; \
  w = TINY_SWAP16(v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7); STEP; \
  return v[0];
static inline float tiny_fold16_add_f32(const float* a) { TINY_FOLD16(tiny_f16v, a, v = v + w) }
static inline float tiny_fold16_max_f32(const float* a) {
  TINY_FOLD16(tiny_f16v, a, { tiny_i16v m = (v < w) | (w != w); v = (tiny_f16v)(((tiny_i16v)w & m) | ((tiny_i16v)v & ~m)); })
}
static inline int32_t tiny_fold16_max_i32(const int32_t* a) {
  TINY_FOLD16(tiny_i16v, a, { tiny_i16v m = v < w; v = (w & m) | (v & ~m); })
}
`
	// cOptimize is the attribute giving a kernel's functions gcc options of
	// their own (cRenderer.optimizeAttr); other compilers get none.
	cOptimize = `#if defined(__GNUC__) && !defined(__clang__)
#define TINY_OPTIMIZE(...) __attribute__((optimize(__VA_ARGS__)))
#else
#define TINY_OPTIMIZE(...)
#endif
`
	// cF2I converts floats to integers as codegen.FloatToInt does:
	// explicitly, since C leaves a value the integer cannot hold undefined
	// (and gcc may fold such a constant conversion to anything). The range
	// test is a mask on the bits, not a condition: a conditional form left
	// loops unvectorized where gcc's PRE duplicated the conversion into the
	// arms (floor, whose truncation is such a cast: 4096x1024 took 8.6 ms
	// instead of 1.2). Out of range the float is zeroed before converting,
	// and the mask then selects the integer's smallest value.
	cF2I = `static inline int32_t tiny_f2i32f(float x) {
  int32_t ok = -(int32_t)((x >= -2147483648.0f) & (x < 2147483648.0f));
  uint32_t b; __builtin_memcpy(&b, &x, 4); b &= (uint32_t)ok; __builtin_memcpy(&x, &b, 4);
  return ((int32_t)x & ok) | (INT32_MIN & ~ok);
}
static inline int32_t tiny_f2i32(double x) {
  int64_t ok = -(int64_t)((x > -2147483649.0) & (x < 2147483648.0));
  uint64_t b; __builtin_memcpy(&b, &x, 8); b &= (uint64_t)ok; __builtin_memcpy(&x, &b, 8);
  return ((int32_t)x & (int32_t)ok) | (INT32_MIN & ~(int32_t)ok);
}
static inline int64_t tiny_f2i64(double x) {
  int64_t ok = -(int64_t)((x >= -9223372036854775808.0) & (x < 9223372036854775808.0));
  uint64_t b; __builtin_memcpy(&b, &x, 8); b &= (uint64_t)ok; __builtin_memcpy(&x, &b, 8);
  return ((int64_t)x & ok) | (INT64_MIN & ~ok);
}
static inline uint64_t tiny_f2u64(double x) {
  int64_t hi = -(int64_t)((x >= 9223372036854775808.0) & (x < 18446744073709551616.0));
  double c = x; uint64_t b; __builtin_memcpy(&b, &c, 8); b &= (uint64_t)hi; __builtin_memcpy(&c, &b, 8);
  return ((uint64_t)c & (uint64_t)hi) | ((uint64_t)tiny_f2i64(x) & ~(uint64_t)hi);
}
`
	// tiny_maxf and tiny_max render a float MAX inside an innermost loop
	// (scalarMax says why the form matters): maxExpr's function, its NaN
	// test a select on the bits, so that gcc vectorizes the loop whatever
	// else is in it and compiles what it leaves scalar (a remainder) to a
	// maxss and masks, without branches. With maxExpr's condition gcc kept
	// a blocked cummax's loops vectorized but branched on random data in
	// their remainders; with scalarMax's it left those loops scalar. One
	// thread, a 4096 x 1024 cummax's largest pass: 0.78 ms with maxExpr,
	// 1.6 with scalarMax, 0.48 with these.
	cMax = `static inline float tiny_maxf(float a, float b) {
  float m = b > a ? b : a;
  uint32_t mb, bb, k = -(uint32_t)(b != b);
  __builtin_memcpy(&mb, &m, 4); __builtin_memcpy(&bb, &b, 4);
  mb = (bb & k) | (mb & ~k);
  __builtin_memcpy(&m, &mb, 4);
  return m;
}
static inline double tiny_max(double a, double b) {
  double m = b > a ? b : a;
  uint64_t mb, bb, k = -(uint64_t)(b != b);
  __builtin_memcpy(&mb, &m, 8); __builtin_memcpy(&bb, &b, 8);
  mb = (bb & k) | (mb & ~k);
  __builtin_memcpy(&m, &mb, 8);
  return m;
}
`
	// exp2: x = n + f with |f| <= 1/2; 2**f by its Taylor series to f**7
	// (error below 1e-8); 2**n applied in two halves so that results in the
	// subnormal range are rounded once and large n overflows to inf.
	// tiny_exp2fs is a folded EXP2's 2**(x*s) with the product unrounded: s
	// comes in two floats (hi, lo: a constant such as log2(e) beyond float's
	// precision, lo 0 for a computed s), and f takes what rounding x*hi left
	// (an fma) and x*lo. Rounding x*s to float first, as a separate MUL
	// does, errs by up to half an ulp of a product near 128: 2**-18, which
	// is 60 ulp of the result. Where x*hi is out of range or NaN the
	// correction is dropped (the clamp decides, or NaN passes).
	cExp2 = `static inline float tiny_exp2_nf(float n, float f) {
  float p = __builtin_fmaf(f, 1.52527338040598403e-05f, 0.000154035303933816099f);
  p = __builtin_fmaf(f, p, 0.00133335581464284434f);
  p = __builtin_fmaf(f, p, 0.00961812910762847716f);
  p = __builtin_fmaf(f, p, 0.0555041086648215800f);
  p = __builtin_fmaf(f, p, 0.240226506959100712f);
  p = __builtin_fmaf(f, p, 0.693147180559945309f);
  p = __builtin_fmaf(f, p, 1.0f);
  int32_t ni = (int32_t)n, n1 = ni >> 1, n2 = ni - n1;
  uint32_t b1 = (uint32_t)(n1 + 127) << 23, b2 = (uint32_t)(n2 + 127) << 23;
  float s1, s2;
  __builtin_memcpy(&s1, &b1, 4);
  __builtin_memcpy(&s2, &b2, 4);
  return p * s1 * s2;
}
static inline float tiny_exp2f(float x) {
  float xc = x < -160.0f ? -160.0f : x > 160.0f ? 160.0f : x;
  float n = __builtin_rintf(xc);
  return tiny_exp2_nf(n, xc - n);
}
static inline float tiny_exp2_yd(float y, float d) {
  uint32_t db, keep = 0u - (uint32_t)(__builtin_fabsf(y) <= 160.0f);
  __builtin_memcpy(&db, &d, 4);
  db &= keep;
  __builtin_memcpy(&d, &db, 4);
  float yc = y < -160.0f ? -160.0f : y > 160.0f ? 160.0f : y;
  float n = __builtin_rintf(yc);
  return tiny_exp2_nf(n, (yc - n) + d);
}
static inline float tiny_exp2fs(float x, float hi, float lo) {
  float y = x * hi;
  return tiny_exp2_yd(y, __builtin_fmaf(x, hi, -y) + x * lo);
}
`
	// log2: x = 2**k * m with m in [sqrt(1/2), sqrt(2)); with s = (m-1)/(m+1),
	// log2(m) = 2/ln2 * atanh(s) = C*s + s**3*P(s**2), the odd series to s**11
	// (|s| < 0.172: its error is below 1e-9). All in float, with the leading
	// term kept in two floats so that the result is rounded about once: m+1
	// is split into its rounded value d and the rounding's remainder, s's
	// remainder comes from an fma (f - s*d exactly), C is split in two, and
	// k + C*s is added with its rounding error carried. Over every positive
	// float the result is within 0.58 ulp of the exact log2 (a double series
	// here measured 0.5-0.6 too, and its conversions and double division
	// made log 20% slower on one thread with AVX-512).
	// Subnormal scaling and the special cases are bit-mask selects for the
	// same reason as in sin below: a ?: lets gcc put float work under a branch
	// it will not if-convert, and the loop stays scalar on AVX2.
	cLog2 = `static inline float tiny_log2_hl(float x, float* lo) {
  int sub = x < 0x1p-126f;
  float xs = x * 0x1p23f;
  uint32_t b, bs, ms = 0u - (uint32_t)sub;
  __builtin_memcpy(&b, &x, 4);
  __builtin_memcpy(&bs, &xs, 4);
  b = (bs & ms) | (b & ~ms);
  uint32_t ix = b - 0x3f3504f3u;
  int32_t k = (int32_t)ix >> 23;
  ix = (ix & 0x7fffffu) + 0x3f3504f3u;
  float m;
  __builtin_memcpy(&m, &ix, 4);
  float f = m - 1.0f, d = m + 1.0f, dl = m - (d - 1.0f);
  float r = 1.0f / d, s = f * r;
  float sl = (__builtin_fmaf(-s, d, f) - s * dl) * r;
  float s2 = s * s;
  float q = __builtin_fmaf(s2, 0.262308189252538800f, 0.320598897975325200f);
  q = __builtin_fmaf(s2, q, 0.412198583111132400f);
  q = __builtin_fmaf(s2, q, 0.577078016355585300f);
  q = __builtin_fmaf(s2, q, 0.961796693925975560f);
  float tail = s * s2 * q;
  const float chi = 2.8853900432586669922f, clo = 3.85192597818218e-08f;
  float th = chi * s;
  float tl = __builtin_fmaf(chi, s, -th) + (clo * s + chi * sl);
  float kf = (float)(k - (sub ? 23 : 0));
  float hi = kf + th;
  *lo = ((kf - hi) + th) + (tl + tail);
  return hi;
}
static inline float tiny_log2_special(float x, float res) {
  uint32_t rb, xb;
  __builtin_memcpy(&rb, &res, 4);
  __builtin_memcpy(&xb, &x, 4);
  uint32_t mz = 0u - (uint32_t)(x == 0.0f), mn = 0u - (uint32_t)(x < 0.0f);
  uint32_t mx = 0u - (uint32_t)((x == __builtin_inff()) | (x != x));
  rb = (rb & ~mz) | (0xff800000u & mz);
  rb = (rb & ~mn) | (0x7fc00000u & mn);
  rb = (rb & ~mx) | (xb & mx);
  __builtin_memcpy(&res, &rb, 4);
  return res;
}
static inline float tiny_log2f(float x) {
  float lo, hi = tiny_log2_hl(x, &lo);
  return tiny_log2_special(x, hi + lo);
}
`
	// pow (a folded EXP2 of a LOG2, OptPow): 2**(s*log2 x) with the
	// logarithm unrounded: its two parts (tiny_log2_hl, about 1e-9 apart
	// from the exact value) scaled by s = hi + lo, the product's rounding
	// error and the low parts carried into exp2's reduced argument. The
	// special values are the LOG2's, and where they make y infinite or NaN
	// the low parts are dropped as exp2fs drops them. Rounding the
	// logarithm first, as LOG2 then EXP2 does, errs by half an ulp of a
	// logarithm up to 128 times s, 2**-18 for x ** 1.3 near the float
	// range's ends: 56 ulp of the result where torch's pow is within one.
	cPow = `static inline float tiny_exp2l2f(float x, float hi, float lo) {
  float ll, lh = tiny_log2_hl(x, &ll);
  lh = tiny_log2_special(x, lh);
  float y = lh * hi;
  return tiny_exp2_yd(y, __builtin_fmaf(lh, hi, -y) + (lh * lo + ll * hi));
}
`
	// sin: q = round(x * 2/pi) and r = x - q*pi/2 with pi/2 in three parts
	// (the first product exact through fma), then the Taylor series of sin or
	// cos to degree 9 or 10 by quadrant. The reduction in float holds to
	// |x| <= 2**10 (tiny_sin_mid flags larger arguments), in double to
	// |x| < 2**50 (tiny_sin_big); tiny_sinf calls libm beyond.
	// The quadrant and tiny-argument choices are bit masks, not ?: on floats:
	// gcc sinks the unchosen polynomial into a branch and, since float
	// operations may trap, will not turn it back into a select, so a ?: here
	// keeps the whole loop scalar on AVX2 (AVX-512 masking hid this).
	cSin = `static inline float tiny_sin_poly(float x, float r, int64_t qi) {
  float r2 = r * r;
  float sp = __builtin_fmaf(r2, 1.0f/362880, -1.0f/5040);
  sp = __builtin_fmaf(r2, sp, 1.0f/120);
  sp = __builtin_fmaf(r2, sp, -1.0f/6);
  float s = __builtin_fmaf(r*r2, sp, r);
  float c = __builtin_fmaf(r2, -1.0f/3628800, 1.0f/40320);
  c = __builtin_fmaf(r2, c, -1.0f/720);
  c = __builtin_fmaf(r2, c, 1.0f/24);
  c = __builtin_fmaf(r2, c, -0.5f);
  c = __builtin_fmaf(r2, c, 1.0f);
  uint32_t sb, cb, xb, q = (uint32_t)qi;
  __builtin_memcpy(&sb, &s, 4);
  __builtin_memcpy(&cb, &c, 4);
  __builtin_memcpy(&xb, &x, 4);
  uint32_t odd = 0u - (q & 1u), tiny = 0u - (uint32_t)(__builtin_fabsf(x) < 0x1p-12f);
  uint32_t vb = ((cb & odd) | (sb & ~odd)) ^ ((q & 2u) << 30);
  vb = (xb & tiny) | (vb & ~tiny);
  float v;
  __builtin_memcpy(&v, &vb, 4);
  return v;
}
static inline float tiny_sinf_small(float x) {
  float q = __builtin_rintf(x * 0x1.45f306p-1f);
  float r = __builtin_fmaf(-q, 0x1.921fb6p+0f, x);
  r = __builtin_fmaf(-q, -0x1.777a5cp-25f, r);
  r = __builtin_fmaf(-q, -0x1.ee59dap-50f, r);
  return tiny_sin_poly(x, r, (int64_t)(int32_t)q);
}
static inline float tiny_sinf_fast(float x) {
  double xd = x, q = __builtin_rint(xd * 0x1.45f306dc9c883p-1);
  double rd = __builtin_fma(-q, 0x1.921fb54442d18p+0, xd);
  rd = __builtin_fma(-q, 0x1.1a62633145c07p-54, rd);
  rd = __builtin_fma(-q, -0x1.f1976b7ed8fbcp-110, rd);
  return tiny_sin_poly(x, (float)rd, (int64_t)q);
}
static inline int tiny_sin_mid(float x) { float a = __builtin_fabsf(x); return (a > 0x1p10f) & (a < __builtin_inff()); }
static inline int tiny_sin_big(float x) { float a = __builtin_fabsf(x); return (a > 0x1p50f) & (a < __builtin_inff()); }
static inline float tiny_sinf(float x) { return tiny_sin_big(x) ? (float)sin((double)x) : tiny_sinf_fast(x); }
`
)
