"""Serve the browser application: one HTML page that loads the Vite-built assets.

The asset names are hashed; Vite's manifest maps the entry to them. In production the manifest
is read once; with DEBUG on it is re-read so a rebuild shows without a restart.
"""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

ENTRY = "src/main.ts"


class FrontendNotBuilt(RuntimeError):
    pass


def _read_manifest() -> dict:
    path = settings.FRONTEND_DIST / ".vite" / "manifest.json"
    if not path.exists():
        raise FrontendNotBuilt(
            f"{path} is missing: build the frontend with `make frontend` (make up does it)."
        )
    return json.loads(path.read_text())


_cached_manifest = lru_cache(maxsize=1)(_read_manifest)


def entry_assets() -> dict:
    manifest = _read_manifest() if settings.DEBUG else _cached_manifest()
    entry = manifest[ENTRY]
    return {"script": entry["file"], "styles": entry.get("css", [])}


@ensure_csrf_cookie
def spa(request, path: str = ""):
    return render(request, "spa.html", {"assets": entry_assets()})
