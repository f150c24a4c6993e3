"""`make notebooks` twice in a row writes the same bytes: helpers.maint.nbrun plus helpers.maint.nbtidy are idempotent.

The unit tests pin each rule of `tidy_outputs` with hand-made outputs, because how a kernel splits printed
text into messages depends on timing and a real run may or may not split on a given day. The slow test runs
two real lessons twice: lesson 10 (widgets, whose model ids are new every run) and lesson 08 (a loop that
prints from several places in one cell, which the kernel sends as several stream messages).
"""

import shutil
from pathlib import Path

import pytest

from helpers.maint.nbrun import main as nbrun_main
from helpers.maint.nbtidy import WIDGET_VIEW, tidy, tidy_outputs

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def stream(text, name="stdout"):
    return {"output_type": "stream", "name": name, "text": text}


def test_neighbouring_streams_of_one_name_become_one():
    merged = tidy_outputs([stream("iteration 1\n"), stream(["  -> search\n", "iteration 2\n"]), stream("done\n")])
    assert merged == [stream("iteration 1\n  -> search\niteration 2\ndone\n")]


def test_streams_split_in_the_middle_of_a_line_join_up():
    assert tidy_outputs([stream("itera"), stream("tion 1\n")]) == [stream("iteration 1\n")]


def test_streams_of_different_names_or_apart_keep_their_order():
    outputs = [stream("a\n"), stream("warning\n", "stderr"), stream("b\n"),
               {"output_type": "execute_result", "data": {"text/plain": "1"}, "metadata": {}, "execution_count": 1},
               stream("c\n")]
    assert tidy_outputs([dict(o) for o in outputs]) == outputs


def test_carriage_returns_and_backspaces_are_applied_like_a_terminal():
    # A progress bar rewrites its line with \r; how many rewrites get stored depends on timing.
    assert tidy_outputs([stream("10%\r"), stream("60%\r100%\n")]) == [stream("100%\n")]
    assert tidy_outputs([stream("abx\x08c\n")]) == [stream("abc\n")]


def test_a_widget_view_is_dropped_and_its_text_summary_kept():
    out = {"output_type": "execute_result", "execution_count": 3, "metadata": {},
           "data": {WIDGET_VIEW: {"model_id": "9c3b4f5c9d964b9fb6269805b5574f58", "version_major": 2,
                                  "version_minor": 0},
                    "text/plain": "ChatWidget (0 entries)"}}
    assert tidy_outputs([out])[0]["data"] == {"text/plain": "ChatWidget (0 entries)"}


def test_a_widget_view_alone_gets_an_empty_model_id_which_jupyterlab_hides():
    out = {"output_type": "display_data", "metadata": {},
           "data": {WIDGET_VIEW: {"model_id": "0f1e2d", "version_major": 2, "version_minor": 0}}}
    assert tidy_outputs([out])[0]["data"][WIDGET_VIEW]["model_id"] == ""


def test_tidy_is_idempotent_and_drops_saved_widget_state():
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3"}, "widgets": {"application/vnd.jupyter.widget-state+json": {}}},
          "cells": [{"cell_type": "code", "id": "c1", "source": "print(1)", "execution_count": 1,
                     "metadata": {"execution": {"iopub.status.idle": "2026-11-30T10:00:00Z"}},
                     "outputs": [stream("1\n"), stream("2\n")]}]}
    once = tidy(nb)
    assert once["metadata"] == {"kernelspec": {"name": "python3"}}
    assert once["cells"][0]["metadata"] == {}
    assert tidy(once) == once


@pytest.mark.parametrize("name", ["10-chat-ui.ipynb", "08-chat-completions.ipynb"])
def test_running_a_lesson_twice_writes_the_same_file(name, tmp_path, monkeypatch):
    # The Makefile's offline settings, so a developer's .env can't change the outputs.
    for var in ("LLM_MODEL", "OPENAI_BASE_URL", "LLM_RECORD"):
        monkeypatch.setenv(var, "")
    copy = tmp_path / name
    shutil.copy(NOTEBOOKS / name, copy)
    assert nbrun_main([str(copy)]) == 0
    first = copy.read_bytes()
    assert nbrun_main([str(copy)]) == 0
    assert copy.read_bytes() == first, f"a second run of {name} changed the file"


def run_machine_cell(tmp_path, source, tags, output_of):
    """Run a one-cell notebook whose stored output says "stored", with the given tags and output_of hash."""
    import nbformat

    from helpers.maint.nbrun import _source_hash

    cell = nbformat.v4.new_code_cell(source, id="machine")
    cell.metadata["tags"] = list(tags)
    if output_of is not None:
        cell.metadata["output_of"] = _source_hash(output_of)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="stored\n")]
    path = tmp_path / "machine.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    assert nbrun_main([str(path)]) == 0
    cell = nbformat.read(path, as_version=4).cells[0]
    return "".join(cell.outputs[0]["text"]), cell.metadata


IGNORED = ("nbval-ignore-output",)


@pytest.mark.parametrize("tags, output_of, kept", [
    (IGNORED, "print('here')", True),     # the stored output came from this very code: it stays
    (IGNORED, "print('before')", False),  # the code changed since: the new output is stored
    (IGNORED, None, False),               # no record of what made it: the new output is stored
    ((), "print('here')", False),         # an ordinary cell always stores the new output
])
def test_a_machine_dependent_cell_keeps_its_output_while_its_code_is_unchanged(tags, output_of, kept, tmp_path):
    text, metadata = run_machine_cell(tmp_path, "print('here')", tags, output_of)
    assert text == ("stored\n" if kept else "here\n")
    if tags:
        assert "output_of" in metadata  # recorded for the next run
