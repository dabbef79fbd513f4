// The PD area's description (cpp/src/describe/fields.h): the gain options
// (settleTime or kp, damping or kd: the rules of ikpd/pd/gain_options.h) and
// the other PdSettings, packed as doubles so JS values reach the controllers
// unrounded.
#pragma once

#include <numbers>

#include "../describe/fields.h"
#include "ikpd/pd/controllers.h"
#include "ikpd/pd/gain_options.h"

namespace ikpd::describe {

// Every PD option: the gains as given and the rest of the settings (whose kp
// and kd the gains replace).
struct PdOptions {
  pd::GainOptions gains;
  pd::PdSettings settings;

  // Validated settings (gain rules, then PdSettings::Validate).
  Status Resolve(pd::PdSettings* out) const {
    pd::PdSettings s = settings;
    if (Status st = gains.Resolve(&s); !st) return st;
    if (Status st = s.Validate(); !st) return st;
    *out = s;
    return Ok();
  }
};

// The damping ratios a damping option may also be given as.
constexpr Presets kDampingPresets{{"critical", "responsive", "over", nullptr},
                                  {pd::kCriticalDampingRatio, pd::kResponsiveDampingRatio, pd::kOverDampingRatio, 0.0}};

template <>
struct JobFields<PdOptions> {
  static constexpr const char* kName = "pd";
  using Storage = double;
  template <class F>
  static constexpr void Visit(F&& f) {
    using pd::GainOptions;
    using pd::PdSettings;
    const auto gain = [](auto member) { return Nest(&PdOptions::gains, member); };
    const auto setting = [](auto member) { return Nest(&PdOptions::settings, member); };
    f(Role::kOption, "settleTime", gain(&GainOptions::settleTime), Above(0.0), Fallback{GainOptions::kDefaultSettleTime});
    f(Role::kOption, "damping", gain(&GainOptions::damping), AtLeast(0.0), kDampingPresets,
      Fallback{GainOptions::kDefaultDamping});
    f(Role::kOption, "kp", gain(&GainOptions::kp), Above(0.0));
    f(Role::kOption, "kd", gain(&GainOptions::kd), AtLeast(0.0));
    f(Role::kOption, "integrator", setting(&PdSettings::integrator), EnumNames{"exact|stable|explicit|substep", 0});
    f(Role::kOption, "dtMax", setting(&PdSettings::dtMax), Above(0.0));
    f(Role::kOption, "maxVelocity", setting(&PdSettings::maxVelocity), Range{0.0, kInfinity, true, false});
    f(Role::kOption, "feedForward", setting(&PdSettings::feedForward), Closed(0.0, 1.0));
    f(Role::kOption, "ki", setting(&PdSettings::ki), AtLeast(0.0));
    f(Role::kOption, "maxIntegral", setting(&PdSettings::maxIntegral), Range{0.0, kInfinity, false, false});
    f(Role::kOption, "targetMotion", setting(&PdSettings::targetMotion), EnumNames{"hold|linear", 0});
    f(Role::kOption, "restTolerance", setting(&PdSettings::restTolerance), AtLeast(0.0));
    f(Role::kOption, "restVelocity", setting(&PdSettings::restVelocity), AtLeast(0.0));
    f(Role::kOption, "blendOutEnergy", setting(&PdSettings::blendOutEnergy), AtLeast(0.0));
    f(Role::kOption, "blendOutTime", setting(&PdSettings::blendOutTime), AtLeast(0.0));
    f(Role::kOption, "method", setting(&PdSettings::method), EnumNames{"log|componentwise", 0});
    // (0, π] with the 1e-6 slack PdSettings::Validate allows for a π rounded to decimals.
    f(Role::kOption, "maxAngle", setting(&PdSettings::maxAngle), Range{0.0, std::numbers::pi + 1e-6, true, false});
    f(Role::kOption, "onUnstable", setting(&PdSettings::onUnstable), EnumNames{"throw|clamp", 0});
    f(Role::kOption, "substepSplit", setting(&PdSettings::substepSplit), EnumNames{"equal|classic", 0});
  }
};

}  // namespace ikpd::describe
