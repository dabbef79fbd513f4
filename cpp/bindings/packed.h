// Jobs packed as floats (or doubles) in WASM memory, by their descriptions
// (cpp/src/describe/fields.h; the descriptions are in cpp/src/<area>/fields.h).
// The order of a description gives each field's offset, the member's type its
// kind:
//   number 1 (a float), double 1, integer 1, enum 1, boolean 1 (1 true, 0
//   false), vec2 2, vec3 3, quat 4 ([x, y, z, w], three.js order), transform
//   7 (position, rotation), optionalVec3 4 (x, y, z, then 1 when given / 0
//   when not: the job's std::optional stays empty), optionalNumber 2 (value,
//   then 1 / 0 the same way).
// A description packs floats unless its JobFields declare `using Storage =
// double` (the PD options, the tentacle's settings).
//
// From one description follow ReadJob (fills a job from the packed floats JS
// wrote), WriteJob (packs a result for JS) and the defaults (a packed job with
// every default, computed at compile time). JS packs and reads the same
// layouts with code generated from the same descriptions at build time
// (web/src/<area>/described.js, written by cpp/bindings/describe/).
// No Embind here: the generator includes this header natively.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "../src/describe/checks.h"
#include "../src/describe/fields.h"
#include "ikpd/common.h"

namespace ikpd::bindings {

using namespace ikpd::describe;

inline glm::vec3 ReadVec3(const float* p) { return {p[0], p[1], p[2]}; }
// Quaternions cross the boundary in three.js order [x, y, z, w].
inline glm::quat ReadQuat(const float* p) { return glm::quat(p[3], p[0], p[1], p[2]); }
inline Transform ReadTransform(const float* p) { return {ReadVec3(p), ReadQuat(p + 3)}; }

inline void WriteVec3(float* p, const glm::vec3& v) { p[0] = v.x; p[1] = v.y; p[2] = v.z; }
inline void WriteQuat(float* p, const glm::quat& q) { p[0] = q.x; p[1] = q.y; p[2] = q.z; p[3] = q.w; }
inline void WriteTransform(float* p, const Transform& t) { WriteVec3(p, t.position); WriteQuat(p + 3, t.rotation); }

// n joints packed as 7 floats each (position, rotation [x, y, z, w]).
inline void ReadTransforms(const float* p, Transform* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i, p += 7) out[i] = ReadTransform(p);
}
inline void WriteTransforms(float* p, const Transform* joints, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i, p += 7) WriteTransform(p, joints[i]);
}


// The fields ReadJob fills: every field, the per-frame inputs, or the options.
enum class FieldSet : int { kAll, kInputs, kOptions };

// ---------------------------------------------------------------- kinds
// Each kind reads and writes its slots of a packed job of scalars S (float,
// or double for descriptions whose JobFields declare `using Storage = double`).
template <class T>
struct Kind;
template <>
struct Kind<float> {
  static constexpr const char* kName = "number";
  static constexpr std::size_t kFloats = 1;
  template <class S>
  static void Read(const S* p, float& v) { v = static_cast<float>(p[0]); }
  template <class S>
  static constexpr void Write(S* p, float v) { p[0] = v; }
};
template <>
struct Kind<double> {
  static constexpr const char* kName = "double";
  static constexpr std::size_t kFloats = 1;
  template <class S>
  static void Read(const S* p, double& v) { v = p[0]; }
  template <class S>
  static constexpr void Write(S* p, double v) { p[0] = static_cast<S>(v); }
};
// An integer carried as a float (JS checks it is an integer); values beyond
// ±1e9 (and NaN) read as ±1e9 (the job's own range check rejects them).
template <>
struct Kind<int> {
  static constexpr const char* kName = "integer";
  static constexpr std::size_t kFloats = 1;
  template <class S>
  static void Read(const S* p, int& v) {
    v = p[0] >= S(1e9) ? 1000000000 : p[0] > S(-1e9) ? static_cast<int>(p[0]) : -1000000000;  // NaN: -1e9
  }
  template <class S>
  static constexpr void Write(S* p, int v) { p[0] = static_cast<S>(v); }
};
// An unsigned count carried as a number (JS checks it is an integer in range);
// NaN and negative values read as 0, values beyond 2^32 - 1 as 2^32 - 1.
template <class U>
  requires(std::is_integral_v<U> && std::is_unsigned_v<U> && !std::is_same_v<U, bool>)
struct Kind<U> {
  static constexpr const char* kName = "integer";
  static constexpr std::size_t kFloats = 1;
  template <class S>
  static void Read(const S* p, U& v) {
    v = p[0] >= S(4294967295.0) ? U{0xffffffffu} : p[0] > S(0) ? static_cast<U>(p[0]) : U{0};
  }
  template <class S>
  static constexpr void Write(S* p, U v) { p[0] = static_cast<S>(v); }
};
template <>
struct Kind<bool> {
  static constexpr const char* kName = "boolean";
  static constexpr std::size_t kFloats = 1;
  template <class S>
  static void Read(const S* p, bool& v) { v = p[0] != S(0); }
  template <class S>
  static constexpr void Write(S* p, bool v) { p[0] = v ? S(1) : S(0); }
};
template <>
struct Kind<glm::vec2> {
  static constexpr const char* kName = "vec2";
  static constexpr std::size_t kFloats = 2;
  template <class S>
  static void Read(const S* p, glm::vec2& v) { v = {static_cast<float>(p[0]), static_cast<float>(p[1])}; }
  template <class S>
  static constexpr void Write(S* p, const glm::vec2& v) { p[0] = v.x, p[1] = v.y; }
};
template <>
struct Kind<glm::vec3> {
  static constexpr const char* kName = "vec3";
  static constexpr std::size_t kFloats = 3;
  static void Read(const float* p, glm::vec3& v) { v = ReadVec3(p); }
  static constexpr void Write(float* p, const glm::vec3& v) { p[0] = v.x, p[1] = v.y, p[2] = v.z; }
};
template <>
struct Kind<glm::quat> {
  static constexpr const char* kName = "quat";
  static constexpr std::size_t kFloats = 4;
  static void Read(const float* p, glm::quat& v) { v = ReadQuat(p); }
  static constexpr void Write(float* p, const glm::quat& v) { p[0] = v.x, p[1] = v.y, p[2] = v.z, p[3] = v.w; }
};
template <>
struct Kind<Transform> {
  static constexpr const char* kName = "transform";
  static constexpr std::size_t kFloats = 7;
  static void Read(const float* p, Transform& v) { v = ReadTransform(p); }
  static constexpr void Write(float* p, const Transform& v) {
    Kind<glm::vec3>::Write(p, v.position);
    Kind<glm::quat>::Write(p + 3, v.rotation);
  }
};
template <>
struct Kind<std::optional<glm::vec3>> {
  static constexpr const char* kName = "optionalVec3";
  static constexpr std::size_t kFloats = 4;
  static void Read(const float* p, std::optional<glm::vec3>& v) {
    if (p[3] != 0.0f) v = ReadVec3(p);
    else v.reset();
  }
  static constexpr void Write(float* p, const std::optional<glm::vec3>& v) {
    Kind<glm::vec3>::Write(p, v.value_or(glm::vec3(0.0f)));
    p[3] = v ? 1.0f : 0.0f;
  }
};
// A number that may be not given: value, then 1 when given / 0 when not.
template <>
struct Kind<std::optional<double>> {
  static constexpr const char* kName = "optionalNumber";
  static constexpr std::size_t kFloats = 2;
  template <class S>
  static void Read(const S* p, std::optional<double>& v) {
    if (p[1] != S(0)) v = static_cast<double>(p[0]);
    else v.reset();
  }
  template <class S>
  static constexpr void Write(S* p, const std::optional<double>& v) {
    p[0] = static_cast<S>(v.value_or(0.0));
    p[1] = v ? S(1) : S(0);
  }
};
template <class E>
  requires std::is_enum_v<E>
struct Kind<E> {
  static constexpr const char* kName = "enum";
  static constexpr std::size_t kFloats = 1;
  template <class S>
  static void Read(const S* p, E& v) { v = static_cast<E>(static_cast<int>(p[0])); }
  template <class S>
  static constexpr void Write(S* p, E v) { p[0] = static_cast<S>(static_cast<int>(v)); }
};

// The scalar a job is packed in: float, or JobFields<Job>::Storage.
template <class Job>
struct StorageOfT {
  using Type = float;
};
template <class Job>
  requires requires { typename JobFields<Job>::Storage; }
struct StorageOfT<Job> {
  using Type = typename JobFields<Job>::Storage;
};
template <class Job>
using StorageOf = typename StorageOfT<Job>::Type;

// ---------------------------------------------------------------- layout users
// Floats of a packed job.
template <class Job>
constexpr std::size_t JobFloats() {
  std::size_t n = 0;
  JobFields<Job>::Visit([&](Role, const char*, auto member, auto...) { n += Kind<FieldType<Job, decltype(member)>>::kFloats; });
  return n;
}

// Fills the `which` fields of `job` from p[0..JobFloats). `which` is a
// template argument so that a per-frame read of the inputs compiles to the
// inputs' loads alone (a prepared solver's solve()).
template <FieldSet which = FieldSet::kAll, class Job>
void ReadJob(const StorageOf<Job>* p, Job& job) {
  std::size_t at = 0;
  JobFields<Job>::Visit([&](Role r, const char*, auto member, auto...) {
    using T = FieldType<Job, decltype(member)>;
    if (which == FieldSet::kAll || (which == FieldSet::kInputs) == IsInput(r)) {
      if constexpr (kIsAccess<decltype(member)>) {
        T value{};
        Kind<T>::Read(p + at, value);
        SetField(job, member, value);
      } else {
        Kind<T>::Read(p + at, Field(job, member));
      }
    }
    at += Kind<T>::kFloats;
  });
}

// Packs every field of `job` at p[0..JobFloats) (ReadJob's inverse): the
// results JS reads (single calls, prepared solvers, the chain's summary) and,
// at compile time, the defaults below.
template <class Job>
constexpr void WriteJob(StorageOf<Job>* p, const Job& job) {
  std::size_t at = 0;
  JobFields<Job>::Visit([&](Role, const char*, auto member, const auto&...) {
    using T = FieldType<Job, decltype(member)>;
    Kind<T>::Write(p + at, FieldValue(job, member));
    at += Kind<T>::kFloats;
  });
}

// A packed job holding every default (the job struct's member initializers),
// computed at compile time: constant data in the module, no code.
template <class Job>
constexpr std::array<StorageOf<Job>, JobFloats<Job>()> MakeDefaults() {
  std::array<StorageOf<Job>, JobFloats<Job>()> out{};
  WriteJob(out.data(), Job{});
  return out;
}
template <class Job>
alignas(16) inline constexpr auto kDefaults = MakeDefaults<Job>();
template <class Job>
constexpr const StorageOf<Job>* Defaults() {
  return kDefaults<Job>.data();
}

// ---------------------------------------------------------------- records
template <class T>
constexpr bool IsNumber() {
  return (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, std::optional<double>>;
}

// A field as plain data, with its place in the packed layout: what the batch
// lists check their entries against and what the JS generator writes out.
// Presets by address (a Visit passes a named constant such as
// kDampingPresets), flags for the optional parts.
struct FieldRecord {
  const char* name = nullptr;
  const char* kind = nullptr;       // Kind<T>::kName
  const char* enumNames = nullptr;  // "a|b|c" of an enum
  const Presets* presets = nullptr;
  Range range{};                    // when hasRange
  double fallback = 0.0;            // when hasFallback
  std::uint16_t offset = 0;         // floats before it in the packed layout
  std::uint8_t floats = 0;          // Kind<T>::kFloats
  Role role = Role::kOption;
  std::int8_t enumFirst = 0;
  bool hasRange = false;
  bool hasFallback = false;
  bool derived = false;  // NaN: derived (JS null)
};

constexpr void Apply(FieldRecord& r, const EnumNames& e) { r.enumNames = e.names, r.enumFirst = static_cast<std::int8_t>(e.first); }
constexpr void Apply(FieldRecord& r, const Range& range) { r.range = range, r.hasRange = true; }
constexpr void Apply(FieldRecord& r, const Presets& p) { r.presets = &p; }
constexpr void Apply(FieldRecord& r, const Fallback& f) { r.fallback = f.value, r.hasFallback = true; }
constexpr void Apply(FieldRecord& r, Derived) { r.derived = true; }
constexpr void Apply(FieldRecord&, const Doc&) {}  // read by the generator only (described_types.h)

template <class Job>
constexpr std::array<FieldRecord, DescribedFieldCount<Job>()> MakeRecords() {
  std::array<FieldRecord, DescribedFieldCount<Job>()> out{};
  std::size_t i = 0;
  std::uint32_t at = 0;
  JobFields<Job>::Visit([&](Role role, const char* name, auto member, const auto&... extras) {
    using T = FieldType<Job, decltype(member)>;
    static_assert(!IsNumber<T>() || (std::is_same_v<std::remove_cvref_t<decltype(extras)>, Range> || ...),
                  "a number field needs its Range");
    FieldRecord& r = out[i++];
    r.name = name;
    r.kind = Kind<T>::kName;
    r.offset = static_cast<std::uint16_t>(at);
    r.floats = static_cast<std::uint8_t>(Kind<T>::kFloats);
    r.role = role;
    (Apply(r, extras), ...);
    at += Kind<T>::kFloats;
  });
  return out;
}

// Every field of Job's description as a record, in layout order.
template <class Job>
inline constexpr auto kRecords = MakeRecords<Job>();

// The record named `name`, or null.
template <class Job>
constexpr const FieldRecord* FindField(std::string_view name) {
  for (const FieldRecord& r : kRecords<Job>) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

}  // namespace ikpd::bindings
