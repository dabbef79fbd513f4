// Each job's fields described once: name, kind (deduced from the member's
// type), float offset in the packed layout (deduced from the order), default
// (the job struct's own member initializer), for enums the names JS uses, and
// for numbers the valid range the job's Validate() enforces.
//
// One description per job (JobFields<Job>::Visit) drives
//   - the C++ reader that fills the job from the packed floats (ReadJob),
//   - the defaults, a packed job with every default in place, computed at
//     compile time (kDefaults, Defaults),
//   - the text JS parses at init() to build its packers and validators
//     (describe.h builds it at compile time; web/src/fields.js parses it),
//   - the batches' per-item fields, which name the field they carry
//     (batch.cc, batch_fields.h).
// Results are described the same way, with role kOutput (solvers.h).
// Adding an option to a job means one line in its Visit (plus the kernel and
// the docs); JS, the single-call layout, the batches and the prepared solvers
// follow.
//
// Kinds and their floats: number 1 (a float), double 1, integer 1, enum 1,
// boolean 1 (1 true, 0 false), vec2 2 (value as float), vec3 3,
// quat 4 ([x, y, z, w], three.js order), transform 7 (position, rotation),
// optionalVec3 4 (x, y, z, then 1 when given / 0 when not: the job's
// std::optional stays empty), optionalNumber 2 (value, then 1 / 0 the same
// way). A description packs floats unless its JobFields declare
// `using Storage = double` (the PD options). Input fields (Role) are the per-frame inputs a
// prepared solver reads on every solve; the others are options.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <glm/vec2.hpp>

#include "flat.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd::bindings {

// kInput: a per-frame input JS requires; kInputOrDefault: a per-frame input that
// keeps its default when not given; kOption: set once, kept by prepared solvers.
// kOutput: a field of a result description (written by the solver, read by JS).
enum class Role : std::uint8_t { kOption = 0, kInput = 1, kInputOrDefault = 2, kOutput = 3 };
constexpr bool IsInput(Role r) { return r == Role::kInput || r == Role::kInputOrDefault; }

// Which fields ReadJob reads.
enum class Which : int { kAll, kInputs, kOptions };

// Enum names as JS spells them; the first names value `first`, the next first + 1, ...
struct EnumNames {
  const char* names;  // "auto|positive|negative"
  int first = 0;
};

// A number's valid range, equal to what the job's Validate() enforces (JS
// checks it before packing; tests/js/field-ranges.test.js proves the two
// agree). A closed bound includes its value. An infinite bound that is open
// means "finite on that side"; a closed one admits Infinity (a limit that may
// be off). Float fields are checked after rounding to float, as C++ sees them.
struct Range {
  double min;
  double max;
  bool minOpen = false;
  bool maxOpen = false;
};
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr Range kFinite{-kInfinity, kInfinity, true, true};
constexpr Range Closed(double lo, double hi) { return {lo, hi}; }
constexpr Range AtLeast(double lo) { return {lo, kInfinity, false, true}; }  // finite and >= lo
constexpr Range Above(double lo) { return {lo, kInfinity, true, true}; }     // finite and > lo

// Names a number may also be given as: "critical=1|responsive=0.707...|over=1.5".
struct Presets {
  const char* names[4];
  double values[4];
};

// The value the library uses when an optional number is not given.
struct Fallback {
  double value;
};

template <class Job>
struct JobFields;

// A field of a member struct (the pseudo three-bone job's limb): job.*outer.*inner.
template <class Outer, class Inner, class T>
struct Nested {
  Inner Outer::*outer;
  T Inner::*inner;
};
template <class Outer, class Inner, class T>
constexpr Nested<Outer, Inner, T> Nest(Inner Outer::*outer, T Inner::*inner) {
  return {outer, inner};
}

// The field `member` names in `job` (a member pointer or a Nested).
template <class J, class T, class C>
constexpr auto& Field(J& job, T C::*member) {
  return job.*member;
}
template <class J, class Outer, class Inner, class T>
constexpr auto& Field(J& job, Nested<Outer, Inner, T> member) {
  return (job.*member.outer).*member.inner;
}
template <class Job, class Member>
using FieldType = std::remove_cvref_t<decltype(Field(std::declval<Job&>(), std::declval<Member>()))>;

template <>
struct JobFields<TwoBoneJob> {
  static constexpr const char* kName = "twoBone";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "root", &TwoBoneJob::root);
    f(Role::kInput, "mid", &TwoBoneJob::mid);
    f(Role::kInput, "end", &TwoBoneJob::end);
    f(Role::kInput, "target", &TwoBoneJob::target);
    f(Role::kOption, "pole", &TwoBoneJob::pole);
    f(Role::kOption, "poleDirection", &TwoBoneJob::poleDirection);
    f(Role::kOption, "forward", &TwoBoneJob::forward);
    f(Role::kOption, "bendAxis", &TwoBoneJob::bendAxis);
    f(Role::kOption, "effectorOffset", &TwoBoneJob::effectorOffset);
    f(Role::kOption, "bendDirection", &TwoBoneJob::bendDirection, EnumNames{"auto|positive|negative", 0});
    f(Role::kOption, "straightBend", &TwoBoneJob::straightBend, EnumNames{"positive|negative", 1});
    f(Role::kOption, "minAngle", &TwoBoneJob::minAngle, Closed(0.0, kPi));
    f(Role::kOption, "maxAngle", &TwoBoneJob::maxAngle, Closed(0.0, kPi));
    f(Role::kOption, "weight", &TwoBoneJob::weight, Closed(0.0, 1.0));
    f(Role::kOption, "soften", &TwoBoneJob::soften, Closed(0.0, 1.0));
    f(Role::kOption, "maxStretch", &TwoBoneJob::maxStretch, AtLeast(1.0));
    f(Role::kOption, "twist", &TwoBoneJob::twist, kFinite);
    f(Role::kOption, "endRotation", &TwoBoneJob::endRotation, EnumNames{"world|relative", 0});
    f(Role::kOption, "tolerance", &TwoBoneJob::tolerance, AtLeast(0.0));
  }
};

template <>
struct JobFields<AimJob> {
  static constexpr const char* kName = "aim";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "position", &AimJob::position);
    f(Role::kInputOrDefault, "rotation", &AimJob::rotation);
    f(Role::kInput, "target", &AimJob::target);
    f(Role::kOption, "forward", &AimJob::forward);
    f(Role::kOption, "up", &AimJob::up);
    f(Role::kOption, "pole", &AimJob::pole);
    f(Role::kOption, "hingeAxis", &AimJob::hingeAxis);
    f(Role::kOption, "offset", &AimJob::offset);
    f(Role::kOption, "method", &AimJob::method, EnumNames{"yawPitch|crossProduct|shortestArc", 0});
    f(Role::kOption, "weight", &AimJob::weight, Closed(0.0, 1.0));
  }
};

// The limb's inputs, then the tip (and blend, per frame), then the limb's
// options and the pseudo three-bone options: inputs first, as prepared solvers
// expect. The limb's effectorOffset and endRotation are not fields (the tip
// sets them).
template <>
struct JobFields<PseudoThreeBoneJob> {
  static constexpr const char* kName = "pseudoThreeBone";
  template <class F>
  static constexpr void Visit(F&& f) {
    const auto limb = [&](bool inputs) {
      JobFields<TwoBoneJob>::Visit([&](Role r, const char* name, auto member, auto... names) {
        const std::string_view n = name;
        if (IsInput(r) != inputs || n == "effectorOffset" || n == "endRotation") return;
        f(r, name, Nest(&PseudoThreeBoneJob::limb, member), names...);
      });
    };
    limb(true);
    f(Role::kInput, "tip", &PseudoThreeBoneJob::tip);
    f(Role::kInputOrDefault, "blend", &PseudoThreeBoneJob::blend, Closed(0.0, 1.0));
    limb(false);
    f(Role::kOption, "variant", &PseudoThreeBoneJob::variant, EnumNames{"relative|followMid", 0});
    f(Role::kOption, "endLimit", &PseudoThreeBoneJob::endLimit, Closed(0.0, kPi));
  }
};

// The chain's fixed-size fields; its joints and limits follow the packed job
// (cpp/bindings/chain_job.h).
template <>
struct JobFields<ChainJob> {
  static constexpr const char* kName = "chain";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "target", &ChainJob::target);
    f(Role::kInputOrDefault, "pole", &ChainJob::pole);
    f(Role::kInputOrDefault, "parentRotation", &ChainJob::parentRotation);
    f(Role::kOption, "method", &ChainJob::method, EnumNames{"ccd|fabrik", 0});
    f(Role::kOption, "iterations", &ChainJob::iterations, Closed(0.0, kMaxChainIterations));
    f(Role::kOption, "tolerance", &ChainJob::tolerance, AtLeast(0.0));
    f(Role::kOption, "forward", &ChainJob::forward);
  }
};

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

// Fills the `which` fields of `job` from p[0..JobFloats).
template <class Job>
void ReadJob(const StorageOf<Job>* p, Job& job, Which which = Which::kAll) {
  std::size_t at = 0;
  JobFields<Job>::Visit([&](Role r, const char*, auto member, auto...) {
    using T = FieldType<Job, decltype(member)>;
    if (which == Which::kAll || (which == Which::kInputs) == IsInput(r)) Kind<T>::Read(p + at, Field(job, member));
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
    Kind<T>::Write(p + at, Field(job, member));
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

}  // namespace ikpd::bindings
