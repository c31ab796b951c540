// The bearer token: with one configured, every call must carry "authorization: Bearer <token>".
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

namespace cuzk::server {

// OK when `token` is empty (no auth configured) or the call carries it; UNAUTHENTICATED otherwise.
// The comparison takes the same time wherever the first difference is.
grpc::Status check_token(const grpc::ServerContext& context, const std::string& token);

bool constant_time_equal(const std::string& a, const std::string& b);

}  // namespace cuzk::server
