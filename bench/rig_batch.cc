// Native cost of a crowd through RigBatch (docs/rig/rig-batch.md) next to the
// same frame as one Rig::Update per character. The crowd character of
// demo/lib/crowd.js (SKELETON): pelvis … head, a 5-joint spine of aims
// (weights 0.1 … 1, LOOK_SHARE), and 4 two-bone limbs (legs with knee poles,
// arms), 10,000 characters. Arg: the aims' settleTime in ms (0: no smoothing;
// 300: the crowd's PD). Items = characters, so ns/item = ns per character.
// RigBatchSprings / RigSpringsPerAvatar: the springs crowd of
// bench/js/springs_crowd.js, 1,000 avatars × 40 spring joints (5 hair chains of
// 8 swinging joints and their tails, a sphere on the head, center the neck),
// each head turning and nodding on its own phase, as one RigBatch and as one
// Rig per avatar. Items = avatars.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "ikpd/batch/common.h"
#include "ikpd/rig/rig_batch.h"
#include "springs_character.h"

namespace {

using ikpd::rig::ConstraintKind;
using ikpd::rig::LocalTransform;

constexpr std::size_t kCharacters = 10000;
constexpr float kShare[5] = {0.1f, 0.25f, 0.45f, 0.7f, 1.0f};

// pelvis 0, belly 1, chest 2, neck 3, head 4; legs 5–8 and 9–12 (hip, knee,
// ankle, toe); arms 13–15 and 16–18 (shoulder, elbow, wrist). Y up, facing +Z.
ikpd::rig::Rig CrowdRig(float settleTime) {
  const std::vector<int> parents = {-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 2, 13, 14, 2, 16, 17};
  const glm::vec3 offsets[] = {{0, 0.98f, 0},  {0, 0.14f, 0},      {0, 0.18f, 0},  {0, 0.2f, 0},   {0, 0.1f, 0},
                               {0.1f, -0.06f, 0}, {0, -0.42f, 0.01f}, {0, -0.42f, -0.01f}, {0, -0.04f, 0.08f},
                               {-0.1f, -0.06f, 0}, {0, -0.42f, 0.01f}, {0, -0.42f, -0.01f}, {0, -0.04f, 0.08f},
                               {0.18f, -0.02f, 0}, {0, -0.27f, -0.01f}, {0, -0.25f, 0.01f},
                               {-0.18f, -0.02f, 0}, {0, -0.27f, -0.01f}, {0, -0.25f, 0.01f}};
  std::vector<LocalTransform> rest(parents.size());
  for (std::size_t j = 0; j < rest.size(); ++j) rest[j].translation = offsets[j];
  ikpd::rig::Skeleton skeleton;
  ikpd::rig::Rig rig;
  if (!skeleton.Init(parents) || !rig.Init(skeleton, rest)) std::abort();
  for (int j = 0; j < 5; ++j) {
    ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kAim);
    s.joints = {j};
    s.common.weight = kShare[j];
    s.common.settleTime = settleTime;
    if (!rig.Add(s)) std::abort();
  }
  for (const std::vector<int>& limb : {std::vector<int>{5, 6, 7}, {9, 10, 11}, {13, 14, 15}, {16, 17, 18}}) {
    ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kTwoBone);
    s.joints = limb;
    s.twoBone.settings.soften = 0.05f;
    if (!rig.Add(s)) std::abort();
  }
  return rig;
}

// Character c's frame: its root on a ring, its look target, feet and hands.
struct Placement {
  glm::vec3 root, look, feet[2], hands[2], knee[2];
  glm::quat yaw;
};
Placement Place(std::size_t c, int frame) {
  const float a = 0.01f * static_cast<float>(c), t = 0.05f * static_cast<float>(frame);
  Placement p;
  p.root = {10.0f * std::cos(a), 0.0f, 10.0f * std::sin(a)};
  p.yaw = glm::angleAxis(a, glm::vec3(0, 1, 0));
  p.look = p.root + p.yaw * glm::vec3(std::sin(t + a), 1.6f, 2.0f);
  for (int s = 0; s < 2; ++s) {
    const float side = s == 0 ? 1.0f : -1.0f, swing = 0.2f * std::sin(t + a + side);
    p.feet[s] = p.root + p.yaw * glm::vec3(0.1f * side, 0.1f, swing);
    p.hands[s] = p.root + p.yaw * glm::vec3(0.3f * side, 1.0f, 0.2f - swing);
    p.knee[s] = p.root + p.yaw * glm::vec3(0.1f * side, 0.5f, 1.0f);
  }
  return p;
}

// The frame's placements, untimed (both benchmarks time only filling the inputs and the update).
void PlaceAll(benchmark::State& state, std::vector<Placement>& places, int& frame) {
  state.PauseTiming();
  for (std::size_t c = 0; c < kCharacters; ++c) places[c] = Place(c, frame);
  ++frame;
  state.ResumeTiming();
}

void RigBatchCrowd(benchmark::State& state) {
  const ikpd::rig::Rig rig = CrowdRig(static_cast<float>(state.range(0)) / 1000.0f);
  ikpd::rig::RigBatch batch;
  if (!batch.Init(rig, kCharacters)) std::abort();
  batch.poleSet()[5] = batch.poleSet()[6] = 1;  // knee poles
  std::vector<Placement> places(kCharacters);
  int frame = 0;
  for (auto _ : state) {
    PlaceAll(state, places, frame);
    for (std::size_t c = 0; c < kCharacters; ++c) {  // the frame's inputs (timed, as the Rig's frames below)
      const Placement& p = places[c];
      ikpd::batch::StoreVec3(batch.rootPositions().data(), c, p.root);
      ikpd::batch::StoreQuat(batch.rootRotations().data(), c, p.yaw);
      for (std::size_t i = 0; i < 5; ++i) ikpd::batch::StoreVec3(batch.targets(i).data(), c, p.look);
      for (std::size_t s = 0; s < 2; ++s) {
        ikpd::batch::StoreVec3(batch.targets(5 + s).data(), c, p.feet[s]);
        ikpd::batch::StoreVec3(batch.poles(5 + s).data(), c, p.knee[s]);
        ikpd::batch::StoreVec3(batch.targets(7 + s).data(), c, p.hands[s]);
      }
    }
    if (!batch.Update(1.0f / 60.0f)) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(batch.output().data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kCharacters));
}
BENCHMARK(RigBatchCrowd)->Arg(0)->Arg(300)->Unit(benchmark::kMillisecond);

void RigCrowdPerCharacter(benchmark::State& state) {
  const ikpd::rig::Rig rig = CrowdRig(static_cast<float>(state.range(0)) / 1000.0f);
  std::vector<ikpd::rig::Rig> rigs(kCharacters, rig);
  std::vector<LocalTransform> in(rig.rest().begin(), rig.rest().end()), out(in.size());
  std::vector<Placement> places(kCharacters);
  int frame = 0;
  for (auto _ : state) {
    PlaceAll(state, places, frame);
    for (std::size_t c = 0; c < kCharacters; ++c) {
      const Placement& p = places[c];
      auto frames = rigs[c].frames();
      for (std::size_t i = 0; i < 5; ++i) frames[i].target = p.look;
      for (std::size_t s = 0; s < 2; ++s) {
        frames[5 + s].target = p.feet[s], frames[5 + s].pole = p.knee[s], frames[5 + s].poleSet = 1.0f;
        frames[7 + s].target = p.hands[s];
      }
      if (!rigs[c].Update(1.0f / 60.0f, in, {p.root, p.yaw, glm::vec3(1.0f)}, out)) state.SkipWithError("update failed");
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kCharacters));
}
BENCHMARK(RigCrowdPerCharacter)->Arg(0)->Arg(300)->Unit(benchmark::kMillisecond);

// The springs crowd (bench/js/springs_crowd.js): body 0 → neck 1 → head 2, 5
// chains of 9 bones (8 swinging joints and their tail) round the back of the head.
constexpr std::size_t kAvatars = 1000;
constexpr int kHead = 2, kPhases = 64;

ikpd::rig::Rig SpringsRig() { return bench::MakeSpringsRig(bench::MakeSpringsCharacter(5, 9, 1, false)); }

// Avatar c's head at frame f (a turn and a nod) and its root.
glm::quat HeadAt(std::size_t c, int f) {
  const float t = 2.0f * 3.14159265f * static_cast<float>((static_cast<std::size_t>(f) + c) % kPhases) / kPhases;
  return glm::angleAxis(0.7f * std::sin(t), glm::vec3(0, 1, 0)) * glm::angleAxis(0.3f * std::sin(3.0f * t), glm::vec3(1, 0, 0));
}
glm::vec3 RootAt(std::size_t c, int f) {
  return {2.0f * static_cast<float>(c % 40) + 0.2f * std::sin(0.1f * static_cast<float>(static_cast<std::size_t>(f) + c)), 0.0f,
          2.0f * static_cast<float>(c / 40)};
}

void RigBatchSprings(benchmark::State& state) {
  const ikpd::rig::Rig rig = SpringsRig();
  ikpd::rig::RigBatch batch;
  if (!batch.Init(rig, kAvatars)) std::abort();
  int frame = 0;
  for (auto _ : state) {
    for (std::size_t c = 0; c < kAvatars; ++c) {  // the frame's inputs (timed, as the Rigs' below)
      ikpd::batch::StoreQuat(batch.rotations().data(), kHead * kAvatars + c, HeadAt(c, frame));
      ikpd::batch::StoreVec3(batch.rootPositions().data(), c, RootAt(c, frame));
    }
    ++frame;
    if (!batch.Update(1.0f / 60.0f)) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(batch.output().data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kAvatars));
}
BENCHMARK(RigBatchSprings)->Unit(benchmark::kMillisecond);

void RigSpringsPerAvatar(benchmark::State& state) {
  const ikpd::rig::Rig rig = SpringsRig();
  std::vector<ikpd::rig::Rig> rigs(kAvatars, rig);
  std::vector<LocalTransform> in(rig.rest().begin(), rig.rest().end()), out(in.size());
  int frame = 0;
  for (auto _ : state) {
    for (std::size_t c = 0; c < kAvatars; ++c) {
      in[kHead].rotation = HeadAt(c, frame);
      if (!rigs[c].Update(1.0f / 60.0f, in, {RootAt(c, frame), glm::quat(1, 0, 0, 0), glm::vec3(1.0f)}, out)) {
        state.SkipWithError("update failed");
      }
      benchmark::DoNotOptimize(out.data());
    }
    ++frame;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kAvatars));
}
BENCHMARK(RigSpringsPerAvatar)->Unit(benchmark::kMillisecond);

}  // namespace
