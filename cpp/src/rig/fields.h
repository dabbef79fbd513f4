// The rig area's descriptions (cpp/src/describe/fields.h): a constraint's
// common settings, the look-at's and the full-body look-at's scalar options.
// Their per-joint arrays (weights, limits, settle times) are packed after them
// by the JS wrappers and checked by C++. The body look-at's groups name their
// fields "group.option" as JS spells them; JS gives spine.settleTime as one
// number for both ends (or an array per joint), and C++ names both ends
// "spine.settleTime" in its errors.
#pragma once

#include <cstddef>

#include "../describe/fields.h"
#include "ikpd/rig/body_look_at.h"
#include "ikpd/rig/grounding.h"
#include "ikpd/rig/look_at.h"
#include "ikpd/rig/rig.h"
#include "../pd/fields.h"

namespace ikpd::describe {

// Every constraint's common settings (ikpd/rig/rig.h, CommonSettings), packed
// by JS (web/src/rig/rigSettings.js) between a constraint's joint lists and
// its kind's block. A kind without smoothing keeps settleTime's and damping's
// defaults; the look-at needs settleTime > 0 (its kind's own rule, checked by
// the rig); which axes a kind takes is its kind file's.
template <>
struct JobFields<rig::CommonSettings> {
  static constexpr const char* kName = "common";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::CommonSettings;
    f(Role::kOption, "weight", &S::weight, Closed(0.0, 1.0));
    f(Role::kOption, "enabled", &S::enabled);
    f(Role::kOption, "settleTime", &S::settleTime, AtLeast(0.0));
    f(Role::kOption, "damping", &S::damping, Above(0.0), kDampingPresets);
    f(Role::kOption, "blendOutTime", &S::blendOutTime, AtLeast(0.0));
    f(Role::kOption, "forward", &S::forward);
    f(Role::kOption, "bendAxis", &S::bendAxis);
    f(Role::kOption, "up", &S::up);
  }
};

template <>
struct JobFields<LookAtSettings> {
  static constexpr const char* kName = "lookAt";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOption, "settleTime", &LookAtSettings::settleTime, Above(0.0));
    f(Role::kOption, "damping", &LookAtSettings::damping, Above(0.0), kDampingPresets);
    f(Role::kOption, "blendOutTime", &LookAtSettings::blendOutTime, AtLeast(0.0));
    f(Role::kOption, "forward", &LookAtSettings::forward);
    f(Role::kOption, "offset", &LookAtSettings::offset);
    f(Role::kOption, "up", &LookAtSettings::up);
    f(Role::kOption, "maxYaw", &LookAtSettings::maxYaw, Closed(0.0, kPi));
    f(Role::kOption, "maxPitchUp", &LookAtSettings::maxPitchUp, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "maxPitchDown", &LookAtSettings::maxPitchDown, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "behind", &LookAtSettings::behind, EnumNames{"keep|front|follow", 0});
    f(Role::kOption, "maxSpeed", &LookAtSettings::maxSpeed, Range{0.0, kInfinity, true, false});
    f(Role::kOption, "targetMotion", &LookAtSettings::targetMotion, EnumNames{"hold|linear", 0});
    f(Role::kOption, "ki", &LookAtSettings::ki, AtLeast(0.0));
    f(Role::kOption, "eyeYaw", &LookAtSettings::eyeYaw, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "eyePitchUp", &LookAtSettings::eyePitchUp, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "eyePitchDown", &LookAtSettings::eyePitchDown, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "eyeSettleTime", &LookAtSettings::eyeSettleTime, Above(0.0));
  }
};

// The most spine joints a BodyLookAt handle takes (its per-joint arrays and
// each update's joints travel through the scratch buffer).
constexpr std::size_t kMaxSpineJoints = 64;

template <>
struct JobFields<BodyLookAtSettings> {
  static constexpr const char* kName = "bodyLookAt";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = BodyLookAtSettings;
    const auto spine = [](auto member) { return Nest(&S::spine, member); };
    const auto shift = [](auto member) { return Nest(&S::weightShift, member); };
    const auto arms = [](auto member) { return Nest(&S::armReaction, member); };
    f(Role::kOption, "spineJoints", &S::spineJoints, Closed(2.0, static_cast<double>(kMaxSpineJoints)));
    f(Role::kOption, "forward", &S::forward);
    f(Role::kOption, "up", &S::up);
    f(Role::kOption, "offset", &S::offset);
    f(Role::kOption, "footLock", &S::footLock);
    f(Role::kOption, "blendOutTime", &S::blendOutTime, AtLeast(0.0));
    f(Role::kOption, "maxYaw", &S::maxYaw, Closed(0.0, kPi));
    f(Role::kOption, "maxPitchUp", &S::maxPitchUp, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "maxPitchDown", &S::maxPitchDown, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "behind", &S::behind, EnumNames{"keep|front|follow", 0});
    f(Role::kOption, "eyeYaw", &S::eyeYaw, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "eyePitchUp", &S::eyePitchUp, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "eyePitchDown", &S::eyePitchDown, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "eyeSettleTime", &S::eyeSettleTime, Above(0.0));
    f(Role::kOption, "spine.headSettleTime", spine(&BodyLookAtSpineSettings::headSettleTime), Above(0.0));
    f(Role::kOption, "spine.pelvisSettleTime", spine(&BodyLookAtSpineSettings::pelvisSettleTime), Above(0.0));
    f(Role::kOption, "spine.damping", spine(&BodyLookAtSpineSettings::damping), Above(0.0), kDampingPresets);
    f(Role::kOption, "spine.maxSpeed", spine(&BodyLookAtSpineSettings::maxSpeed), Range{0.0, kInfinity, true, false});
    f(Role::kOption, "spine.targetMotion", spine(&BodyLookAtSpineSettings::targetMotion), EnumNames{"hold|linear", 0});
    f(Role::kOption, "spine.ki", spine(&BodyLookAtSpineSettings::ki), AtLeast(0.0));
    f(Role::kOption, "weightShift.amount", shift(&BodyLookAtWeightShiftSettings::amount), AtLeast(0.0));
    f(Role::kOption, "weightShift.limit", shift(&BodyLookAtWeightShiftSettings::limit), AtLeast(0.0));
    f(Role::kOption, "weightShift.settleTime", shift(&BodyLookAtWeightShiftSettings::settleTime), Above(0.0));
    f(Role::kOption, "weightShift.damping", shift(&BodyLookAtWeightShiftSettings::damping), Above(0.0), kDampingPresets);
    f(Role::kOption, "armReaction.amount", arms(&BodyLookAtArmReactionSettings::amount), Closed(0.0, 1.0));
    f(Role::kOption, "armReaction.settleTime", arms(&BodyLookAtArmReactionSettings::settleTime), Above(0.0));
    f(Role::kOption, "armReaction.damping", arms(&BodyLookAtArmReactionSettings::damping), Above(0.0), kDampingPresets);
    // -1 or a spine index: Validate also checks it against spineJoints.
    f(Role::kOption, "armReaction.chest", arms(&BodyLookAtArmReactionSettings::chest), AtLeast(-1.0));
  }
};

// The grounding constraint's scalar options (the rig packs them after the
// legs' joint count; docs/rig/grounding.md). Its weight and smoothing are the
// rig's common settings; its leg layout and sole offsets are the rig's extras.
template <>
struct JobFields<rig::GroundingSettings> {
  static constexpr const char* kName = "grounding";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::GroundingSettings;
    f(Role::kOption, "groundHeight", &S::groundHeight, kFinite);
    f(Role::kOption, "maxPelvisDrop", &S::maxPelvisDrop, AtLeast(0.0), Derived{});
    f(Role::kOption, "maxPelvisRise", &S::maxPelvisRise, AtLeast(0.0), Derived{});
    f(Role::kOption, "maxFootPitch", &S::maxFootPitch, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "maxFootRoll", &S::maxFootRoll, Closed(0.0, kPi / 2.0f));
    f(Role::kOption, "plantSpeed", &S::plantSpeed, AtLeast(0.0));
    f(Role::kOption, "plantHeight", &S::plantHeight, AtLeast(0.0), Derived{});
    f(Role::kOption, "soften", &S::soften, Closed(0.0, 1.0));
    f(Role::kOption, "unplantRadius", &S::unplantRadius, AtLeast(0.0), Derived{});
  }
};

// The records the rig shares with JS by memory (RecordFields above; the
// layouts docs/rig/rig.md describes).
template <>
struct RecordFields<rig::LocalTransform> {
  static constexpr const char* kName = "localTransform";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::LocalTransform;
    f("translation", &S::translation);
    f("rotation", &S::rotation);
    f("scale", &S::scale);
  }
};

template <>
struct RecordFields<rig::ConstraintFrame> {
  static constexpr const char* kName = "constraintFrame";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::ConstraintFrame;
    f("target", &S::target);
    f("pole", &S::pole);
    f("effectorOffset", &S::effectorOffset);
    f("poleSet", &S::poleSet);
  }
};

template <>
struct RecordFields<rig::ConstraintResult> {
  static constexpr const char* kName = "constraintResult";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::ConstraintResult;
    f("reached", &S::reached);
    f("distance", &S::distance);
    f("iterations", &S::iterations);
    f("active", &S::active);
  }
};

template <>
struct RecordFields<rig::GroundHit> {
  static constexpr const char* kName = "groundHit";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::GroundHit;
    f("point", &S::point);
    f("normal", &S::normal);
    f("hit", &S::hit);
    f("plant", &S::plant);
    f("edge", &S::edge);
  }
};

template <>
struct RecordFields<rig::GroundProbe> {
  static constexpr const char* kName = "groundProbe";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::GroundProbe;
    f("sole", &S::sole);
    f("hip", &S::hip);
  }
};

}  // namespace ikpd::describe
