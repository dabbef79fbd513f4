// Settings validation and the gain rules (settleTime or kp, damping or kd): the one
// place every controller, batch and binding takes its settings through.
#include "ikpd/pd/settings.h"

#include <cmath>

#include "ikpd/pd/gain_options.h"
#include "pd_checks.h"

namespace ikpd::pd {

using detail::FiniteD;

Status PdSettings::Validate() const {
  if (!FiniteD(kp) || kp <= 0.0) return Error("kp: must be a finite number > 0");
  if (!FiniteD(kd) || kd < 0.0) return Error("kd: must be a finite number >= 0");
  if (static_cast<unsigned>(integrator) > 3u) return Error("integrator: unknown");
  if (!FiniteD(dtMax) || dtMax <= 0.0) return Error("dtMax: must be a finite number > 0");
  if (static_cast<unsigned>(substepSplit) > 1u) return Error("substepSplit: unknown");
  if (static_cast<unsigned>(onUnstable) > 1u) return Error("onUnstable: unknown");
  if (std::isnan(maxVelocity) || maxVelocity <= 0.0) return Error("maxVelocity: must be > 0 (Infinity for no limit)");
  if (!FiniteD(feedForward) || feedForward < 0.0 || feedForward > 1.0) return Error("feedForward: must be in [0, 1]");
  if (!FiniteD(ki) || ki < 0.0) return Error("ki: must be a finite number >= 0");
  if (std::isnan(maxIntegral) || maxIntegral < 0.0) return Error("maxIntegral: must be >= 0 (Infinity for no limit)");
  if (static_cast<unsigned>(targetMotion) > 1u) return Error("targetMotion: unknown");
  if (!FiniteD(restTolerance) || restTolerance < 0.0) return Error("restTolerance: must be a finite number >= 0");
  if (!FiniteD(restVelocity) || restVelocity < 0.0) return Error("restVelocity: must be a finite number >= 0");
  if (!FiniteD(blendOutEnergy) || blendOutEnergy < 0.0) return Error("blendOutEnergy: must be a finite number >= 0");
  if (!FiniteD(blendOutTime) || blendOutTime < 0.0) return Error("blendOutTime: must be a finite number >= 0");
  if (static_cast<unsigned>(method) > 1u) return Error("method: unknown");
  if (!FiniteD(maxAngle) || maxAngle <= 0.0 || maxAngle > detail::kPiD + 1e-6) return Error("maxAngle: must be in (0, π]");
  return Ok();
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
