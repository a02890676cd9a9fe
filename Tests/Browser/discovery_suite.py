#!/usr/bin/python3
"""The "Find cameras" dialog end to end: starts `watchbox serve` on a fresh data directory and two GStreamer
RTSP cameras on loopback (one with Digest auth, each on a vendor path WatchBox knows), then, in headless
Chromium: opens "Find cameras", searches 127.0.0.0/22 on the cameras' two ports with the credentials, sees the
progress bar move (pushed by server-sent events) and both cameras listed with their URLs, adds both, and sees
both play in the grid. Then a second search, with the push broken on purpose, falls back to polling and shows
them as "Already added". Then the ONVIF path: Tests/Peers/onvif_device.py (Hikvision's answers, WS-Security
checked for real) on loopback, asked directly (a unicast device query: multicast stays out of loopback), with a
third GStreamer camera serving its profiles' stream URIs: found with its ONVIF identity, added with its Main
and Sub profiles, and playing. The dialog is photographed at desktop and phone sizes.

    Tests/Browser/discovery_suite.py [--watchbox .build/debug/watchbox] [--artifacts DIR]

Prints PASS/FAIL per step and "N passed, N failed"; exits 1 when one failed. Loopback only.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import shutil
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hub_suite import PYTHON, ROOT, camera_args, free_port, start_camera  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from watchbox_page import Failure, WatchBoxPage, set_viewport, start_chromium, wait_until  # noqa: E402


class Steps:
    def __init__(self, page, ports, artifacts, onvif=None):
        self.page = page
        self.ports = ports
        self.onvif = onvif  # (device port, RTSP port of its streams)
        self.artifacts = artifacts
        self.passed = self.failed = 0

    def run(self, name, step):
        try:
            step()
        except Exception as error:  # noqa: BLE001 - every failure is reported, then the suite goes on
            self.failed += 1
            print(f"FAIL {name}: {error}", flush=True)
            if not isinstance(error, Failure):
                traceback.print_exc()
            try:
                self.page.driver.save_screenshot(os.path.join(self.artifacts, f"discovery-fail-{name}.png"))
            except Exception:  # noqa: BLE001
                pass
            return False
        self.passed += 1
        print(f"PASS {name}", flush=True)
        return True

    def dialog(self, selector=""):
        return self.page.driver.find_element(By.CSS_SELECTOR, "#discovery-dialog " + selector)

    def search(self, subnets="127.0.0.0/22", ports=None, onvif_devices="", break_push=False):
        page = self.page
        ports = ports or self.ports
        if not page.js("return document.querySelector('#discovery-dialog')?.open"):
            page.js("document.querySelector('[data-app-action=\"discover\"]').click()")
        page.js("document.querySelector('#discovery-dialog [data-action=again]:not([hidden])')?.click()")
        wait_until("the Find cameras dialog", lambda: page.js("return document.querySelector('#discovery-dialog')?.open"))
        # Wait for the settings to arrive, then fill the form as a person would.
        wait_until("the saved ports in the form", lambda: self.dialog("#discovery-ports").get_attribute("value"))
        for field, value in (("subnets", subnets), ("ports", ", ".join(str(port) for port in ports)),
                             ("onvif-devices", onvif_devices), ("username", "admin"), ("password", "s3cret")):
            element = self.dialog(f"#discovery-{field}")
            element.clear()
            if value:
                element.send_keys(value)
        onvif = self.dialog("input[name=onvif]")
        if onvif.is_selected() != bool(onvif_devices):
            onvif.click()
        if break_push:
            # The push drops at once (as behind a proxy that cuts streams): the dialog must poll instead.
            page.js("""
              window.EventSource = class extends EventTarget {
                constructor(url) { super(); this.url = url; setTimeout(() => this.dispatchEvent(new Event('error')), 20); }
                close() {}
              };
            """)
        # Record every value the progress bar takes, so that a brief one is not missed between polls.
        page.js("""
          window.__progress = [];
          const bar = document.querySelector('#discovery-dialog .discovery-bar');
          new MutationObserver(() => window.__progress.push(Number(bar.getAttribute('aria-valuenow'))))
            .observe(bar, { attributes: true, attributeFilter: ['aria-valuenow'] });
        """)
        self.dialog("[data-action=search]").click()
        wait_until("the search to finish", lambda: page.js(
            "return !document.querySelector('#discovery-dialog .discovery-results').hidden"), timeout=60)

    def items(self):
        return self.page.js("""
          return [...document.querySelectorAll('#discovery-dialog .discovery-item')].map(item => ({
            ip: item.dataset.ip, port: item.dataset.port, text: item.innerText, added: item.classList.contains('is-added'),
            disabled: item.querySelector('input[name=pick]').disabled}));
        """)

    def find_cameras(self):
        page = self.page
        page.open()
        self.search()
        values = page.js("return window.__progress")
        source = page.js("return document.querySelector('#discovery-dialog').dataset.progressSource")
        pushed = int(page.js("return document.querySelector('#discovery-dialog').dataset.pushEvents || '0'"))
        if source != "push" or pushed < 3:
            raise Failure(f"progress should come pushed over server-sent events, came by {source!r} ({pushed} events)")
        intermediate = [v for v in values if 0 < v < 100]
        if not values or values[-1] != 100 or not intermediate or values != sorted(values):
            raise Failure(f"the progress bar should rise through values between 0 and 100 to 100, saw {values}")
        counts = page.js("return document.querySelector('#discovery-dialog .discovery-counts').textContent")
        if "1022 of 1022 hosts" not in counts or "1 device found" not in counts:
            raise Failure(f"progress text: {counts!r}")
        items = self.items()
        # One address, two RTSP ports with streams: one row per port, each a camera of its own.
        # Rows come in port order (the ports the test got from the system may be in either order).
        if [(item["ip"], item["port"]) for item in items] != [("127.0.0.1", str(port)) for port in sorted(self.ports)]:
            raise Failure(f"expected 127.0.0.1 on ports {sorted(self.ports)}, saw {items}")
        url_of = {self.ports[0]: f"rtsp://127.0.0.1:{self.ports[0]}/stream1",
                  self.ports[1]: f"rtsp://127.0.0.1:{self.ports[1]}/Streaming/Channels/101"}
        for item, url in zip(items, (url_of[port] for port in sorted(self.ports))):
            if url not in item["text"] or item["added"] or item["disabled"]:
                raise Failure(f"{url} should be listed as new, saw {item}")
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-results-desktop.png"))

    def add_two(self):
        page = self.page
        self.dialog("input[name=all]").click()
        label = self.dialog("[data-action=add]").text
        if "Add 2 cameras" not in label:
            raise Failure(f"the add button should say 'Add 2 cameras', says {label!r}")
        self.dialog("[data-action=add]").click()
        wait_until("the dialog to close after adding", lambda: not page.js("return document.querySelector('#discovery-dialog').open"))
        wait_until("two cells in the grid", lambda: len(page.cells()) == 2)
        cameras = page.api("GET", "/api/cameras")
        urls = sorted(camera["rtspURL"] for camera in cameras)
        expected = sorted([f"rtsp://127.0.0.1:{self.ports[0]}/stream1", f"rtsp://127.0.0.1:{self.ports[1]}/Streaming/Channels/101"])
        if urls != expected:
            raise Failure(f"cameras added with {urls}, expected {expected}")
        if not all(camera["hasPassword"] and camera["username"] == "admin" for camera in cameras):
            raise Failure(f"the credentials given once should be on both cameras: {cameras}")
        for cell in page.cells():
            page.wait_playing(cell["id"], advance=1.0, timeout=30)
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-grid.png"))

    def duplicates_flagged(self):
        page = self.page
        self.search(break_push=True)
        source = page.js("return document.querySelector('#discovery-dialog').dataset.progressSource")
        if source != "poll":
            raise Failure(f"with the push broken the dialog should poll, progress came by {source!r}")
        items = self.items()
        if len(items) != 2 or not all(item["added"] and item["disabled"] and "Already added" in item["text"] for item in items):
            raise Failure(f"the cameras added before should be flagged and not selectable, saw {items}")

    def onvif_camera(self):
        """The ONVIF path: the device asked directly, found with its identity and profiles, added with Main and Sub."""
        page = self.page
        device_port, rtsp_port = self.onvif
        self.search(subnets="127.0.0.1/32", ports=[rtsp_port], onvif_devices=f"127.0.0.1:{device_port}")
        items = self.items()
        if len(items) != 1:
            raise Failure(f"expected the one ONVIF device, saw {items}")
        item = items[0]
        main, sub = f"rtsp://127.0.0.1:{rtsp_port}/Profile_1", f"rtsp://127.0.0.1:{rtsp_port}/Profile_2"
        for text in ("ONVIF", "DS-2CD3T45P1-I", main, sub):
            if text not in item["text"]:
                raise Failure(f"the ONVIF device's row should show {text!r}: {item['text']!r}")
        if item["added"] or item["disabled"]:
            raise Failure(f"the ONVIF device is new: {item}")
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-onvif.png"))
        before = {camera["id"] for camera in page.api("GET", "/api/cameras")}
        page.js("document.querySelector('#discovery-dialog .discovery-item input[name=pick]').click()")
        self.dialog("[data-action=add]").click()
        wait_until("the dialog to close after adding", lambda: not page.js("return document.querySelector('#discovery-dialog').open"))
        added = [camera for camera in page.api("GET", "/api/cameras") if camera["id"] not in before]
        if len(added) != 1:
            raise Failure(f"one camera should have been added, saw {added}")
        camera = added[0]
        if camera["rtspURL"] != main or camera.get("manufacturer") != "HIKVISION" or camera.get("model") != "DS-2CD3T45P1-I":
            raise Failure(f"the camera should be the ONVIF main stream with its identity: {camera}")
        profiles = page.api("GET", f"/api/cameras/{camera['id']}/profiles")
        roles = sorted((profile["name"], profile["rtspURL"], profile.get("width")) for profile in profiles)
        if roles != [("Main", main, 1920), ("Sub", sub, 640)]:
            raise Failure(f"the ONVIF profiles should become Main (1920 wide) and Sub (640 wide): {profiles}")
        wait_until("the ONVIF camera's cell", lambda: any(cell["id"].upper() == camera["id"].upper() for cell in page.cells()))
        cell = next(cell for cell in page.cells() if cell["id"].upper() == camera["id"].upper())
        page.wait_playing(cell["id"], advance=1.0, timeout=30)
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-onvif-grid.png"))

    def phone_layout(self):
        page = self.page
        set_viewport(page.driver, 390, 844, scale=2, mobile=True)
        time.sleep(0.5)
        width = page.js("return document.querySelector('#discovery-dialog').getBoundingClientRect().width")
        overflow = page.js("return document.querySelector('#discovery-dialog .dialog-body').scrollWidth > "
                           "document.querySelector('#discovery-dialog .dialog-body').clientWidth")
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-results-phone.png"))
        page.js("document.querySelector('#discovery-dialog [data-action=again]').click()")
        time.sleep(0.3)
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-form-phone.png"))
        set_viewport(page.driver, 1280, 800)
        if width > 390 or overflow:
            raise Failure(f"on a phone the dialog should fit the screen (width {width}, horizontal overflow {overflow})")

    def large_subnet_confirmation(self):
        page = self.page
        subnets = self.dialog("#discovery-subnets")
        subnets.clear()
        subnets.send_keys("127.0.0.0/21")
        self.dialog("[data-action=search]").click()
        wait_until("the confirmation", lambda: page.js("return document.querySelector('#confirm-dialog').open"))
        message = page.js("return document.querySelector('#confirm-dialog').innerText")
        page.driver.save_screenshot(os.path.join(self.artifacts, "discovery-confirm-large.png"))
        page.js("document.querySelector('#confirm-dialog [value=cancel]').click()")
        if "127.0.0.0/21" not in message:
            raise Failure(f"the confirmation should name the subnet, said {message!r}")
        if not page.js("return !document.querySelector('#discovery-dialog .discovery-setup').hidden"):
            raise Failure("cancelling the confirmation should leave the form, not start a search")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--watchbox", default=os.path.join(ROOT, ".build", "debug", "watchbox"))
    parser.add_argument("--artifacts", default=os.path.join(ROOT, ".test-artifacts", "browser"))
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    data = tempfile.mkdtemp(prefix="watchbox-discovery-")
    ports = [free_port(), free_port()]
    onvif_rtsp = free_port()
    cameras, server, driver = [], None, None
    try:
        cameras = [start_camera(ports[0], "/stream1"), start_camera(ports[1], "/Streaming/Channels/101", auth=True)]
        # The ONVIF camera: its streams (the paths of its profiles' tokens) and its device service.
        streams = subprocess.Popen(camera_args(onvif_rtsp, "/Profile_1", auth=True) + ["--path", "/Profile_2"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cameras.append(streams)
        if not streams.stdout.readline().startswith("READY"):
            raise SystemExit("discovery_suite: the ONVIF camera's GStreamer server did not start")
        device = subprocess.Popen([PYTHON, os.path.join(ROOT, "Tests", "Peers", "onvif_device.py"),
                                   "--fixtures", os.path.join(ROOT, "Tests", "ONVIFTests", "Fixtures", "hikvision"),
                                   "--username", "admin", "--password", "s3cret", "--rtsp-port", str(onvif_rtsp)],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cameras.append(device)
        line = device.stdout.readline()
        if not line.startswith("PORT "):
            raise SystemExit(f"discovery_suite: onvif_device.py did not start ({line!r})")
        onvif = (int(line.split()[1]), onvif_rtsp)
        log = open(os.path.join(args.artifacts, "watchbox-serve-discovery.log"), "w")
        server = subprocess.Popen([args.watchbox, "serve", "--port", "0", "--data", os.path.join(data, "db")],
                                  stdout=subprocess.PIPE, stderr=log, text=True)
        line = server.stdout.readline()
        if "listening on http://" not in line:
            raise SystemExit(f"discovery_suite: watchbox serve did not start ({line!r}); see {log.name}")
        base = "http://" + line.split("http://", 1)[1].split()[0]
        print(f"discovery_suite: {base}, cameras on ports {ports}", flush=True)
        driver = start_chromium(1280, 800)
        steps = Steps(WatchBoxPage(driver, base), ports, args.artifacts, onvif)
        if steps.run("find_cameras", steps.find_cameras):
            if steps.run("add_two_and_play", steps.add_two):
                steps.run("duplicates_flagged", steps.duplicates_flagged)
            steps.run("phone_layout", steps.phone_layout)
            steps.run("large_subnet_confirmation", steps.large_subnet_confirmation)
            # Last: adding closes the dialog, which the layout steps above photograph open.
            steps.run("onvif_camera_added_with_profiles_and_playing", steps.onvif_camera)
        print(f"{steps.passed} passed, {steps.failed} failed", flush=True)
        return 1 if steps.failed else 0
    finally:
        if driver:
            driver.quit()
        if server and server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        for camera in cameras:
            if camera.poll() is None:
                camera.kill()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
