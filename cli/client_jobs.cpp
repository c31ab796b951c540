// `cuzk submit | await | remote-prove | cancel`: jobs on a cuzkd daemon.
// (`cuzk prove` proves locally, in this process; `cuzk remote-prove` asks the daemon.)
#include <unistd.h>
#include <algorithm>

#include <cstdio>
#include <memory>
#include <thread>

#include "cli/client_common.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "common/progress.hpp"

namespace cuzk::cli {
namespace {

using std::chrono::milliseconds;

// The daemon answers an Await within its timeout; the call's deadline leaves room for transit.
milliseconds call_deadline(const ConnectArgs& c, milliseconds wait) {
  return wait + milliseconds(int64_t(c.rpc_timeout_s * 1000));
}

// Waits for job `id` (forever when `timeout_s` < 0) in slices a proxy or load balancer will not cut.
// A daemon that is away (restarting: its jobs resume from its journal) is asked again, with a
// growing pause, until the timeout.
// On a terminal, the wait shows its progress: partitions proved, and an ETA from their pace.
int await_job(const server::Client& client, const ConnectArgs& c, uint64_t id, double timeout_s,
              const OutputArgs& out) {
  const bool progress = ::isatty(2) != 0;
  const milliseconds kSlice{progress ? 2'000 : 60'000};
  ProgressMeter meter("partitions proved");
  uint32_t shown = 0;
  const auto until = std::chrono::steady_clock::now() + milliseconds(int64_t(timeout_s * 1000));
  milliseconds pause{250};
  bool told = false;
  for (;;) {
    milliseconds wait = kSlice;
    if (timeout_s >= 0)
      wait = std::clamp(std::chrono::duration_cast<milliseconds>(until - std::chrono::steady_clock::now()),
                        milliseconds(0), kSlice);
    v1::AwaitRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(uint64_t(wait.count()));
    v1::JobResult resp;
    auto ctx = client.context(call_deadline(c, wait));
    auto st = client.stub->Await(ctx.get(), req, &resp);
    const bool time_left = timeout_s < 0 || std::chrono::steady_clock::now() + pause < until;
    if (st.error_code() == grpc::StatusCode::UNAVAILABLE && time_left) {
      if (!told)
        std::fprintf(stderr, "cuzk: the daemon is unavailable (%s); waiting for it to come back\n",
                     server::describe(st).c_str());
      told = true;
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, milliseconds(10'000));
      continue;
    }
    if (!st.ok()) return fail("await: " + server::describe(st));
    if (resp.job_id() != id)
      return fail("await: the daemon answered for job " + std::to_string(resp.job_id()) + ", not " +
                  std::to_string(id));
    if (told) std::fprintf(stderr, "cuzk: the daemon is back\n");
    told = false;
    pause = milliseconds(250);
    const bool pending = resp.state() == v1::JOB_STATE_QUEUED || resp.state() == v1::JOB_STATE_RUNNING;
    if (progress && pending && resp.partitions() > 0) {
      const uint32_t done = resp.partitions_proved();
      if (!meter.started() || done != shown) {  // the pace from the moments partitions end
        meter.update(done, resp.partitions());
        std::fprintf(stderr, "\rjob %llu %s: %s   ", static_cast<unsigned long long>(id),
                     resp.state() == v1::JOB_STATE_QUEUED ? "queued" : "running", meter.describe().c_str());
        shown = done;
      }
    }
    if (progress && meter.started() && !pending) std::fprintf(stderr, "\n");
    if (!pending || (timeout_s >= 0 && std::chrono::steady_clock::now() >= until))
      return report_result(resp, out);
  }
}

}  // namespace

void register_client_jobs(CLI::App& app, int& status) {
  {
    auto c = std::make_shared<ConnectArgs>();
    auto j = std::make_shared<JobArgs>();
    auto* cmd = app.add_subcommand(
        "submit",
        "Queue a job on a cuzkd daemon; prints its id (see `cuzk await`). Exit 0: queued; 1: "
        "refused (the message says why)");
    add_connect_options(cmd, *c);
    add_job_options(cmd, *j);
    cmd->callback([c, j, &status] {
      status = [&] {
        auto spec = make_job_spec(*j);
        if (!spec) return fail(spec.message());
        auto client = connect_daemon(*c);
        if (!client) return fail(client.message());
        v1::SubmitRequest req;
        *req.mutable_job() = std::move(*spec);
        v1::SubmitResponse resp;
        auto ctx = client->context(milliseconds(int64_t(c->rpc_timeout_s * 1000)));
        auto st = client->stub->Submit(ctx.get(), req, &resp);
        if (!st.ok()) return fail("submit: " + server::describe(st));
        std::printf("%llu\n", static_cast<unsigned long long>(resp.job_id()));
        return 0;
      }();
    });
  }
  {
    auto c = std::make_shared<ConnectArgs>();
    auto o = std::make_shared<OutputArgs>();
    auto id = std::make_shared<uint64_t>(0);
    auto timeout = std::make_shared<double>(-1);
    auto* cmd = app.add_subcommand(
        "await",
        "Wait for a job on a cuzkd daemon; print its state and timings, write its proofs (exit 4: the job "
        "failed or was cancelled; 5: still running when --timeout ran out)");
    cmd->add_option("job", *id, "Job id (from `cuzk submit`)")->required();
    cmd->add_option("--timeout", *timeout, "Seconds to wait (negative: until the job ends; 0: look only)")
        ->capture_default_str();
    add_connect_options(cmd, *c);
    add_output_options(cmd, *o);
    cmd->callback([=, &status] {
      auto client = connect_daemon(*c);
      status = client ? await_job(*client, *c, *id, *timeout, *o) : fail(client.message());
    });
  }
  {
    auto c = std::make_shared<ConnectArgs>();
    auto j = std::make_shared<JobArgs>();
    auto o = std::make_shared<OutputArgs>();
    auto* cmd = app.add_subcommand(
        "remote-prove",
        "Prove on a cuzkd daemon and wait: submit + await in one call (`cuzk prove` proves in this process "
        "instead). Exit 0: proved; 1: refused or an error; 4: the job failed or was cancelled");
    add_connect_options(cmd, *c);
    add_job_options(cmd, *j);
    add_output_options(cmd, *o);
    cmd->callback([c, j, o, &status] {
      status = [&] {
        auto spec = make_job_spec(*j);
        if (!spec) return fail(spec.message());
        auto client = connect_daemon(*c);
        if (!client) return fail(client.message());
        v1::ProveRequest req;
        *req.mutable_job() = std::move(*spec);
        v1::JobResult resp;
        auto ctx = client->context();  // no deadline: a proof takes what it takes
        auto st = client->stub->Prove(ctx.get(), req, &resp);
        if (!st.ok()) return fail("remote-prove: " + server::describe(st));
        return report_result(resp, *o);
      }();
    });
  }
  {
    auto c = std::make_shared<ConnectArgs>();
    auto id = std::make_shared<uint64_t>(0);
    auto* cmd = app.add_subcommand("cancel", "Cancel a queued or running job on a cuzkd daemon");
    cmd->add_option("job", *id, "Job id")->required();
    add_connect_options(cmd, *c);
    cmd->callback([=, &status] {
      status = [&] {
        auto client = connect_daemon(*c);
        if (!client) return fail(client.message());
        v1::CancelRequest req;
        req.set_job_id(*id);
        v1::CancelResponse resp;
        auto ctx = client->context(milliseconds(int64_t(c->rpc_timeout_s * 1000)));
        auto st = client->stub->Cancel(ctx.get(), req, &resp);
        if (!st.ok()) return fail("cancel: " + server::describe(st));
        std::printf("job %llu cancelled\n", static_cast<unsigned long long>(*id));
        return 0;
      }();
    });
  }
}

}  // namespace cuzk::cli
