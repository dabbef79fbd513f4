// Golden cases for solveAim (docs/ik/aim.md) and solveTwoBone (docs/ik/two-bone.md).
// Random inputs stay away from ill-conditioned poses (a limb almost straight,
// a pole almost on the aim line), where float rounding differences between
// libm implementations are legitimately amplified beyond the 1e-5 tolerance;
// fixed edge cases (unreachable, folded, target at the root) are added.
#include "golden.h"

namespace ikpd::golden {
namespace {

constexpr const char* kAimMethods[] = {"yawPitch", "crossProduct", "shortestArc"};
constexpr const char* kBend[] = {"auto", "positive", "negative"};
constexpr const char* kEndRotation[] = {"world", "relative"};

void EmitAim(Json& json, const AimJob& job) {
  glm::quat rotation;
  AimJob run = job;
  run.result = &rotation;
  if (!run.Run().ok()) return;
  json.BeginObject().Key("call").String("solveAim").Key("args").BeginArray().BeginObject();
  json.Key("position").ExactVec3(job.frame.position).Key("rotation").ExactQuat(job.frame.rotation);
  json.Key("target").ExactVec3(job.frame.target).Key("forward").ExactVec3(job.settings.forward);
  json.Key("method").String(kAimMethods[static_cast<int>(job.settings.method)]);
  json.Key("up").ExactVec3(job.settings.up);
  if (job.settings.pole) json.Key("pole").ExactVec3(job.frame.pole);
  if (job.settings.hingeAxis) json.Key("hingeAxis").ExactVec3(*job.settings.hingeAxis);
  json.Key("weight").Exact(job.frame.weight);
  json.EndObject().EndArray();
  json.Key("expect").BeginObject().Key("rotation").Quat(rotation).EndObject();
  json.EndObject().Newline();
}

void GenerateAim(Json& json) {
  Rng rng(1);
  for (int i = 0; i < 60; ++i) {
    AimJob job;
    job.frame.position = rng.Vec3(-5, 5);
    job.frame.rotation = rng.Quat();
    job.frame.target = job.frame.position + RandomAxis(rng) * rng.Range(0.5f, 5.0f);
    job.settings.forward = i % 3 == 0 ? RandomAxis(rng) : glm::vec3(0, 1, 0);
    job.settings.method = static_cast<AimMethod>(i % 3);
    job.settings.up = i % 2 == 0 ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
    if (i % 4 == 1) {
      // Pole well off the aim line.
      const glm::vec3 dir = glm::normalize(job.frame.target - job.frame.position);
      glm::vec3 side = RandomAxis(rng);
      side -= glm::dot(side, dir) * dir;
      if (glm::length(side) > 0.3f) job.settings.pole = true, job.frame.pole = job.frame.position + side * 2.0f;
    }
    if (i % 10 == 7) job.settings.hingeAxis = glm::vec3(0, 0, 1);
    job.frame.weight = i % 5 == 4 ? rng.Range(0, 1) : 1.0f;
    EmitAim(json, job);
  }
  // Edge cases: target at the joint; exactly behind (shortest arc); pole on the aim line.
  AimJob at_joint;
  at_joint.frame.position = {1, 2, 3};
  at_joint.frame.rotation = glm::quat(0.5f, 0.5f, 0.5f, 0.5f);
  at_joint.frame.target = at_joint.frame.position;
  EmitAim(json, at_joint);
  AimJob behind;
  behind.frame.target = {-2, 0, 0};
  behind.settings.method = AimMethod::kShortestArc;
  EmitAim(json, behind);
  AimJob pole_on_line;
  pole_on_line.frame.target = {0, 3, 0};
  pole_on_line.settings.pole = true, pole_on_line.frame.pole = glm::vec3(0, 6, 0);
  EmitAim(json, pole_on_line);
}

void EmitTwoBone(Json& json, const TwoBoneJob& job) {
  TwoBoneResult r;
  TwoBoneJob run = job;
  run.result = &r;
  if (!run.Run().ok()) return;
  json.BeginObject().Key("call").String("solveTwoBone").Key("args").BeginArray().BeginObject();
  json.Key("root").ExactJoint(job.frame.root).Key("mid").ExactJoint(job.frame.mid).Key("end").ExactJoint(job.frame.end);
  json.Key("target").ExactVec3(job.frame.target);
  if (job.settings.pole == ikpd::TwoBonePole::kPoint) json.Key("pole").ExactVec3(job.frame.pole);
  if (job.settings.pole == ikpd::TwoBonePole::kDirection) json.Key("poleDirection").ExactVec3(job.frame.pole);
  json.Key("forward").ExactVec3(job.settings.forward).Key("bendAxis").ExactVec3(job.settings.bendAxis);
  json.Key("bendDirection").String(kBend[static_cast<int>(job.settings.bendDirection)]);
  json.Key("straightBend").String(kBend[static_cast<int>(job.settings.straightBend)]);
  json.Key("minAngle").Exact(job.settings.minAngle).Key("maxAngle").Exact(job.settings.maxAngle);
  json.Key("effectorOffset").ExactVec3(job.frame.effectorOffset);
  json.Key("weight").Exact(job.frame.weight).Key("soften").Exact(job.settings.soften);
  json.Key("maxStretch").Exact(job.settings.maxStretch).Key("twist").Exact(job.settings.twist);
  json.Key("endRotation").String(kEndRotation[static_cast<int>(job.settings.endRotation)]);
  json.EndObject().EndArray();
  json.Key("expect").BeginObject();
  json.Key("root").Joint(r.root).Key("mid").Joint(r.mid).Key("end").Joint(r.end);
  json.Key("reached").Bool(r.reached).Key("distance").Number(r.distance);
  json.EndObject().EndObject().Newline();
}

void GenerateTwoBone(Json& json) {
  Rng rng(2);
  for (int i = 0; i < 60; ++i) {
    TwoBoneJob job;
    job.frame.root = {rng.Vec3(-2, 2), rng.Quat()};
    const float a = rng.Range(0.5f, 2.0f), b = rng.Range(0.5f, 2.0f);
    // A bent limb in a random plane.
    const glm::vec3 d1 = glm::normalize(RandomAxis(rng));
    const glm::vec3 d2 = glm::normalize(d1 + 0.8f * glm::normalize(RandomAxis(rng)));
    job.frame.mid = {job.frame.root.position + d1 * a, rng.Quat()};
    job.frame.end = {job.frame.mid.position + d2 * b, rng.Quat()};
    // Reach between 30% and 85% of the limb (well-conditioned), or clearly out of reach.
    const float reach = i % 6 == 5 ? rng.Range(1.2f, 2.0f) : rng.Range(0.3f, 0.85f);
    job.frame.target = job.frame.root.position + glm::normalize(RandomAxis(rng)) * reach * (a + b);
    RandomLimbSettings(rng, i, job);
    if (i % 5 == 3) job.frame.effectorOffset = rng.Vec3(-0.2f, 0.2f);
    if (i % 7 == 4) job.frame.weight = rng.Range(0, 1);
    if (i % 8 == 6) job.settings.twist = rng.Range(-1, 1);
    if (i % 6 == 5 && i % 12 == 11) job.settings.maxStretch = rng.Range(1.0f, 1.5f);
    job.settings.endRotation = static_cast<EndRotation>(i % 2);
    EmitTwoBone(json, job);
  }
  // Edge cases: target at the root, zero-length lower bone, straight limb with auto bend.
  TwoBoneJob at_root;
  at_root.frame.mid.position = {1, 0.2f, 0};
  at_root.frame.end.position = {2, 0, 0};
  at_root.frame.target = {0, 0, 0};
  EmitTwoBone(json, at_root);
  TwoBoneJob zero_bone = at_root;
  zero_bone.frame.end.position = zero_bone.frame.mid.position;
  zero_bone.frame.target = {0.5f, 0.5f, 0};
  EmitTwoBone(json, zero_bone);
  TwoBoneJob straight;
  straight.frame.mid.position = {1, 0, 0};
  straight.frame.end.position = {2, 0, 0};
  straight.frame.target = {1, 1, 0};
  EmitTwoBone(json, straight);
}

[[maybe_unused]] const bool kAimRegistered = Register("aim", &GenerateAim);
[[maybe_unused]] const bool kTwoBoneRegistered = Register("two_bone", &GenerateTwoBone);

}  // namespace
}  // namespace ikpd::golden
