// The batches' per-item fields as lists of BatchField entries, each naming
// the described field it carries (see batch.cc), and what follows from a
// list at compile time: the static_assert check (FirstUndescribed), the
// storage layout with fill values (kLayout), the text layout() reports
// (kLayoutText); and Wire, which points a batch job at the storage.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "describe.h"
#include "job_fields.h"
#include "ikpd/batch/common.h"
#include "ikpd/batch/soa.h"

namespace ikpd::bindings {

// One PD batch item: the controller's state and its target, described like a
// job so the PD batches' fields name them (at rest: value = target).
struct ScalarPdItem {
  float value = 0.0f;
  float velocity = 0.0f;
  float target = 0.0f;
};
struct QuatPdItem {
  glm::quat value{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 velocity{0.0f};  // angular velocity
  glm::quat target{1.0f, 0.0f, 0.0f, 0.0f};
};

template <>
struct JobFields<ScalarPdItem> {
  static constexpr const char* kName = "pdItem";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "value", &ScalarPdItem::value, kFinite);
    f(Role::kInput, "velocity", &ScalarPdItem::velocity, kFinite);
    f(Role::kInput, "target", &ScalarPdItem::target, kFinite);
  }
};

template <>
struct JobFields<QuatPdItem> {
  static constexpr const char* kName = "quatPdItem";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "value", &QuatPdItem::value);
    f(Role::kInput, "velocity", &QuatPdItem::velocity);
    f(Role::kInput, "target", &QuatPdItem::target);
  }
};

// The part of a described field a batch field carries per item.
enum class Part : std::uint8_t {
  kWhole,     // all of it
  kPosition,  // a transform's position (its first 3 floats)
  kRotation,  // a transform's rotation (its last 4)
  kVector,    // an optional vector's x, y, z (the batch's poleMode says whether it is given)
};

// One per-item field of a batch: its name in layout(), the described field
// (`source`, and for the pole `also`, the field the same floats stand for
// under poleMode 'direction'), the kind that field has, the part carried, and
// the batch job's pointer it is wired to (`in` for inputs, `out` for fields
// the job writes: outputs and PD state).
template <class BatchJob>
struct BatchField {
  const char* name;
  const char* source;
  const char* kind;
  Part part;
  const float* BatchJob::*in = nullptr;
  float* BatchJob::*out = nullptr;
  const char* also = nullptr;

  static constexpr BatchField In(const char* name, const char* source, const char* kind, Part part,
                                 const float* BatchJob::*member, const char* also = nullptr) {
    return {name, source, kind, part, member, nullptr, also};
  }
  static constexpr BatchField Out(const char* name, const char* source, const char* kind, Part part,
                                  float* BatchJob::*member) {
    return {name, source, kind, part, nullptr, member};
  }
  constexpr bool output() const { return std::string_view(name).starts_with("out."); }
};

constexpr std::uint32_t PartStart(Part p) { return p == Part::kRotation ? 3 : 0; }
constexpr std::uint32_t PartFloats(Part p, const FieldRecord& r) {
  return p == Part::kWhole ? r.floats : p == Part::kRotation ? 4 : 3;
}
// The kind a part needs its field to have (null: any, the entry's own).
constexpr const char* PartKind(Part p) {
  return p == Part::kPosition || p == Part::kRotation ? "transform" : p == Part::kVector ? "optionalVec3" : nullptr;
}

// The described field behind entry `e`: In's (inputs, state) or Out's (outputs).
template <class In, class Out, class J>
constexpr const FieldRecord* SourceOf(const BatchField<J>& e) {
  return e.output() ? FindField<Out>(e.source) : FindField<In>(e.source);
}

// Index of the first entry whose described field (or `also`) is missing or of
// another kind than the entry states, or whose part does not fit it; N when
// every entry is sound.
template <class In, class Out, class J, std::size_t N>
constexpr std::size_t FirstUndescribed(const std::array<BatchField<J>, N>& fields) {
  for (std::size_t i = 0; i < N; ++i) {
    const BatchField<J>& e = fields[i];
    const FieldRecord* r = SourceOf<In, Out>(e);
    const bool kindOk = r != nullptr && std::string_view(r->kind) == e.kind &&
                        (PartKind(e.part) == nullptr || std::string_view(PartKind(e.part)) == e.kind);
    const FieldRecord* also = e.also != nullptr ? FindField<In>(e.also) : r;
    if (!kindOk || also == nullptr || std::string_view(also->kind) != e.kind || (e.in == nullptr) == (e.out == nullptr)) {
      return i;
    }
  }
  return N;
}

// The storage layout of Batch::kFields, at compile time: components and fill
// from the described field's defaults (the single job's, a default-constructed
// result's).
template <class Batch>
constexpr auto MakeLayout() {
  using In = typename Batch::In;
  using Out = typename Batch::Out;
  std::array<batch::Field, Batch::kFields.size()> out{};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& e = Batch::kFields[i];
    const FieldRecord& r = *SourceOf<In, Out>(e);
    const float* defaults = (e.output() ? Defaults<Out>() : Defaults<In>()) + r.offset + PartStart(e.part);
    out[i].name = e.name;
    out[i].components = PartFloats(e.part, r);
    for (std::uint32_t k = 0; k < out[i].components; ++k) out[i].fill[k] = defaults[k];
  }
  return out;
}
template <class Batch>
inline constexpr auto kLayout = MakeLayout<Batch>();

// Points the batch job's fields at the storage, entry by entry.
template <class Batch, class Job>
void Wire(Job& job, const batch::SoaStorage& s) {
  for (std::size_t i = 0; i < Batch::kFields.size(); ++i) {
    const auto& e = Batch::kFields[i];
    if (e.in != nullptr) job.*e.in = s.field(i);
    else job.*e.out = s.field(i);
  }
}

// Writes "name:components:source[|also]:start,..." (components 1–4, start 0 or
// 3) into t: layout()'s text, built at compile time.
template <class Batch>
constexpr std::size_t WriteLayoutText(char* out) {
  using In = typename Batch::In;
  using Out = typename Batch::Out;
  TextOut t{out};
  for (std::size_t i = 0; i < Batch::kFields.size(); ++i) {
    const auto& e = Batch::kFields[i];
    if (i > 0) t.Put(',');
    t.Put(e.name);
    t.Put(':');
    t.PutInt(PartFloats(e.part, *SourceOf<In, Out>(e)));
    t.Put(':');
    t.Put(e.source);
    if (e.also != nullptr) {
      t.Put('|');
      t.Put(e.also);
    }
    t.Put(':');
    t.PutInt(PartStart(e.part));
  }
  return t.n;
}
template <class Batch>
constexpr auto MakeLayoutText() {
  std::array<char, WriteLayoutText<Batch>(nullptr) + 1> text{};
  WriteLayoutText<Batch>(text.data());
  return text;
}
template <class Batch>
inline constexpr auto kLayoutText = MakeLayoutText<Batch>();

// The limb's joints, inputs and outputs, as the two-bone and pseudo
// three-bone batches share them (the root does not move: no out.rootPosition).
template <class J>
constexpr std::array<BatchField<J>, 6> LimbJoints() {
  using F = BatchField<J>;
  return {F::In("in.rootPosition", "root", "transform", Part::kPosition, &J::rootPosition),
          F::In("in.rootRotation", "root", "transform", Part::kRotation, &J::rootRotation),
          F::In("in.midPosition", "mid", "transform", Part::kPosition, &J::midPosition),
          F::In("in.midRotation", "mid", "transform", Part::kRotation, &J::midRotation),
          F::In("in.endPosition", "end", "transform", Part::kPosition, &J::endPosition),
          F::In("in.endRotation", "end", "transform", Part::kRotation, &J::endRotation)};
}
template <class J>
constexpr std::array<BatchField<J>, 2> LimbTarget() {
  using F = BatchField<J>;
  return {F::In("in.target", "target", "vec3", Part::kWhole, &J::target),
          F::In("in.pole", "pole", "optionalVec3", Part::kVector, &J::pole, "poleDirection")};
}
template <class J>
constexpr std::array<BatchField<J>, 5> LimbOutputs() {
  using F = BatchField<J>;
  return {F::Out("out.rootRotation", "root", "transform", Part::kRotation, &J::outRootRotation),
          F::Out("out.midPosition", "mid", "transform", Part::kPosition, &J::outMidPosition),
          F::Out("out.midRotation", "mid", "transform", Part::kRotation, &J::outMidRotation),
          F::Out("out.endPosition", "end", "transform", Part::kPosition, &J::outEndPosition),
          F::Out("out.endRotation", "end", "transform", Part::kRotation, &J::outEndRotation)};
}
template <class J>
constexpr std::array<BatchField<J>, 2> LimbSummary() {
  using F = BatchField<J>;
  return {F::Out("out.reached", "reached", "boolean", Part::kWhole, &J::outReached),
          F::Out("out.distance", "distance", "number", Part::kWhole, &J::outDistance)};
}

template <class T, std::size_t... N>
constexpr auto Join(const std::array<T, N>&... parts) {
  std::array<T, (N + ...)> out{};
  std::size_t i = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + i), i += N), ...);
  return out;
}

}  // namespace ikpd::bindings
