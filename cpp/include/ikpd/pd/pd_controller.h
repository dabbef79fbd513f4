// ikpd::pd — one PD controller over any chart (charts.h): the update, blend-out
// and query state machine, written once (docs/pd/pd.md). ScalarPD, AnglePD, Vec3PD
// and QuatPD (controllers.h) are thin wrappers over PdController<Chart>.
// Plain class, no virtual calls, no allocation. Member definitions live in the
// library (explicitly instantiated for the charts in charts.h).
#pragma once

#include "ikpd/pd/charts.h"

namespace ikpd::pd {

struct QuatPdLanes;  // UpdateQuatPDs' lanes (controllers.h)

template <PdChart C>
class PdController {
 public:
  using Value = typename C::Value;
  using Velocity = typename C::Velocity;
  using State = PdState<C>;

  PdController() = default;
  // Invalid settings leave the defaults (check with PdSettings::Validate first).
  explicit PdController(const PdSettings& settings, C chart = C{});

  // Validates and applies new settings; keeps the state (re-clamped to the new
  // limits). On error nothing changes.
  Status Configure(const PdSettings& settings);
  const PdSettings& settings() const { return settings_; }

  // Advances by dt >= 0 toward `target` (reached at the end of the step). The target
  // moves during the step at targetVelocity when given, else linearly from the last
  // target when targetMotion is 'linear' (after the first update), else it holds.
  // dt = 0 changes nothing but the remembered target (and its velocity).
  // A successful Update cancels a blend-out. Errors ("dt: ...", "target: ...",
  // "targetVelocity: ...", "dt: the integrator diverged ...") leave the state unchanged.
  Status Update(double dt, const Value& target);
  Status Update(double dt, const Value& target, const Velocity& targetVelocity);

  const Value& value() const { return state_.value; }
  const Velocity& velocity() const { return state_.velocity; }
  const Value& target() const { return state_.target; }
  const Velocity& targetVelocity() const { return state_.targetVelocity; }

  // Error <= restTolerance and |velocity| <= restVelocity, relative to the current target.
  bool AtRest() const;
  // Spring energy kp·|e|²/2 + |ė|²/2 in chart units, relative to the current target.
  double Energy() const;

  // State at time t from now (t < 0: in the past) on the current segment: the exact
  // solution with the last target (and its velocity) continued, on the log-map chart,
  // no integral growth, no velocity limit. Error "t: ..." when t is not finite or the
  // state overflows.
  Status StateAt(double t, Value* value, Velocity* velocity) const;
  // Seconds until the error stays <= tolerance on the current segment (exact; +inf if
  // never, 0 if already). Error "tolerance: ..." unless tolerance is finite and > 0.
  Status TimeToSettle(double tolerance, double* seconds) const;

  // Blend-out: a spring toward `rest` (target velocity 0) until Energy() <=
  // blendOutEnergy, then a linear blend reaching exactly `rest` with velocity 0
  // after blendOutTime (at once when blendOutTime is 0), then kDone (the state
  // stays at rest, integral cleared). Update() cancels it. Errors change nothing.
  Status UpdateBlendOut(double dt, const Value& rest);
  BlendPhase blendPhase() const { return state_.phase; }

  // IK-offset workflow (charts with OffsetChart): the controller smooths the offset
  // of `desired` from `animation`; `out` = animation with the smoothed offset.
  // ReleaseOffset blends the offset out (UpdateBlendOut toward the origin).
  // Either commits only when `out` is usable too.
  // (Member templates so that charts without the workflow never instantiate them.)
  template <OffsetChart D = C>
  Status TrackOffset(double dt, const Value& animation, const Value& desired, Value* out);
  template <OffsetChart D = C>
  Status ReleaseOffset(double dt, const Value& animation, Value* out);

 protected:
  // Sets the state (already validated); clears target, integral and blend-out.
  void ResetState(const Value& value, const Velocity& velocity);
  const C& chart() const { return chart_; }

 private:
  friend struct QuatPdLanes;
  Status Advance(double dt, const Value& target, const Velocity* targetVelocity);
  // Chart of the current state at its target on the log map (queries).
  int QueryChart(PdSettings* s, ChartState* c, double* q) const;

  PdSettings settings_{};
  C chart_{};
  State state_{};
  StepCoeffsCache steps_;  // coefficients of the fused exact step (charts with FastStep)
};

extern template class PdController<ScalarChart>;
extern template class PdController<Vec3Chart>;
extern template class PdController<QuatChart>;

}  // namespace ikpd::pd
