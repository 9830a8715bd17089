"""Built routers per domain (whatever their design), rebuilt when a lexicon file changes, and the last good one kept when the
new files do not validate (so a hand edit gone wrong never takes routing down)."""
from __future__ import annotations

import gc
import threading
from dataclasses import dataclass
from pathlib import Path

from routing.core.errors import LexiconError, Problem
from routing.core.yamlio import file_label
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, domain_files, domain_name_problem, fingerprint_files, list_domain_names, load_domain
from routing.designs import RoutingDesign, build_router


@dataclass(frozen=True)
class RouterState:
    router: RoutingDesign | None  # the router in service: the newest valid one
    error: LexiconError | None  # why the files on disk are not the ones in service, if they are not
    fingerprint: str  # of the files on disk now

    @property
    def stale(self) -> bool:
        return self.error is not None and self.router is not None


class RouterRegistry:
    def __init__(self, root: Path | str = DEFAULT_LEXICON_ROOT, **router_kwargs):
        self.root = Path(root)
        self.router_kwargs = router_kwargs
        self._lock = threading.Lock()
        self._good: dict[str, RoutingDesign] = {}
        self._failed: dict[str, tuple[str, LexiconError]] = {}

    def domains(self) -> list[str]:
        return list_domain_names(self.root)

    def fingerprint(self, domain: str) -> str:
        return fingerprint_files(domain_files(self.root, domain))

    def state(self, domain: str) -> RouterState:
        bad_name = domain_name_problem(domain)
        if bad_name:  # a path, not a domain: nothing is read
            return RouterState(None, LexiconError([Problem(str(self.root), None, bad_name)]), "")
        fp = self.fingerprint(domain)
        with self._lock:
            good = self._good.get(domain)
            if good is not None and good.domain.fingerprint == fp:
                return RouterState(good, None, fp)
            failed = self._failed.get(domain)
            if failed is not None and failed[0] == fp:
                return RouterState(good, failed[1], fp)
            try:
                router = build_router(load_domain(domain, self.root), **self.router_kwargs)
            except LexiconError as exc:
                self._failed[domain] = (fp, exc)
                return RouterState(good, exc, fp)
            except Exception as exc:  # noqa: BLE001 - whatever a file does to the build, the last good router stays
                err = LexiconError([Problem(file_label(self.root, self.root / domain), None, f"cannot be built: {type(exc).__name__}: {exc}")])
                self._failed[domain] = (fp, err)
                return RouterState(good, err, fp)
            self._good[domain] = router
            self._failed.pop(domain, None)
            # The router lives as long as its lexicon version: move it (and everything loaded so
            # far) out of the collector's generations, so full collections only walk per-query
            # garbage (pauses of tens of ms instead of hundreds on a busy 2-core machine).
            gc.freeze()
            return RouterState(router, None, fp)

    def router(self, domain: str) -> RoutingDesign:
        """The router in service; raises LexiconError only if no version ever loaded."""
        st = self.state(domain)
        if st.router is None:
            raise st.error  # type: ignore[misc]
        return st.router
