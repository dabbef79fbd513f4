// Text helpers of ikpd_describe (cpp/bindings/describe/): numbers, names and
// ranges as the generated JS and TypeScript spell them.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "../packed.h"

namespace ikpd::bindings {

// The shortest decimal that reads back as `v` (JS number syntax).
inline std::string Number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0.0) return std::signbit(v) ? "-0" : "0";
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  std::string s = text;
  // "1e+20" → "1e20", as JS writes it.
  if (const auto e = s.find("e+"); e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

inline std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

// o.name, or o['a.b'] for names that are not identifiers.
inline std::string Member(const char* object, std::string_view name) {
  return name.find('.') == std::string_view::npos ? std::string(object) + "." + std::string(name)
                                                  : std::string(object) + "[" + Quote(name) + "]";
}

inline std::string RoleName(Role r) {
  return r == Role::kInput ? "input" : r == Role::kInputOrDefault ? "inputOrDefault" : r == Role::kOutput ? "output" : "option";
}

inline std::string RangeText(const Range& r) {
  TextOut count;
  PutRangeText(count, r);
  std::string text(count.n, '\0');
  TextOut out{text.data()};
  PutRangeText(out, r);
  return text;
}

// "a|b|c" → its names.
inline std::vector<std::string_view> Names(std::string_view names) {
  std::vector<std::string_view> out;
  while (!names.empty()) {
    const auto bar = names.find('|');
    out.push_back(names.substr(0, bar));
    names = bar == std::string_view::npos ? std::string_view() : names.substr(bar + 1);
  }
  return out;
}

inline std::string EnumList(const char* names) {
  std::string out;
  for (std::string_view name : Names(names)) out += (out.empty() ? "" : ", ") + Quote(name);
  return "[" + out + "]";
}

// A camelCase identifier from a description name: "twoBone.result" → "twoBoneResult".
inline std::string Identifier(std::string_view name) {
  std::string out;
  bool upper = false;
  for (char c : name) {
    if (c == '.') upper = true;
    else out += upper ? static_cast<char>(c - 'a' + 'A') : c, upper = false;
  }
  return out;
}
inline std::string Capitalized(std::string s) {
  s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace ikpd::bindings
