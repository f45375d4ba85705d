"""Between deploys, for Python: the build state read as a stream (``state_rows``) and
the IndexNow submission of what a build added or changed (``submit``). ``api``
gives them with the rest of the public functions."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

from . import arguments
from .codes import REGISTRY
from .diagnostics import Collector
from .folder import STATE
from .read.http import FetchOptions
from .state import Row, State, StateError
from .submit import (
    DEFAULT_ENDPOINT,
    MAX_BATCH,
    SubmitProgress,
    SubmitResult,
    key_location_problem,
    key_problem,
    submit_state,
)
from .write.build import resolve_out_dir
from .write.site_yaml import load_site
from .write.state import state_owner, state_path


def state_rows(path: str | os.PathLike[str], *, pending: bool = False) -> Iterator[Row]:
    """The rows of a build state (``build(state=...)``, ``output.state``), one URL each,
    in URL order, read as a stream: ``url``, ``digest``, ``lastmod``, ``first_seen``,
    ``last_seen``, ``changed`` (the build that added it or last changed it),
    ``submitted`` and ``pending`` (added or changed since it was last submitted).
    ``pending=True`` gives only those. A file that is no state raises ``StateError``
    (its ``code``: F105)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"state_rows() takes the path of a build state, not {type(path).__name__}")
    arguments.flag("state_rows", "pending", pending)
    state = State(os.fspath(path))
    try:
        yield from state.rows(pending=pending)
    finally:
        state.close()


def submit(key: str, *, site: str | os.PathLike[str] | None = None, state: str | os.PathLike[str] | None = None,
           out_dir: str | os.PathLike[str] | None = None, endpoint: str = DEFAULT_ENDPOINT,
           key_location: str | None = None, dry_run: bool = False, fetch: FetchOptions | None = None,
           progress: Callable[[SubmitProgress], None] | None = None, batch: int = MAX_BATCH,
           listed: Callable[[str], None] | None = None) -> SubmitResult:
    """Submit by IndexNow the URLs a build added or changed since they were last
    submitted, from its state: ``state`` (a path), or the state of the site description
    ``site`` (its ``output.state``, else the default file in its output folder,
    ``out_dir`` or ``output.dir``); with ``site``, a state of another description is
    O108.

    The key file ``KEY.txt`` at each host's root is checked first (R111); or
    ``key_location``: a path (``/keys/KEY.txt``), the same on every host, or a URL,
    for its own host only (any other host's is at its root); each host's batches
    carry the keyLocation on that host; URLs go to ``endpoint`` in JSON POSTs of at most ``batch`` (10,000) URLs of
    one host; 200 and 202 (R114) are recorded in the state at once, so a rerun sends
    only what is left; 400, 403 and 422 are R112; 429 and 5xx are retried after
    ``Retry-After`` (at most ``fetch.max_wait``) or 1, 2, 4 s, then R113 and the run
    stops. ``dry_run``: nothing is fetched, sent or recorded; ``would_send`` lists the
    URLs (or each goes to ``listed`` as it is read: a million need no list).
    ``fetch``: the client's limits (``allow_private`` for a local endpoint);
    ``progress`` is called after each batch taken."""
    problem = key_problem(key)
    if problem is not None:
        raise ValueError(f"submit(key={key!r}): {problem}")
    if site is None and state is None:
        raise TypeError("submit() takes site= (a site description) or state= (a build state's path), or both")
    for name, value in (("site", site), ("state", state), ("out_dir", out_dir)):
        if value is not None and not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"submit({name}=...) takes a path, not {type(value).__name__}")
    problem = key_location_problem(key_location)
    if problem is not None:
        raise ValueError(f"submit(key_location={key_location!r}): {problem}")
    if not isinstance(endpoint, str) or not endpoint.startswith(("http://", "https://")):
        raise ValueError(f"submit(endpoint={endpoint!r}) takes an http(s) URL")
    arguments.flag("submit", "dry_run", dry_run)
    arguments.whole("submit", "batch", batch, least=1, none=False)
    if batch > MAX_BATCH:
        raise ValueError(f"submit(batch={batch}): IndexNow takes at most {MAX_BATCH:,} URLs a request")
    arguments.instance("submit", "fetch", fetch, FetchOptions, "a FetchOptions")
    arguments.callback("submit", "progress", progress)
    arguments.callback("submit", "listed", listed)
    collector = Collector(REGISTRY)
    description = None
    if site is not None:
        found = _state_of(os.fspath(site), None if out_dir is None else os.fspath(out_dir), collector)
        if found is None:
            return SubmitResult(collector)
        state = state if state is not None else found
        description = state_owner(os.fspath(site), os.fspath(state))
    assert state is not None
    return submit_state(os.fspath(state), key, endpoint=endpoint, key_location=key_location, dry_run=dry_run,
                        fetch=fetch, batch=batch, progress=progress, description=description, collector=collector,
                        listed=listed)


def _state_of(site: str, out_dir: str | None, collector: Collector) -> str | None:
    """The state of a site description; None when the description cannot be read
    (reported)."""
    loaded = load_site(site, collector)
    if loaded is None:
        return None
    folder = resolve_out_dir(loaded, out_dir)
    return state_path(loaded, folder, None) or os.path.join(folder, STATE)


__all__ = ["Row", "StateError", "SubmitProgress", "SubmitResult", "state_rows", "submit"]
