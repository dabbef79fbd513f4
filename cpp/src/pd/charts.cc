// The scalar/angle and unit-vector charts (charts.h).
#include "ikpd/pd/charts.h"

#include <cmath>

#include <glm/geometric.hpp>

#include "pd_checks.h"

namespace ikpd::pd {

using detail::FiniteD;
using detail::FiniteV;
using detail::UsableVector;

// ------------------------------------------------------------ scalar / angle

double ScalarChart::Difference(double x, double g) const { return angle ? detail::WrapAngle(x - g) : x - g; }
double ScalarChart::Canonical(const double& x) const { return angle ? detail::WrapAngle(x) : x; }

Status ScalarChart::Target(const State&, const double& in, double* g) const {
  if (!FiniteD(in)) return Error("target: must be a finite number");
  *g = in;
  return Ok();
}

Status ScalarChart::Rest(const double& in, double* rest) const {
  if (!FiniteD(in)) return Error("rest: must be a finite number");
  *rest = Canonical(in);
  return Ok();
}

Status ScalarChart::TargetVelocity(const double& in, const double&, double* out) const {
  if (!FiniteD(in)) return Error("targetVelocity: must be a finite number");
  *out = in;
  return Ok();
}

double ScalarChart::LinearTargetVelocity(const PdSettings&, const double& prev, const double& g, double dt) const {
  return Difference(g, prev) / dt;
}

int ScalarChart::ChartVelocity(const PdSettings&, const State&, const double&, const double& tv, double* q) const {
  q[0] = tv;
  return 1;
}

void ScalarChart::ToChart(const PdSettings&, const State& st, const double& g, ChartState* c) const {
  c->u[0] = Difference(st.value, g);
  c->w[0] = st.velocity;
}

void ScalarChart::FromChart(const PdSettings&, const State&, const double& g, const ChartState& c,
                            Step* next) const {
  next->value = Canonical(g + c.u[0]);  // not finite when g + u overflows
  next->velocity = c.w[0];
}

bool ScalarChart::Finite(const Step& step) const { return FiniteD(step.value) && FiniteD(step.velocity); }

double ScalarChart::BlendFrom(const State& st, const double& rest) const { return Difference(st.value, rest); }

void ScalarChart::BlendAt(const PdSettings& s, const double& rest, double f, State* st) const {
  st->value = Canonical(rest + (1.0 - f) * st->blendFrom);
  st->velocity = -st->blendFrom / s.blendOutTime;
}

double ScalarChart::Energy(const PdSettings& s, const State& st) const {
  const double e = Difference(st.value, st.target);
  return 0.5 * s.kp * e * e + 0.5 * st.velocity * st.velocity;
}

bool ScalarChart::AtRest(const PdSettings& s, const State& st) const {
  return std::fabs(Difference(st.value, st.target)) <= s.restTolerance && std::fabs(st.velocity) <= s.restVelocity;
}

Status ScalarChart::OffsetTarget(const double& animation, const double& desired, double* a, double* offset) const {
  if (!FiniteD(animation)) return Error("animation: must be a finite number");
  if (!FiniteD(desired)) return Error("desired: must be a finite number");
  *a = animation;
  *offset = Difference(desired, animation);
  return Ok();
}

Status ScalarChart::OffsetAnimation(const double& animation, double* a) const {
  if (!FiniteD(animation)) return Error("animation: must be a finite number");
  *a = animation;
  return Ok();
}

Status ScalarChart::ApplyOffset(const double& a, const double& offset, double* out) const {
  const double result = a + offset;
  if (!FiniteD(result)) return Error("animation: animation + offset overflows");
  *out = Canonical(result);
  return Ok();
}

// ------------------------------------------------------------ unit vector

Status Vec3Chart::Target(const State&, const glm::dvec3& in, glm::dvec3* g) const {
  if (!FiniteV(in)) return Error("target: must be finite");
  if (!UsableVector(in)) return Error("target: must not be zero");
  *g = NormalizeSafe(in);
  return Ok();
}

Status Vec3Chart::Rest(const glm::dvec3& in, glm::dvec3* rest) const {
  if (!UsableVector(in)) return Error("rest: must be a finite, non-zero vector");
  *rest = NormalizeSafe(in);
  return Ok();
}

Status Vec3Chart::TargetVelocity(const glm::dvec3& in, const glm::dvec3& g, glm::dvec3* out) const {
  if (!FiniteV(in)) return Error("targetVelocity: must be finite");
  *out = in - glm::dot(in, g) * g;  // its tangential part
  return Ok();
}

glm::dvec3 Vec3Chart::LinearTargetVelocity(const PdSettings& s, const glm::dvec3& prev, const glm::dvec3& g,
                                           double dt) const {
  return (s.method == RotationUpdate::kLogMap ? -SphereLog(prev, g, glm::dvec3(0.0)) : g - prev) / dt;
}

void Vec3Chart::Localize(const glm::dvec3& g, const PdSettings& s, const State& st,
                         std::optional<PdSettings>* ls, std::optional<State>* lst) const {
  // The componentwise update moves along the chord, which passes through the
  // origin for opposite vectors: far from the target (> ~154°) use the log map instead.
  if (s.method != RotationUpdate::kComponentwise || !(glm::dot(st.value, g) < -0.9)) return;
  ls->emplace(s).method = RotationUpdate::kLogMap;
  lst->emplace(st).velocity = st.velocity - glm::dot(st.velocity, st.value) * st.value;
}

int Vec3Chart::ChartVelocity(const PdSettings&, const State&, const glm::dvec3&, const glm::dvec3& tv,
                             double* q) const {
  for (int i = 0; i < 3; ++i) q[i] = tv[i];
  return 3;
}

void Vec3Chart::ToChart(const PdSettings& s, const State& st, const glm::dvec3& g, ChartState* c) const {
  glm::dvec3 u, w;
  if (s.method == RotationUpdate::kLogMap) {
    u = SphereLog(st.value, g, st.velocity);
    w = SphereLogVelocity(u, g, st.value, st.velocity);
  } else {
    u = st.value - g;
    w = st.velocity;
  }
  for (int i = 0; i < 3; ++i) {
    c->u[i] = u[i];
    c->w[i] = w[i];
  }
}

void Vec3Chart::FromChart(const PdSettings& s, const State& st, const glm::dvec3& g, const ChartState& c,
                          Step* next) const {
  const glm::dvec3 u(c.u[0], c.u[1], c.u[2]), w(c.w[0], c.w[1], c.w[2]);
  if (s.method == RotationUpdate::kLogMap) {
    next->value = SphereExp(u, g);
    next->velocity = SphereExpVelocity(u, g, w);
  } else {
    next->value = NormalizeOr(g + u, st.value, 1e-150);
    next->velocity = w;
  }
}

bool Vec3Chart::Finite(const Step& step) const { return FiniteV(step.value) && FiniteV(step.velocity); }

void Vec3Chart::BlendAt(const PdSettings& s, const glm::dvec3& rest, double f, State* st) const {
  const glm::dvec3 u = SphereLog(st->blendFrom, rest, glm::dvec3(0.0));
  st->value = SphereExp((1.0 - f) * u, rest);
  st->velocity = SphereExpVelocity((1.0 - f) * u, rest, -u / s.blendOutTime);
}

double Vec3Chart::Energy(const PdSettings& s, const State& st) const {
  PdSettings log = s;
  log.method = RotationUpdate::kLogMap;
  ChartState c;
  ToChart(log, st, st.target, &c);
  return ChartEnergy(s, 3, c);
}

bool Vec3Chart::AtRest(const PdSettings& s, const State& st) const {
  const double angle = std::atan2(glm::length(glm::cross(st.value, st.target)), glm::dot(st.value, st.target));
  return angle <= s.restTolerance && glm::length(st.velocity) <= s.restVelocity;
}

}  // namespace ikpd::pd
