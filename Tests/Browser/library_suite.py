#!/usr/bin/python3
"""The video library in headless Chromium (issue 7), end to end: starts `watchbox serve` on a fresh data
directory with short recording segments and two GStreamer RTSP cameras on loopback, records both
continuously (PUT /api/cameras/{id}/recording), stops one camera's server for ~15 s to make a gap, then,
as a person would:

  top_bar          at 390x844 and 360x740 (touch emulation) the logo is whole and nothing in the top bar
                   overlaps or leaves the screen; every view tab and the menu button is at least 44 px; the
                   menu reaches Find cameras, Add camera and the theme; at 1280x800 every control shows.
                   Screenshots of the grid, the library and the storage page at both sizes.
  rec_badge        the grid's cells show REC for the recording cameras (GET …/recording, `recording` SSE)
  recording_settings  the camera dialog's Recording section: a schedule with a window and a retention of
                   7 days saved through the form (the API reads them back); a bad retention is refused next
                   to its field; back to continuous
  record_button    a camera switched to manual: the full-screen Record button starts a 1-minute recording
                   (REC in the view, `manualUntil` set by the server), a second press stops it
  storage_page     #storage shows the recordings' bytes in the bar and a row per camera with its segments;
                   limits typed in GB are saved (the API reads them back); a bad value is refused at its field
  timeline_gap     the library's timeline draws the recorded spans and the gap (canvas pixels: span colour
                   inside the footage, track colour in the gap), and the gap is the outage (15 s ± reconnect);
                   the calendar marks today, and only today, as a day with footage
  click_plays      a click on the timeline plays from that moment: the player's clock shows the clicked time
                   within a GOP, the video advances, and the playhead moves along the timeline
  speed            at 2× the player's clock advances faster than real time
  export           a range dragged on the timeline is exported: the download is an MP4 that ffprobe reads
                   without errors, whose duration is the range's within a GOP (+ frame slack)
  protect          Protect marks the range (listed, amber band on the timeline, segments `protected`), and
                   Unprotect removes it
  disk_full        the recordings live on a small tmpfs the suite mounts (root only; skipped otherwise, failed
                   with CI=true): filled up, both cells say "Disk full" (the `recording` event); the filler
                   removed, they say REC again by themselves

Prints PASS/FAIL/SKIP per test and "N passed, N failed, N skipped"; exits 1 when any failed. Loopback only.

    Tests/Browser/library_suite.py [--watchbox .build/debug/watchbox] [--artifacts DIR] [--only a,b]
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from datetime import datetime, timezone

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

from watchbox_page import Failure, set_viewport, start_chromium, wait_until  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(ROOT, "Tests", "Peers", "rtsp_server.py")
PYTHON = os.environ.get("WATCHBOX_PYTHON", "/usr/bin/python3")
DESKTOP = (1280, 800)
PHONE = (390, 844)
SEGMENT_SECONDS = 5
GOP_SECONDS = 1.0  # --key-int 25 at 25 fps
OUTAGE_SECONDS = 15


class Skip(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def camera_args(port, path):
    return [PYTHON, PEER, "--port", str(port), "--path", path, "--width", "640", "--height", "360",
            "--key-int", "25", "--bitrate", "600", "--no-exit-with-parent"]


def start_camera(port, path):
    proc = subprocess.Popen(camera_args(port, path), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY"):
        raise SystemExit(f"library_suite: the GStreamer camera on port {port} did not start ({line!r})")
    return proc


def iso(seconds):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % int((seconds % 1) * 1000)


def parse_iso(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def segment_flag(watchbox):
    """The serve option that sets the segment length, if this build has one (e.g. --segment-seconds)."""
    help_text = subprocess.run([watchbox, "serve", "--help"], capture_output=True, text=True).stdout
    match = re.search(r"(--segment[-a-z]*)", help_text)
    return match.group(1) if match else None


class Suite:
    def __init__(self, args, base, cameras, procs, tmpfs=None):
        self.args = args
        self.tmpfs = tmpfs  # the recordings' own small filesystem, or None
        self.base = base
        self.cameras = cameras  # name → (id, url, port, path)
        self.procs = procs
        self.downloads = os.path.join(args.artifacts, "downloads")
        os.makedirs(self.downloads, exist_ok=True)
        self.driver = start_chromium(*DESKTOP)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        self.outage = None  # (stopped at, restarted at) in epoch seconds
        self.selection = None

    # ----- helpers -----

    def expect(self, condition, message):
        if not condition:
            raise Failure(message)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def api(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        with urllib.request.urlopen(request, timeout=15) as response:
            text = response.read()
            return json.loads(text) if text else None

    def shot(self, name):
        path = os.path.join(self.args.artifacts, name + ".png")
        self.driver.save_screenshot(path)
        return path

    def open(self, fragment=""):
        self.loads = getattr(self, "loads", 0) + 1
        self.driver.get("%s/?load=%d%s" % (self.base, self.loads, fragment))
        wait_until("the app to load", lambda: self.js("return !!(window.watchbox && window.watchbox.store.loaded)"), timeout=20)

    def click(self, selector):
        def attempt():
            element = next((e for e in self.driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()), None)
            if element:
                element.click()
            return element
        return wait_until(selector, attempt)

    def segments(self, name, start=None, end=None):
        camera_id = self.cameras[name][0]
        now = time.time()
        data = self.api("GET", "/api/cameras/%s/recordings?from=%s&to=%s" % (camera_id, iso(start or now - 3600), iso(end or now + 60)))
        return data["segments"]

    def footage_seconds(self, name):
        return sum(segment["durationSeconds"] for segment in self.segments(name))

    def phone(self, width, height):
        set_viewport(self.driver, width, height, 2, True)
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def desktop(self):
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        set_viewport(self.driver, *DESKTOP)

    def open_library(self, name):
        camera_id = self.cameras[name][0]
        day = datetime.now().strftime("%Y-%m-%d")
        self.open("#library/%s/%s" % (camera_id, day))
        wait_until("the library to load the day's footage", lambda: (self.js(
            "return document.getElementById('library-view').dataset.loaded || ''") or "").startswith(camera_id + "/" + day + "/")
            and int(self.js("return document.getElementById('library-view').dataset.loaded").rsplit("/", 1)[1]) > 0, timeout=20)
        time.sleep(0.3)

    def timeline_x(self, epoch_seconds):
        """The client x of a wall time on the timeline (CSS px), and the timeline's rect."""
        return self.js("""
          const tl = window.watchbox.library.timeline; const r = tl.root.getBoundingClientRect();
          return [r.left + tl.xOf(arguments[0]), r.left, r.top, r.width, r.height];""", epoch_seconds * 1000)

    def click_timeline(self, epoch_seconds):
        x, left, top, width, height = self.timeline_x(epoch_seconds)
        element = self.driver.find_element(By.CSS_SELECTOR, ".lib-timeline")
        ActionChains(self.driver).move_to_element_with_offset(element, int(round(x - left - width / 2)), 10).click().perform()

    def pixel(self, client_x, y_in_timeline):
        """[r, g, b] of the timeline canvas at a client x and a y inside the timeline (CSS px)."""
        return self.js("""
          const tl = window.watchbox.library.timeline; tl.paint();
          const c = tl.canvas, r = c.getBoundingClientRect(), s = c.width / r.width;
          const d = c.getContext('2d').getImageData(Math.round((arguments[0] - r.left) * s), Math.round(arguments[1] * s), 1, 1).data;
          return [d[0], d[1], d[2]];""", client_x, y_in_timeline)

    def css_color(self, name):
        return self.js("""
          const probe = document.createElement('div'); probe.style.color = getComputedStyle(document.querySelector('.timeline')).getPropertyValue(arguments[0]);
          document.body.append(probe); const c = getComputedStyle(probe).color; probe.remove();
          return c.match(/\\d+/g).slice(0, 3).map(Number);""", name)

    # ----- tests -----

    def test_top_bar(self):
        for width, height in ((390, 844), (360, 740)):
            self.phone(width, height)
            for fragment, label in (("", "grid"), ("#library", "library"), ("#storage", "storage")):
                self.open(fragment)
                time.sleep(0.8)
                boxes = self.js("""
                  const out = {};
                  const add = (key, el) => { if (!el) return; const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
                    out[key] = {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height,
                                shown: s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0}; };
                  add('logo', document.querySelector('.brand-mark'));
                  document.querySelectorAll('.topbar .views a').forEach((a) => add('view:' + a.dataset.viewLink, a));
                  add('more', document.querySelector('.more-button'));
                  add('bar', document.querySelector('.topbar'));
                  return out;""")
                bar = boxes.pop("bar")
                shown = {key: box for key, box in boxes.items() if box["shown"]}
                for key in ("logo", "view:grid", "view:plans", "view:library", "view:storage", "more"):
                    self.expect(key in shown, "%dpx %s: the top bar's %s is not shown (%r)" % (width, label, key, boxes.get(key)))
                for key, box in shown.items():
                    self.expect(box["l"] >= 0 and box["r"] <= width + 0.5 and box["t"] >= 0 and box["b"] <= bar["b"] + 0.5,
                                "%dpx %s: %s is cut or off screen: %r (bar %r)" % (width, label, key, box, bar))
                    if key != "logo":
                        self.expect(box["w"] >= 43.5 and box["h"] >= 43.5, "%dpx %s: %s is %.1f×%.1f px, less than 44" % (width, label, key, box["w"], box["h"]))
                keys = sorted(shown, key=lambda k: shown[k]["l"])
                for a, b in zip(keys, keys[1:]):
                    self.expect(shown[a]["r"] <= shown[b]["l"] + 0.5, "%dpx %s: %s (right %.1f) overlaps %s (left %.1f)" % (
                        width, label, a, shown[a]["r"], b, shown[b]["l"]))
                # The logo is whole: its own box, nothing painted over its centre.
                hit = self.js("const r = document.querySelector('.brand-mark').getBoundingClientRect();"
                              "const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
                              "return !!e && !!e.closest('.brand');")
                self.expect(hit, "%dpx %s: something covers the logo" % (width, label))
                self.shot("topbar-%s-%dx%d" % (label, width, height))
            # The full-screen view's bar (Record and Recordings added to it) still shows the camera's name.
            self.open("#camera/" + self.cameras["Front"][0])
            wait_until("the full-screen view", lambda: self.js("return window.watchbox.viewer.isOpen"))
            self.js("window.watchbox.viewer.wake()")
            parts = self.js("""
              return [...document.querySelectorAll('.viewer-bar > .icon-btn, .viewer-name, .viewer-tools > *')]
                .map((e) => { const r = e.getBoundingClientRect(); return [e.className.baseVal ?? e.className, r.left, r.right, r.width]; })
                .filter((p) => p[3] > 0).sort((a, b) => a[1] - b[1]);""")
            for a, b in zip(parts, parts[1:]):
                self.expect(a[2] <= b[1] + 0.5, "%dpx full screen: %s overlaps %s: %r" % (width, a[0], b[0], parts))
            name = next((p for p in parts if "viewer-name" in p[0]), [None, 0, 0, 0])
            self.expect(name[3] >= 40 and parts[-1][2] <= width, "%dpx full screen: the name gets %.0f px, the bar ends at %.0f" % (width, name[3], parts[-1][2]))
            self.shot("viewer-%dx%d" % (width, height))
            # Every action the bar held is in the menu.
            self.open("")
            self.click(".more-button")
            items = wait_until("the top bar menu", lambda: self.js(
                "return [...document.querySelectorAll('.menu .menu-item')].map(i => i.textContent.trim())"))
            for wanted in ("Find cameras", "Add camera"):
                self.expect(any(wanted in item for item in items), "%dpx: the menu lacks %s: %r" % (width, wanted, items))
            self.expect(any("mode" in item for item in items), "%dpx: the menu lacks the theme switch: %r" % (width, items))
            time.sleep(0.3)  # the menu's opening animation
            item = self.driver.find_element(By.XPATH, "//div[contains(@class, 'menu')]//button[contains(., 'Find cameras')]")
            item.click()
            wait_until("Find cameras to open from the menu (the menu had %r)" % items, lambda: self.js(
                "return document.getElementById('discovery-dialog')?.open"))
            self.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            time.sleep(0.3)
        self.desktop()
        for fragment, label in (("", "grid"), ("#library", "library"), ("#storage", "storage")):
            self.open(fragment)
            time.sleep(0.8)
            hidden = self.js("""
              return [...document.querySelectorAll('.brand-name, .topbar .views a, #theme-toggle, .find-button')]
                .filter((e) => { const r = e.getBoundingClientRect(); return !(r.width > 0 && r.right <= innerWidth); })
                .map((e) => e.className || e.textContent);""")
            self.expect(not hidden, "1280px %s: top bar controls not shown: %r" % (label, hidden))
            self.shot("topbar-%s-1280x800" % label)

    def test_rec_badge(self):
        self.open("")
        for name in self.cameras:
            camera_id = self.cameras[name][0]
            wait_until("REC on %s's cell" % name, lambda: self.js(
                "const c = document.querySelector('.cell[data-camera-id=\"' + arguments[0] + '\"]');"
                "return c && c.dataset.recording === 'recording' && c.querySelector('.rec-badge').textContent === 'REC'", camera_id), timeout=20)

    def edit_camera(self, name):
        camera_id = self.cameras[name][0]
        self.open("")
        self.js("window.watchbox.grid.cells.get(arguments[0]) && document.querySelector('#camera-dialog') && "
                "document.querySelector('.cell[data-camera-id=\"' + arguments[0] + '\"]').focus()", camera_id)
        self.driver.switch_to.active_element.send_keys("e")
        wait_until("the Recording section to load", lambda: self.js(
            "const s = document.querySelector('.recording-settings'); return !s.hidden && !s.classList.contains('is-loading') && "
            "!!document.querySelector('#camera-dialog input[name=mode]:checked')"), timeout=10)
        self.js("document.querySelector('.recording-settings').open = true")

    def save_camera_dialog(self):
        self.click('#camera-dialog [data-action="save"]')

    def test_recording_settings(self):
        name = "Back"
        camera_id = self.cameras[name][0]
        self.edit_camera(name)
        checked = self.js("return document.querySelector('#camera-dialog input[name=mode]:checked').value")
        self.expect(checked == "continuous", "the dialog shows mode %r for a continuously recording camera" % checked)
        # A bad retention is refused next to its field, and the dialog stays open.
        field = self.driver.find_element(By.ID, "camera-retention")
        field.clear()
        field.send_keys("-3")
        self.save_camera_dialog()
        message = wait_until("the retention error", lambda: self.js(
            "const e = document.querySelector('[data-error-for=retentionDays]'); return !e.hidden && e.textContent"))
        self.expect(self.js("return document.getElementById('camera-dialog').open"), "the dialog closed on a bad retention")
        # A schedule (Mon–Fri 08:00–18:30 plus a window across midnight) and 7 days.
        self.click('#camera-dialog .recording-modes input[value="scheduled"] + span')
        self.click('#camera-dialog [data-recording-action="add-window"]')
        self.js("""
          const rows = document.querySelectorAll('.schedule-window');
          const set = (input, value) => { input.value = value; input.dispatchEvent(new Event('input', {bubbles: true})); };
          set(rows[0].querySelector('.schedule-end'), '18:30');
          rows[1].querySelectorAll('.schedule-days input').forEach((i) => { i.checked = ['6', '0'].includes(i.value); });
          set(rows[1].querySelector('.schedule-start'), '22:00'); set(rows[1].querySelector('.schedule-end'), '06:00');""")
        field.clear()
        field.send_keys("7")
        self.save_camera_dialog()
        wait_until("the dialog to close after saving", lambda: not self.js("return document.getElementById('camera-dialog').open"), timeout=10)
        config = self.api("GET", "/api/cameras/%s/recording" % camera_id)
        self.expect(config["mode"] == "scheduled" and config["retentionDays"] == 7,
                    "after saving, the API says mode %r, retention %r" % (config["mode"], config["retentionDays"]))
        windows = sorted((tuple(w["days"]), w["start"], w["end"]) for w in config["schedule"])
        self.expect(windows == sorted([((0, 6), "22:00", "06:00"), ((1, 2, 3, 4, 5), "08:00", "18:30")]),
                    "the saved schedule is %r" % windows)
        # Back to continuous through the form.
        self.edit_camera(name)
        self.click('#camera-dialog .recording-modes input[value="continuous"] + span')
        self.save_camera_dialog()
        wait_until("the dialog to close", lambda: not self.js("return document.getElementById('camera-dialog').open"), timeout=10)
        self.expect(self.api("GET", "/api/cameras/%s/recording" % camera_id)["mode"] == "continuous", "continuous was not saved")
        self.retention_message = message

    def test_record_button(self):
        name = "Back"
        camera_id = self.cameras[name][0]
        self.api("PUT", "/api/cameras/%s/recording" % camera_id, {"mode": "manual", "schedule": [], "retentionDays": None})
        try:
            self.open("#camera/" + camera_id)
            wait_until("the full-screen view", lambda: self.js("return window.watchbox.viewer.isOpen"))
            wait_until("Record to be offered", lambda: self.js(
                "return document.querySelector('.rec-button').getAttribute('aria-pressed') === 'false'"), timeout=15)
            # The controls hide after 3 quiet seconds of live video: a pointer move shows them again.
            self.js("window.watchbox.viewer.wake()")
            self.click(".rec-button")
            self.click('.menu .menu-item:nth-child(2)')  # "Record 1 minute"
            wait_until("REC in the full-screen view", lambda: self.js(
                "const b = document.querySelector('.viewer-rec'); return !b.hidden && b.textContent === 'REC' && "
                "document.querySelector('.rec-button').getAttribute('aria-pressed') === 'true'"), timeout=15)
            state = self.api("GET", "/api/cameras/%s/recording" % camera_id)["state"]
            self.expect(state["state"] == "recording" and state["manualUntil"], "the server's state after Record: %r" % state)
            until = parse_iso(state["manualUntil"]) - time.time()
            self.expect(40 < until < 75, "a 1-minute recording ends in %.0f s" % until)
            self.shot("record-button")
            # R, the keyboard's Record, stops it.
            self.driver.switch_to.active_element.send_keys("r")
            wait_until("the recording to stop", lambda: self.api("GET", "/api/cameras/%s/recording" % camera_id)["state"]["state"] != "recording", timeout=15)
            wait_until("the Record button to show idle", lambda: self.js(
                "return document.querySelector('.rec-button').getAttribute('aria-pressed') === 'false'"), timeout=10)
        finally:
            self.api("PUT", "/api/cameras/%s/recording" % camera_id, {"mode": "continuous", "schedule": [], "retentionDays": None})

    def test_storage_page(self):
        self.open("#storage")
        wait_until("the storage page", lambda: self.js("return !!document.getElementById('storage-view').dataset.loaded"), timeout=15)
        storage = self.api("GET", "/api/storage")
        self.expect(storage["recordingBytes"] > 0, "the API reports %r recording bytes" % storage["recordingBytes"])
        bar = self.js("return document.querySelector('.bar-recordings').getBoundingClientRect().width")
        self.expect(bar > 0, "the storage bar shows no recordings (width %r)" % bar)
        rows = self.js("""return [...document.querySelectorAll('.storage-table tbody tr')].map((r) =>
          [r.dataset.cameraId, r.querySelector('th').textContent, +r.children[2].textContent])""")
        for name, (camera_id, *_rest) in self.cameras.items():
            row = next((r for r in rows if r[0] == camera_id), None)
            self.expect(row and row[1] == name and row[2] > 0, "no row with segments for %s: %r" % (name, rows))
        field = self.driver.find_element(By.ID, "storage-free")
        field.clear()
        field.send_keys("lots")
        self.click(".storage-form [type=submit]")
        wait_until("the error at the free-space field", lambda: self.js("return !document.getElementById('storage-free-error').hidden"))
        field.clear()
        field.send_keys("0.01")
        maximum = self.driver.find_element(By.ID, "storage-max")
        maximum.clear()
        maximum.send_keys("200")
        self.click(".storage-form [type=submit]")
        wait_until("the limits to be saved", lambda: self.api("GET", "/api/storage")["settings"] == {"maxBytes": 200 * 10**9, "minFreeBytes": 10**7}, timeout=10)
        self.shot("storage-1280x800")
        self.phone(*PHONE)
        self.open("#storage")
        wait_until("the storage page", lambda: self.js("return !!document.getElementById('storage-view').dataset.loaded"), timeout=15)
        self.shot("storage-390x844")
        self.desktop()
        self.api("PUT", "/api/settings/storage", {"maxBytes": None, "minFreeBytes": 0 if self.tmpfs else 5 * 10**8})

    def test_timeline_gap(self):
        self.expect(self.outage, "no outage was made")
        stopped, restarted = self.outage
        self.open_library("Front")
        spans = self.js("return window.watchbox.library.timeline.spans.map(s => [s.startMs / 1000, s.endMs / 1000])")
        gaps = [(a[1], b[0]) for a, b in zip(spans, spans[1:])]
        outage = [gap for gap in gaps if gap[0] <= restarted and gap[1] >= stopped]
        self.expect(len(outage) == 1, "spans %r: expected one gap over the outage %r" % (spans, self.outage))
        start, end = outage[0]
        length = end - start
        self.expect(OUTAGE_SECONDS - 2 <= length <= OUTAGE_SECONDS + 15,
                    "the gap is %.1f s for a %.1f s outage" % (length, restarted - stopped))
        # Drawn: the track's colour in the middle of the gap, the span's colour in the middle of the footage.
        span_rgb, gap_rgb = self.css_color("--tl-span"), self.css_color("--tl-gap")
        y = 22 + 24
        middle_gap = self.pixel(self.timeline_x((start + end) / 2)[0], y)
        before = spans[0]
        middle_span = self.pixel(self.timeline_x((before[0] + before[1]) / 2)[0], y)
        close = lambda a, b: all(abs(x - y) <= 12 for x, y in zip(a, b))  # noqa: E731
        self.expect(close(middle_span, span_rgb), "the footage is drawn %r, the span colour is %r" % (middle_span, span_rgb))
        self.expect(close(middle_gap, gap_rgb), "the gap is drawn %r, the track colour is %r" % (middle_gap, gap_rgb))
        # The calendar marks today (GET …/recordings/days) and not yesterday.
        today = datetime.now().strftime("%Y-%m-%d")
        marked = wait_until("the calendar to mark today", lambda: self.js(
            "const b = document.querySelector('.cal-day[data-day=\"' + arguments[0] + '\"]');"
            "return b && b.classList.contains('has-footage') && b.getAttribute('aria-pressed') === 'true' && "
            "[...document.querySelectorAll('.cal-day.has-footage')].map(x => x.dataset.day)", today), timeout=10)
        self.expect(marked == [today], "the calendar marks %r, footage exists only on %s" % (marked, today))
        self.shot("library-gap-1280x800")
        self.spans = spans

    def test_click_plays(self):
        if self.js("return !window.watchbox || !window.watchbox.library.active"):
            self.open_library("Front")
        spans = getattr(self, "spans", None) or self.js("return window.watchbox.library.timeline.spans.map(s => [s.startMs / 1000, s.endMs / 1000])")
        first = spans[0]
        self.expect(first[1] - first[0] >= 8, "the first span is only %.1f s" % (first[1] - first[0]))
        target = first[0] + min(7.3, (first[1] - first[0]) / 2)
        self.click_timeline(target)
        seek = wait_until("playback from the clicked time", lambda: self.js(
            "const l = window.watchbox.library; return l.player.state === 'playing' && l.lastSeek"), timeout=20)
        clicked = seek["target"] / 1000
        self.expect(abs(clicked - target) < 0.6, "the click landed at %.2f, aimed at %.2f" % (clicked, target))
        shown = seek["firstWall"] / 1000
        self.expect(clicked - GOP_SECONDS - 0.1 <= shown <= clicked + 1.0,
                    "clicked %s, the player's first frame shows %s (more than a GOP away)" % (iso(clicked), iso(shown)))
        print("  clicked %s, first frame shown %s (%+.0f ms)" % (iso(clicked), iso(shown), (shown - clicked) * 1000), flush=True)
        clock = self.js("return [document.querySelector('.lib-clock-time').textContent, +document.querySelector('.lib-clock').dataset.wallMs]")
        self.expect(clock[0] == datetime.fromtimestamp(clock[1] / 1000).strftime("%H:%M:%S"), "the clock reads %r" % clock)
        t0 = self.js("return [window.watchbox.library.video.currentTime, window.watchbox.library.timeline.playhead]")
        time.sleep(2)
        t1 = self.js("return [window.watchbox.library.video.currentTime, window.watchbox.library.timeline.playhead, "
                     "window.watchbox.library.video.videoWidth]")
        self.expect(t1[0] > t0[0] + 0.5, "the video did not advance: %r → %r" % (t0, t1))
        self.expect(t1[1] > t0[1] + 500, "the playhead did not move: %r → %r" % (t0[1], t1[1]))
        self.expect(t1[2] == 640, "the recorded video is %r px wide, the camera sends 640" % t1[2])
        self.shot("library-playing-1280x800")

    def test_speed(self):
        if self.js("return window.watchbox.library.player.state") != "playing":
            self.test_click_plays()
        self.click('.lib-speed input[value="2"] + span')
        time.sleep(0.5)
        a = self.js("return [+document.querySelector('.lib-clock').dataset.wallMs, performance.now()]")
        time.sleep(4)
        b = self.js("return [+document.querySelector('.lib-clock').dataset.wallMs, performance.now(), window.watchbox.library.video.playbackRate]")
        ratio = (b[0] - a[0]) / (b[1] - a[1])
        print("  at 2x the clock advanced %.2fx real time" % ratio, flush=True)
        self.expect(b[2] == 2, "the video's playbackRate is %r" % b[2])
        self.expect(ratio > 1.3, "at 2× the clock advanced %.2f× real time" % ratio)
        self.click('.lib-speed input[value="1"] + span')
        self.click('[data-lib-action="toggle"]')

    def test_export(self):
        spans = getattr(self, "spans", None)
        if not spans:
            self.open_library("Front")
            spans = self.js("return window.watchbox.library.timeline.spans.map(s => [s.startMs / 1000, s.endMs / 1000])")
        last = spans[-1] if spans[-1][1] - spans[-1][0] > 14 else spans[0]
        t1, t2 = last[0] + 3.4, last[0] + 13.6
        x1, left, top, width, _ = self.timeline_x(t1)
        x2 = self.timeline_x(t2)[0]
        element = self.driver.find_element(By.CSS_SELECTOR, ".lib-timeline")
        ActionChains(self.driver).move_to_element_with_offset(element, int(round(x1 - left - width / 2)), 10).click_and_hold() \
            .move_by_offset(10, 0).move_to_element_with_offset(element, int(round(x2 - left - width / 2)), 10).release().perform()
        selection = wait_until("a selection", lambda: self.js("const s = window.watchbox.library.selection; return s && [s.fromMs / 1000, s.toMs / 1000]"))
        self.expect(abs(selection[0] - t1) < 0.7 and abs(selection[1] - t2) < 0.7, "dragged %r, selected %r" % ((t1, t2), selection))
        fields = self.js("return [document.getElementById('lib-from').value, document.getElementById('lib-to').value]")
        self.expect(fields[0] == datetime.fromtimestamp(selection[0]).strftime("%H:%M:%S"), "the From field says %r" % fields[0])
        for name in os.listdir(self.downloads):
            os.remove(os.path.join(self.downloads, name))
        self.click('[data-lib-action="export"]')
        path = wait_until("the export to download", lambda: next((os.path.join(self.downloads, n) for n in os.listdir(self.downloads)
                                                                  if n.endswith(".mp4")), None), timeout=30)
        wait_until("the download to finish", lambda: not any(n.endswith(".crdownload") for n in os.listdir(self.downloads)), timeout=30)
        self.expect(os.path.basename(path).startswith("Front"), "the download is named %r" % os.path.basename(path))
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=codec_name,width",
                                "-of", "json", path], capture_output=True, text=True)
        self.expect(probe.returncode == 0 and not probe.stderr.strip(), "ffprobe: %s" % probe.stderr.strip()[:400])
        info = json.loads(probe.stdout)
        duration = float(info["format"]["duration"])
        wanted = selection[1] - selection[0]
        self.expect(wanted - 0.1 <= duration <= wanted + GOP_SECONDS + 0.2,
                    "the export lasts %.2f s for a %.2f s range (a GOP is %.1f s)" % (duration, wanted, GOP_SECONDS))
        print("  exported %.2f s for a %.2f s range (%s)" % (duration, wanted, os.path.basename(path)), flush=True)
        decode = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "null", "-"], capture_output=True, text=True)
        self.expect(decode.returncode == 0 and not decode.stderr.strip(), "ffmpeg decoding the export: %s" % decode.stderr.strip()[:400])
        self.selection = selection

    def test_protect(self):
        if not self.selection:
            raise Skip("needs export's selection")
        camera_id = self.cameras["Front"][0]
        self.click('[data-lib-action="protect"]')
        wait_until("the protection to be listed", lambda: self.js(
            "return document.querySelectorAll('.lib-protection').length === 1"), timeout=10)
        protections = self.api("GET", "/api/cameras/%s/protections" % camera_id)["protections"]
        self.expect(len(protections) == 1, "the API lists %d protections" % len(protections))
        p = protections[0]
        self.expect(abs(parse_iso(p["from"]) - self.selection[0]) < 0.01 and abs(parse_iso(p["to"]) - self.selection[1]) < 0.01,
                    "protected %r–%r for the selection %r" % (p["from"], p["to"], self.selection))
        covered = [s for s in self.segments("Front") if parse_iso(s["end"]) > self.selection[0] and parse_iso(s["start"]) < self.selection[1]]
        self.expect(covered and all(s["protected"] for s in covered), "segments in the range not protected: %r" % covered)
        x = self.timeline_x((self.selection[0] + self.selection[1]) / 2)[0]
        self.js("window.watchbox.library.setSelection(null)")
        band = self.pixel(x, 24)
        self.expect(all(abs(a - b) <= 12 for a, b in zip(band, self.css_color("--tl-protected"))),
                    "the protected range is drawn %r, not the protected colour" % band)
        self.shot("library-protected-1280x800")
        self.click('[data-lib-action="unprotect"]')
        wait_until("the protection to go", lambda: self.js("return document.querySelectorAll('.lib-protection').length === 0"), timeout=10)
        self.expect(not self.api("GET", "/api/cameras/%s/protections" % camera_id)["protections"], "the API still lists a protection")
        self.phone(*PHONE)
        self.open_library("Front")
        self.shot("library-390x844")
        self.desktop()

    def test_disk_full(self):
        if not self.tmpfs:
            if os.environ.get("CI") == "true":
                raise Failure("the disk-full test needs root to mount a tmpfs (CI=true)")
            raise Skip("needs root to mount a tmpfs for the recordings")
        self.open("")
        filler = os.path.join(self.tmpfs, "filler.bin")
        try:
            with open(filler, "wb") as out:
                block = b"\0" * (1 << 20)
                try:
                    while True:
                        out.write(block)
                        out.flush()
                except OSError:
                    pass
            for name in self.cameras:
                camera_id = self.cameras[name][0]
                wait_until("“Disk full” on %s's cell" % name, lambda: self.js(
                    "const c = document.querySelector('.cell[data-camera-id=\"' + arguments[0] + '\"]');"
                    "return c && c.dataset.recording === 'diskFull' && c.querySelector('.rec-badge').textContent === 'Disk full'",
                    camera_id), timeout=30)
            state = self.api("GET", "/api/cameras/%s/recording" % self.cameras["Front"][0])["state"]
            self.expect(state["state"] == "diskFull" and "disk full" in (state["message"] or "").lower(), "the server's state: %r" % state)
            title = self.js("return document.querySelector('.cell[data-camera-id=\"' + arguments[0] + '\"] .rec-badge').title", self.cameras["Front"][0])
            self.expect("free space" in title.lower(), "the badge does not say what to do: %r" % title)
            alert = self.js("const a = document.querySelector('.cell[data-camera-id=\"' + arguments[0] + '\"] .rec-alert');"
                            "return a && [a.textContent, a.getAttribute('href'), a.getBoundingClientRect().height]", self.cameras["Front"][0])
            self.expect(alert and "Disk full" in alert[0] and alert[1] == "#storage" and alert[2] >= 30,
                        "the cell does not say in words that the disk is full, with a way to the Storage page: %r" % alert)
            self.shot("disk-full-1280x800")
        finally:
            if os.path.exists(filler):
                os.remove(filler)
        for name in self.cameras:
            camera_id = self.cameras[name][0]
            wait_until("REC again on %s's cell once space is back" % name, lambda: self.js(
                "const c = document.querySelector('.cell[data-camera-id=\"' + arguments[0] + '\"]');"
                "return c && c.dataset.recording === 'recording' && !c.querySelector('.rec-alert')", camera_id), timeout=30)


def mount_tmpfs(directory, size="128m"):
    """A small filesystem of the suite's own for the recordings (root only): True when mounted."""
    if os.geteuid() != 0:
        return False
    os.makedirs(directory, exist_ok=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", directory], capture_output=True, text=True)
    if result.returncode != 0:
        print("library_suite: could not mount a tmpfs (%s); the disk-full test is skipped" % result.stderr.strip(), flush=True)
        return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--watchbox", default=os.path.join(ROOT, ".build", "debug", "watchbox"))
    parser.add_argument("--artifacts", default=os.path.join(ROOT, ".test-artifacts", "library"))
    parser.add_argument("--only", default="")
    parser.add_argument("--web-root", help="serve the web app from this folder (UI development)")
    args = parser.parse_args()
    args.artifacts = os.path.abspath(args.artifacts)
    os.makedirs(args.artifacts, exist_ok=True)
    data = tempfile.mkdtemp(prefix="watchbox-library-")
    names = ["Front", "Back"]
    ports = {name: free_port() for name in names}
    procs, server, suite = {}, None, None
    tmpfs = os.path.join(data, "recordings")
    mounted = False
    started_all = time.monotonic()
    try:
        for name in names:
            procs[name] = start_camera(ports[name], "/" + name.lower())
        command = [args.watchbox, "serve", "--port", "0", "--data", os.path.join(data, "db"), "--grace", "2"]
        if args.web_root:
            command += ["--web-root", os.path.abspath(args.web_root)]
        if "--recordings" in subprocess.run([args.watchbox, "serve", "--help"], capture_output=True, text=True).stdout:
            mounted = mount_tmpfs(tmpfs)
            if mounted:
                command += ["--recordings", tmpfs]
        flag = segment_flag(args.watchbox)
        if flag:
            command += [flag, str(SEGMENT_SECONDS)]
        else:
            print("library_suite: this watchbox has no segment-length option; recording with its default", flush=True)
        log = open(os.path.join(args.artifacts, "watchbox-serve.log"), "w")
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        line = server.stdout.readline()
        if "listening on http://" not in line:
            raise SystemExit(f"library_suite: watchbox serve did not start ({line!r}); see {log.name}")
        base = "http://" + line.split("http://", 1)[1].split()[0]
        print(f"library_suite: {base}, cameras on ports {ports}", flush=True)

        def api(method, path, body=None):
            request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                             method=method, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=15) as response:
                text = response.read()
                return json.loads(text) if text else None

        cameras = {}
        for name in names:
            url = f"rtsp://127.0.0.1:{ports[name]}/{name.lower()}"
            camera = api("POST", "/api/cameras", {"name": name, "rtspURL": url})
            cameras[name] = (camera["id"].upper(), url, ports[name], "/" + name.lower())
            try:
                api("PUT", f"/api/cameras/{camera['id']}/recording", {"mode": "continuous", "schedule": [], "retentionDays": None})
            except urllib.error.HTTPError as error:
                raise SystemExit(f"library_suite: PUT /api/cameras/{{id}}/recording answered {error.code}: "
                                 "this watchbox has no recording API (issue 7)")
        if mounted:
            # The default minimum free space (1 GiB) is more than the whole tmpfs: retention would empty it.
            api("PUT", "/api/settings/storage", {"maxBytes": None, "minFreeBytes": 0})
        recording_since = time.time()
        suite = Suite(args, base, cameras, procs, tmpfs if mounted else None)
        only = set(filter(None, args.only.split(",")))
        passed = failed = skipped = 0

        def run(name):
            nonlocal passed, failed, skipped
            if only and name not in only:
                return
            started = time.monotonic()
            try:
                getattr(suite, "test_" + name)()
                passed += 1
                print("PASS %s (%.1f s)" % (name, time.monotonic() - started), flush=True)
            except Skip as reason:
                skipped += 1
                print("SKIP %s: %s" % (name, reason), flush=True)
            except Exception as error:  # noqa: BLE001
                failed += 1
                print("FAIL %s: %s" % (name, error), flush=True)
                if not isinstance(error, Failure):
                    traceback.print_exc()
                try:
                    suite.shot("FAILED_" + name)
                    for entry in suite.driver.get_log("browser")[-10:]:
                        print("  browser:", entry["message"][:300], flush=True)
                except Exception:  # noqa: BLE001
                    pass

        # While Front records its first stretch: the tests that need no gap.
        run("top_bar")
        run("rec_badge")
        run("recording_settings")
        run("record_button")
        # Front's first stretch: at least 20 s of footage, then its server stops for OUTAGE_SECONDS.
        wait_until("20 s of Front's footage", lambda: suite.footage_seconds("Front") >= 20, timeout=90, interval=1)
        front = procs["Front"]
        stopped = time.time()
        front.send_signal(signal.SIGKILL)
        front.wait()
        run("storage_page")
        time.sleep(max(0, OUTAGE_SECONDS - (time.time() - stopped)))
        procs["Front"] = start_camera(ports["Front"], "/front")
        restarted = time.time()
        suite.outage = (stopped, restarted)
        print("library_suite: Front's server was down %.1f s" % (restarted - stopped), flush=True)
        wait_until("Front's footage after the outage", lambda: any(
            parse_iso(s["start"]) >= restarted and s["durationSeconds"] >= 14 for s in suite.segments("Front"))
            or sum(s["durationSeconds"] for s in suite.segments("Front") if parse_iso(s["start"]) >= restarted) >= 16,
            timeout=90, interval=1)
        run("timeline_gap")
        run("click_plays")
        run("speed")
        run("export")
        run("protect")
        run("disk_full")
        print("library_suite: %.0f s of recording, %.0f s in all" % (time.time() - recording_since, time.monotonic() - started_all), flush=True)
        print("%d passed, %d failed, %d skipped" % (passed, failed, skipped), flush=True)
        return 1 if failed else 0
    finally:
        if suite:
            try:
                suite.driver.quit()
            except Exception:  # noqa: BLE001
                pass
        if server and server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
        if mounted:
            subprocess.run(["umount", "-l", tmpfs], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
