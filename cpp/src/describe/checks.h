// The checks Validate() takes from the descriptions (describe/fields.h;
// docs/architecture.md, "One description per job"): each range and enum as
// errors state it, built at compile time; CheckRange for one field and
// CheckFields for every described field of a job, in field order, with the
// error text JS gives for the same value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <numbers>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "fields.h"
#include "ikpd/common.h"

namespace ikpd::describe {

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

// ---------------------------------------------------------------- CheckFields
// The one generic check of a job (docs/architecture.md, "One description per
// job"): every described range (numbers) and enum (its named values), in field
// order, with the error text JS gives for the same value. Rules across fields
// stay hand-written in the job's Validate.

// "a|b|c" as errors state it: "a, b or c".
constexpr void PutEnumText(TextOut& t, std::string_view names) {
  std::size_t bars = 0;
  for (char c : names) bars += c == '|' ? 1 : 0;
  for (char c : names) {
    if (c != '|') {
      t.Put(c);
    } else {
      t.Put(--bars == 0 ? " or " : ", ");
    }
  }
}
constexpr int EnumCount(std::string_view names) {
  int n = 1;
  for (char c : names) n += c == '|' ? 1 : 0;
  return n;
}

// Whether a described field has a check: a number with a Range, an enum with EnumNames.
template <class T, class Extra>
constexpr bool IsChecked() {
  if constexpr (std::is_same_v<Extra, Range>) {
    return (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, std::optional<double>>;
  } else {
    return std::is_same_v<Extra, EnumNames> && std::is_enum_v<T>;
  }
}

// Whether `v` fails the check `e` (a number out of its range, NaN included; an
// enum value outside its names; an optional number only when given).
template <class T, class Extra>
constexpr bool Fails(const T& v, const Extra& e) {
  if constexpr (!IsChecked<T, Extra>()) {
    return false;
  } else if constexpr (std::is_same_v<T, std::optional<double>>) {
    return v.has_value() && !InRange(*v, e);
  } else if constexpr (std::is_enum_v<T>) {
    const int i = static_cast<int>(v);
    return i < e.first || i >= e.first + EnumCount(e.names);
  } else {
    return !InRange(static_cast<double>(v), e);
  }
}

template <class T, class Extra>
constexpr void PutCheckText(TextOut& t, const char* name, const Extra& e) {
  if constexpr (IsChecked<T, Extra>()) {
    t.Put(std::string_view(name));
    t.Put(": must be ");
    if constexpr (std::is_same_v<Extra, Range>) {
      PutRangeText(t, e);
    } else {
      PutEnumText(t, e.names);
    }
  }
}

// Every field's error text, each ended by '\0' (empty for a field without a
// check), in field order: constant data, built at compile time.
template <class Job>
constexpr std::size_t WriteCheckTexts(char* out, std::uint16_t* at) {
  TextOut t{out};
  std::size_t i = 0;
  JobFields<Job>::Visit([&](Role, const char* name, auto member, const auto&... extras) {
    using T = FieldType<Job, decltype(member)>;
    (void)name;  // unread by a field without a check
    if (at != nullptr) at[i] = static_cast<std::uint16_t>(t.n);
    ++i;
    (PutCheckText<T>(t, name, extras), ...);
    t.Put('\0');
  });
  return t.n;
}
template <class Job>
constexpr std::size_t DescribedFieldCount() {
  std::size_t n = 0;
  JobFields<Job>::Visit([&](Role, const char*, auto, const auto&...) { ++n; });
  return n;
}
template <class Job>
struct CheckTexts {
  std::array<char, WriteCheckTexts<Job>(nullptr, nullptr)> text{};
  std::array<std::uint16_t, DescribedFieldCount<Job>()> at{};
};
template <class Job>
constexpr CheckTexts<Job> MakeCheckTexts() {
  CheckTexts<Job> texts;
  WriteCheckTexts<Job>(texts.text.data(), texts.at.data());
  return texts;
}
template <class Job>
inline constexpr CheckTexts<Job> kCheckTexts = MakeCheckTexts<Job>();

// The first failing check of the fields `valueOf(member)` gives (a pointer to
// the field, or null to skip it), in field order.
template <class Job, class ValueOf>
constexpr Status CheckFieldsWith(ValueOf&& valueOf) {
  const char* error = nullptr;
  std::size_t i = 0;
  JobFields<Job>::Visit([&](Role, const char*, auto member, const auto&... extras) {
    using T = FieldType<Job, decltype(member)>;
    const std::size_t index = i++;
    if constexpr ((IsChecked<T, std::remove_cvref_t<decltype(extras)>>() || ...)) {
      if (error != nullptr) return;
      const T* v = valueOf(member);
      if (v != nullptr && (Fails(*v, extras) || ...)) error = kCheckTexts<Job>.text.data() + kCheckTexts<Job>.at[index];
    }
  });
  return error != nullptr ? Error(error) : Ok();
}

// Every described check of `job`: the first error in field order, or Ok.
template <class Job>
constexpr Status CheckFields(const Job& job) {
  return CheckFieldsWith<Job>([&](auto member) { return &Field(job, member); });
}

// The same for the fields of one part of Job, `part` being job.*which (its
// settings, say): a settings struct is checked by its job's description.
template <class Job, class Part>
constexpr Status CheckFields(const Part& part, Part Job::*which) {
  return CheckFieldsWith<Job>([&](auto member) -> const FieldType<Job, decltype(member)>* {
    if constexpr (requires { member.outer; }) {
      if constexpr (std::is_same_v<decltype(member.outer), Part Job::*>) {
        if (member.outer == which) return &Field(part, member.inner);
      }
    }
    return nullptr;
  });
}

}  // namespace ikpd::describe
