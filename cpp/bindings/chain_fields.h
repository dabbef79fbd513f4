// The scalar options of LookAt and Tentacle2D described once (job_fields.h):
// defaults (the settings structs' member initializers), damping presets and
// ranges equal to LookAt::Reset's and Tentacle2D::Reset's checks (proved by
// tests/js/field-ranges.test.js). Their per-joint arrays (weights, limits,
// settle times, lengths) are packed after them by web/src/chain.js and checked
// by C++. Each handle in chain.cc owns a buffer in this layout.
#pragma once

#include "ikpd/rig/look_at.h"
#include "ikpd/ik/tentacle2d.h"
#include "job_fields.h"
#include "pd_fields.h"

namespace ikpd::bindings {

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

}  // namespace ikpd::bindings
