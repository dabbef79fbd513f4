// Golden file rig_grounding.json: a character rig with a grounding constraint
// (docs/rig/grounding.md) walking over bumpy ground, native results (probes,
// solved locals, results) replayed through ikpd.Rig (tests/js/golden.test.js,
// case kind "rig").
#include <cmath>
#include <vector>

#include "golden.h"
#include "ikpd/rig/rig.h"

namespace ikpd::golden {
namespace {

using rig::LocalTransform;

void Locals(Json& j, const std::vector<LocalTransform>& locals, bool exact) {
  j.BeginArray();
  for (const LocalTransform& t : locals) {
    const float f[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y, t.rotation.z,
                         t.rotation.w, t.scale.x, t.scale.y, t.scale.z};
    for (float v : f) exact ? j.Exact(v) : j.Number(v);
  }
  j.EndArray();
}

void Floats(Json& j, const float* p, std::size_t n, bool exact) {
  j.BeginArray();
  for (std::size_t i = 0; i < n; ++i) exact ? j.Exact(p[i]) : j.Number(p[i]);
  j.EndArray();
}

// One case: `toes` legs [hip, knee, ankle, toe] (else three joints), `rate` Hz.
void Case(Json& j, Rng& rng, bool toes, float rate) {
  // 0 body, 1 pelvis, 2 chest; legs 3–6 and 7–10 (hip, knee, ankle, toe); random rest rotations.
  const std::vector<int> parents = {-1, 0, 1, 1, 3, 4, 5, 1, 7, 8, 9};
  const glm::vec3 at[] = {{0, 0, 0}, {0, 1, 0}, {0, 1.3f, 0}, {0.1f, 0.95f, 0}, {0.1f, 0.53f, 0.04f}, {0.1f, 0.1f, 0},
                          {0.1f, 0.03f, 0.13f}, {-0.1f, 0.95f, 0}, {-0.1f, 0.53f, 0.04f}, {-0.1f, 0.1f, 0}, {-0.1f, 0.03f, 0.13f}};
  std::vector<glm::quat> frames(parents.size());
  for (glm::quat& q : frames) q = glm::normalize(rng.Quat());
  frames[0] = glm::quat(1, 0, 0, 0);
  std::vector<LocalTransform> rest(parents.size());
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const int p = parents[i];
    const glm::quat pw = p < 0 ? glm::quat(1, 0, 0, 0) : frames[static_cast<std::size_t>(p)];
    rest[i].translation = p < 0 ? at[i] : glm::conjugate(pw) * (at[i] - at[static_cast<std::size_t>(p)]);
    rest[i].rotation = glm::normalize(glm::conjugate(pw) * frames[i]);
  }
  rig::Skeleton skeleton;
  rig::Rig r;
  if (!skeleton.Init(parents) || !r.Init(skeleton, rest)) std::abort();
  rig::ConstraintSettings s = rig::DefaultSettings(rig::ConstraintKind::kGrounding);
  s.joints = {1};
  s.grounding.legJoints = toes ? 4 : 3;
  s.legs = toes ? std::vector<int>{3, 4, 5, 6, 7, 8, 9, 10} : std::vector<int>{3, 4, 5, 7, 8, 9};
  if (!r.Add(s)) std::abort();

  j.BeginObject().Key("rig").BeginObject();
  j.Key("parents").BeginArray();
  for (int p : parents) j.Number(p);
  j.EndArray().Key("rest");
  Locals(j, rest, true);
  j.EndObject().Key("add").BeginArray().BeginArray().String("grounding").BeginObject().Key("pelvis").Number(1).Key("legs").BeginArray();
  for (std::size_t leg = 0; leg < 2; ++leg) {
    j.BeginArray();
    for (std::size_t k = 0; k < s.grounding.legJoints; ++k) j.Number(s.legs[leg * s.grounding.legJoints + k]);
    j.EndArray();
  }
  j.EndArray().EndObject().EndArray().EndArray().Key("frames").BeginArray();
  std::vector<LocalTransform> in = rest, out(rest.size());
  const float dt = 1.0f / rate;
  for (int f = 0; f < 40; ++f) {
    const float t = static_cast<float>(f) * dt;
    LocalTransform root;
    root.translation = {0.0f, 0.0f, 0.8f * t};
    for (int side = 0; side < 2; ++side) {
      const float swing = 0.3f * std::sin(6.0f * t + 3.14159f * static_cast<float>(side));
      const std::size_t hip = side == 0 ? 3 : 7;
      in[hip].rotation = glm::normalize(rest[hip].rotation * glm::angleAxis(swing, glm::conjugate(frames[hip]) * glm::vec3(1, 0, 0)));
      in[hip + 1].rotation = glm::normalize(rest[hip + 1].rotation * glm::angleAxis(std::max(0.0f, -swing), glm::conjugate(frames[hip + 1]) * glm::vec3(1, 0, 0)));
    }
    if (!r.Probe(in, root)) std::abort();
    for (std::size_t i = 0; i < r.grounds().size(); ++i) {
      const glm::vec3 sole = r.probes()[i].sole;
      rig::GroundHit& g = r.grounds()[i];
      g.point = {sole.x, 0.06f * std::sin(2.0f * sole.z + sole.x), sole.z};
      g.normal = glm::normalize(glm::vec3(-0.06f * std::cos(2.0f * sole.z + sole.x), 1.0f, -0.12f * std::cos(2.0f * sole.z + sole.x)));
      g.hit = f % 17 == 16 && i == 1 ? 0.0f : 1.0f;
      g.plant = -1.0f;
    }
    if (!r.Update(dt, in, root, out)) std::abort();
    j.BeginObject().Key("input");
    Locals(j, in, true);
    j.Key("root");
    Locals(j, {root}, true);
    j.Key("grounds");
    Floats(j, reinterpret_cast<const float*>(r.grounds().data()), 8 * r.grounds().size(), true);
    j.Key("dt").Exact(dt).Key("expect").BeginObject().Key("probes");
    Floats(j, reinterpret_cast<const float*>(r.probes().data()), 6 * r.probes().size(), false);
    j.Key("output");
    Locals(j, out, false);
    j.Key("results");
    Floats(j, reinterpret_cast<const float*>(r.results().data()), 4, false);
    j.EndObject().EndObject();
  }
  j.EndArray().EndObject().Newline();
}

void Generate(Json& j) {
  Rng rng(3101);
  Case(j, rng, false, 60.0f);
  Case(j, rng, true, 30.0f);
}

}  // namespace

static const bool registered = Register("rig_grounding", &Generate);

}  // namespace ikpd::golden
