// Golden cases for solvePseudoThreeBone (docs/ik/pseudo-three-bone.md). Like the two-bone cases,
// random legs stay away from ill-conditioned poses (almost straight, a pole
// almost on the aim line); fixed edge cases (tip on the end joint, target at
// the root, zero-length bone) are added.
#include "golden.h"

namespace ikpd::golden {
namespace {

constexpr const char* kBend[] = {"auto", "positive", "negative"};
constexpr const char* kVariant[] = {"relative", "followMid"};

void EmitPseudoThreeBone(Json& json, const PseudoThreeBoneJob& job) {
  PseudoThreeBoneResult r;
  PseudoThreeBoneJob run = job;
  run.result = &r;
  if (!run.Run().ok()) return;
  const TwoBoneJob limb{job.frame.limb, job.settings.limb, nullptr};
  json.BeginObject().Key("call").String("solvePseudoThreeBone").Key("args").BeginArray().BeginObject();
  json.Key("root").ExactJoint(limb.frame.root).Key("mid").ExactJoint(limb.frame.mid).Key("end").ExactJoint(limb.frame.end);
  json.Key("tip").ExactJoint(job.frame.tip).Key("target").ExactVec3(limb.frame.target);
  if (limb.settings.pole == ikpd::TwoBonePole::kPoint) json.Key("pole").ExactVec3(limb.frame.pole);
  if (limb.settings.pole == ikpd::TwoBonePole::kDirection) json.Key("poleDirection").ExactVec3(limb.frame.pole);
  json.Key("forward").ExactVec3(limb.settings.forward).Key("bendAxis").ExactVec3(limb.settings.bendAxis);
  json.Key("bendDirection").String(kBend[static_cast<int>(limb.settings.bendDirection)]);
  json.Key("minAngle").Exact(limb.settings.minAngle).Key("maxAngle").Exact(limb.settings.maxAngle);
  json.Key("weight").Exact(limb.frame.weight).Key("soften").Exact(limb.settings.soften);
  json.Key("maxStretch").Exact(limb.settings.maxStretch).Key("twist").Exact(limb.settings.twist);
  json.Key("blend").Exact(job.frame.blend).Key("variant").String(kVariant[static_cast<int>(job.settings.variant)]);
  json.Key("endLimit").Exact(job.settings.endLimit);
  json.EndObject().EndArray();
  json.Key("expect").BeginObject();
  json.Key("root").Joint(r.root).Key("mid").Joint(r.mid).Key("end").Joint(r.end).Key("tip").Joint(r.tip);
  json.Key("reached").Bool(r.reached).Key("distance").Number(r.distance);
  json.EndObject().EndObject().Newline();
}

void GeneratePseudoThreeBone(Json& json) {
  Rng rng(4);
  for (int i = 0; i < 60; ++i) {
    PseudoThreeBoneJob job;
    TwoBoneJob limb;
    limb.frame.root = {rng.Vec3(-2, 2), rng.Quat()};
    const float a = rng.Range(0.5f, 2.0f), b = rng.Range(0.5f, 2.0f), c = rng.Range(0.1f, 0.5f);
    // A bent leg in a random plane, the foot at an angle to the shin.
    const glm::vec3 d1 = glm::normalize(RandomAxis(rng));
    const glm::vec3 d2 = glm::normalize(d1 + 0.8f * glm::normalize(RandomAxis(rng)));
    const glm::vec3 d3 = glm::normalize(d2 + 0.8f * glm::normalize(RandomAxis(rng)));
    limb.frame.mid = {limb.frame.root.position + d1 * a, rng.Quat()};
    limb.frame.end = {limb.frame.mid.position + d2 * b, rng.Quat()};
    job.frame.tip = {limb.frame.end.position + d3 * c, rng.Quat()};
    // The end's target (tip target − foot) between 30% and 85% of the leg, or clearly out of reach.
    const float reach = i % 6 == 5 ? rng.Range(1.2f, 2.0f) : rng.Range(0.3f, 0.85f);
    limb.frame.target = limb.frame.root.position + glm::normalize(RandomAxis(rng)) * reach * (a + b) + d3 * c;
    RandomLimbSettings(rng, i, limb);
    if (i % 7 == 4) limb.frame.weight = rng.Range(0, 1);
    if (i % 8 == 6) limb.settings.twist = rng.Range(-1, 1);
    if (i % 12 == 11) limb.settings.maxStretch = rng.Range(1.0f, 1.5f);
    const float blends[] = {0.0f, 1.0f, 0.5f, rng.Range(0, 1)};
    job.frame.blend = blends[i % 4];
    job.settings.variant = static_cast<PseudoThreeBoneVariant>((i / 4) % 2);
    if (i % 5 == 2) job.settings.endLimit = rng.Range(0.2f, 1.5f);
    job.frame.limb = limb.frame, job.settings.limb = limb.settings;
    EmitPseudoThreeBone(json, job);
  }
  // Edge cases: tip on the end joint, target at the root, zero-length lower bone.
  PseudoThreeBoneJob tip_on_end;
  tip_on_end.frame.limb.mid.position = {1, 0.2f, 0};
  tip_on_end.frame.limb.end.position = {2, 0, 0};
  tip_on_end.frame.tip.position = {2, 0, 0};
  tip_on_end.frame.limb.target = {1.2f, 1, 0};
  tip_on_end.frame.blend = 0.5f;
  EmitPseudoThreeBone(json, tip_on_end);
  PseudoThreeBoneJob at_root = tip_on_end;
  at_root.frame.tip.position = {2.3f, -0.2f, 0};
  at_root.frame.limb.target = {0, 0, 0};
  EmitPseudoThreeBone(json, at_root);
  PseudoThreeBoneJob zero_bone = at_root;
  zero_bone.frame.limb.end.position = zero_bone.frame.limb.mid.position;
  zero_bone.frame.limb.target = {0.5f, 0.5f, 0};
  zero_bone.frame.blend = 0.0f;
  EmitPseudoThreeBone(json, zero_bone);
}

[[maybe_unused]] const bool kPseudoThreeBoneRegistered = Register("pseudo_three_bone", &GeneratePseudoThreeBone);

}  // namespace
}  // namespace ikpd::golden
