// The vocabulary every job's description is written in (docs/architecture.md,
// "One description per job"). A description, `JobFields<Job>::Visit`, names
// each field of a job or settings struct once: its role, its name as JS spells
// it, the member, and extras (enum names, the valid range of a number,
// presets, an optional number's fallback). The descriptions themselves live in
// their area (cpp/src/ik/fields.h, cpp/src/rig/fields.h, cpp/src/pd/fields.h).
//
// They are read in three places, so an option exists on every side exactly
// when it is described, with one default and one range:
//   - Validate(): CheckFields(job) and CheckRange<Job, "name">(value)
//     (describe/checks.h) check numbers and enums against their description
//     and name them in the error, so the ranges are not written twice; rules
//     that join several fields stay hand-written;
//   - the bindings (cpp/bindings/packed.h) read and write jobs packed as
//     floats by the same description;
//   - the build-time generator (cpp/bindings/describe/) writes the JS side
//     (web/src/<area>/described.js) from it: defaults, ranges with the same
//     error text, enum names, packers and result readers.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "ikpd/common.h"

namespace ikpd::describe {

// kInput: a per-frame input JS requires; kInputOrDefault: a per-frame input that
// keeps its default when not given; kOption: set once, kept by prepared solvers.
// kOutput: a field of a result description (written by the solver, read by JS).
enum class Role : std::uint8_t { kOption = 0, kInput = 1, kInputOrDefault = 2, kOutput = 3 };
constexpr bool IsInput(Role r) { return r == Role::kInput || r == Role::kInputOrDefault; }

// Enum names as JS spells them; the first names value `first`, the next first + 1, ...
struct EnumNames {
  const char* names;  // "auto|positive|negative"
  int first = 0;
};

// A number's valid range. A closed bound includes its value. An infinite bound
// that is open means "finite on that side"; a closed one admits Infinity (a
// limit that may be off). Float fields are checked after rounding to float, as
// C++ sees them.
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

// Whether `v` lies in `r` (NaN never does).
constexpr bool InRange(double v, const Range& r) {
  return (r.minOpen ? v > r.min : v >= r.min) && (r.maxOpen ? v < r.max : v <= r.max);
}

// Names a number may also be given as: "critical=1|responsive=0.707...|over=1.5".
struct Presets {
  const char* names[4];
  double values[4];
};

// The value the library uses when an optional number is not given.
struct Fallback {
  double value;
};

// The field's documentation as TypeScript users read it (the generated
// web/types/<area>/described.d.ts; lines split at '\n'). Its valid range and
// default are added from the description, so the text states neither.
struct Doc {
  const char* text;
};

// A number whose default is derived (from the rig's rest pose, say): NaN in
// C++ means "derive it", JS gives it as null; its range applies to any other
// value.
struct Derived {};

template <class Job>
struct JobFields;

// A record C++ and JS share by memory (an array of them that JS views as
// floats: the rig's frames, results, ground hits and probes, its locals): its
// fields by the name JS uses and the member. The generator writes each field's
// float offset from the struct's own layout, and the record's size, so JS
// writes no offset or stride by hand (web/src/rig/records.js).
template <class Record>
struct RecordFields;

// A field of a member struct (a job's frame or settings, the pseudo
// three-bone job's limb): job.*outer, then `inner` in it (a member pointer, a
// Nested or an Access).
template <class Outer, class Inner, class M>
struct Nested {
  Inner Outer::*outer;
  M inner;
};
template <class Outer, class Inner, class M>
constexpr Nested<Outer, Inner, M> Nest(Inner Outer::*outer, M inner) {
  return {outer, inner};
}

// A field that is no one member (the two-bone's JS pole / poleDirection pair,
// over its settings' pole kind and its frame's pole): an empty type with
// `using Value`, static Get(job) and Set(job, value).
template <class M>
concept Access = requires { typename M::Value; };

// Whether a member descriptor reaches its field through an Access (no reference to it).
template <class M>
constexpr bool kIsAccess = Access<M>;
template <class Outer, class Inner, class M>
constexpr bool kIsAccess<Nested<Outer, Inner, M>> = kIsAccess<M>;

// The field `member` names in `job` (a member pointer or a Nested of them).
template <class J, class T, class C>
constexpr auto& Field(J& job, T C::*member) {
  return job.*member;
}
template <class J, class Outer, class Inner, class M>
constexpr auto& Field(J& job, Nested<Outer, Inner, M> member) {
  return Field(job.*member.outer, member.inner);
}

// The value of field `member` (any of the above) of `job`, and its setter.
template <class J, class T, class C>
constexpr const T& FieldValue(const J& job, T C::*member) {
  return job.*member;
}
template <class J, class Outer, class Inner, class M>
constexpr decltype(auto) FieldValue(const J& job, Nested<Outer, Inner, M> member) {
  return FieldValue(job.*member.outer, member.inner);
}
template <class J, Access A>
constexpr typename A::Value FieldValue(const J& job, A) {
  return A::Get(job);
}
template <class J, class T, class C, class V>
constexpr void SetField(J& job, T C::*member, const V& value) {
  job.*member = value;
}
template <class J, class Outer, class Inner, class M, class V>
constexpr void SetField(J& job, Nested<Outer, Inner, M> member, const V& value) {
  SetField(job.*member.outer, member.inner, value);
}
template <class J, Access A, class V>
constexpr void SetField(J& job, A, const V& value) {
  A::Set(job, value);
}
template <class Job, class Member>
using FieldType = std::remove_cvref_t<decltype(FieldValue(std::declval<const Job&>(), std::declval<Member>()))>;

}  // namespace ikpd::describe
