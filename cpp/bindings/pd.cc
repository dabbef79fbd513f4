// Embind (flat.h): PD controllers (docs/pd.md). Numbers cross through a static double
// buffer (`pdBuffer()`, read by JS as a Float64Array over HEAPF64) so the
// controllers' double-precision state reaches JS unrounded; every call returns
// 0 or a static "parameter: reason" string (ToResult).
#include <cmath>

#include "flat.h"
#include "pd_fields.h"
#include "pd_settings.h"
#include "ikpd/pd/controllers.h"
#include "ikpd/pd/gain_options.h"

namespace ikpd::bindings {

using namespace ikpd::pd;

double* Io() {
  alignas(16) static double io[32];
  return io;
}

static_assert(JobFloats<PdOptions>() <= 32, "the PD options fit the io buffer");

// io[0..JobFloats<PdOptions>) packed in the layout of pd_fields.h (web/src/pd.js).
Status ReadSettings(PdSettings* out) {
  PdOptions options;
  ReadJob(Io(), options);
  return options.Resolve(out);
}

// Controllers owned by JS through their address (see the exports below).
struct ScalarHandle {
  explicit ScalarHandle(bool angle) : pd(PdSettings{}, angle) {}
  ScalarPD pd;
};
// The vector and quaternion controllers keep their own update buffer: update()
// reads the target at io[0..n) (and the target velocity at io[n..n+3)) and
// writes only the new value at io[0..n), so JS's per-frame call packs and
// reads n doubles (n = 3 vector, 4 quaternion [x, y, z, w]).
struct Vec3Handle {
  Vec3PD pd;
  alignas(16) double io[8] = {};
};
struct QuatHandle {
  QuatPD pd;
  alignas(16) double io[8] = {};
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
void Read(const ScalarHandle& h);
std::uintptr_t Update(ScalarHandle& h, double dt, bool hasVelocity) {
  const double* io = Io();
  const Status st = hasVelocity ? h.pd.Update(dt, io[0], io[1]) : h.pd.Update(dt, io[0]);
  if (st) Read(h);
  return ToResult(st);
}
void Read(const ScalarHandle& h) {
  double* io = Io();
  io[0] = h.pd.value();
  io[1] = h.pd.velocity();
  io[2] = h.pd.target();
  io[5] = static_cast<double>(h.pd.blendPhase());
}
std::uintptr_t Reset(ScalarHandle& h) {
  const double* io = Io();
  if (!std::isfinite(io[0])) return ToResult(Error("value: must be a finite number"));
  if (!std::isfinite(io[1])) return ToResult(Error("velocity: must be a finite number"));
  h.pd.Reset(io[0], io[1]);
  return 0;
}
std::uintptr_t StateAt(const ScalarHandle& h, double t) {
  double* io = Io();
  return ToResult(h.pd.StateAt(t, &io[0], &io[1]));
}
std::uintptr_t Settle(const ScalarHandle& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}
std::uintptr_t BlendOut(ScalarHandle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt, Io()[0]);
  if (st) Read(h);
  return ToResult(st);
}
// io in: [animation, desired] (desired NaN: release); out io[0].
std::uintptr_t Track(ScalarHandle& h, double dt, bool release) {
  double* io = Io();
  double out = 0.0;
  const Status st = release ? h.pd.ReleaseOffset(dt, io[0], &out) : h.pd.TrackOffset(dt, io[0], io[1], &out);
  if (st) io[0] = out;
  return ToResult(st);
}

// ---- vec3: update uses h.io (Vec3Handle); the others the shared io. Read: value 0..2, velocity 3..5,
// target 6..8, phase 11
void Read(const Vec3Handle& h);
std::uintptr_t Update(Vec3Handle& h, double dt, bool hasVelocity) {
  double* io = h.io;
  const Status st = hasVelocity ? h.pd.Update(dt, V3(io), V3(io + 3)) : h.pd.Update(dt, V3(io));
  if (st) PutV3(io, h.pd.value());
  return ToResult(st);
}
void Read(const Vec3Handle& h) {
  double* io = Io();
  PutV3(io, h.pd.value());
  PutV3(io + 3, h.pd.velocity());
  PutV3(io + 6, h.pd.target());
  io[11] = static_cast<double>(h.pd.blendPhase());
}
std::uintptr_t Reset(Vec3Handle& h) {
  const double* io = Io();
  return ToResult(h.pd.Reset(V3(io), V3(io + 3)));
}
std::uintptr_t StateAt(const Vec3Handle& h, double t) {
  double* io = Io();
  glm::dvec3 p, v;
  const Status st = h.pd.StateAt(t, &p, &v);
  if (st) PutV3(io, p), PutV3(io + 3, v);
  return ToResult(st);
}
std::uintptr_t Settle(const Vec3Handle& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}
std::uintptr_t BlendOut(Vec3Handle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt, V3(Io()));
  if (st) Read(h);
  return ToResult(st);
}

// ---- quat: update uses h.io (QuatHandle); the others the shared io. Read: value 0..3,
// velocity 4..6, target 7..10, phase 13
void Read(const QuatHandle& h);
std::uintptr_t Update(QuatHandle& h, double dt, bool hasVelocity) {
  double* io = h.io;
  const Status st = hasVelocity ? h.pd.Update(dt, Q4(io), V3(io + 4)) : h.pd.Update(dt, Q4(io));
  if (st) PutQ4(io, h.pd.value());
  return ToResult(st);
}
void Read(const QuatHandle& h) {
  double* io = Io();
  PutQ4(io, h.pd.value());
  PutV3(io + 4, h.pd.velocity());
  PutQ4(io + 7, h.pd.target());
  io[13] = static_cast<double>(h.pd.blendPhase());
}
std::uintptr_t Reset(QuatHandle& h) {
  const double* io = Io();
  return ToResult(h.pd.Reset(Q4(io), V3(io + 4)));
}
std::uintptr_t StateAt(const QuatHandle& h, double t) {
  double* io = Io();
  glm::dquat q;
  glm::dvec3 w;
  const Status st = h.pd.StateAt(t, &q, &w);
  if (st) PutQ4(io, q), PutV3(io + 4, w);
  return ToResult(st);
}
std::uintptr_t Settle(const QuatHandle& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}
std::uintptr_t BlendOut(QuatHandle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt);
  if (st) Read(h);
  return ToResult(st);
}
// io in: animation[0..3], desired[4..7]; out io[0..3].
std::uintptr_t Track(QuatHandle& h, double dt, bool release) {
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

// The methods every controller kind has; the C++ object is owned by the JS handle.
template <class H>
emscripten::class_<H> BindController(const char* name) {
  return emscripten::class_<H>(name)
      .function("configure", +[](H& h) { return Configure(h); })
      .function("update", +[](H& h, double dt, int hasVelocity) { return Update(h, dt, hasVelocity != 0); })
      .function("atRest", +[](H& h) { return h.pd.AtRest() ? 1 : 0; })
      .function("energy", +[](H& h) { return h.pd.Energy(); })
      .function("read", +[](H& h) { Read(h); })
      .function("reset", +[](H& h) { return Reset(h); })
      .function("stateAt", +[](H& h, double t) { return StateAt(h, t); })
      .function("timeToSettle", +[](H& h, double tolerance) { return Settle(h, tolerance); })
      .function("blendOut", +[](H& h, double dt) { return BlendOut(h, dt); });
}

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_pd) {
  using namespace ikpd::bindings;
  emscripten::function("pdBuffer", +[]() { return reinterpret_cast<std::uintptr_t>(Io()); });
  emscripten::function("pdGains", &GainsOf);
  emscripten::function("pdStability", &Stability);
  BindController<ScalarHandle>("PdScalar")
      .constructor<bool>()
      .function("track", +[](ScalarHandle& h, double dt, int release) { return Track(h, dt, release != 0); });
  BindController<Vec3Handle>("PdVec3")
      .constructor<>()
      .function("pointer", +[](Vec3Handle& h) { return reinterpret_cast<std::uintptr_t>(h.io); });
  BindController<QuatHandle>("PdQuat")
      .constructor<>()
      .function("pointer", +[](QuatHandle& h) { return reinterpret_cast<std::uintptr_t>(h.io); })
      .function("track", +[](QuatHandle& h, double dt, int release) { return Track(h, dt, release != 0); });
}
