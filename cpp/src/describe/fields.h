// The vocabulary every job's description is written in (docs/architecture.md,
// "One description per job"). A description, `JobFields<Job>::Visit`, names
// each field of a job or settings struct once: its role, its name as JS spells
// it, the member, and extras (enum names, the valid range of a number,
// presets, an optional number's fallback). The descriptions themselves live in
// their area (cpp/src/ik/fields.h, cpp/src/rig/fields.h, cpp/src/pd/fields.h).
//
// They are read in three places, so an option exists on every side exactly
// when it is described, with one default and one range:
//   - Validate(): CheckRange<Job, "name">(value) checks a number against its
//     described range and names it in the error (RangeText below), so the
//     ranges are not written twice; rules that join several fields stay
//     hand-written;
//   - the bindings (cpp/bindings/packed.h) read and write jobs packed as
//     floats by the same description;
//   - the build-time generator (cpp/bindings/describe/) writes the JS side
//     (web/src/<area>/described.js) from it: defaults, ranges with the same
//     error text, enum names, packers and result readers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <string_view>
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

// ---------------------------------------------------------------- range text
// Not constexpr: reaching it during constant evaluation is a compile error
// that names the mistake; at run time (the generator) it ends the program.
[[noreturn]] inline void DescriptionError(const char* /*why*/) { std::abort(); }

// Writes text into `out` (or, while it is null, only counts it): messages are
// built at compile time, so no formatting code is linked.
struct TextOut {
  char* out = nullptr;
  std::size_t n = 0;
  constexpr void Put(char c) {
    if (out != nullptr) out[n] = c;
    ++n;
  }
  constexpr void Put(std::string_view s) {
    for (char c : s) Put(c);
  }
  constexpr void PutInt(long long v) {
    if (v < 0) Put('-'), v = -v;
    char digits[20] = {};
    int k = 0;
    do digits[k++] = static_cast<char>('0' + v % 10), v /= 10;
    while (v != 0);
    while (k > 0) Put(digits[--k]);
  }
  // A range bound: "pi", "pi/2" or an integer (no other bound is described;
  // one would not compile).
  constexpr void PutBound(double x) {
    constexpr double pi = std::numbers::pi;
    const auto near = [](double a, double b) { return a - b < 1e-5 && b - a < 1e-5; };
    if (near(x, pi)) return Put("pi");
    if (near(x, pi / 2.0)) return Put("pi/2");
    const auto i = static_cast<long long>(x);
    if (static_cast<double>(i) != x) DescriptionError("a described range bound must be an integer, pi or pi/2");
    PutInt(i);
  }
};

// The range as errors state it, on both sides: "in [0, pi]", "a finite number
// >= 1", "finite", ">= 0 (Infinity for no limit)".
constexpr void PutRangeText(TextOut& t, const Range& r) {
  if (r.min == -kInfinity && r.max == kInfinity) return t.Put(r.minOpen && r.maxOpen ? "finite" : "a number");
  if (r.max == kInfinity) {
    if (r.maxOpen) t.Put("a finite number ");
    t.Put(r.minOpen ? "> " : ">= ");
    t.PutBound(r.min);
    if (!r.maxOpen) t.Put(" (Infinity for no limit)");
    return;
  }
  if (r.min == -kInfinity) {
    t.Put(r.maxOpen ? "a finite number < " : "<= ");
    return t.PutBound(r.max);
  }
  t.Put(r.minOpen ? "in (" : "in [");
  t.PutBound(r.min);
  t.Put(", ");
  t.PutBound(r.max);
  t.Put(r.maxOpen ? ')' : ']');
}

// ---------------------------------------------------------------- CheckRange
// A field name as a template argument: CheckRange<TwoBoneJob, "minAngle">.
template <std::size_t N>
struct FieldName {
  char text[N]{};
  consteval FieldName(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
  constexpr std::string_view view() const { return {text, N - 1}; }
};

template <class Extra>
constexpr void TakeRange(const Extra& e, Range* out, bool* found) {
  if constexpr (std::is_same_v<Extra, Range>) *out = e, *found = true;
}

// The described range of field `name` of Job (a compile error when the field
// is not described or has no range).
template <class Job>
consteval Range DescribedRange(std::string_view name) {
  Range range{};
  bool found = false;
  JobFields<Job>::Visit([&](Role, const char* n, auto, const auto&... extras) {
    if (std::string_view(n) == name) (TakeRange(extras, &range, &found), ...);
  });
  if (!found) DescriptionError("CheckRange: the field is not described with a range");
  return range;
}

template <class Job, FieldName Name, FieldName Shown>
constexpr std::size_t WriteRangeError(char* out) {
  TextOut t{out};
  t.Put(Shown.view());
  t.Put(": must be ");
  PutRangeText(t, DescribedRange<Job>(Name.view()));
  return t.n;
}

template <class Job, FieldName Name, FieldName Shown>
constexpr auto MakeRangeError() {
  std::array<char, WriteRangeError<Job, Name, Shown>(nullptr) + 1> text{};
  WriteRangeError<Job, Name, Shown>(text.data());
  return text;
}
// "name: must be <range>", constant data.
template <class Job, FieldName Name, FieldName Shown>
inline constexpr auto kRangeError = MakeRangeError<Job, Name, Shown>();

// Ok when `value` lies in the range described for field Name of Job, else the
// error naming it (or Shown, where one error stands for several fields) with
// that range: "minAngle: must be in [0, pi]". The error text is the one JS
// gives for the same value (web/src/<area>/described.js).
template <class Job, FieldName Name, FieldName Shown = Name>
constexpr Status CheckRange(double value) {
  constexpr Range range = DescribedRange<Job>(Name.view());
  return InRange(value, range) ? Ok() : Error(kRangeError<Job, Name, Shown>.data());
}

// The first error of `checks`, in order, or Ok.
constexpr Status FirstError(std::initializer_list<Status> checks) {
  for (const Status s : checks) {
    if (!s) return s;
  }
  return Ok();
}

}  // namespace ikpd::describe
