#!/usr/bin/python3
"""WatchBox's web app in headless Chromium against a running `watchbox serve`.

    python3 Tests/Browser/run.py --server http://127.0.0.1:PORT \\
        --camera "Front=rtsp://user:pass@127.0.0.1:8554/a" (four times) \\
        --wrong-password-camera "rtsp://user:wrong@127.0.0.1:8554/a" \\
        --break-camera Front --break-command "kill …" --restore-command "start …" \\
        [--size 1280x720] [--screenshots DIR] [--only NAME,NAME] [--headed]

The orchestration (starting the server and the RTSP cameras, and what --break-command and
--restore-command do) belongs to the caller. Start from a server with no cameras: the first test
checks the empty state, and the cameras are added through the form as a person would.

Tests, in order (each needs the ones before it where it uses their cameras):
  empty_state          no camera yet: the empty state explains, with "Add camera" and "Add demo camera"
  form_validation      a bad address gets a message under the address field (the server's 400 `field`)
  add_cameras          the --camera cameras, added through the form, appear as cells
  all_play             every video plays: currentTime advances, videoWidth × videoHeight is --size
  screenshot_not_blank a screenshot shows each cell's picture (luma variance of the cell with its
                       overlays hidden), and each frame drawn on a canvas varies too
  low_latency          playback stays within 1.5 s of the newest buffered frame
  drag_reorder         dragging a cell onto another reorders, PUT /api/cameras/order saves it,
                       and the order survives a reload
  wrong_password       a camera with a wrong password says "authentication failed" in its cell
  reconnect            --break-command: the cell says "reconnecting"; --restore-command: the video
                       plays again, without a page reload
  fullscreen           a click opens the full-screen view (main stream) that plays; Esc returns
  offscreen_pause      cells scrolled out of view pause their streams and resume when seen again
  keyboard             A opens the form, arrows move focus, F opens full screen, Esc closes,
                       Shift+arrow moves a camera (saved), ? lists the shortcuts

Prints PASS/FAIL/SKIP per test and "N passed, N failed, N skipped"; exits 1 when any failed.
Needs Debian's chromium, chromium-driver, python3-selenium and python3-pil. Talks to loopback only.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from watchbox_page import Failure, WatchBoxPage, set_viewport, start_chromium, wait_until  # noqa: E402


class Skip(Exception):
    pass


class Suite:
    def __init__(self, args):
        self.args = args
        self.driver = start_chromium(1280, 800, headed=args.headed)
        self.page = WatchBoxPage(self.driver, args.server)
        self.cameras = {}  # name → id, for the cameras the suite added
        self.wrong_id = None
        self.shots = args.screenshots or tempfile.mkdtemp(prefix="watchbox-browser-")
        os.makedirs(self.shots, exist_ok=True)

    def expect(self, condition, message):
        if not condition:
            raise Failure(message)

    def need_cameras(self):
        if len(self.cameras) < len(self.args.camera):
            raise Skip("needs the cameras that add_cameras adds")

    def shot(self, name):
        path = os.path.join(self.shots, name + ".png")
        self.driver.save_screenshot(path)
        return path

    # ----- tests -----

    def test_empty_state(self):
        self.page.open()
        if self.page.cells():
            raise Skip("the server already has cameras")
        self.expect(self.page.js("return !document.getElementById('empty').hidden"), "the empty state is not shown")
        text = self.page.js("return document.getElementById('empty').innerText")
        self.expect("Add camera" in text and "Add demo camera" in text,
                    "the empty state lacks its buttons: %r" % text[:200])
        self.shot("empty_state")

    def test_form_validation(self):
        self.page.open()
        self.page.open_add_dialog()
        try:
            self.page.fill("name", "Bad address")
            self.page.fill("rtspURL", "http://127.0.0.1/stream")
            self.page.submit_dialog()
            errors = wait_until("a message under the address", lambda: self.page.field_errors().get("rtspURL"))
            self.expect("rtsp" in errors.lower(), "the address error does not say what to type: %r" % errors)
            # One the browser cannot judge: the server's 400 answer names the field.
            self.page.fill("rtspURL", "rtsp://127.0.0.1:99999/stream")
            self.page.submit_dialog()
            errors = wait_until("the server's message under the address",
                                lambda: self.page.field_errors().get("rtspURL") or (None if self.page.dialog_open() else "closed"))
            self.expect(errors != "closed", "the server accepted rtsp://127.0.0.1:99999/stream")
            self.expect("port" in errors.lower(), "the server's message is not about the port: %r" % errors)
            self.shot("form_validation")
        finally:
            self.page.close_dialog()

    def test_add_cameras(self):
        self.page.open()
        for entry in self.args.camera:
            name, url = entry.split("=", 1)
            camera_id = self.page.add_camera(name, url)
            self.cameras[name] = camera_id
        names = [cell["name"] for cell in self.page.cells()]
        for name in self.cameras:
            self.expect(name in names, "%s is not in the grid (%s)" % (name, names))
        listed = self.page.api("GET", "/api/cameras")
        for camera in listed:
            self.expect("@" not in camera["rtspURL"], "a saved address kept its credentials: %s" % camera["rtspURL"])

    def test_all_play(self):
        self.need_cameras()
        width, height = self.args.size
        for name, camera_id in self.cameras.items():
            state = self.page.wait_playing(camera_id, advance=1.0, timeout=30)
            if width:
                self.expect((state["videoWidth"], state["videoHeight"]) == (width, height),
                            "%s plays at %dx%d, expected %dx%d" % (name, state["videoWidth"], state["videoHeight"], width, height))
            else:
                self.expect(state["videoWidth"] > 0, "%s has no picture size" % name)
            wait_until("%s's cell to say live" % name, lambda: self.page.cell(camera_id)["state"] == "live")

    def test_screenshot_not_blank(self):
        self.need_cameras()
        for camera_id in self.cameras.values():
            self.page.wait_playing(camera_id, advance=0.2)
        self.shot("four_cameras")
        path = os.path.join(self.shots, "four_cameras_pictures_only.png")
        variances = self.page.screenshot_cell_variances(path)
        for name, camera_id in self.cameras.items():
            self.expect(variances.get(camera_id, 0) > 5,
                        "%s's cell looks blank in %s (luma variance %.1f)" % (name, path, variances.get(camera_id, 0)))
            canvas = self.page.canvas_variance(camera_id)
            self.expect(canvas > 5, "%s's frame drawn on a canvas is blank (variance %.1f)" % (name, canvas))

    def test_low_latency(self):
        self.need_cameras()
        time.sleep(3)
        for name, camera_id in self.cameras.items():
            state = self.page.video_state(camera_id)
            self.expect(state["lag"] is not None and state["lag"] < 1.5,
                        "%s plays %.2f s behind its newest frame" % (name, state["lag"] or -1))
            self.expect(state["buffered"] < 30, "%s keeps %.0f s of video buffered" % (name, state["buffered"]))

    def test_drag_reorder(self):
        self.need_cameras()
        self.page.open()
        before = self.page.order()
        first, last = before[0], before[-1]
        self.page.drag(first, last)
        after = wait_until("the grid order to change", lambda: (lambda o: o if o != before else None)(self.page.order()))
        self.expect(after[-1] == first, "the dragged camera is not last: %s → %s" % (before, after))
        wait_until("the server to save the order", lambda: self.page.api_order() == after)
        self.page.reload()
        self.expect(self.page.order() == after, "the order did not survive a reload: %s, expected %s" % (self.page.order(), after))

    def test_wrong_password(self):
        if not self.args.wrong_password_camera:
            raise Skip("no --wrong-password-camera")
        self.page.open()
        self.wrong_id = self.page.add_camera("Wrong password", self.args.wrong_password_camera)
        cell = wait_until("the cell to say authentication failed",
                          lambda: (lambda c: c if c["state"] == "authenticationFailed" else None)(self.page.cell(self.wrong_id)),
                          timeout=30)
        self.expect("authentication failed" in cell["text"].lower(), "the cell says %r" % cell["text"])
        self.shot("wrong_password")

    def test_reconnect(self):
        self.need_cameras()
        if not (self.args.break_command and self.args.restore_command and self.args.break_camera):
            raise Skip("no --break-camera, --break-command and --restore-command")
        camera_id = self.cameras.get(self.args.break_camera)
        self.expect(camera_id, "--break-camera %s is not one of the --camera names" % self.args.break_camera)
        self.page.open()
        marker = self.page.load_marker()
        self.page.wait_playing(camera_id, advance=0.5)
        subprocess.run(self.args.break_command, shell=True, check=True, timeout=60)
        try:
            wait_until("the cell to say reconnecting",
                       lambda: "reconnecting" in self.page.states_seen(camera_id), timeout=40)
            cell = self.page.cell(camera_id)
            self.shot("reconnecting")
        finally:
            subprocess.run(self.args.restore_command, shell=True, check=True, timeout=60)
        self.expect(cell["state"] != "live" or "reconnecting" in self.page.states_seen(camera_id),
                    "the cell never left live: %s" % self.page.states_seen(camera_id))
        wait_until("the cell to be live again", lambda: self.page.cell(camera_id)["state"] == "live", timeout=60)
        self.page.wait_playing(camera_id, advance=1.0, timeout=30)
        self.expect(self.page.load_marker() == marker, "the page was reloaded")

    def test_fullscreen(self):
        self.need_cameras()
        self.page.open()
        camera_id = next(iter(self.cameras.values()))
        self.page.cell_element(camera_id).click()
        wait_until("the full-screen view", self.page.viewer_open)
        state = self.page.wait_playing(None, advance=1.0, selector="#viewer video")
        self.expect(state["videoWidth"] > 0, "the full-screen video has no picture")
        self.expect("stream=main" in self.page.js("return window.watchbox.viewer.player.url"),
                    "full screen does not ask for the main stream")
        self.shot("fullscreen")
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        wait_until("Esc to close the full-screen view", lambda: not self.page.viewer_open())

    def test_offscreen_pause(self):
        self.need_cameras()
        if len(self.cameras) < 3:
            raise Skip("needs three cameras")
        set_viewport(self.driver, 420, 500)
        try:
            self.page.open()
            self.page.js("window.scrollTo(0, 0)")
            mine = set(self.cameras.values())
            ids = [camera_id for camera_id in self.page.order() if camera_id in mine]
            last = ids[-1]
            wait_until("the last cell (off-screen) to pause", lambda: self.page.cell(last)["player"] in ("paused", "idle"))
            self.page.js("window.scrollTo(0, document.documentElement.scrollHeight)")
            wait_until("the last cell to play once seen", lambda: self.page.cell(last)["player"] == "playing", timeout=20)
            wait_until("the first cell (now off-screen) to pause", lambda: self.page.cell(ids[0])["player"] in ("paused", "idle"))
        finally:
            set_viewport(self.driver, 1280, 800)

    def test_keyboard(self):
        self.need_cameras()
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        def press(*keys, shift=False):
            chain = ActionChains(self.driver)
            if shift:
                chain.key_down(Keys.SHIFT)
            for key in keys:
                chain.send_keys(key)
            if shift:
                chain.key_up(Keys.SHIFT)
            chain.perform()

        self.page.open()
        press("a")
        wait_until("A to open the add-camera form", self.page.dialog_open)
        press(Keys.ESCAPE)
        wait_until("Esc to close the form", lambda: not self.page.dialog_open())
        # The cells come from the API after the page loads: wait for them before using the arrows.
        order = wait_until("the cameras to be listed", lambda: self.page.order() or None)
        # An arrow focuses the first camera. In about one CI run in four the first key press reaches no
        # handler (not understood yet; the element that had focus is recorded): press again, at most
        # three times, but only while no camera has focus, so a second press never skips a camera.
        focus_of = "return document.activeElement.dataset.cameraId || null"
        where = "return document.activeElement.tagName + '.' + document.activeElement.className"
        missed = []
        for _ in range(3):
            before = self.page.js(where)
            press(Keys.ARROW_RIGHT)
            try:
                wait_until("an arrow to focus a camera", lambda: self.page.js(focus_of), timeout=3)
                break
            except Failure:
                missed.append(before)
        if missed:
            print(f"     note: {len(missed)} arrow press(es) focused nothing (focus was on {missed})")
        wait_until("an arrow to focus the first camera", lambda: self.page.js(focus_of) == order[0])
        press("f")
        wait_until("F to open the focused camera full screen",
                   lambda: self.page.viewer_open() and self.page.js("return window.watchbox.viewer.camera.id") == order[0])
        press(Keys.ESCAPE)
        wait_until("Esc to close full screen", lambda: not self.page.viewer_open())
        press(Keys.ARROW_RIGHT, shift=True)
        moved = wait_until("Shift+→ to move the camera", lambda: (lambda o: o if o[1] == order[0] else None)(self.page.order()))
        wait_until("the server to save the order", lambda: self.page.api_order() == moved)
        press(Keys.ARROW_LEFT, shift=True)
        wait_until("Shift+← to move it back", lambda: self.page.order() == order)
        wait_until("the server to save the order", lambda: self.page.api_order() == order)
        press("?")
        wait_until("? to list the shortcuts", lambda: self.page.js("return document.getElementById('shortcuts-dialog').open"))
        press(Keys.ESCAPE)

    # ----- runner -----

    def run(self, only):
        names = [name for name in dir(self) if name.startswith("test_")]
        order = ["empty_state", "form_validation", "add_cameras", "all_play", "screenshot_not_blank", "low_latency",
                 "drag_reorder", "wrong_password", "reconnect", "fullscreen", "offscreen_pause", "keyboard"]
        names = ["test_" + name for name in order if "test_" + name in names]
        if only:
            names = [name for name in names if name[5:] in only or name in only]
        passed = failed = skipped = 0
        for name in names:
            started = time.monotonic()
            try:
                getattr(self, name)()
            except Skip as reason:
                skipped += 1
                print("SKIP %s: %s" % (name[5:], reason), flush=True)
            except Exception as error:  # a failed check, or a browser that misbehaved
                failed += 1
                print("FAIL %s (%.1f s): %s" % (name[5:], time.monotonic() - started, error), flush=True)
                if not isinstance(error, Failure):
                    traceback.print_exc()
                try:
                    print("     screenshot: %s" % self.shot("failed_" + name[5:]))
                    for message in self.page.console_errors()[-5:]:
                        print("     console: %s" % message[:300])
                except Exception:
                    pass
            else:
                passed += 1
                print("PASS %s (%.1f s)" % (name[5:], time.monotonic() - started), flush=True)
        print("screenshots in %s" % self.shots)
        print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
        return failed == 0


def parse_size(text):
    if not text:
        return (0, 0)
    width, height = text.lower().split("x")
    return (int(width), int(height))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the WatchBox server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--camera", action="append", default=[], metavar="NAME=RTSP_URL",
                        help="a camera to add through the form (credentials may be in the URL); give four")
    parser.add_argument("--wrong-password-camera", metavar="RTSP_URL", help="a camera whose password is wrong")
    parser.add_argument("--break-camera", metavar="NAME", help="the --camera that --break-command stops")
    parser.add_argument("--break-command", help="shell command that stops that camera's RTSP server")
    parser.add_argument("--restore-command", help="shell command that starts it again")
    parser.add_argument("--size", type=parse_size, default=(0, 0), metavar="WxH", help="the cameras' video size")
    parser.add_argument("--screenshots", help="folder for the screenshots (default: a new temporary folder)")
    parser.add_argument("--only", default="", help="comma-separated test names")
    parser.add_argument("--headed", action="store_true", help="show the browser window")
    args = parser.parse_args()
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    suite = Suite(args)
    try:
        ok = suite.run(only)
    finally:
        suite.driver.quit()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
