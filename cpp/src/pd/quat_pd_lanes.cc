// UpdateQuatPDs (controllers.h): QuatPD's log-map exact step, the
// velocity-limited sub-steps included, for many controllers at once in float
// SIMD lanes (docs/pd/pd.md, "Many quaternion PDs in lanes"). Stages: check
// every input, step the controllers the lanes do not take through their own
// Update, then gather the others kWide at a time, step them in lanes and
// commit each lane (a lane whose result is not finite and about unit goes
// through Update instead).
#include <algorithm>
#include <bit>
#include <cmath>

#include "ikpd/pd/controllers.h"
#include "../simd/lanes.h"
#include "../simd/vec.h"
#include "pd_checks.h"
#include "quat_pd_kernel.h"

namespace ikpd::pd {

using simd::Q4;
using simd::V3;

// A friend of QuatPD and of PdController<QuatChart>: reads and commits their state.
struct QuatPdLanes {
  using Base = PdController<QuatChart>;
  using Set = QuatPdLaneSet;
  using State = Set::State;
  using Block = Set::Block;
  static constexpr std::size_t kLanes = simd::kWide;
  static_assert(kLanes == 1 || kLanes == 4 || kLanes == 8);  // QuatPdLaneSet's shift

  // One lane group, structure of arrays (padding lanes: identity, at rest, no steps).
  // In a block: q in: the value, out: the new value; omega in: the angular
  // velocity, out: the new one; g in: the target, out: normalized, in the
  // value's hemisphere; raw out: the raw component velocity
  // (QuatChart::RawVelocity); k: exact-step coefficients ee, ev, ve, vv of the
  // sub-step; maxMove: maxVelocity · sub-step length.
  struct Group {
    Block b;
    std::size_t item[kLanes];
    std::size_t size = 0;
    int mostSteps = 0;
  };

  // The sub-step plan of the last settings asked (every controller of a look-at shares it).
  struct Plan {
    double dt = 0.0, dtMax = 0.0, maxVelocity = 0.0;
    SubstepSplit split = SubstepSplit::kEqual;
    bool valid = false, held = false;
    int count = 0;
    double length = 0.0;
  };

  static Base& Of(QuatPD& pd) { return pd; }
  static const Base& Of(const QuatPD& pd) { return pd; }

  // Whether the lanes take this controller's Update(dt, ·): what QuatChart::FastStep
  // takes (log map, 'exact', no integral, a held target), with HeldExactSteps' plan.
  static bool Takes(const Base& c, double dt, Plan* plan) {
    const PdSettings& s = c.settings_;
    if (s.method != RotationUpdate::kLogMap || s.integrator != Integrator::kExact || s.ki != 0.0) return false;
    if (s.targetMotion == TargetMotion::kLinear && c.state_.hasTarget) return false;  // a moving target
    const bool limited = !std::isinf(s.maxVelocity);
    if (!plan->valid || plan->dt != dt || plan->dtMax != s.dtMax || plan->split != s.substepSplit ||
        std::isinf(plan->maxVelocity) == limited) {
      *plan = {dt, s.dtMax, s.maxVelocity, s.substepSplit, true, true, 1, dt};
      if (limited) plan->held = HeldStepPlan(s, dt, &plan->count, &plan->length);
    }
    return plan->held;
  }

  // Whether a lane that stepped may stay in the lanes: its commit clamps
  // nothing in double, and its next update is a held target's.
  static bool Keeps(const Base& c) {
    return c.settings_.maxAngle >= detail::kPiD && c.settings_.targetMotion != TargetMotion::kLinear;
  }

  static void Pad(Block* b, std::size_t l) {
    for (int i = 0; i < 4; ++i) b->now.q[i][l] = b->now.g[i][l] = i == 3 ? 1.0f : 0.0f, b->k[i][l] = 0.0f;
    for (int i = 0; i < 3; ++i) b->now.omega[i][l] = 0.0f;
    b->maxSpeed[l] = b->maxMove[l] = b->steps[l] = 0.0f;
  }

  // The controller's value and velocity into lane l (rounded to float).
  static void Gather(State* st, std::size_t l, const Base& c) {
    const glm::dquat& q = c.state_.value;
    const glm::dvec3& w = c.state_.velocity;
    st->q[0][l] = static_cast<float>(q.x), st->q[1][l] = static_cast<float>(q.y);
    st->q[2][l] = static_cast<float>(q.z), st->q[3][l] = static_cast<float>(q.w);
    st->omega[0][l] = static_cast<float>(w.x), st->omega[1][l] = static_cast<float>(w.y);
    st->omega[2][l] = static_cast<float>(w.z);
  }

  static void Aim(State* st, std::size_t l, const glm::quat& target) {
    st->g[0][l] = target.x, st->g[1][l] = target.y, st->g[2][l] = target.z, st->g[3][l] = target.w;
  }

  // The sub-step's coefficients and limits of lane l (for the plan's dt).
  static void Coefficients(Block* b, std::size_t l, Base& c, const Plan& plan) {
    const StepCoeffs& k = c.steps_.Get(c.settings_.kp, c.settings_.kd, plan.length);
    b->k[0][l] = static_cast<float>(k.ee), b->k[1][l] = static_cast<float>(k.ev);
    b->k[2][l] = static_cast<float>(k.ve), b->k[3][l] = static_cast<float>(k.vv);
    b->maxSpeed[l] = static_cast<float>(c.settings_.maxVelocity);
    b->maxMove[l] = static_cast<float>(c.settings_.maxVelocity * plan.length);
    b->steps[l] = static_cast<float>(plan.count);
  }

  static void Add(Group* grp, Base& c, std::size_t item, const glm::quat& target, const Plan& plan) {
    const std::size_t l = grp->size++;
    Gather(&grp->b.now, l, c);
    Aim(&grp->b.now, l, target);
    Coefficients(&grp->b, l, c, plan);
    grp->item[l] = item;
    grp->mostSteps = std::max(grp->mostSteps, plan.count);
  }

  // The lanes' step: QuatChart::FastStep's stages (log, Jacobian, sub-steps with
  // ChartStep's velocity limit, exp) in F, after the target's normalization.
  template <class F>
  static void Step(Block* b, int mostSteps) {
    State* st = &b->now;
    const auto at = [](const float* field) { return simd::Load1<F>(field, 0); };
    const Q4<F> q{at(st->q[0]), at(st->q[1]), at(st->q[2]), at(st->q[3])};
    Q4<F> g{at(st->g[0]), at(st->g[1]), at(st->g[2]), at(st->g[3])};
    g = simd::Normalize(g);  // finite, its length squared in [1e-30, 1e30] (checked)
    const V3<F> omega{at(st->omega[0]), at(st->omega[1]), at(st->omega[2])};
    const F ee = at(b->k[0]), ev = at(b->k[1]), ve = at(b->k[2]), vv = at(b->k[3]);
    const F maxSpeed = at(b->maxSpeed), maxMove = at(b->maxMove), steps = at(b->steps);
    kernel::HalfAngle<F> h0;
    V3<F> u = kernel::QuatLog(q, &g, &h0);
    V3<F> w = kernel::JInvTimes(u, h0, omega);
    for (int step = 0; step < mostSteps; ++step) {
      // HeldExactSteps: ApplyExactStep with the target, its velocity and the offset all 0,
      // then LimitSubstep: the velocity's norm, then the move's, at most their limits.
      const V3<F> u0 = u;
      V3<F> un = u0 * ee + w * ev;
      V3<F> wn = u0 * ve + w * vv;
      const F speed = simd::Sqrt(Dot(wn, wn));
      wn = simd::Select(speed > maxSpeed, wn * (maxSpeed / speed), wn);
      const V3<F> d = un - u0;
      const F moved = simd::Sqrt(Dot(d, d));
      un = simd::Select(moved > maxMove, u0 + d * (maxMove / moved), un);
      const auto live = F(static_cast<float>(step)) < steps;
      u = simd::Select(live, un, u);
      w = simd::Select(live, wn, w);
    }
    const kernel::HalfAngle<F> h1 = kernel::HalfAngleOf(u);
    const Q4<F> nq = kernel::QuatExp(u, h1, g);
    const V3<F> nw = kernel::JTimes(u, h1, w);
    // RawVelocity: ½·(0, ω)·q.
    const Q4<F> raw = Q4<F>{nw.x, nw.y, nw.z, F(0.0f)} * nq;
    const F fields[] = {nq.x, nq.y, nq.z, nq.w, nw.x, nw.y, nw.z, g.x, g.y, g.z, g.w};
    float* out[] = {st->q[0], st->q[1], st->q[2], st->q[3], st->omega[0], st->omega[1], st->omega[2],
                    st->g[0], st->g[1], st->g[2], st->g[3]};
    for (int i = 0; i < 11; ++i) simd::Store1(out[i], 0, fields[i]);
    simd::Store1(st->raw[0], 0, raw.x * 0.5f), simd::Store1(st->raw[1], 0, raw.y * 0.5f);
    simd::Store1(st->raw[2], 0, raw.z * 0.5f), simd::Store1(st->raw[3], 0, raw.w * 0.5f);
  }

  // Whether lane l's float result is usable (finite and about unit; else Update runs).
  static bool Usable(const State& st, std::size_t l) {
    const glm::quat value(st.q[3][l], st.q[0][l], st.q[1][l], st.q[2][l]);
    const glm::vec3 velocity(st.omega[0][l], st.omega[1][l], st.omega[2][l]);
    const float nn = glm::dot(value, value);
    return IsFinite(velocity) && nn > 0.5f && nn < 2.0f;  // NaN fails the length test
  }

  // Lane l's stepped state into its controller, as Advance would commit it.
  static void Commit(const State& from, std::size_t l, Base& c) {
    PdState<QuatChart>& st = c.state_;
    st.value = glm::dquat(glm::quat(from.q[3][l], from.q[0][l], from.q[1][l], from.q[2][l]));
    st.velocity = glm::dvec3(glm::vec3(from.omega[0][l], from.omega[1][l], from.omega[2][l]));
    st.extra.raw = glm::dvec4(from.raw[0][l], from.raw[1][l], from.raw[2][l], from.raw[3][l]);
    st.target = glm::dquat(from.g[3][l], from.g[0][l], from.g[1][l], from.g[2][l]);
    st.targetVelocity = glm::dvec3(0.0);
    st.hasTarget = true;
    st.phase = BlendPhase::kNone;
    if (c.settings_.maxAngle < detail::kPiD) c.chart_.Clamp(c.settings_, &st);
  }

  // Steps a full or final group and commits each lane as Advance would; a lane
  // not finite or far from unit (a huge velocity) goes through Update.
  static Status Run(Group* grp, std::span<QuatPD> pds, std::span<const glm::quat> targets, double dt) {
    if (grp->size == 0) return Ok();
    for (std::size_t l = grp->size; l < kLanes; ++l) Pad(&grp->b, l);
    Step<simd::Wide>(&grp->b, grp->mostSteps);
    const std::size_t size = grp->size;
    grp->size = 0;
    grp->mostSteps = 0;
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = grp->item[l];
      if (!Usable(grp->b.now, l)) {
        if (Status s = pds[i].Update(dt, targets[i]); !s) return s;
        continue;
      }
      Commit(grp->b.now, l, Of(pds[i]));
    }
    return Ok();
  }

  // UpdateQuatPDs with the lanes kept in `set`: controller i in block i / kLanes,
  // lane i % kLanes; a lane the lanes do not take this update is padding.
  static Status RunKept(Set* set, std::span<QuatPD> pds, std::span<const glm::quat> targets, double dt) {
    const bool sameDt = dt == set->dt_;
    set->dt_ = -1.0;  // until every kept lane has this dt's coefficients
    set->stepped_ = true;
    Plan plan;
    const std::size_t n = pds.size();
    for (std::size_t first = 0, bi = 0; first < n; first += kLanes, ++bi) {
      Block& b = set->blocks_[bi];
      b.before = b.now;
      const std::size_t size = std::min(kLanes, n - first);
      std::uint32_t taken = 0;
      int mostSteps = 0;
      for (std::size_t l = 0; l < size; ++l) {
        const std::size_t i = first + l;
        const std::uint32_t bit = std::uint32_t{1} << l;
        Base& c = Of(pds[i]);
        const bool kept = (b.kept & bit) != 0;
        // dt 0 remembers the target only; a target whose float length squared leaves
        // [1e-30, 1e30] is normalized in double. A kept lane's plan holds for its dt.
        const float tt = glm::dot(targets[i], targets[i]);
        bool takes = dt != 0.0 && tt > 1e-30f && tt < 1e30f;
        if (takes && !(kept && sameDt)) takes = Takes(c, dt, &plan);
        if (!takes) {
          if (kept) Commit(b.now, l, c), b.kept &= ~bit;
          Pad(&b, l);
          if (Status s = pds[i].Update(dt, targets[i]); !s) return s;
          continue;
        }
        if (!kept) Gather(&b.now, l, c);
        if (!(kept && sameDt)) Coefficients(&b, l, c, plan);
        Aim(&b.now, l, targets[i]);
        taken |= bit;
        mostSteps = std::max(mostSteps, static_cast<int>(b.steps[l]));
      }
      if (taken == 0) continue;
      Step<simd::Wide>(&b, mostSteps);
      for (std::size_t l = 0; l < size; ++l) {
        const std::uint32_t bit = std::uint32_t{1} << l;
        if ((taken & bit) == 0) continue;
        const std::size_t i = first + l;
        if (!Usable(b.now, l)) {
          Base& c = Of(pds[i]);
          if (b.kept & bit) Commit(b.before, l, c);  // its double state was the lane's
          b.kept &= ~bit;
          Pad(&b, l);
          if (Status s = pds[i].Update(dt, targets[i]); !s) return s;
          continue;
        }
        if ((b.kept & bit) != 0) continue;  // kept: its settings keep it
        Base& c = Of(pds[i]);
        if (Keeps(c)) b.kept |= bit;
        else Commit(b.now, l, c);
      }
    }
    set->dt_ = dt;
    return Ok();
  }

  static void Pad(Set* set) {
    for (Block& b : set->blocks_) {
      for (std::size_t l = 0; l < Set::kBlock; ++l) Pad(&b, l);
      b.before = b.now;
      for (int i = 0; i < 4; ++i) {
        for (std::size_t l = 0; l < Set::kBlock; ++l) b.now.raw[i][l] = b.before.raw[i][l] = 0.0f;
      }
    }
  }
};

bool QuatPdLaneSet::Allocate(std::size_t n) {
  const std::size_t lanes = QuatPdLanes::kLanes;
  Buffer<Block> blocks;
  if (!blocks.Allocate((n + lanes - 1) / lanes)) return false;
  blocks_ = std::move(blocks);
  n_ = n;
  shift_ = lanes == 8 ? 3 : lanes == 4 ? 2 : 0;
  lane_ = lanes - 1;
  dt_ = -1.0;
  stepped_ = false;
  QuatPdLanes::Pad(this);
  return true;
}

void QuatPdLaneSet::Commit(std::span<QuatPD> pds) {
  const std::size_t lanes = QuatPdLanes::kLanes;
  for (std::size_t bi = 0; bi < blocks_.size(); ++bi) {
    Block& b = blocks_[bi];
    for (std::size_t l = 0; b.kept != 0 && l < lanes; ++l) {
      if ((b.kept >> l & 1u) != 0) QuatPdLanes::Commit(b.now, l, QuatPdLanes::Of(pds[bi * lanes + l]));
    }
    b.kept = 0;
  }
}

void QuatPdLaneSet::Drop() {
  for (Block& b : blocks_) b.kept = 0;
}

std::size_t QuatPdLaneSet::Save() {
  const std::size_t lanes = QuatPdLanes::kLanes;
  std::size_t notKept = 0;
  for (std::size_t bi = 0; bi < blocks_.size(); ++bi) {
    Block& b = blocks_[bi];
    b.savedKept = b.kept;
    const std::size_t size = std::min(lanes, n_ - bi * lanes);
    // Every lane kept (the steady update) needs no count (popcount is a call without -mpopcnt).
    if (b.kept != (std::uint32_t{1} << size) - 1u) notKept += size - static_cast<std::size_t>(std::popcount(b.kept));
  }
  stepped_ = false;
  return notKept;
}

void QuatPdLaneSet::Restore() {
  for (Block& b : blocks_) {
    b.kept = b.savedKept;
    if (stepped_) b.now = b.before;
  }
  stepped_ = false;
  dt_ = -1.0;  // a lane kept again may hold padding's coefficients
}

namespace {

// Every target finite and non-zero, as QuatPD::Update checks it in double; a
// float length squared in [1e-20, 1e30] says so without the double test
// (finite, and over UsableQuat's 1e-24 in double).
Status CheckTargets(std::span<const glm::quat> targets) {
  for (const glm::quat& tf : targets) {
    const float tt = glm::dot(tf, tf);
    if (tt >= 1e-20f && tt <= 1e30f) continue;
    const glm::dquat t(tf);
    if (!detail::FiniteQ(t)) return Error("target: must be finite");
    if (!detail::UsableQuat(t)) return Error("target: quaternion must not be zero");
  }
  return Ok();
}

}  // namespace

Status UpdateQuatPDs(double dt, std::span<QuatPD> pds, std::span<const glm::quat> targets) {
  if (targets.size() != pds.size()) return Error("targets: needs one target per controller");
  if (Status s = detail::CheckDt(dt); !s) return s;
  if (Status s = CheckTargets(targets); !s) return s;
  QuatPdLanes::Group grp;
  QuatPdLanes::Plan plan;
  for (std::size_t i = 0; i < pds.size(); ++i) {
    QuatPdLanes::Base& c = QuatPdLanes::Of(pds[i]);
    // dt 0 remembers the target only; a target whose float length squared leaves
    // [1e-30, 1e30] is normalized in double.
    const float tt = glm::dot(targets[i], targets[i]);
    if (dt == 0.0 || !(tt > 1e-30f && tt < 1e30f) || !QuatPdLanes::Takes(c, dt, &plan)) {
      if (Status s = pds[i].Update(dt, targets[i]); !s) return s;
      continue;
    }
    QuatPdLanes::Add(&grp, c, i, targets[i], plan);
    if (grp.size == QuatPdLanes::kLanes) {
      if (Status s = QuatPdLanes::Run(&grp, pds, targets, dt); !s) return s;
    }
  }
  return QuatPdLanes::Run(&grp, pds, targets, dt);
}

Status UpdateQuatPDs(double dt, std::span<QuatPD> pds, std::span<const glm::quat> targets, QuatPdLaneSet* lanes) {
  if (lanes == nullptr || lanes->size() != pds.size()) return Error("lanes: needs one lane per controller");
  if (targets.size() != pds.size()) return Error("targets: needs one target per controller");
  if (Status s = detail::CheckDt(dt); !s) return s;
  if (Status s = CheckTargets(targets); !s) return s;
  return QuatPdLanes::RunKept(lanes, pds, targets, dt);
}

}  // namespace ikpd::pd
