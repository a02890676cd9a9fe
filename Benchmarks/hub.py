#!/usr/bin/python3
"""Benchmark of the hub (issue #4), side by side with ffmpeg in the same run.

    Benchmarks/hub.py [--cameras 1,8,32] [--seconds 20] [--joins 30] [--json out.json]

1. A pre-encoded 1280x720 25 fps ~2 Mbit/s H.264 clip (made once with ffmpeg, cached in .bench-cache/)
   is served in a loop, without re-encoding, by one GStreamer RTSP server on 127.0.0.1 under as many
   paths as the largest camera count (each path its own stream).
2. For each camera count N: `watchbox serve` (release build) on a fresh data directory, N cameras
   added through the API, one WebSocket viewer per camera reading every fragment; after a warm-up the
   server's CPU time (utime+stime from /proc) is measured over --seconds, and reported per camera.
   The peer: N `ffmpeg -rtsp_transport tcp -i URL -c copy -f mp4 -movflags frag_every_frame+empty_moov`
   processes writing to /dev/null, the same pull-and-remux-to-fMP4 without a web server, timed the same way.
3. Join latency: with one camera live and watched, --joins new viewers each open a WebSocket and wait for
   their first media fragment (the cached GOP makes it immediate); median and 95th percentile, in ms
   (the issue's goal: under 50 ms).

Loopback only. Needs the peers scripts/test installs, and python3-websockets.
"""
import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".bench-cache")
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")
TICKS = os.sysconf("SC_CLK_TCK")


def ensure_clip():
    os.makedirs(CACHE, exist_ok=True)
    clip = os.path.join(CACHE, "bench_720p25_2M.mp4")
    if not os.path.exists(clip):
        print("making the 720p test clip (once)...", file=sys.stderr)
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25",
                        "-t", "20", "-c:v", "libx264", "-preset", "veryfast", "-b:v", "2M", "-maxrate", "2M",
                        "-bufsize", "4M", "-g", "50", "-bf", "0", "-pix_fmt", "yuv420p", clip], check=True)
    return clip


def start_rtsp(clip, paths):
    args = ["/usr/bin/python3", PEER, "--port", "0", "--file", clip, "--protocols", "tcp"]
    for path in paths:
        args += ["--path", path]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY "):
        proc.kill()
        raise SystemExit(f"GStreamer RTSP server did not start: {line!r}")
    return proc, int(line.split()[1])


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except FileNotFoundError:
            pass
    return total / TICKS


def start_watchbox(binary, data):
    # --max-streams 256: every camera of the run gets its upstream (the default limit is 16).
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--data", data, "--log-level", "error",
                             "--max-streams", "256"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "listening on http://" not in line:
        proc.kill()
        raise SystemExit(f"watchbox serve did not start: {line!r}")
    return proc, line.split("http://", 1)[1].split()[0]


def api(base, method, path, body=None):
    request = urllib.request.Request(f"http://{base}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


async def viewer(base, camera, counts, stop):
    async with websockets.connect(f"ws://{base}/api/cameras/{camera}/live", max_size=None, max_queue=None) as ws:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.recv(), 1)
            except asyncio.TimeoutError:
                continue
            if isinstance(message, bytes):
                counts[camera] = counts.get(camera, 0) + 1


async def measure_hub(binary, rtsp_port, count, seconds):
    data = tempfile.mkdtemp(prefix="watchbox-bench-")
    proc, base = start_watchbox(binary, data)
    try:
        cameras = [api(base, "POST", "/api/cameras", {"name": f"cam {i}", "rtspURL": f"rtsp://127.0.0.1:{rtsp_port}/c{i}"})["id"]
                   for i in range(count)]
        counts, stop = {}, asyncio.Event()
        tasks = [asyncio.create_task(viewer(base, c, counts, stop)) for c in cameras]
        await asyncio.sleep(5)  # connect, first keyframes
        started_cpu, started = cpu_seconds([proc.pid]), time.monotonic()
        frames_before = sum(counts.values())
        await asyncio.sleep(seconds)
        cpu = cpu_seconds([proc.pid]) - started_cpu
        wall = time.monotonic() - started
        frames = sum(counts.values()) - frames_before
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        rss = int(open(f"/proc/{proc.pid}/status").read().split("VmRSS:")[1].split()[0]) / 1024
        return {"cpuSeconds": cpu, "cpuPercentPerCamera": 100 * cpu / wall / count,
                "fragmentsPerSecond": frames / wall, "rssMiB": rss}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


def measure_ffmpeg(rtsp_port, count, seconds):
    procs = [subprocess.Popen(["ffmpeg", "-v", "error", "-nostdin", "-rtsp_transport", "tcp", "-i",
                               f"rtsp://127.0.0.1:{rtsp_port}/c{i}", "-c", "copy", "-f", "mp4", "-movflags",
                               "frag_every_frame+empty_moov+default_base_moof", "-y", "/dev/null"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(count)]
    try:
        time.sleep(5)
        pids = [p.pid for p in procs]
        started_cpu, started = cpu_seconds(pids), time.monotonic()
        time.sleep(seconds)
        cpu = cpu_seconds(pids) - started_cpu
        wall = time.monotonic() - started
        return {"cpuSeconds": cpu, "cpuPercentPerCamera": 100 * cpu / wall / count}
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=10)


async def measure_join(binary, rtsp_port, joins):
    data = tempfile.mkdtemp(prefix="watchbox-bench-")
    proc, base = start_watchbox(binary, data)
    try:
        camera = api(base, "POST", "/api/cameras", {"name": "cam", "rtspURL": f"rtsp://127.0.0.1:{rtsp_port}/c0"})["id"]
        counts, stop = {}, asyncio.Event()
        keeper = asyncio.create_task(viewer(base, camera, counts, stop))
        await asyncio.sleep(4)
        samples = []
        for _ in range(joins):
            started = time.monotonic()
            async with websockets.connect(f"ws://{base}/api/cameras/{camera}/live", max_size=None, max_queue=None) as ws:
                binaries = 0
                while True:
                    message = await ws.recv()
                    if isinstance(message, bytes):
                        binaries += 1
                        if binaries == 2:  # the init segment, then the first media fragment
                            samples.append((time.monotonic() - started) * 1000)
                            break
            await asyncio.sleep(0.2)
        stop.set()
        await keeper
        samples.sort()
        return {"medianMs": statistics.median(samples), "p95Ms": samples[int(len(samples) * 0.95) - 1],
                "minMs": samples[0], "maxMs": samples[-1], "joins": joins}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cameras", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--joins", type=int, default=30)
    parser.add_argument("--json")
    args = parser.parse_args()
    counts = [int(x) for x in args.cameras.split(",")]

    print("building the release binary...", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "watchbox"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    binary = os.path.join(bin_dir, "watchbox")
    clip = ensure_clip()
    rtsp, port = start_rtsp(clip, [f"/c{i}" for i in range(max(counts))])
    results = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "date": time.strftime("%Y-%m-%d")},
               "hub": {}, "ffmpeg": {}}
    try:
        results["join"] = asyncio.run(measure_join(binary, port, args.joins))
        for n in counts:
            print(f"{n} camera(s)...", file=sys.stderr)
            results["hub"][n] = asyncio.run(measure_hub(binary, port, n, args.seconds))
            results["ffmpeg"][n] = measure_ffmpeg(port, n, args.seconds)
    finally:
        rtsp.terminate()
        rtsp.wait(timeout=10)

    join = results["join"]
    print(f"\nWatchBox hub, {results['machine']['date']}, {results['machine']['cpus']} cores; "
          f"1280x720 25 fps ~2 Mbit/s H.264 per camera from GStreamer on loopback, {args.seconds:g} s windows\n")
    print(f"new viewer of a live camera, WebSocket open -> first fragment: median {join['medianMs']:.1f} ms, "
          f"p95 {join['p95Ms']:.1f} ms ({join['joins']} joins)\n")
    print(f"{'cameras':>8} {'hub CPU %/camera':>17} {'ffmpeg CPU %/camera':>20} {'ffmpeg/hub':>11} {'hub RSS':>9} {'fragments/s':>12}")
    for n in counts:
        hub, ff = results["hub"][n], results["ffmpeg"][n]
        ratio = ff["cpuPercentPerCamera"] / hub["cpuPercentPerCamera"] if hub["cpuPercentPerCamera"] else float("nan")
        print(f"{n:8} {hub['cpuPercentPerCamera']:17.2f} {ff['cpuPercentPerCamera']:20.2f} {ratio:10.2f}x "
              f"{hub['rssMiB']:7.0f}MB {hub['fragmentsPerSecond']:12.0f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
