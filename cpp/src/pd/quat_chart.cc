// The quaternion chart (charts.h), with the fused exact step of quat_pd_kernel.h.
#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "ikpd/pd/chart_step.h"
#include "ikpd/pd/charts.h"
#include "pd_checks.h"
#include "quat_pd_kernel.h"

namespace ikpd::pd {
namespace {

using detail::FiniteD;
using detail::FiniteQ;
using detail::FiniteV;
using detail::UsableQuat;

// Unit quaternion of a finite input, scaled by its largest component first (no
// overflow for huge components); `fallback` when it is (nearly) zero. Unlike
// NormalizeOr it multiplies by reciprocals: the rounding the 'componentwise' results rely on.
glm::dquat NormalizeQuatOr(const glm::dquat& q, const glm::dquat& fallback) {
  const double m = std::max({std::fabs(q.x), std::fabs(q.y), std::fabs(q.z), std::fabs(q.w)});
  if (!(m > 1e-150) || !std::isfinite(m)) return fallback;
  const glm::dquat r = q * (1.0 / m);
  return r * (1.0 / std::sqrt(glm::dot(r, r)));
}

// The target's copy in q's hemisphere.
glm::dquat Hemisphere(const glm::dquat& g, const glm::dquat& q) { return glm::dot(q, g) < 0.0 ? -g : g; }

glm::dquat Slerp(const glm::dquat& a, const glm::dquat& b, double s) {
  const glm::dvec3 u = QuatLogChart(b, a);  // b = exp(u)·a
  return QuatExpChart(u * s, a);
}

}  // namespace

glm::dvec4 QuatChart::RawVelocity(const glm::dvec3& omega, const glm::dquat& q) {
  const glm::dquat d = glm::dquat(0.0, omega.x, omega.y, omega.z) * q;
  return 0.5 * glm::dvec4(d.x, d.y, d.z, d.w);
}

Status QuatChart::Target(const State& st, const glm::dquat& in, glm::dquat* g) const {
  if (!FiniteQ(in)) return Error("target: must be finite");
  if (!UsableQuat(in)) return Error("target: quaternion must not be zero");
  *g = Hemisphere(NormalizeSafe(in), st.value);  // the target's hemisphere follows the state
  return Ok();
}

Status QuatChart::Rest(const glm::dquat& in, glm::dquat* rest) const {
  *rest = in;  // always the identity (UpdateBlendOut of QuatPD)
  return Ok();
}

Status QuatChart::TargetVelocity(const glm::dvec3& in, const glm::dquat&, glm::dvec3* out) const {
  if (!FiniteV(in)) return Error("targetVelocity: must be finite");
  *out = in;
  return Ok();
}

glm::dvec3 QuatChart::LinearTargetVelocity(const PdSettings&, const glm::dquat& prev, const glm::dquat& g,
                                           double dt) const {
  return -QuatLogChart(prev, g) / dt;  // prev = exp(−ω dt)·g
}

int QuatChart::ChartVelocity(const PdSettings& s, const State& st, const glm::dquat& g, const glm::dvec3& tv,
                             double* q) const {
  if (s.method == RotationUpdate::kLogMap) {
    q[0] = tv.x, q[1] = tv.y, q[2] = tv.z, q[3] = 0.0;
    return 3;
  }
  const glm::dvec4 d = RawVelocity(tv, Hemisphere(g, st.value));
  for (int i = 0; i < 4; ++i) q[i] = d[i];
  return 4;
}

void QuatChart::ToChart(const PdSettings& s, const State& st, const glm::dquat& g, ChartState* c) const {
  if (s.method == RotationUpdate::kLogMap) {
    const glm::dvec3 u = QuatLogChart(st.value, g);
    const glm::dvec3 w = LeftJacobianInverseTimes(u, st.velocity);
    for (int i = 0; i < 3; ++i) {
      c->u[i] = u[i];
      c->w[i] = w[i];
    }
    c->u[3] = c->w[3] = 0.0;
  } else {
    const glm::dquat gh = Hemisphere(g, st.value);
    const double uq[4] = {st.value.x - gh.x, st.value.y - gh.y, st.value.z - gh.z, st.value.w - gh.w};
    for (int i = 0; i < 4; ++i) {
      c->u[i] = uq[i];
      c->w[i] = st.extra.raw[i];
    }
  }
}

void QuatChart::FromChart(const PdSettings& s, const State& st, const glm::dquat& g, const ChartState& c,
                          Step* next) const {
  if (s.method == RotationUpdate::kLogMap) {
    const glm::dvec3 u(c.u[0], c.u[1], c.u[2]), w(c.w[0], c.w[1], c.w[2]);
    next->value = QuatExpChart(u, g);
    next->velocity = LeftJacobianTimes(u, w);
    next->extra.raw = RawVelocity(next->velocity, next->value);
  } else {
    const glm::dquat gh = Hemisphere(g, st.value);
    const glm::dquat r(gh.w + c.u[3], gh.x + c.u[0], gh.y + c.u[1], gh.z + c.u[2]);
    next->value = NormalizeQuatOr(r, st.value);
    next->extra.raw = glm::dvec4(c.w[0], c.w[1], c.w[2], c.w[3]);
    // ω = 2·(q̇ q*).xyz
    const glm::dquat qd(c.w[3], c.w[0], c.w[1], c.w[2]);
    const glm::dquat o = qd * glm::conjugate(next->value);
    next->velocity = 2.0 * glm::dvec3(o.x, o.y, o.z);
  }
}

bool QuatChart::Finite(const Step& step) const {
  const glm::dvec4& r = step.extra.raw;
  return FiniteQ(step.value) && FiniteV(step.velocity) && FiniteD(r.x + r.y + r.z + r.w);
}

bool QuatChart::FastStep(const PdSettings& s, const State& st, const glm::dquat& g, const glm::dvec3& tv, double dt,
                         StepCoeffsCache* cache, Step* next) const {
  if (s.method != RotationUpdate::kLogMap || s.integrator != Integrator::kExact || s.ki != 0.0 ||
      tv != glm::dvec3(0.0)) {
    return false;
  }
  simd::Q4<double> kq;
  simd::V3<double> kw;
  if (std::isinf(s.maxVelocity)) {
    const StepCoeffs& k = cache->Get(s.kp, s.kd, dt);
    kernel::QuatPdExactStep<double>({k.ee, k.ev, k.ve, k.vv}, simd::FromGlm(st.value), simd::FromGlm(st.velocity),
                                    simd::FromGlm(g), &kq, &kw);
  } else {
    // A velocity limit (the look-at's maxSpeed): ChartStep's sub-steps between
    // the kernel's log and exp (docs/pd/pd.md, "Velocity limit").
    simd::Q4<double> gq = simd::FromGlm(g);
    kernel::HalfAngle<double> h0;
    const simd::V3<double> u0 = kernel::QuatLog(simd::FromGlm(st.value), &gq, &h0);
    const simd::V3<double> w0 = kernel::JInvTimes(u0, h0, simd::FromGlm(st.velocity));
    double u[3] = {u0.x, u0.y, u0.z}, w[3] = {w0.x, w0.y, w0.z};
    if (!HeldExactSteps(s, 3, dt, cache, u, w)) return false;
    const simd::V3<double> u1{u[0], u[1], u[2]}, w1{w[0], w[1], w[2]};
    const kernel::HalfAngle<double> h1 = kernel::HalfAngleOf(u1);
    kq = kernel::QuatExp(u1, h1, gq);
    kw = kernel::JTimes(u1, h1, w1);
  }
  next->value = simd::ToGlm(kq);
  next->velocity = simd::ToGlm(kw);
  next->extra.raw = RawVelocity(next->velocity, next->value);
  return true;
}

void QuatChart::Clamp(const PdSettings& s, State* st) const {
  if (s.maxAngle >= detail::kPiD) return;
  const double wMin = std::cos(0.5 * s.maxAngle);
  glm::dquat& q = st->value;
  const double sign = q.w < 0.0 ? -1.0 : 1.0;
  if (sign * q.w >= wMin) return;
  const glm::dvec3 v(q.x, q.y, q.z);
  const double vl = glm::length(v);
  const glm::dvec3 axis = vl > 1e-300 ? sign * v / vl : glm::dvec3(1.0, 0.0, 0.0);
  const double sMax = std::sin(0.5 * s.maxAngle);
  q = glm::dquat(sign * wMin, sign * axis.x * sMax, sign * axis.y * sMax, sign * axis.z * sMax);
  const double out = glm::dot(st->velocity, axis);
  if (out > 0.0) st->velocity -= out * axis;
  st->extra.raw = RawVelocity(st->velocity, q);
}

void QuatChart::BlendAt(const PdSettings& s, const glm::dquat& rest, double f, State* st) const {
  st->value = Slerp(st->blendFrom, rest, f);
  st->velocity = -QuatLogChart(st->blendFrom, rest) / s.blendOutTime;
  st->extra.raw = RawVelocity(st->velocity, st->value);
  Clamp(s, st);  // maxAngle may have been lowered (Configure) since the blend started
}

double QuatChart::Energy(const PdSettings& s, const State& st) const {
  const glm::dvec3 u = QuatLogChart(st.value, st.target);
  const glm::dvec3 w = LeftJacobianInverseTimes(u, st.velocity);
  return 0.5 * s.kp * glm::dot(u, u) + 0.5 * glm::dot(w, w);
}

bool QuatChart::AtRest(const PdSettings& s, const State& st) const {
  return glm::length(QuatLogChart(st.value, st.target)) <= s.restTolerance &&
         glm::length(st.velocity) <= s.restVelocity;
}

Status QuatChart::OffsetTarget(const glm::dquat& animation, const glm::dquat& desired, glm::dquat* a,
                               glm::dquat* offset) const {
  if (Status s = OffsetAnimation(animation, a); !s) return s;
  if (!UsableQuat(desired)) return Error("desired: must be a finite, non-zero quaternion");
  *offset = NormalizeSafe(desired) * glm::conjugate(*a);
  return Ok();
}

Status QuatChart::OffsetAnimation(const glm::dquat& animation, glm::dquat* a) const {
  if (!UsableQuat(animation)) return Error("animation: must be a finite, non-zero quaternion");
  *a = NormalizeSafe(animation);
  return Ok();
}

Status QuatChart::ApplyOffset(const glm::dquat& a, const glm::dquat& offset, glm::dquat* out) const {
  *out = glm::normalize(offset * a);
  return Ok();
}

}  // namespace ikpd::pd
