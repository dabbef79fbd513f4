// UpdateQuatPDs (controllers.h): QuatPD's log-map exact step, the
// velocity-limited sub-steps included, for many controllers at once in float
// SIMD lanes (docs/pd/pd.md, "Many quaternion PDs in lanes"). Stages: check
// every input, step the controllers the lanes do not take through their own
// Update, then gather the others kWide at a time, step them in lanes and
// commit each lane (a lane whose result is not finite and about unit goes
// through Update instead).
#include <algorithm>
#include <cmath>

#include "ikpd/pd/controllers.h"
#include "../simd/lanes.h"
#include "../simd/vec.h"
#include "pd_checks.h"
#include "quat_pd_kernel.h"

namespace ikpd::pd {

using simd::Q4;
using simd::V3;

// A friend of QuatPD and of PdController<QuatChart>: reads and commits their state.
struct QuatPdLanes {
  using Base = PdController<QuatChart>;
  static constexpr std::size_t kLanes = simd::kWide;

  // One lane group, structure of arrays (padding lanes: identity, at rest, no steps).
  struct Group {
    alignas(32) float q[4][kLanes];      // in: the value; out: the new value
    alignas(32) float omega[3][kLanes];  // in: the angular velocity; out: the new one
    alignas(32) float g[4][kLanes];      // in: the target; out: normalized, in the value's hemisphere
    alignas(32) float raw[4][kLanes];    // out: the raw component velocity (QuatChart::RawVelocity)
    alignas(32) float k[4][kLanes];      // exact-step coefficients ee, ev, ve, vv of the sub-step
    alignas(32) float maxSpeed[kLanes];
    alignas(32) float maxMove[kLanes];  // maxVelocity · sub-step length
    alignas(32) float steps[kLanes];
    std::size_t item[kLanes];
    std::size_t size = 0;
    int mostSteps = 0;
  };

  // The sub-step plan of the last settings asked (every controller of a look-at shares it).
  struct Plan {
    double dt = 0.0, dtMax = 0.0, maxVelocity = 0.0;
    SubstepSplit split = SubstepSplit::kEqual;
    bool valid = false, held = false;
    int count = 0;
    double length = 0.0;
  };

  static Base& Of(QuatPD& pd) { return pd; }

  // Whether the lanes take this controller's Update(dt, ·): what QuatChart::FastStep
  // takes (log map, 'exact', no integral, a held target), with HeldExactSteps' plan.
  static bool Takes(const Base& c, double dt, Plan* plan) {
    const PdSettings& s = c.settings_;
    if (s.method != RotationUpdate::kLogMap || s.integrator != Integrator::kExact || s.ki != 0.0) return false;
    if (s.targetMotion == TargetMotion::kLinear && c.state_.hasTarget) return false;  // a moving target
    const bool limited = !std::isinf(s.maxVelocity);
    if (!plan->valid || plan->dt != dt || plan->dtMax != s.dtMax || plan->split != s.substepSplit ||
        std::isinf(plan->maxVelocity) == limited) {
      *plan = {dt, s.dtMax, s.maxVelocity, s.substepSplit, true, true, 1, dt};
      if (limited) plan->held = HeldStepPlan(s, dt, &plan->count, &plan->length);
    }
    return plan->held;
  }

  static void Add(Group* grp, Base& c, std::size_t item, const glm::quat& target, const Plan& plan) {
    const std::size_t l = grp->size++;
    const StepCoeffs& k = c.steps_.Get(c.settings_.kp, c.settings_.kd, plan.length);
    const glm::dquat& q = c.state_.value;
    const glm::dvec3& w = c.state_.velocity;
    grp->q[0][l] = static_cast<float>(q.x), grp->q[1][l] = static_cast<float>(q.y);
    grp->q[2][l] = static_cast<float>(q.z), grp->q[3][l] = static_cast<float>(q.w);
    grp->omega[0][l] = static_cast<float>(w.x), grp->omega[1][l] = static_cast<float>(w.y);
    grp->omega[2][l] = static_cast<float>(w.z);
    grp->g[0][l] = target.x, grp->g[1][l] = target.y, grp->g[2][l] = target.z, grp->g[3][l] = target.w;
    grp->k[0][l] = static_cast<float>(k.ee), grp->k[1][l] = static_cast<float>(k.ev);
    grp->k[2][l] = static_cast<float>(k.ve), grp->k[3][l] = static_cast<float>(k.vv);
    grp->maxSpeed[l] = static_cast<float>(c.settings_.maxVelocity);
    grp->maxMove[l] = static_cast<float>(c.settings_.maxVelocity * plan.length);
    grp->steps[l] = static_cast<float>(plan.count);
    grp->item[l] = item;
    grp->mostSteps = std::max(grp->mostSteps, plan.count);
  }

  // The lanes' step: QuatChart::FastStep's stages (log, Jacobian, sub-steps with
  // ChartStep's velocity limit, exp) in F, after the target's normalization.
  template <class F>
  static void Step(Group* grp) {
    for (std::size_t l = grp->size; l < kLanes; ++l) {  // padding
      for (int i = 0; i < 4; ++i) grp->q[i][l] = grp->g[i][l] = i == 3 ? 1.0f : 0.0f, grp->k[i][l] = 0.0f;
      for (int i = 0; i < 3; ++i) grp->omega[i][l] = 0.0f;
      grp->maxSpeed[l] = grp->maxMove[l] = grp->steps[l] = 0.0f;
    }
    const auto at = [](const float* field) { return simd::Load1<F>(field, 0); };
    const Q4<F> q{at(grp->q[0]), at(grp->q[1]), at(grp->q[2]), at(grp->q[3])};
    Q4<F> g{at(grp->g[0]), at(grp->g[1]), at(grp->g[2]), at(grp->g[3])};
    g = simd::Normalize(g);  // finite, its length squared in [1e-30, 1e30] (checked)
    const V3<F> omega{at(grp->omega[0]), at(grp->omega[1]), at(grp->omega[2])};
    const F ee = at(grp->k[0]), ev = at(grp->k[1]), ve = at(grp->k[2]), vv = at(grp->k[3]);
    const F maxSpeed = at(grp->maxSpeed), maxMove = at(grp->maxMove), steps = at(grp->steps);
    kernel::HalfAngle<F> h0;
    V3<F> u = kernel::QuatLog(q, &g, &h0);
    V3<F> w = kernel::JInvTimes(u, h0, omega);
    for (int step = 0; step < grp->mostSteps; ++step) {
      // HeldExactSteps: ApplyExactStep with the target, its velocity and the offset all 0,
      // then LimitSubstep: the velocity's norm, then the move's, at most their limits.
      const V3<F> u0 = u;
      V3<F> un = u0 * ee + w * ev;
      V3<F> wn = u0 * ve + w * vv;
      const F speed = simd::Sqrt(Dot(wn, wn));
      wn = simd::Select(speed > maxSpeed, wn * (maxSpeed / speed), wn);
      const V3<F> d = un - u0;
      const F moved = simd::Sqrt(Dot(d, d));
      un = simd::Select(moved > maxMove, u0 + d * (maxMove / moved), un);
      const auto live = F(static_cast<float>(step)) < steps;
      u = simd::Select(live, un, u);
      w = simd::Select(live, wn, w);
    }
    const kernel::HalfAngle<F> h1 = kernel::HalfAngleOf(u);
    const Q4<F> nq = kernel::QuatExp(u, h1, g);
    const V3<F> nw = kernel::JTimes(u, h1, w);
    // RawVelocity: ½·(0, ω)·q.
    const Q4<F> raw = Q4<F>{nw.x, nw.y, nw.z, F(0.0f)} * nq;
    const F fields[] = {nq.x, nq.y, nq.z, nq.w, nw.x, nw.y, nw.z, g.x, g.y, g.z, g.w};
    float* out[] = {grp->q[0], grp->q[1], grp->q[2], grp->q[3], grp->omega[0], grp->omega[1], grp->omega[2],
                    grp->g[0], grp->g[1], grp->g[2], grp->g[3]};
    for (int i = 0; i < 11; ++i) simd::Store1(out[i], 0, fields[i]);
    simd::Store1(grp->raw[0], 0, raw.x * 0.5f), simd::Store1(grp->raw[1], 0, raw.y * 0.5f);
    simd::Store1(grp->raw[2], 0, raw.z * 0.5f), simd::Store1(grp->raw[3], 0, raw.w * 0.5f);
  }

  // Steps a full or final group and commits each lane as Advance would; a lane
  // not finite or far from unit (a huge velocity) goes through Update.
  static Status Run(Group* grp, std::span<QuatPD> pds, std::span<const glm::quat> targets, double dt) {
    if (grp->size == 0) return Ok();
    Step<simd::Wide>(grp);
    const std::size_t size = grp->size;
    grp->size = 0;
    grp->mostSteps = 0;
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = grp->item[l];
      const glm::quat value(grp->q[3][l], grp->q[0][l], grp->q[1][l], grp->q[2][l]);
      const glm::vec3 velocity(grp->omega[0][l], grp->omega[1][l], grp->omega[2][l]);
      const float nn = glm::dot(value, value);
      if (!IsFinite(velocity) || !(nn > 0.5f && nn < 2.0f)) {  // NaN fails the length test
        if (Status s = pds[i].Update(dt, targets[i]); !s) return s;
        continue;
      }
      Base& c = Of(pds[i]);
      PdState<QuatChart>& st = c.state_;
      st.value = glm::dquat(value);
      st.velocity = glm::dvec3(velocity);
      st.extra.raw = glm::dvec4(grp->raw[0][l], grp->raw[1][l], grp->raw[2][l], grp->raw[3][l]);
      st.target = glm::dquat(grp->g[3][l], grp->g[0][l], grp->g[1][l], grp->g[2][l]);
      st.targetVelocity = glm::dvec3(0.0);
      st.hasTarget = true;
      st.phase = BlendPhase::kNone;
      if (c.settings_.maxAngle < detail::kPiD) c.chart_.Clamp(c.settings_, &st);
    }
    return Ok();
  }
};

Status UpdateQuatPDs(double dt, std::span<QuatPD> pds, std::span<const glm::quat> targets) {
  if (targets.size() != pds.size()) return Error("targets: needs one target per controller");
  if (Status s = detail::CheckDt(dt); !s) return s;
  for (const glm::quat& tf : targets) {
    const glm::dquat t(tf);
    if (!detail::FiniteQ(t)) return Error("target: must be finite");
    if (!detail::UsableQuat(t)) return Error("target: quaternion must not be zero");
  }
  QuatPdLanes::Group grp;
  QuatPdLanes::Plan plan;
  for (std::size_t i = 0; i < pds.size(); ++i) {
    QuatPdLanes::Base& c = QuatPdLanes::Of(pds[i]);
    // dt 0 remembers the target only; a target whose float length squared leaves
    // [1e-30, 1e30] is normalized in double.
    const float tt = glm::dot(targets[i], targets[i]);
    if (dt == 0.0 || !(tt > 1e-30f && tt < 1e30f) || !QuatPdLanes::Takes(c, dt, &plan)) {
      if (Status s = pds[i].Update(dt, targets[i]); !s) return s;
      continue;
    }
    QuatPdLanes::Add(&grp, c, i, targets[i], plan);
    if (grp.size == QuatPdLanes::kLanes) {
      if (Status s = QuatPdLanes::Run(&grp, pds, targets, dt); !s) return s;
    }
  }
  return QuatPdLanes::Run(&grp, pds, targets, dt);
}

}  // namespace ikpd::pd
