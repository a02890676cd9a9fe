"""Browser-side helpers for WatchBox's web app tests: start headless Chromium, and drive the app the
way a person does (the add-camera form, dragging, full screen), reading what it shows through the
test hooks the app keeps on purpose: every cell is `.cell[data-camera-id][data-state]` with a real
<video> inside, and `window.watchbox` exposes the app's state.

Needs Debian's `chromium` and `chromium-driver`, python3-selenium and python3-pil. Only loopback.
"""

import io
import json
import os
import shutil
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                  "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars",
                  "--disable-background-timer-throttling", "--disable-renderer-backgrounding")


class Failure(AssertionError):
    """A check that did not hold; the message says what was expected and what was seen."""


def start_chromium(width=1280, height=800, headed=False):
    """A Chromium WebDriver whose page viewport is exactly width × height CSS pixels."""
    options = Options()
    for flag in CHROMIUM_FLAGS:
        if headed and flag == "--headless=new":
            continue
        options.add_argument(flag)
    options.add_argument("--window-size=%d,%d" % (width, height))
    options.binary_location = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver, width, height, scale=1, mobile=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})


def wait_until(what, check, timeout=15.0, interval=0.1):
    """Polls `check()` until it returns something truthy; raises Failure("timed out waiting for …")."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = check()
        except WebDriverException as error:
            last = error
            if "invalid session" in str(error).lower():
                raise
        else:
            if last:
                return last
        if time.monotonic() >= deadline:
            raise Failure("timed out after %.0f s waiting for %s (last seen: %r)" % (timeout, what, last))
        time.sleep(interval)


def luma_variance(png_bytes, box):
    """Variance of the luma of `box` (left, top, right, bottom in image pixels) in a PNG."""
    from PIL import Image, ImageStat
    image = Image.open(io.BytesIO(png_bytes)).convert("L")
    return ImageStat.Stat(image.crop(tuple(int(v) for v in box))).var[0]


class WatchBoxPage:
    """The web app at `server` (e.g. http://127.0.0.1:8080) in `driver`."""

    def __init__(self, driver, server):
        self.driver = driver
        self.server = server.rstrip("/")

    # ----- API (only to check what the UI did) -----

    def api(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.server + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return json.loads(text) if text else None

    def api_order(self):
        return [camera["id"].upper() for camera in self.api("GET", "/api/cameras")]

    # ----- page -----

    def open(self):
        self.driver.get(self.server + "/")
        wait_until("the app to load its cameras",
                   lambda: self.js("return !!(window.watchbox && window.watchbox.store.loaded)"), timeout=20)
        self.js("window.__loadedAt = window.__loadedAt || performance.timeOrigin")
        self.install_state_log()

    def reload(self):
        self.open()

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def load_marker(self):
        """Changes only when the page is loaded again (to prove something happened without a reload)."""
        return self.js("return performance.timeOrigin")

    def install_state_log(self):
        """Records every data-state every cell takes, so a brief state is not missed between polls."""
        self.js("""
          if (window.__stateLog) return;
          window.__stateLog = [];
          const record = (cell) => window.__stateLog.push([cell.dataset.cameraId, cell.dataset.state, performance.now()]);
          new MutationObserver((mutations) => {
            for (const m of mutations) {
              if (m.type === 'attributes' && m.target.classList.contains('cell')) record(m.target);
              for (const node of m.addedNodes || []) if (node.classList?.contains('cell')) record(node);
            }
          }).observe(document.getElementById('grid'), {attributes: true, attributeFilter: ['data-state'], childList: true, subtree: true});
          document.querySelectorAll('.cell').forEach(record);
        """)

    def states_seen(self, camera_id):
        log = self.js("return window.__stateLog || []")
        return [state for cid, state, _ in log if cid == camera_id]

    def cells(self):
        """[{id, name, state, player, text}] in grid order."""
        return self.js("""
          return [...document.querySelectorAll('#grid .cell')].map(c => ({
            id: c.dataset.cameraId, state: c.dataset.state, player: c.dataset.player,
            name: c.querySelector('.cell-name').textContent, text: c.innerText}));
        """)

    def order(self):
        return [cell["id"] for cell in self.cells()]

    def cell_by_name(self, name):
        for cell in self.cells():
            if cell["name"] == name:
                return cell
        return None

    def cell_element(self, camera_id):
        return self.driver.find_element(By.CSS_SELECTOR, '.cell[data-camera-id="%s"]' % camera_id)

    def cell(self, camera_id):
        for cell in self.cells():
            if cell["id"] == camera_id:
                return cell
        return None

    def visible(self, selector):
        """The first element matching `selector` that a person can see and click."""
        for element in self.driver.find_elements(By.CSS_SELECTOR, selector):
            if element.is_displayed() and self.js("return getComputedStyle(arguments[0]).visibility !== 'hidden'", element):
                return element
        raise Failure("nothing visible matches %s" % selector)

    # ----- the add-camera form -----

    def open_add_dialog(self):
        self.visible('[data-app-action="add"]').click()
        wait_until("the camera dialog to open", lambda: self.js("return document.getElementById('camera-dialog').open"))

    def fill(self, name, value):
        field = self.driver.find_element(By.CSS_SELECTOR, '#camera-dialog [name="%s"]' % name)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.DELETE)
        if value:
            field.send_keys(value)
        return field

    def field_errors(self):
        """{field: message} for every error shown under a field, plus "form" for the banner."""
        return self.js("""
          const out = {};
          for (const el of document.querySelectorAll('#camera-dialog [data-error-for]'))
            if (!el.hidden && !el.classList.contains('hint')) out[el.dataset.errorFor] = el.textContent;
          const banner = document.querySelector('#camera-dialog .form-error');
          if (!banner.hidden) out.form = banner.textContent;
          return out;
        """)

    def submit_dialog(self):
        self.driver.find_element(By.CSS_SELECTOR, '#camera-dialog [data-action="save"]').click()

    def dialog_open(self):
        return self.js("return document.getElementById('camera-dialog').open")

    def close_dialog(self):
        if self.dialog_open():
            self.driver.find_element(By.CSS_SELECTOR, '#camera-dialog [data-action="cancel"]').click()
            wait_until("the dialog to close", lambda: not self.dialog_open())

    def add_camera(self, name, url, username=None, password=None, timeout=15):
        """Adds a camera through the form as a person would; returns its id. Credentials in `url`
        are moved into the username and password fields by the form itself."""
        before = set(self.order())
        self.open_add_dialog()
        self.fill("name", name)
        self.fill("rtspURL", url)
        if username is not None:
            self.fill("username", username)
        else:
            # Leaving the address field moves credentials typed into it into their own fields.
            self.driver.find_element(By.CSS_SELECTOR, '#camera-dialog [name="username"]').click()
        if password is not None:
            self.fill("password", password)
        self.submit_dialog()

        def done():
            errors = self.field_errors()
            if errors:
                raise Failure("the form refused %s: %s" % (name, errors))
            return not self.dialog_open() and (set(self.order()) - before)
        added = wait_until("%s to appear in the grid" % name, done, timeout=timeout)
        return added.pop()

    def test_connection_in_dialog(self, timeout=20):
        """Clicks "Test connection" in the open dialog; returns (tone, text) of the result."""
        self.driver.find_element(By.CSS_SELECTOR, '#camera-dialog [data-action="test"]').click()
        return wait_until("the connection test's result", lambda: self.js("""
          const box = document.querySelector('#camera-dialog .test-result');
          return !box.hidden && box.dataset.tone !== 'busy' ? [box.dataset.tone, box.innerText] : null;
        """), timeout=timeout)

    # ----- video -----

    def video_state(self, camera_id, selector=None):
        """{currentTime, videoWidth, videoHeight, readyState, lag, paused} of a cell's (or any) video."""
        return self.js("""
          const v = arguments[1] ? document.querySelector(arguments[1])
                                 : document.querySelector('.cell[data-camera-id="' + arguments[0] + '"] video');
          if (!v) return null;
          const b = v.buffered;
          return {currentTime: v.currentTime, videoWidth: v.videoWidth, videoHeight: v.videoHeight,
                  readyState: v.readyState, paused: v.paused,
                  lag: b.length ? b.end(b.length - 1) - v.currentTime : null,
                  buffered: b.length ? b.end(b.length - 1) - b.start(0) : 0};
        """, camera_id, selector)

    def wait_playing(self, camera_id, advance=1.0, timeout=25, selector=None):
        """Waits until the video's currentTime moves forward by `advance` seconds; returns its state."""
        start = wait_until("video of %s to start" % camera_id,
                           lambda: (lambda s: s if s and s["readyState"] >= 2 and s["currentTime"] > 0 else None)(
                               self.video_state(camera_id, selector)), timeout=timeout)
        first = start["currentTime"]
        return wait_until("video of %s to advance %.1f s past %.2f" % (camera_id, advance, first),
                          lambda: (lambda s: s if s and s["currentTime"] >= first + advance else None)(
                              self.video_state(camera_id, selector)), timeout=timeout)

    def canvas_variance(self, camera_id, selector=None):
        """Luma variance of the video's current frame drawn on a 64×36 canvas (0 = blank)."""
        return self.js("""
          const v = arguments[1] ? document.querySelector(arguments[1])
                                 : document.querySelector('.cell[data-camera-id="' + arguments[0] + '"] video');
          const c = document.createElement('canvas'); c.width = 64; c.height = 36;
          const ctx = c.getContext('2d'); ctx.drawImage(v, 0, 0, 64, 36);
          const d = ctx.getImageData(0, 0, 64, 36).data;
          let s = 0, s2 = 0, n = 0;
          for (let i = 0; i < d.length; i += 4) { const y = 0.299*d[i] + 0.587*d[i+1] + 0.114*d[i+2]; s += y; s2 += y*y; n++; }
          const m = s / n; return s2 / n - m * m;
        """, camera_id, selector)

    def screenshot_cell_variances(self, path=None, inset=0.03):
        """Takes a screenshot (saved to `path` when given) and returns {camera id: luma variance} of
        each cell (`inset` trimmed from every side, for the rounded corners). The name, status and
        message overlays are hidden for the shot, so only the picture itself can make a cell vary."""
        overlays = "#grid .cell-head, #grid .cell-foot, #grid .cell-veil, #grid .cell-shade"
        self.js("document.querySelectorAll(arguments[0]).forEach(e => e.style.visibility = 'hidden')", overlays)
        time.sleep(0.1)
        try:
            png = self.driver.get_screenshot_as_png()
        finally:
            self.js("document.querySelectorAll(arguments[0]).forEach(e => e.style.visibility = '')", overlays)
        if path:
            with open(path, "wb") as out:
                out.write(png)
        rects = self.js("""
          const ratio = window.devicePixelRatio || 1;
          return [...document.querySelectorAll('#grid .cell')].map(c => {
            const r = c.getBoundingClientRect();
            return [c.dataset.cameraId, r.left * ratio, r.top * ratio, r.right * ratio, r.bottom * ratio];
          });
        """)
        result = {}
        for camera_id, left, top, right, bottom in rects:
            dx, dy = (right - left) * inset, (bottom - top) * inset
            result[camera_id] = luma_variance(png, (left + dx, top + dy, right - dx, bottom - dy))
        return result

    # ----- drag and drop -----

    def drag(self, from_id, to_id, steps=12):
        """Drags one cell onto another with the mouse (pointer events), in small moves."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", self.cell_element(from_id))
        source = self.js("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
                         self.cell_element(from_id))
        target = self.js("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
                         self.cell_element(to_id))
        actions = ActionChains(self.driver, duration=30)
        actions.move_to_element(self.cell_element(from_id)).click_and_hold()
        dx, dy = target[0] - source[0], target[1] - source[1]
        moved_x = moved_y = 0
        for step in range(1, steps + 1):
            x, y = round(dx * step / steps), round(dy * step / steps)
            actions.move_by_offset(x - moved_x, y - moved_y)
            moved_x, moved_y = x, y
        actions.pause(0.2).release().perform()

    # ----- full screen -----

    def viewer_open(self):
        return self.js("return !document.getElementById('viewer').hidden")

    def console_errors(self):
        try:
            return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        except WebDriverException:
            return []
