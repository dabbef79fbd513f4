// The IK area's descriptions (cpp/src/describe/fields.h): each job's fields
// once, with their roles, JS names, enum names and valid ranges, and the
// results' fields (role kOutput) that the single calls, the prepared solvers
// and the batches' out.* fields carry. A job packs its fields in this order
// (cpp/bindings/packed.h); the limb's inputs come first, as prepared solvers
// expect.
#pragma once

#include <string_view>

#include "../describe/fields.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/tentacle2d.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd::describe {

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
// (cpp/bindings/ik/chain_job.h).
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

// Packed in doubles so escapeAfter keeps every 32-bit count.
template <>
struct JobFields<Tentacle2DSettings> {
  static constexpr const char* kName = "tentacle2d";
  using Storage = double;
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOption, "step", &Tentacle2DSettings::step, Closed(0.0, kPi));
    f(Role::kOption, "limit", &Tentacle2DSettings::limit, Range{0.0, kInfinity, false, false});
    f(Role::kOption, "root", &Tentacle2DSettings::root);
    f(Role::kOption, "baseAngle", &Tentacle2DSettings::baseAngle, kFinite);
    f(Role::kOption, "escapeAfter", &Tentacle2DSettings::escapeAfter, Closed(0.0, 4294967295.0));
  }
};

// The aim's result: its job writes a bare rotation (AimJob::result points at `rotation`).
struct AimResult {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

template <>
struct JobFields<AimResult> {
  static constexpr const char* kName = "aim.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "rotation", &AimResult::rotation);
  }
};

template <>
struct JobFields<TwoBoneResult> {
  static constexpr const char* kName = "twoBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &TwoBoneResult::root);
    f(Role::kOutput, "mid", &TwoBoneResult::mid);
    f(Role::kOutput, "end", &TwoBoneResult::end);
    f(Role::kOutput, "reached", &TwoBoneResult::reached);
    f(Role::kOutput, "distance", &TwoBoneResult::distance, kFinite);
  }
};

template <>
struct JobFields<PseudoThreeBoneResult> {
  static constexpr const char* kName = "pseudoThreeBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &PseudoThreeBoneResult::root);
    f(Role::kOutput, "mid", &PseudoThreeBoneResult::mid);
    f(Role::kOutput, "end", &PseudoThreeBoneResult::end);
    f(Role::kOutput, "tip", &PseudoThreeBoneResult::tip);
    f(Role::kOutput, "reached", &PseudoThreeBoneResult::reached);
    f(Role::kOutput, "distance", &PseudoThreeBoneResult::distance, kFinite);
  }
};

// The chain's summary; its n solved joints precede it (chain_job.h).
template <>
struct JobFields<ChainResult> {
  static constexpr const char* kName = "chain.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "reached", &ChainResult::reached);
    f(Role::kOutput, "distance", &ChainResult::distance, kFinite);
    f(Role::kOutput, "iterations", &ChainResult::iterations, AtLeast(0.0));
  }
};

}  // namespace ikpd::describe
