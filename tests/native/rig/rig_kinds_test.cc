// The constraint kind registry (docs/architecture.md, "Adding a constraint
// kind"): one table entry per ConstraintKind, each kind's file in every layer,
// and Rig::ClearSmoothing (docs/rig/rig.md, "Clearing the smoothing").
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../../cpp/src/rig/kinds/lanes.h"
#include "../../../cpp/src/rig/kinds/registry.h"
#include "native/grounding_test_util.h"

namespace {

using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
namespace detail = ikpd::rig::detail;
namespace fs = std::filesystem;

// The layers that keep one file per kind: the folder and how a kind's name
// ("pseudoThreeBone") becomes its file's. Extend it when a layer gets one
// file per kind (the JS layers: web/src/rig/kinds/, web/three/rig/kinds/).
struct Layer {
  const char* folder;
  bool snakeCase;  // pseudo_three_bone, else pseudoThreeBone
  const char* extension;
};
constexpr Layer kLayers[] = {
    {"cpp/src/rig/kinds", true, ".cc"},
    {"web/src/rig/kinds", false, ".js"},
    {"web/three/rig/kinds", false, ".js"},
};

std::string FileName(const char* name, bool snakeCase) {
  std::string out;
  for (const char* c = name; *c != '\0'; ++c) {
    if (snakeCase && *c >= 'A' && *c <= 'Z') {
      out += '_';
      out += static_cast<char>(*c - 'A' + 'a');
    } else {
      out += *c;
    }
  }
  return out;
}

// The repository root: the first folder from here up (the tests run from the
// root or from build/native) that holds the kind registry.
fs::path Root() {
  for (fs::path p = fs::current_path(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "cpp/src/rig/kinds/registry.cc")) return p;
    if (p == p.parent_path()) break;
  }
  return {};
}

TEST(RigKinds, TableIsInConstraintKindOrderWithEveryPart) {
  ASSERT_EQ(detail::KindCount(), std::variant_size_v<detail::KindState>);
  for (std::size_t i = 0; i < detail::KindCount(); ++i) {
    const detail::KindOps& k = detail::KindAt(i);
    SCOPED_TRACE(k.name);
    EXPECT_EQ(static_cast<std::size_t>(k.kind), i);
    EXPECT_EQ(detail::FindKind(k.kind), &k);
    EXPECT_GT(std::strlen(k.name), 0u);
    EXPECT_LE(k.minJoints, k.maxJoints);
    EXPECT_EQ(ikpd::rig::DefaultSettings(k.kind).kind, k.kind);
    for (const void* part : {reinterpret_cast<const void*>(k.defaults), reinterpret_cast<const void*>(k.checkLimbs),
                             reinterpret_cast<const void*>(k.checkOptions), reinterpret_cast<const void*>(k.detectAxes),
                             reinterpret_cast<const void*>(k.writes), reinterpret_cast<const void*>(k.configure),
                             reinterpret_cast<const void*>(k.clearSmoothing), reinterpret_cast<const void*>(k.solve),
                             reinterpret_cast<const void*>(k.groundLegs), reinterpret_cast<const void*>(k.probe)}) {
      EXPECT_NE(part, nullptr);
    }
  }
  EXPECT_EQ(detail::FindKind(static_cast<ConstraintKind>(detail::KindCount())), nullptr);
}

TEST(RigKinds, EachKindHasItsFileInEveryLayer) {
  const fs::path root = Root();
  ASSERT_FALSE(root.empty()) << "run from the repository or its build folder (cpp/src/rig/kinds/registry.cc not found)";
  for (const Layer& layer : kLayers) {
    for (std::size_t i = 0; i < detail::KindCount(); ++i) {
      const fs::path file = root / layer.folder / (FileName(detail::KindAt(i).name, layer.snakeCase) + layer.extension);
      EXPECT_TRUE(fs::exists(file)) << file << ": kind " << detail::KindAt(i).name << " has no file in " << layer.folder;
    }
  }
}

// The rig's write-back (Rig::WriteRotations, RigBatch::Locals) reads a kind's
// traits from its table entry only: no kind's state or settings type is named
// there (a two-bone end that keeps its world rotation: KindOps::keptRotations).
TEST(RigKinds, TheWriteBackNamesNoKind) {
  const fs::path root = Root();
  ASSERT_FALSE(root.empty()) << "run from the repository or its build folder (cpp/src/rig/kinds/registry.cc not found)";
  for (const char* file : {"cpp/src/rig/rig_update.cc", "cpp/src/rig/rig_batch_locals.cc"}) {
    std::ifstream in(root / file);
    ASSERT_TRUE(in.good()) << file;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t i = 0; i < detail::KindCount(); ++i) {
      std::string pascal = detail::KindAt(i).name;
      pascal[0] = static_cast<char>(pascal[0] - 'a' + 'A');
      for (const std::string& name : {pascal + "State", "ConstraintKind::k" + pascal, std::string("KeepsEnd")}) {
        EXPECT_EQ(text.find(name), std::string::npos) << file << " names " << name;
      }
    }
  }
}

// Whether `text` names the identifier `name` (not as part of a longer one).
bool NamesIdentifier(const std::string& text, const std::string& name) {
  const auto part = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !part(text[at - 1])) && (end == text.size() || !part(text[end]))) return true;
  }
  return false;
}

// Adding a kind touches its own files and the registry only (docs/architecture.md,
// "Adding a constraint kind"): no C++ source outside cpp/src/rig/kinds/ names a
// kind's state type or ConstraintKind::k<Kind> (RigBatch's solves, its pole
// direction and Rig::groundingSettings go through KindOps). The JS layers'
// counterpart is tests/js/rig/kinds.test.js.
TEST(RigKinds, NoSourceOutsideTheKindsNamesAKind) {
  const fs::path root = Root();
  ASSERT_FALSE(root.empty()) << "run from the repository or its build folder (cpp/src/rig/kinds/registry.cc not found)";
  std::vector<std::string> names;
  for (std::size_t i = 0; i < detail::KindCount(); ++i) {
    std::string pascal = detail::KindAt(i).name;
    pascal[0] = static_cast<char>(pascal[0] - 'a' + 'A');
    names.push_back(pascal + "State");
    names.push_back("ConstraintKind::k" + pascal);
  }
  const fs::path kinds = root / "cpp/src/rig/kinds";
  std::size_t files = 0;
  for (const char* folder : {"cpp/src", "cpp/bindings"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const fs::path& path = entry.path();
      if (!entry.is_regular_file() || (path.extension() != ".cc" && path.extension() != ".h")) continue;
      if (path.parent_path() == kinds) continue;
      std::ifstream in(path);
      ASSERT_TRUE(in.good()) << path;
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      ++files;
      for (const std::string& name : names) {
        EXPECT_FALSE(NamesIdentifier(text, name)) << fs::relative(path, root).string() << " names " << name
                                                  << " (call through the kind's KindOps entry, cpp/src/rig/kinds/kind.h)";
      }
    }
  }
  EXPECT_GT(files, 50u) << "the sources were not found";
}

// A batch kind is solved either in lanes (its LaneOps, kinds/registry_lanes.cc)
// or per character (KindOps::solveCharacter), never both; the others by neither.
TEST(RigKinds, EachBatchKindHasOneBatchSolve) {
  for (std::size_t i = 0; i < detail::KindCount(); ++i) {
    const detail::KindOps& k = detail::KindAt(i);
    SCOPED_TRACE(k.name);
    const detail::LaneOps* lanes = detail::FindLanes(k.kind);
    EXPECT_EQ(k.batch, (lanes != nullptr) != (k.solveCharacter != nullptr));
    EXPECT_FALSE(lanes != nullptr && k.solveCharacter != nullptr);
    if (lanes != nullptr) {
      EXPECT_EQ(lanes->kind, k.kind);
      EXPECT_NE(lanes->solve, nullptr);
    }
  }
}

// Which slots keep their gathered model rotation: the two-bone end with
// endRotation world (its default), nothing else.
TEST(RigKinds, KeptRotationsAreTheTwoBoneEndKeptInTheWorld) {
  for (std::size_t i = 0; i < detail::KindCount(); ++i) {
    const detail::KindOps& k = detail::KindAt(i);
    SCOPED_TRACE(k.name);
    ConstraintSettings s = ikpd::rig::DefaultSettings(k.kind);
    if (k.kind != ConstraintKind::kTwoBone) {
      EXPECT_TRUE(k.keptRotations == nullptr || k.keptRotations(s) == 0u);
      continue;
    }
    ASSERT_NE(k.keptRotations, nullptr);
    s.twoBone.settings.endRotation = ikpd::EndRotation::kWorld;
    EXPECT_EQ(k.keptRotations(s), 1u << 2);
    s.twoBone.settings.endRotation = ikpd::EndRotation::kRelative;
    EXPECT_EQ(k.keptRotations(s), 0u);
  }
}

// After ClearSmoothing a rig's next frame is that of the same rig never run:
// limbs blend in again, the look-at's offsets and the grounding's offsets and
// locks are gone.
TEST(RigKinds, ClearSmoothingGivesTheFirstFrameAgain) {
  using namespace groundtest;
  const Layout layout = Biped();
  const Character character = Make(layout, 1);
  ikpd::rig::Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(layout.parents).ok());
  ikpd::rig::Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, character.rest).ok());
  ConstraintSettings leg = ikpd::rig::DefaultSettings(ConstraintKind::kTwoBone);
  leg.joints = {layout.legs[0][0], layout.legs[0][1], layout.legs[0][2]};
  leg.common.settleTime = 0.2f;
  ConstraintSettings look = ikpd::rig::DefaultSettings(ConstraintKind::kLookAt);
  look.joints = {layout.pelvis, layout.chest};
  ASSERT_TRUE(rig.Add(look).ok());
  ASSERT_TRUE(rig.Add(Settings(layout, true)).ok());
  ASSERT_TRUE(rig.Add(leg).ok());
  ikpd::rig::Rig fresh = rig;

  const ikpd::rig::LocalTransform root{};
  std::vector<ikpd::rig::LocalTransform> out(character.rest.size()), freshOut(character.rest.size());
  const auto frame = [&](ikpd::rig::Rig& r, float step, std::vector<ikpd::rig::LocalTransform>& o) {
    r.frames()[0].target = {1.0f, 1.5f, 1.0f + step};
    r.frames()[2].target = {0.3f, 0.4f, 0.2f + step};
    ASSERT_TRUE(r.Probe(character.rest, root).ok());
    Query(r, Step(0.0f, 0.08f));
    ASSERT_TRUE(r.Update(1.0f / 60.0f, character.rest, root, o).ok());
  };
  for (int i = 0; i < 30; ++i) frame(rig, 0.01f * static_cast<float>(i), out);
  ASSERT_GT(rig.results()[1].iterations, 0.0f) << "a foot planted";
  {  // not cleared, the next frame differs from the first
    ikpd::rig::Rig kept = rig, first = fresh;
    frame(kept, 0.0f, out);
    frame(first, 0.0f, freshOut);
    EXPECT_NE(std::memcmp(out.data(), freshOut.data(), out.size() * sizeof(out[0])), 0);
  }
  rig.ClearSmoothing();
  frame(rig, 0.0f, out);
  frame(fresh, 0.0f, freshOut);
  for (std::size_t j = 0; j < out.size(); ++j) {
    SCOPED_TRACE(j);
    EXPECT_EQ(std::memcmp(&out[j], &freshOut[j], sizeof(out[j])), 0);
  }
  for (std::size_t i = 0; i < rig.constraintCount(); ++i) {
    EXPECT_EQ(std::memcmp(&rig.results()[i], &fresh.results()[i], sizeof(rig.results()[i])), 0) << "constraint " << i;
  }
}

}  // namespace
