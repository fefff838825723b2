"""The site's index page: every recipe, grouped by category, by level within a category.

Made from the pages' front matter alone (title, summary, level, category, features), as Markdown whose
links are the pages' own paths, so the site generator resolves and checks them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LEVELS = ("Beginner", "Intermediate", "Advanced")
NO_CATEGORY = "Other recipes"
INTRODUCTION = """\
Each recipe is a page of prose, Cypher cells, the data they run on, and the result every cell gave when
the page was recorded. Beside each cell, a badge says whether that result still holds: **passing**,
**drifted** (with the diff), **errored** or **not run**.
"""


@dataclass
class Recipe:
    """A page as the index lists it: its path from the docs folder, and its front matter."""

    path: str
    front_matter: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return str(self.front_matter.get("title") or self.path.rsplit("/", 1)[-1].removesuffix(".md"))

    @property
    def level(self) -> str:
        return str(self.front_matter.get("level") or "")

    @property
    def category(self) -> str:
        return str(self.front_matter.get("category") or NO_CATEGORY)

    def sort_key(self) -> tuple[int, str]:
        rank = LEVELS.index(self.level) if self.level in LEVELS else len(LEVELS)
        return rank, self.title.lower()


def index_markdown(recipes: list[Recipe], *, title: str = "Cookbook") -> str:
    """`# title`, the introduction, then a section per category (alphabetical, recipes without one
    last), each a table of its recipes: title and summary, level, features."""
    lines = [f"# {title}", "", INTRODUCTION]
    categories = sorted({recipe.category for recipe in recipes}, key=lambda name: (name == NO_CATEGORY, name))
    if not recipes:
        lines.append("No recipes yet.")
    for category in categories:
        lines += [f"## {_cell(category)}", "", "| Recipe | Level | Features |", "| --- | --- | --- |"]
        for recipe in sorted((item for item in recipes if item.category == category), key=Recipe.sort_key):
            summary = recipe.front_matter.get("summary")
            name = f"[{_cell(recipe.title)}]({recipe.path})"
            if summary:
                name += f"<br>{_cell(str(summary))}"
            features = ", ".join(str(item) for item in recipe.front_matter.get("features") or [])
            lines.append(f"| {name} | {_cell(recipe.level) or '–'} | {_cell(features) or '–'} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell and a link's text."""
    for char in "\\|[]":
        text = text.replace(char, "\\" + char)
    return text.replace("\n", " ")
