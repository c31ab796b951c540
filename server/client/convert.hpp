// Engine types <-> the messages of proto/cuzk/v1/prover.proto, for both ends: the daemon answers
// with them, the `cuzk` client commands read them.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "cuzk/v1/prover.pb.h"
#include "engine/job.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::server {

namespace v1 = ::cuzk::v1;

Result<engine::JobKind> kind_from_proto(v1::JobKind kind);
v1::JobKind kind_to_proto(engine::JobKind kind);
// PRIORITY_DEFAULT: nullopt (the kind's).
Result<std::optional<engine::Priority>> priority_from_proto(v1::Priority priority);
v1::Priority priority_to_proto(engine::Priority priority);
v1::JobState state_to_proto(engine::JobState state);
Result<engine::JobState> state_from_proto(v1::JobState state);

void timings_to_proto(const engine::JobTimings& t, v1::Timings* out);
engine::JobTimings timings_from_proto(const v1::Timings& t);

void result_to_proto(const engine::JobResult& r, v1::JobResult* out);
// Checks every proof point and scalar: a client never trusts bytes it did not check.
Result<engine::JobResult> result_from_proto(const v1::JobResult& r);

// Scalars as 32-byte little-endian canonical integers.
std::string scalars_to_bytes(std::span<const Fr> values);
Result<std::vector<Fr>> scalars_from_bytes(const std::string& bytes, const std::string& what);

// A synthesized partition both ways.
void assignment_to_proto(const r1cs::Assignment& as, v1::SynthesizedPartition* out);
Result<r1cs::Assignment> assignment_from_proto(const v1::SynthesizedPartition& p);

}  // namespace cuzk::server
