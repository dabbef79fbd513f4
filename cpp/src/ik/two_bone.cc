#include "ikpd/ik/two_bone.h"

#include <algorithm>
#include <cmath>

#include <glm/vec3.hpp>

#include "ik_math.h"
#include "two_bone_kernel.h"
#include "fields.h"

namespace ikpd {

using describe::CheckRange;
using describe::FirstError;
namespace {

Status ValidateJoint(const Transform& joint, const char* positionError, const char* rotationError) {
  if (!IsFinite(joint.position)) return Error(positionError);
  if (!IsUsableRotation(joint.rotation)) return Error(rotationError);
  return Ok();
}

bool IsSide(BendDirection d) { return d == BendDirection::kPositive || d == BendDirection::kNegative; }

// The unit bone axis and the hinge made perpendicular to it, or the error
// naming the bad one. The hinge is projected in double: the axes may be only
// ~1e-4 rad from parallel, where a float projection would leave them 1e-4 off
// perpendicular and every rotation built on them off unit.
Status LimbAxes(const glm::vec3& forward, const glm::vec3& bendAxis, glm::vec3* unitForward, glm::vec3* hinge) {
  const glm::vec3 f = NormalizeOr(forward, glm::vec3(0.0f), detail::kNoDirection);
  if (f == glm::vec3(0.0f)) return Error("forward: must be a non-zero finite vector");
  const glm::vec3 h = NormalizeOr(bendAxis, glm::vec3(0.0f), detail::kNoDirection);
  if (h == glm::vec3(0.0f)) return Error("bendAxis: must be a non-zero finite vector");
  if (detail::Parallel(f, h)) return Error("bendAxis: must not be parallel to forward");
  if (unitForward != nullptr) {
    const glm::dvec3 fd = glm::normalize(glm::dvec3(f)), bd(h);
    *unitForward = f;
    *hinge = glm::vec3(glm::normalize(bd - glm::dot(bd, fd) * fd));
  }
  return Ok();
}

// The settings' own checks, in TwoBoneJob's parameter order. The frame's
// effectorOffset and weight come between maxAngle and soften in that order:
// `frameChecks` (may be null) runs there.
template <class FrameChecks>
// With `axes` (may be null) it also writes the unit forward and hinge.
Status ValidateSettings(const TwoBoneSettings& s, FrameChecks&& frameChecks, glm::vec3 (*axes)[2] = nullptr) {
  const Status axesOk = axes != nullptr ? LimbAxes(s.forward, s.bendAxis, &(*axes)[0], &(*axes)[1])
                                        : LimbAxes(s.forward, s.bendAxis, nullptr, nullptr);
  if (!axesOk) return axesOk;
  if (!IsSide(s.bendDirection) && s.bendDirection != BendDirection::kAuto) {
    return Error("bendDirection: must be auto, positive or negative");
  }
  if (!IsSide(s.straightBend)) return Error("straightBend: must be positive or negative");
  if (const Status r = FirstError({CheckRange<TwoBoneJob, "minAngle">(s.minAngle),
                                    CheckRange<TwoBoneJob, "maxAngle">(s.maxAngle)});
      !r) {
    return r;
  }
  if (s.minAngle > s.maxAngle) return Error("minAngle: must not exceed maxAngle");
  if (const Status f = frameChecks(); !f) return f;
  if (const Status r = FirstError({CheckRange<TwoBoneJob, "soften">(s.soften),
                                    CheckRange<TwoBoneJob, "maxStretch">(s.maxStretch),
                                    CheckRange<TwoBoneJob, "twist">(s.twist)});
      !r) {
    return r;
  }
  if (s.endRotation != EndRotation::kWorld && s.endRotation != EndRotation::kRelative) {
    return Error("endRotation: must be world or relative");
  }
  return CheckRange<TwoBoneJob, "tolerance">(s.tolerance);
}

Status ValidateJoints(const TwoBoneFrame& f) {
  Status s = ValidateJoint(f.root, "root.position: must be finite", "root.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  s = ValidateJoint(f.mid, "mid.position: must be finite", "mid.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  s = ValidateJoint(f.end, "end.position: must be finite", "end.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  if (!IsFinite(f.target)) return Error("target: must be finite");
  return Ok();
}

Status ValidateOffsetAndWeight(const glm::vec3& effectorOffset, float weight) {
  if (!IsFinite(effectorOffset)) return Error("effectorOffset: must be finite");
  return CheckRange<TwoBoneJob, "weight">(weight);
}

// Every check of a job, in parameter order (the errors name the first bad one);
// `axes` as in ValidateSettings.
Status ValidateAll(const TwoBoneJob& job, glm::vec3 (*axes)[2] = nullptr) {
  if (Status s = ValidateJoints(FrameOf(job)); !s) return s;
  if (job.pole && !IsFinite(*job.pole)) return Error("pole: must be finite");
  if (job.poleDirection) {
    if (!IsFinite(*job.poleDirection)) return Error("poleDirection: must be finite");
    if (job.pole) return Error("poleDirection: cannot be combined with pole");
  }
  const Status s =
      ValidateSettings(SettingsOf(job), [&] { return ValidateOffsetAndWeight(job.effectorOffset, job.weight); }, axes);
  if (!s) return s;
  if (job.result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

// True when every component is finite: their sum times 0 is 0, where any NaN
// or ±Inf (or a sum overflowing near 1e38) gives NaN; false may also mean
// "check fully".
inline float SumOf(const glm::vec3& v) { return v.x + v.y + v.z; }
inline float SumOf(const glm::quat& q) { return q.x + q.y + q.z + q.w; }
template <class... T>
bool AllFinite(const T&... v) {
  return ((SumOf(v) * 0.0f) + ...) == 0.0f;
}

// The whole frame check, every error named (the slow path of SolveTwoBone).
Status ValidateFrame(const TwoBoneSettings& settings, const TwoBoneFrame& f) {
  if (Status s = ValidateJoints(f); !s) return s;
  if (settings.pole == TwoBonePole::kPoint && !IsFinite(f.pole)) return Error("pole: must be finite");
  if (settings.pole == TwoBonePole::kDirection && !IsFinite(f.pole)) return Error("poleDirection: must be finite");
  return ValidateOffsetAndWeight(f.effectorOffset, f.weight);
}

}  // namespace

TwoBoneSettings SettingsOf(const TwoBoneJob& job) {
  TwoBoneSettings s;
  s.pole = job.pole ? TwoBonePole::kPoint : (job.poleDirection ? TwoBonePole::kDirection : TwoBonePole::kNone);
  s.forward = job.forward;
  s.bendAxis = job.bendAxis;
  s.bendDirection = job.bendDirection;
  s.straightBend = job.straightBend;
  s.minAngle = job.minAngle;
  s.maxAngle = job.maxAngle;
  s.soften = job.soften;
  s.maxStretch = job.maxStretch;
  s.twist = job.twist;
  s.endRotation = job.endRotation;
  s.tolerance = job.tolerance;
  return s;
}

TwoBoneFrame FrameOf(const TwoBoneJob& job) {
  TwoBoneFrame f;
  f.root = job.root;
  f.mid = job.mid;
  f.end = job.end;
  f.target = job.target;
  f.pole = job.pole ? *job.pole : job.poleDirection.value_or(glm::vec3(0.0f));
  f.effectorOffset = job.effectorOffset;
  f.weight = job.weight;
  return f;
}

Status TwoBoneSettings::Validate() const {
  if (pole != TwoBonePole::kNone && pole != TwoBonePole::kPoint && pole != TwoBonePole::kDirection) {
    return Error("pole: must be none, point or direction");
  }
  return ValidateSettings(*this, [] { return Ok(); });
}

Status TwoBoneJob::Validate() const { return ValidateAll(*this); }

namespace detail {

Status CheckTwoBoneFrame(const TwoBoneSettings& settings, const TwoBoneFrame& frame) {
  return ValidateFrame(settings, frame);
}

TwoBoneShared MakeTwoBoneShared(const TwoBoneSettings& settings) {
  glm::vec3 f(0.0f), h(0.0f);
  LimbAxes(settings.forward, settings.bendAxis, &f, &h);  // validated by the caller
  return MakeTwoBoneShared(settings, f, h);
}

TwoBoneShared MakeTwoBoneShared(const TwoBoneSettings& settings, const glm::vec3& f, const glm::vec3& h) {
  TwoBoneShared s;
  s.forward = simd::FromGlm(f);
  s.hinge = simd::FromGlm(h);
  s.localFrameInverse = simd::Conjugate(simd::FrameQuat(s.forward, s.hinge));
  s.pole = settings.pole;
  if (settings.bendDirection == BendDirection::kPositive) s.fixedSign = 1.0f;
  if (settings.bendDirection == BendDirection::kNegative) s.fixedSign = -1.0f;
  s.straightSign = settings.straightBend == BendDirection::kNegative ? -1.0f : 1.0f;
  s.limitMin = settings.minAngle != 0.0f;
  s.limitMax = settings.maxAngle != kPi;
  if (s.limitMin) s.sinHalfMin = static_cast<float>(std::sin(0.5 * settings.minAngle));
  if (s.limitMax) s.sinHalfMax = static_cast<float>(std::sin(0.5 * settings.maxAngle));
  s.soften = settings.soften;
  s.maxStretch = settings.maxStretch;
  s.twist = settings.twist != 0.0f;
  if (s.twist) {
    s.cosTwist = static_cast<float>(std::cos(static_cast<double>(settings.twist)));
    s.sinTwist = static_cast<float>(std::sin(static_cast<double>(settings.twist)));
  }
  s.endRelative = settings.endRotation == EndRotation::kRelative;
  s.tolerance = settings.tolerance;
  return s;
}

}  // namespace detail

Status Prepare(const TwoBoneSettings& settings, TwoBoneSetup* setup) {
  if (setup == nullptr) return Error("setup: output pointer must not be null");
  if (const Status s = settings.Validate(); !s) return s;
  detail::TwoBoneSetupAccess::Store(*setup, detail::MakeTwoBoneShared(settings), settings);
  return Ok();
}

// The kernel on a checked frame; `pole` is the frame's pole, zero when the
// settings have none.
IKPD_KERNEL_CALLER static Status SolveChecked(const detail::TwoBoneShared& shared, const TwoBoneFrame& frame,
                                              const glm::vec3& pole, TwoBoneResult* result) {
  detail::TwoBoneLanes<float> io;
  io.rootPosition = simd::FromGlm(frame.root.position);
  io.midPosition = simd::FromGlm(frame.mid.position);
  io.endPosition = simd::FromGlm(frame.end.position);
  io.rootRotation = simd::FromGlm(frame.root.rotation);
  io.midRotation = simd::FromGlm(frame.mid.rotation);
  io.endRotation = simd::FromGlm(frame.end.rotation);
  io.target = simd::FromGlm(frame.target);
  io.pole = simd::FromGlm(pole);
  io.effectorOffset = simd::FromGlm(frame.effectorOffset);
  io.weight = frame.weight;
  detail::SolveTwoBone(shared, io);
  if (!io.finite) return Error(detail::kTwoBoneOverflow);
  result->root = {frame.root.position, simd::ToGlm(io.outRootRotation)};
  result->mid = {simd::ToGlm(io.outMidPosition), simd::ToGlm(io.outMidRotation)};
  result->end = {simd::ToGlm(io.outEndPosition), simd::ToGlm(io.outEndRotation)};
  result->distance = io.distance;
  result->reached = io.reached;
  return Ok();
}

Status SolveTwoBone(const TwoBoneSetup& setup, const TwoBoneFrame& frame, TwoBoneResult* result) {
  if (!setup.prepared()) return Error("setup: not prepared (call Prepare first)");
  const detail::TwoBoneShared& shared = detail::SharedOf(setup);
  // The common case in one pass: finite inputs, usable rotations, a weight in
  // range; anything else takes the full check, which names the first bad input.
  const auto usable = [](const glm::quat& q) { return glm::dot(q, q) > 1e-12f; };
  const glm::vec3 pole = shared.pole == TwoBonePole::kNone ? glm::vec3(0.0f) : frame.pole;
  const bool quick = AllFinite(frame.root.position, frame.root.rotation, frame.mid.position, frame.mid.rotation,
                               frame.end.position, frame.end.rotation, frame.target, pole, frame.effectorOffset) &&
                     usable(frame.root.rotation) && usable(frame.mid.rotation) && usable(frame.end.rotation) &&
                     frame.weight >= 0.0f && frame.weight <= 1.0f;
  if (!quick) {
    if (const Status s = ValidateFrame(setup.settings(), frame); !s) return s;
  }
  if (result == nullptr) return Error("result: output pointer must not be null");
  return SolveChecked(shared, frame, pole, result);
}

Status TwoBoneJob::Run() const {
  glm::vec3 axes[2];  // the unit forward and hinge, from the check (derived once)
  if (const Status s = ValidateAll(*this, &axes); !s) return s;
  // Checked in full above: derive the settings and run the kernel.
  const TwoBoneSettings settings = SettingsOf(*this);
  const TwoBoneFrame frame = FrameOf(*this);
  const glm::vec3 poleInput = settings.pole == TwoBonePole::kNone ? glm::vec3(0.0f) : frame.pole;
  return SolveChecked(detail::MakeTwoBoneShared(settings, axes[0], axes[1]), frame, poleInput, result);
}

}  // namespace ikpd
