"""The page the package ships (bot/web/static/) is the build of its sources (bot/web/frontend/).

`npm run build` records the sha256 of every source file and of what it wrote in
bot/web/static/build.json; these tests recompute them, so they need no Node. When one fails,
run `npm ci && npm run build` in bot/web/frontend and commit bot/web/static/.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "bot" / "web" / "frontend"
STATIC = ROOT / "bot" / "web" / "static"
REBUILD = "stale build: run `npm ci && npm run build` in bot/web/frontend and commit bot/web/static"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _record() -> dict[str, dict[str, str]]:
    record: dict[str, dict[str, str]] = json.loads((STATIC / "build.json").read_text())
    return record


def _sources() -> dict[str, str]:
    return {
        path.relative_to(FRONTEND).as_posix(): _sha256(path)
        for path in sorted(FRONTEND.rglob("*"))
        if path.is_file() and "node_modules" not in path.relative_to(FRONTEND).parts
    }


def test_the_build_was_made_from_the_sources_as_they_are() -> None:
    recorded = _record()["sources"]
    assert {"package-lock.json", "package.json", "tsconfig.json", "src/main.ts"} <= recorded.keys()
    assert _sources() == recorded, REBUILD


def test_the_shipped_files_are_the_ones_the_build_wrote() -> None:
    outputs = _record()["outputs"]
    assert set(outputs) == {"app.js", "app.css", "index.html"}
    assert {name: _sha256(STATIC / name) for name in outputs} == outputs, REBUILD


def test_the_page_has_no_inline_script_or_style_for_the_content_security_policy() -> None:
    html = (STATIC / "index.html").read_text()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert scripts
    assert all("src=" in attributes and not body.strip() for attributes, body in scripts)
    assert "<style" not in html
    assert not re.search(r"\s(style|on[a-z]+)=", html)


def test_the_package_ships_the_page() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    package_data = pyproject.split("[tool.setuptools.package-data]", 1)[1].split("\n[", 1)[0]
    assert '"bot.web" = ["static/*"]' in package_data
