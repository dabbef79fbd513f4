// Shared helpers for the IK GoogleTests: seeded random rigs and geometry checks.
#pragma once

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ikpd/ikpd.h"
#include "native/status_test_util.h"

namespace iktest {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

inline glm::quat AxisAngle(const glm::vec3& axis, float angle) { return glm::angleAxis(angle, glm::normalize(axis)); }

struct Rng {
  std::mt19937 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); }
  glm::vec3 Vec(float lo, float hi) { return {Uniform(lo, hi), Uniform(lo, hi), Uniform(lo, hi)}; }
  glm::vec3 Direction() {
    for (;;) {
      const glm::vec3 v = Vec(-1.0f, 1.0f);
      const float l = glm::length(v);
      if (l > 0.1f && l <= 1.0f) return v / l;
    }
  }
  glm::quat Rotation() {
    std::normal_distribution<float> n;
    // One draw per statement: a call's arguments have no order of evaluation
    // (GCC took them last to first, clang first to last: other cases under
    // clang). This is GCC's order, so the cases stay the ones the suite ran.
    const float z = n(gen), y = n(gen), x = n(gen), w = n(gen);
    return glm::normalize(glm::quat(w, x, y, z));
  }
};

// A consistent limb: forward axes point at the child, the mid bends about `h` by `bend`.
struct Limb {
  ikpd::Transform root, mid, end;
};
inline Limb MakeLimb(const glm::vec3& rootPos, const glm::quat& rootRot, float a, float b, float bend,
                     const glm::vec3& f, const glm::vec3& h, const glm::quat& endRot) {
  Limb l;
  l.root = {rootPos, rootRot};
  const glm::quat midRot = rootRot * AxisAngle(h, bend);
  l.mid = {rootPos + a * (rootRot * f), midRot};
  l.end = {l.mid.position + b * (midRot * f), endRot};
  return l;
}

// A two-bone job on limb l's joints, writing to *out.
inline ikpd::TwoBoneJob TwoBoneJobFor(const Limb& l, ikpd::TwoBoneResult* out) {
  ikpd::TwoBoneJob job;
  job.frame.root = l.root;
  job.frame.mid = l.mid;
  job.frame.end = l.end;
  job.result = out;
  return job;
}

// Straight-forward rig along +X bent about +Z: root at origin, a = b = 1.
inline ikpd::TwoBoneJob BasicTwoBoneJob(float bend, ikpd::TwoBoneResult* out) {
  return TwoBoneJobFor(MakeLimb(glm::vec3(0), glm::quat(1, 0, 0, 0), 1.0f, 1.0f, bend, {1, 0, 0}, {0, 0, 1}, glm::quat(1, 0, 0, 0)), out);
}

inline double Dist(const glm::vec3& p, const glm::vec3& q) { return glm::length(glm::dvec3(p) - glm::dvec3(q)); }

// Interior angle at the mid joint, radians.
inline double InteriorAngle(const ikpd::TwoBoneResult& r) {
  const glm::dvec3 u = glm::dvec3(r.root.position) - glm::dvec3(r.mid.position);
  const glm::dvec3 v = glm::dvec3(r.end.position) - glm::dvec3(r.mid.position);
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
}

inline bool Finite(const ikpd::TwoBoneResult& r) {
  return ikpd::IsFinite(r.root) && ikpd::IsFinite(r.mid) && ikpd::IsFinite(r.end) && std::isfinite(r.distance);
}

// Angle between two directions, radians.
inline double AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 x(a), y(b);
  return std::atan2(glm::length(glm::cross(x, y)), glm::dot(x, y));
}

// AimJob::Run's rotation; the call must succeed.
inline glm::quat Aim(ikpd::AimJob job) {
  glm::quat out(0, 0, 0, 0);
  job.result = &out;
  const ikpd::Status s = job.Run();
  EXPECT_TRUE(s.ok()) << s.error;
  return out;
}

// Bit-for-bit equality, field by field (NaN equals the same NaN, −0 differs from 0; a memcmp
// of a whole result would also compare its padding, which no assignment has to copy).
inline bool Same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool Same(const glm::vec3& a, const glm::vec3& b) { return Same(a.x, b.x) && Same(a.y, b.y) && Same(a.z, b.z); }
inline bool Same(const glm::quat& a, const glm::quat& b) {
  return Same(a.x, b.x) && Same(a.y, b.y) && Same(a.z, b.z) && Same(a.w, b.w);
}
inline bool Same(const ikpd::Transform& a, const ikpd::Transform& b) {
  return Same(a.position, b.position) && Same(a.rotation, b.rotation);
}
inline bool Same(const ikpd::TwoBoneResult& a, const ikpd::TwoBoneResult& b) {
  return Same(a.root, b.root) && Same(a.mid, b.mid) && Same(a.end, b.end) && a.reached == b.reached &&
         Same(a.distance, b.distance);
}
inline bool Same(const ikpd::PseudoThreeBoneResult& a, const ikpd::PseudoThreeBoneResult& b) {
  return Same(a.root, b.root) && Same(a.mid, b.mid) && Same(a.end, b.end) && Same(a.tip, b.tip) &&
         a.reached == b.reached && Same(a.distance, b.distance);
}

// Validate and Run depend on their own call only: running jobs[k] for each k of
// `order` on this thread gives what each gives on a fresh thread (the same
// error text, or the same result bit for bit).
template <class Job, class Result>
void ExpectNoHiddenState(const std::vector<Job>& jobs, std::initializer_list<int> order) {
  const auto text = [](Job job, Result* out) {
    job.result = out;
    return statustest::Text(job.Validate()) + "/" + statustest::Text(job.Run());
  };
  std::vector<std::string> fresh(jobs.size());
  std::vector<Result> freshResult(jobs.size());
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    std::thread([&, k] { fresh[k] = text(jobs[k], &freshResult[k]); }).join();
  }
  for (const int i : order) {
    const auto k = static_cast<std::size_t>(i);
    Result r;
    EXPECT_EQ(text(jobs[k], &r), fresh[k]) << k;
    if (fresh[k] == "ok/ok") {
      EXPECT_TRUE(Same(r, freshResult[k])) << k;
    }
  }
}

}  // namespace iktest
