// Golden files: the native build's results for fixed inputs, checked in as
// tests/golden/<name>.json and replayed through the JS API by
// tests/js/golden.test.js (WASM must agree within 1e-5), so native and WASM
// cannot silently drift. Each tests/golden/<name>_golden.cc registers one file.
//
// File format (compact JSON): {"cases":[case, ...]} where a case is either
//   {"call":"solveAim","args":[...],"expect":<value>}   ikpd[call](...args) == expect
//   {"call":"hdr.filmic", ...}                          dotted paths reach ikpd.hdr
//   {"new":"PD","args":[...],"steps":[{"call":"update","args":[...],"expect":{...}}]}
//     constructs new ikpd[new](...args), then per step calls the method and
//     compares each key of `expect` with the object's property of that name
//     (key "result": the value the call returned).
// Expected objects are compared key by key (extra keys in the actual result
// are ignored); numbers within 1e-5·max(1, |expected|).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "ikpd/ikpd.h"

namespace ikpd::golden {

// Minimal JSON writer. Commas are inserted automatically.
class Json {
 public:
  Json& BeginObject() { Separate(); out_ += '{'; first_ = true; return *this; }
  Json& EndObject() { out_ += '}'; first_ = false; return *this; }
  Json& BeginArray() { Separate(); out_ += '['; first_ = true; return *this; }
  Json& EndArray() { out_ += ']'; first_ = false; return *this; }
  Json& Key(const char* key) {
    Separate();
    out_ += '"';
    out_ += key;
    out_ += "\":";
    first_ = true;  // the value follows without a comma
    return *this;
  }
  // Outputs: 7 significant digits (float precision; the check tolerance is 1e-5).
  Json& Number(double v) {
    Separate();
    if (!std::isfinite(v)) {  // JSON has no NaN/Inf; golden outputs are finite by contract
      out_ += "null";
      return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", v == 0.0 ? 0.0 : v);
    out_ += buf;
    return *this;
  }
  // Inputs: exact decimals produced by Rng (see below), printed so the JS side
  // reads back the same float32 after packing.
  Json& Exact(float v) {
    Separate();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
    out_ += buf;
    return *this;
  }
  Json& Bool(bool v) { Separate(); out_ += v ? "true" : "false"; return *this; }
  Json& String(const char* v) { Separate(); out_ += '"'; out_ += v; out_ += '"'; return *this; }
  Json& Vec3(const glm::vec3& v) { BeginArray(); Number(v.x); Number(v.y); Number(v.z); return EndArray(); }
  // Quaternions in three.js order [x, y, z, w].
  Json& Quat(const glm::quat& q) { BeginArray(); Number(q.x); Number(q.y); Number(q.z); Number(q.w); return EndArray(); }
  Json& ExactVec3(const glm::vec3& v) { BeginArray(); Exact(v.x); Exact(v.y); Exact(v.z); return EndArray(); }
  Json& ExactQuat(const glm::quat& q) { BeginArray(); Exact(q.x); Exact(q.y); Exact(q.z); Exact(q.w); return EndArray(); }
  // {position, rotation} as the JS API spells joints.
  Json& Joint(const Transform& t) {
    BeginObject(); Key("position").Vec3(t.position); Key("rotation").Quat(t.rotation); return EndObject();
  }
  Json& ExactJoint(const Transform& t) {
    BeginObject(); Key("position").ExactVec3(t.position); Key("rotation").ExactQuat(t.rotation); return EndObject();
  }
  Json& Newline() { out_ += '\n'; return *this; }

  const std::string& str() const { return out_; }

 private:
  void Separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  std::string out_;
  bool first_ = true;
};

// Deterministic inputs on every platform (no <random> distributions, whose
// results differ between standard libraries). Values are multiples of 1/1000
// so JSON decimals and float32 agree exactly on both sides.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 2654435761u + 1u) {}
  std::uint32_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return static_cast<std::uint32_t>(state_ >> 32);
  }
  // Uniform in [lo, hi], rounded to 1/1000.
  float Range(float lo, float hi) {
    const double u = static_cast<double>(Next()) / 4294967295.0;
    const double k = std::round((lo + (hi - lo) * u) * 1000.0);
    return static_cast<float>(k / 1000.0);
  }
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() % static_cast<std::uint32_t>(hi - lo + 1)); }
  glm::vec3 Vec3(float lo, float hi) { return {Range(lo, hi), Range(lo, hi), Range(lo, hi)}; }
  // A non-unit, non-zero quaternion (the JS API normalizes it, like C++).
  glm::quat Quat() {
    for (;;) {
      const glm::quat q(Range(-1, 1), Range(-1, 1), Range(-1, 1), Range(-1, 1));
      if (glm::dot(q, q) > 0.1f) return q;
    }
  }

 private:
  std::uint64_t state_;
};

// A random direction of length 0.3 to √3 (not unit).
inline glm::vec3 RandomAxis(Rng& rng) {
  for (;;) {
    const glm::vec3 v = rng.Vec3(-1, 1);
    if (glm::length(v) > 0.3f) return v;
  }
}

// The rig and bend settings of random limb case i, shared by the two-bone and
// pseudo three-bone files: forward +X or +Y with bendAxis +Z, a pole point or
// direction well off the root → target line (every third case), each
// bendDirection in turn, and angle limits (every fourth). Call it after setting
// root and target.
inline void RandomLimbSettings(Rng& rng, int i, TwoBoneJob& limb) {
  limb.settings.forward = i % 2 == 0 ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  limb.settings.bendAxis = glm::vec3(0, 0, 1);
  if (i % 3 == 1) {
    const glm::vec3 dir = glm::normalize(limb.frame.target - limb.frame.root.position);
    glm::vec3 side = RandomAxis(rng);
    side -= glm::dot(side, dir) * dir;
    if (glm::length(side) > 0.3f) {
      if (i % 2 == 0) limb.settings.pole = ikpd::TwoBonePole::kPoint, limb.frame.pole = limb.frame.root.position + side * 3.0f;
      else limb.settings.pole = ikpd::TwoBonePole::kDirection, limb.frame.pole = side;
    }
  }
  limb.settings.bendDirection = static_cast<BendDirection>(i % 3);
  if (i % 4 == 2) {
    limb.settings.minAngle = rng.Range(0.1f, 0.8f);
    limb.settings.maxAngle = rng.Range(2.2f, 3.0f);
  }
}

using Generator = void (*)(Json& cases);

// Registers a golden file; use at namespace scope in a *_golden.cc file:
//   static const bool registered = ikpd::golden::Register("aim", &Generate);
bool Register(const char* name, Generator generate);

}  // namespace ikpd::golden
