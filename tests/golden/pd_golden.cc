// Golden file pd.json: PD controllers and helpers, native results replayed
// through the JS API (tests/js/golden.test.js).
#include "golden.h"

namespace ikpd::golden {
namespace {

using namespace ikpd::pd;

constexpr const char* kIntegrators[] = {"exact", "stable", "explicit", "substep"};
constexpr const char* kMethods[] = {"log", "componentwise"};

// Options object {settleTime, damping, integrator[, method][, maxAngle]} and the matching settings.
PdSettings Options(Json& j, Rng& rng, int integrator, int method, bool rotation, float maxAngle) {
  const float settleTime = rng.Range(0.5f, 1.5f);  // explicit and stable PD stay stable at dt <= 0.034
  const float damping = rng.Range(0.3f, 2.0f);
  PdSettings s;
  SettingsFromSettleTime(settleTime, damping, &s);
  s.integrator = static_cast<Integrator>(integrator);
  s.method = static_cast<RotationUpdate>(method);
  j.BeginObject();
  j.Key("settleTime").Exact(settleTime);
  j.Key("damping").Exact(damping);
  j.Key("integrator").String(kIntegrators[integrator]);
  if (rotation) j.Key("method").String(kMethods[method]);
  if (maxAngle > 0.0f) {
    j.Key("maxAngle").Exact(maxAngle);
    s.maxAngle = maxAngle;
  }
  j.EndObject();
  return s;
}

void ScalarCases(Json& j, Rng& rng, bool angle) {
  for (int integrator = 0; integrator < 4; ++integrator) {
    j.BeginObject().Key("new").String(angle ? "AnglePD" : "PD").Key("args").BeginArray();
    const PdSettings s = Options(j, rng, integrator, 0, false, 0.0f);
    j.EndArray().Key("steps").BeginArray();
    ScalarPD pd(s, angle);
    for (int k = 0; k < 12; ++k) {
      const float dt = rng.Range(0.004f, 0.034f);
      const float target = angle ? rng.Range(-3.1f, 3.1f) : rng.Range(-2.0f, 2.0f);
      if (!pd.Update(dt, target)) continue;
      j.BeginObject().Key("call").String("update").Key("args").BeginArray().Exact(dt).Exact(target).EndArray();
      j.Key("expect").BeginObject();
      j.Key("result").Number(pd.value()).Key("value").Number(pd.value()).Key("velocity").Number(pd.velocity());
      j.EndObject().EndObject();
    }
    j.EndArray().EndObject().Newline();
  }
}

void Vec3Cases(Json& j, Rng& rng) {
  for (int method = 0; method < 2; ++method) {
    for (int integrator : {0, 1}) {
      j.BeginObject().Key("new").String("Vec3PD").Key("args").BeginArray();
      const PdSettings s = Options(j, rng, integrator, method, true, 0.0f);
      j.EndArray().Key("steps").BeginArray();
      Vec3PD pd(s);
      for (int k = 0; k < 10; ++k) {
        const float dt = rng.Range(0.004f, 0.034f);
        glm::vec3 target = rng.Vec3(-1.0f, 1.0f);
        if (glm::dot(target, target) < 0.01f) target.x = 1.0f;
        if (!pd.Update(dt, glm::dvec3(target))) continue;
        j.BeginObject().Key("call").String("update").Key("args").BeginArray().Exact(dt).ExactVec3(target).EndArray();
        j.Key("expect").BeginObject();
        j.Key("value").Vec3(glm::vec3(pd.value())).Key("velocity").Vec3(glm::vec3(pd.velocity()));
        j.EndObject().EndObject();
      }
      j.EndArray().EndObject().Newline();
    }
  }
}

void QuatCases(Json& j, Rng& rng) {
  for (int method = 0; method < 2; ++method) {
    for (int integrator : {0, 3}) {
      const float maxAngle = integrator == 3 ? 1.0f : 0.0f;
      j.BeginObject().Key("new").String("QuatPD").Key("args").BeginArray();
      const PdSettings s = Options(j, rng, integrator, method, true, maxAngle);
      j.EndArray().Key("steps").BeginArray();
      QuatPD pd(s);
      for (int k = 0; k < 10; ++k) {
        const float dt = rng.Range(0.004f, 0.034f);
        const glm::quat target = rng.Quat();
        if (!pd.Update(dt, glm::dquat(target))) continue;
        j.BeginObject().Key("call").String("update").Key("args").BeginArray().Exact(dt).ExactQuat(target).EndArray();
        j.Key("expect").BeginObject();
        j.Key("value").Quat(glm::quat(pd.value())).Key("velocity").Vec3(glm::vec3(pd.velocity()));
        j.EndObject().EndObject();
      }
      j.EndArray().EndObject().Newline();
    }
  }
}

void HelperCases(Json& j, Rng& rng) {
  for (int k = 0; k < 4; ++k) {
    const float t = rng.Range(0.1f, 2.0f);
    const float z = rng.Range(0.2f, 2.0f);
    Gains g;
    GainsFromSettleTime(t, z, &g);
    j.BeginObject().Key("call").String("gainsFromSettleTime").Key("args").BeginArray().Exact(t).Exact(z).EndArray();
    j.Key("expect").BeginObject().Key("kp").Number(g.kp).Key("kd").Number(g.kd).EndObject().EndObject().Newline();
    GainsFromSmoothTime(t, &g);
    j.BeginObject().Key("call").String("gainsFromSmoothTime").Key("args").BeginArray().Exact(t).EndArray();
    j.Key("expect").BeginObject().Key("kp").Number(g.kp).Key("kd").Number(g.kd).EndObject().EndObject().Newline();
    GainsFromHalfLife(t, &g);
    j.BeginObject().Key("call").String("gainsFromHalfLife").Key("args").BeginArray().Exact(t).EndArray();
    j.Key("expect").BeginObject().Key("kp").Number(g.kp).Key("kd").Number(g.kd).EndObject().EndObject().Newline();
    const float kp = rng.Range(10.0f, 3000.0f), kd = rng.Range(0.0f, 100.0f), dt = rng.Range(0.004f, 0.05f);
    const StabilityReport r = CheckStability(Integrator::kStable, kp, kd, dt);
    j.BeginObject().Key("call").String("checkStability").Key("args").BeginArray().BeginObject();
    j.Key("kp").Exact(kp).Key("kd").Exact(kd).Key("dt").Exact(dt).Key("integrator").String("stable").EndObject();
    j.EndArray().Key("expect").BeginObject().Key("stable").Bool(r.stable).Key("maxStableDt").Number(r.maxStableDt);
    j.Key("spectralRadius").Number(r.spectralRadius).EndObject().EndObject().Newline();
  }
}

void Generate(Json& j) {
  Rng rng(2024);
  ScalarCases(j, rng, false);
  ScalarCases(j, rng, true);
  Vec3Cases(j, rng);
  QuatCases(j, rng);
  HelperCases(j, rng);
}

}  // namespace

static const bool registered = Register("pd", &Generate);

}  // namespace ikpd::golden
