// Golden cases for solveChain (docs/ik/chains.md): random chains of 2 to 10
// bones for both methods, with and without limits, pole and parent rotation,
// targets within and out of reach; fixed edge cases (target at the root, a
// straight chain with the target on its line, a zero-length bone).
#include "golden.h"

#include <algorithm>
#include <vector>

namespace ikpd::golden {
namespace {

constexpr const char* kMethod[] = {"ccd", "fabrik"};
constexpr const char* kLimitType[] = {"none", "cone", "euler"};

void EmitLimit(Json& json, const JointLimit& l) {
  json.BeginObject().Key("type").String(kLimitType[static_cast<int>(l.kind)]);
  if (l.kind == JointLimit::Kind::kCone) json.Key("angle").Exact(l.angle).Key("axis").ExactVec3(l.axis);
  if (l.kind == JointLimit::Kind::kEuler) json.Key("min").ExactVec3(l.min).Key("max").ExactVec3(l.max);
  json.EndObject();
}

void EmitChain(Json& json, ChainJob job) {
  std::vector<Transform> out(job.frame.joints.size());
  ChainResult r;
  job.output = out;
  job.result = &r;
  if (!job.Run().ok()) return;
  json.BeginObject().Key("call").String("solveChain").Key("args").BeginArray().BeginObject();
  json.Key("joints").BeginArray();
  for (const Transform& t : job.frame.joints) json.ExactJoint(t);
  json.EndArray();
  json.Key("target").ExactVec3(job.frame.target).Key("method").String(kMethod[static_cast<int>(job.settings.method)]);
  json.Key("iterations").Number(job.settings.iterations).Key("tolerance").Exact(job.settings.tolerance);
  if (!job.settings.limits.empty()) {
    json.Key("limits").BeginArray();
    for (const JointLimit& l : job.settings.limits) EmitLimit(json, l);
    json.EndArray();
  }
  if (job.frame.pole) json.Key("pole").ExactVec3(*job.frame.pole);
  json.Key("forward").ExactVec3(job.settings.forward).Key("parentRotation").ExactQuat(job.frame.parentRotation);
  json.EndObject().EndArray();
  json.Key("expect").BeginObject().Key("joints").BeginArray();
  for (const Transform& t : out) json.Joint(t);
  json.EndArray();
  json.Key("reached").Bool(r.reached).Key("distance").Number(r.distance).Key("iterations").Number(r.iterations);
  json.EndObject().EndObject().Newline();
}

void GenerateChain(Json& json) {
  Rng rng(18);
  for (int i = 0; i < 64; ++i) {
    const int bones = 2 + i % 9;
    ChainJob job;
    job.settings.method = static_cast<ChainMethod>(i % 2);
    job.settings.forward = (i / 2) % 2 == 0 ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    std::vector<Transform> joints(static_cast<std::size_t>(bones) + 1);
    joints[0] = {rng.Vec3(-2, 2), rng.Quat()};
    float length = 0.0f;
    for (int b = 0; b < bones; ++b) {
      const float l = rng.Range(0.2f, 1.5f);
      length += l;
      joints[b + 1] = {joints[b].position + glm::normalize(RandomAxis(rng)) * l, rng.Quat()};
    }
    // Targets at 30 % to 95 % of the reach, every eighth out of reach.
    const float reach = i % 8 == 7 ? rng.Range(1.1f, 2.0f) : rng.Range(0.3f, 0.95f);
    job.frame.target = joints[0].position + glm::normalize(RandomAxis(rng)) * reach * length;
    const int iterations[] = {1, 5, 20, 50};
    job.settings.iterations = iterations[(i / 4) % 4];
    job.settings.tolerance = i % 5 == 3 ? 1e-3f : 1e-4f;
    if (i % 3 == 1) job.frame.pole = joints[0].position + RandomAxis(rng) * 3.0f;
    if (i % 7 == 5) job.frame.parentRotation = rng.Quat();
    std::vector<JointLimit> limits;
    if (i % 4 == 2) {
      limits.resize(static_cast<std::size_t>(bones));
      for (JointLimit& l : limits) {
        if (rng.Int(0, 1) == 0) {
          l.kind = JointLimit::Kind::kCone;
          l.angle = rng.Range(0.3f, 1.5f);
          l.axis = rng.Int(0, 1) == 0 ? glm::vec3(0.0f) : RandomAxis(rng);
        } else {
          l.kind = JointLimit::Kind::kEuler;
          l.min = rng.Vec3(-1.5f, -0.2f);
          l.max = rng.Vec3(0.2f, 1.5f);
        }
      }
    }
    // Limits use libm's trigonometry, whose last bit differs between native and
    // WebAssembly builds; a limited solve that does not converge can drift
    // apart over many iterations, so limited cases stop at 20.
    if (!limits.empty()) job.settings.iterations = std::min(job.settings.iterations, 20);
    job.frame.joints = joints;
    job.settings.limits = limits;
    EmitChain(json, job);
  }
  // Edge cases, each for both methods: the target at the root, a straight
  // chain with the target on its line, a zero-length bone.
  const glm::quat id(1, 0, 0, 0);
  const std::vector<Transform> straight{{{0, 0, 0}, id}, {{1, 0, 0}, id}, {{2, 0, 0}, id}, {{3, 0, 0}, id}};
  std::vector<Transform> zeroBone = straight;
  zeroBone[2].position = zeroBone[1].position;
  for (int m = 0; m < 2; ++m) {
    ChainJob job;
    job.settings.method = static_cast<ChainMethod>(m);
    job.frame.joints = straight;
    job.frame.target = {0, 0, 0};
    EmitChain(json, job);
    job.frame.target = {1.5f, 0, 0};
    EmitChain(json, job);
    job.frame.joints = zeroBone;
    job.frame.target = {0.5f, 1, 0};
    EmitChain(json, job);
  }
}

[[maybe_unused]] const bool kChainRegistered = Register("chain", &GenerateChain);

}  // namespace
}  // namespace ikpd::golden
