// Embind (flat.h): PD controllers (docs/pd.md). Numbers cross through a static double
// buffer (`pdBuffer()`, read by JS as a Float64Array over HEAPF64) so the
// controllers' double-precision state reaches JS unrounded; every call returns
// 0 or a static "parameter: reason" string (ToResult).
#include <cmath>
#include <type_traits>

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

// A controller owned by JS through its address (see the exports below). Every
// kind is bound as this one Embind class (each bound method costs init() one
// generated invoker) and made by its factory function (PdScalar, PdVec3,
// PdQuat), so no call, update included, converts the JS handle between classes.
struct PdHandle {
  virtual ~PdHandle() = default;
  virtual std::uintptr_t Configure() = 0;
  virtual std::uintptr_t Update(double dt, bool hasVelocity) = 0;
  // The buffer update() reads the target from and writes the value to.
  virtual double* UpdateBuffer() = 0;
  virtual bool AtRest() const = 0;
  virtual double Energy() const = 0;
  virtual void Read() const = 0;
  virtual std::uintptr_t Reset() = 0;
  virtual std::uintptr_t StateAt(double t) const = 0;
  virtual std::uintptr_t TimeToSettle(double tolerance) const = 0;
  virtual std::uintptr_t BlendOut(double dt) = 0;
  // trackOffset (scalar and quaternion kinds; the vector kind returns an error).
  virtual std::uintptr_t Track(double dt, bool release) = 0;
};
// PdHandle's operations for the handle type H (below), by the functions on H
// in the anonymous namespace.
template <class H>
struct PdHandleOf : PdHandle {
  std::uintptr_t Configure() override;
  std::uintptr_t Update(double dt, bool hasVelocity) override;
  double* UpdateBuffer() override;
  bool AtRest() const override;
  double Energy() const override;
  void Read() const override;
  std::uintptr_t Reset() override;
  std::uintptr_t StateAt(double t) const override;
  std::uintptr_t TimeToSettle(double tolerance) const override;
  std::uintptr_t BlendOut(double dt) override;
  std::uintptr_t Track(double dt, bool release) override;

 private:
  H& self() { return static_cast<H&>(*this); }
  const H& self() const { return static_cast<const H&>(*this); }
};
struct ScalarHandle final : PdHandleOf<ScalarHandle> {
  explicit ScalarHandle(bool angle) : pd(PdSettings{}, angle) {}
  ScalarPD pd;
};
// The vector and quaternion controllers keep their own update buffer: update()
// reads the target at io[0..N) (and the target velocity at io[N..N+3)) and
// writes only the new value at io[0..N), so JS's per-frame call packs and
// reads N doubles (N = 3 vector, 4 quaternion [x, y, z, w]).
template <class Controller, int N>
struct VectorHandle final : PdHandleOf<VectorHandle<Controller, N>> {
  Controller pd;
  alignas(16) double io[8] = {};
};
using Vec3Handle = VectorHandle<Vec3PD, 3>;
using QuatHandle = VectorHandle<QuatPD, 4>;

namespace {

void WriteSettings(const PdSettings& s) {
  double* io = Io();
  io[0] = s.kp;
  io[1] = s.kd;
}

glm::dvec3 V3(const double* p) { return {p[0], p[1], p[2]}; }
glm::dquat Q4(const double* p) { return glm::dquat(p[3], p[0], p[1], p[2]); }  // [x, y, z, w]
void Put(double* p, const glm::dvec3& v) { p[0] = v.x, p[1] = v.y, p[2] = v.z; }
void Put(double* p, const glm::dquat& q) { p[0] = q.x, p[1] = q.y, p[2] = q.z, p[3] = q.w; }
// The value of an N-component controller at p: a vector (3) or a quaternion (4).
template <int N>
auto Value(const double* p) {
  if constexpr (N == 3) {
    return V3(p);
  } else {
    return Q4(p);
  }
}

// io[0] = seconds until the error stays within `tolerance` (every controller kind).
template <class H>
std::uintptr_t Settle(const H& h, double tolerance) {
  return ToResult(h.pd.TimeToSettle(tolerance, &Io()[0]));
}

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
std::uintptr_t BlendOut(ScalarHandle& h, double dt) {
  const Status st = h.pd.UpdateBlendOut(dt, Io()[0]);
  if (st) Read(h);
  return ToResult(st);
}
double* UpdateBuffer(ScalarHandle&) { return Io(); }
// io in: [animation, desired] (desired NaN: release); out io[0].
std::uintptr_t Track(ScalarHandle& h, double dt, bool release) {
  double* io = Io();
  double out = 0.0;
  const Status st = release ? h.pd.ReleaseOffset(dt, io[0], &out) : h.pd.TrackOffset(dt, io[0], io[1], &out);
  if (st) io[0] = out;
  return ToResult(st);
}

// ---- vector / quaternion (N components): update uses h.io; the others the shared io.
// Read: value 0..N-1, velocity N..N+2, target N+3..2N+2, phase 2N+5
template <class C, int N>
void Read(const VectorHandle<C, N>& h) {
  double* io = Io();
  Put(io, h.pd.value());
  Put(io + N, h.pd.velocity());
  Put(io + N + 3, h.pd.target());
  io[2 * N + 5] = static_cast<double>(h.pd.blendPhase());
}
template <class C, int N>
std::uintptr_t Update(VectorHandle<C, N>& h, double dt, bool hasVelocity) {
  double* io = h.io;
  const Status st = hasVelocity ? h.pd.Update(dt, Value<N>(io), V3(io + N)) : h.pd.Update(dt, Value<N>(io));
  if (st) Put(io, h.pd.value());
  return ToResult(st);
}
template <class C, int N>
std::uintptr_t Reset(VectorHandle<C, N>& h) {
  const double* io = Io();
  return ToResult(h.pd.Reset(Value<N>(io), V3(io + N)));
}
template <class C, int N>
std::uintptr_t StateAt(const VectorHandle<C, N>& h, double t) {
  double* io = Io();
  std::remove_cvref_t<decltype(h.pd.value())> value;
  glm::dvec3 velocity;
  const Status st = h.pd.StateAt(t, &value, &velocity);
  if (st) Put(io, value), Put(io + N, velocity);
  return ToResult(st);
}
// A vector blends out to the rest direction at io[0..2]; a quaternion to identity.
template <class C, int N>
std::uintptr_t BlendOut(VectorHandle<C, N>& h, double dt) {
  Status st;
  if constexpr (N == 3) {
    st = h.pd.UpdateBlendOut(dt, V3(Io()));
  } else {
    st = h.pd.UpdateBlendOut(dt);
  }
  if (st) Read(h);
  return ToResult(st);
}
template <class C, int N>
double* UpdateBuffer(VectorHandle<C, N>& h) {
  return h.io;
}
std::uintptr_t Track(Vec3Handle&, double, bool) {
  return ToResult(Error("trackOffset: not available on a vector controller"));
}
// io in: animation[0..3], desired[4..7]; out io[0..3].
std::uintptr_t Track(QuatHandle& h, double dt, bool release) {
  double* io = Io();
  glm::dquat out;
  const Status st = release ? h.pd.ReleaseOffset(dt, Q4(io), &out) : h.pd.TrackOffset(dt, Q4(io), Q4(io + 4), &out);
  if (st) Put(io, out);
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

}  // namespace

template <class H>
std::uintptr_t PdHandleOf<H>::Configure() { return ikpd::bindings::Configure(self()); }
template <class H>
std::uintptr_t PdHandleOf<H>::Update(double dt, bool hasVelocity) {
  return ikpd::bindings::Update(self(), dt, hasVelocity);
}
template <class H>
double* PdHandleOf<H>::UpdateBuffer() { return ikpd::bindings::UpdateBuffer(self()); }
template <class H>
bool PdHandleOf<H>::AtRest() const { return self().pd.AtRest(); }
template <class H>
double PdHandleOf<H>::Energy() const { return self().pd.Energy(); }
template <class H>
void PdHandleOf<H>::Read() const { ikpd::bindings::Read(self()); }
template <class H>
std::uintptr_t PdHandleOf<H>::Reset() { return ikpd::bindings::Reset(self()); }
template <class H>
std::uintptr_t PdHandleOf<H>::StateAt(double t) const { return ikpd::bindings::StateAt(self(), t); }
template <class H>
std::uintptr_t PdHandleOf<H>::TimeToSettle(double tolerance) const { return Settle(self(), tolerance); }
template <class H>
std::uintptr_t PdHandleOf<H>::BlendOut(double dt) { return ikpd::bindings::BlendOut(self(), dt); }
template <class H>
std::uintptr_t PdHandleOf<H>::Track(double dt, bool release) { return ikpd::bindings::Track(self(), dt, release); }

}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_pd) {
  using namespace ikpd::bindings;
  emscripten::function("pdBuffer", +[]() { return reinterpret_cast<std::uintptr_t>(Io()); });
  emscripten::function("pdGains", &GainsOf);
  emscripten::function("pdStability", &Stability);
  emscripten::class_<PdHandle>("PdHandle")
      .function("configure", &PdHandle::Configure)
      .function("update", +[](PdHandle& h, double dt, int hasVelocity) { return h.Update(dt, hasVelocity != 0); })
      .function("pointer", +[](PdHandle& h) { return reinterpret_cast<std::uintptr_t>(h.UpdateBuffer()); })
      .function("atRest", +[](const PdHandle& h) { return h.AtRest() ? 1 : 0; })
      .function("energy", &PdHandle::Energy)
      .function("read", &PdHandle::Read)
      .function("reset", &PdHandle::Reset)
      .function("stateAt", &PdHandle::StateAt)
      .function("timeToSettle", &PdHandle::TimeToSettle)
      .function("blendOut", &PdHandle::BlendOut)
      .function("track", +[](PdHandle& h, double dt, int release) { return h.Track(dt, release != 0); });
  // The factories (JS: `new wasm.PdQuat()` or `wasm.PdQuat()`); the JS handle owns the controller.
  emscripten::function("PdScalar", +[](bool angle) -> PdHandle* { return new ScalarHandle(angle); },
                       emscripten::allow_raw_pointers());
  emscripten::function("PdVec3", +[]() -> PdHandle* { return new Vec3Handle(); }, emscripten::allow_raw_pointers());
  emscripten::function("PdQuat", +[]() -> PdHandle* { return new QuatHandle(); }, emscripten::allow_raw_pointers());
}
