#!/usr/bin/python3
"""The daemon's web page in a real browser: Debian's Chromium driven through chromedriver by Selenium.

Starts `lightshow daemon --web 127.0.0.1:PORT` on the demo track (its own config, socket and port in WORKDIR),
loads the page in headless Chromium and checks what it draws against `lightshow ctl status`:

  help        the first visit shows a help balloon; once dismissed a reload shows none
  levels      the canvas pixels at each light's centre decode to the levels ctl status reports (paused, held)
  live        while playing, the pixels follow the page's newest frame and the levels move
  round       each light is a circle of the expected radius, in a row (landscape) or a column (portrait)
  toolbar     a darker strip at the bottom while playing; gone after `ctl stop`, the lights take its room
  slider      keyboard moves of a range slider retune the band ctl status reports; a set-band on the control
              socket moves the slider
  fullscreen  one light fills the viewport in its colour at its level; a tap shows all three full screen
  reconnect   after the daemon restarts on the same port the page reconnects and draws new frames
  token       with [web] token the page asks for it once, connects with it, and keeps it across reloads
  title       a title full of markup and a bidi override is drawn and shown as text, nothing of it runs

Prints one JSON line per check: {"check": NAME, "ok": true|false, "detail": TEXT, "seconds": S}; exits 0 when every check
passed. Every wait polls a condition against a deadline (the machine may be loaded). Run by
Tests/IntegrationTests/WebPageBrowserTests.swift; by hand:
  /usr/bin/python3 Tests/Browser/web_page_test.py --lightshow .build/debug/lightshow --workdir "$(mktemp -d)"
"""
import argparse
import json
import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

DEADLINE = 45.0          # seconds for any one condition
WHOLE_RUN = 600.0        # the script gives up (and cleans up) after this
ALPHA_TOLERANCE = 0.04   # decoded alpha vs level: 8-bit canvas, gradient dithering
COLOURS = {"bass": (0xFF, 0x3B, 0x30), "mid": (0x34, 0xC7, 0x59), "treble": (0x0A, 0x84, 0xFF)}
BACKGROUND = {"from": (0x20, 0x40, 0x60), "to": (0x70, 0x50, 0x30), "angle": 30.0}
MARGIN, TOOLBAR = 0.04, 0.08
PORTRAIT = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
LANDSCAPE = {"width": 844, "height": 390, "deviceScaleFactor": 2, "mobile": True}


class CheckFailed(Exception):
    pass


def report(check, ok, detail, seconds=0.0):
    print(json.dumps({"check": check, "ok": ok, "detail": detail, "seconds": round(seconds, 1)}), flush=True)


def poll(what, condition, deadline=DEADLINE, interval=0.05):
    """Returns condition()'s first truthy value; fails naming `what` and the last value seen after the deadline."""
    end = time.monotonic() + deadline
    last = None
    while True:
        try:
            last = condition()
        except CheckFailed:
            raise
        except Exception as error:  # the page or the daemon may be between states
            last = error
        if last and not isinstance(last, Exception):
            return last
        if time.monotonic() > end:
            raise CheckFailed(f"timed out after {deadline:.0f} s waiting for {what}; last: {last!r}")
        time.sleep(interval)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """`lightshow daemon --web` with its own config, control socket and log in `workdir`."""

    def __init__(self, binary, workdir, port, token=None, input=None):
        self.binary, self.workdir, self.port, self.input = binary, workdir, port, input
        self.config = os.path.join(workdir, "lightshow.toml")
        self.socket = os.path.join(workdir, "control.sock")
        self.log = os.path.join(workdir, "daemon.log")
        self.process = None
        hexa = lambda c: "#%02X%02X%02X" % c
        web = f'\n[web]\nlisten = "127.0.0.1:{port}"\ntoken = "{token}"\n' if token else ""
        with open(self.config, "w") as f:
            f.write(f'''[input]
source = "demo"
[player]
source = "none"
[playback]
paused_dim = 1
fade_out = "0ms"
[background]
from = "{hexa(BACKGROUND["from"])}"
to = "{hexa(BACKGROUND["to"])}"
angle = {BACKGROUND["angle"]}
[scene]
margin = {MARGIN}
toolbar_height = {TOOLBAR}
[control]
socket = "{self.socket}"
{web}''')

    def start(self):
        env = dict(os.environ, RUNTIME_DIRECTORY=self.workdir)
        for key in ("NOTIFY_SOCKET", "WATCHDOG_USEC"):
            env.pop(key, None)
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [self.binary, "daemon", "--config", self.config, "--web", f"127.0.0.1:{self.port}", "--fps", "30"]
                + (["--input", self.input] if self.input else []),
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
        poll("the daemon's web listener", self.answers)

    def answers(self):
        if self.process.poll() is not None:
            raise CheckFailed(f"the daemon exited with {self.process.returncode}: {self.tail()}")
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                return True
        except OSError:
            return False

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def tail(self):
        try:
            with open(self.log) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def ctl(self, command):
        result = subprocess.run([self.binary, "ctl", "--config", self.config, "--json", command],
                                capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise CheckFailed(f"ctl {command} exited {result.returncode}: {result.stderr.strip()}")
        reply = json.loads(result.stdout)
        if not reply.get("ok"):
            raise CheckFailed(f"ctl {command}: {reply}")
        return reply.get("result")

    def status(self):
        return self.ctl("status")

    def request(self, payload):
        """One request on the control socket itself, for commands ctl has no arguments for."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(20)
            s.connect(self.socket)
            s.sendall((json.dumps(payload) + "\n").encode())
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        reply = json.loads(data)
        if not reply.get("ok"):
            raise CheckFailed(f"{payload}: {reply}")
        return reply["result"]


# ---- The picture as the README describes it, computed here independently of the page. ----

def gradient_points(angle):
    theta = math.radians(angle)
    x, y = math.cos(theta), math.sin(theta)
    if abs(x) > abs(y):
        x = -1.0 if x < 0 else 1.0
        y = x * math.tan(theta)
    else:
        y = -1.0 if y < 0 else 1.0
        x = y / math.tan(theta)
    space = lambda px, py: ((px + 1) / 2, 1 - (py + 1) / 2)
    return space(-x, -y), space(x, y)


def background_at(x, y, width, height):
    (sx, sy), (ex, ey) = gradient_points(BACKGROUND["angle"])
    px, py = (x + 0.5) / width, (y + 0.5) / height
    dx, dy = ex - sx, ey - sy
    t = min(1.0, max(0.0, ((px - sx) * dx + (py - sy) * dy) / (dx * dx + dy * dy)))
    return tuple(a + (b - a) * t for a, b in zip(BACKGROUND["from"], BACKGROUND["to"]))


def layout(width, height, toolbar_visible):
    """Light centres and radius: a row when width ≥ height, else a column; diameter = the cell's shorter side."""
    toolbar = round(height * TOOLBAR) if toolbar_visible else 0
    content = height - toolbar
    margin = min(width, height) * MARGIN
    lights = {}
    for index, band in enumerate(("bass", "mid", "treble")):
        if width >= height:
            w = max(0.0, (width - 4 * margin) / 3)
            cell = (margin + index * (w + margin), margin, w, max(0.0, content - 2 * margin))
        else:
            h = max(0.0, (content - 4 * margin) / 3)
            cell = (margin, margin + index * (h + margin), max(0.0, width - 2 * margin), h)
        lights[band] = (cell[0] + cell[2] / 2, cell[1] + cell[3] / 2, min(cell[2], cell[3]) / 2)
    return lights, toolbar


def decode_alpha(pixel, colour, under):
    """The alpha that composites `colour` over `under` into `pixel`, from the channels where they differ enough."""
    estimates = [(p - u) / (c - u) for p, c, u in zip(pixel, colour, under) if abs(c - u) >= 48]
    return sum(estimates) / len(estimates)


class Page:
    READ = """
        const canvas = document.getElementById('show'), ctx = canvas.getContext('2d');
        const px = (x, y) => Array.from(ctx.getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3));
        const s = window.lightshow;
        return { width: canvas.width, height: canvas.height, drawn: s.drawn, frames: s.frames, scenes: s.scenes,
                 connected: s.connected, connects: s.connects, full: s.full,
                 pixels: arguments[0].map(([x, y]) => px(x, y)) };"""

    def __init__(self, driver, url):
        self.driver, self.url = driver, url

    def read(self, points=()):
        return self.driver.execute_script(self.READ, [list(p) for p in points])

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--user-data-dir={profile}", "--window-size=900,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)
    driver.set_page_load_timeout(60)
    return driver


def emulate(driver, metrics):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def levels_of(status):
    return {band: float(status["levels"][band]) for band in COLOURS}


def held_levels(daemon):
    """Paused (paused_dim = 1 holds the last live levels): the same levels in three status replies a poll apart,
    all asked once the pause has taken effect. `ctl pause` only sends it, and replies between two playing frames
    agree too; the first after it may still show the last playing frame."""
    seen = []

    def stable():
        status = daemon.status()
        if status["state"] != "paused":
            seen.clear()
            return None
        seen.append(levels_of(status))
        return seen[-1] if len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3] else None
    return poll("steady paused levels", stable)


def light_points(width, height, toolbar_visible):
    lights, _ = layout(width, height, toolbar_visible)
    return lights, [(lights[b][0], lights[b][1]) for b in COLOURS]


def check_levels(daemon, page):
    """Three held moments: the pixels at the light centres decode to the status levels."""
    samples = []
    previous = None
    for _ in range(3):
        daemon.ctl("play")
        if previous is not None:
            poll("levels that moved on", lambda: max(abs(levels_of(daemon.status())[b] - previous[b]) for b in COLOURS) > 0.05)
        daemon.ctl("pause")
        wanted = held_levels(daemon)

        def matches():
            state = page.read()
            lights, points = light_points(state["width"], state["height"], True)
            state = page.read(points)
            if state["drawn"] is None or state["drawn"]["state"] != "paused":
                return None
            decoded = {}
            for band, (x, y), pixel in zip(COLOURS, points, state["pixels"]):
                decoded[band] = decode_alpha(pixel, COLOURS[band], background_at(x, y, state["width"], state["height"]))
            off = {b: round(decoded[b] - wanted[b], 3) for b in COLOURS}
            matches.last = f"status {wanted}, pixels {decoded}"
            return decoded if all(abs(v) <= ALPHA_TOLERANCE for v in off.values()) else None
        matches.last = ""
        try:
            decoded = poll("canvas alpha = status levels", matches)
        except CheckFailed as error:
            raise CheckFailed(f"{error}; {matches.last}")
        samples.append({b: (round(wanted[b], 3), round(decoded[b], 3)) for b in COLOURS})
        previous = wanted
    return f"(status, canvas) per band at 3 held moments: {samples}"


def check_live(daemon, page):
    """While playing, the centre pixels match the page's newest drawn levels, and those move."""
    daemon.ctl("play")
    poll("a playing frame drawn", lambda: (page.read()["drawn"] or {}).get("state") == "playing")
    seen = []

    def enough():
        state = page.read()
        lights, points = light_points(state["width"], state["height"], True)
        state = page.read(points)  # one script: pixels and drawn levels of the same paint
        drawn = state["drawn"]["levels"]
        for band, (x, y), pixel in zip(COLOURS, points, state["pixels"]):
            alpha = decode_alpha(pixel, COLOURS[band], background_at(x, y, state["width"], state["height"]))
            if abs(alpha - drawn[band]) > ALPHA_TOLERANCE:
                raise CheckFailed(f"{band}: pixel alpha {alpha:.3f} but the page drew level {drawn[band]:.3f}")
        if not seen or seen[-1] != (state["drawn"]["index"], drawn["bass"]):
            seen.append((state["drawn"]["index"], drawn["bass"]))
        return len(set(b for _, b in seen)) >= 5
    poll("five different bass levels drawn", enough)
    return f"frames (index, bass) drawn and matched: {seen[:8]}"


def check_round(page, toolbar_visible=True):
    """Inside each circle's edge the light's alpha, just outside it the background: round, where expected."""
    state = page.read()
    width, height = state["width"], state["height"]
    lights, _ = layout(width, height, toolbar_visible)
    points, kinds = [], []
    for band, (cx, cy, r) in lights.items():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            points += [(cx + dx * (r - 4), cy + dy * (r - 4)), (cx + dx * (r + 4), cy + dy * (r + 4))]
            kinds += [(band, True), (band, False)]
    points += [(cx, cy) for cx, cy, _ in lights.values()]
    state = page.read(points)
    centres = state["pixels"][-3:]
    for (band, inside), (x, y), pixel in zip(kinds, points, state["pixels"]):
        colour = COLOURS[band]
        under = background_at(x, y, width, height)
        centre = decode_alpha(centres[list(COLOURS).index(band)], colour, background_at(*lights[band][:2], width, height))
        if centre < 0.15:
            continue  # too dim to tell an edge
        alpha = decode_alpha(pixel, colour, under)
        if inside and abs(alpha - centre) > 0.08 or not inside and abs(alpha) > 0.08:
            raise CheckFailed(f"{band} at ({x:.0f},{y:.0f}) {'inside' if inside else 'outside'}: alpha {alpha:.2f}, centre {centre:.2f}")
    orientation = "row" if width >= height else "column"
    return f"{orientation} on {width}x{height}: " + ", ".join(f"{b} r={r:.0f}" for b, (_, _, r) in lights.items())


def check_toolbar(daemon, page):
    daemon.ctl("play")

    def strip(darker):
        state = page.read()
        width, height = state["width"], state["height"]
        x, y = 2, height - 2
        state = page.read([(x, y)])
        under = background_at(x, y, width, height)
        ratio = sum(state["pixels"][0]) / sum(under)
        strip.last = f"pixel {state['pixels'][0]} over gradient {tuple(round(v) for v in under)}: ratio {ratio:.2f}"
        drawn = state["drawn"] or {}
        return (drawn.get("state") == "playing" and 0.55 < ratio < 0.75) if darker else \
               (drawn.get("state") == "stopped" and 0.95 < ratio < 1.05)
    strip.last = ""
    poll("the toolbar strip (35% black) while playing", lambda: strip(True))
    before = strip.last
    title = page.read()["drawn"]["title"]
    daemon.ctl("stop")
    poll("no strip after ctl stop", lambda: strip(False))
    after = strip.last
    state = page.read()
    lights, _ = layout(state["width"], state["height"], False)
    layout_now = page.js("return window.lightshow.layout")
    if layout_now["toolbar"]["height"] != 0:
        raise CheckFailed(f"stopped, yet the page's toolbar is {layout_now['toolbar']['height']} px")
    for light in layout_now["lights"]:
        cx, cy, r = lights[light["band"]]
        if abs(light["x"] - cx) > 0.5 or abs(light["y"] - cy) > 0.5 or abs(light["r"] - r) > 0.5:
            raise CheckFailed(f"stopped: {light} where the lights with the toolbar's room are {lights}")
    return f"playing ({title!r}): {before}; stopped: {after}; lights grew to r={lights['bass'][2]:.0f}"


def check_slider(daemon, page, driver):
    daemon.ctl("play")
    upper = driver.find_element(By.CSS_SELECTOR, "#band-bass .upper")
    lower = driver.find_element(By.CSS_SELECTOR, "#band-mid .lower")
    start = daemon.status()["bands"]
    if start["bass"]["upper"] != 250 or start["mid"]["lower"] != 250:
        raise CheckFailed(f"unexpected starting bands {start}")
    page.js("arguments[0].focus()", upper)
    upper.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)   # 250 → 315 → 400 Hz on the third-octave series
    poll("bass upper 400 Hz in ctl status", lambda: daemon.status()["bands"]["bass"]["upper"] == 400)
    page.js("arguments[0].focus()", lower)
    lower.send_keys(Keys.ARROW_LEFT)                      # 250 → 200 Hz
    poll("mid lower 200 Hz in ctl status", lambda: daemon.status()["bands"]["mid"]["lower"] == 200)
    page.js("document.activeElement.blur()")
    bands = daemon.status()["bands"]
    # The other way: a change made elsewhere moves the knob (the scene event).
    daemon.request({"id": 1, "cmd": "set-band", "band": "treble", "lower": 2000, "upper": 12500})
    poll("treble knobs at 2k and 12.5k", lambda: page.js(
        "const b = document.getElementById('band-treble');"
        "return b.querySelector('.lower').value === '33' && b.querySelector('.upper').value === '41'"))
    label = page.js("return document.querySelector('#band-treble .value').textContent")
    # A finger's way: drag the treble's upper knob left by a fifth of the track.
    knob = driver.find_element(By.CSS_SELECTOR, "#band-treble .upper")
    track = page.js("const r = arguments[0].getBoundingClientRect(); return [r.width, "
                    "parseFloat(getComputedStyle(arguments[0]).fontSize)]", knob)
    thumb = 1.5 * track[1]
    centre = thumb / 2 + (41 - 13) / 30 * (track[0] - thumb) - track[0] / 2   # index 41 = 12.5 kHz on 13…43
    webdriver.ActionChains(driver).move_to_element_with_offset(knob, int(centre), 0).click_and_hold() \
        .move_by_offset(-int(track[0] / 10), 0).move_by_offset(-int(track[0] / 10), 0).release().perform()
    dragged = poll("a lower treble upper edge in ctl status", lambda: (
        lambda t: t if t["upper"] < 12500 and t["lower"] == 2000 else None)(daemon.status()["bands"]["treble"]))
    return f"keys moved bass.upper 250→{bands['bass']['upper']:g}, mid.lower 250→{bands['mid']['lower']:g}; " \
           f"socket set-band treble 2000–12500 → slider {label!r}; a drag → treble {dragged['lower']:g}–{dragged['upper']:g}"


def check_fullscreen(daemon, page, driver):
    daemon.ctl("play")
    daemon.ctl("pause")
    wanted = held_levels(daemon)
    driver.find_element(By.CSS_SELECTOR, '[data-full="bass"]').click()

    def fills():
        return page.js("""
            const r = document.getElementById('show').getBoundingClientRect();
            return document.body.classList.contains('full') && r.left === 0 && r.top === 0
                && Math.abs(r.width - innerWidth) < 1 && Math.abs(r.height - innerHeight) < 1
                && window.lightshow.drawn.state === 'paused' && window.lightshow.full === 'bass'""")
    poll("the canvas filling the viewport", fills)
    mode = "Fullscreen API" if page.js("return document.fullscreenElement !== null") else "CSS fallback"

    def one_light():
        state = page.read()
        w, h = state["width"], state["height"]
        points = [(1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2), (w / 2, h / 2)]
        state = page.read(points)
        alphas = [decode_alpha(p, COLOURS["bass"], (0, 0, 0)) for p in state["pixels"]]
        one_light.last = f"alphas {[round(a, 3) for a in alphas]} vs bass {wanted['bass']:.3f}"
        return all(abs(a - wanted["bass"]) <= ALPHA_TOLERANCE for a in alphas)
    one_light.last = ""
    try:
        poll("the whole screen in bass's colour at its level", one_light)
    except CheckFailed as error:
        raise CheckFailed(f"{error}; {one_light.last}")
    single = one_light.last
    # A tap goes back to all three, laid out on the whole screen.
    driver.find_element(By.ID, "show").click()
    poll("all three lights full screen", lambda: page.js("return window.lightshow.full") == "all")

    def three():
        state = page.read()
        lights, points = light_points(state["width"], state["height"], True)
        state = page.read(points)
        return all(abs(decode_alpha(p, COLOURS[b], background_at(x, y, state["width"], state["height"])) - wanted[b]) <= ALPHA_TOLERANCE
                   for b, (x, y), p in zip(COLOURS, points, state["pixels"]))
    poll("three lights at the status levels over the whole viewport", three)
    size = page.read()
    # A tap on the mid light makes the phone that light.
    lights, _ = layout(size["width"], size["height"], True)
    ratio = page.js("return window.devicePixelRatio")
    canvas = driver.find_element(By.ID, "show")
    webdriver.ActionChains(driver).move_to_element_with_offset(
        canvas, int(lights["mid"][0] / ratio - size["width"] / ratio / 2),
        int(lights["mid"][1] / ratio - size["height"] / ratio / 2)).click().perform()
    poll("the mid light chosen by a tap", lambda: page.js("return window.lightshow.full") == "mid")
    page.js("document.getElementById('exit').click()")
    left = "return !document.body.classList.contains('full') && document.getElementById('panel').offsetHeight > 0"
    poll("full screen left", lambda: page.js(left))
    # A browser without the Fullscreen API (a phone's, for a page): the page fills the window by itself.
    page.js("Element.prototype.requestFullscreen = undefined")
    driver.find_element(By.CSS_SELECTOR, '[data-full="treble"]').click()
    poll("the canvas filling the viewport without the API", lambda: page.js("""
        const r = document.getElementById('show').getBoundingClientRect();
        return document.fullscreenElement === null && window.lightshow.full === 'treble'
            && r.left === 0 && r.top === 0 && Math.abs(r.width - innerWidth) < 1 && Math.abs(r.height - innerHeight) < 1"""))

    def treble():
        state = page.read()
        w, h = state["width"], state["height"]
        state = page.read([(1, 1), (w - 2, h - 2), (w / 2, h / 2)])
        return all(abs(decode_alpha(p, COLOURS["treble"], (0, 0, 0)) - wanted["treble"]) <= ALPHA_TOLERANCE for p in state["pixels"])
    poll("the whole window in treble's colour at its level", treble)
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    poll("the fallback left with Esc", lambda: page.js(left))
    driver.get(page.url)
    poll("the page live again", lambda: page.read()["connected"] and page.read()["frames"] > 0)
    return f"{mode}; one light on {size['width']}x{size['height']}: {single}; tap → all three, tap on mid → mid; " \
           f"without the API: the window in treble, Esc leaves"


def check_reconnect(daemon, page):
    daemon.ctl("play")
    before = page.read()
    daemon.stop()
    poll("the page to notice the daemon went", lambda: not page.read()["connected"])
    shown = page.js("return document.getElementById('conn').textContent")
    daemon.start()
    state = poll("a new connection and new frames", lambda: (
        lambda s: s if s["connected"] and s["connects"] > before["connects"] and s["frames"] > before["frames"] + 10 else None)(page.read()))
    return f"connections {before['connects']} → {state['connects']}, frames {before['frames']} → {state['frames']}; " \
           f"while down: {shown!r}"


def check_help(page, driver):
    page.js("localStorage.clear()")
    driver.get(page.url)
    poll("a help balloon on the first visit", lambda: driver.find_elements(By.CSS_SELECTOR, ".balloon"))
    placed = page.js("return document.querySelector('.balloon').className")
    driver.find_element(By.CSS_SELECTOR, ".balloon .next").click()
    poll("the second balloon", lambda: page.js("return document.querySelector('.balloon .next') !== null && "
                                               "document.querySelector('.spotlight').id === 'transport'"))
    second = page.js("""const b = document.querySelector('.balloon').getBoundingClientRect(),
        a = document.getElementById('transport').getBoundingClientRect();
        return [document.querySelector('.balloon').className, b.bottom <= a.top || b.top >= a.bottom]""")
    if not second[1]:
        raise CheckFailed(f"the balloon covers its control: {second}")
    driver.find_element(By.CSS_SELECTOR, ".balloon .skip").click()
    poll("no balloon once skipped", lambda: not driver.find_elements(By.CSS_SELECTOR, ".balloon"))
    driver.get(page.url)
    poll("the page live again", lambda: page.read()["connected"] and page.read()["frames"] > 0)
    if driver.find_elements(By.CSS_SELECTOR, ".balloon"):
        raise CheckFailed("a balloon again after it was dismissed")
    return f"first: {placed!r}; second: {second[0]!r} clear of its control; none after reload"


def check_token(args, port, driver):
    """A daemon with a token: the page asks once, connects with it, and remembers it."""
    workdir = os.path.join(args.workdir, "token")
    os.makedirs(workdir, exist_ok=True)
    daemon = Daemon(args.lightshow, workdir, port, token="web-page-test-token-2f9c")
    daemon.start()
    try:
        url = f"http://127.0.0.1:{port}/"
        page = Page(driver, url)
        driver.get(url)
        page.js("localStorage.clear(); localStorage.setItem('lightshow.help', 'seen')")
        driver.get(url)
        poll("the token form", lambda: driver.find_element(By.ID, "token").is_displayed())
        field = driver.find_element(By.ID, "token-input")
        field.send_keys("web-page-test-token-2f9c", Keys.ENTER)
        poll("frames with the token", lambda: page.read()["connected"] and page.read()["frames"] > 5)
        driver.get(url)
        poll("frames again after a reload", lambda: page.read()["connected"] and page.read()["frames"] > 5)
        if driver.find_element(By.ID, "token").is_displayed():
            raise CheckFailed("asked for the token again")
        return "asked once, connected, remembered across a reload"
    finally:
        daemon.stop()


HOSTILE_NAME = '<img src=x onerror="window.pwned=1">\u202e&amp;'


def check_title(args, port, driver):
    """A hostile title (the input's name here; a media player's elsewhere) is drawn and shown as text."""
    workdir = os.path.join(args.workdir, "title")
    os.makedirs(workdir, exist_ok=True)
    fifo = os.path.join(workdir, HOSTILE_NAME + ".fifo")
    os.mkfifo(fifo)
    daemon = Daemon(args.lightshow, workdir, port, input=f"fifo:{fifo}")
    stop = threading.Event()

    def feed():
        # 440 Hz, raw 44100 Hz 16-bit stereo as fifo: reads by default; the writes block while the pipe is full.
        tone = b"".join(int(8000 * math.sin(2 * math.pi * 440 * i / 44100)).to_bytes(2, "little", signed=True) * 2
                        for i in range(4410))
        try:
            fd = os.open(fifo, os.O_WRONLY)
            while not stop.is_set():
                os.write(fd, tone)
        except OSError:
            pass  # the daemon went: the check is over
    threading.Thread(target=feed, daemon=True).start()
    daemon.start()
    try:
        url = f"http://127.0.0.1:{port}/"
        page = Page(driver, url)
        driver.get(url)
        page.js("localStorage.setItem('lightshow.help', 'seen')")
        driver.get(url)
        expected = HOSTILE_NAME.replace("\u202e", "") + ".fifo"
        poll("the hostile title drawn while playing", lambda: (page.read()["drawn"] or {}).get("title") == expected
             and page.read()["drawn"]["state"] == "playing")
        shown = page.js("return [document.title, document.getElementById('show').getAttribute('aria-label'), "
                        "document.querySelectorAll('img').length, window.pwned === undefined]")
        if shown[0] != f"▶ {expected} · lightshow" or expected not in shown[1] or shown[2] != 0 or not shown[3]:
            raise CheckFailed(f"title shown as {shown!r}, expected the text {expected!r}")
        return f"drawn and shown as text: {shown[0]!r}; no element made, nothing ran"
    finally:
        stop.set()
        daemon.stop()


def screenshots(driver, page, directory):
    paths = []
    for name, metrics in (("portrait", PORTRAIT), ("landscape", LANDSCAPE)):
        emulate(driver, metrics)
        poll(f"a {name} layout", lambda: (lambda s: (s["width"] >= s["height"]) == (name == "landscape")
                                          and s["drawn"]["state"] == "playing")(page.read()))
        path = os.path.join(directory, f"web-page-{name}.png")
        driver.save_screenshot(path)
        paths.append(path)
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lightshow", required=True, help="the lightshow executable")
    parser.add_argument("--workdir", required=True, help="an empty scratch directory")
    parser.add_argument("--screenshots", help="where to write web-page-portrait.png and web-page-landscape.png")
    parser.add_argument("--only", help="comma-separated checks to run (by hand, while working on one)")
    args = parser.parse_args()

    port = free_port()
    daemon = Daemon(args.lightshow, args.workdir, port)
    driver = None
    failures = 0

    def give_up():
        print(json.dumps({"check": "run", "ok": False, "detail": f"gave up after {WHOLE_RUN:.0f} s"}), flush=True)
        daemon.stop()
        if driver:
            try:
                driver.service.process.kill()
            except Exception:
                pass
        os._exit(3)
    watchdog = threading.Timer(WHOLE_RUN, give_up)
    watchdog.daemon = True
    watchdog.start()

    def run(name, check, *arguments):
        nonlocal failures
        if args.only and name not in args.only.split(","):
            return
        began = time.monotonic()
        try:
            report(name, True, check(*arguments), time.monotonic() - began)
        except Exception as error:
            failures += 1
            report(name, False, f"{type(error).__name__}: {error}", time.monotonic() - began)

    try:
        daemon.start()
        driver = start_browser(os.path.join(args.workdir, "chromium-profile"))
        emulate(driver, PORTRAIT)
        url = f"http://127.0.0.1:{port}/"
        page = Page(driver, url)
        driver.get(url)
        poll("the page connected with a scene and frames",
             lambda: (lambda s: s["connected"] and s["scenes"] > 0 and s["frames"] > 0)(page.read()))
        run("help", check_help, page, driver)
        run("levels", check_levels, daemon, page)
        run("live", check_live, daemon, page)
        run("round", check_round, page)
        emulate(driver, LANDSCAPE)
        daemon.ctl("pause")
        poll("a landscape canvas", lambda: (lambda s: s["width"] > s["height"])(page.read()))
        run("round-landscape", check_round, page)
        emulate(driver, PORTRAIT)
        run("toolbar", check_toolbar, daemon, page)
        run("slider", check_slider, daemon, page, driver)
        run("fullscreen", check_fullscreen, daemon, page, driver)
        run("reconnect", check_reconnect, daemon, page)
        if args.screenshots:
            daemon.ctl("play")
            run("screenshots", screenshots, driver, page, args.screenshots)
        daemon.stop()
        run("token", check_token, args, free_port(), driver)
        run("title", check_title, args, free_port(), driver)
    except Exception as error:
        failures += 1
        report("run", False, f"{type(error).__name__}: {error}; daemon log: {daemon.tail()}")
    finally:
        if driver:
            driver.quit()
        daemon.stop()
        watchdog.cancel()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
