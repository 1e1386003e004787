"""docs/rules.md in every shipped language: the same page, section for section."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
TRANSLATIONS = {"pl": "rules.pl.md", "de": "rules.de.md", "eo": "rules.eo.md"}
CODE = re.compile(r"`[^`\n]+`")


def outline(text: str) -> dict[str, object]:
    """What a translation must keep: the heading levels, every code span (moves, commands),
    the code blocks, the images and the table's size."""
    lines = text.splitlines()
    return {
        "headings": [line.split(" ", 1)[0] for line in lines if line.startswith("#")],
        "code": sorted(CODE.findall(text)),
        "blocks": [block for block in text.split("```")[1::2]],
        "images": re.findall(r"\]\((images/[^)]+)\)", text),
        "table rows": sum(1 for line in lines if line.startswith("|")),
        "list items": sum(1 for line in lines if re.match(r"\s*(- |\d+\. )", line)),
    }


@pytest.mark.parametrize("language", sorted(TRANSLATIONS))
def test_each_translation_has_the_content_of_the_english(language: str) -> None:
    english = (DOCS / "rules.md").read_text()
    translated = (DOCS / TRANSLATIONS[language]).read_text()
    assert outline(translated) == outline(english)


@pytest.mark.parametrize("page", ["rules.md", *TRANSLATIONS.values()])
def test_every_version_links_the_others(page: str) -> None:
    text = (DOCS / page).read_text()
    others = {"rules.md", *TRANSLATIONS.values()} - {page}
    assert all(f"]({other})" in text for other in others)


def test_in_page_links_point_at_headings_of_the_same_page() -> None:
    for page in ["rules.md", *TRANSLATIONS.values()]:
        text = (DOCS / page).read_text()
        anchors = {
            re.sub(r"[^\w\- ]", "", line.lstrip("# ").lower()).replace(" ", "-")
            for line in text.splitlines()
            if line.startswith("#")
        }
        targets = set(re.findall(r"\]\(#([^)]+)\)", text))
        assert targets <= anchors, (page, targets - anchors)
