// Prepared settings (docs/ik/two-bone.md, docs/ik/aim.md): Prepare + SolveTwoBone /
// SolveAim equal the all-in-one TwoBoneJob / AimJob::Run bit for bit, Validate
// has no hidden state, and bad settings or frames give the named errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "native/ik_test_util.h"

using ikpd::AimFrame;
using ikpd::AimJob;
using ikpd::AimMethod;
using ikpd::AimSettings;
using ikpd::AimSetup;
using ikpd::BendDirection;
using ikpd::EndRotation;
using ikpd::Status;
using ikpd::TwoBoneFrame;
using ikpd::TwoBoneJob;
using ikpd::TwoBonePole;
using ikpd::TwoBoneResult;
using ikpd::TwoBoneSettings;
using ikpd::TwoBoneSetup;
using iktest::Same;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::string Text(const Status& s) { return s ? "ok" : s.error; }

// A random two-bone job: random rig axes, every option drawn from its range
// (its ends included), and one of no pole, a pole point or a pole direction.
TwoBoneJob RandomTwoBone(iktest::Rng& rng, int i) {
  TwoBoneJob job;
  job.settings.forward = rng.Direction() * rng.Uniform(0.5f, 2.0f);
  do job.settings.bendAxis = rng.Direction(); while (glm::length(glm::cross(glm::normalize(job.settings.forward), job.settings.bendAxis)) < 0.05f);
  const iktest::Limb l = iktest::MakeLimb(rng.Vec(-3, 3), rng.Rotation(), rng.Uniform(0.2f, 2.0f), rng.Uniform(0.2f, 2.0f),
                                          rng.Uniform(-3.0f, 3.0f), glm::normalize(job.settings.forward), job.settings.bendAxis, rng.Rotation());
  job.frame.root = l.root, job.frame.mid = l.mid, job.frame.end = l.end;
  job.frame.target = rng.Vec(-5, 5);
  if (i % 3 == 1) job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = rng.Vec(-5, 5);
  if (i % 3 == 2) job.settings.pole = ikpd::TwoBonePole::kDirection, job.frame.pole = rng.Direction();
  job.settings.bendDirection = static_cast<BendDirection>(i % 5 % 3);
  job.settings.straightBend = i % 2 ? BendDirection::kNegative : BendDirection::kPositive;
  if (i % 4 == 1) {
    job.settings.minAngle = rng.Uniform(0.0f, 1.5f);
    job.settings.maxAngle = rng.Uniform(job.settings.minAngle, ikpd::kPi);
  }
  if (i % 7 < 3) job.settings.soften = rng.Uniform(0.0f, 1.0f);
  if (i % 5 == 3) job.settings.maxStretch = rng.Uniform(1.0f, 2.0f);
  if (i % 6 == 4) job.settings.twist = rng.Uniform(-4.0f, 4.0f);
  job.settings.endRotation = i % 2 ? EndRotation::kRelative : EndRotation::kWorld;
  if (i % 3 == 0) job.frame.effectorOffset = rng.Vec(-0.5f, 0.5f);
  job.settings.tolerance = i % 8 == 0 ? 0.0f : rng.Uniform(0.0f, 0.1f);
  job.frame.weight = i % 10 == 0 ? 0.0f : i % 10 < 5 ? 1.0f : rng.Uniform(0.0f, 1.0f);
  return job;
}

AimJob RandomAim(iktest::Rng& rng, int i) {
  AimJob job;
  job.frame.position = rng.Vec(-3, 3);
  job.frame.rotation = rng.Rotation() * rng.Uniform(0.5f, 2.0f);
  job.frame.target = i % 50 == 0 ? job.frame.position : rng.Vec(-5, 5);
  job.settings.forward = rng.Direction() * rng.Uniform(0.5f, 2.0f);
  job.settings.method = static_cast<AimMethod>(i % 3);
  const glm::vec3 f = glm::normalize(job.settings.forward);
  if (i % 4 == 3) {
    do job.settings.hingeAxis = rng.Direction(); while (glm::length(glm::cross(f, *job.settings.hingeAxis)) < 0.05f);
  } else {
    if (i % 2 == 1) {
      do job.settings.up = rng.Direction(); while (glm::length(glm::cross(f, job.settings.up)) < 0.05f);
      job.settings.pole = true, job.frame.pole = rng.Vec(-5, 5);
    }
    if (i % 4 == 2) job.settings.offset = rng.Vec(-0.5f, 0.5f);
  }
  job.frame.weight = i % 10 == 0 ? 0.0f : i % 10 < 5 ? 1.0f : rng.Uniform(0.0f, 1.0f);
  return job;
}

}  // namespace

TEST(TwoBonePrepared, EqualsRunBitForBit) {
  iktest::Rng rng(2501);
  for (int i = 0; i < 20000; ++i) {
    TwoBoneJob job = RandomTwoBone(rng, i);
    TwoBoneResult viaJob, viaSetup;
    job.result = &viaJob;
    ASSERT_TRUE(job.Run()) << i;
    TwoBoneSetup setup;
    ASSERT_TRUE(ikpd::Prepare(job.settings, &setup)) << i;
    ASSERT_TRUE(ikpd::SolveTwoBone(setup, job.frame, &viaSetup)) << i;
    ASSERT_TRUE(Same(viaJob, viaSetup)) << "case " << i;
  }
}

TEST(TwoBonePrepared, OneSetupSolvesManyFrames) {
  // One setup reused across frames equals a fresh job per frame.
  iktest::Rng rng(77);
  TwoBoneJob options = RandomTwoBone(rng, 1);
  TwoBoneSetup setup;
  ASSERT_TRUE(ikpd::Prepare(options.settings, &setup));
  for (int i = 0; i < 2000; ++i) {
    TwoBoneJob frame = RandomTwoBone(rng, 1);
    TwoBoneJob job = options;
    job.frame.root = frame.frame.root, job.frame.mid = frame.frame.mid, job.frame.end = frame.frame.end;
    job.frame.target = frame.frame.target, job.frame.pole = frame.frame.pole, job.frame.weight = frame.frame.weight;
    TwoBoneResult a, b;
    job.result = &a;
    ASSERT_TRUE(job.Run());
    ASSERT_TRUE(ikpd::SolveTwoBone(setup, job.frame, &b));
    ASSERT_TRUE(Same(a, b)) << i;
  }
}

TEST(AimPrepared, EqualsRunBitForBit) {
  iktest::Rng rng(2502);
  for (int i = 0; i < 20000; ++i) {
    AimJob job = RandomAim(rng, i);
    glm::quat viaJob, viaSetup;
    job.result = &viaJob;
    ASSERT_TRUE(job.Run()) << i;
    AimSetup setup;
    ASSERT_TRUE(ikpd::Prepare(job.settings, &setup)) << i;
    ASSERT_TRUE(ikpd::SolveAim(setup, job.frame, &viaSetup)) << i;
    ASSERT_TRUE(Same(viaJob, viaSetup)) << "case " << i;
  }
}

// Validate and Run depend on their own call only: options A, then B (invalid),
// then A, then C, … give what each gives on a fresh thread.
TEST(TwoBonePrepared, ValidateHasNoHiddenState) {
  iktest::Rng rng(9);
  std::vector<TwoBoneJob> jobs;
  for (int k = 0; k < 3; ++k) jobs.push_back(RandomTwoBone(rng, k));
  jobs.push_back(jobs[0]);
  jobs.back().settings.bendAxis = jobs[0].settings.forward;  // invalid options
  jobs.push_back(jobs[1]);
  jobs.back().settings.forward = -jobs[1].settings.forward;  // same everything but the axis sign
  const std::size_t n = jobs.size();
  std::vector<std::string> fresh(n);
  std::vector<TwoBoneResult> freshResult(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::thread([&, k] {
      TwoBoneJob job = jobs[k];
      job.result = &freshResult[k];
      fresh[k] = Text(job.Validate()) + "/" + Text(job.Run());
    }).join();
  }
  const int order[] = {0, 3, 0, 1, 3, 2, 0, 4, 1, 4, 3, 2, 2, 0};
  for (int k : order) {
    TwoBoneJob job = jobs[static_cast<std::size_t>(k)];
    TwoBoneResult r;
    job.result = &r;
    EXPECT_EQ(Text(job.Validate()) + "/" + Text(job.Run()), fresh[static_cast<std::size_t>(k)]) << k;
    if (fresh[static_cast<std::size_t>(k)] == "ok/ok") {
      EXPECT_TRUE(Same(r, freshResult[static_cast<std::size_t>(k)])) << k;
    }
  }
}

TEST(AimPrepared, ValidateHasNoHiddenState) {
  iktest::Rng rng(10);
  std::vector<AimJob> jobs;
  for (int k = 0; k < 4; ++k) jobs.push_back(RandomAim(rng, k));
  jobs.push_back(jobs[1]);
  jobs.back().settings.up = jobs[1].settings.forward;  // invalid with its pole
  const std::size_t n = jobs.size();
  std::vector<std::string> fresh(n);
  std::vector<glm::quat> freshResult(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::thread([&, k] {
      AimJob job = jobs[k];
      job.result = &freshResult[k];
      fresh[k] = Text(job.Validate()) + "/" + Text(job.Run());
    }).join();
  }
  const int order[] = {1, 4, 1, 0, 4, 2, 3, 1, 4, 0};
  for (int k : order) {
    AimJob job = jobs[static_cast<std::size_t>(k)];
    glm::quat r;
    job.result = &r;
    EXPECT_EQ(Text(job.Validate()) + "/" + Text(job.Run()), fresh[static_cast<std::size_t>(k)]) << k;
    if (fresh[static_cast<std::size_t>(k)] == "ok/ok") {
      EXPECT_TRUE(Same(r, freshResult[static_cast<std::size_t>(k)])) << k;
    }
  }
}

TEST(TwoBonePrepared, BadSettingsAreNamed) {
  const auto error = [](auto change) {
    TwoBoneSettings s;
    change(s);
    TwoBoneSetup setup;
    const Status prepared = ikpd::Prepare(s, &setup);
    EXPECT_EQ(Text(prepared), Text(s.Validate()));
    EXPECT_EQ(setup.prepared(), prepared.ok());  // left untouched on error
    return Text(prepared);
  };
  EXPECT_EQ(error([](TwoBoneSettings&) {}), "ok");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.pole = static_cast<TwoBonePole>(7); }), "pole: must be none, point or direction");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.forward = glm::vec3(0); }), "forward: must be a non-zero finite vector");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.bendAxis = glm::vec3(kNaN, 0, 1); }), "bendAxis: must be a non-zero finite vector");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.bendAxis = glm::vec3(2, 0, 0); }), "bendAxis: must not be parallel to forward");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.bendDirection = static_cast<BendDirection>(5); }),
            "bendDirection: must be auto, positive or negative");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.straightBend = BendDirection::kAuto; }), "straightBend: must be positive or negative");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.minAngle = -0.1f; }), "minAngle: must be in [0, pi]");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.maxAngle = 4.0f; }), "maxAngle: must be in [0, pi]");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.minAngle = 2.0f, s.maxAngle = 1.0f; }), "minAngle: must not exceed maxAngle");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.soften = 1.5f; }), "soften: must be in [0, 1]");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.maxStretch = 0.5f; }), "maxStretch: must be a finite number >= 1");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.twist = kInf; }), "twist: must be finite");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.endRotation = static_cast<EndRotation>(3); }), "endRotation: must be world or relative");
  EXPECT_EQ(error([](TwoBoneSettings& s) { s.tolerance = -1.0f; }), "tolerance: must be a finite number >= 0");
  EXPECT_EQ(Text(ikpd::Prepare(TwoBoneSettings{}, nullptr)), "setup: output pointer must not be null");

  // A failed Prepare keeps the setup it was given.
  TwoBoneSettings good;
  good.soften = 0.25f;
  TwoBoneSetup setup;
  ASSERT_TRUE(ikpd::Prepare(good, &setup));
  TwoBoneSettings bad;
  bad.soften = 2.0f;
  EXPECT_FALSE(ikpd::Prepare(bad, &setup));
  EXPECT_TRUE(setup.prepared());
  EXPECT_EQ(setup.settings().soften, 0.25f);
}

TEST(TwoBonePrepared, BadFramesAreNamed) {
  const iktest::Limb l = iktest::MakeLimb(glm::vec3(0), glm::quat(1, 0, 0, 0), 1, 1, 0.5f, glm::vec3(1, 0, 0),
                                          glm::vec3(0, 0, 1), glm::quat(1, 0, 0, 0));
  const auto error = [&](TwoBonePole pole, auto change) {
    TwoBoneSettings s;
    s.pole = pole;
    TwoBoneSetup setup;
    EXPECT_TRUE(ikpd::Prepare(s, &setup));
    TwoBoneFrame f;
    f.root = l.root, f.mid = l.mid, f.end = l.end, f.target = glm::vec3(1, 1, 0), f.pole = glm::vec3(0, 1, 0);
    change(f);
    TwoBoneResult r;
    r.distance = -7.0f;
    const Status status = ikpd::SolveTwoBone(setup, f, &r);
    if (!status) {
      EXPECT_EQ(r.distance, -7.0f);  // untouched on error
    }
    return Text(status);
  };
  const TwoBonePole none = TwoBonePole::kNone, point = TwoBonePole::kPoint, direction = TwoBonePole::kDirection;
  EXPECT_EQ(error(point, [](TwoBoneFrame&) {}), "ok");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.root.position.x = kNaN; }), "root.position: must be finite");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.mid.rotation = glm::quat(0, 0, 0, 0); }),
            "mid.rotation: must be a non-zero finite quaternion");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.end.rotation.w = kInf; }), "end.rotation: must be a non-zero finite quaternion");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.target.y = kInf; }), "target: must be finite");
  EXPECT_EQ(error(point, [](TwoBoneFrame& f) { f.pole.z = kNaN; }), "pole: must be finite");
  EXPECT_EQ(error(direction, [](TwoBoneFrame& f) { f.pole.z = kNaN; }), "poleDirection: must be finite");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.pole.z = kNaN; }), "ok");  // not read without a pole
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.effectorOffset.x = kNaN; }), "effectorOffset: must be finite");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.weight = 1.5f; }), "weight: must be in [0, 1]");
  EXPECT_EQ(error(none, [](TwoBoneFrame& f) { f.weight = kNaN; }), "weight: must be in [0, 1]");

  TwoBoneResult r;
  EXPECT_EQ(Text(ikpd::SolveTwoBone(TwoBoneSetup{}, TwoBoneFrame{}, &r)), "setup: not prepared (call Prepare first)");
  TwoBoneSetup setup;
  ASSERT_TRUE(ikpd::Prepare(TwoBoneSettings{}, &setup));
  TwoBoneFrame f;
  f.root = l.root, f.mid = l.mid, f.end = l.end;
  EXPECT_EQ(Text(ikpd::SolveTwoBone(setup, f, nullptr)), "result: output pointer must not be null");
}

TEST(AimPrepared, BadSettingsAndFramesAreNamed) {
  const auto settingsError = [](auto change) {
    AimSettings s;
    change(s);
    AimSetup setup;
    const Status prepared = ikpd::Prepare(s, &setup);
    EXPECT_EQ(Text(prepared), Text(s.Validate()));
    EXPECT_EQ(setup.prepared(), prepared.ok());
    return Text(prepared);
  };
  EXPECT_EQ(settingsError([](AimSettings&) {}), "ok");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.forward = glm::vec3(0); }), "forward: must be a non-zero finite vector");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.method = static_cast<AimMethod>(9); }),
            "method: must be yawPitch, crossProduct or shortestArc");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.up = glm::vec3(1, 0, 0); }), "ok");  // up is unused without a pole
  EXPECT_EQ(settingsError([](AimSettings& s) { s.pole = true, s.up = glm::vec3(1, 0, 0); }), "up: must not be parallel to forward");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.pole = true, s.up = glm::vec3(0); }), "up: must be a non-zero finite vector");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.pole = true, s.hingeAxis = glm::vec3(0, 0, 1); }),
            "pole: cannot be combined with hingeAxis (a hinge cannot roll)");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.hingeAxis = glm::vec3(-3, 0, 0); }), "hingeAxis: must not be parallel to forward");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.offset = glm::vec3(kInf, 0, 0); }), "offset: must be finite");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.hingeAxis = glm::vec3(0, 0, 1), s.offset = glm::vec3(0, 1, 0); }),
            "offset: cannot be combined with hingeAxis");

  const auto frameError = [](bool pole, auto change) {
    AimSettings s;
    s.pole = pole;
    AimSetup setup;
    EXPECT_TRUE(ikpd::Prepare(s, &setup));
    AimFrame f;
    f.target = glm::vec3(1, 2, 3), f.pole = glm::vec3(0, 1, 0);
    change(f);
    glm::quat r(7, 7, 7, 7);
    const Status status = ikpd::SolveAim(setup, f, &r);
    if (!status) {
      EXPECT_EQ(r.w, 7.0f);
    }
    return Text(status);
  };
  EXPECT_EQ(frameError(true, [](AimFrame&) {}), "ok");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.position.y = kNaN; }), "position: must be finite");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.rotation = glm::quat(0, 0, 0, 0); }),
            "rotation: must be a non-zero finite quaternion");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.target.x = kInf; }), "target: must be finite");
  EXPECT_EQ(frameError(true, [](AimFrame& f) { f.pole.x = kNaN; }), "pole: must be finite");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.pole.x = kNaN; }), "ok");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.weight = -0.5f; }), "weight: must be in [0, 1]");
  glm::quat r;
  EXPECT_EQ(Text(ikpd::SolveAim(AimSetup{}, AimFrame{}, &r)), "setup: not prepared (call Prepare first)");
  AimSetup setup;
  ASSERT_TRUE(ikpd::Prepare(AimSettings{}, &setup));
  EXPECT_EQ(Text(ikpd::SolveAim(setup, AimFrame{}, nullptr)), "result: output pointer must not be null");
  EXPECT_EQ(Text(ikpd::Prepare(AimSettings{}, nullptr)), "setup: output pointer must not be null");
}


TEST(PseudoThreeBonePrepared, EqualsRunBitForBit) {
  iktest::Rng rng(2503);
  for (int i = 0; i < 10000; ++i) {
    ikpd::PseudoThreeBoneJob job;
    const ikpd::TwoBoneJob limb = RandomTwoBone(rng, i);
    job.frame.limb = limb.frame, job.settings.limb = limb.settings;
    job.frame.tip = {job.frame.limb.end.position + rng.Vec(-0.5f, 0.5f), rng.Rotation()};
    job.frame.blend = i % 3 == 0 ? 0.0f : i % 3 == 1 ? 1.0f : rng.Uniform(0.0f, 1.0f);
    job.settings.variant = i % 2 ? ikpd::PseudoThreeBoneVariant::kFollowMid : ikpd::PseudoThreeBoneVariant::kRelative;
    if (i % 4 == 2) job.settings.endLimit = rng.Uniform(0.0f, ikpd::kPi);
    ikpd::PseudoThreeBoneResult viaJob, viaSetup;
    job.result = &viaJob;
    ASSERT_TRUE(job.Run()) << i;
    ikpd::PseudoThreeBoneSetup setup;
    ASSERT_TRUE(ikpd::Prepare(job.settings, &setup)) << i;
    ASSERT_TRUE(ikpd::SolvePseudoThreeBone(setup, job.frame, &viaSetup)) << i;
    ASSERT_TRUE(Same(viaJob, viaSetup)) << "case " << i;
  }
}

TEST(PseudoThreeBonePrepared, BadSettingsAndFramesAreNamed) {
  ikpd::PseudoThreeBoneSettings s;
  ikpd::PseudoThreeBoneSetup setup;
  s.endLimit = 4.0f;
  EXPECT_EQ(Text(ikpd::Prepare(s, &setup)), "endLimit: must be in [0, pi]");
  s.endLimit = 1.0f;
  s.variant = static_cast<ikpd::PseudoThreeBoneVariant>(9);
  EXPECT_EQ(Text(ikpd::Prepare(s, &setup)), "variant: must be relative or followMid");
  s.variant = ikpd::PseudoThreeBoneVariant::kFollowMid;
  s.limb.soften = -1.0f;
  EXPECT_EQ(Text(ikpd::Prepare(s, &setup)), "soften: must be in [0, 1]");
  s.limb.soften = 0.0f;
  s.limb.endRotation = static_cast<EndRotation>(5);  // ignored, as by the job
  EXPECT_FALSE(setup.prepared());
  ASSERT_TRUE(ikpd::Prepare(s, &setup));

  const iktest::Limb l = iktest::MakeLimb(glm::vec3(0), glm::quat(1, 0, 0, 0), 1, 1, 0.5f, glm::vec3(1, 0, 0),
                                          glm::vec3(0, 0, 1), glm::quat(1, 0, 0, 0));
  ikpd::PseudoThreeBoneFrame f;
  f.limb.root = l.root, f.limb.mid = l.mid, f.limb.end = l.end, f.limb.target = glm::vec3(1, 1, 0);
  f.tip = {l.end.position + glm::vec3(0, -0.2f, 0), glm::quat(1, 0, 0, 0)};
  ikpd::PseudoThreeBoneResult r;
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(setup, f, &r)), "ok");
  auto bad = f;
  bad.limb.effectorOffset.x = kNaN;  // ignored
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(setup, bad, &r)), "ok");
  bad = f, bad.tip.position.y = kInf;
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(setup, bad, &r)), "tip: position must be finite");
  bad = f, bad.blend = 2.0f;
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(setup, bad, &r)), "blend: must be in [0, 1]");
  bad = f, bad.limb.weight = -1.0f;
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(setup, bad, &r)), "weight: must be in [0, 1]");
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(ikpd::PseudoThreeBoneSetup{}, f, &r)), "setup: not prepared (call Prepare first)");
  EXPECT_EQ(Text(ikpd::SolvePseudoThreeBone(setup, f, nullptr)), "result: output pointer must not be null");
}
