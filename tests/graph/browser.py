"""Finding a headless Chromium for the tests that open graph pages in a real browser.

EAGERFLOW_BROWSER names the executable (any Chromium or Chrome, or Debian's `chromium-headless-shell`);
else the first of the usual names found on PATH. Without one those tests skip, saying how to get one.
"""
import os
import shutil
import subprocess

BROWSER_VARIABLE = "EAGERFLOW_BROWSER"
_NAMES = ("chromium-headless-shell", "chromium", "chromium-browser", "headless_shell", "chrome-headless-shell",
          "google-chrome", "google-chrome-stable", "chrome")
SKIP_REASON = (f"no headless Chromium: set {BROWSER_VARIABLE} to one, or install one "
               "(Debian: apt-get install --no-install-recommends chromium-headless-shell)")


def find_browser():
    """The browser's path, or None."""
    named = os.environ.get(BROWSER_VARIABLE)
    if named:
        return shutil.which(named) or (named if os.access(named, os.X_OK) else None)
    return next((path for path in map(shutil.which, _NAMES) if path), None)


def run_browser(*arguments, timeout=120):
    """Runs the browser headless on `arguments` (flags, then a URL); the finished process."""
    command = [find_browser(), "--headless", "--no-sandbox", "--disable-gpu", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
