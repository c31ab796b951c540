#include "server/auth.hpp"

#include <cctype>

namespace cuzk::server {

bool constant_time_equal(const std::string& a, const std::string& b) {
  // Length is not secret (the token's length is in the config); its bytes are.
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::optional<std::string> client_of(const std::string& value, const ClientTokens& tokens) {
  static const std::string scheme = "bearer";
  if (value.size() <= scheme.size()) return std::nullopt;
  for (size_t i = 0; i < scheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(value[i])) != scheme[i]) return std::nullopt;
  size_t at = scheme.size();
  if (value[at] != ' ') return std::nullopt;
  while (at < value.size() && value[at] == ' ') ++at;
  const std::string token = value.substr(at);
  std::optional<std::string> found;
  for (const auto& [name, t] : tokens)  // every token compared: no early exit
    if (constant_time_equal(token, t) && !found) found = name;
  return found;
}

namespace {

const char* const kNoToken = "this daemon requires a bearer token (authorization metadata)";
const char* const kWrongToken = "the bearer token is wrong";

}  // namespace

grpc::Status authenticate(const grpc::ServerContext& context, const ClientTokens& tokens,
                          std::string& client) {
  client.clear();
  if (tokens.empty()) return grpc::Status::OK;
  // Each call names its client by its own metadata: an auth context may be shared by the calls of
  // one connection, and channels to one address may share a connection.
  const auto& md = context.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) return {grpc::StatusCode::UNAUTHENTICATED, kNoToken};
  auto name = client_of(std::string(it->second.data(), it->second.size()), tokens);
  if (!name) return {grpc::StatusCode::UNAUTHENTICATED, kWrongToken};
  client = *name;
  return grpc::Status::OK;
}

grpc::Status TokenAuthProcessor::Process(const InputMetadata& auth_metadata, grpc::AuthContext*,
                                         OutputMetadata*, OutputMetadata*) {
  auto it = auth_metadata.find("authorization");
  if (it == auth_metadata.end()) return {grpc::StatusCode::UNAUTHENTICATED, kNoToken};
  if (!client_of(std::string(it->second.data(), it->second.size()), tokens_))
    return {grpc::StatusCode::UNAUTHENTICATED, kWrongToken};
  return grpc::Status::OK;  // the metadata stays: the handler names the call's client from it
}

}  // namespace cuzk::server
