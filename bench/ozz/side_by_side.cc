// ikpd's prepared single-item jobs side by side with ozz-animation's
// IKTwoBoneJob and IKAimJob on the same 1024 problems (bench/problems.h).
// Not part of `npm run bench` or CI: it needs ozz-animation's source, built
// outside the repository (BENCHMARKS.md, Reproduce). Inputs are assembled
// before timing for both libraries (ozz: model-space matrices; ikpd: frames),
// so each loop times one job per item. ozz returns local corrections, ikpd
// the solved rotations (and the two-bone's positions and distance).
#include <benchmark/benchmark.h>

#include <vector>

#include "ikpd/ikpd.h"
#include "../problems.h"
#include "ozz/animation/runtime/ik_aim_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"

namespace {

constexpr std::size_t kItems = 1024;

glm::vec3 Vec3At(const std::vector<float>& f, std::size_t i) { return {f[3 * i], f[3 * i + 1], f[3 * i + 2]}; }
glm::quat QuatAt(const std::vector<float>& f, std::size_t i) {
  return glm::quat(f[4 * i + 3], f[4 * i], f[4 * i + 1], f[4 * i + 2]);
}
ozz::math::SimdFloat4 Point(const glm::vec3& v) { return ozz::math::simd_float4::Load(v.x, v.y, v.z, 1.0f); }
ozz::math::SimdFloat4 Vector(const glm::vec3& v) { return ozz::math::simd_float4::Load(v.x, v.y, v.z, 0.0f); }
ozz::math::Float4x4 Matrix(const glm::vec3& p, const glm::quat& q) {
  return ozz::math::Float4x4::FromAffine(Point(p), ozz::math::simd_float4::Load(q.x, q.y, q.z, q.w),
                                         ozz::math::simd_float4::one());
}

void TwoBoneIkpd(benchmark::State& state) {
  const bench::TwoBoneProblems p = bench::MakeTwoBoneProblems(kItems);
  ikpd::TwoBoneSettings settings;
  settings.soften = 0.05f;
  settings.pole = ikpd::TwoBonePole::kPoint;
  ikpd::TwoBoneSetup setup;
  if (!ikpd::Prepare(settings, &setup)) state.SkipWithError("Prepare failed");
  std::vector<ikpd::TwoBoneFrame> frames(kItems);
  for (std::size_t i = 0; i < kItems; ++i) {
    ikpd::TwoBoneFrame& f = frames[i];
    f.root = {Vec3At(p.rootPosition, i), QuatAt(p.rootRotation, i)};
    f.mid = {Vec3At(p.midPosition, i), QuatAt(p.midRotation, i)};
    f.end = {Vec3At(p.endPosition, i), QuatAt(p.endRotation, i)};
    f.target = Vec3At(p.target, i);
    f.pole = Vec3At(p.pole, i);
    f.weight = p.weight[i];
  }
  ikpd::TwoBoneResult result;
  for (auto _ : state) {
    for (const ikpd::TwoBoneFrame& f : frames) {
      if (!ikpd::SolveTwoBone(setup, f, &result)) state.SkipWithError("SolveTwoBone failed");
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(TwoBoneIkpd);

void TwoBoneOzz(benchmark::State& state) {
  const bench::TwoBoneProblems p = bench::MakeTwoBoneProblems(kItems);
  struct Item {
    ozz::math::Float4x4 root, mid, end;
    ozz::math::SimdFloat4 target, pole;
    float weight;
  };
  std::vector<Item> items(kItems);
  for (std::size_t i = 0; i < kItems; ++i) {
    const glm::vec3 root = Vec3At(p.rootPosition, i);
    items[i] = {Matrix(root, QuatAt(p.rootRotation, i)), Matrix(Vec3At(p.midPosition, i), QuatAt(p.midRotation, i)),
                Matrix(Vec3At(p.endPosition, i), QuatAt(p.endRotation, i)), Point(Vec3At(p.target, i)),
                Vector(Vec3At(p.pole, i) - root), p.weight[i]};
  }
  ozz::math::SimdQuaternion rootCorrection, midCorrection;
  bool reached = false;
  ozz::animation::IKTwoBoneJob job;
  job.soften = 0.95f;
  job.start_joint_correction = &rootCorrection;
  job.mid_joint_correction = &midCorrection;
  job.reached = &reached;
  for (auto _ : state) {
    for (const Item& it : items) {
      job.start_joint = &it.root;
      job.mid_joint = &it.mid;
      job.end_joint = &it.end;
      job.target = it.target;
      job.pole_vector = it.pole;
      job.weight = it.weight;
      if (!job.Run()) state.SkipWithError("IKTwoBoneJob failed");
      benchmark::DoNotOptimize(rootCorrection);
      benchmark::DoNotOptimize(midCorrection);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(TwoBoneOzz);

void AimIkpd(benchmark::State& state) {
  const bench::AimProblems p = bench::MakeAimProblems(kItems);
  ikpd::AimSettings settings;
  settings.pole = true;
  ikpd::AimSetup setup;
  if (!ikpd::Prepare(settings, &setup)) state.SkipWithError("Prepare failed");
  std::vector<ikpd::AimFrame> frames(kItems);
  for (std::size_t i = 0; i < kItems; ++i) {
    ikpd::AimFrame& f = frames[i];
    f.position = Vec3At(p.position, i);
    f.rotation = QuatAt(p.rotation, i);
    f.target = Vec3At(p.target, i);
    f.pole = Vec3At(p.pole, i);
    f.weight = p.weight[i];
  }
  glm::quat result;
  for (auto _ : state) {
    for (const ikpd::AimFrame& f : frames) {
      if (!ikpd::SolveAim(setup, f, &result)) state.SkipWithError("SolveAim failed");
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(AimIkpd);

void AimOzz(benchmark::State& state) {
  const bench::AimProblems p = bench::MakeAimProblems(kItems);
  struct Item {
    ozz::math::Float4x4 joint;
    ozz::math::SimdFloat4 target, pole;
    float weight;
  };
  std::vector<Item> items(kItems);
  for (std::size_t i = 0; i < kItems; ++i) {
    const glm::vec3 position = Vec3At(p.position, i);
    items[i] = {Matrix(position, QuatAt(p.rotation, i)), Point(Vec3At(p.target, i)),
                Vector(Vec3At(p.pole, i) - position), p.weight[i]};
  }
  ozz::math::SimdQuaternion correction;
  bool reached = false;
  ozz::animation::IKAimJob job;
  job.joint_correction = &correction;
  job.reached = &reached;
  for (auto _ : state) {
    for (const Item& it : items) {
      job.joint = &it.joint;
      job.target = it.target;
      job.pole_vector = it.pole;
      job.weight = it.weight;
      if (!job.Run()) state.SkipWithError("IKAimJob failed");
      benchmark::DoNotOptimize(correction);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(AimOzz);

}  // namespace
