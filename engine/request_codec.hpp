// JobRequest <-> JSON, the form requests take in the journal (and that a front end may accept).
// An in-memory partition (SynthesizedInput) is written as {"synthesized": true}: its data is not
// stored, and decoding gives an input without an assignment, which the engine reports as lost.
#pragma once

#include <string>

#include "common/result.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

std::string request_to_json(const JobRequest& request);
Result<JobRequest> request_from_json(const std::string& text);
// True when some partition lives only in memory (the job cannot be resumed after a restart).
bool has_volatile_inputs(const JobRequest& request);

std::string timings_to_json(const JobTimings& t);
JobTimings timings_from_json(const std::string& text);  // zeros for what is missing or malformed

}  // namespace cuzk::engine
