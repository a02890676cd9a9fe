#!/usr/bin/python3
"""The hub's browser suite, end to end: starts `watchbox serve` on a fresh data directory and four
GStreamer RTSP cameras on loopback (one with Digest auth), then runs Tests/Browser/run.py against them:
cameras added through the UI, four videos playing, a non-blank screenshot, drag reorder surviving a
reload, a wrong password shown as such, a camera server killed and restarted (reconnecting, then video
again without a reload), full screen, off-screen pause, keyboard.

    Tests/Browser/hub_suite.py [--watchbox .build/debug/watchbox] [--artifacts DIR]

Exit status: that of run.py (0 = every test passed). Loopback only.
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")
PYTHON = os.environ.get("WATCHBOX_PYTHON", "/usr/bin/python3")
SIZE = ("640", "360")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def camera_args(port, path, auth=False):
    args = [PYTHON, PEER, "--port", str(port), "--path", path, "--width", SIZE[0], "--height", SIZE[1],
            "--key-int", "25", "--bitrate", "800", "--no-exit-with-parent"]
    if auth:
        args += ["--auth", "digest", "--user", "admin", "--password", "s3cret"]
    return args


def start_camera(port, path, auth=False):
    proc = subprocess.Popen(camera_args(port, path, auth), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY"):
        raise SystemExit(f"hub_suite: the GStreamer camera on port {port} did not start ({line!r})")
    return proc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--watchbox", default=os.path.join(ROOT, ".build", "debug", "watchbox"))
    parser.add_argument("--artifacts", default=os.path.join(ROOT, ".test-artifacts", "browser"))
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)

    data = tempfile.mkdtemp(prefix="watchbox-browser-")
    pidfile = os.path.join(data, "restored-camera.pid")
    ports = [free_port() for _ in range(4)]
    cameras, server = [], None
    try:
        cameras = [start_camera(ports[0], "/front"), start_camera(ports[1], "/drive"),
                   start_camera(ports[2], "/back"), start_camera(ports[3], "/side", auth=True)]
        log = open(os.path.join(args.artifacts, "watchbox-serve.log"), "w")
        server = subprocess.Popen([args.watchbox, "serve", "--port", "0", "--data", os.path.join(data, "db"),
                                   "--grace", "5"], stdout=subprocess.PIPE, stderr=log, text=True)
        line = server.stdout.readline()
        if "listening on http://" not in line:
            raise SystemExit(f"hub_suite: watchbox serve did not start ({line!r}); see {log.name}")
        base = "http://" + line.split("http://", 1)[1].split()[0]
        print(f"hub_suite: {base}, cameras on ports {ports}", flush=True)

        drive = cameras[1]
        restore = " ".join(camera_args(ports[1], "/drive")) + f" >/dev/null 2>&1 & echo $! > {pidfile}"
        command = [PYTHON, os.path.join(ROOT, "Tests", "Browser", "run.py"), "--server", base,
                   "--camera", f"Front=rtsp://127.0.0.1:{ports[0]}/front",
                   "--camera", f"Drive=rtsp://127.0.0.1:{ports[1]}/drive",
                   "--camera", f"Back=rtsp://127.0.0.1:{ports[2]}/back",
                   "--camera", f"Side=rtsp://admin:s3cret@127.0.0.1:{ports[3]}/side",
                   "--wrong-password-camera", f"rtsp://admin:wrong@127.0.0.1:{ports[3]}/side",
                   "--break-camera", "Drive", "--break-command", f"kill -9 {drive.pid}",
                   "--restore-command", restore,
                   "--size", f"{SIZE[0]}x{SIZE[1]}", "--screenshots", args.artifacts]
        status = subprocess.run(command).returncode
        # SIGTERM stops the server cleanly: viewers closed, camera sessions torn down, exit status 0.
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            print("FAIL shutdown: watchbox serve did not stop within 15 s of SIGTERM", flush=True)
            return 1
        if code != 0:
            print(f"FAIL shutdown: watchbox serve exited with status {code} after SIGTERM", flush=True)
            return 1
        print(f"PASS shutdown: SIGTERM stopped watchbox serve in {time.monotonic() - started:.1f} s", flush=True)
        return status
    finally:
        if server and server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        for camera in cameras:
            if camera.poll() is None:
                camera.kill()
        if os.path.exists(pidfile):
            try:
                os.kill(int(open(pidfile).read().strip()), signal.SIGKILL)
            except (ValueError, ProcessLookupError):
                pass
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
