#!/usr/bin/python3
"""The GStreamer peer of the benchmark suite: N RTSP pulls remuxed to fragmented MP4, in one process.

    gst_client.py --fragment-ms 40 rtsp://127.0.0.1:PORT/c0 rtsp://127.0.0.1:PORT/c1 ...

One pipeline per URL: `rtspsrc protocols=tcp ! rtph264depay ! h264parse ! mp4mux fragment-duration=… ! fakesink`.
A buffer probe on each h264parse's source pad counts the frames and keeps the last one's timestamp, so the
suite can tell frames lost from the timestamps' span. Prints READY once the pipelines play; then each line
"stats" read on stdin is answered with one JSON line: [[frames, last_pts_ns], ...] in URL order.
"""
import argparse
import json
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fragment-ms", type=int, default=40)
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    Gst.init(None)
    counters = [[0, -1] for _ in args.urls]
    lock = threading.Lock()
    pipelines = []
    for index, url in enumerate(args.urls):
        pipeline = Gst.parse_launch(
            f"rtspsrc location={url} protocols=tcp ! rtph264depay ! h264parse name=parse ! "
            f"mp4mux fragment-duration={args.fragment_ms} streamable=true ! fakesink sync=false")

        def probe(_pad, info, index=index):
            buffer = info.get_buffer()
            with lock:
                counters[index][0] += 1
                if buffer.pts != Gst.CLOCK_TIME_NONE:
                    counters[index][1] = buffer.pts
            return Gst.PadProbeReturn.OK

        pipeline.get_by_name("parse").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, probe)
        bus = pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message::error", lambda _bus, message, url=url: print(
            f"gst_client: {url}: {message.parse_error()[0].message}", file=sys.stderr, flush=True))
        pipeline.set_state(Gst.State.PLAYING)
        pipelines.append(pipeline)
    loop = GLib.MainLoop()

    def commands():
        print("READY", flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                with lock:
                    print(json.dumps(counters), flush=True)
        GLib.idle_add(loop.quit)

    threading.Thread(target=commands, daemon=True).start()
    loop.run()
    for pipeline in pipelines:
        pipeline.set_state(Gst.State.NULL)


if __name__ == "__main__":
    main()
