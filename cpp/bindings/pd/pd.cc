// Embind (conventions.h): PD controllers (docs/pd/pd.md). Numbers cross through a static double
// buffer (`pdBuffer()`, read by JS as a Float64Array over HEAPF64) so the
// controllers' double-precision state reaches JS unrounded; every call returns
// 0 or a static "parameter: reason" string (ToResult).
#include <cmath>
#include <type_traits>

#include "../conventions.h"
#include "../../src/pd/fields.h"
#include "options.h"
#include "ikpd/pd/controllers.h"
#include "ikpd/pd/gain_options.h"

namespace ikpd::bindings {

using namespace ikpd::pd;

double* PdBuffer() {
  alignas(16) static double io[32];
  return io;
}

static_assert(JobFloats<PdOptions>() <= 32, "the PD options fit the io buffer");

// io[0..JobFloats<PdOptions>) packed in the layout of their description (cpp/src/pd/fields.h).
Status ReadPdSettings(PdSettings* out) {
  PdOptions options;
  ReadJob(PdBuffer(), options);
  return options.Resolve(out);
}

namespace {

void WriteSettings(const PdSettings& s) {
  double* io = PdBuffer();
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

}  // namespace

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

// The operations every kind H does alike, through its controller H::pd.
template <class H>
struct PdHandleOf : PdHandle {
  // Options from the pd buffer; io[0] = kp, io[1] = kd on success.
  std::uintptr_t Configure() override {
    PdSettings s;
    if (Status st = ReadPdSettings(&s); !st) return ToResult(st);
    if (Status st = self().pd.Configure(s); !st) return ToResult(st);
    WriteSettings(s);
    return 0;
  }
  bool AtRest() const override { return self().pd.AtRest(); }
  double Energy() const override { return self().pd.Energy(); }
  // io[0] = seconds until the error stays within `tolerance`.
  std::uintptr_t TimeToSettle(double tolerance) const override {
    return ToResult(self().pd.TimeToSettle(tolerance, &PdBuffer()[0]));
  }

 private:
  H& self() { return static_cast<H&>(*this); }
  const H& self() const { return static_cast<const H&>(*this); }
};

// Scalar: io in: [target, targetVelocity]; state out (read, and after
// update/blendOut): value, velocity, target, (unused), (unused), phase.
struct ScalarHandle final : PdHandleOf<ScalarHandle> {
  explicit ScalarHandle(bool angle) : pd(PdSettings{}, angle) {}

  std::uintptr_t Update(double dt, bool hasVelocity) override {
    const double* io = PdBuffer();
    const Status st = hasVelocity ? pd.Update(dt, io[0], io[1]) : pd.Update(dt, io[0]);
    if (st) Read();
    return ToResult(st);
  }
  double* UpdateBuffer() override { return PdBuffer(); }
  void Read() const override {
    double* io = PdBuffer();
    io[0] = pd.value();
    io[1] = pd.velocity();
    io[2] = pd.target();
    io[5] = static_cast<double>(pd.blendPhase());
  }
  std::uintptr_t Reset() override {
    const double* io = PdBuffer();
    if (!std::isfinite(io[0])) return ToResult(Error("value: must be a finite number"));
    if (!std::isfinite(io[1])) return ToResult(Error("velocity: must be a finite number"));
    pd.Reset(io[0], io[1]);
    return 0;
  }
  std::uintptr_t StateAt(double t) const override {
    double* io = PdBuffer();
    return ToResult(pd.StateAt(t, &io[0], &io[1]));
  }
  std::uintptr_t BlendOut(double dt) override {
    const Status st = pd.UpdateBlendOut(dt, PdBuffer()[0]);
    if (st) Read();
    return ToResult(st);
  }
  // io in: [animation, desired] (desired NaN: release); out io[0].
  std::uintptr_t Track(double dt, bool release) override {
    double* io = PdBuffer();
    double out = 0.0;
    const Status st = release ? pd.ReleaseOffset(dt, io[0], &out) : pd.TrackOffset(dt, io[0], io[1], &out);
    if (st) io[0] = out;
    return ToResult(st);
  }

  ScalarPD pd;
};

// Vector (N = 3) and quaternion (N = 4, [x, y, z, w]): each keeps its own
// update buffer: update() reads the target at io[0..N) (and the target
// velocity at io[N..N+3)) and writes only the new value at io[0..N), so JS's
// per-frame call packs and reads N doubles. The other operations use the
// shared buffer; read: value 0..N-1, velocity N..N+2, target N+3..2N+2, phase 2N+5.
template <class Controller, int N>
struct VectorHandle final : PdHandleOf<VectorHandle<Controller, N>> {
  std::uintptr_t Update(double dt, bool hasVelocity) override {
    const Status st = hasVelocity ? pd.Update(dt, Value<N>(io), V3(io + N)) : pd.Update(dt, Value<N>(io));
    if (st) Put(io, pd.value());
    return ToResult(st);
  }
  double* UpdateBuffer() override { return io; }
  void Read() const override {
    double* shared = PdBuffer();
    Put(shared, pd.value());
    Put(shared + N, pd.velocity());
    Put(shared + N + 3, pd.target());
    shared[2 * N + 5] = static_cast<double>(pd.blendPhase());
  }
  std::uintptr_t Reset() override {
    const double* shared = PdBuffer();
    return ToResult(pd.Reset(Value<N>(shared), V3(shared + N)));
  }
  std::uintptr_t StateAt(double t) const override {
    double* shared = PdBuffer();
    std::remove_cvref_t<decltype(pd.value())> value;
    glm::dvec3 velocity;
    const Status st = pd.StateAt(t, &value, &velocity);
    if (st) Put(shared, value), Put(shared + N, velocity);
    return ToResult(st);
  }
  // A vector blends out to the rest direction at io[0..2]; a quaternion to identity.
  std::uintptr_t BlendOut(double dt) override {
    Status st;
    if constexpr (N == 3) {
      st = pd.UpdateBlendOut(dt, V3(PdBuffer()));
    } else {
      st = pd.UpdateBlendOut(dt);
    }
    if (st) Read();
    return ToResult(st);
  }
  // Quaternion: io in: animation[0..3], desired[4..7]; out io[0..3].
  std::uintptr_t Track(double dt, bool release) override {
    if constexpr (N == 3) {
      return ToResult(Error("trackOffset: not available on a vector controller"));
    } else {
      double* shared = PdBuffer();
      glm::dquat out;
      const Status st =
          release ? pd.ReleaseOffset(dt, Q4(shared), &out) : pd.TrackOffset(dt, Q4(shared), Q4(shared + 4), &out);
      if (st) Put(shared, out);
      return ToResult(st);
    }
  }

  Controller pd;
  alignas(16) double io[8] = {};
};
using Vec3Handle = VectorHandle<Vec3PD, 3>;
using QuatHandle = VectorHandle<QuatPD, 4>;

namespace {

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
  if (st) PdBuffer()[0] = g.kp, PdBuffer()[1] = g.kd;
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
  double* io = PdBuffer();
  io[0] = r.stable ? 1.0 : 0.0;
  io[1] = r.maxStableDt;
  io[2] = r.spectralRadius;
  return 0;
}

}  // namespace

}  // namespace ikpd::bindings

IKPD_BINDINGS(pd, pd) {
  using namespace ikpd::bindings;
  emscripten::function("pdBuffer", +[]() { return reinterpret_cast<std::uintptr_t>(PdBuffer()); });
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
  // The factories (JS: `wasm.PdQuat()`, null when out of memory: conventions.h Create); the JS handle owns the controller.
  emscripten::function("PdScalar", +[](bool angle) -> PdHandle* { return Create<ScalarHandle>(angle); },
                       emscripten::allow_raw_pointers());
  emscripten::function("PdVec3", +[]() -> PdHandle* { return Create<Vec3Handle>(); }, emscripten::allow_raw_pointers());
  emscripten::function("PdQuat", +[]() -> PdHandle* { return Create<QuatHandle>(); }, emscripten::allow_raw_pointers());
}
