#include "server/client/client.hpp"

#include <fstream>
#include <sstream>

namespace cuzk::server {

std::unique_ptr<grpc::ClientContext> Client::context(std::chrono::milliseconds deadline) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  // Added as plain metadata rather than as call credentials: gRPC sends call credentials only over
  // TLS, and a daemon on a unix socket needs the token too.
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  if (deadline.count() > 0) ctx->set_deadline(std::chrono::system_clock::now() + deadline);
  return ctx;
}

Result<Client> connect(const ClientOptions& o) {
  if (o.address.empty()) return make_error("no daemon address");
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (o.tls || !o.tls_ca.empty()) {
    grpc::SslCredentialsOptions ssl;
    if (!o.tls_ca.empty()) {
      std::ifstream in(o.tls_ca);
      if (!in) return make_error("cannot read the CA file " + o.tls_ca);
      std::stringstream pem;
      pem << in.rdbuf();
      ssl.pem_root_certs = pem.str();
    }
    creds = grpc::SslCredentials(ssl);
  } else {
    creds = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(int(std::min<uint64_t>(o.max_message_bytes, INT32_MAX)));
  args.SetMaxSendMessageSize(int(std::min<uint64_t>(o.max_message_bytes, INT32_MAX)));
  if (!o.tls_server_name.empty()) args.SetSslTargetNameOverride(o.tls_server_name);
  Client c;
  c.channel = grpc::CreateCustomChannel(o.address, creds, args);
  c.stub = ::cuzk::v1::Prover::NewStub(c.channel);
  c.token = o.token;
  return c;
}

const char* status_code_name(int code) {
  static const char* const names[] = {
      "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
      "DATA_LOSS", "UNAUTHENTICATED"};
  return code >= 0 && code <= 16 ? names[code] : nullptr;
}

std::string describe(const grpc::Status& s) {
  const int code = int(s.error_code());
  const char* known = status_code_name(code);
  std::string name = known ? known : "CODE_" + std::to_string(code);
  return s.error_message().empty() ? name : name + ": " + s.error_message();
}

}  // namespace cuzk::server
