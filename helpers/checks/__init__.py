"""Self-checks for the homework notebooks, and the runner behind `make homework`.

Each task in notebooks/homework/ ends with a `check_*()` call. A check runs the student's function (or
inspects their result) against the pinned FAQ data and the model client they pass in, and returns a
`CheckResult`, shown as PASS, FAIL with a specific hint, or NOT DONE YET (a stub that raises
NotImplementedError or returns None); the runner adds NOT RUN for a check that never ran. A hint says what
is wrong and where to look; it never prints the expected answer.

Checks that depend on the model accept any trajectory that meets the task's criterion (e.g. "searched at
least twice", not "made exactly these calls"), so they stay valid on a real model. Checks that need a
particular behaviour (two function calls in one response, a model that never stops) use a scripted client
or the offline model's fault injection instead of hoping a real model does it.

`python -m helpers.checks [NOTEBOOK_OR_DIR ...]` runs the notebooks headlessly (nbclient) and prints a
score table. The checks report to it through a JSONL file named by the HOMEWORK_RESULTS environment
variable, so the runner never parses cell outputs.

The package (the notebooks import a homework's checks from here, and a lesson's check from its module):
- core: the task list, CheckResult, and the decorator that makes a check body a PASS / FAIL / NOT DONE YET;
- doubles: SpyClient, ScriptedClient and offline_double, the offline model with faults, which the checks run on;
- runner: `make homework`'s headless run and score table;
- lessons: a package, the check of each lesson's exercise (lesson03 ... lesson18);
- homework: a package, the checks of each homework notebook (hw01 ... hw06 re-exported here; Part 2's hw07_*,
  hw08_* and hw09_* imported from their modules, since they bring in MCP, the frameworks and the injection cases,
  which homework 01-06 never need).

The student notebooks are written from the solution notebooks by helpers.maint.homework_notebooks.

Left out on purpose: grading scales, hidden tests and any upload. This is feedback for a student working
alone, not an exam.
"""

from helpers.checks.core import HOMEWORK_DIR, STATUS_MARK, TASKS, CheckResult
from helpers.checks.doubles import (
    ScriptedClient,
    SpyClient,
    offline_double,
    scripted_chat_completion,
    scripted_response,
)
from helpers.checks.homework.hw01_search_and_rag import (
    check_biggest_section,
    check_build_prompt,
    check_count_entries,
    check_rag,
    check_search_section,
)
from helpers.checks.homework.hw02_the_loop import (
    check_ask,
    check_count_iterations,
    check_get_entry,
    check_my_agent_loop,
    check_run_function_calls,
)
from helpers.checks.homework.hw03_prompts_and_guardrails import (
    LABELLED_QUESTIONS,
    check_guarded_answer,
    check_is_on_topic,
    check_measure_guardrail,
    check_multi_search_instructions,
)
from helpers.checks.homework.hw04_cost_and_safety import (
    check_price_call,
    check_price_run,
    check_run_with_budget,
    check_safe_make_call,
)
from helpers.checks.homework.hw05_chat_and_tools import check_count_tool, check_follow_up, check_my_chat_loop
from helpers.checks.homework.hw06_frameworks_and_evaluation import (
    check_faq_agent,
    check_hit_rate_and_mrr,
    check_tuned_setting,
    check_turn_limit,
)
from helpers.checks.runner import format_table, main, run_notebook

# Everything a notebook or a test imports, whichever module now holds it.
__all__ = [
    "HOMEWORK_DIR", "STATUS_MARK", "TASKS", "CheckResult", "ScriptedClient", "SpyClient",
    "offline_double", "scripted_chat_completion", "scripted_response", "check_count_entries",
    "check_biggest_section", "check_search_section", "check_build_prompt", "check_rag",
    "check_run_function_calls", "check_get_entry", "check_ask", "check_my_agent_loop",
    "check_count_iterations", "LABELLED_QUESTIONS", "check_multi_search_instructions",
    "check_is_on_topic", "check_measure_guardrail", "check_guarded_answer", "check_price_call",
    "check_price_run", "check_run_with_budget", "check_safe_make_call", "check_my_chat_loop",
    "check_count_tool", "check_follow_up", "check_faq_agent", "check_turn_limit", "check_hit_rate_and_mrr",
    "check_tuned_setting", "format_table", "main", "run_notebook",
]
