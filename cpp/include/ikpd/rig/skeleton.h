// ikpd — a skeleton's hierarchy and its joints' local transforms
// (docs/rig/rig.md): the plain data a Rig (rig.h) solves over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ikpd/common.h"

namespace ikpd::rig {

// A joint's transform relative to its parent: translation, rotation, scale.
// Exactly 10 floats in the order tx, ty, tz, qx, qy, qz, qw, sx, sy, sz (glm
// stores a quaternion as x, y, z, w), so an array of them is the flat
// Float32Array the JS API shares with WebAssembly (rig.input, rig.output).
struct LocalTransform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};
static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
static_assert(offsetof(LocalTransform, translation) == 0);
static_assert(offsetof(LocalTransform, rotation) == 3 * sizeof(float));
static_assert(offsetof(LocalTransform, scale) == 7 * sizeof(float));

// The most joints a skeleton has (a bound, not a cost: storage is per joint).
constexpr std::size_t kMaxJoints = 1024;

// The hierarchy: for each joint its parent's index (−1: a root). Parents come
// before their children (parents[i] < i), the order glTF exporters and
// three.js's Skeleton.bones traversal give; it makes one forward pass a full
// forward-kinematics pass. Names are optional (one per joint, or none).
class Skeleton {
 public:
  // Validates, then copies. Errors (nothing changes; an indexed message lives in
  // the skeleton, valid until its next Init):
  //   "parents: needs 1 to 1024 joints", "parents[i]: must be -1 or the index of
  //   an earlier joint", "names: needs one name per joint (or none)".
  Status Init(std::span<const int> parents, std::span<const std::string_view> names = {});

  std::size_t size() const { return parents_.size(); }
  int parent(std::size_t joint) const { return parents_[joint]; }
  std::span<const int> parents() const { return parents_; }
  // Index of the first joint called `name`, or −1 (also when there are no names).
  int Find(std::string_view name) const;
  std::string_view name(std::size_t joint) const {
    return joint < names_.size() ? std::string_view(names_[joint]) : std::string_view();
  }
  // One past the last joint of `joint`'s subtree when the skeleton is in
  // depth-first order (every subtree a contiguous range), else size().
  std::size_t subtreeEnd(std::size_t joint) const { return subtreeEnd_[joint]; }
  // True when every subtree is the contiguous range [joint, subtreeEnd(joint)).
  bool depthFirst() const { return depthFirst_; }
  // True when `descendant` lies in the subtree below `ancestor` (not itself).
  bool IsDescendant(std::size_t descendant, std::size_t ancestor) const;

 private:
  std::vector<int> parents_;
  std::vector<std::string> names_;
  std::vector<std::uint32_t> subtreeEnd_;
  bool depthFirst_ = true;
  char message_[96] = {};
};

}  // namespace ikpd::rig
