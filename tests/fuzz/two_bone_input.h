// Two-bone fuzz input and invariants, shared by the two-bone and pseudo
// three-bone harnesses.
#pragma once

#include <algorithm>

#include "fuzz.h"

namespace ikpd::fuzz {

// Limb options drawn from the fuzzer: mostly valid, sometimes out of range or non-finite.
inline void FillTwoBoneOptions(Input& in, TwoBoneJob& job) {
  job.frame.target = in.Bool() ? job.frame.root.position + in.Vec3() : in.MaybeNonFiniteVec3();
  switch (in.Int(0, 5)) {
    case 0: job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = in.Vec3(); break;
    case 1: job.settings.pole = ikpd::TwoBonePole::kDirection, job.frame.pole = in.Axis(); break;
    case 2: job.settings.pole = static_cast<ikpd::TwoBonePole>(3), job.frame.pole = in.Vec3(); break;  // JS pole and poleDirection both: must be an error
    default: break;
  }
  if (in.Bool()) {
    const int axis = in.Int(0, 2);
    job.settings.forward = glm::vec3(0.0f);
    job.settings.forward[axis] = in.Bool() ? 1.0f : -1.0f;
    job.settings.bendAxis = glm::vec3(0.0f);
    job.settings.bendAxis[(axis + in.Int(1, 2)) % 3] = in.Bool() ? 1.0f : -1.0f;
  } else {
    job.settings.forward = in.Axis();
    job.settings.bendAxis = in.Axis();
  }
  job.settings.bendDirection = static_cast<BendDirection>(in.Int(0, 2));
  job.settings.straightBend = static_cast<BendDirection>(in.Int(0, 2));
  if (in.Bool()) {
    float lo = in.Range(0.0f, kPi), hi = in.Range(0.0f, kPi);
    if (in.Int(0, 7) != 0 && lo > hi) std::swap(lo, hi);
    job.settings.minAngle = lo;
    job.settings.maxAngle = hi;
  }
  if (in.Bool()) job.frame.effectorOffset = in.Vec3();
  job.frame.weight = in.Bool() ? 1.0f : (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite());
  job.settings.soften = in.Bool() ? 0.0f : (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite());
  job.settings.maxStretch = in.Bool() ? 1.0f : (in.Bool() ? in.Range(1.0f, 4.0f) : in.MaybeNonFinite());
  job.settings.twist = in.Bool() ? 0.0f : in.MaybeNonFinite();
  job.settings.endRotation = static_cast<EndRotation>(in.Int(0, 1));
  job.settings.tolerance = in.Bool() ? 1e-4f : in.MaybeNonFinite();
}

inline void FillTwoBoneJob(Input& in, TwoBoneJob& job) {
  const bool finite_only = in.Int(0, 7) != 0;
  job.frame.root = {finite_only ? in.Vec3() : in.MaybeNonFiniteVec3(), in.Quat()};
  // Joints near each other most of the time (bones of ordinary lengths), sometimes anywhere.
  job.frame.mid = {in.Bool() ? job.frame.root.position + in.Vec3() : in.Vec3(), in.Quat()};
  job.frame.end = {in.Bool() ? job.frame.mid.position + in.Vec3() : in.Vec3(), in.Quat()};
  FillTwoBoneOptions(in, job);
}

// Prints the job when IKPD_FUZZ_TRACE is set (replaying an artifact).
inline void TraceTwoBoneJob(const TwoBoneJob& j) {
  auto v = [](const char* name, const glm::vec3& p) { FUZZ_TRACE("%s %.9g %.9g %.9g\n", name, p.x, p.y, p.z); };
  auto q = [](const char* name, const glm::quat& r) { FUZZ_TRACE("%s wxyz %.9g %.9g %.9g %.9g\n", name, r.w, r.x, r.y, r.z); };
  v("root", j.frame.root.position), q("root.rotation", j.frame.root.rotation), v("mid", j.frame.mid.position);
  q("mid.rotation", j.frame.mid.rotation), v("end", j.frame.end.position), q("end.rotation", j.frame.end.rotation), v("target", j.frame.target);
  if (j.settings.pole == ikpd::TwoBonePole::kPoint) v("pole", j.frame.pole);
  if (j.settings.pole == ikpd::TwoBonePole::kDirection) v("poleDirection", j.frame.pole);
  v("forward", j.settings.forward), v("bendAxis", j.settings.bendAxis), v("effectorOffset", j.frame.effectorOffset);
  FUZZ_TRACE("bend %d straight %d min %.9g max %.9g weight %.9g soften %.9g stretch %.9g twist %.9g end %d tol %.9g\n",
             static_cast<int>(j.settings.bendDirection), static_cast<int>(j.settings.straightBend), j.settings.minAngle, j.settings.maxAngle, j.frame.weight,
             j.settings.soften, j.settings.maxStretch, j.settings.twist, static_cast<int>(j.settings.endRotation), j.settings.tolerance);
}

// Interior angle at b of the triangle a-b-c, radians.
inline float AngleAt(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  const glm::vec3 u = glm::normalize(a - b), v = glm::normalize(c - b);
  return std::acos(std::clamp(glm::dot(u, v), -1.0f, 1.0f));
}

// The root stays at `root`; the bones (input lengths a, b) keep their
// lengths, or stretch within maxStretch. Shared by the limb harnesses.
inline void CheckLimbKept(const glm::vec3& root, float a, float b, const glm::vec3& outRoot, const glm::vec3& outMid,
                          const glm::vec3& outEnd, float maxStretch, float tol) {
  FUZZ_CHECK(glm::distance(outRoot, root) <= tol, "root moved");
  const float a2 = glm::distance(outRoot, outMid);
  const float b2 = glm::distance(outMid, outEnd);
  const float stretch = std::max(1.0f, maxStretch);
  FUZZ_CHECK(a2 >= a - tol && a2 <= a * stretch + tol, "upper bone length %g -> %g", double(a), double(a2));
  FUZZ_CHECK(b2 >= b - tol && b2 <= b * stretch + tol, "lower bone length %g -> %g", double(b), double(b2));
  if (maxStretch == 1.0f) {
    FUZZ_CHECK(std::fabs(a2 - a) <= tol && std::fabs(b2 - b) <= tol, "bone lengths changed without stretch");
  }
}

// Root and mid forward axes point at their child joint (checked for bones
// long enough to have a direction).
inline void CheckForwardsAtChildren(const glm::vec3& forward, const Transform& root, const Transform& mid,
                                    const glm::vec3& end, bool checkRoot, bool checkMid) {
  const glm::vec3 f = NormalizeSafe(forward);
  if (checkRoot) {
    FUZZ_CHECK(glm::dot(root.rotation * f, glm::normalize(mid.position - root.position)) > 0.999f,
               "root forward does not point at mid");
  }
  if (checkMid) {
    FUZZ_CHECK(glm::dot(mid.rotation * f, glm::normalize(end - mid.position)) > 0.999f,
               "mid forward does not point at end");
  }
}

// Checks a successful TwoBoneJob result against the invariants listed in two_bone_fuzz.cc.
inline void CheckTwoBoneResult(const TwoBoneJob& job, const TwoBoneResult& r) {
  FUZZ_CHECK(Finite(job.frame.root, job.frame.mid, job.frame.end, job.frame.target), "non-finite input accepted");
  FUZZ_CHECK(Finite(r.root, r.mid, r.end, r.distance), "non-finite result");
  FUZZ_CHECK(IsUnit(r.root.rotation) && IsUnit(r.mid.rotation) && IsUnit(r.end.rotation), "rotation not unit");
  FUZZ_CHECK(r.distance >= 0.0f, "negative distance");

  const float a = glm::distance(job.frame.root.position, job.frame.mid.position);
  const float b = glm::distance(job.frame.mid.position, job.frame.end.position);
  const bool moderate = Moderate(job.frame.root.position) && Moderate(job.frame.mid.position) && Moderate(job.frame.end.position) &&
                        Moderate(job.frame.target) && Moderate(job.frame.effectorOffset) &&
                        (job.settings.pole != ikpd::TwoBonePole::kPoint || Moderate(job.frame.pole)) && a + b > 1e-2f;
  if (!moderate) return;  // only finiteness is meaningful at extreme magnitudes
  const float scale = 1.0f + glm::length(job.frame.root.position) + glm::length(job.frame.target) + a + b;
  const float tol = 1e-3f * scale;

  CheckLimbKept(job.frame.root.position, a, b, r.root.position, r.mid.position, r.end.position, job.settings.maxStretch, tol);
  // The contact point as it lands: the offset turns with the end (kRelative).
  const glm::quat endTurn = r.end.rotation * glm::conjugate(NormalizeSafe(job.frame.end.rotation));
  const float actual_distance = glm::distance(r.end.position + endTurn * job.frame.effectorOffset, job.frame.target);
  FUZZ_CHECK(std::fabs(actual_distance - r.distance) <= tol, "distance %g but end is %g from target",
             double(r.distance), double(actual_distance));
  if (r.reached) {
    FUZZ_CHECK(r.distance <= job.settings.tolerance * (a + b) * 1.001f + 1e-5f * scale, "reached but distance %g",
               double(r.distance));
  }
  if (job.frame.weight != 1.0f) return;

  CheckForwardsAtChildren(job.settings.forward, r.root, r.mid, r.end.position, a > 1e-2f * scale, b > 1e-2f * scale);
  if (a > 1e-2f * scale && b > 1e-2f * scale) {
    const float angle = AngleAt(r.root.position, r.mid.position, r.end.position);
    FUZZ_CHECK(angle >= job.settings.minAngle - 1e-2f && angle <= job.settings.maxAngle + 1e-2f,
               "mid angle %g outside [%g, %g]", double(angle), double(job.settings.minAngle), double(job.settings.maxAngle));
    // A target inside the reachable shell is reached (no soften/stretch), unless
    // the effector offset turns with the end (kRelative: documented to miss).
    const bool offsetTurns = job.settings.endRotation == EndRotation::kRelative && job.frame.effectorOffset != glm::vec3(0.0f);
    const float c = glm::distance(job.frame.target - job.frame.effectorOffset, job.frame.root.position);
    const float c_min = std::sqrt(std::max(0.0f, a * a + b * b - 2.0f * a * b * std::cos(job.settings.minAngle)));
    const float c_max = std::sqrt(std::max(0.0f, a * a + b * b - 2.0f * a * b * std::cos(job.settings.maxAngle)));
    if (!offsetTurns && job.settings.soften == 0.0f && job.settings.maxStretch == 1.0f && c > c_min + 1e-2f * scale && c < c_max - 1e-2f * scale) {
      FUZZ_CHECK(r.distance <= tol, "reachable target missed by %g (c=%g in [%g, %g])", double(r.distance),
                 double(c), double(c_min), double(c_max));
    }
  }
}

}  // namespace ikpd::fuzz
