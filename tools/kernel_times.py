#!/usr/bin/env python3
"""Device time per kernel from Nsight Compute's CSV, summed by kernel name (G2 instantiations apart).
Make the CSV on the device machine with one metric, which needs no replay:
  ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file kernels.csv \\
      b/cli/cuzk bench prove --circuit synthetic --log-domain 27 --fake-key --backend cuda --repeat 1
Run: python3 tools/kernel_times.py kernels.csv[.gz] [--each]   (--each: every launch in order)"""
import collections
import csv
import gzip
import re
import sys


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        # ncu writes its own "==PROF==" lines before the CSV header.
        yield from csv.DictReader(line for line in f if line.startswith('"'))


def short_name(full):
    name = re.sub(r"cuzk::(<unnamed>::)?|void ", "", full)
    name = re.match(r"[\w:]+", name).group(0).split("::")[-1]
    return name + ("[g2]" if "fp2" in full.lower() else "")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    total = collections.defaultdict(float)
    count = collections.Counter()
    launches = []
    for r in rows(argv[1]):
        if r["Metric Name"] != "gpu__time_duration.sum":
            continue
        ms = float(r["Metric Value"].replace(",", "")) / 1e6  # ns
        name = short_name(r["Kernel Name"])
        total[name] += ms
        count[name] += 1
        launches.append((int(r["ID"]), name, ms, r["Grid Size"], r["Block Size"]))
    whole = sum(total.values())
    print(f"{whole:10.1f} ms in {len(launches)} kernels")
    for name, ms in sorted(total.items(), key=lambda kv: -kv[1]):
        print(f"{ms:10.1f} ms {100 * ms / whole:5.1f} % {count[name]:5d}  {name}")
    if "--each" in argv:
        for launch in sorted(launches):
            print("%6d %-34s %10.3f ms  grid %-14s block %s" % launch)


if __name__ == "__main__":
    main(sys.argv)
