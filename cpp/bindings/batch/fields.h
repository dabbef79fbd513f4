// The batches' per-item fields: for each batch job one list of BatchField
// entries (BatchFields<BatchJob>, at the end), each naming the described field
// it carries and which part of it: `in.rootPosition` is the position of the
// two-bone job's `root`, `out.midRotation` the rotation of the result's `mid`.
// What follows from a list at compile time: the static_assert check
// (FirstUndescribed), the storage layout with fill values (kLayout) and Wire,
// which points a batch job at the storage (batch.cc); at build time, the
// layout JS reads (web/src/batch/described.js). No Embind here: the
// generator includes this header natively.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "../packed.h"
#include "../../src/ik/fields.h"
#include "ikpd/batch/aim_batch.h"
#include "ikpd/batch/pd_batch.h"
#include "ikpd/batch/pseudo_three_bone_batch.h"
#include "ikpd/batch/two_bone_batch.h"
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

}  // namespace ikpd::bindings

namespace ikpd::describe {

template <>
struct JobFields<bindings::ScalarPdItem> {
  static constexpr const char* kName = "pdItem";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "value", &bindings::ScalarPdItem::value, kFinite);
    f(Role::kInput, "velocity", &bindings::ScalarPdItem::velocity, kFinite);
    f(Role::kInput, "target", &bindings::ScalarPdItem::target, kFinite);
  }
};

template <>
struct JobFields<bindings::QuatPdItem> {
  static constexpr const char* kName = "quatPdItem";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kInput, "value", &bindings::QuatPdItem::value);
    f(Role::kInput, "velocity", &bindings::QuatPdItem::velocity);
    f(Role::kInput, "target", &bindings::QuatPdItem::target);
  }
};

}  // namespace ikpd::describe

namespace ikpd::bindings {

// What a batch field carries of its described field, per item.
enum class Carries : std::uint8_t {
  kWhole,     // all of it
  kPosition,  // a transform's position (its first 3 floats)
  kRotation,  // a transform's rotation (its last 4)
  kVector,    // an optional vector's x, y, z (the batch's poleMode says whether it is given)
};

// One per-item field of a batch: its name in the layout ("in.target"), the described field
// (`source`, and for the pole `also`, the field the same floats stand for
// under poleMode 'direction'), the kind that field has, the part carried, and
// the batch job's pointer it is wired to (`in` for inputs, `out` for fields
// the job writes: outputs and PD state).
template <class BatchJob>
struct BatchField {
  const char* name;
  const char* source;
  const char* kind;
  Carries part;
  const float* BatchJob::*in = nullptr;
  float* BatchJob::*out = nullptr;
  const char* also = nullptr;

  static constexpr BatchField In(const char* name, const char* source, const char* kind, Carries part,
                                 const float* BatchJob::*member, const char* also = nullptr) {
    return {name, source, kind, part, member, nullptr, also};
  }
  static constexpr BatchField Out(const char* name, const char* source, const char* kind, Carries part,
                                  float* BatchJob::*member) {
    return {name, source, kind, part, nullptr, member};
  }
  constexpr bool output() const { return std::string_view(name).starts_with("out."); }
};

constexpr std::uint32_t PartStart(Carries p) { return p == Carries::kRotation ? 3 : 0; }
constexpr std::uint32_t PartFloats(Carries p, const FieldRecord& r) {
  return p == Carries::kWhole ? r.floats : p == Carries::kRotation ? 4 : 3;
}
// The kind a part needs its field to have (null: any, the entry's own).
constexpr const char* PartKind(Carries p) {
  return p == Carries::kPosition || p == Carries::kRotation ? "transform" : p == Carries::kVector ? "optionalVec3" : nullptr;
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

// The limb's joints, inputs and outputs, as the two-bone and pseudo
// three-bone batches share them (the root does not move: no out.rootPosition).
template <class J>
constexpr std::array<BatchField<J>, 6> LimbJoints() {
  using F = BatchField<J>;
  return {F::In("in.rootPosition", "root", "transform", Carries::kPosition, &J::rootPosition),
          F::In("in.rootRotation", "root", "transform", Carries::kRotation, &J::rootRotation),
          F::In("in.midPosition", "mid", "transform", Carries::kPosition, &J::midPosition),
          F::In("in.midRotation", "mid", "transform", Carries::kRotation, &J::midRotation),
          F::In("in.endPosition", "end", "transform", Carries::kPosition, &J::endPosition),
          F::In("in.endRotation", "end", "transform", Carries::kRotation, &J::endRotation)};
}
template <class J>
constexpr std::array<BatchField<J>, 2> LimbTarget() {
  using F = BatchField<J>;
  return {F::In("in.target", "target", "vec3", Carries::kWhole, &J::target),
          F::In("in.pole", "pole", "optionalVec3", Carries::kVector, &J::pole, "poleDirection")};
}
template <class J>
constexpr std::array<BatchField<J>, 5> LimbOutputs() {
  using F = BatchField<J>;
  return {F::Out("out.rootRotation", "root", "transform", Carries::kRotation, &J::outRootRotation),
          F::Out("out.midPosition", "mid", "transform", Carries::kPosition, &J::outMidPosition),
          F::Out("out.midRotation", "mid", "transform", Carries::kRotation, &J::outMidRotation),
          F::Out("out.endPosition", "end", "transform", Carries::kPosition, &J::outEndPosition),
          F::Out("out.endRotation", "end", "transform", Carries::kRotation, &J::outEndRotation)};
}
template <class J>
constexpr std::array<BatchField<J>, 2> LimbSummary() {
  using F = BatchField<J>;
  return {F::Out("out.reached", "reached", "boolean", Carries::kWhole, &J::outReached),
          F::Out("out.distance", "distance", "number", Carries::kWhole, &J::outDistance)};
}

template <class T, std::size_t... N>
constexpr auto Join(const std::array<T, N>&... parts) {
  std::array<T, (N + ...)> out{};
  std::size_t i = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + i), i += N), ...);
  return out;
}


// ---------------------------------------------------------------- the lists
// Each batch's per-item fields: BatchFields<BatchJob>::kFields, with the
// descriptions its entries name (In: the single job or PD item; Out: the
// result) and the batch's JS class name. The field index is the position in
// the list.
template <class BatchJob>
struct BatchFields;

template <>
struct BatchFields<TwoBoneBatchJob> {
  static constexpr const char* kName = "TwoBoneBatch";
  using In = TwoBoneJob;
  using Out = TwoBoneResult;
  using F = BatchField<TwoBoneBatchJob>;
  static constexpr auto kFields = Join(
      LimbJoints<TwoBoneBatchJob>(), LimbTarget<TwoBoneBatchJob>(),
      std::array{F::In("in.effectorOffset", "effectorOffset", "vec3", Carries::kWhole, &TwoBoneBatchJob::effectorOffset),
                 F::In("in.weight", "weight", "number", Carries::kWhole, &TwoBoneBatchJob::weight)},
      LimbOutputs<TwoBoneBatchJob>(), LimbSummary<TwoBoneBatchJob>());
};

template <>
struct BatchFields<PseudoThreeBoneBatchJob> {
  static constexpr const char* kName = "PseudoThreeBoneBatch";
  using In = PseudoThreeBoneJob;
  using Out = PseudoThreeBoneResult;
  using J = PseudoThreeBoneBatchJob;
  using F = BatchField<J>;
  static constexpr auto kFields =
      Join(LimbJoints<J>(),
           std::array{F::In("in.tipPosition", "tip", "transform", Carries::kPosition, &J::tipPosition),
                      F::In("in.tipRotation", "tip", "transform", Carries::kRotation, &J::tipRotation)},
           LimbTarget<J>(),
           std::array{F::In("in.weight", "weight", "number", Carries::kWhole, &J::weight),
                      F::In("in.blend", "blend", "number", Carries::kWhole, &J::blend)},
           LimbOutputs<J>(),
           std::array{F::Out("out.tipPosition", "tip", "transform", Carries::kPosition, &J::outTipPosition),
                      F::Out("out.tipRotation", "tip", "transform", Carries::kRotation, &J::outTipRotation)},
           LimbSummary<J>());
};

template <>
struct BatchFields<AimBatchJob> {
  static constexpr const char* kName = "AimBatch";
  using In = AimJob;
  using Out = AimResult;
  using F = BatchField<AimBatchJob>;
  static constexpr std::array kFields = {
      F::In("in.position", "position", "vec3", Carries::kWhole, &AimBatchJob::position),
      F::In("in.rotation", "rotation", "quat", Carries::kWhole, &AimBatchJob::rotation),
      F::In("in.target", "target", "vec3", Carries::kWhole, &AimBatchJob::target),
      F::In("in.pole", "pole", "optionalVec3", Carries::kVector, &AimBatchJob::pole),
      F::In("in.weight", "weight", "number", Carries::kWhole, &AimBatchJob::weight),
      F::Out("out.rotation", "rotation", "quat", Carries::kWhole, &AimBatchJob::outRotation)};
};

// The PD batches' fields: the item's state (written by update) and target.
template <class J>
constexpr std::array<BatchField<J>, 3> PdFields(const char* value, const char* velocity) {
  using F = BatchField<J>;
  return {F::Out("state.value", "value", value, Carries::kWhole, &J::value),
          F::Out("state.velocity", "velocity", velocity, Carries::kWhole, &J::velocity),
          F::In("in.target", "target", value, Carries::kWhole, &J::target)};
}

template <>
struct BatchFields<PdBatchJob> {
  static constexpr const char* kName = "PdBatch";
  using In = ScalarPdItem;
  using Out = ScalarPdItem;
  static constexpr auto kFields = PdFields<PdBatchJob>("number", "number");
};

template <>
struct BatchFields<QuatPdBatchJob> {
  static constexpr const char* kName = "QuatPdBatch";
  using In = QuatPdItem;
  using Out = QuatPdItem;
  static constexpr auto kFields = PdFields<QuatPdBatchJob>("quat", "vec3");
};

}  // namespace ikpd::bindings
