"""Every committed notebook comes from a clean top-to-bottom run, carries tidy metadata, and escapes dollar amounts
in its markdown."""

import json
import re
from pathlib import Path

import pytest

from helpers.maint.nbtidy import problems

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path):
    assert problems(path) == []


# JupyterLab reads `$...$` in markdown as MathJax: "$0.15 / $0.60" turned into italic maths with the dollar signs
# gone. Escaping is not enough there: JupyterLab's markdown step turns `\$` back into `$` before MathJax looks
# (jupyterlab/jupyterlab#8645; tests/ui checks it in a real browser). So an amount is written
# `<span class="mathjax_ignore">\$0.15</span>`: the class tells MathJax to skip it, and the backslash keeps other
# renderers (GitHub, VS Code) from reading maths. Code spans and fenced code are left alone: no maths is read there.
IGNORED_BY_MATHJAX = '<span class="mathjax_ignore">'
_CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)
_IGNORED = re.compile(re.escape(IGNORED_BY_MATHJAX) + r"[^<]*</span>")
_DOLLAR_AMOUNT = re.compile(r"\$(?=\d)")


def unprotected_dollar_amounts(markdown: str) -> list[str]:
    """The `$` + digit spots of one markdown text that JupyterLab would typeset as maths, with some context.

    Example: unprotected_dollar_amounts('costs $0.15, not <span class="mathjax_ignore">\\$1</span>') -> ["costs $0.15, not"]
    """
    def blank(match):  # same length, so positions still match the original text
        return " " * len(match.group())

    prose = _CODE.sub(blank, markdown)
    # Inside an ignored span an amount is fine if escaped for the other renderers.
    prose = _IGNORED.sub(lambda m: blank(m) if not re.search(r"(?<!\\)\$", m.group()) else m.group(), prose)
    return [markdown[max(m.start() - 20, 0):m.start() + 12].replace("\n", " ")
            for m in _DOLLAR_AMOUNT.finditer(prose)]


def test_the_dollar_amount_check_finds_what_mathjax_would_eat():
    assert unprotected_dollar_amounts("about $0.15 / $0.60 per million") != []
    assert unprotected_dollar_amounts(r"about \$0.15 / \$0.60 per million") != []  # still maths in JupyterLab
    assert unprotected_dollar_amounts(f"{IGNORED_BY_MATHJAX}$0.15</span>") != []  # unescaped: other renderers may read maths
    assert unprotected_dollar_amounts(rf"about {IGNORED_BY_MATHJAX}\$0.15 / \$0.60</span> per million") == []
    assert unprotected_dollar_amounts("`cost = $0.5` and\n```\necho $1\n```\n$x$ maths") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_protects_dollar_amounts_from_mathjax(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = [f"cell {i}: ...{spot}..." for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "markdown"
             for spot in unprotected_dollar_amounts("".join(cell["source"]))]
    assert found == [], (f"JupyterLab shows these dollar amounts as maths; write them as "
                         f"{IGNORED_BY_MATHJAX}\\$0.15</span>: {found}")
