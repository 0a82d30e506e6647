"""A small Chrome DevTools Protocol client over --remote-debugging-pipe.

Standard library only. Starts headless Chromium with a fresh profile,
opens pages, records console errors, exceptions and every network request
and failure, evaluates JavaScript and takes screenshots. Used by
browser_test.py (ctest) and screenshots.py (by hand).
"""

import base64
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

# The flags every run uses: no GPU, no network side channels, no first-run
# UI, a fresh profile.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--remote-debugging-pipe",
]

TIMEOUT = 60.0  # seconds for any one answer from the browser


def find_chromium():
    """The Chromium binary: $LBSIM_CHROMIUM, else chromium on PATH; None if absent."""
    named = os.environ.get("LBSIM_CHROMIUM")
    if named:
        return named if shutil.which(named) else None
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Browser:
    """One headless Chromium process, driven over its debugging pipe."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="lbsim-chromium-")
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()

        def child_fds():
            # Chromium reads commands on fd 3 and writes answers on fd 4.
            # Copies first: a pipe end may itself be fd 3 or 4.
            read_end, write_end = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
            preexec_fn=child_fds,
            close_fds=False,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.writer = os.fdopen(to_chrome_w, "wb", buffering=0)
        self.reader = os.fdopen(from_chrome_r, "rb", buffering=0)
        self.messages = queue.Queue()
        self.events = []  # (session, method, params) of every event seen
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            chunk = self.reader.read(65536)
            if not chunk:
                self.messages.put(None)
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                self.messages.put(json.loads(message))

    def send(self, method, params=None, session=None):
        """Sends a command and returns its result; raises BrowserError on an error."""
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        self.writer.write(json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._next(deadline, f"the answer to {method}")
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})

    def _next(self, deadline, what):
        left = deadline - time.monotonic()
        if left <= 0:
            raise BrowserError(f"timed out waiting for {what}")
        try:
            message = self.messages.get(timeout=left)
        except queue.Empty:
            raise BrowserError(f"timed out waiting for {what}") from None
        if message is None:
            raise BrowserError(f"the browser closed its pipe while waiting for {what}")
        if "method" in message:
            self.events.append((message.get("sessionId"), message["method"], message.get("params", {})))
        return message

    def wait_event(self, method, session):
        """Waits for event `method` of `session` (seen already or to come)."""
        deadline = time.monotonic() + TIMEOUT
        seen = 0
        while True:
            for s, m, p in self.events[seen:]:
                if s == session and m == method:
                    return p
            seen = len(self.events)
            self._next(deadline, method)

    def close(self):
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close")
                except (BrowserError, OSError):
                    pass
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """A tab showing one URL, with what it logged and requested."""

    def __init__(self, browser, url, dark=False, width=1400, height=900):
        self.browser = browser
        self.url = url
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Runtime", "Log", "Network", "Page"):
            browser.send(f"{domain}.enable", session=self.session)
        browser.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=self.session,
        )
        browser.send(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]},
            session=self.session,
        )
        self.first_event = len(browser.events)
        browser.send("Page.navigate", {"url": url}, session=self.session)
        browser.wait_event("Page.loadEventFired", self.session)

    def _events(self):
        return [(m, p) for s, m, p in self.browser.events[self.first_event :] if s == self.session]

    def problems(self):
        """Console errors, exceptions, log errors, failed loads and any request
        for something other than the page itself, as readable lines."""
        out = []
        for method, p in self._events():
            if method == "Runtime.exceptionThrown":
                out.append(f"exception: {p['exceptionDetails'].get('text')}")
            elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(f"console.{p['type']}: {[a.get('value') for a in p.get('args', [])]}")
            elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(f"log error: {p['entry'].get('text')} ({p['entry'].get('url', '')})")
            elif method == "Network.loadingFailed":
                out.append(f"failed load: {p.get('errorText')} ({p.get('type')})")
            elif method == "Network.requestWillBeSent" and p["request"]["url"] != self.url:
                out.append(f"request for another resource: {p['request']['url']}")
        return out

    def evaluate(self, expression):
        """The value of a JavaScript expression (JSON-able)."""
        result = self.browser.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=self.session,
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"evaluate: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path):
        """Writes a PNG of the whole page."""
        size = self.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        shot = self.browser.send(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1},
            },
            session=self.session,
        )
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
