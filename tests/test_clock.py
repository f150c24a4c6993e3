"""Outputs never depend on the clock: the same prices, reports and lesson 06 outputs at any hour, on any date.

genai-prices has prices that change with the time of day (DeepSeek's peak and off-peak hours) and on set
dates, and it prices at the current time unless told otherwise. So every price in the course is read for
an explicit moment: a call at its `created_at`, a listing at its `at=`. These tests move the clock with
time-machine to hours on both sides of DeepSeek's peak windows and to another date, and check that
nothing changes.

The pricing functions are checked at every clock in this process, with what lesson 06 prints about prices
(calls priced at their `created_at`, price listings at a moment, a meter, the run report, an unknown model).
Once, end to end, lesson 06 runs in a real Jupyter kernel (as nbval runs it) at a clock on another date and
in a peak window, and must print its stored outputs: that catches a price the lesson reads that the list above
misses. time-machine only moves the clock of the process that starts it, so the kernel starts it itself, in a
cell run before the lesson's cells; that needs no system package (libfaketime would). One clock is enough
there: each lesson run costs seconds, and nbval runs the lesson again at the real clock.
"""

import configparser
import copy
import io
import re
from contextlib import redirect_stdout
from datetime import UTC, datetime
from pathlib import Path

import nbformat
import pytest
import time_machine
from genai_prices import Usage, calc_price
from nbclient import NotebookClient

from helpers.cost import CostMeter, price_per_mtok, price_tokens, print_report, record_call, run_report
from helpers.llm import make_client
from helpers.loop import agent_loop
from helpers.search import SEARCH_TOOL

ROOT = Path(__file__).resolve().parent.parent
LESSON_06 = ROOT / "notebooks" / "06-cost-accounting.ipynb"

# For deepseek-flash, Monday 03:00 UTC is inside a peak window (01:00-04:00) and 20:00 UTC is off-peak (as it
# was for the retired deepseek-chat); the last is inside the other window (06:00-10:00) on another date.
CLOCKS = ["2026-11-30T03:00Z", "2026-11-30T20:00Z", "2027-07-05T08:00Z"]
LESSON_CLOCK = CLOCKS[-1]  # the kernel run of lesson 06: another date than the others, and in a peak window


def test_the_clocks_chosen_really_change_genai_prices_default():
    # A control: priced at "now" (genai-prices' default), deepseek-flash costs differ between these clocks.
    # If they did not, the tests below could not catch a price that silently reads the clock.
    seen = set()
    for clock in CLOCKS:
        with time_machine.travel(clock, tick=False):
            price = calc_price(Usage(input_tokens=1_000_000), "deepseek-flash", provider_id="deepseek")
            seen.add(price.total_price)
    assert len(seen) == 2


# --- helpers.cost and the loop, in this process -----------------------------------------------------------


def price_dependent_outputs() -> str:
    """Everything the course prints about prices (lesson 06's price cells among it), from real offline calls."""
    client, model = make_client("offline", verbose=False)
    out = io.StringIO()
    with redirect_stdout(out):
        response = client.responses.create(model=model, tools=[SEARCH_TOOL],
                                           input="Can I still join the course after it started?")
        chat = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Hello"}])
        for price_as in ("gpt-5.4-mini", "deepseek-flash", "deepseek-v4-flash"):
            for reply in (response, chat):
                print(record_call(reply, provider="offline", latency_s=None, price_as=price_as))
        for model_name, provider in [("deepseek-flash", "deepseek"), ("deepseek-v4-flash", "deepseek"),
                                     ("gpt-5.4-mini", "openai"), ("gpt-4o-mini", "openai")]:
            for at in ("2026-08-03T20:00Z", "2026-11-17T08:00Z", "2026-11-17T20:00Z"):
                print(model_name, at, price_per_mtok(model_name, provider, at=at),
                      price_tokens(model_name, 10_000, 500, 2_000, provider=provider, at=at))
        for model_name in ("gpt-5.4-mini", "gpt-4o-mini", "gpt-5.4-nano"):
            print(model_name, price_per_mtok(model_name, at="2026-11-30"))  # a day, as lesson 06 lists them
        try:
            price_per_mtok("my-finetuned-model", at="2026-11-30")
        except LookupError as error:
            print(error)
        called_at = datetime.fromtimestamp(response.created_at, tz=UTC)
        usage = Usage(input_tokens=1_000, output_tokens=100)
        print(calc_price(usage, "deepseek-flash", provider_id="deepseek", genai_request_timestamp=called_at))
        meter = CostMeter()
        result = agent_loop(client, model, "How do I run Olama locally?",
                            {"search": lambda query: "[]"}, schemas=[SEARCH_TOOL], meter=meter,
                            price_as="deepseek-flash", verbose=False)
        print_report(result.calls)
        print(meter)
        print(run_report(meter.records).to_string())
    return out.getvalue()


def test_prices_and_reports_are_the_same_at_every_clock():
    outputs = {}
    for clock in CLOCKS:
        with time_machine.travel(clock, tick=False):
            outputs[clock] = price_dependent_outputs()
    first = outputs[CLOCKS[0]]
    assert "deepseek-flash" in first and "$" in first  # it did price something
    for clock, text in outputs.items():
        assert text == first, f"the output at {clock} differs from the output at {CLOCKS[0]}"


# --- lesson 06 in a kernel, at another clock --------------------------------------------------------------


def _sanitizers() -> list[tuple[re.Pattern, str]]:
    # The same substitutions nbval applies (tests/nbval_sanitize.cfg), so stored outputs compare the same way.
    cfg = configparser.ConfigParser(interpolation=None)
    cfg.read(ROOT / "tests" / "nbval_sanitize.cfg")
    return [(re.compile(cfg[s]["regex"]), cfg[s]["replace"]) for s in cfg.sections()]


def _texts(outputs, sanitizers) -> list[str]:
    """What a reader sees in a cell's outputs: streams joined per name, text/plain of results and displays.

    Images are left out: the lesson's one figure is drawn from the same numbers as the text around it.
    """
    texts, streams = [], {}
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            streams[output["name"]] = streams.get(output["name"], "") + "".join(output["text"])
        elif kind in ("execute_result", "display_data"):
            texts.append("".join(output.get("data", {}).get("text/plain", "")))
        elif kind == "error":
            texts.append(f"ERROR {output['ename']}: {output['evalue']}")
    texts += [f"{name}: {text}" for name, text in sorted(streams.items())]
    for pattern, replacement in sanitizers:
        texts = [pattern.sub(replacement, text) for text in texts]
    return texts


def _run(client, source: str, index: int = 0):
    cell = nbformat.v4.new_code_cell(source)
    client.execute_cell(cell, index)
    return cell


@pytest.fixture(scope="module")
def lesson_06_at_another_clock():
    """{clock: [texts of each code cell]} for lesson 06 run top to bottom at LESSON_CLOCK, in one kernel."""
    nb = nbformat.read(LESSON_06, as_version=4)
    # The client gets its own copy: nbclient stores every executed cell back into the notebook it was given.
    client = NotebookClient(copy.deepcopy(nb), timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(LESSON_06.parent)}})
    sanitizers = _sanitizers()
    runs, checks = {}, None
    with client.setup_kernel():
        for clock in [LESSON_CLOCK]:  # a list, so another clock is one more entry (and one more lesson run)
            # tick=True: the kernel's clock runs on from `clock`, as a real one would during the lesson.
            _run(client, f"import time_machine\n_traveller = time_machine.travel({clock!r})\n"
                         f"_traveller.start();")
            texts = []
            for index, stored in enumerate(nb.cells):
                if stored.cell_type != "code":
                    continue
                cell = copy.deepcopy(stored)
                cell.outputs = []
                client.execute_cell(cell, index)
                texts.append(_texts(cell.outputs, sanitizers))
            runs[clock] = texts
            _run(client, "_traveller.stop()")
        checks = _run(client, "import threading\nfrom genai_prices import data_snapshot\n"
                              "threads = [t.name for t in threading.enumerate()]\n"
                              "print(data_snapshot._custom_snapshot is None,\n"
                              "      [name for name in threads if name.startswith('genai')])")
    stored = [_texts(c.outputs, sanitizers) for c in nb.cells if c.cell_type == "code"]
    # Every stream output, joined: one print can reach the client as more than one stream message.
    return runs, stored, "".join("".join(o["text"]) for o in checks.outputs if o["output_type"] == "stream")


def test_lesson_06_gives_its_stored_outputs_at_another_clock(lesson_06_at_another_clock):
    runs, stored, _ = lesson_06_at_another_clock
    assert "deepseek-flash" in LESSON_06.read_text()  # the time-of-day price cells are still in the lesson
    for clock, texts in runs.items():
        for number, (got, want) in enumerate(zip(texts, stored, strict=True), start=1):
            assert got == want, f"lesson 06 code cell {number} at {clock}: {got!r} != stored {want!r}"


def test_lesson_06_uses_the_bundled_price_data_only(lesson_06_at_another_clock):
    # No UpdatePrices task (which would fetch prices from GitHub) and no replaced snapshot in the kernel.
    _, _, checks = lesson_06_at_another_clock
    assert checks.strip() == "True []"


def test_nothing_in_the_course_fetches_prices_at_run_time():
    # Prices come from the data inside the installed (pinned) genai-prices, never from the network.
    fetchers = re.compile(r"\b(UpdatePrices|set_custom_snapshot|wait_prices_updated_\w+)\s*\(")
    sources = {p: p.read_text(encoding="utf-8") for p in (ROOT / "helpers").rglob("*.py")}
    for path in (ROOT / "notebooks").rglob("*.ipynb"):
        if ".ipynb_checkpoints" not in path.parts:
            nb = nbformat.read(path, as_version=4)
            sources[path] = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    found = [str(p.relative_to(ROOT)) for p, text in sources.items() if fetchers.search(text)]
    assert found == []
