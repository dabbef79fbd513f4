#include "ikpd/ik/two_bone.h"

#include <algorithm>

#include <glm/vec3.hpp>

#include "ik_math.h"
#include "job_memo.h"
#include "../thread_memo.h"
#include "two_bone_kernel.h"

namespace ikpd {
namespace {


Status ValidateJoint(const Transform& joint, const char* positionError, const char* rotationError) {
  if (!IsFinite(joint.position)) return Error(positionError);
  if (!IsUsableRotation(joint.rotation)) return Error(rotationError);
  return Ok();
}

bool IsSide(BendDirection d) { return d == BendDirection::kPositive || d == BendDirection::kNegative; }

// Every check, in parameter order (the errors name the first bad one).
Status ValidateAll(const TwoBoneJob& job) {
  Status s = ValidateJoint(job.root, "root.position: must be finite", "root.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  s = ValidateJoint(job.mid, "mid.position: must be finite", "mid.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  s = ValidateJoint(job.end, "end.position: must be finite", "end.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  if (!IsFinite(job.target)) return Error("target: must be finite");
  if (job.pole && !IsFinite(*job.pole)) return Error("pole: must be finite");
  if (job.poleDirection) {
    if (!IsFinite(*job.poleDirection)) return Error("poleDirection: must be finite");
    if (job.pole) return Error("poleDirection: cannot be combined with pole");
  }
  if (const Status axes = detail::LimbAxesOf(job.forward, job.bendAxis, nullptr); !axes) return axes;
  if (!IsSide(job.bendDirection) && job.bendDirection != BendDirection::kAuto) {
    return Error("bendDirection: must be auto, positive or negative");
  }
  if (!IsSide(job.straightBend)) return Error("straightBend: must be positive or negative");
  if (!(job.minAngle >= 0.0f && job.minAngle <= kPi)) return Error("minAngle: must be in [0, pi]");
  if (!(job.maxAngle >= 0.0f && job.maxAngle <= kPi)) return Error("maxAngle: must be in [0, pi]");
  if (job.minAngle > job.maxAngle) return Error("minAngle: must not exceed maxAngle");
  if (!IsFinite(job.effectorOffset)) return Error("effectorOffset: must be finite");
  if (!(job.weight >= 0.0f && job.weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (!(job.soften >= 0.0f && job.soften <= 1.0f)) return Error("soften: must be in [0, 1]");
  if (!(job.maxStretch >= 1.0f && IsFinite(job.maxStretch))) return Error("maxStretch: must be finite and >= 1");
  if (!IsFinite(job.twist)) return Error("twist: must be finite");
  if (job.endRotation != EndRotation::kWorld && job.endRotation != EndRotation::kRelative) {
    return Error("endRotation: must be world or relative");
  }
  if (!(job.tolerance >= 0.0f && IsFinite(job.tolerance))) return Error("tolerance: must be finite and >= 0");
  if (job.result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

// Everything TwoBoneShared depends on, as plain 4-byte fields.
struct TwoBoneKey {
  glm::vec3 forward, bendAxis;
  int bendDirection, straightBend, endRotation, pole;
  float minAngle, maxAngle, soften, maxStretch, twist, tolerance;
};
static_assert(sizeof(TwoBoneKey) == 16 * 4, "TwoBoneKey must have no padding");

detail::TwoBonePole PoleOf(const TwoBoneJob& job) {
  return job.pole ? detail::TwoBonePole::kPoint
                  : (job.poleDirection ? detail::TwoBonePole::kDirection : detail::TwoBonePole::kNone);
}

TwoBoneKey KeyOf(const TwoBoneJob& job) {
  TwoBoneKey k;
  k.forward = job.forward;
  k.bendAxis = job.bendAxis;
  k.bendDirection = static_cast<int>(job.bendDirection);
  k.straightBend = static_cast<int>(job.straightBend);
  k.endRotation = static_cast<int>(job.endRotation);
  k.pole = static_cast<int>(PoleOf(job));
  k.minAngle = job.minAngle;
  k.maxAngle = job.maxAngle;
  k.soften = job.soften;
  k.maxStretch = job.maxStretch;
  k.twist = job.twist;
  k.tolerance = job.tolerance;
  return k;
}

using TwoBoneMemo = detail::OptionsMemo<TwoBoneKey, detail::TwoBoneShared>;

// The common case in one pass: finite per-call inputs, usable rotations, a
// weight in range and the options of an earlier valid call on this thread.
// Returns their shared setup, or null when the full check must run.
const detail::TwoBoneShared* QuickValid(const TwoBoneJob& job) {
  const glm::vec3 pole = job.pole.value_or(job.poleDirection.value_or(glm::vec3(0.0f)));
  if (!detail::AllFinite(job.root.position, job.root.rotation, job.mid.position, job.mid.rotation, job.end.position,
                         job.end.rotation, job.target, pole, job.effectorOffset)) {
    return nullptr;
  }
  const auto usable = [](const glm::quat& q) { return glm::dot(q, q) > 1e-12f; };
  if (!usable(job.root.rotation) || !usable(job.mid.rotation) || !usable(job.end.rotation)) return nullptr;
  if (!(job.weight >= 0.0f && job.weight <= 1.0f) || job.result == nullptr || (job.pole && job.poleDirection)) {
    return nullptr;
  }
  return TwoBoneMemo::OfThisThread().Find(KeyOf(job));
}

const detail::TwoBoneShared& Remember(const TwoBoneJob& job) {
  return TwoBoneMemo::OfThisThread().Store(KeyOf(job), detail::MakeTwoBoneShared(job, PoleOf(job)));
}

}  // namespace

Status TwoBoneJob::Validate() const {
  if (QuickValid(*this) != nullptr) return Ok();
  const Status status = ValidateAll(*this);
  if (status) Remember(*this);
  return status;
}

namespace detail {

Status LimbAxesOf(const glm::vec3& forward, const glm::vec3& bendAxis, LimbAxes* out) {
  // The last valid pair seen on this thread: jobs usually repeat one rig's axes.
  IKPD_THREAD_MEMO LimbAxes last;
  IKPD_THREAD_MEMO bool haveLast = false;
  // Bit-wise equal (NaN never gets cached; −0 and 0 just miss).
  auto sameBits = [](const glm::vec3& a, const glm::vec3& b) {
    return simd::BitsOf(a.x) == simd::BitsOf(b.x) && simd::BitsOf(a.y) == simd::BitsOf(b.y) &&
           simd::BitsOf(a.z) == simd::BitsOf(b.z);
  };
  const bool same = haveLast && sameBits(forward, last.rawForward) && sameBits(bendAxis, last.rawBendAxis);
  if (!same) {
    const glm::vec3 f = NormalizeOr(forward, glm::vec3(0.0f), kNoDirection);
    if (f == glm::vec3(0.0f)) return Error("forward: must be a non-zero finite vector");
    const glm::vec3 h = NormalizeOr(bendAxis, glm::vec3(0.0f), kNoDirection);
    if (h == glm::vec3(0.0f)) return Error("bendAxis: must be a non-zero finite vector");
    if (Parallel(f, h)) return Error("bendAxis: must not be parallel to forward");
    // The local hinge, made perpendicular to the bone axis in double: the axes
    // may be only ~1e-4 rad from parallel, where a float projection would leave
    // them 1e-4 off perpendicular and every rotation built on them off unit.
    const glm::dvec3 fd = glm::normalize(glm::dvec3(f)), bd(h);
    const glm::dvec3 hd = glm::normalize(bd - glm::dot(bd, fd) * fd);
    last.rawForward = forward;
    last.rawBendAxis = bendAxis;
    last.forward = simd::FromGlm(f);
    last.hinge = simd::FromGlm(glm::vec3(hd));
    last.localFrameInverse = simd::Conjugate(simd::FrameQuat(last.forward, last.hinge));
    haveLast = true;
  }
  if (out != nullptr) *out = last;
  return Ok();
}

TwoBoneShared MakeTwoBoneShared(const TwoBoneJob& job, TwoBonePole pole) {
  LimbAxes axes;
  LimbAxesOf(job.forward, job.bendAxis, &axes);
  TwoBoneShared s;
  s.forward = axes.forward;
  s.hinge = axes.hinge;
  s.localFrameInverse = axes.localFrameInverse;
  s.pole = pole;
  if (job.bendDirection == BendDirection::kPositive) s.fixedSign = 1.0f;
  if (job.bendDirection == BendDirection::kNegative) s.fixedSign = -1.0f;
  s.straightSign = job.straightBend == BendDirection::kNegative ? -1.0f : 1.0f;
  s.limitMin = job.minAngle != 0.0f;
  s.limitMax = job.maxAngle != kPi;
  if (s.limitMin) s.sinHalfMin = static_cast<float>(std::sin(0.5 * job.minAngle));
  if (s.limitMax) s.sinHalfMax = static_cast<float>(std::sin(0.5 * job.maxAngle));
  s.soften = job.soften;
  s.maxStretch = job.maxStretch;
  s.twist = job.twist != 0.0f;
  if (s.twist) {
    s.cosTwist = static_cast<float>(std::cos(static_cast<double>(job.twist)));
    s.sinTwist = static_cast<float>(std::sin(static_cast<double>(job.twist)));
  }
  s.endRelative = job.endRotation == EndRotation::kRelative;
  s.tolerance = job.tolerance;
  return s;
}

}  // namespace detail

Status TwoBoneJob::Run() const {
  const detail::TwoBoneShared* cached = QuickValid(*this);
  if (cached == nullptr) {
    const Status status = ValidateAll(*this);
    if (!status) return status;
    cached = &Remember(*this);
  }
  const detail::TwoBoneShared& shared = *cached;
  detail::TwoBoneLanes<float> io;
  io.rootPosition = simd::FromGlm(root.position);
  io.midPosition = simd::FromGlm(mid.position);
  io.endPosition = simd::FromGlm(end.position);
  io.rootRotation = simd::FromGlm(root.rotation);
  io.midRotation = simd::FromGlm(mid.rotation);
  io.endRotation = simd::FromGlm(end.rotation);
  io.target = simd::FromGlm(target);
  io.pole = simd::FromGlm(pole ? *pole : poleDirection.value_or(glm::vec3(0.0f)));
  io.effectorOffset = simd::FromGlm(effectorOffset);
  io.weight = weight;
  detail::SolveTwoBone(shared, io);
  if (!io.finite) return Error(detail::kTwoBoneOverflow);
  result->root = {root.position, simd::ToGlm(io.outRootRotation)};
  result->mid = {simd::ToGlm(io.outMidPosition), simd::ToGlm(io.outMidRotation)};
  result->end = {simd::ToGlm(io.outEndPosition), simd::ToGlm(io.outEndRotation)};
  result->distance = io.distance;
  result->reached = io.reached;
  return Ok();
}

}  // namespace ikpd
