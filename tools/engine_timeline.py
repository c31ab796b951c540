#!/usr/bin/env python3
"""Each partition's path through the engine, from a `cuzk bench engine --verbose` log (plain or
.gz): when its synthesis waited for the host budget, ran, how long it queued for a device worker,
and its proof; then the intervals between job ends (the last one is short: that job's last proofs
have the device to themselves), and the steady rate: PoRep proofs ended between the first job's end
and the last proof's start (while every device worker had work), each proof counted for the share
of its time inside that window, per second of it. Where one device worker's proofs take much
longer than another's (the lead worker), job ends come unevenly and the rate is the steadier
figure. With --stages, each device stage's wall time over the partitions of every job but the
WinningPoSt ones (count, min, median, max) and its first plan, as the backend logged them.
Run: python3 tools/engine_timeline.py [--stages] engine.log[.gz]"""
import collections
import gzip
import re
import sys
from datetime import datetime

LINE = re.compile(r"\S+T(\S+) \w+ \S+ job=(\d+)(?: part=(\d+))?(?: worker=(\S+))? .*?event=(\w+)")
STAGE = re.compile(r'stage="([^"]*)" plan="([^"]*)".* ms=([0-9.]+)')


def seconds(stamp):
    return datetime.strptime(stamp, "%H:%M:%S.%f").timestamp()


def print_stages(stages, kinds):
    """The device stages' times (the stage log's "device blocks" lines left out), by stage name."""
    times, plans = collections.defaultdict(list), {}
    for job, name, plan, ms in stages:
        if kinds.get(job) == "winning_post" or name == "device blocks":
            continue
        times[name].append(ms)
        plans.setdefault(name, plan)
    print(f"{'stage':<26} {'count':>5} {'min ms':>9} {'median':>9} {'max':>9}  first plan")
    for name, ms in sorted(times.items(), key=lambda kv: -sum(kv[1])):
        ms.sort()
        plan = plans[name] if len(plans[name]) <= 70 else plans[name][:67] + "..."
        print(f"{name:<26} {len(ms):>5} {ms[0]:>9.1f} {ms[len(ms) // 2]:>9.1f} {ms[-1]:>9.1f}  {plan}")


def main(argv):
    with_stages = "--stages" in argv
    argv = [a for a in argv if a != "--stages"]
    if len(argv) < 2:
        sys.exit(__doc__)
    opener = gzip.open if argv[1].endswith(".gz") else open
    parts = collections.defaultdict(dict)
    job_ends, kinds, stages, t0 = {}, {}, [], None
    with opener(argv[1], "rt") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            t, job, part, worker, event = seconds(m.group(1)), int(m.group(2)), m.group(3), m.group(4), m.group(5)
            t0 = t if t0 is None else t0
            t -= t0
            if event == "submitted":
                kinds[job] = re.search(r"kind=(\w+)", line).group(1)
            if event == "job_done":
                job_ends[job] = t
            if part is None:
                continue
            if event == "device_stage":
                st = STAGE.search(line)
                if st:
                    stages.append((job, st.group(1), st.group(2), float(st.group(3))))
            p = parts[(job, int(part))]
            if event == "wait":
                p.setdefault("wait", t)
            elif event == "reserve" and worker and worker.startswith("synth"):
                p.setdefault("synth", t)
            elif event == "synthesized":
                p["synthesized"] = t
            elif event == "prove_start":
                p["prove"], p["worker"] = t, worker
            elif event == "proved":
                p["proved"] = t
    print(f"{'job.part':>9} {'worker':>7} {'budget wait':>11} {'synthesis':>17} {'queued':>7} {'proof':>19}")
    for (job, part), p in sorted(parts.items(), key=lambda kv: kv[1].get("prove", 0)):
        if "prove" not in p or "proved" not in p:
            continue
        synth, done = p.get("synth", p["prove"]), p.get("synthesized", p["prove"])
        wait = f"{synth - p['wait']:.2f}" if "wait" in p else "-"
        print(f"{job:>5}.{part:<3} {p['worker']:>7} {wait:>11} {synth:7.2f}+{done - synth:5.2f} s "
              f"{p['prove'] - done:7.2f} {p['prove']:7.2f}+{p['proved'] - p['prove']:5.2f} s")
    ends = sorted(t for job, t in job_ends.items() if kinds.get(job) != "winning_post")
    if len(ends) >= 2:
        gaps = [b - a for a, b in zip(ends, ends[1:])]
        print("intervals between job ends: " + ", ".join(f"{g:.2f}" for g in gaps) + " s")
        print(f"mean {sum(gaps) / len(gaps):.3f} s; without the last {sum(gaps[:-1]) / max(1, len(gaps) - 1):.3f} s")
    porep = [p for (job, _), p in parts.items() if kinds.get(job) != "winning_post" and "proved" in p]
    if ends and porep:
        first_end, last_start = ends[0], max(p["prove"] for p in porep)
        # Each proof's work counted as spread evenly over its time on the device, so that a long
        # proof (the filling worker's) counts for the part of it inside the window.
        work = sum(max(0.0, min(p["proved"], last_start) - max(p["prove"], first_end)) / (p["proved"] - p["prove"])
                   for p in porep if p["proved"] > p["prove"])
        if work > 0 and last_start > first_end:
            window = last_start - first_end
            print(f"steady rate: {work:.1f} PoRep proofs' work in {window:.2f} s, {window / work:.3f} s a partition")
    if with_stages:
        print_stages(stages, kinds)


if __name__ == "__main__":
    main(sys.argv)
