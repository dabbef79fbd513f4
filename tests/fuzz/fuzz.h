// Shared helpers for the libFuzzer harnesses in tests/fuzz/ (built with
// IKPD_FUZZ=ON, run by .ci/fuzz.sh). Each harness decodes the fuzzer's bytes
// into a job, runs it and checks the library's guarantees:
//  - finite input gives finite output or an error Status naming a parameter;
//  - on error the outputs are left untouched;
//  - solver invariants (bone lengths, limits) hold;
// and ASan/UBSan catch memory errors and undefined behaviour on the way.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "ikpd/ikpd.h"

// Reports a broken guarantee; libFuzzer saves the input as a crash artifact.
#define FUZZ_CHECK(cond, ...)                                                   \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::fprintf(stderr, "FUZZ CHECK failed at %s:%d: %s\n  ", __FILE__,      \
                   __LINE__, #cond);                                            \
      std::fprintf(stderr, __VA_ARGS__);                                        \
      std::fprintf(stderr, "\n");                                               \
      std::abort();                                                             \
    }                                                                           \
  } while (0)

// Replaying a crash with IKPD_FUZZ_TRACE=1 set prints what the harness did.
#define FUZZ_TRACE(...)                                                         \
  do {                                                                          \
    static const bool trace_enabled = std::getenv("IKPD_FUZZ_TRACE") != nullptr; \
    if (trace_enabled) std::fprintf(stderr, __VA_ARGS__);                       \
  } while (0)

namespace ikpd::fuzz {

// Decodes floats that stress solvers: ordinary values, exact zeros and small
// integers (axis-aligned, collinear and coincident cases), repeats of earlier
// values, tiny and huge magnitudes and arbitrary bit patterns. Float() is
// always finite; MaybeNonFinite() sometimes gives NaN or ±Inf.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data, size) {}

  float Float() {
    float v = 0.0f;
    switch (p_.ConsumeIntegralInRange<int>(0, 9)) {
      case 0: v = p_.ConsumeFloatingPointInRange<float>(-2.0f, 2.0f); break;
      case 1: v = static_cast<float>(p_.ConsumeIntegralInRange<int>(-4, 4)); break;
      case 2: v = history_[p_.ConsumeIntegralInRange<unsigned>(0, kHistory - 1)]; break;
      case 3: v = -history_[p_.ConsumeIntegralInRange<unsigned>(0, kHistory - 1)]; break;
      case 4: v = p_.ConsumeFloatingPointInRange<float>(-100.0f, 100.0f); break;
      case 5: v = 0.0f; break;
      case 6: v = p_.ConsumeFloatingPointInRange<float>(-1e-6f, 1e-6f); break;
      case 7: v = p_.ConsumeFloatingPointInRange<float>(-1e6f, 1e6f); break;
      case 8: {  // arbitrary bits: denormals, huge values up to FLT_MAX
        const std::uint32_t bits = p_.ConsumeIntegral<std::uint32_t>();
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) v = std::numeric_limits<float>::max();
        break;
      }
      default: v = p_.ConsumeFloatingPointInRange<float>(-10.0f, 10.0f); break;
    }
    history_[next_++ % kHistory] = v;
    return v;
  }

  // A finite value, or (rarely) NaN/±Inf when the fuzzer asks for it.
  float MaybeNonFinite() {
    if (p_.ConsumeIntegralInRange<int>(0, 63) == 0) {
      switch (p_.ConsumeIntegralInRange<int>(0, 2)) {
        case 0: return std::numeric_limits<float>::quiet_NaN();
        case 1: return std::numeric_limits<float>::infinity();
        default: return -std::numeric_limits<float>::infinity();
      }
    }
    return Float();
  }

  // A finite value in [lo, hi], sometimes exactly an end point (lo when the range is empty).
  float Range(float lo, float hi) {
    if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) return std::isfinite(lo) ? lo : 0.0f;
    switch (p_.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: return lo;
      case 1: return hi;
      default: return p_.ConsumeFloatingPointInRange<float>(lo, hi);
    }
  }

  int Int(int lo, int hi) { return p_.ConsumeIntegralInRange<int>(lo, hi); }
  bool Bool() { return p_.ConsumeBool(); }

  glm::vec3 Vec3() { return {Float(), Float(), Float()}; }
  glm::vec3 MaybeNonFiniteVec3() { return {MaybeNonFinite(), MaybeNonFinite(), MaybeNonFinite()}; }
  // Unit axes or arbitrary vectors (possibly zero) for axis parameters.
  glm::vec3 Axis() {
    static constexpr glm::vec3 kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                           {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    if (Bool()) return kAxes[Int(0, 5)];
    return Vec3();
  }
  // Identity, unit or arbitrary (non-unit, possibly zero) quaternions.
  glm::quat Quat() {
    switch (Int(0, 3)) {
      case 0: return {1.0f, 0.0f, 0.0f, 0.0f};
      case 1: {
        const glm::vec3 axis = Vec3();
        const float len = glm::length(axis);
        if (!(len > 1e-6f) || !std::isfinite(len)) return {1.0f, 0.0f, 0.0f, 0.0f};
        return glm::angleAxis(Range(-4.0f, 4.0f), axis / len);
      }
      default: return {Float(), Float(), Float(), Float()};
    }
  }
  Transform Joint() { return {Vec3(), Quat()}; }

  std::size_t remaining() { return p_.remaining_bytes(); }

 private:
  static constexpr unsigned kHistory = 8;
  FuzzedDataProvider p_;
  float history_[kHistory] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e-3f, 10.0f, 1e-7f};
  unsigned next_ = 0;
};

// True when every float is finite.
template <class... T>
bool Finite(const T&... values) {
  return (IsFinite(values) && ...);
}

// A unit quaternion within float tolerance.
inline bool IsUnit(const glm::quat& q, float tolerance = 1e-5f) {
  return std::fabs(glm::length(q) - 1.0f) <= tolerance;
}

// Status errors must start with a camelCase parameter name and ": ".
inline bool NamesParameter(const Status& s) {
  if (s.ok()) return true;
  const char* colon = std::strstr(s.error, ": ");
  if (colon == nullptr || colon == s.error) return false;
  for (const char* c = s.error; c < colon; ++c) {
    if (!std::isalnum(static_cast<unsigned char>(*c)) && *c != '.' && *c != '[' && *c != ']' && *c != '_') {
      return false;
    }
  }
  return std::islower(static_cast<unsigned char>(s.error[0])) != 0;
}

// Validates and runs `job`. Run() validates first, so a validation error must
// come back from it unchanged (it may also fail later, e.g. when a result
// would overflow float). On error the message must name a parameter and
// `untouched()` must confirm that no output was written. True when Run()
// succeeded.
template <class Job, class Untouched>
bool RunChecked(const Job& job, Untouched&& untouched) {
  const Status validated = job.Validate();
  const Status status = job.Run();
  FUZZ_CHECK(validated.ok() || (!status.ok() && std::strcmp(status.error, validated.error) == 0),
             "Validate() failed (%s) but Run() did not fail the same way", validated.error);
  if (status.ok()) return true;
  FUZZ_CHECK(NamesParameter(status), "error does not start with a parameter name: %s", status.error);
  FUZZ_CHECK(untouched(), "output written on error: %s", status.error);
  return false;
}

// |v| <= limit in every component (inputs where geometric checks are meaningful in float).
inline bool Moderate(float v, float limit = 1e3f) { return std::fabs(v) <= limit; }
inline bool Moderate(const glm::vec3& v, float limit = 1e3f) {
  return Moderate(v.x, limit) && Moderate(v.y, limit) && Moderate(v.z, limit);
}

// Both bytes-identical: on error a job must leave its outputs untouched.
template <class T>
bool SameBytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace ikpd::fuzz
