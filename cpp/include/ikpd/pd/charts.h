// ikpd::pd — the charts PD controllers run on (docs/pd/pd.md). A chart maps a
// controller's value to up to 4 linear components: its error relative to the
// target (x − g for scalars, the wrapped difference for angles, the log map at the
// target for unit vectors and quaternions), so one spring step (chart_step.h) and
// one state machine (pd_controller.h) serve every value type.
#pragma once

#include <concepts>
#include <optional>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "ikpd/pd/chart_step.h"

namespace ikpd::pd {

// What a blend-out (IK turning off) is doing.
enum class BlendPhase : std::uint8_t { kNone = 0, kSpring = 1, kLinear = 2, kDone = 3 };

// The whole state of one controller on chart C (double precision).
template <class C>
struct PdState {
  using Value = typename C::Value;
  using Velocity = typename C::Velocity;
  Value value = C::Origin();
  Velocity velocity = Velocity(0.0);
  Value target = C::Origin();              // the target at the end of the last step (canonical)
  Velocity targetVelocity = Velocity(0.0);  // its velocity during that step
  double integral[4] = {0, 0, 0, 0};       // chart components of ∫(target − state) dt
  bool hasTarget = false;                  // false until the first Update after a Reset
  BlendPhase phase = BlendPhase::kNone;
  Value blendFrom = C::Origin();  // where the linear blend-out started (scalar: the offset from rest)
  double blendElapsed = 0.0;
  typename C::Extra extra{};  // chart-specific state (quaternion: raw component velocity)
};

// What one step writes (committed to the state only when the chart calls it Finite).
template <class C>
struct PdStep {
  typename C::Value value;
  typename C::Velocity velocity;
  typename C::Extra extra;
};

// ------------------------------------------------------------ chart contract
//
// A chart type C provides (s: the settings in force for this step, st: the state,
// g: the target in canonical form):
//   Value, Velocity, Extra          value type, velocity type, chart-specific state
//   static Value Origin()           the default value (0, +x, identity)
//   Target(st, in, &g)              validates and canonicalizes an Update target ("target: ...")
//   Rest(in, &rest)                 the same for a blend-out rest value ("rest: ...")
//   TargetVelocity(in, g, &out)     validates a given target velocity ("targetVelocity: ...")
//   LinearTargetVelocity(s, prev, g, dt)   target velocity moving linearly from prev to g in dt
//   Localize(g, s, st, &ls, &lst)   sets ls/lst to this step's settings and state where they
//                                   differ from s/st (Vec3: far fallback); else leaves them empty
//   ChartVelocity(s, st, g, tv, q)  target velocity → q[] in chart components; returns their count
//   ToChart(s, st, g, &c)           writes c.u, c.w: state relative to g
//   FromChart(s, st, g, c, &step)   writes step.value, step.velocity, step.extra from c
//   Finite(step)                    whether a step may be committed
//   Canonical(v)                    the stored form of a target or value (angle: wrapped)
//   Clamp(s, &st)                   enforces value limits after every change (quaternion maxAngle)
//   BlendFrom(st, rest)             blend-out start, recorded when the linear phase begins
//   BlendAt(s, rest, f, &st)        state at fraction f in [0, 1) of the linear blend-out
//   Energy(s, st), AtRest(s, st)    spring energy and rest test relative to st.target
template <class C>
concept PdChart = requires(const C c, const PdSettings& s, PdState<C>& st, const typename C::Value& v,
                           const typename C::Velocity& w, ChartState& cs, double* q, PdStep<C>& step) {
  { C::Origin() } -> std::convertible_to<typename C::Value>;
  { c.Target(st, v, &st.target) } -> std::same_as<Status>;
  { c.Rest(v, &st.target) } -> std::same_as<Status>;
  { c.TargetVelocity(w, v, &st.velocity) } -> std::same_as<Status>;
  { c.LinearTargetVelocity(s, v, v, 1.0) } -> std::same_as<typename C::Velocity>;
  { c.ChartVelocity(s, st, v, w, q) } -> std::same_as<int>;
  c.ToChart(s, st, v, &cs);
  c.FromChart(s, st, v, cs, &step);
  { c.Finite(step) } -> std::same_as<bool>;
  { c.Canonical(v) } -> std::convertible_to<typename C::Value>;
  { c.BlendFrom(st, v) } -> std::convertible_to<typename C::Value>;
  { c.Energy(s, st) } -> std::same_as<double>;
  { c.AtRest(s, st) } -> std::same_as<bool>;
};

// Charts with the IK-offset workflow: offset = desired relative to animation,
// out = animation with the smoothed offset applied.
//   OffsetTarget(animation, desired, &a, &offset)  validates ("animation: ...", "desired: ...")
//   OffsetAnimation(animation, &a)                 validates the animation alone
//   ApplyOffset(a, offset, &out)                   errors when the result is unusable
template <class C>
concept OffsetChart = requires(const C c, const typename C::Value& v, typename C::Value* out) {
  { c.OffsetTarget(v, v, out, out) } -> std::same_as<Status>;
  { c.OffsetAnimation(v, out) } -> std::same_as<Status>;
  { c.ApplyOffset(v, v, out) } -> std::same_as<Status>;
};

// The optional hooks' defaults: no per-step adjustment, no value limit, targets
// stored as given, the linear blend-out starting from the value. A chart declares
// its own to replace one.
struct ChartDefaults {
  template <class V, class St>
  void Localize(const V&, const PdSettings&, const St&, std::optional<PdSettings>*, std::optional<St>*) const {}
  template <class St>
  void Clamp(const PdSettings&, St*) const {}
  template <class V>
  V Canonical(const V& v) const { return v; }
  template <class St, class V>
  V BlendFrom(const St& st, const V&) const { return st.value; }
};

// A scalar, or with `angle` an angle that always turns the short way across ±π
// (values and targets kept in (−π, π]). One chart component: x − g (wrapped).
struct ScalarChart : ChartDefaults {
  using Value = double;
  using Velocity = double;
  struct Extra {};
  using State = PdState<ScalarChart>;
  using Step = PdStep<ScalarChart>;
  bool angle = false;

  static Value Origin() { return 0.0; }
  Status Target(const State& st, const Value& in, Value* g) const;
  Status Rest(const Value& in, Value* rest) const;
  Status TargetVelocity(const Velocity& in, const Value& g, Velocity* out) const;
  Velocity LinearTargetVelocity(const PdSettings& s, const Value& prev, const Value& g, double dt) const;
  int ChartVelocity(const PdSettings& s, const State& st, const Value& g, const Velocity& tv, double* q) const;
  void ToChart(const PdSettings& s, const State& st, const Value& g, ChartState* c) const;
  void FromChart(const PdSettings& s, const State& st, const Value& g, const ChartState& c, Step* next) const;
  bool Finite(const Step& step) const;
  Value Canonical(const Value& v) const;
  Value BlendFrom(const State& st, const Value& rest) const;
  void BlendAt(const PdSettings& s, const Value& rest, double f, State* st) const;
  double Energy(const PdSettings& s, const State& st) const;
  bool AtRest(const PdSettings& s, const State& st) const;

  Status OffsetTarget(const Value& animation, const Value& desired, Value* a, Value* offset) const;
  Status OffsetAnimation(const Value& animation, Value* a) const;
  Status ApplyOffset(const Value& a, const Value& offset, Value* out) const;

  double Difference(double x, double g) const;  // x − g (wrapped for angles)
};

// A unit 3D vector; velocity is dvalue/dt. Chart: SphereLog at the target (3
// components, tangent to it), or with method 'componentwise' the difference p − g
// (replaced by the log map when value and target are more than ~154° apart).
// Exactly opposite value and target take a deterministic perpendicular.
struct Vec3Chart : ChartDefaults {
  using Value = glm::dvec3;
  using Velocity = glm::dvec3;
  struct Extra {};
  using State = PdState<Vec3Chart>;
  using Step = PdStep<Vec3Chart>;

  static Value Origin() { return Value(1.0, 0.0, 0.0); }
  Status Target(const State& st, const Value& in, Value* g) const;
  Status Rest(const Value& in, Value* rest) const;
  Status TargetVelocity(const Velocity& in, const Value& g, Velocity* out) const;
  Velocity LinearTargetVelocity(const PdSettings& s, const Value& prev, const Value& g, double dt) const;
  void Localize(const Value& g, const PdSettings& s, const State& st, std::optional<PdSettings>* ls,
                std::optional<State>* lst) const;
  int ChartVelocity(const PdSettings& s, const State& st, const Value& g, const Velocity& tv, double* q) const;
  void ToChart(const PdSettings& s, const State& st, const Value& g, ChartState* c) const;
  void FromChart(const PdSettings& s, const State& st, const Value& g, const ChartState& c, Step* next) const;
  bool Finite(const Step& step) const;
  void BlendAt(const PdSettings& s, const Value& rest, double f, State* st) const;
  double Energy(const PdSettings& s, const State& st) const;
  bool AtRest(const PdSettings& s, const State& st) const;
};

// A rotation; velocity is the world-frame angular velocity (rad/s). Chart: the
// rotation vector u with q = exp(u)·g (3 components), or with method
// 'componentwise' the 4 quaternion components q − g. The value is kept in the
// target's hemisphere; with maxAngle < π its own angle is clamped (|w| >= cos(maxAngle/2)).
struct QuatChart : ChartDefaults {
  using Value = glm::dquat;
  using Velocity = glm::dvec3;
  struct Extra {
    glm::dvec4 raw = glm::dvec4(0.0);  // dq/dt as (x, y, z, w): the 'componentwise' chart velocity
  };
  using State = PdState<QuatChart>;
  using Step = PdStep<QuatChart>;

  static Value Origin() { return Value(1.0, 0.0, 0.0, 0.0); }
  Status Target(const State& st, const Value& in, Value* g) const;
  Status Rest(const Value& in, Value* rest) const;
  Status TargetVelocity(const Velocity& in, const Value& g, Velocity* out) const;
  Velocity LinearTargetVelocity(const PdSettings& s, const Value& prev, const Value& g, double dt) const;
  int ChartVelocity(const PdSettings& s, const State& st, const Value& g, const Velocity& tv, double* q) const;
  void ToChart(const PdSettings& s, const State& st, const Value& g, ChartState* c) const;
  void FromChart(const PdSettings& s, const State& st, const Value& g, const ChartState& c, Step* next) const;
  bool Finite(const Step& step) const;
  void Clamp(const PdSettings& s, State* st) const;
  void BlendAt(const PdSettings& s, const Value& rest, double f, State* st) const;
  double Energy(const PdSettings& s, const State& st) const;
  bool AtRest(const PdSettings& s, const State& st) const;

  // The fused exact step (log map, 'exact', no integral, target at rest): the
  // arithmetic QuatPdBatchJob runs in lanes; with a velocity limit, ChartStep's
  // sub-steps between the same log and exp. Returns false (nothing written)
  // when the settings or target velocity need the general chart step.
  bool FastStep(const PdSettings& s, const State& st, const Value& g, const Velocity& tv, double dt,
                StepCoeffsCache* cache, Step* next) const;

  Status OffsetTarget(const Value& animation, const Value& desired, Value* a, Value* offset) const;
  Status OffsetAnimation(const Value& animation, Value* a) const;
  Status ApplyOffset(const Value& a, const Value& offset, Value* out) const;

  // Raw component velocity dq/dt = ω·q/2 as (x, y, z, w).
  static glm::dvec4 RawVelocity(const glm::dvec3& omega, const glm::dquat& q);
};

// ------------------------------------------------------------ rotation charts
// Plain functions (double precision) so batches and look-at IK can reuse them.

// Rotation vector u with q = exp(u)·g (world-frame), q taken in g's hemisphere: |u| <= π.
glm::dvec3 QuatLogChart(const glm::dquat& q, const glm::dquat& g);
// q = exp(u)·g.
glm::dquat QuatExpChart(const glm::dvec3& u, const glm::dquat& g);
// World angular velocity ω of q(t) = exp(u(t))·g is ω = J(u)·u̇ (SO(3) left Jacobian); and its inverse.
glm::dvec3 LeftJacobianTimes(const glm::dvec3& u, const glm::dvec3& udot);
glm::dvec3 LeftJacobianInverseTimes(const glm::dvec3& u, const glm::dvec3& omega);
// Sphere log/exp at g (unit): u ⊥ g, |u| = angle from g to p; p = cos|u|·g + sin|u|·û.
// p exactly opposite g: the direction is hint's part tangent to g, else AnyPerpendicular(g).
glm::dvec3 SphereLog(const glm::dvec3& p, const glm::dvec3& g, const glm::dvec3& hint);
glm::dvec3 SphereExp(const glm::dvec3& u, const glm::dvec3& g);
// dp/dt of p = SphereExp(u, g) for du/dt = udot (udot's part along g is ignored).
glm::dvec3 SphereExpVelocity(const glm::dvec3& u, const glm::dvec3& g, const glm::dvec3& udot);
// du/dt for p = SphereExp(u, g) moving at pdot (the inverse of SphereExpVelocity; 0 across the antipode).
glm::dvec3 SphereLogVelocity(const glm::dvec3& u, const glm::dvec3& g, const glm::dvec3& p, const glm::dvec3& pdot);
// A unit vector perpendicular to unit v (deterministic).
glm::dvec3 AnyPerpendicular(const glm::dvec3& v);

}  // namespace ikpd::pd
