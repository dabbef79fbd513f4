// ikpd_describe's TypeScript side: web/types/<area>/described.d.ts, one
// interface per description (docs/architecture.md, "One description per
// job"). Each field is typed from its kind, documented with its Doc text, its
// valid range and its `@default` (the packed default C++ writes; none for a
// required input or an optional vector not given; null for a derived
// number), and an
// enum is the union of its names. The hand-written typings compose these
// interfaces (extends, Pick, Omit), so no option's type, doc or default is
// written twice.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../packed.h"
#include "text.h"

namespace ikpd::bindings {

template <class Extra>
void TakeDoc(const Extra& e, const char** out) {
  if constexpr (std::is_same_v<Extra, Doc>) *out = e.text;
}

// The Doc of field `name` of Job; a description field without one stops the
// generator (every generated property is documented).
template <class Job>
const char* DocOf(std::string_view name) {
  const char* doc = nullptr;
  JobFields<Job>::Visit([&](Role, const char* n, auto, const auto&... extras) {
    if (name == n) (TakeDoc(extras, &doc), ...);
  });
  if (doc == nullptr) {
    std::fprintf(stderr, "ikpd_describe: %s.%.*s has no Doc\n", JobFields<Job>::kName, static_cast<int>(name.size()), name.data());
    std::exit(2);
  }
  return doc;
}

// A packed default as TypeScript source: the shortest decimal that reads back
// as the stored value (a float rounds through Math.fround), π and π/2 by name.
template <class Storage>
std::string DefaultNumber(Storage v) {
  constexpr double pi = std::numbers::pi;
  // π as a double, or as the float constant kPi (stored exactly in a double).
  const auto is = [&](double x) { return v == static_cast<Storage>(x) || v == static_cast<Storage>(static_cast<float>(x)); };
  if (is(pi)) return "Math.PI";
  if (is(pi / 2.0)) return "Math.PI / 2";
  std::string text = Number(static_cast<double>(v));
  if constexpr (std::is_same_v<Storage, float>) {
    if (std::isfinite(v) && v != 0.0f) {
      char digits[40];
      for (int n = 1; n <= 9; ++n) {
        std::snprintf(digits, sizeof digits, "%.*g", n, static_cast<double>(v));
        if (std::strtof(digits, nullptr) == v) break;
      }
      text = Number(std::strtod(digits, nullptr));
    }
  }
  if (v > 0 && v < 1 && text.size() > 8) {  // 1 / 120, not 0.008333334
    const double n = std::round(1.0 / static_cast<double>(v));
    if (static_cast<Storage>(1.0 / n) == v) return "1 / " + std::to_string(static_cast<long long>(n));
  }
  return text;
}

// Names as a union of string literals: "a|b" → "'a' | 'b'".
inline std::string Union(const char* names) {
  std::string out;
  for (std::string_view name : Names(names)) out += (out.empty() ? "" : " | ") + Quote(name);
  return out;
}

inline std::string TypeOf(const FieldRecord& f) {
  const std::string_view kind = f.kind;
  if (f.role == Role::kOutput && kind == "transform") return "JointResult";
  if (f.role == Role::kOutput && kind == "quat") return "[number, number, number, number]";
  if (kind == "enum") return Union(f.enumNames);
  if (kind == "boolean") return "boolean";
  if (kind == "vec2") return "Vec2";
  if (kind == "vec3" || kind == "optionalVec3") return "Vec3";
  if (kind == "quat") return "Quat";
  if (kind == "transform") return "Joint";
  std::string type = "number";
  if (f.presets != nullptr) {
    std::string names;
    for (int k = 0; k < 4 && f.presets->names[k] != nullptr; ++k) names += (k ? "|" : "") + std::string(f.presets->names[k]);
    type = Union(names.c_str()) + " | number";
  }
  return f.derived ? type + " | null" : type;
}

// The field's `@default` value, or "" when it states none.
template <class Job>
std::string DefaultOf(const FieldRecord& f) {
  const std::string_view kind = f.kind;
  const auto* d = kDefaults<Job>.data() + f.offset;
  if (f.role == Role::kInput || f.role == Role::kOutput) return "";
  if (f.derived) return "null";  // derived from the rig (the doc says how)
  const double value = f.hasFallback ? f.fallback : static_cast<double>(d[0]);
  for (int k = 0; f.presets != nullptr && k < 4 && f.presets->names[k] != nullptr; ++k) {
    if (f.presets->values[k] == value) return Quote(f.presets->names[k]);  // 'critical', not 1
  }
  if (f.hasFallback) return DefaultNumber(f.fallback);
  if (kind == "optionalVec3" || kind == "optionalNumber") return "";  // not given: none
  if (kind == "boolean") return d[0] != 0 ? "true" : "false";
  if (kind == "enum") {
    return Quote(Names(f.enumNames).at(static_cast<std::size_t>(static_cast<int>(d[0]) - f.enumFirst)));
  }
  if (kind == "vec2" || kind == "vec3" || kind == "quat") {
    std::string s = "[";
    for (std::size_t k = 0; k < f.floats; ++k) s += (k ? ", " : "") + DefaultNumber(d[k]);
    return s + "]";
  }
  if (kind == "transform") return "";
  return DefaultNumber(d[0]);
}

// A doc comment: the text (lines split at '\n'), the valid range, the default.
inline std::string DocComment(const std::string& text, const std::string& indent) {
  std::string s = indent + "/**\n";
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    s += indent + (line.empty() ? " *" : " * " + std::string(line)) + "\n";
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  }
  return s + indent + " */\n";
}

// The properties (name, declaration with its doc comment) of the fields of Job
// whose names start with `prefix` (the prefix dropped: "spine.damping" →
// damping in the spine's group), or, with an empty prefix, every field without a dot.
template <class Job>
std::vector<std::pair<std::string, std::string>> Properties(std::string_view prefix = {}) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const FieldRecord& f : kRecords<Job>) {
    std::string_view field = f.name;
    if (prefix.empty() ? field.find('.') != std::string_view::npos : !field.starts_with(prefix)) continue;
    field.remove_prefix(prefix.size());
    std::string text = DocOf<Job>(f.name);
    if (f.hasRange && f.role != Role::kOutput && f.kind != std::string_view("enum")) text += std::string(text.empty() ? "" : "\n") + "Must be " + RangeText(f.range) + ".";
    if (const std::string d = DefaultOf<Job>(f); !d.empty()) text += "\n@default " + d;
    out.emplace_back(field, DocComment(text, "  ") + "  " + std::string(field) + (f.role == Role::kInput || f.role == Role::kOutput ? "" : "?") + ": " + TypeOf(f) + ";\n");
  }
  return out;
}

// The interface `name` with the fields of Job (those under `prefix`, as Properties).
template <class Job>
std::string Interface(const std::string& name, const std::string& about, std::string_view prefix = {}) {
  std::string s = "/** " + about + " */\nexport interface " + name + " {\n";
  for (const auto& property : Properties<Job>(prefix)) s += property.second;
  return s + "}\n\n";
}

// The interface `name` of Job's fields extending `baseName`, the interface of
// Base's: a field declared alike in both (type, doc, range and default) is
// inherited; the base's others are omitted (Omit<…>) and Job's declared.
template <class Job, class Base>
std::string Extending(const std::string& name, const std::string& baseName, const std::string& about) {
  const auto own = Properties<Job>();
  const auto base = Properties<Base>();
  const auto has = [](const auto& list, const std::pair<std::string, std::string>& p) {
    for (const auto& q : list) if (q == p) return true;
    return false;
  };
  std::string omitted;
  for (const auto& property : base) {
    if (!has(own, property)) omitted += (omitted.empty() ? "" : " | ") + Quote(property.first);
  }
  std::string s = "/** " + about + " */\nexport interface " + name + " extends " +
                  (omitted.empty() ? baseName : "Omit<" + baseName + ", " + omitted + ">") + " {\n";
  for (const auto& property : own) {
    if (!has(base, property)) s += property.second;
  }
  return s + "}\n\n";
}

inline std::string TypesHeader(const char* from, const char* imports) {
  return std::string("// Generated by ikpd_describe (cpp/bindings/describe/, `npm run describe`) from the\n// descriptions in ") +
         from + ": each described field's type, doc and @default. Do not edit:\n// change the description and regenerate. The native test Described.UpToDate fails while this file is stale.\n" +
         imports + "\n";
}

}  // namespace ikpd::bindings
