#!/usr/bin/python3
"""Plays a fragmented MP4 written by `watchbox record` in headless Chromium through Media Source
Extensions, the way the live view does: the page splits the file into its initialization segment
(ftyp+moov) and its fragments (moof+mdat), appends them one by one to a SourceBuffer, and plays.

Passes when the video's currentTime advances past 1.5 s, videoWidth/videoHeight match, and a frame
drawn onto a canvas is not blank (its pixels vary).

Usage: record_mse_test.py FILE.mp4 WIDTH HEIGHT [MIME]   (exit 0 = pass; the reason is printed otherwise)
MIME defaults to one built from ffprobe's answer; pass the one `watchbox record --json` printed to test
WatchBox's own RFC 6381 codec string.
Needs Debian's chromium and chromium-driver, and python3-selenium. Serves on 127.0.0.1 only.
"""

import http.server
import json
import os
import socketserver
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

PAGE = """<!doctype html>
<meta charset="utf-8">
<video id="v" muted autoplay playsinline width="320"></video>
<canvas id="c" width="64" height="36"></canvas>
<script>
window.result = {state: "starting", errors: []};
function boxes(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let offset = 0;
  while (offset + 8 <= bytes.byteLength) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (size === 1) size = Number(view.getBigUint64(offset + 8));
    if (size < 8 || offset + size > bytes.byteLength) { window.result.errors.push("bad box at " + offset); break; }
    out.push({type, start: offset, end: offset + size});
    offset += size;
  }
  return out;
}
async function main() {
  const bytes = new Uint8Array(await (await fetch("/file.mp4")).arrayBuffer());
  const list = boxes(bytes);
  const moov = list.findIndex(b => b.type === "moov");
  const init = bytes.subarray(0, list[moov].end);
  const fragments = [];
  for (let i = moov + 1; i < list.length; i++) {
    if (list[i].type === "moof" && list[i + 1] && list[i + 1].type === "mdat") {
      fragments.push(bytes.subarray(list[i].start, list[i + 1].end));
      i++;
    }
  }
  window.result.fragments = fragments.length;
  const mime = MIME;
  window.result.supported = MediaSource.isTypeSupported(mime);
  const ms = new MediaSource();
  const video = document.getElementById("v");
  video.src = URL.createObjectURL(ms);
  await new Promise(r => ms.addEventListener("sourceopen", r, {once: true}));
  const sb = ms.addSourceBuffer(mime);
  const append = chunk => new Promise((resolve, reject) => {
    sb.addEventListener("updateend", resolve, {once: true});
    sb.addEventListener("error", () => reject(new Error("SourceBuffer error")), {once: true});
    sb.appendBuffer(chunk);
  });
  await append(init);
  for (const f of fragments) await append(f);
  ms.endOfStream();
  window.result.buffered = sb.buffered.length ? [sb.buffered.start(0), sb.buffered.end(sb.buffered.length - 1)] : [];
  video.currentTime = sb.buffered.length ? sb.buffered.start(0) : 0;
  await video.play();
  window.result.state = "playing";
}
main().catch(e => { window.result.state = "failed"; window.result.errors.push(String(e)); });
document.getElementById("v").addEventListener("error", e => {
  const err = document.getElementById("v").error;
  window.result.errors.push("video error " + (err ? err.code + " " + err.message : ""));
});
function frameVariance() {
  const v = document.getElementById("v"), c = document.getElementById("c");
  const ctx = c.getContext("2d");
  ctx.drawImage(v, 0, 0, c.width, c.height);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  let sum = 0, sum2 = 0, n = 0;
  for (let i = 0; i < d.length; i += 4) { const y = (d[i] + d[i + 1] + d[i + 2]) / 3; sum += y; sum2 += y * y; n++; }
  const mean = sum / n;
  return sum2 / n - mean * mean;
}
</script>
"""


def codecs_of(path):
    """The RFC 6381 codec string, asked of ffprobe (the judge), to build the MIME type."""
    import subprocess
    out = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", path],
                         capture_output=True, text=True, check=True).stdout
    codecs = []
    for stream in json.loads(out)["streams"]:
        tag = stream.get("codec_tag_string", "")
        if stream["codec_type"] == "video":
            if stream["codec_name"] == "h264":
                profile = {"Baseline": 66, "Constrained Baseline": 66, "Main": 77, "High": 100}.get(stream.get("profile"), 100)
                codecs.append("avc1.%02x00%02x" % (profile, int(stream.get("level", 31))))
            else:
                codecs.append("hvc1.1.6.L%d.90" % int(stream.get("level", 93)))
        elif stream["codec_type"] == "audio" and tag == "mp4a":
            codecs.append("mp4a.40.2")
    return 'video/mp4; codecs="%s"' % ",".join(codecs)


def serve(path, mime):
    page = PAGE.replace("MIME", json.dumps(mime)).encode()
    data = open(path, "rb").read()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body, kind = (page, "text/html") if self.path in ("/", "/index.html") else (data, "video/mp4")
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    mime = sys.argv[4] if len(sys.argv) > 4 else codecs_of(path)
    server = serve(path, mime)
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                 "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get("http://127.0.0.1:%d/" % server.server_address[1])
        deadline = time.time() + 30
        result, current = {}, 0.0
        while time.time() < deadline:
            result = driver.execute_script("return window.result")
            current = driver.execute_script("return document.getElementById('v').currentTime")
            if result["state"] == "failed" or (result["state"] == "playing" and current > 1.5):
                break
            time.sleep(0.2)
        size = driver.execute_script("const v = document.getElementById('v'); return [v.videoWidth, v.videoHeight]")
        variance = driver.execute_script("return frameVariance()")
        report = dict(result, currentTime=current, size=size, variance=variance, mime=mime)
        print(json.dumps(report))
        problems = []
        if not result.get("supported"):
            problems.append("Chromium does not support %s" % mime)
        if result["state"] != "playing" or current <= 1.5:
            problems.append("playback did not advance past 1.5 s (state %s, currentTime %.2f, errors %s)"
                            % (result["state"], current, result.get("errors")))
        if size != [width, height]:
            problems.append("video size %s, expected %dx%d" % (size, width, height))
        if variance < 20:
            problems.append("the frame looks blank (luma variance %.1f)" % variance)
        if problems:
            print("FAIL: " + "; ".join(problems))
            return 1
        print("PASS: %s played through MSE to %.2f s, %dx%d, frame variance %.0f" % (os.path.basename(path), current, width, height, variance))
        return 0
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
