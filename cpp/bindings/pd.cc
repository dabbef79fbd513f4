// Plain exports (flat.h): PD controllers (SPEC §6). Numbers cross through a static double
// buffer (`ikpd_pd_buffer`, read by JS as a Float64Array over HEAPF64) so the
// controllers' double-precision state reaches JS unrounded; every call returns
// 0 or a static "parameter: reason" string (ToResult).
#include <cmath>

#include "flat.h"
#include "pd_settings.h"
#include "ikpd/pd/controllers.h"

namespace ikpd::bindings {

using namespace ikpd::pd;

double* Io() {
  alignas(16) static double io[32];
  return io;
}

static bool Given(double v) { return !std::isnan(v); }

// io[0..18]: kp, kd, settleTime, damping ratio, integrator, dtMax, maxVelocity, feedForward,
// ki, maxIntegral, targetMotion, restTolerance, restVelocity, blendOutEnergy, blendOutTime,
// method, maxAngle, onUnstable, substepSplit. NaN = not given (the C++ default applies).
Status ReadSettings(PdSettings* out) {
  const double* io = Io();
  PdSettings s;
  const double kp = io[0], kd = io[1], settleTime = io[2], ratio = io[3];
  if (Given(kp) && Given(settleTime)) return Error("settleTime: give either settleTime or kp, not both");
  if (Given(kd) && Given(ratio)) return Error("damping: give either damping or kd, not both");
  const double zeta = Given(ratio) ? ratio : 1.0;
  if (Given(kp)) {
    if (!std::isfinite(kp) || kp <= 0.0) return Error("kp: must be a finite number > 0");
    if (!std::isfinite(zeta) || zeta < 0.0) return Error("damping: ratio must be a finite number >= 0");
    s.kp = kp;
    s.kd = 2.0 * zeta * std::sqrt(kp);
    if (!std::isfinite(s.kd)) return Error("damping: too large");
  } else {
    if (Status st = SettingsFromSettleTime(Given(settleTime) ? settleTime : 1.0, zeta, &s); !st) return st;
  }
  if (Given(kd)) s.kd = kd;
  if (Given(io[4])) s.integrator = static_cast<Integrator>(static_cast<int>(io[4]));
  if (Given(io[5])) s.dtMax = io[5];
  if (Given(io[6])) s.maxVelocity = io[6];
  if (Given(io[7])) s.feedForward = io[7];
  if (Given(io[8])) s.ki = io[8];
  if (Given(io[9])) s.maxIntegral = io[9];
  if (Given(io[10])) s.targetMotion = static_cast<TargetMotion>(static_cast<int>(io[10]));
  if (Given(io[11])) s.restTolerance = io[11];
  if (Given(io[12])) s.restVelocity = io[12];
  if (Given(io[13])) s.blendOutEnergy = io[13];
  if (Given(io[14])) s.blendOutTime = io[14];
  if (Given(io[15])) s.method = static_cast<RotationUpdate>(static_cast<int>(io[15]));
  if (Given(io[16])) s.maxAngle = io[16];
  if (Given(io[17])) s.onUnstable = static_cast<OnUnstable>(static_cast<int>(io[17]));
  if (Given(io[18])) s.substepSplit = static_cast<SubstepSplit>(static_cast<int>(io[18]));
  if (Status st = s.Validate(); !st) return st;
  *out = s;
  return Ok();
}

// Controllers owned by JS through their address (see the exports below).
struct ScalarHandle {
  explicit ScalarHandle(bool angle) : pd(PdSettings{}, angle) {}
  ScalarPD pd;
};
struct Vec3Handle {
  Vec3PD pd;
};
struct QuatHandle {
  QuatPD pd;
};

namespace {

void WriteSettings(const PdSettings& s) {
  double* io = Io();
  io[0] = s.kp;
  io[1] = s.kd;
}

glm::dvec3 V3(const double* p) { return {p[0], p[1], p[2]}; }
glm::dquat Q4(const double* p) { return glm::dquat(p[3], p[0], p[1], p[2]); }  // [x, y, z, w]
void PutV3(double* p, const glm::dvec3& v) { p[0] = v.x, p[1] = v.y, p[2] = v.z; }
void PutQ4(double* p, const glm::dquat& q) { p[0] = q.x, p[1] = q.y, p[2] = q.z, p[3] = q.w; }


template <class H>
std::uintptr_t Configure(H& h) {
  PdSettings s;
  if (Status st = ReadSettings(&s); !st) return ToResult(st);
  if (Status st = h.pd.Configure(s); !st) return ToResult(st);
  WriteSettings(s);
  return 0;
}

// ---- scalar: io in: [target, targetVelocity]; state out (read, and after update/blendOut):
// value, velocity, target, (unused), (unused), phase
void ScalarRead(const ScalarHandle& h);
std::uintptr_t ScalarUpdate(ScalarHandle& h, double dt, bool hasVelocity) {
  const double* io = Io();
  const Status st = hasVelocity ? h.pd.Update(dt, io[0], io[1]) : h.pd.Update(dt, io[0]);
  if (st) ScalarRead(h);
  return ToResult(st);
}
void ScalarRead(const ScalarHandle& h) {
  double* io = Io();
  io[0] = h.pd.value();
  io[1] = h.pd.velocity();
  io[2] = h.pd.target();
  io[5] = static_cast<double>(h.pd.blendPhase());
}
std::uintptr_t ScalarReset(ScalarHandle& h) {
  const double* io = Io();
  if (!std::isfinite(io[0])) return ToResult(Error("value: must be a finite number"));
  if (!std::isfinite(io[1])) return ToResult(Error("velocity: must be a finite number"));
  h.pd.Reset(io[0], io[1]);
  return 0;
}
std::uintptr_t ScalarStateAt(const ScalarHandle& h, double t) {
  double* io = Io();
  return ToResult(h.pd.StateAt(t, &io[0], &io[1]));
}
std::uintptr_t ScalarSettle(const ScalarHandle& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}
std::uintptr_t ScalarBlendOut(ScalarHandle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt, Io()[0]);
  if (st) ScalarRead(h);
  return ToResult(st);
}
// io in: [animation, desired] (desired NaN: release); out io[0].
std::uintptr_t ScalarTrack(ScalarHandle& h, double dt, bool release) {
  double* io = Io();
  double out = 0.0;
  const Status st = release ? h.pd.ReleaseOffset(dt, io[0], &out) : h.pd.TrackOffset(dt, io[0], io[1], &out);
  if (st) io[0] = out;
  return ToResult(st);
}

// ---- vec3: io in: target[0..2], targetVelocity[3..5]; state out: value 0..2, velocity 3..5, target 6..8,
// phase 11
void Vec3Read(const Vec3Handle& h);
std::uintptr_t Vec3Update(Vec3Handle& h, double dt, bool hasVelocity) {
  const double* io = Io();
  const Status st = hasVelocity ? h.pd.Update(dt, V3(io), V3(io + 3)) : h.pd.Update(dt, V3(io));
  if (st) Vec3Read(h);
  return ToResult(st);
}
void Vec3Read(const Vec3Handle& h) {
  double* io = Io();
  PutV3(io, h.pd.value());
  PutV3(io + 3, h.pd.velocity());
  PutV3(io + 6, h.pd.target());
  io[11] = static_cast<double>(h.pd.blendPhase());
}
std::uintptr_t Vec3Reset(Vec3Handle& h) {
  const double* io = Io();
  return ToResult(h.pd.Reset(V3(io), V3(io + 3)));
}
std::uintptr_t Vec3StateAt(const Vec3Handle& h, double t) {
  double* io = Io();
  glm::dvec3 p, v;
  const Status st = h.pd.StateAt(t, &p, &v);
  if (st) PutV3(io, p), PutV3(io + 3, v);
  return ToResult(st);
}
std::uintptr_t Vec3Settle(const Vec3Handle& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}
std::uintptr_t Vec3BlendOut(Vec3Handle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt, V3(Io()));
  if (st) Vec3Read(h);
  return ToResult(st);
}

// ---- quat: io in: target[0..3] (x, y, z, w), targetVelocity[4..6]; state out: value 0..3,
// velocity 4..6, target 7..10, phase 13
void QuatRead(const QuatHandle& h);
std::uintptr_t QuatUpdate(QuatHandle& h, double dt, bool hasVelocity) {
  const double* io = Io();
  const Status st = hasVelocity ? h.pd.Update(dt, Q4(io), V3(io + 4)) : h.pd.Update(dt, Q4(io));
  if (st) QuatRead(h);
  return ToResult(st);
}
void QuatRead(const QuatHandle& h) {
  double* io = Io();
  PutQ4(io, h.pd.value());
  PutV3(io + 4, h.pd.velocity());
  PutQ4(io + 7, h.pd.target());
  io[13] = static_cast<double>(h.pd.blendPhase());
}
std::uintptr_t QuatReset(QuatHandle& h) {
  const double* io = Io();
  return ToResult(h.pd.Reset(Q4(io), V3(io + 4)));
}
std::uintptr_t QuatStateAt(const QuatHandle& h, double t) {
  double* io = Io();
  glm::dquat q;
  glm::dvec3 w;
  const Status st = h.pd.StateAt(t, &q, &w);
  if (st) PutQ4(io, q), PutV3(io + 4, w);
  return ToResult(st);
}
std::uintptr_t QuatSettle(const QuatHandle& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}
std::uintptr_t QuatBlendOut(QuatHandle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt);
  if (st) QuatRead(h);
  return ToResult(st);
}
// io in: animation[0..3], desired[4..7]; out io[0..3].
std::uintptr_t QuatTrack(QuatHandle& h, double dt, bool release) {
  double* io = Io();
  glm::dquat out;
  const Status st = release ? h.pd.ReleaseOffset(dt, Q4(io), &out) : h.pd.TrackOffset(dt, Q4(io), Q4(io + 4), &out);
  if (st) PutQ4(io, out);
  return ToResult(st);
}

// ---- free functions: gains (kind 0 settle time + ratio, 1 smoothTime, 2 halfLife,
// 3 stiffness/damping/mass) → io[0] = kp, io[1] = kd.
std::uintptr_t GainsOf(int kind, double a, double b, double c) {
  pd::Gains g;
  Status st;
  switch (kind) {
    case 0: st = GainsFromSettleTime(a, b, &g); break;
    case 1: st = GainsFromSmoothTime(a, &g); break;
    case 2: st = GainsFromHalfLife(a, &g); break;
    default: st = GainsFromStiffnessDamping(a, b, c, &g); break;
  }
  if (st) Io()[0] = g.kp, Io()[1] = g.kd;
  return ToResult(st);
}

// → io[0] = stable (0/1), io[1] = maxStableDt, io[2] = spectralRadius.
std::uintptr_t Stability(int integrator, double kp, double kd, double dt, double dtMax) {
  if (!std::isfinite(kp) || kp <= 0.0) return ToResult(Error("kp: must be a finite number > 0"));
  if (!std::isfinite(kd) || kd < 0.0) return ToResult(Error("kd: must be a finite number >= 0"));
  if (!std::isfinite(dt) || dt < 0.0) return ToResult(Error("dt: must be a finite number >= 0"));
  if (!std::isfinite(dtMax) || dtMax <= 0.0) return ToResult(Error("dtMax: must be a finite number > 0"));
  const StabilityReport r = CheckStability(static_cast<Integrator>(integrator), kp, kd, dt, dtMax);
  if (!std::isfinite(r.spectralRadius)) return ToResult(Error("dt: out of range for these gains (kp·dt² overflows)"));
  double* io = Io();
  io[0] = r.stable ? 1.0 : 0.0;
  io[1] = r.maxStableDt;
  io[2] = r.spectralRadius;
  return 0;
}

template <class H>
H& Handle(std::uintptr_t h) {
  return *reinterpret_cast<H*>(h);
}

}  // namespace
}  // namespace ikpd::bindings

// Plain exports (flat.h). Controllers are C++ objects owned by JS through an
// opaque handle (their address): ikpd_pd_<kind>_new / _delete; every other
// function takes the handle first. `kind` is scalar, vec3 or quat.
using ikpd::bindings::Handle;
using ikpd::bindings::ScalarHandle;
using ikpd::bindings::Vec3Handle;
using ikpd::bindings::QuatHandle;

IKPD_EXPORT std::uintptr_t ikpd_pd_buffer() { return reinterpret_cast<std::uintptr_t>(ikpd::bindings::Io()); }
IKPD_EXPORT std::uintptr_t ikpd_pd_gains(int kind, double a, double b, double c) {
  return ikpd::bindings::GainsOf(kind, a, b, c);
}
IKPD_EXPORT std::uintptr_t ikpd_pd_stability(int integrator, double kp, double kd, double dt, double dtMax) {
  return ikpd::bindings::Stability(integrator, kp, kd, dt, dtMax);
}

// The functions every controller kind has (Prefix: ScalarUpdate, Vec3Update, ...).
#define IKPD_PD_EXPORTS(kind, H, Prefix)                                                                   \
  IKPD_EXPORT void ikpd_pd_##kind##_delete(std::uintptr_t h) { delete &Handle<H>(h); }                     \
  IKPD_EXPORT std::uintptr_t ikpd_pd_##kind##_configure(std::uintptr_t h) {                                \
    return ikpd::bindings::Configure(Handle<H>(h));                                                        \
  }                                                                                                        \
  IKPD_EXPORT std::uintptr_t ikpd_pd_##kind##_update(std::uintptr_t h, double dt, int hasVelocity) {       \
    return ikpd::bindings::Prefix##Update(Handle<H>(h), dt, hasVelocity != 0);                             \
  }                                                                                                        \
  IKPD_EXPORT int ikpd_pd_##kind##_at_rest(std::uintptr_t h) { return Handle<H>(h).pd.AtRest() ? 1 : 0; } \
  IKPD_EXPORT double ikpd_pd_##kind##_energy(std::uintptr_t h) { return Handle<H>(h).pd.Energy(); }       \
  IKPD_EXPORT void ikpd_pd_##kind##_read(std::uintptr_t h) { ikpd::bindings::Prefix##Read(Handle<H>(h)); } \
  IKPD_EXPORT std::uintptr_t ikpd_pd_##kind##_reset(std::uintptr_t h) {                                    \
    return ikpd::bindings::Prefix##Reset(Handle<H>(h));                                                    \
  }                                                                                                        \
  IKPD_EXPORT std::uintptr_t ikpd_pd_##kind##_state_at(std::uintptr_t h, double t) {                       \
    return ikpd::bindings::Prefix##StateAt(Handle<H>(h), t);                                               \
  }                                                                                                        \
  IKPD_EXPORT std::uintptr_t ikpd_pd_##kind##_time_to_settle(std::uintptr_t h, double tolerance) {         \
    return ikpd::bindings::Prefix##Settle(Handle<H>(h), tolerance);                                        \
  }                                                                                                        \
  IKPD_EXPORT std::uintptr_t ikpd_pd_##kind##_blend_out(std::uintptr_t h, double dt) {                     \
    return ikpd::bindings::Prefix##BlendOut(Handle<H>(h), dt);                                             \
  }

IKPD_EXPORT std::uintptr_t ikpd_pd_scalar_new(int angle) {
  return reinterpret_cast<std::uintptr_t>(new ScalarHandle(angle != 0));
}
IKPD_PD_EXPORTS(scalar, ScalarHandle, Scalar)
IKPD_EXPORT std::uintptr_t ikpd_pd_scalar_track(std::uintptr_t h, double dt, int release) {
  return ikpd::bindings::ScalarTrack(Handle<ScalarHandle>(h), dt, release != 0);
}

IKPD_EXPORT std::uintptr_t ikpd_pd_vec3_new() { return reinterpret_cast<std::uintptr_t>(new Vec3Handle()); }
IKPD_PD_EXPORTS(vec3, Vec3Handle, Vec3)

IKPD_EXPORT std::uintptr_t ikpd_pd_quat_new() { return reinterpret_cast<std::uintptr_t>(new QuatHandle()); }
IKPD_PD_EXPORTS(quat, QuatHandle, Quat)
IKPD_EXPORT std::uintptr_t ikpd_pd_quat_track(std::uintptr_t h, double dt, int release) {
  return ikpd::bindings::QuatTrack(Handle<QuatHandle>(h), dt, release != 0);
}
