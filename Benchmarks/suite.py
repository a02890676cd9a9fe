#!/usr/bin/python3
"""WatchBox's benchmark suite (issue #6), side by side with ffmpeg and GStreamer in the same run.

    scripts/bench [--cameras 1,8,32,64] [--seconds 20] [--joins 50] [--fanout 1,10,50] [--json out.json]
    scripts/bench --smoke --binary-dir .build/debug --json /tmp/smoke.json   # the test's configuration

1. Ingest cost per camera. A pre-encoded 1920x1080 25 fps ~4 Mbit/s H.264 clip (made once with ffmpeg/x264,
   cached in .bench-cache/) is served in a loop, without re-encoding, by GStreamer's RTSP server on
   127.0.0.1 (Tests/Peers/rtsp_server.py; one server process per 16 paths), each path its own camera.
   For each N, in turn, over the same window length:
   - WatchBox: `watchbox serve --instrument` with the N cameras, one WebSocket viewer per camera reading
     the fMP4 stream (this script, asyncio);
   - ffmpeg: N processes `ffmpeg -rtsp_transport tcp -i URL -c copy -f mp4 -movflags
     frag_keyframe+empty_moov+default_base_moof pipe: > /dev/null`;
   - GStreamer: one process (Benchmarks/gst_client.py) running N pipelines `rtspsrc ! rtph264depay !
     h264parse ! mp4mux fragment-duration=40 ! fakesink`.
   Measured: CPU seconds (every thread's schedstat) per camera-minute, peak RSS (VmHWM) per camera, frames
   lost (frames the timestamps span in the window minus frames delivered: WatchBox from each fragment's
   tfdt as the viewer receives it, ffmpeg from -progress, GStreamer from a probe after h264parse), and the
   machine's CPU use (/proc/stat, every core, every process) during the window.
2. Time to first frame: WebSocket open -> first media fragment, for a new viewer of a live camera.
3. Hub-added latency: `serve --instrument` times each live fragment from the arrival of the last RTP
   packet of its frame to its write to the WebSocket (GET /api/debug/hub; p50, p99, max); and, at the
   viewers, the gaps between fragments (frames late: more than 1.5 frame intervals after the one before) and
   each frame's delay beyond the promptest frame of its viewer (arrival minus media time, less its minimum),
   which also show a frame held before the hub reads it.
4. Fan-out: one camera, 1 / 10 / 50 viewers: CPU, latency, frames lost.
5. Microbenchmarks: `watchbox capture` records 10 s of the stream; `watchbox-bench` replays it through
   the RTSP stream decoder, depacketizer, muxer, and memcpy (MB/s, median of runs).

Prints the table (ratios first) and writes JSON. Loopback only. Needs the peers scripts/test installs.
"""
import argparse
import asyncio
import json
import os
import platform
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".bench-cache")
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")
GST_CLIENT = os.path.join(ROOT, "Benchmarks", "gst_client.py")
FPS = 25
PATHS_PER_SERVER = 16


def log(message):
    print(message, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------ sources

def ensure_clip(seconds):
    os.makedirs(CACHE, exist_ok=True)
    clip = os.path.join(CACHE, f"bench_1080p25_4M_{seconds}s.mp4")
    if not os.path.exists(clip):
        log(f"making the 1080p test clip ({seconds} s, once)...")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25",
                        "-t", str(seconds), "-c:v", "libx264", "-preset", "veryfast", "-b:v", "4M", "-maxrate", "4M",
                        "-bufsize", "8M", "-g", "50", "-bf", "0", "-pix_fmt", "yuv420p", clip + ".tmp.mp4"], check=True)
        os.rename(clip + ".tmp.mp4", clip)
    return clip


class Sources:
    """GStreamer RTSP servers serving the clip under /c0 … /c{n-1}."""

    def __init__(self, clip, count):
        self.servers = []
        self.urls = []
        for first in range(0, count, PATHS_PER_SERVER):
            paths = [f"/c{i}" for i in range(first, min(count, first + PATHS_PER_SERVER))]
            args = ["/usr/bin/python3", PEER, "--port", "0", "--file", clip, "--protocols", "tcp"]
            for path in paths:
                args += ["--path", path]
            proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            line = proc.stdout.readline()
            if not line.startswith("READY "):
                proc.kill()
                self.close()
                raise SystemExit(f"GStreamer RTSP server did not start: {line!r}")
            self.servers.append(proc)
            self.urls += [f"rtsp://127.0.0.1:{int(line.split()[1])}{path}" for path in paths]

    def close(self):
        for proc in self.servers:
            proc.terminate()
        for proc in self.servers:
            proc.wait(timeout=10)


# ------------------------------------------------------------------------------------- measuring

def thread_files(pids, name):
    """The text of /proc/PID/task/TID/<name> for every live thread of the processes (threads that end while
    they are read are skipped)."""
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except FileNotFoundError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/{name}") as f:
                    yield f.read()
            except (FileNotFoundError, ProcessLookupError):
                pass


def cpu_seconds(pids):
    """CPU time (user + system) of the processes' live threads, in seconds, from each thread's
    /proc/PID/task/TID/schedstat (nanoseconds; /proc/PID/stat counts in 10 ms ticks, too coarse for one camera)."""
    total = 0
    for text in thread_files(pids, "schedstat"):
        try:
            total += int(text.split()[0])
        except (ValueError, IndexError):
            pass
    return total / 1e9


def user_system_ticks(pids):
    """User and kernel CPU of the processes' live threads, in clock ticks (/proc/PID/task/TID/stat): coarse
    (10 ms), but it splits the time, which schedstat does not; the split is applied to the schedstat total."""
    user = system = 0
    for text in thread_files(pids, "stat"):
        try:
            fields = text.rsplit(")", 1)[1].split()
            user, system = user + int(fields[11]), system + int(fields[12])
        except (ValueError, IndexError):
            pass
    return user, system


def peak_rss_mib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += int(f.read().split("VmHWM:")[1].split()[0])
        except (FileNotFoundError, IndexError):
            pass
    return total / 1024


def machine_ticks():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


class Window:
    """CPU of some processes and of the whole machine over a stretch of wall time."""

    def __init__(self, pids):
        self.pids = pids
        self.cpu0 = cpu_seconds(pids)
        self.split0 = user_system_ticks(pids)
        self.busy0, self.total0 = machine_ticks()
        self.load0 = os.getloadavg()[0]
        self.t0 = time.monotonic()

    def close(self):
        self.wall = time.monotonic() - self.t0
        self.cpu = cpu_seconds(self.pids) - self.cpu0
        user, system = (b - a for a, b in zip(self.split0, user_system_ticks(self.pids)))
        # The kernel's share of the CPU (system calls, and on loopback the peer's side of TCP run in our context).
        self.kernel_share = system / (user + system) if user + system else 0.0
        busy, total = machine_ticks()
        self.machine_percent = 100 * (busy - self.busy0) / max(1, total - self.total0)
        self.load = os.getloadavg()[0]
        return self


def wait_until(ready, warmup, cap=90):
    """Wait until `ready()` (every camera delivers: under load, 64 processes take a while to start and
    ffmpeg probes its input first), at most `cap` seconds, then `warmup` seconds more. Returns the wait."""
    started = time.monotonic()
    while not ready() and time.monotonic() - started < cap:
        time.sleep(0.5)
    time.sleep(warmup)
    return time.monotonic() - started


async def wait_until_async(ready, warmup, cap=90):
    started = time.monotonic()
    while not ready() and time.monotonic() - started < cap:
        await asyncio.sleep(0.5)
    await asyncio.sleep(warmup)
    return time.monotonic() - started


def per_camera(window, count, rss, lost, delivered):
    return {"cpuSecondsPerCameraMinute": window.cpu / count / (window.wall / 60),
            "cpuPercentOfOneCore": 100 * window.cpu / window.wall,
            "peakRSSMiBPerCamera": rss / count, "peakRSSMiB": rss,
            "framesLost": lost, "framesDelivered": delivered, "framesExpected": round(FPS * window.wall * count),
            # A tool that falls behind loses no frame it has seen but delivers fewer than the cameras send.
            "framesShort": max(0, round(FPS * window.wall * count) - delivered - count),
            "cpuMicrosecondsPerFrame": 1e6 * window.cpu / delivered if delivered else None,
            "kernelShareOfCPU": window.kernel_share,
            "cpuPercentOfMachine": 100 * window.cpu / window.wall / (os.cpu_count() or 1),
            "machineCPUPercent": window.machine_percent, "loadAverage": window.load, "seconds": window.wall}


# ------------------------------------------------------------------------------------------ fMP4

def mdhd_timescale(init):
    index = init.find(b"mdhd")
    if index < 0:
        return None
    version = init[index + 4]
    return struct.unpack_from(">I", init, index + (24 if version == 1 else 16))[0]


def tfdt(fragment):
    """baseMediaDecodeTime of a moof+mdat fragment (ISO/IEC 14496-12 §8.8.12), or None."""
    if len(fragment) < 8 or fragment[4:8] != b"moof":
        return None
    end = struct.unpack_from(">I", fragment, 0)[0]
    offset = 8
    while offset + 8 <= end:
        size, kind = struct.unpack_from(">I4s", fragment, offset)
        if kind == b"traf":
            inner = offset + 8
            while inner + 8 <= offset + size:
                size2, kind2 = struct.unpack_from(">I4s", fragment, inner)
                if kind2 == b"tfdt":
                    version = fragment[inner + 8]
                    return struct.unpack_from(">Q" if version == 1 else ">I", fragment, inner + 12)[0]
                inner += max(8, size2)
        offset += max(8, size)
    return None


class ViewerStats:
    def __init__(self):
        self.timescale = None
        self.recording = False
        self.fragments = 0
        self.lost = 0
        self.previous = None
        self.first_fragment_at = None
        # When each fragment came, for the gaps between them at the viewer (a frame held anywhere on its way,
        # in the kernel or the camera's server waiting for an ACK, shows here and not in the hub's own figure).
        self.arrivals = []
        self.media_times = []

    def fragment(self, data):
        now = time.monotonic()
        if self.first_fragment_at is None:
            self.first_fragment_at = now
        if not self.recording or self.timescale is None:
            return
        decode_time = tfdt(data)
        if decode_time is None:
            return
        self.fragments += 1
        self.arrivals.append(now)
        self.media_times.append(decode_time / self.timescale)
        if self.previous is not None:
            step = self.timescale / FPS
            missing = round((decode_time - self.previous) / step) - 1
            if missing > 0:
                self.lost += missing
        self.previous = decode_time

    def start(self):
        self.recording, self.fragments, self.lost, self.previous = True, 0, 0, None
        self.arrivals, self.media_times = [], []

    def gaps(self):
        return [b - a for a, b in zip(self.arrivals, self.arrivals[1:])]

    def delays(self):
        """Each frame's arrival minus its media time, less the smallest of these: how much later than the
        promptest frame of this viewer it came (the source's clock and ours run at the same rate over a
        window; what is left is every hold on the way: a paced read, a frame held by the camera's server)."""
        offsets = [a - m for a, m in zip(self.arrivals, self.media_times)]
        least = min(offsets, default=0)
        return [o - least for o in offsets]

    def stop(self):
        self.recording = False


def arrival_figures(stats):
    """Gaps between fragments at the viewers: a frame is late when it comes more than 1.5 frame intervals
    after the one before (the source's own jitter and the Python viewers' counts too)."""
    gaps = sorted(g for s in stats for g in s.gaps())
    delays = sorted(d for s in stats for d in s.delays())
    if not gaps:
        return {"framesLateAtViewer": 0, "gapP99Ms": None, "gapMaxMs": None, "gaps": 0,
                "delayP50Ms": None, "delayP99Ms": None}
    return {"framesLateAtViewer": sum(1 for g in gaps if g > 1.5 / FPS), "gapP99Ms": 1000 * percentile(gaps, 0.99),
            "gapMaxMs": 1000 * gaps[-1], "gaps": len(gaps),
            # Later than the promptest frame of the same viewer (median and p99 over every viewer's frames).
            "delayP50Ms": 1000 * percentile(delays, 0.5), "delayP99Ms": 1000 * percentile(delays, 0.99)}


async def viewer(base, camera, stats, stop):
    async with websockets.connect(f"ws://{base}/api/cameras/{camera}/live", max_size=None, max_queue=None,
                                  compression=None, ping_interval=None) as ws:
        expect_init = False
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.recv(), 1)
            except asyncio.TimeoutError:
                continue
            if isinstance(message, str):
                expect_init = '"type":"init"' in message.replace(" ", "")
            elif expect_init:
                stats.timescale = mdhd_timescale(message)
                expect_init = False
            else:
                stats.fragment(message)


# -------------------------------------------------------------------------------------- WatchBox

SERVE_ARGS = []  # --serve-args: extra `watchbox serve` options (e.g. --read-interval-ms 40)


class WatchBox:
    def __init__(self, binary):
        self.data = tempfile.mkdtemp(prefix="watchbox-bench-")
        # --max-streams 256: every camera of the run gets its upstream (the default limit is 16).
        self.proc = subprocess.Popen([binary, "serve", "--port", "0", "--data", self.data, "--log-level", "error",
                                      "--max-streams", "256", "--instrument"] + SERVE_ARGS,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        if "listening on http://" not in line:
            self.proc.kill()
            raise SystemExit(f"watchbox serve did not start: {line!r}")
        self.base = line.split("http://", 1)[1].split()[0]

    def api(self, method, path, body=None):
        request = urllib.request.Request(f"http://{self.base}{path}", method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return json.loads(text) if text else None

    def add_cameras(self, urls):
        return [self.api("POST", "/api/cameras", {"name": f"cam {i}", "rtspURL": url})["id"] for i, url in enumerate(urls)]

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.data, ignore_errors=True)


def latency_figures(hub):
    figures = hub.api("GET", "/api/debug/hub")
    latency = figures["latency"]
    return {"p50Ms": latency["p50Micros"] / 1000, "p99Ms": latency["p99Micros"] / 1000,
            "maxMs": latency["maxMicros"] / 1000, "meanMs": latency["meanMicros"] / 1000,
            "fragmentsTimed": latency["fragments"], "framesIn": latency["framesIn"],
            "hubDroppedFragments": figures["fragmentsDropped"], "hubSkips": figures["skips"]}


async def watch_window(hub, cameras, viewers_per_camera, warmup, seconds, existing=None):
    """Viewers (added to `existing`), warm-up, then one measured window. Returns (window, all viewers)."""
    viewers = existing if existing is not None else {"tasks": [], "stats": [], "stop": asyncio.Event()}
    for camera in cameras:
        for _ in range(viewers_per_camera):
            stats = ViewerStats()
            viewers["stats"].append(stats)
            viewers["tasks"].append(asyncio.create_task(viewer(hub.base, camera, stats, viewers["stop"])))
    await wait_until_async(lambda: all(st.first_fragment_at for st in viewers["stats"]), warmup)
    hub.api("DELETE", "/api/debug/hub")
    for stats in viewers["stats"]:
        stats.start()
    window = Window([hub.proc.pid])
    await asyncio.sleep(seconds)
    window.close()
    for stats in viewers["stats"]:
        stats.stop()
    return window, viewers


async def end_viewers(viewers):
    viewers["stop"].set()
    results = await asyncio.gather(*viewers["tasks"], return_exceptions=True)
    return [r for r in results if isinstance(r, Exception)]


async def measure_joins(hub, camera, joins):
    samples = []
    for _ in range(joins):
        started = time.monotonic()
        async with websockets.connect(f"ws://{hub.base}/api/cameras/{camera}/live", max_size=None, max_queue=None,
                                      compression=None, ping_interval=None) as ws:
            binaries = 0
            while True:
                message = await asyncio.wait_for(ws.recv(), 10)
                if isinstance(message, bytes):
                    binaries += 1
                    if binaries == 2:  # the init segment, then the first media fragment
                        samples.append((time.monotonic() - started) * 1000)
                        break
        await asyncio.sleep(0.1)
    samples.sort()
    return {"medianMs": statistics.median(samples), "p99Ms": percentile(samples, 0.99), "minMs": samples[0],
            "maxMs": samples[-1], "joins": len(samples)}


def percentile(sorted_samples, q):
    rank = max(1, min(len(sorted_samples), int(q * len(sorted_samples) + 0.999999)))
    return sorted_samples[rank - 1]


async def measure_watchbox(binary, urls, warmup, seconds, joins):
    hub = WatchBox(binary)
    try:
        cameras = hub.add_cameras(urls)
        window, viewers = await watch_window(hub, cameras, 1, warmup, seconds)
        rss = peak_rss_mib([hub.proc.pid])
        latency = latency_figures(hub)
        lost = sum(s.lost for s in viewers["stats"])
        delivered = sum(s.fragments for s in viewers["stats"])
        result = per_camera(window, len(urls), rss, lost, delivered)
        result["latency"] = latency
        result["arrival"] = arrival_figures(viewers["stats"])
        result["viewersWithoutFrames"] = sum(1 for s in viewers["stats"] if s.fragments == 0)
        join = await measure_joins(hub, cameras[0], joins) if joins else None
        errors = await end_viewers(viewers)
        result["viewerErrors"] = [str(e) for e in errors]
        return result, join
    finally:
        hub.close()


async def measure_fanout(binary, url, steps, warmup, seconds):
    hub = WatchBox(binary)
    results = {}
    try:
        camera = hub.add_cameras([url])[0]
        viewers, have = None, 0
        for step in steps:
            window, viewers = await watch_window(hub, [camera], step - have, warmup, seconds, viewers)
            have = step
            stats = viewers["stats"]
            results[str(step)] = {"cpuSecondsPerMinute": window.cpu / (window.wall / 60),
                                  "cpuPercentOfOneCore": 100 * window.cpu / window.wall,
                                  "framesLost": sum(s.lost for s in stats),
                                  "framesDelivered": sum(s.fragments for s in stats),
                                  "machineCPUPercent": window.machine_percent, "loadAverage": window.load,
                                  "latency": latency_figures(hub), "seconds": window.wall}
        await end_viewers(viewers)
    finally:
        hub.close()
    return results


# ----------------------------------------------------------------------------------------- peers

def progress_block(path):
    """frame and out_time_us of the last complete block of an ffmpeg -progress file."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return None
    blocks = text.split("progress=")
    for block in reversed(blocks[:-1] if not text.endswith("\n") else blocks):
        values = dict(line.split("=", 1) for line in block.strip().splitlines() if "=" in line)
        if "frame" in values and values.get("out_time_us", "N/A") not in ("N/A", ""):
            return int(values["frame"]), int(values["out_time_us"])
    return None


def measure_ffmpeg(urls, warmup, seconds):
    folder = tempfile.mkdtemp(prefix="watchbox-bench-ffmpeg-")
    procs = []
    for i, url in enumerate(urls):
        progress = os.path.join(folder, f"{i}.txt")
        procs.append(subprocess.Popen(
            ["ffmpeg", "-v", "error", "-nostdin", "-rtsp_transport", "tcp", "-i", url, "-c", "copy", "-f", "mp4",
             "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-progress", progress, "-stats_period", "0.5",
             "pipe:"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        files = [os.path.join(folder, f"{i}.txt") for i in range(len(urls))]
        wait_until(lambda: all(progress_block(f) for f in files), warmup)
        before = [progress_block(f) for f in files]
        window = Window([p.pid for p in procs])
        time.sleep(seconds)
        window.close()
        after = [progress_block(f) for f in files]
        rss = peak_rss_mib([p.pid for p in procs])
        lost = delivered = 0
        for a, b in zip(before, after):
            if a is None or b is None:
                continue
            frames = b[0] - a[0]
            spanned = round((b[1] - a[1]) / 1e6 * FPS)
            delivered += frames
            lost += max(0, spanned - frames - 1)  # -1: the two samples may straddle one frame
        result = per_camera(window, len(urls), rss, lost, delivered)
        result["processesWithoutProgress"] = sum(1 for a, b in zip(before, after) if a is None or b is None)
        return result
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(folder, ignore_errors=True)


def measure_gstreamer(urls, warmup, seconds):
    proc = subprocess.Popen(["/usr/bin/python3", GST_CLIENT, "--fragment-ms", "40", *urls],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def stats():
        proc.stdin.write("stats\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    try:
        if proc.stdout.readline().strip() != "READY":
            raise SystemExit("the GStreamer client did not start")
        wait_until(lambda: all(frames > 0 for frames, _ in stats()), warmup)
        before = stats()
        window = Window([proc.pid])
        time.sleep(seconds)
        window.close()
        after = stats()
        rss = peak_rss_mib([proc.pid])
        lost = delivered = 0
        for (frames0, pts0), (frames1, pts1) in zip(before, after):
            frames = frames1 - frames0
            delivered += frames
            if pts0 >= 0 and pts1 >= 0:
                lost += max(0, round((pts1 - pts0) / 1e9 * FPS) - frames)
        result = per_camera(window, len(urls), rss, lost, delivered)
        result["pipelinesWithoutFrames"] = sum(1 for (a, _), (b, _) in zip(before, after) if b == a)
        return result
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


# ------------------------------------------------------------------------------------------ micro

def microbenchmarks(bin_dir, url, capture_seconds, runs, megabytes=None):
    capture = os.path.join(CACHE, f"suite_{capture_seconds}s.rtspcap")
    subprocess.run([os.path.join(bin_dir, "watchbox"), "capture", url, "--duration", str(capture_seconds), "-o", capture],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    extra = ["--min-megabytes", str(megabytes)] if megabytes else []
    output = subprocess.run([os.path.join(bin_dir, "watchbox-bench"), capture, "--json", "--runs", str(runs), *extra],
                            capture_output=True, text=True, check=True).stdout
    return {row["name"]: row["megabytesPerSecond"] for row in json.loads(output)}


# ----------------------------------------------------------------------------------------- report

def tool_versions(bin_dir):
    def first_line(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0].strip()
        except (OSError, IndexError):
            return "?"
    return {"swift": first_line(["swift", "--version"]), "ffmpeg": first_line(["ffmpeg", "-version"]),
            "gstreamer": first_line(["gst-launch-1.0", "--version"]).replace("gst-launch-1.0 ", ""),
            "watchbox": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                       text=True).stdout.strip(), "binaries": bin_dir}


def print_report(results):
    machine = results["machine"]
    print(f"\nWatchBox benchmark suite, {machine['date']}, {machine['cpus']} cores, {machine['platform']}")
    print(f"  load average at start {machine['loadAtStart']:.2f}; {results['config']['seconds']:g} s windows after "
          f"{results['config']['warmup']:g} s warm-up; 1920x1080 25 fps ~4 Mbit/s H.264 per camera, GStreamer RTSP on loopback")
    print(f"  {results['versions']['ffmpeg']}; GStreamer {results['versions']['gstreamer']}; "
          f"{results['versions']['swift']}\n")
    ingest = results["ingest"]
    print("Ratios, WatchBox / peer (CPU per camera; targets: <= 0.25 of ffmpeg)")
    print(f"{'cameras':>8} {'vs ffmpeg CPU':>14} {'per frame':>10} {'vs GStreamer CPU':>17} {'per frame':>10} "
          f"{'vs ffmpeg RSS':>14} {'vs GStreamer RSS':>17}")
    for n, row in ingest.items():
        w, f, g = row["watchbox"], row["ffmpeg"], row["gstreamer"]
        print(f"{n:>8} {ratio(w, f, 'cpuSecondsPerCameraMinute'):>14} {ratio(w, f, 'cpuMicrosecondsPerFrame'):>10} "
              f"{ratio(w, g, 'cpuSecondsPerCameraMinute'):>17} {ratio(w, g, 'cpuMicrosecondsPerFrame'):>10} "
              f"{ratio(w, f, 'peakRSSMiBPerCamera'):>14} {ratio(w, g, 'peakRSSMiBPerCamera'):>17}")
    print(f"\n{'cameras':>8} {'tool':<10} {'CPU s/cam-min':>14} {'CPU us/frame':>13} {'% of machine':>13} {'peak RSS/cam':>13} "
          f"{'in kernel':>10} {'frames lost':>12} {'short':>7} {'delivered':>10} {'machine busy':>13}")
    for n, row in ingest.items():
        for tool in ("watchbox", "ffmpeg", "gstreamer"):
            r = row[tool]
            print(f"{n:>8} {tool:<10} {r['cpuSecondsPerCameraMinute']:14.2f} {r['cpuMicrosecondsPerFrame'] or 0:13.0f} "
                  f"{r['cpuPercentOfMachine']:12.1f}% {r['peakRSSMiBPerCamera']:10.1f} MB "
                  f"{100 * r.get('kernelShareOfCPU', 0):9.0f}% {r['framesLost']:12d} "
                  f"{r['framesShort']:7d} {r['framesDelivered']:10d} {r['machineCPUPercent']:12.0f}%")
    print("\nHub-added latency (last RTP packet of a frame -> fragment written to the WebSocket)")
    print(f"{'cameras':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'fragments':>10} {'hub drops':>10}   "
          f"at the viewers: {'late':>6} {'of':>7} {'gap p99 ms':>11} {'gap max ms':>11} {'delay p50':>10} {'p99 ms':>7}")
    for n, row in ingest.items():
        lat, arr = row["watchbox"]["latency"], row["watchbox"]["arrival"]
        print(f"{n:>8} {lat['p50Ms']:8.3f} {lat['p99Ms']:8.3f} {lat['maxMs']:8.3f} {lat['fragmentsTimed']:10d} "
              f"{lat['hubDroppedFragments']:10d}   {'':>15} {arr['framesLateAtViewer']:6d} {arr['gaps']:7d} "
              f"{arr['gapP99Ms'] or 0:11.1f} {arr['gapMaxMs'] or 0:11.1f} {arr['delayP50Ms'] or 0:10.1f} "
              f"{arr['delayP99Ms'] or 0:7.1f}")
    join = results.get("timeToFirstFrame")
    if join is None:  # --joins 0
        join = {"medianMs": float("nan"), "p99Ms": float("nan"), "joins": 0}
    print(f"\nTime to first frame (WebSocket open -> first fragment, camera live): median {join['medianMs']:.1f} ms, "
          f"p99 {join['p99Ms']:.1f} ms over {join['joins']} joins")
    fanout = results["fanout"]
    first = next(iter(fanout.values()))
    print("\nFan-out, one camera (target: 50 viewers < 3x one viewer's CPU)")
    print(f"{'viewers':>8} {'CPU s/min':>10} {'x 1 viewer':>11} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'frames lost':>12}")
    for v, r in fanout.items():
        factor = r["cpuSecondsPerMinute"] / first["cpuSecondsPerMinute"] if first["cpuSecondsPerMinute"] else float("nan")
        lat = r["latency"]
        print(f"{v:>8} {r['cpuSecondsPerMinute']:10.2f} {factor:10.2f}x {lat['p50Ms']:8.3f} {lat['p99Ms']:8.3f} "
              f"{lat['maxMs']:8.3f} {r['framesLost']:12d}")
    micro = results["micro"]
    print(f"\nMicrobenchmarks on a {results['config']['captureSeconds']} s capture (MB/s, median of "
          f"{results['config']['microRuns']} runs)")
    for name, rate in micro.items():
        print(f"  {name:<28} {rate:10.1f}")


def ratio(ours, theirs, key):
    return f"{ours[key] / theirs[key]:.2f}x" if theirs.get(key) else "n/a"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cameras", default="1,8,32,64")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--joins", type=int, default=50)
    parser.add_argument("--fanout", default="1,10,50")
    parser.add_argument("--capture-seconds", type=int, default=10)
    parser.add_argument("--micro-runs", type=int, default=15)
    parser.add_argument("--micro-megabytes", type=int, help="bytes per timed microbenchmark run (watchbox-bench's default: 32)")
    parser.add_argument("--clip-seconds", type=int, default=20)
    parser.add_argument("--tools", default="watchbox,ffmpeg,gstreamer")
    parser.add_argument("--serve-args", default="", help="extra options for `watchbox serve`, e.g. '--read-interval-ms 40'")
    parser.add_argument("--binary-dir", help="use the watchbox and watchbox-bench in this folder (no release build)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest configuration (1 camera, short windows): what the test runs")
    parser.add_argument("--json", default=os.path.join(ROOT, ".bench-cache", "results-suite.json"))
    args = parser.parse_args()
    if args.smoke:
        args.cameras, args.seconds, args.warmup, args.joins = "1", 6, 2.5, 10
        args.fanout, args.capture_seconds, args.micro_runs, args.clip_seconds = "1,3", 2, 3, 4
        args.micro_megabytes = 2
    SERVE_ARGS.extend(args.serve_args.split())
    counts = [int(x) for x in args.cameras.split(",")]
    steps = [int(x) for x in args.fanout.split(",")]
    tools = args.tools.split(",")

    bin_dir = args.binary_dir
    if not bin_dir:
        log("building the release binaries...")
        subprocess.run(["swift", "build", "-c", "release", "--product", "watchbox"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["swift", "build", "-c", "release", "--product", "watchbox-bench"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout.strip()
    binary = os.path.join(bin_dir, "watchbox")
    started = time.monotonic()
    results = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "date": time.strftime("%Y-%m-%d %H:%M"),
                           "loadAtStart": os.getloadavg()[0]},
               "versions": tool_versions(bin_dir),
               "config": {"serveArgs": SERVE_ARGS, "seconds": args.seconds, "warmup": args.warmup, "joins": args.joins, "fanout": steps,
                          "cameras": counts, "captureSeconds": args.capture_seconds, "microRuns": args.micro_runs,
                          "smoke": args.smoke},
               "ingest": {}}
    clip = ensure_clip(args.clip_seconds)
    sources = Sources(clip, max(counts))
    try:
        for n in counts:
            urls = sources.urls[:n]
            row = {}
            if "watchbox" in tools:
                log(f"{n} camera(s): WatchBox...")
                row["watchbox"], join = asyncio.run(measure_watchbox(binary, urls, args.warmup, args.seconds,
                                                                     args.joins if "timeToFirstFrame" not in results else 0))
                if join:
                    results["timeToFirstFrame"] = join
            if "ffmpeg" in tools:
                log(f"{n} camera(s): ffmpeg...")
                row["ffmpeg"] = measure_ffmpeg(urls, args.warmup, args.seconds)
            if "gstreamer" in tools:
                log(f"{n} camera(s): GStreamer...")
                row["gstreamer"] = measure_gstreamer(urls, args.warmup, args.seconds)
            results["ingest"][str(n)] = row
        if "watchbox" in tools:
            log(f"fan-out {steps}...")
            results["fanout"] = asyncio.run(measure_fanout(binary, sources.urls[0], steps, min(args.warmup, 3), args.seconds))
            log("microbenchmarks...")
            results["micro"] = microbenchmarks(bin_dir, sources.urls[0], args.capture_seconds, args.micro_runs,
                                               args.micro_megabytes)
    finally:
        sources.close()
    results["suiteSeconds"] = time.monotonic() - started
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=2)
    if set(tools) == {"watchbox", "ffmpeg", "gstreamer"}:
        print_report(results)
    print(f"\nJSON: {args.json} ({results['suiteSeconds']:.0f} s)")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    main()
