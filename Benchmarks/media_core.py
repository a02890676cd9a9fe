#!/usr/bin/python3
"""Benchmark of the media core (issues #2 and #3), side by side with ffmpeg/ffprobe in the same run.

    Benchmarks/media_core.py [--seconds 20] [--runs 3] [--json out.json]

1. A pre-encoded 1920x1080 25 fps ~4 Mbit/s H.264 clip (made once with ffmpeg, cached in
   .bench-cache/) is served in a loop by GStreamer's RTSP server on 127.0.0.1 (no encoding
   while measuring, so the source stays cheap).
2. Throughput: `watchbox capture` records 10 s of it; `watchbox-bench` replays that capture
   through the RTSP stream decoder, the RTP parser + depacketizer, the whole pipeline, and memcpy.
3. CPU: for the same stream and duration, the CPU time (user+sys, from wait4) and peak RSS of
   `watchbox probe`, `ffmpeg -c copy -f null` and `ffprobe -count_frames`, run in turn,
   `--runs` times each; medians and ratios are printed.
4. Recording: the CPU time of `watchbox record` (fragmented MP4) against
   `ffmpeg -rtsp_transport tcp -i URL -c copy` writing a fragmented MP4 and a plain MP4, same
   stream, same duration; the muxer's own throughput is in the table of step 2.

Loopback only. Prints a table; --json writes the figures.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".bench-cache")
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def ensure_clip():
    os.makedirs(CACHE, exist_ok=True)
    clip = os.path.join(CACHE, "bench_1080p25_4M.mp4")
    if not os.path.exists(clip):
        print("making the 1080p test clip (once)...", file=sys.stderr)
        run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25",
             "-t", "20", "-c:v", "libx264", "-preset", "veryfast", "-b:v", "4M", "-maxrate", "4M",
             "-bufsize", "8M", "-g", "50", "-bf", "0", "-pix_fmt", "yuv420p", clip])
    return clip


def start_server(clip):
    proc = subprocess.Popen(["/usr/bin/python3", PEER, "--port", "0", "--file", clip, "--protocols", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY "):
        proc.kill()
        raise SystemExit(f"GStreamer RTSP server did not start: {line!r}")
    return proc, int(line.split()[1])


def measured(cmd):
    """Run cmd; return (cpu seconds user+sys, peak RSS MiB, wall seconds, stdout)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[0]} failed (status {status})")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, out


def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    except Exception:
        return "?"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()

    print("building release binaries...", file=sys.stderr)
    run(["swift", "build", "-c", "release", "--product", "watchbox"], cwd=ROOT, stdout=subprocess.DEVNULL)
    run(["swift", "build", "-c", "release", "--product", "watchbox-bench"], cwd=ROOT, stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    watchbox = os.path.join(bin_dir, "watchbox")
    bench = os.path.join(bin_dir, "watchbox-bench")

    clip = ensure_clip()
    server, port = start_server(clip)
    url = f"rtsp://127.0.0.1:{port}/stream"
    results = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                           "date": time.strftime("%Y-%m-%d"),
                           "ffmpeg": version(["ffmpeg", "-version"]),
                           "swift": version(["swift", "--version"])}}
    try:
        capture = os.path.join(CACHE, "bench_1080p25_4M.rtspcap")
        run([watchbox, "capture", url, "--duration", "10", "-o", capture], stdout=subprocess.DEVNULL)
        throughput = json.loads(subprocess.run([bench, capture, "--json"], capture_output=True, text=True,
                                               check=True).stdout)
        results["throughput"] = throughput

        s = args.seconds
        tools = {
            "watchbox probe": [watchbox, "probe", "--duration", str(s), "--json", url],
            "ffmpeg -c copy -f null": ["ffmpeg", "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-t", str(s),
                                       "-c", "copy", "-f", "null", "-"],
            "ffprobe -count_frames": ["ffprobe", "-v", "error", "-rtsp_transport", "tcp", "-select_streams", "v:0",
                                      "-read_intervals", f"%+{s}", "-count_frames",
                                      "-show_entries", "stream=nb_read_frames", "-of", "json", url],
        }
        out = os.path.join(CACHE, "bench-record")
        recorders = {
            "watchbox record (fMP4)": [watchbox, "record", url, "--duration", str(s), "-o", out + "-watchbox.mp4"],
            "ffmpeg -c copy (fMP4)": ["ffmpeg", "-v", "error", "-y", "-rtsp_transport", "tcp", "-i", url, "-t", str(s),
                                      "-c", "copy", "-f", "mp4", "-movflags", "frag_keyframe+empty_moov+default_base_moof",
                                      out + "-ffmpeg-frag.mp4"],
            "ffmpeg -c copy (mp4)": ["ffmpeg", "-v", "error", "-y", "-rtsp_transport", "tcp", "-i", url, "-t", str(s),
                                     "-c", "copy", out + "-ffmpeg.mp4"],
        }
        samples = {name: [] for name in list(tools) + list(recorders)}
        for _ in range(args.runs):
            for name, cmd in list(tools.items()) + list(recorders.items()):
                samples[name].append(measured(cmd))
        cpu = {}
        for name, values in samples.items():
            cpu[name] = {"cpuSeconds": statistics.median(v[0] for v in values),
                         "cpuMsPerStreamSecond": statistics.median(v[0] for v in values) * 1000 / s,
                         "peakRSSMiB": statistics.median(v[1] for v in values),
                         "wallSeconds": statistics.median(v[2] for v in values)}
        results["cpu"] = {name: cpu[name] for name in tools}
        results["recording"] = {name: cpu[name] for name in recorders}
    finally:
        server.terminate()
        try:
            server.wait(timeout=3)
        except subprocess.TimeoutExpired:
            server.kill()

    ours = results["cpu"]["watchbox probe"]["cpuSeconds"]
    print(f"\nWatchBox media core, {results['machine']['date']}, {results['machine']['cpus']} cores, "
          f"{results['machine']['ffmpeg']}")
    print(f"stream: 1920x1080 25 fps ~4 Mbit/s H.264 over RTSP/TCP from GStreamer, {args.seconds:g} s, "
          f"median of {args.runs} runs\n")
    print(f"{'client':28} {'CPU s':>8} {'CPU ms/s':>9} {'peak RSS':>9} {'vs watchbox':>12}")
    for name, row in results["cpu"].items():
        ratio = row["cpuSeconds"] / ours if ours > 0 else float("nan")
        print(f"{name:28} {row['cpuSeconds']:8.3f} {row['cpuMsPerStreamSecond']:9.1f} "
              f"{row['peakRSSMiB']:7.1f}MB {ratio:11.2f}x")
    base = results["recording"]["watchbox record (fMP4)"]["cpuSeconds"]
    print(f"\n{'recorder':28} {'CPU s':>8} {'CPU ms/s':>9} {'peak RSS':>9} {'vs watchbox':>12}")
    for name, row in results["recording"].items():
        ratio = row["cpuSeconds"] / base if base > 0 else float("nan")
        print(f"{name:28} {row['cpuSeconds']:8.3f} {row['cpuMsPerStreamSecond']:9.1f} "
              f"{row['peakRSSMiB']:7.1f}MB {ratio:11.2f}x")
    print(f"\nthroughput on a 10 s capture (median of 15 runs, release build):")
    for row in results["throughput"]:
        print(f"  {row['name']:28} {row['megabytesPerSecond']:10.1f} MB/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
