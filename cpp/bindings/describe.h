// The descriptions (job_fields.h) as plain records and as the text JS parses,
// both built at compile time: each field becomes a FieldRecord
// (kRecords<Job>), and the records of every described struct become one
// constant text (kDescriptionText). At init() the module only copies that
// text, putting in the address of each job's defaults (kDefaults<Job>, also
// constant data): no formatting code per job or per field is linked.
//
// Text: descriptions ";"-separated, each "name=floats@defaults@bits|field,..."
// (bits: 32 or 64, the storage scalar), a field "name:kind:offset:role[:extra...]",
// role "input", "inputOrDefault", "option" or "output", extras ":first:names"
// of an enum, ":[min max]" of a number ("(" / ")" for open bounds),
// ":~name=value|..." presets and ":=value" an optional number's fallback.
// Numbers are "x" and the 16 hex digits of their IEEE-754 bits (bitsToNumber
// in web/src/fields.js), so no float formatting is linked into the module.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "job_fields.h"

namespace ikpd::bindings {

template <class T>
constexpr bool IsNumber() {
  return (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, std::optional<double>>;
}

// A field as plain data. Presets by address (a Visit passes a named constant
// such as kDampingPresets), flags for the optional parts.
struct FieldRecord {
  enum Flags : std::uint8_t { kHasRange = 1, kMinOpen = 2, kMaxOpen = 4, kHasFallback = 8 };
  const char* name = nullptr;
  const char* kind = nullptr;       // Kind<T>::kName
  const char* enumNames = nullptr;  // "a|b|c" of an enum
  const Presets* presets = nullptr;
  double min = 0.0, max = 0.0;  // the range, when kHasRange
  double fallback = 0.0;        // when kHasFallback
  std::uint16_t offset = 0;     // floats before it in the packed layout
  std::uint8_t floats = 0;      // Kind<T>::kFloats
  Role role = Role::kOption;
  std::int8_t enumFirst = 0;
  std::uint8_t flags = 0;
};

constexpr void Apply(FieldRecord& r, const EnumNames& e) { r.enumNames = e.names, r.enumFirst = static_cast<std::int8_t>(e.first); }
constexpr void Apply(FieldRecord& r, const Range& range) {
  r.min = range.min, r.max = range.max;
  r.flags |= FieldRecord::kHasRange | (range.minOpen ? FieldRecord::kMinOpen : 0) | (range.maxOpen ? FieldRecord::kMaxOpen : 0);
}
constexpr void Apply(FieldRecord& r, const Presets& p) { r.presets = &p; }
constexpr void Apply(FieldRecord& r, const Fallback& f) { r.fallback = f.value, r.flags |= FieldRecord::kHasFallback; }

template <class Job>
constexpr std::size_t FieldCount() {
  std::size_t n = 0;
  JobFields<Job>::Visit([&](Role, const char*, auto, const auto&...) { ++n; });
  return n;
}

template <class Job>
constexpr std::array<FieldRecord, FieldCount<Job>()> MakeRecords() {
  std::array<FieldRecord, FieldCount<Job>()> out{};
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

// Writes text into `out` (or, while it is null, only counts it).
struct TextOut {
  char* out = nullptr;
  std::size_t n = 0;
  constexpr void Put(char c) {
    if (out != nullptr) out[n] = c;
    ++n;
  }
  constexpr void Put(const char* s) {
    while (*s != '\0') Put(*s++);
  }
  constexpr void PutInt(long long v) {
    if (v < 0) Put('-'), v = -v;
    char digits[20] = {};
    int k = 0;
    do digits[k++] = static_cast<char>('0' + v % 10), v /= 10;
    while (v != 0);
    while (k > 0) Put(digits[--k]);
  }
  constexpr void PutNumber(double v) {
    const auto bits = __builtin_bit_cast(std::uint64_t, v);  // std::bit_cast (not in this libc++)
    Put('x');
    for (int shift = 60; shift >= 0; shift -= 4) Put("0123456789abcdef"[(bits >> shift) & 0xF]);
  }
};

// Marks where the address of a job's defaults goes (FillAddresses).
constexpr char kAddressMark = '*';

constexpr const char* RoleName(Role role) {
  return role == Role::kInput ? ":input" : role == Role::kInputOrDefault ? ":inputOrDefault" : role == Role::kOutput ? ":output" : ":option";
}

constexpr void Describe(TextOut& t, const FieldRecord& f) {
  t.Put(f.name);
  t.Put(':');
  t.Put(f.kind);
  t.Put(':');
  t.PutInt(f.offset);
  t.Put(RoleName(f.role));
  if (f.enumNames != nullptr) {
    t.Put(':');
    t.PutInt(f.enumFirst);
    t.Put(':');
    t.Put(f.enumNames);
  }
  if (f.flags & FieldRecord::kHasRange) {
    t.Put(f.flags & FieldRecord::kMinOpen ? ":(" : ":[");
    t.PutNumber(f.min);
    t.Put(' ');
    t.PutNumber(f.max);
    t.Put(f.flags & FieldRecord::kMaxOpen ? ')' : ']');
  }
  if (f.presets != nullptr) {
    t.Put(":~");
    for (int k = 0; k < 4 && f.presets->names[k] != nullptr; ++k) {
      if (k) t.Put('|');
      t.Put(f.presets->names[k]);
      t.Put('=');
      t.PutNumber(f.presets->values[k]);
    }
  }
  if (f.flags & FieldRecord::kHasFallback) {
    t.Put(":=");
    t.PutNumber(f.fallback);
  }
}

template <class Job>
constexpr void Describe(TextOut& t) {
  t.Put(JobFields<Job>::kName);
  t.Put('=');
  t.PutInt(static_cast<long long>(JobFloats<Job>()));
  t.Put('@');
  t.Put(kAddressMark);
  t.Put(sizeof(StorageOf<Job>) == 8 ? "@64|" : "@32|");
  for (std::size_t i = 0; i < kRecords<Job>.size(); ++i) {
    if (i) t.Put(',');
    Describe(t, kRecords<Job>[i]);
  }
}

template <class... Jobs>
constexpr std::size_t DescribeAll(char* out) {
  TextOut t{out};
  std::size_t i = 0;
  ((i++ ? t.Put(';') : void(), Describe<Jobs>(t)), ...);
  return t.n;
}

// The text of every description of Jobs..., NUL-terminated, as constant data.
template <class... Jobs>
constexpr auto MakeDescriptionText() {
  std::array<char, DescribeAll<Jobs...>(nullptr) + 1> text{};
  DescribeAll<Jobs...>(text.data());
  return text;
}
template <class... Jobs>
inline constexpr auto kDescriptionText = MakeDescriptionText<Jobs...>();

// `text` with each kAddressMark replaced by the next of `addresses`, in decimal.
std::string FillAddresses(const char* text, const void* const* addresses);

// Every description of Jobs..., ";"-separated, NUL-terminated (built on the
// first call, then kept). JS reads it straight from WASM memory
// (textAt in web/src/fields.js) instead of through an Embind
// std::string, whose per-byte copy cost milliseconds at init().
template <class... Jobs>
const char* DescribeJobs() {
  static constexpr const void* kAddresses[] = {Defaults<Jobs>()...};
  static const std::string text = FillAddresses(kDescriptionText<Jobs...>.data(), kAddresses);
  return text.c_str();
}

}  // namespace ikpd::bindings
