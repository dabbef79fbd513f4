// ikpd_describe: writes the JS side of the descriptions at build time
// (docs/architecture.md, "One description per job").
//
//   ikpd_describe --write web/src   writes web/src/<area>/described.js
//   ikpd_describe --check web/src   exits 1 when a file there differs
//
// For each described job (cpp/src/<area>/fields.h) it writes one JobLayout
// (web/src/fields.js): the fields with their kinds, offsets, roles, enum
// names, ranges (with the error text C++'s CheckRange gives), presets and
// fallbacks; the packed defaults; a packer for the whole job and one for the
// per-frame inputs; and for a result, its two readers. For each batch
// (cpp/bindings/batch/fields.h) it writes the per-item field layout, and for
// each record the rig shares by memory, its size and offsets. The
// output is ordinary, readable JS: nothing is parsed or compiled at init().
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "../../src/ik/fields.h"
#include "../../src/pd/fields.h"
#include "../../src/rig/fields.h"
#include "../batch/fields.h"
#include "../packed.h"
#include "described_types.h"
#include "text.h"

namespace ikpd::bindings {
namespace {

// One field as fieldList() (web/src/fields.js) takes it: [name, kind, offset,
// role], then an object of its extras when it has any.
std::string FieldEntry(const FieldRecord& f) {
  std::string s = "[" + Quote(f.name) + ", " + Quote(f.kind) + ", " + std::to_string(f.offset) + ", " + Quote(RoleName(f.role));
  std::vector<std::string> extras;
  if (f.enumNames != nullptr) {
    extras.push_back("enumNames: " + EnumList(f.enumNames));
    if (f.enumFirst != 0) extras.push_back("enumFirst: " + std::to_string(f.enumFirst));
  }
  if (f.hasRange) {
    const Range& r = f.range;
    extras.push_back("range: [" + Number(r.min) + ", " + Number(r.max) + ", " + (r.minOpen ? "true" : "false") + ", " +
                     (r.maxOpen ? "true" : "false") + ", " + Quote(RangeText(r)) + "]");
  }
  if (f.presets != nullptr) {
    std::string p = "presets: { ";
    for (int k = 0; k < 4 && f.presets->names[k] != nullptr; ++k) {
      p += (k ? ", " : "") + std::string(f.presets->names[k]) + ": " + Number(f.presets->values[k]);
    }
    extras.push_back(p + " }");
  }
  if (f.hasFallback) extras.push_back("fallback: " + Number(f.fallback));
  if (f.derived) extras.push_back("derived: true");
  if (!extras.empty()) {
    s += ", { ";
    for (std::size_t k = 0; k < extras.size(); ++k) s += (k ? ", " : "") + extras[k];
    s += " }";
  }
  return s + "]";
}

// The test that number field `f`'s value `v` is valid, bounds inlined (the
// readRanged rule of web/src/fields.js, as fast as a hand-written check).
std::string ValidTest(const FieldRecord& f) {
  const Range& r = f.range;
  const std::string_view kind = f.kind;
  std::string s = "typeof v === 'number' && ";
  s += kind == "number" ? "(x = Math.fround(v))" : "(x = v)";
  s += std::string(r.minOpen ? " > " : " >= ") + Number(r.min) + " && x " + (r.maxOpen ? "< " : "<= ") + Number(r.max);
  if (kind == "integer") s += " && Number.isInteger(v)";
  return s;
}

// The statement writing field `i` (its value in `v`) at s[offset..]; `fields`
// names the frozen field list the error paths read.
std::string WriteStatement(const FieldRecord& f, std::size_t i, const std::string& fields) {
  const std::string at = std::to_string(f.offset);
  const std::string name = Quote(f.name);
  const std::string field = fields + "[" + std::to_string(i) + "]";
  const std::string_view kind = f.kind;
  if (f.derived) return "s[" + at + "] = v === null ? NaN : " + ValidTest(f) + " ? v : readRanged(v, " + field + ");";
  if (kind == "number" || kind == "double" || kind == "integer") return "s[" + at + "] = " + ValidTest(f) + " ? v : readRanged(v, " + field + ");";
  if (kind == "optionalNumber") {
    return "s[" + at + "] = " + ValidTest(f) + " ? v : readRanged(v, " + field + "); s[" + std::to_string(f.offset + 1) + "] = 1;";
  }
  if (kind == "vec2") return "readVector(v, " + name + ", 2, s, " + at + ");";
  if (kind == "boolean") return "s[" + at + "] = v === true ? 1 : v === false ? 0 : readBoolean(v, " + name + ");";
  if (kind == "enum") return "s[" + at + "] = " + std::to_string(f.enumFirst) + " + readEnum(v, " + name + ", " + field + ".enumNames);";
  if (kind == "vec3") return "readVec3(v, " + name + ", s, " + at + ");";
  if (kind == "quat") return "readQuat(v, " + name + ", s, " + at + ");";
  if (kind == "transform") return "readTransform(v, " + name + ", s, " + at + ");";
  if (kind == "optionalVec3") return "readVec3(v, " + name + ", s, " + at + "); s[" + std::to_string(f.offset + 3) + "] = 1;";
  std::fprintf(stderr, "ikpd_describe: no packer for kind %s\n", f.kind);
  std::exit(2);
}

template <class Job>
std::string Defaults() {
  std::string s = "[";
  for (std::size_t i = 0; i < JobFloats<Job>(); ++i) s += (i ? ", " : "") + Number(static_cast<double>(kDefaults<Job>[i]));
  return s + "]";
}

// A packer for the fields `pick` accepts: a required input must be given; any
// other field not given gets its default (an optional vector: "not given").
template <class Job, class Pick>
std::string Packer(const std::string& fnName, const std::string& fields, Pick pick, const std::string& first = "") {
  std::string s = "function " + fnName + "(o, s) {\n  let v, x;\n";
  if (!first.empty()) s += "  " + first + "(o, s);\n";
  const auto& records = kRecords<Job>;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const FieldRecord& f = records[i];
    if (!pick(f)) continue;
    s += "  v = " + Member("o", f.name) + ";\n";
    if (f.role == Role::kInput) {
      s += "  " + WriteStatement(f, i, fields) + "\n";
      continue;
    }
    std::string fill;
    for (std::size_t k = 0; k < f.floats; ++k) {
      fill += (k ? " " : "") + std::string("s[") + std::to_string(f.offset + k) + "] = " +
              Number(static_cast<double>(kDefaults<Job>[f.offset + k])) + ";";
    }
    s += "  if (v === undefined) { " + fill + " } else { " + WriteStatement(f, i, fields) + " }\n";
  }
  return s + "}\n";
}

std::string ReadExpression(const FieldRecord& f) {
  const std::string at = "o + " + std::to_string(f.offset);
  const std::string_view kind = f.kind;
  if (kind == "transform") return "transformFrom(r, " + at + ")";
  if (kind == "quat") return "quatFrom(r, " + at + ")";
  if (kind == "boolean") return "r[" + at + "] !== 0";
  return "r[" + at + "]";  // number, integer
}

std::string FillStatement(const FieldRecord& f) {
  const std::string at = "o + " + std::to_string(f.offset);
  const std::string key = Member("result", f.name);
  const std::string_view kind = f.kind;
  if (kind == "transform" || kind == "quat") {
    const std::string fill = kind == "transform" ? "fillTransform" : "fillQuat";
    return "x = " + key + "; y = " + fill + "(x, r, " + at + "); if (y !== x) " + key + " = y;";
  }
  return key + " = " + ReadExpression(f) + ";";
}

template <class Job>
std::string FieldList(const std::string& var) {
  std::string s = "const " + var + " = /* @__PURE__ */ fieldList([\n";
  for (const FieldRecord& f : kRecords<Job>) s += "  " + FieldEntry(f) + ",\n";
  return s + "]);\n";
}

// A result: its fields, defaults and two readers, as a ResultLayout.
template <class Result>
std::string ResultSection() {
  const std::string id = Identifier(JobFields<Result>::kName);
  const std::string fields = id + "Fields";
  std::string s = FieldList<Result>(fields) + "\n";
  s += "function read" + Capitalized(id) + "(r, o) {\n  return {\n";
  for (const FieldRecord& f : kRecords<Result>) s += "    " + std::string(f.name) + ": " + ReadExpression(f) + ",\n";
  s += "  };\n}\n\n";
  s += "function fill" + Capitalized(id) + "(result, r, o) {\n  let x, y;\n";
  for (const FieldRecord& f : kRecords<Result>) s += "  " + FillStatement(f) + "\n";
  s += "  return result;\n}\n\n";
  s += "const " + id + " = /* @__PURE__ */ new ResultLayout({\n  name: " + Quote(JobFields<Result>::kName) +
       ",\n  floats: " + std::to_string(JobFloats<Result>()) + ",\n  bits: 32,\n  defaults: " + Defaults<Result>() +
       ",\n  fields: " + fields + ",\n  read: read" + Capitalized(id) + ",\n  fill: fill" + Capitalized(id) + ",\n});\n\n";
  return s;
}

// A job: its fields, defaults, packers and (when given) its result's layout.
// Whether every input of Job's description comes before its first option.
template <class Job>
constexpr bool InputsFirst() {
  bool option = false;
  for (const FieldRecord& f : kRecords<Job>) {
    if (f.role != Role::kOption && option) return false;
    option = option || f.role == Role::kOption;
  }
  return true;
}

template <class Job>
std::string JobSection(const char* result = nullptr) {
  static_assert(InputsFirst<Job>(), "a description lists its per-frame inputs before its options");
  const std::string id = Identifier(JobFields<Job>::kName);
  const std::string fields = id + "Fields";
  std::string s = "// " + std::string(JobFields<Job>::kName) + "\n" + FieldList<Job>(fields) + "\n";
  // Settings objects (no per-frame inputs) are packed when they change: the
  // generic packer of JobLayout serves them, so only solver jobs get packers.
  const bool inputs = std::any_of(kRecords<Job>.begin(), kRecords<Job>.end(), [](const FieldRecord& f) { return f.role != Role::kOption; });
  // The whole job's packer runs the inputs' one first: every description lists
  // its inputs before its options, so the order of the checks is the fields'.
  if (inputs) {
    s += Packer<Job>("pack" + Capitalized(id) + "Inputs", fields, [](const FieldRecord& f) { return f.role != Role::kOption; }) + "\n";
    s += Packer<Job>("pack" + Capitalized(id), fields, [](const FieldRecord& f) { return f.role == Role::kOption; },
                     "pack" + Capitalized(id) + "Inputs") + "\n";
  }
  const std::string packers = inputs ? "  pack: pack" + Capitalized(id) + ",\n  packInputs: pack" + Capitalized(id) + "Inputs,\n" : "";
  s += "export const " + id + " = /* @__PURE__ */ new JobLayout({\n  name: " + Quote(JobFields<Job>::kName) +
       ",\n  floats: " + std::to_string(JobFloats<Job>()) + ",\n  bits: " + (sizeof(StorageOf<Job>) == 8 ? "64" : "32") +
       ",\n  defaults: " + Defaults<Job>() + ",\n  fields: " + fields + ",\n" + packers +
       (result != nullptr ? "  result: " + std::string(result) + ",\n" : "") + "});\n\n";
  return s;
}

// A batch's per-item fields: group and name, components, the described
// field(s) each carries (two for a pole: point, direction) and from which of
// their floats.
template <class BatchJob>
std::string BatchSection() {
  using L = BatchFields<BatchJob>;
  std::string s = "export const " + std::string(L::kName) + " = /* @__PURE__ */ batchLayout([\n";
  for (const auto& e : L::kFields) {
    const std::string_view path = e.name;
    const auto dot = path.find('.');
    const FieldRecord& r = *SourceOf<typename L::In, typename L::Out>(e);
    const std::string sources = "[" + Quote(e.source) + (e.also != nullptr ? ", " + Quote(e.also) : "") + "]";
    s += "  [" + Quote(path.substr(0, dot)) + ", " + Quote(path.substr(dot + 1)) + ", " + std::to_string(PartFloats(e.part, r)) +
         ", " + sources + ", " + std::to_string(PartStart(e.part)) + "],\n";
  }
  return s + "]);\n\n";
}

// A record's size and its fields' offsets, in floats, from the struct itself.
template <class R>
std::string RecordSection() {
  static_assert(sizeof(R) % sizeof(float) == 0);
  const R r{};
  std::string s = "export const " + std::string(RecordFields<R>::kName) + " = /* @__PURE__ */ Object.freeze({ floats: " +
                  std::to_string(sizeof(R) / sizeof(float));
  RecordFields<R>::Visit([&](const char* name, auto member) {
    const auto bytes = reinterpret_cast<const char*>(&(r.*member)) - reinterpret_cast<const char*>(&r);
    s += ", " + std::string(name) + ": " + std::to_string(bytes / static_cast<std::ptrdiff_t>(sizeof(float)));
  });
  return s + " });\n";
}

std::string Header(const char* from) {
  return std::string("// Generated by ikpd_describe (cpp/bindings/describe/, `npm run describe`) from the\n// descriptions in ") +
         from + ". Do not edit: change the description and\n// regenerate. The native test Described.UpToDate fails while this file is stale.\n";
}

// Settings objects need only their layout.
const char* const kSettingsImports = "import { JobLayout, fieldList } from '../fields.js';\n\n";
// Solver jobs also need what their packers and result readers call.
const char* const kJobImports =
    "import { JobLayout, ResultLayout, fieldList, readBoolean, readRanged } from '../fields.js';\n"
    "import { fillQuat, fillTransform, quatFrom, readEnum, readQuat, readTransform, readVec3, readVector, transformFrom } from "
    "'../readers.js';\n\n";

struct File {
  std::string path;  // relative to the output folder
  std::string text;
};

std::vector<File> Files() {
  std::vector<File> files;
  files.push_back({"ik/described.js", Header("cpp/src/ik/fields.h") + kJobImports + ResultSection<TwoBoneResult>() +
                                          JobSection<TwoBoneJob>("twoBoneResult") + ResultSection<AimResult>() +
                                          JobSection<AimJob>("aimResult") + ResultSection<PseudoThreeBoneResult>() +
                                          JobSection<PseudoThreeBoneJob>("pseudoThreeBoneResult") +
                                          ResultSection<ChainResult>() + JobSection<ChainJob>("chainResult") +
                                          JobSection<Tentacle2DSettings>()});
  files.push_back({"rig/described.js", Header("cpp/src/rig/fields.h") + kSettingsImports + JobSection<rig::CommonSettings>() +
                                           JobSection<LookAtSettings>() +
                                           JobSection<BodyLookAtSettings>() + JobSection<rig::GroundingSettings>() +
                                           JobSection<rig::TwistSettings>() + JobSection<rig::AvatarSettings>() +
                                           JobSection<rig::SpringsSettings>() + JobSection<rig::SpringCollider>()});
  files.push_back({"rig/records.js", Header("cpp/src/rig/fields.h") + RecordSection<rig::LocalTransform>() +
                                         RecordSection<rig::ConstraintFrame>() + RecordSection<rig::ConstraintResult>() +
                                         RecordSection<rig::GroundHit>() + RecordSection<rig::GroundProbe>() +
                                         RecordSection<rig::TargetPose>()});
  files.push_back({"pd/described.js", Header("cpp/src/pd/fields.h") + kSettingsImports + JobSection<PdOptions>()});
  // The typings' described interfaces (described_types.h), beside web/src in web/types.
  files.push_back(
      {"../types/ik/described.d.ts",
       TypesHeader("cpp/src/ik/fields.h",
                   "import type { Joint, JointResult, Quat, Vec3 } from '../common.js';\nimport type { Vec2 } from './tentacle.js';\n") +
           Interface<TwoBoneJob>("TwoBoneFields", "The described options of `solveTwoBone` (docs/ik/two-bone.md).") +
           Interface<TwoBoneResult>("TwoBoneResultFields", "The described result of `solveTwoBone`.") +
           Interface<AimJob>("AimFields", "The described options of `solveAim` (docs/ik/aim.md).") +
           Interface<AimResult>("AimResultFields", "The described result of `solveAim`.") +
           // The pseudo three-bone job holds a two-bone limb (cpp/src/ik/fields.h): its shared fields are inherited.
           Extending<PseudoThreeBoneJob, TwoBoneJob>("PseudoThreeBoneFields", "TwoBoneFields",
                                                     "The described options of `solvePseudoThreeBone` (docs/ik/pseudo-three-bone.md): "
                                                     "its limb's as `solveTwoBone`'s, and its own.") +
           Interface<PseudoThreeBoneResult>("PseudoThreeBoneResultFields", "The described result of `solvePseudoThreeBone`.") +
           Interface<ChainJob>("ChainFields", "The described options of `solveChain` (docs/ik/chains.md).") +
           Interface<ChainResult>("ChainResultFields", "The described result of `solveChain`.") +
           Interface<Tentacle2DSettings>("Tentacle2DFields", "The described options of `Tentacle2D` (docs/ik/tentacle.md).")});
  files.push_back({"../types/rig/described.d.ts",
                   TypesHeader("cpp/src/rig/fields.h", "import type { Vec3 } from '../common.js';\n") +
                       Interface<rig::CommonSettings>("RigCommonFields", "The settings every rig constraint has (docs/rig/rig.md).") +
                       Interface<LookAtSettings>("LookAtFields", "The look-at's scalar settings (docs/rig/look-at.md).") +
                       Interface<BodyLookAtSettings>("BodyLookAtFields", "The full-body look-at's scalar settings (docs/rig/body-look-at.md).") +
                       Interface<BodyLookAtSettings>("BodyLookAtSpineFields", "The full-body look-at's spine settings.", "spine.") +
                       Interface<BodyLookAtSettings>("BodyLookAtWeightShiftFields", "The pelvis translating against the head's lean and turn.",
                                                     "weightShift.") +
                       Interface<BodyLookAtSettings>("BodyLookAtArmReactionFields", "Upper arms lagging the chest's rotation and springing back.",
                                                     "armReaction.") +
                       Interface<rig::GroundingSettings>("GroundingFields", "The grounding constraint's scalar settings (docs/rig/grounding.md).") +
                       Interface<rig::TwistSettings>("TwistFields", "The twist constraint's settings (docs/rig/twist.md).") +
                       Interface<rig::AvatarSettings>("AvatarFields", "The avatar constraint's settings (docs/rig/avatar.md).") +
                       Interface<rig::SpringsSettings>("SpringsFields", "The springs constraint's settings (docs/rig/springs.md).") +
                       Interface<rig::SpringCollider>("SpringColliderFields", "A springs collider's shape (docs/rig/springs.md, \"Colliders\").")});
  files.push_back({"../types/pd/described.d.ts", TypesHeader("cpp/src/pd/fields.h", "") +
                                                      Interface<PdOptions>("PdFields", "The options the PD controllers take (docs/pd/pd.md).")});
  files.push_back({"batch/described.js", Header("cpp/bindings/batch/fields.h") +
                                             "import { batchLayout } from '../fields.js';\n\n" + BatchSection<TwoBoneBatchJob>() +
                                             BatchSection<PseudoThreeBoneBatchJob>() + BatchSection<AimBatchJob>() +
                                             BatchSection<PdBatchJob>() + BatchSection<QuatPdBatchJob>()});
  for (File& f : files) {
    while (f.text.ends_with("\n\n")) f.text.pop_back();
  }
  return files;
}

int Run(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--write" && mode != "--check") {
    std::fprintf(stderr, "usage: ikpd_describe --write|--check <web/src folder>\n");
    return 2;
  }
  int stale = 0;
  for (const File& f : Files()) {
    const std::string path = std::string(argv[2]) + "/" + f.path;
    if (mode == "--write") {
      std::ofstream out(path, std::ios::binary);
      out << f.text;
      if (!out) {
        std::fprintf(stderr, "ikpd_describe: cannot write %s\n", path.c_str());
        return 1;
      }
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    const std::string current((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (current != f.text) {
      std::fprintf(stderr, "ikpd_describe: %s is stale; run `npm run describe`\n", path.c_str());
      stale = 1;
    }
  }
  return stale;
}

}  // namespace
}  // namespace ikpd::bindings

int main(int argc, char** argv) { return ikpd::bindings::Run(argc, argv); }
