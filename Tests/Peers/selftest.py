#!/usr/bin/python3
"""Checks that rtsp_server.py really serves what WatchBox's integration tests expect.

Uses ffprobe (an independent RTSP client) and raw sockets, on 127.0.0.1 only:
H.264 over TCP and UDP, Digest authentication (401 for a wrong password), H.265 with AAC
audio, RTSPS with a throwaway self-signed certificate, and a session timeout that is
enforced on a TCP-interleaved session without keepalives but not on one with them.

Prints one line per check and exits 1 if any failed; scripts/test runs it before the
Swift tests, so a broken GStreamer install shows up as such and not as a riddle.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "rtsp_server.py")
SMALL = ["--width", "320", "--height", "240"]


class Peer:
    def __init__(self, *arguments):
        self.process = subprocess.Popen(
            ["/usr/bin/python3", SERVER, "--port", "0", *arguments],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("READY "):
            self.process.kill()
            _, errors = self.process.communicate(timeout=10)
            raise AssertionError(f"the server did not print READY (said {line!r}): {errors.strip()[-600:]}")
        self.port = int(line.split()[1])

    def url(self, scheme="rtsp", credentials=""):
        return f"{scheme}://{credentials}127.0.0.1:{self.port}/stream"

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("the server did not stop within 10 s of SIGTERM")
        if code != 0:
            raise AssertionError(f"the server exited with status {code} on SIGTERM")


def ffprobe(url, transport="tcp"):
    command = ["ffprobe", "-v", "error", "-rtsp_transport", transport,
               "-show_entries", "stream=codec_name,width,height", "-of", "compact=p=0:nk=1", url]
    result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout.split(), result.stderr


def expect_streams(url, wanted, transport="tcp"):
    code, streams, errors = ffprobe(url, transport)
    if code != 0 or streams != wanted:
        raise AssertionError(f"ffprobe -rtsp_transport {transport} {url}: expected {wanted}, "
                             f"got {streams} (exit {code}) {errors.strip()[-300:]}")


def check_h264_tcp_udp():
    with Peer() as peer:
        expect_streams(peer.url(), ["h264|1280|720"], "tcp")
        expect_streams(peer.url(), ["h264|1280|720"], "udp")


def check_digest():
    with Peer("--auth", "digest", "--user", "admin", "--password", "s3cret", *SMALL) as peer:
        expect_streams(peer.url(credentials="admin:s3cret@"), ["h264|320|240"])
        code, _, errors = ffprobe(peer.url(credentials="admin:wrong@"))
        if code == 0 or "401" not in errors:
            raise AssertionError(f"a wrong password was not refused with 401 (exit {code}): {errors.strip()[-300:]}")


def check_h265_aac():
    with Peer("--codec", "h265", "--audio", "aac", *SMALL) as peer:
        expect_streams(peer.url(), ["hevc|320|240", "aac"])


def check_tls():
    directory = tempfile.mkdtemp(prefix="watchbox-selftest-")
    try:
        cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
                       stdin=subprocess.DEVNULL, capture_output=True, check=True, timeout=60)
        with Peer("--tls-cert", cert, "--tls-key", key, *SMALL) as peer:
            expect_streams(peer.url("rtsps"), ["h264|320|240"])
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def play_over_tcp(port, seconds, keepalive_every):
    """Plays /stream over TCP; returns (connection closed by the server, seconds until then)."""
    url = f"rtsp://127.0.0.1:{port}/stream"
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    buffered = b""

    def request(cseq, method, target, headers=""):
        connection.sendall(f"{method} {target} RTSP/1.0\r\nCSeq: {cseq}\r\n{headers}\r\n".encode())

    def response():
        nonlocal buffered
        while True:
            while buffered[:1] == b"$" and len(buffered) >= 4:  # skip interleaved frames
                length = int.from_bytes(buffered[2:4], "big")
                if len(buffered) < 4 + length:
                    break
                buffered = buffered[4 + length:]
            end = buffered.find(b"\r\n\r\n")
            if buffered.startswith(b"RTSP/1.0") and end >= 0:
                head = buffered[:end].decode()
                match = re.search(r"content-length:\s*(\d+)", head, re.I)
                total = end + 4 + (int(match.group(1)) if match else 0)
                if len(buffered) >= total:
                    body, buffered = buffered[end + 4:total], buffered[total:]
                    return head, body.decode()
            data = connection.recv(65536)
            if not data:
                raise AssertionError("the server closed the connection during setup")
            buffered += data

    try:
        request(1, "DESCRIBE", url, "Accept: application/sdp\r\n")
        _, sdp = response()
        control = re.findall(r"a=control:(\S+)", sdp)[-1]
        track = control if control.startswith("rtsp") else f"{url}/{control}"
        request(2, "SETUP", track, "Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n")
        head, _ = response()
        session = re.search(r"Session:\s*([^;\r\n]+)", head).group(1)
        request(3, "PLAY", url, f"Session: {session}\r\n")
        response()
        started = last = time.monotonic()
        cseq = 4
        connection.settimeout(0.25)
        while time.monotonic() - started < seconds:
            if keepalive_every and time.monotonic() - last >= keepalive_every:
                request(cseq, "GET_PARAMETER", url, f"Session: {session}\r\n")
                cseq += 1
                last = time.monotonic()
            try:
                if not connection.recv(65536):
                    return True, time.monotonic() - started
            except socket.timeout:
                pass
        return False, seconds
    finally:
        connection.close()


def check_session_timeout():
    with Peer("--session-timeout", "2", *SMALL) as peer:
        closed, after = play_over_tcp(peer.port, 6, keepalive_every=None)
        if not closed:
            raise AssertionError("a TCP session without keepalives was still open 6 s after PLAY (timeout 2 s)")
        if after < 1.5:
            raise AssertionError(f"the session without keepalives was closed after only {after:.1f} s (timeout 2 s)")
        closed, after = play_over_tcp(peer.port, 5, keepalive_every=0.8)
        if closed:
            raise AssertionError(f"a session kept alive with GET_PARAMETER was closed after {after:.1f} s")


CHECKS = [
    ("H.264 1280x720 over TCP and UDP", check_h264_tcp_udp),
    ("Digest authentication, 401 on a wrong password", check_digest),
    ("H.265 with AAC audio", check_h265_aac),
    ("RTSPS with a self-signed certificate", check_tls),
    ("session timeout enforced over TCP, keepalive honoured", check_session_timeout),
]


def main():
    for tool in ("ffprobe", "openssl"):
        if shutil.which(tool) is None:
            print(f"selftest: {tool} is missing (apt-get install {'ffmpeg' if tool == 'ffprobe' else tool})")
            return 1
    failed = 0
    for name, check in CHECKS:
        started = time.monotonic()
        try:
            check()
            print(f"  ok      {name} ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception as error:  # report every check, then fail
            failed += 1
            print(f"  FAILED  {name}: {error}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
