// Native cost of the character rig (docs/rig/rig.md), per character per frame:
// one two-bone constraint alone on its three joints (RigLimb: TwoBoneIK's rig)
// and on a 24-joint skeleton (RigTwoBone), and a humanoid (2 arms + 2 legs
// two-bone, 6-joint look-at, 2 eye aims) on that skeleton (RigHumanoidAnimated:
// every local moving each frame), and its look-at alone (RigLookAt). The same rigs as
// the three.js rows of bench/run.mjs (bench/js/three_rig.js). RigGrounding: the
// grounding constraint on the two legs (docs/rig/grounding.md), the ground hits
// filled from the probes of an analytic bumpy ground (the solve alone: no
// raycast); RigGrounding/update the same without the probe (Update only). RigAvatar:
// the avatar constraint (docs/rig/avatar.md) on the same humanoid, a head and
// two hand targets moving a little every frame. RigSprings: the springs kind
// (docs/rig/springs.md) on bench/js/springs.js's character: 7 hair chains of 6
// swinging joints (42) under a turning, nodding head, a sphere on the head and a
// capsule on the neck, center the body (the WASM core of that three.js row).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "ikpd/rig/rig.h"
#include "springs_character.h"

namespace {

using ikpd::rig::ConstraintKind;
using ikpd::rig::LocalTransform;

// Role, parent, rest position (metres, Y up, facing +Z), as tests/support/three-humanoid.js.
struct Joint { const char* role; int parent; glm::vec3 position; };
const Joint kLayout[] = {
  {"hips", -1, {0, 0.98f, 0}}, {"spine", 0, {0, 1.08f, 0}}, {"chest", 1, {0, 1.2f, 0}},
  {"upperChest", 2, {0, 1.33f, 0}}, {"neck", 3, {0, 1.48f, 0}}, {"head", 4, {0, 1.58f, 0.01f}},
  {"leftEye", 5, {0.032f, 1.66f, 0.08f}}, {"rightEye", 5, {-0.032f, 1.66f, 0.08f}},
  {"leftShoulder", 3, {0.05f, 1.43f, 0}}, {"leftUpperArm", 8, {0.18f, 1.42f, 0}},
  {"leftLowerArm", 9, {0.21f, 1.15f, -0.02f}}, {"leftHand", 10, {0.23f, 0.91f, 0.02f}},
  {"rightShoulder", 3, {-0.05f, 1.43f, 0}}, {"rightUpperArm", 12, {-0.18f, 1.42f, 0}},
  {"rightLowerArm", 13, {-0.21f, 1.15f, -0.02f}}, {"rightHand", 14, {-0.23f, 0.91f, 0.02f}},
  {"leftUpperLeg", 0, {0.095f, 0.93f, 0}}, {"leftLowerLeg", 16, {0.1f, 0.5f, 0.03f}},
  {"leftFoot", 17, {0.105f, 0.08f, -0.01f}}, {"leftToes", 18, {0.11f, 0.02f, 0.13f}},
  {"rightUpperLeg", 0, {-0.095f, 0.93f, 0}}, {"rightLowerLeg", 20, {-0.1f, 0.5f, 0.03f}},
  {"rightFoot", 21, {-0.105f, 0.08f, -0.01f}}, {"rightToes", 22, {-0.11f, 0.02f, 0.13f}},
};
constexpr int kJoints = sizeof(kLayout) / sizeof(kLayout[0]);

struct Character {
  ikpd::rig::Rig rig;
  std::vector<LocalTransform> in, out;
  LocalTransform root{};
  bool lookAtOnly = false;  // RigLookAt: its one constraint takes the look target
};

// The humanoid's skeleton, its rest pose as the animated input.
void InitSkeleton(Character& c) {
  std::vector<int> parents;
  std::vector<LocalTransform> rest;
  for (const Joint& j : kLayout) {
    parents.push_back(j.parent);
    LocalTransform t;
    t.translation = j.parent < 0 ? j.position : j.position - kLayout[j.parent].position;
    rest.push_back(t);
  }
  ikpd::rig::Skeleton skeleton;
  if (!skeleton.Init(parents)) std::abort();
  if (!c.rig.Init(skeleton, rest)) std::abort();
  c.in = rest;
  c.out = rest;
}

void Build(Character& c, bool humanoid, bool lookAtOnly = false) {
  InitSkeleton(c);
  const auto add = [&](ConstraintKind kind, std::vector<int> joints) {
    ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(kind);
    s.joints = std::move(joints);
    if (!c.rig.Add(s)) std::abort();
  };
  c.lookAtOnly = lookAtOnly;
  if (lookAtOnly) return add(ConstraintKind::kLookAt, {0, 1, 2, 3, 4, 5});
  add(ConstraintKind::kTwoBone, {9, 10, 11});
  if (!humanoid) return;
  add(ConstraintKind::kTwoBone, {13, 14, 15});
  add(ConstraintKind::kTwoBone, {16, 17, 18});
  add(ConstraintKind::kTwoBone, {20, 21, 22});
  add(ConstraintKind::kLookAt, {0, 1, 2, 3, 4, 5});
  add(ConstraintKind::kAim, {6});
  add(ConstraintKind::kAim, {7});
}

void Frame(Character& c, int frame) {
  const float s = 0.02f * std::sin(0.1f * static_cast<float>(frame));
  auto frames = c.rig.frames();
  const glm::vec3 targets[] = {{0.3f + s, 1.2f, 0.3f}, {-0.3f - s, 1.2f, 0.3f}, {0.1f, 0.12f, 0.1f + s},
                               {-0.1f, 0.12f, -0.05f - s}, {0.5f + 10 * s, 1.7f, 2}, {0.5f + 10 * s, 1.7f, 2},
                               {0.5f + 10 * s, 1.7f, 2}};
  for (std::size_t i = 0; i < frames.size(); ++i) frames[i].target = targets[c.lookAtOnly ? 4 : i];
  if (!c.rig.Update(1.0f / 60.0f, c.in, c.root, c.out)) std::abort();
}

// A still character's frames (targets moving) with the rig Build makes.
void Still(benchmark::State& state, bool humanoid, bool lookAtOnly) {
  Character c;
  Build(c, humanoid, lookAtOnly);
  int frame = 0;
  for (auto _ : state) {
    Frame(c, frame++);
    benchmark::DoNotOptimize(c.out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
void RigTwoBone(benchmark::State& state) { Still(state, false, false); }
BENCHMARK(RigTwoBone);
void RigHumanoid(benchmark::State& state) { Still(state, true, false); }
BENCHMARK(RigHumanoid);
// The humanoid's 6-joint look-at alone (the WASM side: node bench/rig-wasm-gap.mjs --look-at).
void RigLookAt(benchmark::State& state) { Still(state, true, true); }
BENCHMARK(RigLookAt);

// The same humanoid under a clip that moves every joint's local every frame (a
// small sway from the rest pose): the rig keeps no animated model transform
// from one frame to the next (docs/rig/rig.md, "Update order"), as with a
// playing AnimationMixer.
void RigHumanoidAnimated(benchmark::State& state) {
  Character c;
  Build(c, true);
  int frame = 0;
  for (auto _ : state) {
    const float t = 0.05f * static_cast<float>(frame);
    for (std::size_t j = 0; j < c.in.size(); ++j) {
      c.in[j].rotation = glm::quat(1.0f, 0.03f * std::sin(t + static_cast<float>(j)), 0.02f * std::cos(t), 0.0f);
    }
    Frame(c, frame++);
    benchmark::DoNotOptimize(c.out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(RigHumanoidAnimated);

// One avatar frame: spine [hips … head], both arms with shoulders, both legs; the head
// and hands near their rest places (rest world rotations are identity here).
void RigAvatar(benchmark::State& state) {
  Character c;
  InitSkeleton(c);
  ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kAvatar);
  s.joints = {0, 1, 2, 3, 4, 5};
  s.arms = {8, 9, 10, 11, 12, 13, 14, 15};
  s.legs = {16, 17, 18, 20, 21, 22};
  if (!c.rig.Add(s)) std::abort();
  int frame = 0;
  for (auto _ : state) {
    const float w = 0.02f * std::sin(0.1f * static_cast<float>(frame++));
    auto targets = c.rig.targets();
    targets[0] = {{w, 1.54f, 0.05f}, glm::angleAxis(5 * w, glm::vec3(0, 1, 0)), 1.0f};
    targets[1] = {{0.3f + w, 1.2f, 0.3f}, glm::quat(1, 0, 0, 0), 1.0f};
    targets[2] = {{-0.3f - w, 1.2f, 0.3f}, glm::quat(1, 0, 0, 0), 1.0f};
    if (!c.rig.Update(1.0f / 60.0f, c.in, c.root, c.out)) std::abort();
    benchmark::DoNotOptimize(c.out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(RigAvatar);

// What TwoBoneIK runs (web/three/ik/twoBone.js): a rig of the limb's three joints
// alone, each with a rest rotation (+Y along the bone, as exporters write
// them), under a root that is the shoulder's world transform.
void RigLimb(benchmark::State& state) {
  const glm::vec3 shoulder = kLayout[8].position, upperArm = kLayout[9].position;
  const glm::vec3 positions[4] = {upperArm, kLayout[10].position, kLayout[11].position, 2.0f * kLayout[11].position - kLayout[10].position};
  const auto alongBone = [](const glm::vec3& from, const glm::vec3& to) {
    return glm::quat(glm::vec3(0, 1, 0), glm::normalize(to - from));  // the shortest arc
  };
  LocalTransform root{};
  root.translation = shoulder;
  root.rotation = alongBone(shoulder, upperArm);
  std::vector<LocalTransform> rest(3);
  glm::vec3 parentPosition = shoulder;
  glm::quat parentRotation = root.rotation;
  for (int k = 0; k < 3; ++k) {
    const glm::quat world = alongBone(positions[k], positions[k + 1]);
    rest[k].translation = glm::conjugate(parentRotation) * (positions[k] - parentPosition);
    rest[k].rotation = glm::normalize(glm::conjugate(parentRotation) * world);
    parentPosition = positions[k], parentRotation = world;
  }
  ikpd::rig::Skeleton skeleton;
  ikpd::rig::Rig rig;
  if (!skeleton.Init(std::vector<int>{-1, 0, 1}) || !rig.Init(skeleton, rest)) std::abort();
  ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kTwoBone);
  s.joints = {0, 1, 2};
  if (!rig.Add(s)) std::abort();
  std::vector<LocalTransform> out = rest;
  int frame = 0;
  for (auto _ : state) {
    const float wiggle = 0.02f * std::sin(0.1f * static_cast<float>(frame++));
    rig.frames()[0].target = {0.3f + wiggle, 1.2f, 0.3f};
    if (!rig.Update(1.0f / 60.0f, rest, root, out)) std::abort();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(RigLimb);

// A walking character (root moving along +Z, the ankles swinging) on a bumpy ground.
void GroundingCharacter(Character& c) {
  Build(c, false);
  c.rig = ikpd::rig::Rig();
  std::vector<int> parents;
  for (const Joint& j : kLayout) parents.push_back(j.parent);
  ikpd::rig::Skeleton skeleton;
  if (!skeleton.Init(parents) || !c.rig.Init(skeleton, c.in)) std::abort();
  ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kGrounding);
  s.joints = {0};
  s.grounding.legJoints = 4;
  s.legs = {16, 17, 18, 19, 20, 21, 22, 23};
  if (!c.rig.Add(s)) std::abort();
}

void GroundingFrame(Character& c, int frame, bool probe) {
  const float t = static_cast<float>(frame) / 60.0f;
  c.root.translation.z = 1.2f * t;
  c.in[17].rotation = glm::angleAxis(0.3f * std::sin(6.0f * t), glm::vec3(1, 0, 0));
  c.in[21].rotation = glm::angleAxis(-0.3f * std::sin(6.0f * t), glm::vec3(1, 0, 0));
  if (probe && !c.rig.Probe(c.in, c.root)) std::abort();
  auto grounds = c.rig.grounds();
  for (std::size_t i = 0; i < grounds.size(); ++i) {
    const glm::vec3 sole = c.rig.probes()[i].sole;
    grounds[i].point = {sole.x, 0.05f * std::sin(3.0f * sole.z), sole.z};
    grounds[i].normal = glm::normalize(glm::vec3(0, 1, -0.15f * std::cos(3.0f * sole.z)));
    grounds[i].hit = 1.0f;
  }
  if (!c.rig.Update(1.0f / 60.0f, c.in, c.root, c.out)) std::abort();
}

// probe: Probe + ground query + Update (the whole solve); else Update alone.
void RigGrounding(benchmark::State& state, bool probe) {
  Character c;
  GroundingCharacter(c);
  if (!c.rig.Probe(c.in, c.root)) std::abort();
  int frame = 0;
  for (auto _ : state) {
    GroundingFrame(c, frame++, probe);
    benchmark::DoNotOptimize(c.out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(RigGrounding, probe_update, true);
BENCHMARK_CAPTURE(RigGrounding, update, false);

// The standalone job (rig::Grounding::Update) on the two legs of the same walk, in
// world space: the grounding solve without the rig's stages (gather, locals).
void GroundingJob(benchmark::State& state) {
  ikpd::rig::GroundingSettings settings;
  settings.legJoints = 4;
  settings.soleOffsets = {0.02f, 0.02f, 0.0f, 0.0f};
  ikpd::rig::Grounding job;
  if (!job.Reset(settings)) std::abort();
  ikpd::Transform legs[8], out[8], pelvis;
  ikpd::rig::GroundHit hits[2];
  const int joints[8] = {16, 17, 18, 19, 20, 21, 22, 23};
  int frame = 0;
  for (auto _ : state) {
    const float t = static_cast<float>(frame++) / 60.0f;
    const float swing = 0.05f * std::sin(6.0f * t);
    for (int k = 0; k < 8; ++k) {
      legs[k] = {kLayout[joints[k]].position + glm::vec3(0.0f, 0.0f, 1.2f * t + (k % 4 >= 2 ? (k < 4 ? swing : -swing) : 0.0f)), ikpd::kIdentityRotation};
    }
    for (int i = 0; i < 2; ++i) {
      const glm::vec3 sole = legs[4 * i + 3].position;
      hits[i] = {{sole.x, 0.05f * std::sin(3.0f * sole.z), sole.z}, glm::normalize(glm::vec3(0, 1, -0.15f * std::cos(3.0f * sole.z))), 1.0f, -1.0f};
    }
    ikpd::rig::GroundingInput in;
    in.pelvis = {kLayout[0].position + glm::vec3(0.0f, 0.0f, 1.2f * t), ikpd::kIdentityRotation};
    in.legs = legs;
    in.grounds = hits;
    if (!job.Update(1.0f / 60.0f, in, {&pelvis, out})) std::abort();
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(GroundingJob);

// bench/js/springs.js's character: body → neck → head → 7 chains of 7 bones fanned
// round the back of the head (6 swinging joints each, the last a tail only).
void RigSprings(benchmark::State& state, float dt) {
  constexpr float kPi = 3.14159265f;
  const bench::SpringsCharacter c = bench::MakeSpringsCharacter(7, 7, 0, true);
  ikpd::rig::Rig rig = bench::MakeSpringsRig(c);
  std::vector<LocalTransform> in = c.rest, out = c.rest;
  std::vector<std::uint8_t> changed(c.rest.size());
  const LocalTransform root{};
  int frame = 0;
  for (auto _ : state) {
    const float t = static_cast<float>(++frame) * dt;
    in[2].rotation = glm::angleAxis(0.7f * std::sin(kPi * t), glm::vec3(0, 1, 0)) * glm::angleAxis(0.3f * std::sin(5 * t), glm::vec3(1, 0, 0));
    in[0].translation.x = 0.2f * std::sin(2 * t);
    if (!rig.Update(dt, in, root, out, changed)) std::abort();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
// 60 Hz: a tick a frame, its tails shown as they are (one pass over the joints).
BENCHMARK_CAPTURE(RigSprings, 60hz, 1.0f / 60.0f);
// Frames just off the ticks (1/60 s · (1 + 2e-5)): each a tick, the look-ahead tick and
// the shown tails placed (three passes; before #45's speed work, every 60 Hz frame from the 192nd).
BENCHMARK_CAPTURE(RigSprings, off_tick, 1.0f / 60.0f * (1.0f + 2e-5f));

}  // namespace
