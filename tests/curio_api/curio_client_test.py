#!/usr/bin/python3
"""Curio's cuzk.v1 API of cuzkd, driven by a client generated from proto/cuzk/v1/proving.proto alone.

The client is Debian's python3-grpcio with stubs protoc and grpc_python_plugin make from the .proto
here, at the start of the run: nothing of cuzk's own client code is involved. Proofs are checked by
`cuzk verify-post` / `verify-porep` against the official-name .vk files.

  post:  on the sealed 2 KiB test sector (ctest fixture fc_post): WindowPoSt and WinningPoSt from
         vanilla proofs (Prove, SubmitProof + AwaitProof), request ids as idempotency keys, status,
         metrics, cancel, preload and evict of parameters, malformed requests answered with a status
         each while a queued job still finishes, an oversized message refused; then TCP with TLS and a
         token (and refused without it), and TCP without a token refused by default.
         Then a restart: request ids of jobs done, running (kill -9) and cancelled before it name
         the same jobs after it (AwaitProof, a repeated SubmitProof), and nothing is proved twice.
  porep: PoRep C2 of the same sector from Curio's C1 wrapper (fixture fc_porep).
"""
import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import grpc

GUARD_S = 600  # against a hung daemon; never a timing assertion


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def make_stubs(proto_dir, out):
    subprocess.run(["protoc", "-I", proto_dir, "--python_out=" + out, "--grpc_out=" + out,
                    "--plugin=protoc-gen-grpc=/usr/bin/grpc_python_plugin",
                    os.path.join(proto_dir, "cuzk", "v1", "proving.proto")], check=True)
    sys.path.insert(0, out)
    from cuzk.v1 import proving_pb2, proving_pb2_grpc  # noqa: E402
    return proving_pb2, proving_pb2_grpc


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """cuzkd with a config written here; stopped (SIGTERM) at the end."""

    def __init__(self, cuzkd, work, name, params, listen, extra_daemon="", extra="", delay_ms=0, again=False):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=again)
        listen_toml = ", ".join('"%s"' % a for a in listen)
        config = f"""
[daemon]
listen = [{listen_toml}]
http_listen = ""
max_message_bytes = "4M"
shutdown_grace_s = 5
log_level = "info"
{extra_daemon}
[engine]
journal = "{self.dir}/journal.db"
journal_sync_full = false
# The fixture made these parameters on this machine: the daemon checks points are on the curve,
# not the subgroup checks (minutes for a 2^22 key) that files from elsewhere need.
trusted_params = true
host_memory_budget = "6G"
synthesis_workers = 1
[devices]
backend = "cpu"
cpu_threads_per_worker = 0
[[devices.device]]
index = 0
vram_budget = "4G"
workers = 1
[curio]
param_dir = "{params}"
{extra}
[testing]
device_delay_ms = {delay_ms}
"""
        path = os.path.join(self.dir, "cuzkd.toml")
        with open(path, "w") as f:
            f.write(config)
        self.log = open(os.path.join(self.dir, "cuzkd.log"), "a")
        self.proc = subprocess.Popen([cuzkd, "--config", path], stdout=self.log, stderr=subprocess.STDOUT)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def kill(self):
        self.proc.kill()
        self.proc.wait()
        self.log.close()

    def log_text(self):
        with open(os.path.join(self.dir, "cuzkd.log")) as f:
            return f.read()


def connect(pb_grpc, target, credentials=None, token=None):
    # A channel of its own (not the process-wide subchannel pool): a daemon restarted on the same
    # socket is a new server, not the old connection's backoff.
    options = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20),
               ("grpc.use_local_subchannel_pool", 1)]
    channel = (grpc.secure_channel(target, credentials, options) if credentials
               else grpc.insecure_channel(target, options))
    grpc.channel_ready_future(channel).result(timeout=120)
    stub = pb_grpc.ProvingEngineStub(channel)
    metadata = [("authorization", "Bearer " + token)] if token else None
    return stub, metadata


def expect_error(call, code, words, what):
    try:
        call()
    except grpc.RpcError as e:
        check(e.code() == code, f"{what}: expected {code}, got {e.code()}: {e.details()}")
        for w in words:
            check(w.lower() in (e.details() or "").lower(), f"{what}: the message lacks \"{w}\": {e.details()}")
        return e.details()
    fail(what + ": accepted")


def cuzk_verify(cuzk, args, proof_bytes, work, what):
    path = os.path.join(work, what.replace(" ", "_") + ".proof")
    with open(path, "wb") as f:
        f.write(proof_bytes)
    r = subprocess.run([cuzk] + args + ["--proof-in", path], capture_output=True, text=True)
    check(r.returncode == 0, f"{what}: cuzk {' '.join(args[:1])} exit {r.returncode}: {r.stdout}{r.stderr}")


class Sector:
    def __init__(self, e2e):
        self.dir = os.path.join(e2e, "sector")
        self.params = os.path.join(e2e, "params")
        with open(os.path.join(self.dir, "sector.json")) as f:
            self.info = json.load(f)

    def read(self, name):
        with open(os.path.join(self.dir, name), "rb") as f:
            return f.read()

    def post(self, pb, kind):
        i = self.info[kind + "_post"]
        return pb.SubmitProofRequest(
            proof_kind=pb.WINDOW_POST_PARTITION if kind == "window" else pb.WINNING_POST,
            sector_size=self.info["sector_size"], registered_proof=i["proof_id"],
            vanilla_proofs=[self.read(i["vanilla"])], miner_id=self.info["miner_id"],
            randomness=bytes.fromhex(self.info["post_randomness"]), partition_index=0)

    def verify_post_args(self, kind):
        i = self.info[kind + "_post"]
        return ["verify-post", "--kind", kind, "--proof", str(i["proof_id"]), "--randomness",
                self.info["post_randomness"], "--vanilla", os.path.join(self.dir, i["vanilla"]),
                "--param-dir", self.params]


def post_suite(a, pb, pb_grpc, work):
    s = Sector(a.e2e)
    sock = os.path.join(work, "d.sock")
    # Device calls wait 1.5 s: a job stays in flight while the malformed requests arrive.
    d = Daemon(a.cuzkd, work, "unix", s.params, ["unix://" + sock], delay_ms=1500)
    try:
        stub, _ = connect(pb_grpc, "unix:" + sock)
        St = grpc.StatusCode

        # Parameters by circuit id.
        r = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"), timeout=GUARD_S)
        check(not r.already_loaded, "wpost-2k preloaded before it was")
        r = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"), timeout=GUARD_S)
        check(r.already_loaded, "wpost-2k not loaded after PreloadSRS")
        status = stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S)
        srs = {x.circuit_id: x for x in status.loaded_srs}
        check("wpost-2k" in srs and srs["wpost-2k"].size_bytes > 0, f"GetStatus lacks wpost-2k: {status}")
        check(srs["wpost-2k"].tier == pb.SRSStatus.HOT, "wpost-2k is not HOT")
        expect_error(lambda: stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-3g")), St.INVALID_ARGUMENT,
                     ["circuit id"], "PreloadSRS of an unknown circuit id")
        expect_error(lambda: stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-32g")),
                     St.FAILED_PRECONDITION, ["does not exist"], "PreloadSRS of parameters not on disk")
        r = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"), timeout=GUARD_S)
        check(r.was_loaded and r.freed_bytes > 0, f"EvictSRS wpost-2k: {r}")
        r = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"), timeout=GUARD_S)
        check(not r.was_loaded, "wpost-2k still loaded after EvictSRS")

        # WindowPoSt: submitted twice under one request_id, one job; a third with other randomness
        # under the same id is a conflict.
        window = s.post(pb, "window")
        window.request_id = "wdpost-1234-0-test"
        first = stub.SubmitProof(window, timeout=GUARD_S)
        again = stub.SubmitProof(window, timeout=GUARD_S)
        check(first.job_id == "wdpost-1234-0-test" == again.job_id, f"job ids {first.job_id} {again.job_id}")
        queues = {q.proof_kind: q for q in stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S).queues}
        check("window-post" in queues, f"no window-post queue: {queues}")
        check(queues["window-post"].pending + queues["window-post"].in_progress == 1,
              f"a repeated request_id made a second job: {queues['window-post']}")
        other = pb.SubmitProofRequest()
        other.CopyFrom(window)
        other.randomness = bytes(32)
        expect_error(lambda: stub.SubmitProof(other), St.ALREADY_EXISTS, ["request_id"],
                     "the same request_id with another randomness")

        # Malformed requests while that job is in flight: a status each, the daemon keeps serving.
        wrapper = json.loads(s.read("c1.curio.json"))
        porep = pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                      registered_proof=s.info["proof_id"], miner_id=s.info["miner_id"],
                                      sector_number=s.info["sector_id"])
        bad = pb.SubmitProofRequest()
        bad.CopyFrom(porep)
        bad.vanilla_proof = json.dumps(dict(wrapper, Phase1Out="not*base64!")).encode()
        expect_error(lambda: stub.SubmitProof(bad), St.INVALID_ARGUMENT, ["base64"], "bad base64 in Phase1Out")
        bad.vanilla_proof = s.read("c1.curio.json")[:-40]
        expect_error(lambda: stub.SubmitProof(bad), St.INVALID_ARGUMENT, [], "truncated wrapper JSON")
        inner = base64.b64decode(wrapper["Phase1Out"])
        bad.vanilla_proof = json.dumps(dict(wrapper, Phase1Out=base64.b64encode(inner[:len(inner) // 2]).decode())).encode()
        expect_error(lambda: stub.SubmitProof(bad), St.INVALID_ARGUMENT, ["C1"], "truncated C1 JSON")
        bad.CopyFrom(porep)
        bad.vanilla_proof = s.read("c1.curio.json")
        bad.sector_size = 8 << 20
        expect_error(lambda: stub.SubmitProof(bad), St.INVALID_ARGUMENT, ["sector_size"],
                     "a sector size not the proof type's")
        bad.sector_size, bad.sector_number = 2048, s.info["sector_id"] + 1
        expect_error(lambda: stub.SubmitProof(bad), St.INVALID_ARGUMENT, [], "PoRep of another sector number")
        expect_error(lambda: stub.SubmitProof(pb.SubmitProofRequest(proof_kind=9, registered_proof=0)),
                     St.UNIMPLEMENTED, ["proof_kind 9"], "an unknown proof kind")
        expect_error(lambda: stub.SubmitProof(pb.SubmitProofRequest(registered_proof=0)), St.INVALID_ARGUMENT,
                     ["proof_kind"], "no proof kind")
        ni = pb.SubmitProofRequest()
        ni.CopyFrom(porep)
        ni.registered_proof, ni.sector_size, ni.vanilla_proof = 18, 32 << 30, b"{}"
        expect_error(lambda: stub.SubmitProof(ni), St.UNIMPLEMENTED, ["NI-PoRep"], "an NI-PoRep proof type")
        short = s.post(pb, "window")
        short.randomness = bytes(31)
        expect_error(lambda: stub.SubmitProof(short), St.INVALID_ARGUMENT, ["randomness"], "31-byte randomness")
        broken = s.post(pb, "window")
        broken.vanilla_proofs[0] = broken.vanilla_proofs[0][:100]
        expect_error(lambda: stub.SubmitProof(broken), St.INVALID_ARGUMENT, [], "a truncated vanilla proof")
        wrong = s.post(pb, "window")
        wrong.registered_proof = 0  # a WinningPoSt type
        expect_error(lambda: stub.SubmitProof(wrong), St.INVALID_ARGUMENT, ["registered_proof"],
                     "a WinningPoSt type for WINDOW_POST_PARTITION")
        big = pb.SubmitProofRequest()
        big.CopyFrom(porep)
        big.vanilla_proof = b"x" * (5 << 20)
        expect_error(lambda: stub.SubmitProof(big), St.RESOURCE_EXHAUSTED, ["larger than"],
                     "a request over max_message_bytes")
        expect_error(lambda: stub.AwaitProof(pb.AwaitProofRequest(job_id="nobody")), St.NOT_FOUND, [],
                     "await of an unknown job")

        # The queued job still finishes, with a proof that verifies.
        result = stub.AwaitProof(pb.AwaitProofRequest(job_id=first.job_id, timeout_ms=GUARD_S * 1000),
                                 timeout=GUARD_S)
        check(result.status == pb.AwaitProofResponse.COMPLETED, f"WindowPoSt: {result}")
        check(len(result.proof) == 192, f"WindowPoSt proof of {len(result.proof)} bytes")
        check(result.total_ms > 0, "no total_ms")
        cuzk_verify(a.cuzk, s.verify_post_args("window"), result.proof, work, "window post")
        # The repeated request id hands the same proof out again.
        repeated = stub.Prove(pb.ProveRequest(submit=window), timeout=GUARD_S).result
        check(repeated.proof == result.proof, "the repeated request_id proved again")

        # WinningPoSt through Prove, CRITICAL by default.
        win = stub.Prove(pb.ProveRequest(submit=s.post(pb, "winning")), timeout=GUARD_S).result
        check(win.status == pb.AwaitProofResponse.COMPLETED and len(win.proof) == 192, f"WinningPoSt: {win}")
        check(win.job_id.startswith("cuzk-"), f"a job without request_id named {win.job_id}")
        cuzk_verify(a.cuzk, s.verify_post_args("winning"), win.proof, work, "winning post")

        # Await with a timeout, then cancel.
        slow = s.post(pb, "window")
        slow.request_id = "to-cancel"
        job = stub.SubmitProof(slow, timeout=GUARD_S).job_id
        waited = stub.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=1), timeout=GUARD_S)
        check(waited.status == pb.AwaitProofResponse.TIMEOUT, f"a 1 ms await: {waited}")
        stub.CancelProof(pb.CancelProofRequest(job_id=job), timeout=GUARD_S)
        cancelled = stub.AwaitProof(pb.AwaitProofRequest(job_id=job), timeout=GUARD_S)
        check(cancelled.status == pb.AwaitProofResponse.CANCELLED, f"after CancelProof: {cancelled}")
        expect_error(lambda: stub.CancelProof(pb.CancelProofRequest(job_id=job)), St.FAILED_PRECONDITION, [],
                     "cancel of a cancelled job")
        # A cancelled job gives its request id up: the retry is a new job (test_curio_api_unit proves
        # the rest of that rule).
        retry = stub.SubmitProof(slow, timeout=GUARD_S)
        check(retry.job_id == job, f"a retry after cancel named {retry.job_id}")
        stub.CancelProof(pb.CancelProofRequest(job_id=job), timeout=GUARD_S)

        status = stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S)
        check(status.total_proofs_completed == 2, f"completed {status.total_proofs_completed}, 2 expected")
        check(len(status.gpus) == 1 and status.gpus[0].vram_total_bytes == 4 << 30, f"gpus: {status.gpus}")
        metrics = stub.GetMetrics(pb.GetMetricsRequest(), timeout=GUARD_S).prometheus_text
        check("cuzk.v1.Prove" in metrics, "GetMetrics lacks the cuzk.v1 calls")
    finally:
        d.stop()
    restart_suite(a, pb, pb_grpc, work, s)
    tls_suite(a, pb, pb_grpc, work, s)


def restart_suite(a, pb, pb_grpc, work, s):
    """Request ids outlive the daemon: done, in flight at a kill -9, cancelled."""
    sock = os.path.join(work, "r.sock")
    d = Daemon(a.cuzkd, work, "restart", s.params, ["unix://" + sock], delay_ms=1500)
    try:
        stub, _ = connect(pb_grpc, "unix:" + sock)
        done = s.post(pb, "window")
        done.request_id = "wdpost-before-restart"
        first = stub.Prove(pb.ProveRequest(submit=done), timeout=GUARD_S).result
        check(first.status == pb.AwaitProofResponse.COMPLETED, f"WindowPoSt before the restart: {first}")
        cancelled = s.post(pb, "window")
        cancelled.request_id = "cancelled-before-restart"
        stub.SubmitProof(cancelled, timeout=GUARD_S)
        stub.CancelProof(pb.CancelProofRequest(job_id=cancelled.request_id), timeout=GUARD_S)
        flight = s.post(pb, "winning")
        flight.request_id = "winning-at-the-kill"
        stub.SubmitProof(flight, timeout=GUARD_S)
    finally:
        d.kill()  # with the WinningPoSt in flight (device calls take 1.5 s)
    d = Daemon(a.cuzkd, work, "restart", s.params, ["unix://" + sock], delay_ms=0, again=True)
    try:
        stub, _ = connect(pb_grpc, "unix:" + sock)
        r = stub.AwaitProof(pb.AwaitProofRequest(job_id=flight.request_id, timeout_ms=GUARD_S * 1000),
                            timeout=GUARD_S)
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"the job in flight at the kill, after it: {r}")
        cuzk_verify(a.cuzk, s.verify_post_args("winning"), r.proof, work, "winning after restart")
        r = stub.AwaitProof(pb.AwaitProofRequest(job_id=done.request_id), timeout=GUARD_S)
        check(r.status == pb.AwaitProofResponse.COMPLETED and r.proof == first.proof,
              f"the job done before the restart, after it: {r}")
        r = stub.AwaitProof(pb.AwaitProofRequest(job_id=cancelled.request_id), timeout=GUARD_S)
        check(r.status == pb.AwaitProofResponse.CANCELLED, f"the job cancelled before the restart: {r}")
        # The same request again is the same job, handed out again, not proved again.
        again = stub.Prove(pb.ProveRequest(submit=done), timeout=GUARD_S).result
        check(again.job_id == done.request_id and again.proof == first.proof, f"a repeated request_id: {again}")
        other = pb.SubmitProofRequest()
        other.CopyFrom(done)
        other.randomness = bytes(32)
        expect_error(lambda: stub.SubmitProof(other), grpc.StatusCode.ALREADY_EXISTS, ["request_id"],
                     "another request under a request_id journaled before the restart")
        status = stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S)
        check(status.total_proofs_completed == 1,
              f"{status.total_proofs_completed} proofs after the restart, 1 expected (the job in flight)")
    finally:
        d.stop()


def tls_suite(a, pb, pb_grpc, work, s):
    """TCP with TLS and a token: served with the token, refused without; TCP without any token refused."""
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    token = "curio-test-token-0123456789"
    token_file = os.path.join(work, "token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    os.chmod(token_file, 0o600)
    port = free_port()
    d = Daemon(a.cuzkd, work, "tls", s.params, [f"127.0.0.1:{port}"],
               extra_daemon=f'tls_cert = "{cert}"\ntls_key = "{key}"\ntoken_file = "{token_file}"')
    try:
        with open(cert, "rb") as f:
            creds = grpc.ssl_channel_credentials(root_certificates=f.read())
        stub, md = connect(pb_grpc, f"127.0.0.1:{port}", creds, token)
        r = stub.Prove(pb.ProveRequest(submit=s.post(pb, "window")), metadata=md, timeout=GUARD_S).result
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"WindowPoSt over TLS: {r}")
        cuzk_verify(a.cuzk, s.verify_post_args("window"), r.proof, work, "window over tls")
        expect_error(lambda: stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S), grpc.StatusCode.UNAUTHENTICATED,
                     ["token"], "GetStatus without the token")
        expect_error(lambda: stub.Prove(pb.ProveRequest(submit=s.post(pb, "winning")),
                                        metadata=[("authorization", "Bearer wrong")], timeout=GUARD_S),
                     grpc.StatusCode.UNAUTHENTICATED, ["token"], "Prove with a wrong token")
    finally:
        d.stop()

    port = free_port()
    d = Daemon(a.cuzkd, work, "tcp", s.params, [f"127.0.0.1:{port}"])
    try:
        stub, _ = connect(pb_grpc, f"127.0.0.1:{port}")
        expect_error(lambda: stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S), grpc.StatusCode.UNAUTHENTICATED,
                     ["allow_tokenless_tcp"], "cuzk.v1 over TCP without a token configured")
    finally:
        d.stop()
    port = free_port()
    d = Daemon(a.cuzkd, work, "tcp-allowed", s.params, [f"127.0.0.1:{port}"], extra="allow_tokenless_tcp = true")
    try:
        stub, _ = connect(pb_grpc, f"127.0.0.1:{port}")
        stub.GetStatus(pb.GetStatusRequest(), timeout=GUARD_S)
        check("curio_tokenless_tcp" in d.log_text(), "no warning for curio.allow_tokenless_tcp")
    finally:
        d.stop()


def porep_suite(a, pb, pb_grpc, work):
    s = Sector(a.e2e)
    sock = os.path.join(work, "d.sock")
    d = Daemon(a.cuzkd, work, "porep", s.params, ["unix://" + sock])
    try:
        stub, _ = connect(pb_grpc, "unix:" + sock)
        req = pb.SubmitProofRequest(
            request_id="porep-%d-%d" % (s.info["miner_id"], s.info["sector_id"]), proof_kind=pb.POREP_SEAL_COMMIT,
            sector_size=s.info["sector_size"], registered_proof=s.info["proof_id"], priority=pb.NORMAL,
            vanilla_proof=s.read("c1.curio.json"), sector_number=s.info["sector_id"], miner_id=s.info["miner_id"])
        r = stub.Prove(pb.ProveRequest(submit=req), timeout=3 * GUARD_S).result
        check(r.status == pb.AwaitProofResponse.COMPLETED, f"PoRep: {r}")
        check(len(r.proof) == 192, f"a 2 KiB PoRep proof (1 partition) of {len(r.proof)} bytes")
        check(r.job_id == req.request_id, f"job id {r.job_id}")
        cuzk_verify(a.cuzk, ["verify-porep", "--c1", os.path.join(s.dir, "c1.curio.json"), "--miner-id",
                             str(s.info["miner_id"]), "--param-dir", s.params], r.proof, work, "porep")
    finally:
        d.stop()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("suite", choices=["post", "porep"])
    p.add_argument("--cuzkd", required=True)
    p.add_argument("--cuzk", required=True)
    p.add_argument("--proto", required=True, help="the folder holding cuzk/v1/proving.proto")
    p.add_argument("--e2e", required=True, help="the filecoin_e2e fixtures' folder (sector/, params/)")
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuzk-curio-", dir="/tmp") as work:
        pb, pb_grpc = make_stubs(a.proto, work)
        try:
            (post_suite if a.suite == "post" else porep_suite)(a, pb, pb_grpc, work)
        except BaseException:  # a failed check, or an error of the client itself (a daemon never ready)
            for name in sorted(os.listdir(work)):
                log = os.path.join(work, name, "cuzkd.log")
                if os.path.exists(log):
                    print(f"--- {log} (tail)", file=sys.stderr)
                    with open(log) as f:
                        print("".join(f.readlines()[-40:]), file=sys.stderr)
            raise
    print(f"curio api {a.suite}: passed")


if __name__ == "__main__":
    main()
