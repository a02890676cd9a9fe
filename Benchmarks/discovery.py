#!/usr/bin/python3
"""Time to scan a /24 on five ports with `watchbox discover`, on a namespace test network (issue #5; aim < 3 s).

    sudo Benchmarks/discovery.py [--watchbox PATH] [--runs 5] [--json out.json]

Builds, as root, a network of Linux network namespaces that exists only for the benchmark (the network rule):
a scanner namespace with a bridge 10.79.0.1/24, and host namespaces joined to it by veth pairs. Two layouts:

  crowded  every address 10.79.0.2-254 is live (one host namespace holding 253 addresses): each closed port
           answers with a RST at once; two GStreamer cameras (Digest auth) answer RTSP on 554 and 8554.
  sparse   only 10.79.0.10 and 10.79.0.11 exist (the cameras); the other 251 addresses do not answer ARP,
           so each connection attempt to them runs into the connect timeout (the first attempt's 250 ms, then
           the retry's 500 ms; the neighbour table then tells the scanner to skip their other four ports).

Each layout: `watchbox discover --subnet 10.79.0.0/24 --ports 554,8554,88,7447,5000 --no-onvif --json
--username admin --password s3cret` (1,270 connection attempts, two cameras' stream paths found with DESCRIBE),
--runs times; prints each run and the median wall time. The output is checked: both cameras with their URLs.
Use a release build (`swift build -c release`) for numbers worth comparing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")
TCP_PEER = os.path.join(ROOT, "Tests", "Peers", "tcp_peer.py")
PYTHON = os.environ.get("WATCHBOX_PYTHON", "/usr/bin/python3")
PREFIX = f"wbbench{os.getpid() % 10000}"


def ip(*args, check=True):
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def start(namespace, argv):
    process = subprocess.Popen(["ip", "netns", "exec", namespace, *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line.startswith("READY "):
        raise SystemExit(f"discovery.py: {argv[1]} did not start in {namespace} ({line!r})")
    return process, int(line.split()[1])


class Network:
    def __init__(self, layout):
        self.scanner = f"{PREFIX}-s"
        self.namespaces = [self.scanner]
        self.processes = []
        ip("netns", "add", self.scanner)
        ip("-n", self.scanner, "link", "set", "lo", "up")
        ip("-n", self.scanner, "link", "add", "br0", "type", "bridge")
        ip("-n", self.scanner, "addr", "add", "10.79.0.1/24", "dev", "br0")
        ip("-n", self.scanner, "link", "set", "br0", "up")
        if layout == "crowded":
            host = self.add_host(1, [f"10.79.0.{n}" for n in range(2, 255)])
            cameras = [(host, "10.79.0.10"), (host, "10.79.0.11")]
        else:
            cameras = [(self.add_host(1, ["10.79.0.10"]), "10.79.0.10"), (self.add_host(2, ["10.79.0.11"]), "10.79.0.11")]
        for (namespace, address), (port, path) in zip(cameras, [(554, "/Streaming/Channels/101"), (8554, "/stream1")]):
            process, internal = start(namespace, [PYTHON, PEER, "--port", "0", "--path", path, "--width", "320", "--height", "240",
                                                  "--auth", "digest", "--user", "admin", "--password", "s3cret"])
            self.processes.append(process)
            relay, _ = start(namespace, [PYTHON, TCP_PEER, "relay", "--host", address, "--listen", str(port), "--to", str(internal)])
            self.processes.append(relay)

    def add_host(self, number, addresses):
        name = f"{PREFIX}-h{number}"
        ip("netns", "add", name)
        self.namespaces.append(name)
        ip("-n", name, "link", "set", "lo", "up")
        ip("-n", name, "link", "add", "eth0", "type", "veth", "peer", "name", f"v{number}", "netns", self.scanner)
        for address in addresses:
            ip("-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
        ip("-n", name, "link", "set", "eth0", "up")
        ip("-n", self.scanner, "link", "set", f"v{number}", "master", "br0")
        ip("-n", self.scanner, "link", "set", f"v{number}", "up")
        return name

    def close(self):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        for namespace in reversed(self.namespaces):
            ip("netns", "delete", namespace, check=False)


def scan(network, watchbox):
    started = time.monotonic()
    result = subprocess.run(["ip", "netns", "exec", network.scanner, watchbox, "discover", "--subnet", "10.79.0.0/24",
                             "--ports", "554,8554,88,7447,5000", "--no-onvif", "--json",
                             "--username", "admin", "--password", "s3cret"], capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"discovery.py: watchbox discover failed: {result.stderr}")
    found = {device["ip"]: device["rtspURLs"] for device in json.loads(result.stdout)}
    expected = {"10.79.0.10": ["rtsp://10.79.0.10:554/Streaming/Channels/101"], "10.79.0.11": ["rtsp://10.79.0.11:8554/stream1"]}
    if found != expected:
        raise SystemExit(f"discovery.py: expected {expected}, found {found}")
    return elapsed


def main():
    parser = argparse.ArgumentParser()
    default = os.path.join(ROOT, ".build", "release", "watchbox")
    if not os.path.exists(default):
        default = os.path.join(ROOT, ".build", "debug", "watchbox")
    parser.add_argument("--watchbox", default=default)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--layouts", default="crowded,sparse")
    parser.add_argument("--json")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("discovery.py: needs root (it creates network namespaces)")
    print(f"watchbox: {args.watchbox}")
    report = {}
    for layout in args.layouts.split(","):
        network = Network(layout)
        try:
            times = [scan(network, args.watchbox) for _ in range(args.runs)]
        finally:
            network.close()
        median = statistics.median(times)
        report[layout] = {"runs": times, "median": median}
        print(f"{layout:8} /24 x 5 ports: median {median:.2f} s over {args.runs} runs "
              f"({', '.join(f'{t:.2f}' for t in times)})", flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
