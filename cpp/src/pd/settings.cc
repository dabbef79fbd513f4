// Settings validation and the gain rules (settleTime or kp, damping or kd): the one
// place every controller, batch and binding takes its settings through.
#include "ikpd/pd/settings.h"

#include <cmath>

#include "ikpd/pd/gain_options.h"
#include "fields.h"
#include "pd_checks.h"

namespace ikpd::pd {

Status PdSettings::Validate() const {
  using describe::CheckRange;
  using describe::FirstError;
  using describe::PdOptions;
  if (const Status s = FirstError({CheckRange<PdOptions, "kp">(kp), CheckRange<PdOptions, "kd">(kd)}); !s) return s;
  if (static_cast<unsigned>(integrator) > 3u) return Error("integrator: unknown");
  if (const Status s = CheckRange<PdOptions, "dtMax">(dtMax); !s) return s;
  if (static_cast<unsigned>(substepSplit) > 1u) return Error("substepSplit: unknown");
  if (static_cast<unsigned>(onUnstable) > 1u) return Error("onUnstable: unknown");
  if (const Status s = FirstError({CheckRange<PdOptions, "maxVelocity">(maxVelocity),
                                   CheckRange<PdOptions, "feedForward">(feedForward), CheckRange<PdOptions, "ki">(ki),
                                   CheckRange<PdOptions, "maxIntegral">(maxIntegral)});
      !s) {
    return s;
  }
  if (static_cast<unsigned>(targetMotion) > 1u) return Error("targetMotion: unknown");
  if (const Status s = FirstError({CheckRange<PdOptions, "restTolerance">(restTolerance),
                                   CheckRange<PdOptions, "restVelocity">(restVelocity),
                                   CheckRange<PdOptions, "blendOutEnergy">(blendOutEnergy),
                                   CheckRange<PdOptions, "blendOutTime">(blendOutTime)});
      !s) {
    return s;
  }
  if (static_cast<unsigned>(method) > 1u) return Error("method: unknown");
  return CheckRange<PdOptions, "maxAngle">(maxAngle);
}

Status SettingsFromSettleTime(double settleTime, double dampingRatio, PdSettings* out) {
  Gains g;
  if (Status s = GainsFromSettleTime(settleTime, dampingRatio, &g); !s) return s;
  out->kp = g.kp;
  out->kd = g.kd;
  return Ok();
}

Status GainOptions::Resolve(PdSettings* out) const {
  if (kp && settleTime) return Error("settleTime: give either settleTime or kp, not both");
  if (kd && damping) return Error("damping: give either damping or kd, not both");
  const double zeta = damping.value_or(kDefaultDamping);
  PdSettings s = *out;
  if (kp) {
    if (!std::isfinite(*kp) || *kp <= 0.0) return Error("kp: must be a finite number > 0");
    if (!std::isfinite(zeta) || zeta < 0.0) return Error("damping: ratio must be a finite number >= 0");
    s.kp = *kp;
    s.kd = 2.0 * zeta * std::sqrt(*kp);
    if (!std::isfinite(s.kd)) return Error("damping: too large");
  } else if (Status st = SettingsFromSettleTime(settleTime.value_or(kDefaultSettleTime), zeta, &s); !st) {
    return st;
  }
  if (kd) s.kd = *kd;
  out->kp = s.kp;
  out->kd = s.kd;
  return Ok();
}

}  // namespace ikpd::pd
