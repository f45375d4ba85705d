"""lastmod from git: each file's newest commit time from ``git log``, with git run so
that a folder someone else filled cannot make it run a program, and its output bounded
in bytes and time (the caller, ``built_site``, gives the bounds and reports S110).
"""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import time

_CHUNK = 64 << 10  # bytes of git's output read at a time

# `git log` runs in a folder someone else may have filled: a repository there (or in a
# folder above) has a config of its own, and git runs what a config names (a pager, an
# fsmonitor hook, gpg for log.showSignature, an external diff, a textconv, a fetch for
# a partial clone's missing objects). So git reads no system or global config, takes
# from the user's environment only PATH (and a ceiling, which only narrows the search),
# and gets every setting that could run a program on its command line, which wins over
# any file. Its output is bounded in
# bytes and time. (A safe.directory of the global config is not seen either: a checkout
# that belongs to another user is S110, as git says.)
_GIT_ENVIRONMENT = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_ATTR_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "HOME": os.devnull,  # (no ~/.gitattributes, ~/.config/git/...)
    "LC_ALL": "C",
}
_GIT_SETTINGS = (
    "core.fsmonitor=false", "core.hooksPath=" + os.devnull, "core.pager=cat", "credential.helper=",
    "protocol.allow=never", "safe.bareRepository=explicit",
    "log.showSignature=false", "gpg.program=" + os.devnull, "gpg.ssh.program=" + os.devnull,
    "gpg.x509.program=" + os.devnull, "diff.external=", "log.follow=false", "log.showRoot=true",
    "i18n.logOutputEncoding=UTF-8",
)
_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)")


def git_command(folder: str) -> list[str]:
    settings = [part for setting in _GIT_SETTINGS for part in ("-c", setting)]
    # Each commit as NUL, its time, NUL, then its files, each ended by a NUL: a name
    # (which may hold any byte but NUL) can never pass for a commit's start.
    return ["git", "--no-pager", *settings, "-C", folder, "log", "--no-show-signature", "--no-ext-diff",
            "--no-textconv", "--format=%x00%cI", "--name-only", "--no-renames", "-z", "--relative", "--", "."]


def git_environment() -> dict[str, str]:
    """What git runs with: PATH (to be found), a ceiling the user set (which only
    narrows where a repository is looked for), and the settings above."""
    keep = {name: os.environ[name] for name in ("PATH", "SYSTEMROOT", "GIT_CEILING_DIRECTORIES")
            if name in os.environ}
    return {**keep, **_GIT_ENVIRONMENT}


def run_bounded(command: list[str], environment: dict[str, str], limit: int,
                 timeout: float) -> tuple[int | None, bytes, bytes, bool]:
    """(exit status, stdout, start of stderr, whether stdout was cut) of a program
    run with no input; it is killed past ``limit`` bytes of output or ``timeout``
    seconds (status None then, when it was not cut)."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment, close_fds=True)
    assert process.stdout is not None and process.stderr is not None
    out, err = bytearray(), bytearray()
    deadline = time.monotonic() + timeout
    cut = timed_out = False
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data is out:
                    out += chunk
                elif len(err) < 4096:
                    err += chunk
            if len(out) > limit:
                cut = True
                break
    if cut or timed_out:
        process.kill()
    process.stdout.close()
    process.stderr.close()
    try:
        status = process.wait(timeout=max(deadline - time.monotonic(), 1))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        timed_out = True
    return (None if timed_out and not cut else status), bytes(out[:limit]) if cut else bytes(out), bytes(err), cut


def commit_times(data: bytes, cut: bool) -> dict[str, str] | None:
    """Each file's newest commit time from ``git log`` output (see ``git_command``);
    None when the output is not that. ``cut``: the output stopped early, and its last
    commit may be incomplete (the newest commits come first: what is read is right)."""
    tokens = data.split(b"\0")
    if tokens[0] != b"":
        return None if data else {}
    # Commits start at each empty token (a file name is never empty).
    starts = [index for index, token in enumerate(tokens) if not token]
    records = [tokens[first + 1:following] for first, following in zip(starts, starts[1:] + [len(tokens)], strict=True)]
    if cut:
        records = records[:-1]
    elif records and not records[-1]:
        records.pop()  # (the NUL that ends the output)
    times: dict[str, str] = {}
    for record in records:
        if not record or not _STAMP.fullmatch(record[0]):
            return None
        stamp, names = record[0].decode("ascii"), record[1:]
        if names:
            if not names[0].startswith(b"\n"):  # (git puts a newline between a commit and its files)
                return None
            names[0] = names[0][1:]
        for name in names:
            times.setdefault(os.fsdecode(name), stamp)
    return times


__all__ = ["commit_times", "git_command", "git_environment", "run_bounded"]
