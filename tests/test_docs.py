"""Every Python example of the README and the documentation pages runs, as written
but for its sizes: each page's blocks in order, in one namespace, in a fresh folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ohhell_sim as oh

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Sizes cut to what a test can afford; nothing else of an example is changed.
SMALLER = [
    (re.compile(r"\bgames=[\d_]+"), "games=60"),
    (re.compile(r"\btables=[\d_]+"), "tables=8"),
    (re.compile(r"\bdeals=[\d_]+"), "deals=3"),
    (re.compile(r"\(4096, "), "(8, "),
]


SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)


def python_blocks(page: Path) -> list[str]:
    """The page's fenced ``python`` blocks, in order, with the files they include.

    A line ``--8<-- "PATH"`` (the snippets extension of the docs site) stands for
    the file at ``PATH`` from the repository's root.
    """
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)
    return [
        SNIPPET.sub(lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"), block)
        for block in blocks
    ]


def smaller(code: str) -> str:
    for pattern, replacement in SMALLER:
        code = pattern.sub(replacement, code)
    return code


PAGES_WITH_CODE = [page for page in PAGES if python_blocks(page)]


@pytest.fixture
def scheduler():
    """The address of a one-worker Dask cluster in this process, for the scale page."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_the_pages_hold_examples():
    names = {page.name for page in PAGES_WITH_CODE}
    assert {"README.md", "rl.md", "writing-a-strategy.md", "scale.md"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_of_the_page_runs(page, tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)
    blocks = [smaller(block) for block in python_blocks(page)]
    if any("tcp://SCHEDULER:8786" in block for block in blocks):
        address = request.getfixturevalue("scheduler")
        blocks = [block.replace("tcp://SCHEDULER:8786", address) for block in blocks]
    before = set(oh.available_strategies())
    # Run as a script: an example guarded by `if __name__ == "__main__"` plays too.
    namespace: dict = {"__name__": "__main__"}
    try:
        for block in blocks:
            exec(compile(block, str(page.relative_to(ROOT)), "exec"), namespace)
    finally:
        client = namespace.get("client")
        if client is not None:  # before the cluster closes, which it would try to reach
            client.close()
        for name in set(oh.available_strategies()) - before:
            oh.unregister_strategy(name)
