// Benchmark problem sets, generated exactly like bench/problems.js (same
// mulberry32 sequence, double arithmetic rounded to float) so native, WASM
// and pure-JS runs solve the same items.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace bench {

class Rng {
 public:
  explicit Rng(std::uint32_t seed) : a_(seed) {}
  double next() {  // mulberry32, as in bench/problems.js
    a_ += 0x6D2B79F5u;
    std::uint32_t t = a_;
    t = (t ^ (t >> 15)) * (t | 1u);
    t = (t + ((t ^ (t >> 7)) * (t | 61u))) ^ t;
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * next(); }

 private:
  std::uint32_t a_;
};

inline void Push(std::vector<float>& v, double x) { v.push_back(static_cast<float>(x)); }

inline void UnitVector(Rng& rng, double out[3]) {
  double x = rng.uniform(-1, 1), y = rng.uniform(-1, 1), z = rng.uniform(-1, 1);
  double n = std::sqrt(x * x + y * y + z * z);
  if (n < 1e-6) { x = 1; y = 0; z = 0; n = 1; }
  out[0] = x / n; out[1] = y / n; out[2] = z / n;
}

inline void UnitQuat(Rng& rng, std::vector<float>& out) {
  double q[4];
  double n = 0;
  for (double& c : q) { c = rng.uniform(-1, 1); n += c * c; }
  n = std::sqrt(n);
  if (n < 1e-6) { q[0] = q[1] = q[2] = 0; q[3] = 1; n = 1; }
  for (double c : q) Push(out, c / n);
}

struct TwoBoneProblems {
  std::vector<float> rootPosition, rootRotation, midPosition, midRotation, endPosition, endRotation, target, pole,
      weight;
};

inline TwoBoneProblems MakeTwoBoneProblems(std::size_t n, std::uint32_t seed = 1) {
  Rng rng(seed);
  TwoBoneProblems p;
  for (std::size_t i = 0; i < n; ++i) {
    double root[3], d1[3], d2[3], dt[3];
    for (double& c : root) c = rng.uniform(-1, 1);
    UnitVector(rng, d1);
    const double a = rng.uniform(0.5, 1.5);
    UnitVector(rng, d2);
    const double b = rng.uniform(0.5, 1.5);
    UnitVector(rng, dt);
    const double reach = rng.uniform(0, 1.1 * (a + b));
    for (int k = 0; k < 3; ++k) {
      const double mid = root[k] + a * d1[k];
      Push(p.rootPosition, root[k]);
      Push(p.midPosition, mid);
      Push(p.endPosition, mid + b * d2[k]);
      Push(p.target, root[k] + reach * dt[k]);
    }
    UnitQuat(rng, p.rootRotation);
    UnitQuat(rng, p.midRotation);
    UnitQuat(rng, p.endRotation);
    for (int k = 0; k < 3; ++k) Push(p.pole, root[k] + rng.uniform(-2, 2));
    Push(p.weight, rng.next() < 0.5 ? 1.0 : 0.75);
  }
  return p;
}

struct AimProblems {
  std::vector<float> position, rotation, target, pole, weight;
};

inline AimProblems MakeAimProblems(std::size_t n, std::uint32_t seed = 2) {
  Rng rng(seed);
  AimProblems p;
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) Push(p.position, rng.uniform(-1, 1));
    UnitQuat(rng, p.rotation);
    for (int k = 0; k < 3; ++k) Push(p.target, rng.uniform(-3, 3));
    for (int k = 0; k < 3; ++k) Push(p.pole, rng.uniform(-3, 3));
    Push(p.weight, 1.0);
  }
  return p;
}

}  // namespace bench

namespace bench {

struct PdProblems {
  std::vector<float> value, velocity, target, qValue, qVelocity, qTarget;
};

inline PdProblems MakePdProblems(std::size_t n, std::uint32_t seed = 4) {
  Rng rng(seed);
  PdProblems p;
  for (std::size_t i = 0; i < n; ++i) {
    Push(p.value, rng.uniform(-1, 1));
    Push(p.velocity, rng.uniform(-1, 1));
    Push(p.target, rng.uniform(-1, 1));
    UnitQuat(rng, p.qValue);
    for (int k = 0; k < 3; ++k) Push(p.qVelocity, rng.uniform(-1, 1));
    UnitQuat(rng, p.qTarget);
  }
  return p;
}

}  // namespace bench

namespace bench {

// Chain targets as bench/problems.js makeChainTargets: 20–95 % of the chain length, random directions.
inline std::vector<float> MakeChainTargets(std::size_t n, double chainLength, std::uint32_t seed = 3) {
  Rng rng(seed);
  std::vector<float> out;
  for (std::size_t i = 0; i < n; ++i) {
    double d[3];
    UnitVector(rng, d);
    const double reach = rng.uniform(0.2, 0.95) * chainLength;
    for (double c : d) Push(out, reach * c);
  }
  return out;
}

}  // namespace bench
