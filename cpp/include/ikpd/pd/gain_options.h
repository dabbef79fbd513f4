// ikpd — PD gains from the ways users state them (docs/pd/pd.md): either a settle
// time or kp, either a damping ratio or kd. The library's rules live here so
// that C++ and JS users get the same ones.
#pragma once

#include <optional>

#include "ikpd/pd/controllers.h"

namespace ikpd::pd {

// How the stiffness and damping of a controller are given. Empty fields are
// not given. Rules (errors name the option):
//   - settleTime and kp exclude each other ("settleTime: give either settleTime or kp, not both");
//   - damping (ratio ζ) and kd exclude each other ("damping: give either damping or kd, not both");
//   - neither settleTime nor kp: settleTime 1 s; no damping: ζ = 1 (critical);
//   - kp given: kd = 2ζ√kp; settleTime given: kp = (2π/settleTime)², kd = 2ζ√kp;
//   - kd given: used as is.
struct GainOptions {
  std::optional<double> kp;
  std::optional<double> kd;
  std::optional<double> settleTime;
  std::optional<double> damping;

  static constexpr double kDefaultSettleTime = 1.0;  // seconds
  static constexpr double kDefaultDamping = 1.0;     // critical

  // Writes out->kp and out->kd (only) when the options are consistent and in range.
  Status Resolve(PdSettings* out) const;
};

}  // namespace ikpd::pd
