"""The indexes a newcomer reads first can't go stale: every package's __init__ docstring lists its modules.

A module (or subpackage) counts as listed when its package's index names it in a bullet (`- name: ...`, or
`- a, b: ...` for several) or as `name.py` in a line or a table row. The offline model's index is its
README's module table, which also covers its two subpackages. Each name an index lists in a bullet must exist,
so a module that was moved or removed can't linger there. `helpers/__init__.py` lists the lesson-facing
modules in the order lessons meet them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HELPERS = Path(__file__).resolve().parent.parent / "helpers"
NOT_MODULES = {"__init__", "__main__", "conftest"}
BULLET = re.compile(r"^\s*- ([a-z_0-9]+(?:, [a-z_0-9]+)*)\s*[:(]", re.M)


def packages() -> list[Path]:
    return sorted(p.parent for p in HELPERS.rglob("__init__.py"))


def members(package: Path) -> set[str]:
    """The modules and subpackages of one package, by name."""
    names = {p.stem for p in package.glob("*.py") if p.stem not in NOT_MODULES}
    return names | {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}


def index_text(package: Path) -> str:
    """The package's index: its __init__ docstring (and, for the offline model, its README's table)."""
    text = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    offline = HELPERS / "offline"
    if package == offline or offline in package.parents:
        readme = (offline / "README.md").read_text(encoding="utf-8")
        prefix = "" if package == offline else f"{package.relative_to(offline)}/"
        rows = re.findall(r"^\| `" + re.escape(prefix) + r"([a-z_0-9]+)(?:\.py`|/)", readme, re.M)
        text += "\n" + "\n".join(f"- {name}: (README table)" for name in rows if name not in NOT_MODULES)
    return text


def bullet_names(text: str) -> set[str]:
    """The module names an index lists in its bullets (`- a: ...`, `- a, b: ...`)."""
    return {n for group in BULLET.findall(text) for n in group.split(", ")}


def listed(text: str) -> set[str]:
    return bullet_names(text) | set(re.findall(r"(?<![/\w.])([a-z_0-9]+)\.py\b", text))


@pytest.mark.parametrize("package", packages(), ids=lambda p: str(p.relative_to(HELPERS.parent)))
def test_every_module_is_in_its_package_index(package):
    missing = members(package) - listed(index_text(package))
    assert not missing, f"{package.relative_to(HELPERS.parent)}/__init__.py's docstring does not list: {sorted(missing)}"


@pytest.mark.parametrize("package", packages(), ids=lambda p: str(p.relative_to(HELPERS.parent)))
def test_an_index_names_no_module_that_is_gone(package):
    gone = bullet_names(index_text(package)) - members(package)
    assert not gone, f"{package.relative_to(HELPERS.parent)}'s index lists modules that don't exist: {sorted(gone)}"


def test_the_top_index_lists_only_lesson_facing_modules_in_lesson_order():
    text = index_text(HELPERS)
    lessons = text.split("What those build on")[0]
    order = [int(m) for m in re.findall(r"^- [a-z_]+:.*?\(lessons? (\d\d)", lessons, re.M)]
    assert order and order == sorted(order), f"lesson numbers out of order: {order}"
    # `ls helpers` shows only lesson-facing modules: each is in the first part of the index.
    top = {p.stem for p in HELPERS.glob("*.py")} - NOT_MODULES
    assert top <= listed(lessons), f"top-level modules not listed as lesson-facing: {sorted(top - listed(lessons))}"


def test_the_checker_sees_a_missing_and_a_stale_entry(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""Index.\n\n- a: one\n- gone: moved away\n"""\n')
    (package / "a.py").write_text("")
    (package / "b.py").write_text("")
    assert members(package) - listed(index_text(package)) == {"b"}
    assert bullet_names(index_text(package)) - members(package) == {"gone"}


# --- every module has tests ---------------------------------------------------------------------------------
# A module is covered by a test file named after it (tests/**/test_<name>.py or test_<package>_<name>.py; a
# lesson's check by tests/checks/test_lessonNN_*.py, a homework's by test_homeworkNN*.py), or by a line here
# naming the test files that exercise it ("doctests": its own `>>>` examples, run by make test). The offline
# model's rules are tested by behaviour, through the real SDK, so most of its modules are covered that way.
COVERED_BY = {
    "agents.py": ["checks/test_lesson17_exercise.py", "checks/test_homework08_handoffs.py", "chat/test_chat_labels.py"],
    "apis/adapter.py": ["test_loop.py", "test_lean_search.py", "checks/test_lesson08_exercise.py"],
    "apis/streaming.py": ["test_loop.py", "chat/test_chat_ui.py"],
    "batch.py": ["offline/test_offline_batch.py", "checks/test_lesson12_exercise.py"],
    "billing/prices.py": ["test_cost.py"],
    "chat/agents.py": ["chat/test_chat_labels.py"],
    "chat/speakers.py": ["chat/test_chat_labels.py"],
    "capabilities.py": ["setup/test_providers.py", "test_doctor.py"],
    "checks/core.py": ["checks/test_homework.py", "doctests"],
    "checks/doubles.py": ["checks/test_homework.py", "checks/test_lesson12_judge_exercise.py"],
    "checks/runner.py": ["checks/test_homework.py", "doctests"],
    "checks/homework/hw01_search_and_rag.py": ["checks/test_homework.py"],
    "checks/homework/hw02_the_loop.py": ["checks/test_homework.py"],
    "checks/homework/hw03_prompts_and_guardrails.py": ["checks/test_homework.py"],
    "checks/homework/hw04_cost_and_safety.py": ["checks/test_homework.py"],
    "checks/homework/hw05_chat_and_tools.py": ["checks/test_homework.py"],
    "faq/planted_index.py": ["checks/test_homework07_injection.py", "checks/test_lesson14_exercise.py"],
    "faq/vocabulary.py": ["offline/test_offline_behaviours.py", "offline/test_offline_model.py"],
    "faq/writes.py": ["test_approval.py", "test_mcp.py"],
    "history.py": ["test_memory.py", "test_lean_search.py", "checks/test_homework07_memory.py"],
    "injection.py": ["checks/test_homework07_injection.py", "checks/test_lesson14_exercise.py"],
    "injection_cases.py": ["checks/test_homework07_injection.py"],
    "maint/bench_memory.py": ["doctests"],
    "maint/bench_offline.py": ["offline/test_bfcl_floor.py"],
    "maint/bench_search.py": ["test_evaluate.py"],
    "maint/bench_tests.py": ["test_parallel.py"],
    "maint/eval_batch.py": ["offline/test_offline_batch.py"],  # its pieces (helpers.batch); `make eval-batch` runs it
    "maint/kernel_log.py": ["maint/test_nbrun.py"],
    "maint/lab_settings.py": ["doctests", "test_setup.py"],
    "maint/warm_kernels.py": ["maint/test_fork_provisioner.py"],
    "maint/nbtidy.py": ["maint/test_nbrun.py", "test_notebook_hygiene.py"],
    "mcp_server.py": ["test_mcp.py", "checks/test_homework08_mcp.py"],
    "mcp_tools.py": ["test_mcp.py", "checks/test_lesson16_exercise.py"],
    "offline/answers.py": ["offline/test_offline_behaviours.py", "offline/test_offline_model.py"],
    "offline/api/app.py": ["offline/test_offline_server.py", "offline/test_offline_state.py"],
    "offline/api/batches.py": ["offline/test_offline_batch.py", "offline/test_offline_batch_fuzz.py"],
    "offline/api/body.py": ["offline/test_offline_server.py", "offline/test_offline_fuzz.py"],
    "offline/api/context_window.py": ["offline/test_offline_state.py"],
    "offline/api/door.py": ["offline/test_chat_door.py", "offline/test_offline_conformance.py"],
    "offline/finish.py": ["offline/test_offline_structured.py", "offline/test_engine_table.py", "doctests"],
    "offline/api/conversations.py": ["offline/test_offline_state.py", "offline/test_offline_state_conformance.py"],
    "offline/api/errors.py": ["offline/test_offline_conformance.py", "offline/test_offline_server.py"],
    "offline/api/faults.py": ["test_tools_offline.py", "doctests"],
    "offline/api/files.py": ["offline/test_offline_batch.py"],
    "offline/api/formats.py": ["offline/test_offline_structured.py"],
    "offline/api/items.py": ["offline/test_offline_state.py", "offline/test_offline_state_conformance.py"],
    "offline/api/prompt_cache.py": ["billing/test_tokens.py", "offline/test_offline_usage.py"],
    "offline/api/shapes.py": ["offline/test_offline_conformance.py", "offline/test_offline_fuzz.py"],
    "offline/api/stored.py": ["offline/test_offline_state.py", "offline/test_offline_state_fuzz.py"],
    "offline/api/tokenizer.py": ["billing/test_tokens.py", "offline/test_offline_usage.py"],
    "offline/api/transport.py": ["offline/test_offline_model.py", "offline/test_offline_batch.py"],
    "offline/api/wire.py": ["offline/test_offline_conformance.py", "offline/test_offline_model.py"],
    "offline/arguments.py": ["offline/test_offline_path_arguments.py", "offline/test_offline_behaviours.py"],
    "offline/binding.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/number_mentions.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/number_fit.py": ["offline/test_argument_rules.py", "offline/test_value_rules3.py", "doctests"],
    "offline/kinds.py": ["offline/test_value_rules3.py", "doctests"],
    "offline/key_values.py": ["offline/test_style_dev.py", "doctests"],
    "offline/id_shapes.py": ["offline/test_style_dev.py", "doctests"],
    "offline/string_lists.py": ["offline/test_value_rules3.py", "doctests"],
    "offline/call_plan.py": ["offline/test_argument_rules.py", "offline/test_call_plan_rules.py", "doctests"],
    "offline/tasks.py": ["offline/test_call_plan_rules.py", "doctests"],
    "offline/clause_values.py": ["offline/test_call_plan_rules.py"],
    "offline/records.py": ["offline/test_call_plan_rules.py", "doctests"],
    "offline/lists.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/cjk.py": ["offline/test_seeds.py", "doctests"],
    "offline/constants.py": ["test_import_graph.py"],  # the import-graph test checks it imports nothing heavy
    "offline/conversation.py": ["offline/test_offline_behaviours.py", "offline/test_offline_denials.py"],
    "offline/engine.py": ["offline/test_offline_behaviours.py", "offline/test_offline_model.py"],
    "offline/field_roles.py": ["offline/test_offline_structured.py"],
    "offline/instructions/clauses.py": ["offline/test_offline_instructions.py", "doctests"],
    "offline/instructions/context.py": ["offline/test_offline_instructions.py", "offline/test_offline_pasted.py"],
    "offline/instructions/form.py": ["offline/test_offline_instructions.py"],
    "offline/instructions/labels.py": ["offline/test_offline_instructions.py"],
    "offline/instructions/numbers.py": ["offline/test_offline_instructions.py"],
    "offline/instructions/scope.py": ["offline/test_offline_instructions.py"],
    "offline/instructions/searches.py": ["offline/test_offline_instructions.py"],
    "offline/instructions/tool_use.py": ["offline/test_phrasings.py"],
    "offline/instructions/topic.py": ["offline/test_offline_instructions.py"],
    "offline/knowledge.py": ["offline/test_offline_behaviours.py", "offline/test_offline_coursefree.py"],
    "offline/param_values.py": ["offline/test_offline_path_arguments.py", "offline/test_offline_behaviours.py"],
    "offline/dates.py": ["offline/test_value_rules.py", "doctests"],
    "offline/names.py": ["offline/test_value_rules.py", "offline/test_argument_rules.py"],
    "offline/name_choice.py": ["offline/test_value_rules.py", "doctests"],
    "offline/enum_match.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/formulas.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/flags.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/unit_params.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/noun_phrases.py": ["offline/test_argument_rules.py", "doctests"],
    "offline/quoting.py": ["offline/test_offline_behaviours.py"],
    "offline/reading.py": ["offline/test_offline_behaviours.py", "offline/test_offline_model.py"],
    "offline/results.py": ["offline/test_offline_behaviours.py", "test_tools_lessons.py"],
    "offline/schema_rules.py": ["offline/test_offline_structured.py"],
    "offline/search_policy.py": ["offline/test_offline_behaviours.py", "offline/test_offline_loop.py"],
    "offline/tool_fit.py": ["offline/test_argument_rules.py", "offline/test_tool_fit.py"],
    "offline/asked.py": ["offline/test_tool_fit.py", "doctests"],
    "offline/acts.py": ["offline/test_tool_fit_dev.py", "doctests"],
    "offline/chatter.py": ["offline/test_tool_fit_informal.py", "doctests"],
    "offline/search_fit.py": ["offline/test_tool_fit_informal.py", "doctests"],
    "offline/small_talk.py": ["offline/test_offline_behaviours.py"],
    "offline/statements.py": ["offline/test_offline_behaviours.py"],
    "setup/errors.py": ["test_llm.py", "test_doctor.py"],
    "setup/providers.py": ["test_llm.py", "test_doctor.py"],
    "tools/dispatch.py": ["test_tools.py", "test_tools_offline.py"],
    "tools/registry.py": ["test_tools.py"],
}
TESTS = Path(__file__).resolve().parent


def own_test(module: Path, test_names: set[str]) -> bool:
    rel = module.relative_to(HELPERS)
    if {f"test_{module.stem}.py", f"test_{rel.parts[0]}_{module.stem}.py"} & test_names:
        return True
    number = re.match(r"(?:lesson|hw)(\d\d)", module.stem)
    prefix = "test_lesson" if module.stem.startswith("lesson") else "test_homework"
    return bool(number) and any(name.startswith(prefix + number[1]) for name in test_names)


def test_every_module_has_its_own_tests_or_a_line_naming_them():
    test_names = {p.name for p in TESTS.rglob("test_*.py")}
    modules = [p for p in sorted(HELPERS.rglob("*.py")) if p.stem not in NOT_MODULES]
    uncovered = [str(p.relative_to(HELPERS)) for p in modules
                 if not own_test(p, test_names) and str(p.relative_to(HELPERS)) not in COVERED_BY]
    assert not uncovered, f"modules with no test file and no line in COVERED_BY: {uncovered}"


def test_every_line_of_covered_by_names_a_module_and_tests_that_exist():
    for module, tests in COVERED_BY.items():
        path = HELPERS / module
        assert path.is_file(), f"COVERED_BY names {module}, which does not exist"
        for test in tests:
            if test == "doctests":
                assert ">>> " in path.read_text(encoding="utf-8"), f"{module} has no doctest"
            else:
                assert (TESTS / test).is_file(), f"COVERED_BY[{module!r}] names {test}, which does not exist"
