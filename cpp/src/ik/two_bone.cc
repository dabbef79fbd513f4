#include "ikpd/ik/two_bone.h"

#include <algorithm>
#include <cmath>

#include <glm/vec3.hpp>

#include "ik_math.h"
#include "two_bone_kernel.h"
#include "fields.h"

namespace ikpd {

namespace {

Status ValidateJoint(const Transform& joint, const char* positionError, const char* rotationError) {
  if (!IsFinite(joint.position)) return Error(positionError);
  if (!IsUsableRotation(joint.rotation)) return Error(rotationError);
  return Ok();
}

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

// The settings' rules across fields (their ranges and enums are described:
// CheckFields). With `axes` (may be null) it also writes the unit forward and
// hinge.
Status CheckSettingsRules(const TwoBoneSettings& s, glm::vec3 (*axes)[2] = nullptr) {
  const Status axesOk = axes != nullptr ? LimbAxes(s.forward, s.bendAxis, &(*axes)[0], &(*axes)[1])
                                        : LimbAxes(s.forward, s.bendAxis, nullptr, nullptr);
  if (!axesOk) return axesOk;
  if (s.minAngle > s.maxAngle) return Error("minAngle: must not exceed maxAngle");
  return Ok();
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

// The frame's pole by the settings' kind (kBothPoles: JS gave pole and poleDirection, fields.h).
Status ValidatePole(TwoBonePole kind, const glm::vec3& pole) {
  if (kind == TwoBonePole::kPoint || kind == describe::kBothPoles) {
    if (!IsFinite(pole)) return Error("pole: must be finite");
  }
  if (kind == TwoBonePole::kDirection && !IsFinite(pole)) return Error("poleDirection: must be finite");
  if (kind == describe::kBothPoles) return Error("poleDirection: cannot be combined with pole");
  if (kind != TwoBonePole::kNone && kind != TwoBonePole::kPoint && kind != TwoBonePole::kDirection) {
    return Error("pole: must be none, point or direction");
  }
  return Ok();
}

// The frame's own checks (the joints, target, pole, effectorOffset; its
// weight's range is described, checked by CheckFields).
Status ValidateFrameInputs(TwoBonePole kind, const TwoBoneFrame& f) {
  if (Status s = ValidateJoints(f); !s) return s;
  if (Status s = ValidatePole(kind, f.pole); !s) return s;
  if (!IsFinite(f.effectorOffset)) return Error("effectorOffset: must be finite");
  return Ok();
}

// Every check of a job (the errors name the first bad input): the frame's
// inputs, every described range and enum in field order, the settings' rules
// across fields, the result. `axes` as in CheckSettingsRules.
Status ValidateAll(const TwoBoneJob& job, glm::vec3 (*axes)[2] = nullptr) {
  if (Status s = ValidateFrameInputs(job.settings.pole, job.frame); !s) return s;
  if (Status s = describe::CheckFields(job); !s) return s;
  if (Status s = CheckSettingsRules(job.settings, axes); !s) return s;
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
  if (Status s = ValidateFrameInputs(settings.pole, f); !s) return s;
  return describe::CheckFields(f, &TwoBoneJob::frame);
}

}  // namespace

Status TwoBoneSettings::Validate() const {
  if (pole != TwoBonePole::kNone && pole != TwoBonePole::kPoint && pole != TwoBonePole::kDirection) {
    return Error("pole: must be none, point or direction");
  }
  if (Status s = describe::CheckFields(*this, &TwoBoneJob::settings); !s) return s;
  return CheckSettingsRules(*this);
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
  s.canonicalAxes = f == glm::vec3(1.0f, 0.0f, 0.0f) && h == glm::vec3(0.0f, 0.0f, 1.0f);
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

// SolveTwoBone's one quick test and the calls around it. The common case in
// one pass: finite inputs, usable rotations (tested only with
// `testRotations`: a caller whose rotations are finite with a usable norm
// would pass those terms anyway), a weight in range; anything else takes the
// full check, which names the first bad input. So where the test without the
// rotations passes, the full one does too, and the kernel gets the same call.
static IKPD_INLINE Status SolvePrepared(const TwoBoneSetup& setup, const TwoBoneFrame& frame, TwoBoneResult* result,
                                        bool testRotations) {
  if (!setup.prepared()) return Error("setup: not prepared (call Prepare first)");
  const detail::TwoBoneShared& shared = detail::SharedOf(setup);
  const auto usable = [](const glm::quat& q) { return glm::dot(q, q) > 1e-12f; };
  const glm::vec3 pole = shared.pole == TwoBonePole::kNone ? glm::vec3(0.0f) : frame.pole;
  const bool rotationsOk =
      !testRotations || (AllFinite(frame.root.rotation, frame.mid.rotation, frame.end.rotation) &&
                         usable(frame.root.rotation) && usable(frame.mid.rotation) && usable(frame.end.rotation));
  const bool quick = AllFinite(frame.root.position, frame.mid.position, frame.end.position, frame.target, pole,
                               frame.effectorOffset) &&
                     rotationsOk && frame.weight >= 0.0f && frame.weight <= 1.0f;
  if (!quick) {
    if (const Status s = ValidateFrame(setup.settings(), frame); !s) return s;
  }
  if (result == nullptr) return Error("result: output pointer must not be null");
  return SolveChecked(shared, frame, pole, result);
}

Status SolveTwoBone(const TwoBoneSetup& setup, const TwoBoneFrame& frame, TwoBoneResult* result) {
  return SolvePrepared(setup, frame, result, /*testRotations=*/true);
}

namespace detail {

Status SolveTwoBoneUsableRotations(const TwoBoneSetup& setup, const TwoBoneFrame& frame, TwoBoneResult* result) {
  return SolvePrepared(setup, frame, result, /*testRotations=*/false);
}

}  // namespace detail

Status TwoBoneJob::Run() const {
  glm::vec3 axes[2];  // the unit forward and hinge, from the check (derived once)
  if (const Status s = ValidateAll(*this, &axes); !s) return s;
  // Checked in full above: derive the settings and run the kernel.
  const glm::vec3 poleInput = settings.pole == TwoBonePole::kNone ? glm::vec3(0.0f) : frame.pole;
  return SolveChecked(detail::MakeTwoBoneShared(settings, axes[0], axes[1]), frame, poleInput, result);
}

}  // namespace ikpd
