// ikpd — a part of a batch as a batch of its own, to split one batch over
// threads of the caller's job system (docs/batch/batches.md, threads), ozz style:
// the jobs hold no state, so parts of one batch may run concurrently.
#pragma once

#include <cstddef>

#include "ikpd/batch/aim_batch.h"
#include "ikpd/batch/pd_batch.h"
#include "ikpd/batch/pseudo_three_bone_batch.h"
#include "ikpd/batch/two_bone_batch.h"

namespace ikpd::batch {

// Items [begin, begin + count) of `job`: *out = job with every per-item array
// (inputs and outputs) advanced to item `begin` (null arrays stay null) and
// `count` items. Running the parts, in any order or at once on different
// threads, writes exactly what job.Run() writes (lanes are independent, so
// the floats are bit-identical), except that each part validates and stops on
// its own: a part's failedItem is relative to its `begin`, and the parts
// before a failing item still write their outputs.
// Errors (nothing written): "begin: past the batch's count",
// "count: begin + count is past the batch's count".
Status Slice(const TwoBoneBatchJob& job, std::size_t begin, std::size_t count, TwoBoneBatchJob* out);
Status Slice(const PseudoThreeBoneBatchJob& job, std::size_t begin, std::size_t count, PseudoThreeBoneBatchJob* out);
Status Slice(const AimBatchJob& job, std::size_t begin, std::size_t count, AimBatchJob* out);
Status Slice(const PdBatchJob& job, std::size_t begin, std::size_t count, PdBatchJob* out);
Status Slice(const QuatPdBatchJob& job, std::size_t begin, std::size_t count, QuatPdBatchJob* out);

}  // namespace ikpd::batch
