// Bearer tokens: with any configured, every call must carry "authorization: Bearer <token>" (the
// scheme in any case, RFC 6750), and the token names the client the call acts for.
//
// Where the transport allows (TLS, a unix socket, loopback TCP: the credentials the daemon builds
// for them), the check runs in TokenAuthProcessor on the call's metadata, before gRPC reads the
// request message: an unauthenticated client costs the daemon no more than the transport's flow-
// control window. On plain TCP beyond loopback (allow_plaintext_tcp) the service checks in the
// handler, after the message is read.
#pragma once

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/auth_metadata_processor.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::server {

// Client names by token.
using ClientTokens = std::vector<std::pair<std::string, std::string>>;

// The client named by an authorization header's value, or nullopt. Compares with every token in
// time independent of where the first difference is.
std::optional<std::string> client_of(const std::string& authorization, const ClientTokens& tokens);

// OK with the client's name ("" when no token is configured) set in `client`, or UNAUTHENTICATED.
// Runs in the handler on every transport (after the processor, where there is one).
grpc::Status authenticate(const grpc::ServerContext& context, const ClientTokens& tokens,
                          std::string& client);

bool constant_time_equal(const std::string& a, const std::string& b);

class TokenAuthProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit TokenAuthProcessor(ClientTokens tokens) : tokens_(std::move(tokens)) {}
  // Checked inline: a comparison, nothing that blocks.
  bool IsBlocking() const override { return false; }
  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext* context,
                       OutputMetadata* consumed_auth_metadata, OutputMetadata* response_metadata) override;

 private:
  ClientTokens tokens_;
};

}  // namespace cuzk::server
