// The PD area's description (cpp/src/describe/fields.h): the gain options
// (settleTime or kp, damping or kd: the rules of ikpd/pd/gain_options.h) and
// the other PdSettings, packed as doubles so JS values reach the controllers
// unrounded.
#pragma once

#include <numbers>

#include "../describe/checks.h"
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
    f(Role::kOption, "settleTime", gain(&GainOptions::settleTime), Above(0.0), Fallback{GainOptions::kDefaultSettleTime},
      Doc{"Seconds to get close to the target with critical damping: kp = (2π / settleTime)²."});
    f(Role::kOption, "damping", gain(&GainOptions::damping), AtLeast(0.0), kDampingPresets,
      Fallback{GainOptions::kDefaultDamping},
      Doc{"Damping preset or ratio ζ; kd = 2ζ√kp. `'critical'` (ζ = 1, no overshoot), `'responsive'`\n"
          "(ζ = 1/√2, about 4.3 % overshoot), `'over'` (ζ = 1.5, slower, no overshoot)."});
    f(Role::kOption, "kp", gain(&GainOptions::kp), Above(0.0),
      Doc{"Spring gain (1/s²); replaces `settleTime`."});
    f(Role::kOption, "kd", gain(&GainOptions::kd), AtLeast(0.0),
      Doc{"Damper gain (1/s); replaces `damping`."});
    f(Role::kOption, "integrator", setting(&PdSettings::integrator), EnumNames{"exact|stable|explicit|substep", 0},
      Doc{"How a step advances: `'exact'` (closed form, frame-rate independent, never unstable),\n"
          "`'stable'` (Stable PD), `'explicit'` (plain update) or `'substep'` (explicit on sub-steps of `dtMax`)."});
    f(Role::kOption, "dtMax", setting(&PdSettings::dtMax), Above(0.0),
      Doc{"Longest sub-step for `'substep'`, and for `'exact'` with a finite `maxVelocity`."});
    f(Role::kOption, "maxVelocity", setting(&PdSettings::maxVelocity), Range{0.0, kInfinity, true, false},
      Doc{"Speed limit in value units/s (rad/s for rotations; Euclidean norm for vectors).\n"
          "`'explicit'` and `'stable'` stay one update with the velocity clamped after its velocity\n"
          "update (v += dt·F; v = clamp(v); x += dt·v); `'substep'` clamps on each sub-step; `'exact'`\n"
          "sub-steps (`dtMax`) and limits each sub-step's velocity and move."});
    f(Role::kOption, "feedForward", setting(&PdSettings::feedForward), Closed(0.0, 1.0),
      Doc{"Fraction of kd·targetVelocity added as force when a target velocity is known\n"
          "(passed to `update` or from `targetMotion: 'linear'`): 1 removes the steady lag kd/kp·speed."});
    f(Role::kOption, "ki", setting(&PdSettings::ki), AtLeast(0.0),
      Doc{"Integral gain (PID); 0 is off."});
    f(Role::kOption, "maxIntegral", setting(&PdSettings::maxIntegral), Range{0.0, kInfinity, false, false},
      Doc{"Anti-windup: the integral may shift the equilibrium by at most this much (value units)."});
    f(Role::kOption, "targetMotion", setting(&PdSettings::targetMotion), EnumNames{"hold|linear", 0},
      Doc{"How the target moves during a step when `update` gets no target velocity: `'hold'` (jumps at the\n"
          "start of the step) or `'linear'` (moves linearly from the previous target; much less\n"
          "frame-rate dependent for moving targets)."});
    f(Role::kOption, "restTolerance", setting(&PdSettings::restTolerance), AtLeast(0.0),
      Doc{"`atRest`: |error| <= this (value units; radians for rotations)."});
    f(Role::kOption, "restVelocity", setting(&PdSettings::restVelocity), AtLeast(0.0),
      Doc{"`atRest`: |velocity| <= this (value units/s)."});
    f(Role::kOption, "blendOutEnergy", setting(&PdSettings::blendOutEnergy), AtLeast(0.0),
      Doc{"Blend-out switches to the final linear blend once kp·e²/2 + v²/2 <= this."});
    f(Role::kOption, "blendOutTime", setting(&PdSettings::blendOutTime), AtLeast(0.0),
      Doc{"Seconds of the final linear blend to exactly the rest value."});
    f(Role::kOption, "method", setting(&PdSettings::method), EnumNames{"log|componentwise", 0},
      Doc{"`'log'`: spring on the rotation vector from the target (exact on the sphere: N steps equal one step).\n"
          "`'componentwise'`: a per-component spring then normalize."});
    // (0, π] with the 1e-6 slack PdSettings::Validate allows for a π rounded to decimals.
    f(Role::kOption, "maxAngle", setting(&PdSettings::maxAngle), Range{0.0, std::numbers::pi + 1e-6, true, false},
      Doc{"Maximum rotation angle of the value itself (radians), enforced as |w| >= cos(maxAngle/2):\n"
          "for IK offsets."});
    f(Role::kOption, "onUnstable", setting(&PdSettings::onUnstable), EnumNames{"throw|clamp", 0},
      Doc{"A step of `'explicit'`, `'stable'` or `'substep'` longer than its stability limit (where the\n"
          "update would grow: see `checkStability`) is checked before stepping.\n"
          "`'throw'`: RangeError `dt: outside the … stability region …`, state unchanged.\n"
          "`'clamp'`: `'explicit'`/`'stable'` advance only half the limit this update (the rest of dt is\n"
          "dropped); `'substep'` shortens its sub-steps to half the limit and covers all of dt."});
    f(Role::kOption, "substepSplit", setting(&PdSettings::substepSplit), EnumNames{"equal|classic", 0},
      Doc{"How `dt` is split into sub-steps (`'substep'`, and `'exact'` with a finite `maxVelocity`):\n"
          "`'equal'`: ceil(dt / dtMax) equal sub-steps, so the result changes smoothly with dt;\n"
          "`'classic'`: sub-steps of exactly dtMax, then one shorter remainder step. At most 10000 sub-steps."});
  }
};

}  // namespace ikpd::describe
