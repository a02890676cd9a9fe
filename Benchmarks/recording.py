#!/usr/bin/python3
"""Benchmark of recording (issue 7), side by side with ffmpeg in the same run.

    Benchmarks/recording.py [--cameras 1,4] [--seconds 30] [--seeks 40] [--binary PATH] [--json out.json]

1. A pre-encoded 1280x720 25 fps ~4 Mbit/s H.264 clip (made once with ffmpeg, cached in .bench-cache/) is served
   in a loop, without re-encoding, by one GStreamer RTSP server on 127.0.0.1, one path per camera.
2. For each camera count N: `watchbox serve` (release build unless --binary) records N cameras continuously
   (60 s segments, no viewer); after a warm-up its CPU time (utime+stime from /proc) and the growth of the
   recordings folder are measured over --seconds and reported per camera. The peer: N
   `ffmpeg -rtsp_transport tcp -i URL -c copy -f segment -segment_time 60 -segment_format mp4` processes,
   timed and measured the same way.
3. Time to start playback in a day of footage: a fresh data directory gets a camera and 1440 one-minute index
   rows (a whole day) pointing at hard links of one real recorded segment; for --seeks random times the client
   asks the index for the segment at that time, then the media from that time, and the time to the first byte
   of the media (index lookup included) is reported, median and 95th percentile.

Loopback only. Needs the peers scripts/test installs.
"""
import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".bench-cache")
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")
TICKS = os.sysconf("SC_CLK_TCK")


def ensure_clip():
    os.makedirs(CACHE, exist_ok=True)
    clip = os.path.join(CACHE, "bench_720p25_4M.mp4")
    if not os.path.exists(clip):
        print("making the 4 Mbit/s test clip (once)...", file=sys.stderr)
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25",
                        "-t", "20", "-c:v", "libx264", "-preset", "veryfast", "-b:v", "4M", "-maxrate", "4M",
                        "-bufsize", "8M", "-g", "50", "-bf", "0", "-pix_fmt", "yuv420p", clip], check=True)
    return clip


def start_rtsp(clip, count):
    args = ["/usr/bin/python3", PEER, "--port", "0", "--file", clip, "--protocols", "tcp"]
    for i in range(count):
        args += ["--path", f"/c{i}"]
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


def folder_bytes(path):
    total = 0
    for directory, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(directory, name))
            except FileNotFoundError:
                pass
    return total


def start_watchbox(binary, data, extra=()):
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--data", data, "--log-level", "error",
                             "--max-streams", "256", *extra],
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


def measure_hub(binary, rtsp_port, count, seconds):
    data = tempfile.mkdtemp(prefix="watchbox-bench-")
    recordings = os.path.join(data, "recordings")
    proc, base = start_watchbox(binary, data)
    try:
        for i in range(count):
            camera = api(base, "POST", "/api/cameras", {"name": f"cam {i}", "rtspURL": f"rtsp://127.0.0.1:{rtsp_port}/c{i}"})["id"]
            api(base, "PUT", f"/api/cameras/{camera}/recording", {"mode": "continuous"})
        time.sleep(5)
        cpu0, bytes0, t0 = cpu_seconds([proc.pid]), folder_bytes(recordings), time.monotonic()
        time.sleep(seconds)
        cpu, written, wall = cpu_seconds([proc.pid]) - cpu0, folder_bytes(recordings) - bytes0, time.monotonic() - t0
        rss = int(open(f"/proc/{proc.pid}/status").read().split("VmRSS:")[1].split()[0]) / 1024
        return {"cpuPercentPerCamera": 100 * cpu / wall / count, "writeKiBPerSecondPerCamera": written / wall / count / 1024,
                "rssMiB": rss}
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(data, ignore_errors=True)


def measure_ffmpeg(rtsp_port, count, seconds):
    folder = tempfile.mkdtemp(prefix="ffmpeg-bench-")
    procs = [subprocess.Popen(["ffmpeg", "-v", "error", "-nostdin", "-rtsp_transport", "tcp", "-i",
                               f"rtsp://127.0.0.1:{rtsp_port}/c{i}", "-c", "copy", "-f", "segment", "-segment_time", "60",
                               "-segment_format", "mp4", "-reset_timestamps", "1", os.path.join(folder, f"c{i}_%03d.mp4")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(count)]
    try:
        time.sleep(5)
        pids = [p.pid for p in procs]
        cpu0, bytes0, t0 = cpu_seconds(pids), folder_bytes(folder), time.monotonic()
        time.sleep(seconds)
        cpu, written, wall = cpu_seconds(pids) - cpu0, folder_bytes(folder) - bytes0, time.monotonic() - t0
        return {"cpuPercentPerCamera": 100 * cpu / wall / count, "writeKiBPerSecondPerCamera": written / wall / count / 1024}
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def iso(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def measure_seek(binary, rtsp_port, seeks):
    """A day of one-minute segments (hard links of one real one), then random seeks."""
    data = tempfile.mkdtemp(prefix="watchbox-seek-")
    try:
        proc, base = start_watchbox(binary, data, ["--segment-seconds", "60"])
        camera = api(base, "POST", "/api/cameras", {"name": "day", "rtspURL": f"rtsp://127.0.0.1:{rtsp_port}/c0"})["id"]
        api(base, "PUT", f"/api/cameras/{camera}/recording", {"mode": "continuous"})
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            listed = api(base, "GET", f"/api/cameras/{camera}/recordings?from=2000-01-01T00:00:00.000Z&to=2100-01-01T00:00:00.000Z")
            if listed["segments"]:
                break
            time.sleep(1)
        else:
            raise SystemExit("no segment was recorded for the seek benchmark")
        api(base, "PUT", f"/api/cameras/{camera}/recording", {"mode": "off"})
        proc.terminate()
        proc.wait(timeout=20)
        db = sqlite3.connect(os.path.join(data, "watchbox.sqlite"))
        row = db.execute("SELECT cameraID, duration, bytes, path, codec, mimeType, width, height, keyframes FROM segment LIMIT 1").fetchone()
        camera_id, duration, size, path, codec, mime, width, height, keyframes = row
        source = os.path.join(data, "recordings", path)
        day = datetime(2026, 11, 20, tzinfo=timezone.utc)
        rows = []
        for minute in range(1440):
            start = day + timedelta(minutes=minute)
            relative = f"{camera_id}/2026-11-20/{start.strftime('%H%M%S')}-1.mp4"
            target = os.path.join(data, "recordings", relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.link(source, target)
            end = start + timedelta(seconds=duration)
            rows.append((camera_id, start.strftime("%Y-%m-%d %H:%M:%S.000"), end.strftime("%Y-%m-%d %H:%M:%S.") + f"{end.microsecond // 1000:03d}",
                         duration, size, relative, codec, mime, width, height, keyframes))
        db.executemany('INSERT INTO segment (cameraID, start, "end", duration, bytes, path, codec, mimeType, width, height, keyframes) '
                       "VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        db.commit()
        db.close()
        proc, base = start_watchbox(binary, data)
        try:
            times = []
            rng = random.Random(7)
            for _ in range(seeks):
                moment = day + timedelta(seconds=rng.uniform(0, 86_399))
                began = time.monotonic()
                # The segment at that time, or the next one when the time falls between two (what a player does).
                query = urllib.parse.urlencode({"from": iso(moment), "to": iso(moment + timedelta(seconds=120))})
                listed = api(base, "GET", f"/api/cameras/{camera}/recordings?{query}")["segments"]
                segment = listed[0]["id"]
                url = f"http://{base}/api/recordings/{segment}/media?" + urllib.parse.urlencode({"from": iso(moment)})
                with urllib.request.urlopen(url) as response:
                    response.read(1)
                    times.append((time.monotonic() - began) * 1000)
                    response.read()
            times.sort()
            return {"segmentsInDay": 1440, "seeks": seeks, "firstByteMsMedian": statistics.median(times),
                    "firstByteMsP95": times[int(0.95 * (len(times) - 1))]}
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    finally:
        shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cameras", default="1,4")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seeks", type=int, default=40)
    parser.add_argument("--binary")
    parser.add_argument("--json")
    parser.add_argument("--seek-only", action="store_true", help="only the playback-start measurement")
    args = parser.parse_args()
    counts = [int(x) for x in args.cameras.split(",")]
    binary = args.binary
    if not binary:
        print("building the release binary...", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--product", "watchbox"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout.strip()
        binary = os.path.join(bin_dir, "watchbox")
    clip = ensure_clip()
    rtsp, port = start_rtsp(clip, max(counts))
    results = {"machine": platform.node(), "cpus": os.cpu_count(), "binary": binary, "date": datetime.now().isoformat(timespec="seconds"),
               "recording": [], "seek": None}
    try:
        print(f"{'cameras':>7} | {'watchbox CPU %/cam':>18} | {'ffmpeg CPU %/cam':>16} | {'watchbox KiB/s/cam':>18} | {'ffmpeg KiB/s/cam':>16} | ratio")
        for count in ([] if args.seek_only else counts):
            hub = measure_hub(binary, port, count, args.seconds)
            peer = measure_ffmpeg(port, count, args.seconds)
            ratio = hub["cpuPercentPerCamera"] / peer["cpuPercentPerCamera"] if peer["cpuPercentPerCamera"] else float("nan")
            print(f"{count:>7} | {hub['cpuPercentPerCamera']:>18.2f} | {peer['cpuPercentPerCamera']:>16.2f} | "
                  f"{hub['writeKiBPerSecondPerCamera']:>18.1f} | {peer['writeKiBPerSecondPerCamera']:>16.1f} | {ratio:.2f}x", flush=True)
            results["recording"].append({"cameras": count, "watchbox": hub, "ffmpeg": peer})
        seek = measure_seek(binary, port, args.seeks)
        results["seek"] = seek
        print(f"playback start in a day of footage ({seek['segmentsInDay']} segments, {seek['seeks']} random seeks, index lookup + "
              f"first media byte): median {seek['firstByteMsMedian']:.1f} ms, p95 {seek['firstByteMsP95']:.1f} ms")
    finally:
        rtsp.terminate()
        rtsp.wait(timeout=10)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
