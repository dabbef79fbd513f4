#include "ikpd/ik/aim.h"

#include "aim_kernel.h"
#include "ik_math.h"
#include "fields.h"

namespace ikpd {

namespace {

using detail::PerpendicularUnit;

Status ValidateJoint(const AimFrame& f) {
  if (!IsFinite(f.position)) return Error("position: must be finite");
  if (!IsUsableRotation(f.rotation)) return Error("rotation: must be a non-zero finite quaternion");
  if (!IsFinite(f.target)) return Error("target: must be finite");
  return Ok();
}

// The settings' rules across fields (their method is described: CheckFields).
Status CheckSettingsRules(const AimSettings& s) {
  const glm::vec3 f = NormalizeOr(s.forward, glm::vec3(0.0f), detail::kNoDirection);
  if (f == glm::vec3(0.0f)) return Error("forward: must be a non-zero finite vector");
  if (s.pole) {
    if (s.hingeAxis) return Error("pole: cannot be combined with hingeAxis (a hinge cannot roll)");
    const glm::vec3 up = NormalizeOr(s.up, glm::vec3(0.0f), detail::kNoDirection);
    if (up == glm::vec3(0.0f)) return Error("up: must be a non-zero finite vector");
    if (detail::Parallel(up, f)) return Error("up: must not be parallel to forward");
  }
  if (s.hingeAxis) {
    const glm::vec3 hinge = NormalizeOr(*s.hingeAxis, glm::vec3(0.0f), detail::kNoDirection);
    if (hinge == glm::vec3(0.0f)) return Error("hingeAxis: must be a non-zero finite vector");
    if (detail::Parallel(hinge, f)) return Error("hingeAxis: must not be parallel to forward");
  }
  if (!IsFinite(s.offset)) return Error("offset: must be finite");
  if (s.hingeAxis && s.offset != glm::vec3(0.0f)) return Error("offset: cannot be combined with hingeAxis");
  return Ok();
}

// The frame's own checks: the joint, the target, the pole when the settings
// have one (its weight's range is described: CheckFields).
Status ValidateFrameInputs(bool pole, const AimFrame& f) {
  if (Status s = ValidateJoint(f); !s) return s;
  if (pole && !IsFinite(f.pole)) return Error("pole: must be finite");
  return Ok();
}

// Every check of a job (the errors name the first bad input): the frame's
// inputs, every described range and enum in field order, the settings' rules
// across fields, the result.
Status ValidateAll(const AimJob& job) {
  if (Status s = ValidateFrameInputs(job.settings.pole, job.frame); !s) return s;
  if (Status s = describe::CheckFields(job); !s) return s;
  if (Status s = CheckSettingsRules(job.settings); !s) return s;
  if (job.result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

}  // namespace

Status AimSettings::Validate() const {
  if (Status s = describe::CheckFields(*this, &AimJob::settings); !s) return s;
  return CheckSettingsRules(*this);
}

Status AimJob::Validate() const { return ValidateAll(*this); }

namespace detail {

AimShared MakeAimShared(const AimSettings& settings) {
  const glm::vec3 f = NormalizeOr(settings.forward, glm::vec3(0.0f), detail::kNoDirection);
  const glm::vec3 pitchAxis = StablePerpendicular(f);  // Y for f = X (docs/ik/aim.md)
  AimShared s;
  s.method = settings.method;
  s.forward = simd::FromGlm(f);
  s.pitchAxis = simd::FromGlm(pitchAxis);
  s.yawAxis = simd::FromGlm(glm::cross(f, pitchAxis));  // Z for f = X (docs/ik/aim.md)
  s.frameInverse = simd::Conjugate(simd::FrameQuat(s.forward, s.pitchAxis));
  if (settings.hingeAxis) {
    const glm::vec3 h = NormalizeOr(*settings.hingeAxis, glm::vec3(0.0f), detail::kNoDirection);
    glm::vec3 fp(0.0f);
    PerpendicularUnit(f, h, &fp);  // validated: forward is not parallel to the hinge
    s.hinge = true;
    s.hingeAxis = simd::FromGlm(h);
    s.hingeForward = simd::FromGlm(fp);
    s.hingeSide = simd::FromGlm(glm::cross(h, fp));
  }
  if (settings.pole) {
    glm::vec3 u(0.0f);
    PerpendicularUnit(settings.up, f, &u);  // validated: up is not parallel to forward
    s.pole = true;
    s.up = simd::FromGlm(u);
    s.upSide = simd::FromGlm(glm::cross(f, u));
  }
  if (settings.offset != glm::vec3(0.0f)) {
    s.offset = true;
    s.offsetHalf = simd::FromGlm(settings.offset * 0.5f);
    s.offsetHalfMax = simd::MaxAbs(s.offsetHalf);
  }
  return s;
}

}  // namespace detail

Status Prepare(const AimSettings& settings, AimSetup* setup) {
  if (setup == nullptr) return Error("setup: output pointer must not be null");
  if (const Status s = settings.Validate(); !s) return s;
  detail::AimSetupAccess::Store(*setup, detail::MakeAimShared(settings), settings);
  return Ok();
}

// The kernel on a checked frame; `pole` is the frame's pole, zero when the
// settings have none.
IKPD_KERNEL_CALLER static Status SolveChecked(const detail::AimShared& shared, const AimFrame& frame,
                                              const glm::vec3& pole, glm::quat* result) {
  detail::AimLanes<float> io;
  io.position = simd::FromGlm(frame.position);
  io.rotation = simd::FromGlm(frame.rotation);
  io.target = simd::FromGlm(frame.target);
  io.pole = simd::FromGlm(pole);
  io.weight = frame.weight;
  detail::SolveAim(shared, io);
  *result = simd::ToGlm(io.outRotation);
  return Ok();
}

Status SolveAim(const AimSetup& setup, const AimFrame& frame, glm::quat* result) {
  if (!setup.prepared()) return Error("setup: not prepared (call Prepare first)");
  const detail::AimShared& shared = detail::SharedOf(setup);
  const glm::vec3 pole = shared.pole ? frame.pole : glm::vec3(0.0f);
  // One pass for the common case (finite, usable rotation, weight in range):
  // the sum of every component times 0 is 0 unless one is NaN or ±Inf (or the
  // sum overflows: that just takes the full check, which names the bad input).
  const float sum = frame.position.x + frame.position.y + frame.position.z + frame.rotation.x + frame.rotation.y +
                    frame.rotation.z + frame.rotation.w + frame.target.x + frame.target.y + frame.target.z + pole.x +
                    pole.y + pole.z;
  const bool quick = sum * 0.0f == 0.0f && glm::dot(frame.rotation, frame.rotation) > 1e-12f && frame.weight >= 0.0f &&
                     frame.weight <= 1.0f;
  if (!quick) {
    if (Status s = ValidateFrameInputs(shared.pole, frame); !s) return s;
    if (Status s = describe::CheckFields(frame, &AimJob::frame); !s) return s;
  }
  if (result == nullptr) return Error("result: output pointer must not be null");
  return SolveChecked(shared, frame, pole, result);
}

Status AimJob::Run() const {
  if (const Status s = ValidateAll(*this); !s) return s;
  // Checked in full above: derive the settings and run the kernel.
  return SolveChecked(detail::MakeAimShared(settings), frame, settings.pole ? frame.pole : glm::vec3(0.0f), result);
}

}  // namespace ikpd
