"""Headless Chromium for the tests of the views: found on PATH (Debian: apt-get install
chromium; it is no part of CI, and the tests that need it skip saying so), started with
nothing fetched but the page and a profile of its own each time."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
MISSING = "Chromium is not installed (Debian: apt-get install chromium)"
# Headless, no sandbox (a container's root), no GPU; no updates, sync, QUIC or first-run
# pages: the browser fetches the page it is given and nothing else.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")


def chromium(folder: Path, *args: str) -> bytes:
    """Run Chromium with ``args`` and a fresh profile under ``folder``; its standard output."""
    profile = folder / f"profile-{len(list(folder.glob('profile-*')))}"
    done = subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                          timeout=120, check=False)
    return done.stdout
