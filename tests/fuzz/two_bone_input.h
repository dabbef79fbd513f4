// Two-bone fuzz input and invariants, shared by the two-bone and pseudo
// three-bone harnesses.
#pragma once

#include <algorithm>

#include "fuzz.h"

namespace ikpd::fuzz {

// Limb options drawn from the fuzzer: mostly valid, sometimes out of range or non-finite.
inline void FillTwoBoneOptions(Input& in, TwoBoneJob& job) {
  job.target = in.Bool() ? job.root.position + in.Vec3() : in.MaybeNonFiniteVec3();
  switch (in.Int(0, 5)) {
    case 0: job.pole = in.Vec3(); break;
    case 1: job.poleDirection = in.Axis(); break;
    case 2: job.pole = in.Vec3(); job.poleDirection = in.Axis(); break;  // both: must be an error
    default: break;
  }
  if (in.Bool()) {
    const int axis = in.Int(0, 2);
    job.forward = glm::vec3(0.0f);
    job.forward[axis] = in.Bool() ? 1.0f : -1.0f;
    job.bendAxis = glm::vec3(0.0f);
    job.bendAxis[(axis + in.Int(1, 2)) % 3] = in.Bool() ? 1.0f : -1.0f;
  } else {
    job.forward = in.Axis();
    job.bendAxis = in.Axis();
  }
  job.bendDirection = static_cast<BendDirection>(in.Int(0, 2));
  job.straightBend = static_cast<BendDirection>(in.Int(0, 2));
  if (in.Bool()) {
    float lo = in.Range(0.0f, kPi), hi = in.Range(0.0f, kPi);
    if (in.Int(0, 7) != 0 && lo > hi) std::swap(lo, hi);
    job.minAngle = lo;
    job.maxAngle = hi;
  }
  if (in.Bool()) job.effectorOffset = in.Vec3();
  job.weight = in.Bool() ? 1.0f : (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite());
  job.soften = in.Bool() ? 0.0f : (in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite());
  job.maxStretch = in.Bool() ? 1.0f : (in.Bool() ? in.Range(1.0f, 4.0f) : in.MaybeNonFinite());
  job.twist = in.Bool() ? 0.0f : in.MaybeNonFinite();
  job.endRotation = static_cast<EndRotation>(in.Int(0, 1));
  job.tolerance = in.Bool() ? 1e-4f : in.MaybeNonFinite();
}

inline void FillTwoBoneJob(Input& in, TwoBoneJob& job) {
  const bool finite_only = in.Int(0, 7) != 0;
  job.root = {finite_only ? in.Vec3() : in.MaybeNonFiniteVec3(), in.Quat()};
  // Joints near each other most of the time (bones of ordinary lengths), sometimes anywhere.
  job.mid = {in.Bool() ? job.root.position + in.Vec3() : in.Vec3(), in.Quat()};
  job.end = {in.Bool() ? job.mid.position + in.Vec3() : in.Vec3(), in.Quat()};
  FillTwoBoneOptions(in, job);
}

// Prints the job when IKPD_FUZZ_TRACE is set (replaying an artifact).
inline void TraceTwoBoneJob(const TwoBoneJob& j) {
  auto v = [](const char* name, const glm::vec3& p) { FUZZ_TRACE("%s %.9g %.9g %.9g\n", name, p.x, p.y, p.z); };
  auto q = [](const char* name, const glm::quat& r) { FUZZ_TRACE("%s wxyz %.9g %.9g %.9g %.9g\n", name, r.w, r.x, r.y, r.z); };
  v("root", j.root.position), q("root.rotation", j.root.rotation), v("mid", j.mid.position);
  q("mid.rotation", j.mid.rotation), v("end", j.end.position), q("end.rotation", j.end.rotation), v("target", j.target);
  if (j.pole) v("pole", *j.pole);
  if (j.poleDirection) v("poleDirection", *j.poleDirection);
  v("forward", j.forward), v("bendAxis", j.bendAxis), v("effectorOffset", j.effectorOffset);
  FUZZ_TRACE("bend %d straight %d min %.9g max %.9g weight %.9g soften %.9g stretch %.9g twist %.9g end %d tol %.9g\n",
             static_cast<int>(j.bendDirection), static_cast<int>(j.straightBend), j.minAngle, j.maxAngle, j.weight,
             j.soften, j.maxStretch, j.twist, static_cast<int>(j.endRotation), j.tolerance);
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
  FUZZ_CHECK(Finite(job.root, job.mid, job.end, job.target), "non-finite input accepted");
  FUZZ_CHECK(Finite(r.root, r.mid, r.end, r.distance), "non-finite result");
  FUZZ_CHECK(IsUnit(r.root.rotation) && IsUnit(r.mid.rotation) && IsUnit(r.end.rotation), "rotation not unit");
  FUZZ_CHECK(r.distance >= 0.0f, "negative distance");

  const float a = glm::distance(job.root.position, job.mid.position);
  const float b = glm::distance(job.mid.position, job.end.position);
  const bool moderate = Moderate(job.root.position) && Moderate(job.mid.position) && Moderate(job.end.position) &&
                        Moderate(job.target) && Moderate(job.effectorOffset) &&
                        (!job.pole || Moderate(*job.pole)) && a + b > 1e-2f;
  if (!moderate) return;  // only finiteness is meaningful at extreme magnitudes
  const float scale = 1.0f + glm::length(job.root.position) + glm::length(job.target) + a + b;
  const float tol = 1e-3f * scale;

  CheckLimbKept(job.root.position, a, b, r.root.position, r.mid.position, r.end.position, job.maxStretch, tol);
  // The contact point as it lands: the offset turns with the end (kRelative).
  const glm::quat endTurn = r.end.rotation * glm::conjugate(NormalizeSafe(job.end.rotation));
  const float actual_distance = glm::distance(r.end.position + endTurn * job.effectorOffset, job.target);
  FUZZ_CHECK(std::fabs(actual_distance - r.distance) <= tol, "distance %g but end is %g from target",
             double(r.distance), double(actual_distance));
  if (r.reached) {
    FUZZ_CHECK(r.distance <= job.tolerance * (a + b) * 1.001f + 1e-5f * scale, "reached but distance %g",
               double(r.distance));
  }
  if (job.weight != 1.0f) return;

  CheckForwardsAtChildren(job.forward, r.root, r.mid, r.end.position, a > 1e-2f * scale, b > 1e-2f * scale);
  if (a > 1e-2f * scale && b > 1e-2f * scale) {
    const float angle = AngleAt(r.root.position, r.mid.position, r.end.position);
    FUZZ_CHECK(angle >= job.minAngle - 1e-2f && angle <= job.maxAngle + 1e-2f,
               "mid angle %g outside [%g, %g]", double(angle), double(job.minAngle), double(job.maxAngle));
    // A target inside the reachable shell is reached (no soften/stretch), unless
    // the effector offset turns with the end (kRelative: documented to miss).
    const bool offsetTurns = job.endRotation == EndRotation::kRelative && job.effectorOffset != glm::vec3(0.0f);
    const float c = glm::distance(job.target - job.effectorOffset, job.root.position);
    const float c_min = std::sqrt(std::max(0.0f, a * a + b * b - 2.0f * a * b * std::cos(job.minAngle)));
    const float c_max = std::sqrt(std::max(0.0f, a * a + b * b - 2.0f * a * b * std::cos(job.maxAngle)));
    if (!offsetTurns && job.soften == 0.0f && job.maxStretch == 1.0f && c > c_min + 1e-2f * scale && c < c_max - 1e-2f * scale) {
      FUZZ_CHECK(r.distance <= tol, "reachable target missed by %g (c=%g in [%g, %g])", double(r.distance),
                 double(c), double(c_min), double(c_max));
    }
  }
}

}  // namespace ikpd::fuzz
