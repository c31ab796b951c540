// Filecoin partitions in a journaled request (request_codec.cpp): the job's shared request is
// written once under "filecoin_requests" — its numbers, and its vanilla bytes in base64 or the paths
// they were read from — and each partition refers to it by position.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/result.hpp"
#include "engine/filecoin_input.hpp"

namespace cuzk::engine {

class FilecoinJsonWriter {
 public:
  // The partition's entry, {"request": i, "partition": k}; its request is added on first sight.
  nlohmann::json add(const FilecoinInput& input);
  bool empty() const { return requests_.empty(); }
  const nlohmann::json& requests() const { return requests_; }

 private:
  std::map<const FilecoinRequest*, size_t> index_;
  nlohmann::json requests_ = nlohmann::json::array();
};

class FilecoinJsonReader {
 public:
  // The request's "filecoin_requests" (an empty array when absent).
  static Result<FilecoinJsonReader> from(const nlohmann::json& requests);
  Result<FilecoinInput> input(const nlohmann::json& entry) const;

 private:
  std::vector<std::shared_ptr<const FilecoinRequest>> requests_;
};

}  // namespace cuzk::engine
