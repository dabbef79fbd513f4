// Fuzzes ChainJob (CCD/FABRIK with limits and pole, docs/ik/chains.md) and Tentacle2D (docs/ik/tentacle.md):
// finite input → finite, unit, consistent chain or a named error (outputs
// untouched). Invariants: the root stays put, bone lengths are kept, every
// joint's forward axis points at its child, cone limits hold (CCD), the
// result's distance/reached/iterations match, a single bone turns exactly
// toward the target (nearly opposite included); the tentacle keeps its lengths
// and |angle_i| <= limit_i after every update.
#include <vector>

#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::fuzz;

namespace {

constexpr int kMaxJoints = 10;

void FuzzChain(Input& in) {
  const int n = in.Int(0, kMaxJoints);
  std::vector<Transform> joints(static_cast<std::size_t>(n));
  glm::vec3 p = in.Vec3();
  for (Transform& j : joints) {
    j.position = p;
    j.rotation = in.Quat();
    p += in.Bool() ? in.Vec3() : glm::vec3(in.Range(-2.0f, 2.0f), in.Range(-2.0f, 2.0f), in.Range(-2.0f, 2.0f));
  }
  if (n > 0 && in.Int(0, 15) == 0) joints[static_cast<std::size_t>(in.Int(0, n - 1))].position.x = in.MaybeNonFinite();

  ChainJob job;
  job.frame.joints = joints;
  job.frame.target = in.Bool() ? in.Vec3() : (n > 0 ? joints[0].position + in.Vec3() : in.Vec3());
  job.settings.method = static_cast<ChainMethod>(in.Int(0, 1));
  job.settings.iterations = in.Int(0, 5) == 0 ? in.Int(-3, 40) : in.Int(0, 30);
  job.settings.tolerance = in.Bool() ? 1e-4f : in.MaybeNonFinite();
  std::vector<JointLimit> limits;
  const int limit_mode = in.Int(0, 3);
  if (limit_mode > 0) {
    limits.resize(static_cast<std::size_t>(std::max(0, limit_mode == 3 ? in.Int(0, kMaxJoints) : n - 2 + limit_mode)));
    for (JointLimit& l : limits) {
      l.kind = static_cast<JointLimit::Kind>(in.Int(0, 2));
      l.angle = in.Bool() ? in.Range(0.0f, kPi) : in.MaybeNonFinite();
      l.axis = in.Bool() ? glm::vec3(0.0f) : in.Axis();
      float lo = in.Range(-kPi, kPi), hi = in.Range(-kPi, kPi);
      if (in.Int(0, 7) != 0 && lo > hi) std::swap(lo, hi);
      l.min = glm::vec3(lo, in.Bool() ? 0.0f : lo, lo);
      l.max = glm::vec3(hi, in.Bool() ? 0.0f : hi, hi);
    }
  }
  job.settings.limits = limits;
  const bool hasPole = in.Bool();
  const glm::vec3 pole = in.Vec3();
  if (hasPole) job.frame.pole = pole;
  job.settings.forward = in.Axis();
  job.frame.parentRotation = in.Quat();
  std::vector<Transform> output(static_cast<std::size_t>(std::max(0, in.Int(0, 7) == 0 ? in.Int(0, kMaxJoints) : n)));
  for (Transform& t : output) t.position = glm::vec3(7.0f);
  const std::vector<Transform> untouched = output;
  job.output = output;
  ChainResult result;
  result.distance = -7.0f;
  job.result = in.Int(0, 3) == 0 ? nullptr : &result;

  for (const Transform& j : joints) {
    FUZZ_TRACE("joint %.9g %.9g %.9g wxyz %.9g %.9g %.9g %.9g\n", j.position.x, j.position.y, j.position.z, j.rotation.w,
               j.rotation.x, j.rotation.y, j.rotation.z);
  }
  FUZZ_TRACE("target %.9g %.9g %.9g method %d iterations %d pole %d forward %.9g %.9g %.9g parent wxyz %.9g %.9g %.9g %.9g limits %zu\n",
             job.frame.target.x, job.frame.target.y, job.frame.target.z, static_cast<int>(job.settings.method), job.settings.iterations, job.frame.pole.has_value(),
             job.settings.forward.x, job.settings.forward.y, job.settings.forward.z, job.frame.parentRotation.w, job.frame.parentRotation.x,
             job.frame.parentRotation.y, job.frame.parentRotation.z, limits.size());
  const bool ran = RunChecked(job, [&] {
    return (output.empty() || std::memcmp(output.data(), untouched.data(), output.size() * sizeof(Transform)) == 0) &&
           result.distance == -7.0f;
  });
  if (!ran) return;
  FUZZ_CHECK(output.size() == joints.size(), "accepted an output of the wrong size");
  float length = 0.0f;
  bool moderate = Moderate(job.frame.target) && (!job.frame.pole || Moderate(*job.frame.pole));
  for (std::size_t i = 0; i < joints.size(); ++i) {
    FUZZ_CHECK(Finite(output[i]), "joint %zu not finite", i);
    FUZZ_CHECK(IsUnit(output[i].rotation), "joint %zu rotation not unit", i);
    moderate = moderate && Moderate(joints[i].position);
    if (i + 1 < joints.size()) length += glm::distance(joints[i].position, joints[i + 1].position);
  }
  if (job.result) {
    FUZZ_CHECK(result.iterations >= 0 && result.iterations <= std::max(job.settings.iterations, 0), "iterations %d",
               result.iterations);
    FUZZ_CHECK(std::isfinite(result.distance) && result.distance >= 0.0f, "distance %g", double(result.distance));
  }
  if (!moderate) return;
  const float scale = 1.0f + length + glm::length(joints[0].position) + glm::length(job.frame.target);
  const float tol = 1e-3f * scale;
  FUZZ_CHECK(glm::distance(output[0].position, joints[0].position) <= tol, "root moved");
  const glm::vec3 f = NormalizeSafe(job.settings.forward);
  for (std::size_t i = 0; i + 1 < joints.size(); ++i) {
    const float before = glm::distance(joints[i].position, joints[i + 1].position);
    const float after = glm::distance(output[i].position, output[i + 1].position);
    FUZZ_CHECK(std::fabs(before - after) <= tol, "bone %zu length %g -> %g", i, double(before), double(after));
    if (before > 1e-2f * scale) {
      const glm::vec3 dir = glm::normalize(output[i + 1].position - output[i].position);
      FUZZ_CHECK(glm::dot(output[i].rotation * f, dir) > 0.999f, "joint %zu forward does not point at its child", i);
    }
  }
  // One bone (not too short) without a limit: after any iteration of either method the tip lies
  // on the ray from the root toward the target (a turn by the shortest arc,
  // nearly opposite directions included).
  const bool rootLimited = !limits.empty() && limits[0].kind != JointLimit::Kind::kNone;
  const glm::vec3 toTarget = job.frame.target - joints[0].position;
  if (joints.size() == 2 && !rootLimited && result.iterations > 0 && length > 1e-2f * scale &&
      glm::length(toTarget) > 1e-2f * scale) {
    const glm::vec3 expected = joints[0].position + glm::normalize(toTarget) * length;
    FUZZ_CHECK(glm::distance(output[1].position, expected) <= 1e-4f * scale, "one bone: tip %g off the target ray",
               double(glm::distance(output[1].position, expected)));
    const float off = glm::distance(output[0].rotation * f, glm::normalize(toTarget));
    FUZZ_CHECK(off <= 1e-4f, "one bone: forward axis %g off the target ray", double(off));
  }
  if (job.result) {
    const float distance = glm::distance(output.back().position, job.frame.target);
    FUZZ_CHECK(std::fabs(distance - result.distance) <= tol, "distance %g, tip is %g from target",
               double(result.distance), double(distance));
    if (result.reached) {
      FUZZ_CHECK(result.distance <= job.settings.tolerance * length * 1.001f + 1e-5f * scale, "reached at distance %g",
                 double(result.distance));
    }
  }
}

void FuzzTentacle(Input& in) {
  const int bones = in.Int(0, 8);
  std::vector<float> lengths(static_cast<std::size_t>(bones)), limits;
  for (float& l : lengths) l = in.Bool() ? in.Range(0.0f, 3.0f) : in.MaybeNonFinite();
  if (in.Bool()) {
    limits.resize(static_cast<std::size_t>(in.Int(0, 5) == 0 ? in.Int(0, 8) : bones));
    for (float& l : limits) l = in.Bool() ? in.Range(0.0f, kPi) : in.MaybeNonFinite();
  }
  Tentacle2DSettings settings;
  settings.lengths = lengths;
  settings.limits = limits;
  settings.step = in.Bool() ? in.Range(0.0f, kPi) : in.MaybeNonFinite();
  settings.limit = in.Bool() ? in.Range(0.0f, kPi) : in.MaybeNonFinite();
  settings.root = glm::vec2(in.Float(), in.Float());
  settings.baseAngle = in.Bool() ? in.Range(-4.0f, 4.0f) : in.MaybeNonFinite();
  FUZZ_TRACE("tentacle step %.9g limit %.9g root %.9g %.9g baseAngle %.9g lengths", settings.step, settings.limit,
             settings.root.x, settings.root.y, settings.baseAngle);
  for (float l : lengths) FUZZ_TRACE(" %.9g", l);
  FUZZ_TRACE("\n");
  Tentacle2D tentacle;
  const Status reset = tentacle.Reset(settings);
  if (!reset.ok()) {
    FUZZ_CHECK(NamesParameter(reset), "%s", reset.error);
    return;
  }
  const bool moderate = Moderate(settings.root.x) && Moderate(settings.root.y);
  float total = 0.0f;
  for (float l : lengths) total += l;
  for (int update = 0; update < 24 && in.remaining() > 0; ++update) {
    const std::vector<float> angles_before(tentacle.angles().begin(), tentacle.angles().end());
    const glm::vec2 target(in.MaybeNonFinite(), in.MaybeNonFinite());
    const Status s = tentacle.Update(target);
    FUZZ_TRACE("update %.9g %.9g: %s\n", target.x, target.y, s.ok() ? "ok" : s.error);
    if (!s.ok()) {
      FUZZ_CHECK(NamesParameter(s), "%s", s.error);
      FUZZ_CHECK(std::equal(angles_before.begin(), angles_before.end(), tentacle.angles().begin()),
                 "angles changed on error");
      continue;
    }
    const auto positions = tentacle.positions();
    const auto angles = tentacle.angles();
    for (std::size_t i = 0; i < angles.size(); ++i) {
      FUZZ_CHECK(std::isfinite(angles[i]) && std::fabs(angles[i]) <= tentacle.limits()[i] + 1e-5f,
                 "angle %zu = %g beyond limit %g", i, double(angles[i]), double(tentacle.limits()[i]));
      FUZZ_CHECK(std::fabs(angles[i] - angles_before[i]) <= tentacle.step() + 1e-5f, "joint %zu turned more than step",
                 i);
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
      FUZZ_CHECK(std::isfinite(positions[i].x) && std::isfinite(positions[i].y), "position %zu not finite", i);
      if (moderate && i + 1 < positions.size() && lengths[i] < 1e3f) {
        const float l = glm::distance(positions[i], positions[i + 1]);
        // Float rounding grows with the coordinates' magnitude (the total length from the origin).
        FUZZ_CHECK(std::fabs(l - lengths[i]) <= 1e-3f * (1.0f + lengths[i]) + 1e-5f * (total + glm::length(settings.root)),
                   "bone %zu length %g, expected %g", i, double(l), double(lengths[i]));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  if (in.Int(0, 3) == 0) FuzzTentacle(in);
  else FuzzChain(in);
  return 0;
}
