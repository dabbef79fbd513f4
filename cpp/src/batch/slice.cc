#include "ikpd/batch/slice.h"

namespace ikpd::batch {
namespace {

// The array of `components` floats per item, from item `begin` on (null stays null).
template <class T>
void Advance(T*& field, std::size_t begin, std::size_t components) {
  if (field != nullptr) field += begin * components;
}

Status CheckRange(std::size_t total, std::size_t begin, std::size_t count) {
  if (begin > total) return Error("begin: past the batch's count");
  if (count > total - begin) return Error("count: begin + count is past the batch's count");
  return Ok();
}

void AdvanceLimb(LimbBatchArrays& a, std::size_t begin) {
  Advance(a.rootPosition, begin, 3), Advance(a.rootRotation, begin, 4);
  Advance(a.midPosition, begin, 3), Advance(a.midRotation, begin, 4);
  Advance(a.endPosition, begin, 3), Advance(a.endRotation, begin, 4);
  Advance(a.target, begin, 3), Advance(a.pole, begin, 3), Advance(a.weight, begin, 1);
  Advance(a.outRootRotation, begin, 4), Advance(a.outMidPosition, begin, 3), Advance(a.outMidRotation, begin, 4);
  Advance(a.outEndPosition, begin, 3), Advance(a.outEndRotation, begin, 4);
  Advance(a.outReached, begin, 1), Advance(a.outDistance, begin, 1);
}

// Checks the range, copies the job with `count` items and advances its arrays.
template <class Job, class AdvanceFields>
Status SliceWith(const Job& job, std::size_t begin, std::size_t count, Job* out, AdvanceFields&& advance) {
  if (out == nullptr) return Error("out: must not be null");
  if (const Status s = CheckRange(job.count, begin, count); !s) return s;
  Job part = job;
  part.count = count;
  advance(part);
  *out = part;
  return Ok();
}

}  // namespace

Status Slice(const TwoBoneBatchJob& job, std::size_t begin, std::size_t count, TwoBoneBatchJob* out) {
  return SliceWith(job, begin, count, out, [&](TwoBoneBatchJob& p) {
    AdvanceLimb(p, begin);
    Advance(p.effectorOffset, begin, 3);
  });
}

Status Slice(const PseudoThreeBoneBatchJob& job, std::size_t begin, std::size_t count, PseudoThreeBoneBatchJob* out) {
  return SliceWith(job, begin, count, out, [&](PseudoThreeBoneBatchJob& p) {
    AdvanceLimb(p, begin);
    Advance(p.tipPosition, begin, 3), Advance(p.tipRotation, begin, 4), Advance(p.blend, begin, 1);
    Advance(p.outTipPosition, begin, 3), Advance(p.outTipRotation, begin, 4);
  });
}

Status Slice(const AimBatchJob& job, std::size_t begin, std::size_t count, AimBatchJob* out) {
  return SliceWith(job, begin, count, out, [&](AimBatchJob& p) {
    Advance(p.position, begin, 3), Advance(p.rotation, begin, 4), Advance(p.target, begin, 3);
    Advance(p.pole, begin, 3), Advance(p.weight, begin, 1), Advance(p.outRotation, begin, 4);
  });
}

Status Slice(const PdBatchJob& job, std::size_t begin, std::size_t count, PdBatchJob* out) {
  return SliceWith(job, begin, count, out, [&](PdBatchJob& p) {
    Advance(p.value, begin, 1), Advance(p.velocity, begin, 1), Advance(p.target, begin, 1);
  });
}

Status Slice(const QuatPdBatchJob& job, std::size_t begin, std::size_t count, QuatPdBatchJob* out) {
  return SliceWith(job, begin, count, out, [&](QuatPdBatchJob& p) {
    Advance(p.value, begin, 4), Advance(p.velocity, begin, 3), Advance(p.target, begin, 4);
  });
}

}  // namespace ikpd::batch
