// `cuzk status | preload | evict`: the state and the parameter sets of a cuzkd daemon.
#include <cstdio>
#include <memory>

#include "cli/client_common.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace cuzk::cli {
namespace {

using std::chrono::milliseconds;

// One params RPC (PreloadParams or EvictParams).
template <class Call>
int params_call(const ConnectArgs& c, const std::string& name, const char* what, Call call) {
  auto client = connect_daemon(c);
  if (!client) return fail(client.message());
  v1::ParamsRequest req;
  req.set_name(name);
  v1::ParamsResponse resp;
  // Loading a large parameter file takes minutes: no deadline for a preload beyond the user's.
  auto ctx = client->context(std::string(what) == "preload" ? milliseconds(0)
                                                            : milliseconds(int64_t(c.rpc_timeout_s * 1000)));
  auto st = call(*client->stub, ctx.get(), req, &resp);
  if (!st.ok()) return fail(std::string(what) + ": " + server::describe(st));
  std::printf("%s: %s\n", what, name.c_str());
  return 0;
}

}  // namespace

void register_client_admin(CLI::App& app, int& status) {
  {
    auto c = std::make_shared<ConnectArgs>();
    auto json = std::make_shared<bool>(false);
    auto* cmd =
        app.add_subcommand("status", "The state of a cuzkd daemon: queues, jobs, devices, parameter sets");
    add_connect_options(cmd, *c);
    cmd->add_flag("--json", *json, "Print the daemon's whole status as JSON");
    cmd->callback([=, &status] {
      status = [&] {
        auto client = connect_daemon(*c);
        if (!client) return fail(client.message());
        v1::StatusRequest req;
        v1::StatusResponse resp;
        auto ctx = client->context(milliseconds(int64_t(c->rpc_timeout_s * 1000)));
        auto st = client->stub->Status(ctx.get(), req, &resp);
        if (!st.ok()) return fail("status: " + server::describe(st));
        if (*json) {
          std::printf("%s\n", resp.json().c_str());
          return 0;
        }
        std::printf("%s\n", resp.draining() ? "draining (shutting down)" : "serving");
        std::printf("queued jobs: critical %u, high %u, normal %u, low %u; running %u\n",
                    resp.queued_critical(), resp.queued_high(), resp.queued_normal(), resp.queued_low(),
                    resp.running_jobs());
        std::printf("since start: %llu done, %llu failed, %llu cancelled\n",
                    static_cast<unsigned long long>(resp.jobs_done()),
                    static_cast<unsigned long long>(resp.jobs_failed()),
                    static_cast<unsigned long long>(resp.jobs_cancelled()));
        return 0;
      }();
    });
  }
  {
    auto c = std::make_shared<ConnectArgs>();
    auto name = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("preload", "Load a parameter set on a cuzkd daemon now");
    cmd->add_option("params", *name, "A name the daemon knows, or a .params/.zkey path on its host")
        ->required();
    add_connect_options(cmd, *c);
    cmd->callback([=, &status] {
      status = params_call(*c, *name, "preload", [](auto& stub, auto* ctx, const auto& req, auto* resp) {
        return stub.PreloadParams(ctx, req, resp);
      });
    });
  }
  {
    auto c = std::make_shared<ConnectArgs>();
    auto name = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("evict", "Free a loaded, idle parameter set on a cuzkd daemon");
    cmd->add_option("params", *name, "The parameter set, as it was loaded")->required();
    add_connect_options(cmd, *c);
    cmd->callback([=, &status] {
      status = params_call(*c, *name, "evict", [](auto& stub, auto* ctx, const auto& req, auto* resp) {
        return stub.EvictParams(ctx, req, resp);
      });
    });
  }
}

}  // namespace cuzk::cli
