// The PD controller state machine, once for every chart: update (validation,
// target motion, chart step, commit on success), blend-out, queries.
#include "ikpd/pd/pd_controller.h"

#include <cmath>
#include <optional>

#include "pd_checks.h"

namespace ikpd::pd {

using detail::CheckDt;
using detail::FiniteD;

template <class C>
concept HasFastStep = requires(const C c, const PdSettings& s, const PdState<C>& st, const typename C::Value& g,
                               const typename C::Velocity& tv, StepCoeffsCache* cache, PdStep<C>* next) {
  { c.FastStep(s, st, g, tv, 1.0, cache, next) } -> std::same_as<bool>;
};

template <PdChart C>
PdController<C>::PdController(const PdSettings& settings, C chart) : chart_(chart) {
  if (settings.Validate()) settings_ = settings;
}

template <PdChart C>
Status PdController<C>::Configure(const PdSettings& settings) {
  if (Status s = settings.Validate(); !s) return s;
  settings_ = settings;
  chart_.Clamp(settings_, &state_);
  return Ok();
}

template <PdChart C>
void PdController<C>::ResetState(const Value& value, const Velocity& velocity) {
  state_.value = value;
  state_.velocity = velocity;
  state_.extra = typename C::Extra{};
  if constexpr (requires { state_.extra.raw; }) state_.extra.raw = C::RawVelocity(velocity, value);
  state_.target = value;
  state_.targetVelocity = Velocity(0.0);
  for (double& i : state_.integral) i = 0.0;
  state_.hasTarget = false;
  state_.phase = BlendPhase::kNone;
  chart_.Clamp(settings_, &state_);
}

template <PdChart C>
Status PdController<C>::Update(double dt, const Value& target) {
  const Status s = Advance(dt, target, nullptr);
  if (s) state_.phase = BlendPhase::kNone;  // only a successful Update cancels a blend-out
  return s;
}

template <PdChart C>
Status PdController<C>::Update(double dt, const Value& target, const Velocity& targetVelocity) {
  const Status s = Advance(dt, target, &targetVelocity);
  if (s) state_.phase = BlendPhase::kNone;  // only a successful Update cancels a blend-out
  return s;
}

template <PdChart C>
Status PdController<C>::Advance(double dt, const Value& targetIn, const Velocity* targetVelocity) {
  if (Status s = CheckDt(dt); !s) return s;
  Value g;
  if (Status s = chart_.Target(state_, targetIn, &g); !s) return s;
  // Settings and state for this step: the controller's own unless the chart adjusts them.
  std::optional<PdSettings> localSettings;
  std::optional<State> localState;
  chart_.Localize(g, settings_, state_, &localSettings, &localState);
  const PdSettings& s = localSettings ? *localSettings : settings_;
  const State& self = localState ? *localState : state_;
  Velocity tv(0.0);
  if (targetVelocity) {
    if (Status st = chart_.TargetVelocity(*targetVelocity, g, &tv); !st) return st;
  } else if (s.targetMotion == TargetMotion::kLinear && self.hasTarget && dt > 0.0) {
    tv = chart_.LinearTargetVelocity(s, self.target, g, dt);
  }
  if (dt == 0.0) {  // a no-op on the state; the new target is remembered
    state_.target = chart_.Canonical(g);
    state_.targetVelocity = tv;
    state_.hasTarget = true;
    return Ok();
  }
  ChartState c;
  for (int i = 0; i < 4; ++i) c.integral[i] = self.integral[i];
  typename C::Step next;
  bool fast = false;
  if constexpr (HasFastStep<C>) fast = chart_.FastStep(s, self, g, tv, dt, &steps_, &next);
  if (!fast) {
    double q[4] = {0, 0, 0, 0};
    const int n = chart_.ChartVelocity(s, self, g, tv, q);
    chart_.ToChart(s, self, g, &c);
    if (Status st = ChartStep(s, n, dt, q, &c); !st) return st;
    chart_.FromChart(s, self, g, c, &next);
  }
  if (!chart_.Finite(next)) return Error(detail::kDiverged);
  state_.value = next.value;
  state_.velocity = next.velocity;
  state_.extra = next.extra;
  for (int i = 0; i < 4; ++i) state_.integral[i] = c.integral[i];
  state_.target = chart_.Canonical(g);
  state_.targetVelocity = tv;
  state_.hasTarget = true;
  chart_.Clamp(settings_, &state_);
  return Ok();
}

template <PdChart C>
bool PdController<C>::AtRest() const {
  return chart_.AtRest(settings_, state_);
}

template <PdChart C>
double PdController<C>::Energy() const {
  return chart_.Energy(settings_, state_);
}

template <PdChart C>
int PdController<C>::QueryChart(PdSettings* s, ChartState* c, double* q) const {
  *s = settings_;
  s->method = RotationUpdate::kLogMap;
  for (int i = 0; i < 4; ++i) c->integral[i] = state_.integral[i];
  chart_.ToChart(*s, state_, state_.target, c);
  return chart_.ChartVelocity(*s, state_, state_.target, state_.targetVelocity, q);
}

template <PdChart C>
Status PdController<C>::StateAt(double t, Value* value, Velocity* velocity) const {
  if (!FiniteD(t)) return Error("t: must be a finite number");
  PdSettings s;
  ChartState c, out;
  double q[4] = {0, 0, 0, 0};
  const int n = QueryChart(&s, &c, q);
  SegmentAt(s, n, t, q, c, out.u, out.w);
  typename C::Step r;
  chart_.FromChart(s, state_, state_.target, out, &r);
  if (!detail::Finite(r.value) || !detail::Finite(r.velocity)) {
    return Error("t: too far back in time (the state overflows)");
  }
  *value = r.value;
  *velocity = r.velocity;
  return Ok();
}

template <PdChart C>
Status PdController<C>::TimeToSettle(double tolerance, double* seconds) const {
  if (!FiniteD(tolerance) || tolerance <= 0.0) return Error("tolerance: must be a finite number > 0");
  PdSettings s;
  ChartState c;
  double q[4] = {0, 0, 0, 0};
  const int n = QueryChart(&s, &c, q);
  *seconds = SegmentSettle(s, n, q, c, tolerance);
  return Ok();
}

template <PdChart C>
Status PdController<C>::UpdateBlendOut(double dt, const Value& restIn) {
  if (Status s = CheckDt(dt); !s) return s;
  Value rest;
  if (Status s = chart_.Rest(restIn, &rest); !s) return s;
  State& st = state_;
  if (st.phase == BlendPhase::kNone || st.phase == BlendPhase::kSpring) {
    const Velocity zero(0.0);
    if (Status s = Advance(dt, rest, &zero); !s) return s;
    st.phase = BlendPhase::kSpring;
    if (Energy() <= settings_.blendOutEnergy) {
      st.phase = settings_.blendOutTime > 0.0 ? BlendPhase::kLinear : BlendPhase::kDone;
      st.blendFrom = chart_.BlendFrom(st, rest);
      st.blendElapsed = 0.0;
      if (st.phase == BlendPhase::kDone) {
        st.value = rest;
        st.velocity = Velocity(0.0);
        st.extra = typename C::Extra{};
      }
    }
    return Ok();
  }
  st.target = rest;
  st.targetVelocity = Velocity(0.0);
  if (st.phase == BlendPhase::kLinear) {
    st.blendElapsed += dt;
    // A blendOutTime lowered to 0 (or -0) since the blend began finishes it.
    const double f = settings_.blendOutTime > 0.0 ? st.blendElapsed / settings_.blendOutTime : 1.0;
    if (f < 1.0) {
      chart_.BlendAt(settings_, rest, f, &st);
      return Ok();
    }
    st.phase = BlendPhase::kDone;
  }
  st.value = rest;
  st.velocity = Velocity(0.0);
  st.extra = typename C::Extra{};
  for (double& i : st.integral) i = 0.0;
  return Ok();
}

template <PdChart C>
template <OffsetChart D>
Status PdController<C>::TrackOffset(double dt, const Value& animation, const Value& desired, Value* out) {
  Value a, offset;
  if (Status s = chart_.OffsetTarget(animation, desired, &a, &offset); !s) return s;
  PdController next = *this;  // commit only when the output is usable too
  if (Status s = next.Update(dt, offset); !s) return s;
  Value result;
  if (Status s = chart_.ApplyOffset(a, next.state_.value, &result); !s) return s;
  *this = next;
  *out = result;
  return Ok();
}

template <PdChart C>
template <OffsetChart D>
Status PdController<C>::ReleaseOffset(double dt, const Value& animation, Value* out) {
  Value a;
  if (Status s = chart_.OffsetAnimation(animation, &a); !s) return s;
  PdController next = *this;  // commit only when the output is usable too
  if (Status s = next.UpdateBlendOut(dt, C::Origin()); !s) return s;
  Value result;
  if (Status s = chart_.ApplyOffset(a, next.state_.value, &result); !s) return s;
  *this = next;
  *out = result;
  return Ok();
}

template class PdController<ScalarChart>;
template class PdController<Vec3Chart>;
template class PdController<QuatChart>;
template Status PdController<ScalarChart>::TrackOffset(double, const double&, const double&, double*);
template Status PdController<ScalarChart>::ReleaseOffset(double, const double&, double*);
template Status PdController<QuatChart>::TrackOffset(double, const glm::dquat&, const glm::dquat&, glm::dquat*);
template Status PdController<QuatChart>::ReleaseOffset(double, const glm::dquat&, glm::dquat*);

}  // namespace ikpd::pd
