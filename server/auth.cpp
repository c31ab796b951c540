#include "server/auth.hpp"

namespace cuzk::server {

bool constant_time_equal(const std::string& a, const std::string& b) {
  // Length is not secret (the token's length is in the config); its bytes are.
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

grpc::Status check_token(const grpc::ServerContext& context, const std::string& token) {
  if (token.empty()) return grpc::Status::OK;
  const auto& md = context.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end())
    return {grpc::StatusCode::UNAUTHENTICATED,
            "this daemon requires a bearer token (authorization metadata)"};
  const std::string value(it->second.data(), it->second.size());
  static const std::string prefix = "Bearer ";
  if (value.compare(0, prefix.size(), prefix) != 0 ||
      !constant_time_equal(value.substr(prefix.size()), token))
    return {grpc::StatusCode::UNAUTHENTICATED, "the bearer token is wrong"};
  return grpc::Status::OK;
}

}  // namespace cuzk::server
