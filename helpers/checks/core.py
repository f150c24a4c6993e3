"""What every homework check shares: the task list, the result type, and the API a check is written with.

The checking API, which every hwNN module imports from here:
- `@task_check(notebook, task)` turns a check body into a check that returns a `CheckResult` (PASS / FAIL /
  NOT DONE YET) and records it for the runner when HOMEWORK_RESULTS names a file;
- inside a body, `fail_if(condition, hint)` (or `raise CheckFailed(hint)`) when the work misses the task's
  criterion, `raise NotDoneYet(hint)` when it is still a stub, and return an optional note when it passes;
- `run_student_code(fn, *args)` calls student code with its prints hidden, so a stub becomes NotDoneYet and a
  crash becomes a CheckFailed hint instead of a traceback;
- `read_field(obj, key)` reads a field of an SDK object or a dict alike (students build both);
- `run_async(make_coroutine)` runs async code to the end from a notebook cell, whose thread already runs a loop.

Left out on purpose: anything about one homework's content, and the test doubles (helpers.checks.doubles).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import io
import json
import os
from dataclasses import asdict, dataclass

from helpers import ROOT
from helpers.tools import preview

# One wording everywhere: the checks in the notebooks, `make homework`'s table and the README.
STATUS_MARK = {"pass": "PASS", "fail": "FAIL", "todo": "NOT DONE YET", "not run": "NOT RUN"}
HOMEWORK_DIR = ROOT / "notebooks" / "homework"

# Every task of every homework notebook, in order: the runner lists a task even when its check never ran.
TASKS = {
    "01-search-and-rag": [("1.1", "Count a course's entries"), ("1.2", "Find the biggest section"),
        ("1.3", "Search within one section"), ("1.4", "Build a RAG prompt"), ("1.5", "One-call RAG")],
    "02-the-loop": [("2.1", "Run every function call"), ("2.2", "A second tool: get_entry"),
        ("2.3", "Give the agent both tools"), ("2.4", "Your own agent loop"),
        ("2.5", "Count the iterations")],
    "03-prompts-and-guardrails": [("3.1", "Instructions for several searches"),
        ("3.2", "An input guardrail"), ("3.3", "Measure the guardrail"), ("3.4", "Guard the agent")],
    "04-cost-and-safety": [("4.1", "Price one call"), ("4.2", "Price a whole run"),
        ("4.3", "A token budget"), ("4.4", "A tool call that never crashes")],
    "05-chat-and-tools": [("5.1", "A Chat Completions loop"), ("5.2", "A tool from a typed function"),
        ("5.3", "Continue the conversation")],
    "06-frameworks-and-evaluation": [("6.1", "The FAQ agent in a framework"), ("6.2", "A turn limit, caught"),
        ("6.3", "Hit rate and MRR"), ("6.4", "A tuned setting, checked once")],
    "07-the-loop-under-control": [("7.1", "Policies, bound approvals and a resume that writes once"),
        ("7.2", "A defence against planted instructions"), ("7.3", "A memory policy within a budget")],
    "08-tools-and-agents": [("8.1", "An MCP tool for your agent"), ("8.2", "A two-agent handoff")],
    "09-change-one-part": [("9.1", "Plan, then execute")],
}


@dataclass
class CheckResult:
    """The outcome of one check: status is "pass", "fail" or "todo" (not done yet).

    Example:
        >>> result = CheckResult("01-search-and-rag", "1.2", "Find the biggest section", "fail",
        ...     "count every section")
        >>> result, result.passed
        ([FAIL] Task 1.2 · Find the biggest section: count every section, False)
    """

    notebook: str
    task: str
    title: str
    status: str
    hint: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def __repr__(self) -> str:
        text = f"[{STATUS_MARK[self.status]}] Task {self.task} · {self.title}"
        return f"{text}: {self.hint}" if self.hint else text


class CheckFailed(Exception):
    """Raised inside a check: the student's work misses the criterion; the message is the hint.

    Example:
        >>> raise CheckFailed("count_entries counts every document; keep only the course's.")
        Traceback (most recent call last):
        helpers.checks.core.CheckFailed: count_entries counts every document; keep only the course's.
    """


class NotDoneYet(Exception):
    """Raised inside a check: the task is still a stub; the message says what to fill in.

    Example:
        >>> raise NotDoneYet("write your instructions in the string above.")
        Traceback (most recent call last):
        helpers.checks.core.NotDoneYet: write your instructions in the string above.
    """


def fail_if(condition, hint: str) -> None:
    """Raise CheckFailed(hint) when `condition` holds: one criterion of a task, and what to say when it is missed.

    The hint is built before the test, so it may only use values that exist whether or not the check fails.
    Example:
        >>> fail_if(3 != 3, "count only the course's entries.")
        >>> fail_if(5 != 3, "count only the course's entries.")
        Traceback (most recent call last):
        helpers.checks.core.CheckFailed: count only the course's entries.
    """
    if condition:
        raise CheckFailed(hint)


def _task_title(notebook: str, task: str) -> str:
    return dict(TASKS.get(notebook, []))[task]


def _record(result: CheckResult) -> None:
    """Append the result to the runner's JSONL file, when the runner set one (HOMEWORK_RESULTS)."""
    path = os.environ.get("HOMEWORK_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(result)) + "\n")


def task_check(notebook: str, task: str, title: str | None = None):
    """Decorator: turn a check body (raises CheckFailed or NotDoneYet, returns a pass note or None) into a check
    that returns a CheckResult and records it for the runner. A homework task's title comes from TASKS; a
    lesson's exercise (helpers.checks.lessonNN) names its own `title`, so no shared table grows with it.

    Example:
        >>> @task_check("01-search-and-rag", "1.1")
        ... def check_count_entries(count_entries):
        ...     if run_student_code(count_entries) != 3:
        ...         raise CheckFailed("count only the course's entries.")
        >>> check_count_entries(lambda: 5)
        [FAIL] Task 1.1 · Count a course's entries: count only the course's entries.
    """

    def wrap(body):
        @functools.wraps(body)  # its name, docstring and module: doctest finds its Example there
        def check(*args, **kwargs):
            shown = title or _task_title(notebook, task)
            try:
                note = body(*args, **kwargs)
                result = CheckResult(notebook, task, shown, "pass", note or "")
            except NotDoneYet as e:
                result = CheckResult(notebook, task, shown, "todo", str(e))
            except CheckFailed as e:
                result = CheckResult(notebook, task, shown, "fail", str(e))
            except Exception as e:  # noqa: BLE001 -- e.g. a result of an unexpected shape; still a hint
                result = CheckResult(notebook, task, shown, "fail",
                                     f"the check could not read your result ({type(e).__name__}: "
                                     f"{preview(str(e), 120)}). Compare what you return with the task.")
            _record(result)
            return result

        return check

    return wrap


def run_student_code(fn, *args, what: str = "your function", allow_none: bool = False, **kwargs):
    """Call student code quietly (its prints are hidden); a stub raises NotDoneYet, a crash CheckFailed.

    `what` names the call in the hint; `allow_none` accepts a None result (else it means a missing `return`).
    Example:
        >>> run_student_code(lambda docs, course: sum(d["course"] == course for d in docs),
        ...                  [{"course": "llm-zoomcamp"}, {"course": "mlops"}], "llm-zoomcamp")
        1
    """
    if fn is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            value = fn(*args, **kwargs)
    except NotImplementedError:
        raise NotDoneYet("replace `raise NotImplementedError` with your code.") from None
    except (NotDoneYet, CheckFailed):
        raise
    except Exception as e:  # noqa: BLE001 -- any crash in student code becomes a hint, never a traceback
        raise CheckFailed(f"{what} raised {type(e).__name__}: {preview(str(e), 200)}. Run it on its own in a new "
                    f"cell to see the full traceback.") from None
    if value is None and not allow_none:
        raise NotDoneYet("your function returned None (did you forget `return`?).")
    return value


def read_field(obj, key, default=None):
    """A field of an SDK object (attribute) or of a dict (key), or `default` when it has none.

    Example:
        >>> read_field({"type": "function_call"}, "type")
        'function_call'
    """
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def run_async(make_coroutine):
    """Run `make_coroutine()` to completion on a fresh event loop in a worker thread; return its value.

    A notebook already runs an event loop, so `asyncio.run` can't be called in its thread.
    Example:
        >>> async def two():
        ...     return 2
        >>> run_async(two)
        2
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, make_coroutine()).result()
