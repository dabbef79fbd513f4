#include "ikpd/pd/gain_options.h"

#include <cmath>

namespace ikpd::pd {

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
