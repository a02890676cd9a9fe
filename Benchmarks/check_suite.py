#!/usr/bin/python3
"""Keeps the benchmark suite from rotting (a test, not a benchmark; scripts/test runs it).

    Benchmarks/check_suite.py --binary-dir .build/debug

Runs `Benchmarks/suite.py --smoke` (1 camera, short windows, the debug binaries) and checks that every
figure the full suite reports is present and sane: CPU and memory positive and finite, frames delivered
at about the source's rate and none lost on an idle loopback, latency percentiles ordered, the joins
counted, every microbenchmark positive. No figure is compared with a speed target: the machine is shared.
Exits 1 listing what is missing or wrong.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICRO = ["memcpy (scale)", "RTSP stream decoder", "RTP parse + depacketizer", "whole pipeline",
         "fMP4 mux, 2 s fragments", "fMP4 mux, live (per frame)", "fMP4 mux, live in place"]


def check(results):
    problems = []

    def need(condition, what):
        if not condition:
            problems.append(what)

    def positive(value, what):
        need(isinstance(value, (int, float)) and math.isfinite(value) and value > 0, f"{what} = {value!r}, expected > 0")

    for key in ("machine", "versions", "config", "ingest", "timeToFirstFrame", "fanout", "micro"):
        need(key in results, f"no {key} in the JSON")
    if problems:
        return problems
    seconds = results["config"]["seconds"]
    for n, row in results["ingest"].items():
        for tool in ("watchbox", "ffmpeg", "gstreamer"):
            r = row.get(tool)
            if r is None:
                problems.append(f"{n} camera(s): no {tool} figures")
                continue
            where = f"{n} camera(s), {tool}"
            positive(r["cpuSecondsPerCameraMinute"], f"{where}: CPU s per camera-minute")
            positive(r["peakRSSMiBPerCamera"], f"{where}: peak RSS per camera")
            positive(r["machineCPUPercent"], f"{where}: machine CPU")
            # Delivered: at least half of what 25 fps over the window gives (a stalled tool fails here).
            need(r["framesDelivered"] >= 0.5 * 25 * seconds * int(n),
                 f"{where}: {r['framesDelivered']} frames delivered in {seconds} s, expected about {25 * seconds * int(n):.0f}")
            need(r["framesLost"] >= 0 and r["framesLost"] <= r["framesDelivered"] * 0.05,
                 f"{where}: {r['framesLost']} frames lost of {r['framesDelivered']}")
        arrival = row.get("watchbox", {}).get("arrival", {})
        need(arrival.get("gaps", 0) > 0 and 0 <= arrival.get("framesLateAtViewer", -1) <= arrival["gaps"]
             and 0 < arrival.get("gapP99Ms", 0) <= arrival.get("gapMaxMs", 0)
             and 0 <= arrival.get("delayP50Ms", -1) <= arrival.get("delayP99Ms", -1),
             f"{n} camera(s): the gaps between fragments at the viewers are missing or out of order: {arrival}")
        latency = row.get("watchbox", {}).get("latency", {})
        positive(latency.get("fragmentsTimed"), f"{n} camera(s): fragments timed by the hub")
        positive(latency.get("p50Ms"), f"{n} camera(s): latency p50")
        need(latency.get("p50Ms", 0) <= latency.get("p99Ms", -1) <= latency.get("maxMs", -2),
             f"{n} camera(s): latency p50 <= p99 <= max fails: {latency}")
        # One viewer per camera: one fragment per frame (a frame in flight at the window's edge aside).
        need(latency.get("fragmentsTimed", 0) <= latency.get("framesIn", 0) + int(n),
             f"{n} camera(s): the hub timed more fragments than frames came in: {latency}")
    join = results["timeToFirstFrame"]
    need(join["joins"] == results["config"]["joins"], f"{join['joins']} joins measured of {results['config']['joins']}")
    positive(join["medianMs"], "time to first frame, median")
    need(join["minMs"] <= join["medianMs"] <= join["p99Ms"] <= join["maxMs"], f"join figures out of order: {join}")
    for viewers in map(str, results["config"]["fanout"]):
        r = results["fanout"].get(viewers)
        if r is None:
            problems.append(f"fan-out: no figures for {viewers} viewers")
            continue
        positive(r["cpuSecondsPerMinute"], f"fan-out {viewers}: CPU")
        positive(r["latency"]["fragmentsTimed"], f"fan-out {viewers}: fragments timed")
        need(r["framesDelivered"] >= 0.5 * 25 * seconds * int(viewers),
             f"fan-out {viewers}: {r['framesDelivered']} frames delivered")
    for name in MICRO:
        positive(results["micro"].get(name), f"microbenchmark {name!r}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary-dir", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "smoke.json")
        run = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "Benchmarks", "suite.py"), "--smoke",
                              "--binary-dir", args.binary_dir, "--json", out])
        if run.returncode != 0:
            print(f"FAIL: the suite exited with {run.returncode}")
            return 1
        with open(out) as f:
            results = json.load(f)
    problems = check(results)
    for problem in problems:
        print(f"FAIL: {problem}")
    print("benchmark suite check: " + ("ok, every figure present and sane" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
