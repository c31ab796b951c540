// Talking to cuzkd: a channel to a unix socket or a TCP address, optionally over TLS, and the
// bearer token every call carries. Shared by the `cuzk` client commands and the tests.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "common/result.hpp"
#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::server {

struct ClientOptions {
  std::string address;          // "unix:///run/cuzk/cuzkd.sock", "unix:relative.sock" or "host:port"
  std::string token;            // sent as "authorization: Bearer <token>" when not empty
  bool tls = false;             // TLS with the system's roots, or with tls_ca
  std::string tls_ca;           // PEM file of the CA that signed the daemon's certificate
  std::string tls_server_name;  // overrides the name checked in the daemon's certificate
  uint64_t max_message_bytes = uint64_t(512) << 20;
};

struct Client {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<::cuzk::v1::Prover::Stub> stub;
  std::string token;

  // A context with the token and, when `deadline` is positive, a deadline.
  std::unique_ptr<grpc::ClientContext> context(std::chrono::milliseconds deadline = {}) const;
};

Result<Client> connect(const ClientOptions& options);

// gRPC's name of a status code ("NOT_FOUND"); nullptr for a code outside 0..16.
const char* status_code_name(int code);

// "UNAUTHENTICATED: the token is wrong" for a failed call.
std::string describe(const grpc::Status& status);

}  // namespace cuzk::server
