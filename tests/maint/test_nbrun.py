"""`make notebooks` twice in a row writes the same bytes: helpers.maint.nbrun plus helpers.maint.nbtidy are idempotent.

The unit tests pin each rule of `tidy_outputs` with hand-made outputs, because how a kernel splits printed
text into messages depends on timing and a real run may or may not split on a given day. The end-to-end test
runs nbrun twice on a small notebook made here with what made real lessons unstable: a widget (lesson 10's
chat; its model id is new every run), text printed from several places in one cell with pauses between (lesson
08's loop; the kernel sends it as several stream messages), a progress bar redrawn with \\r, and stderr between
stdout. A whole lesson adds only run time: nbval runs every lesson anyway.
"""

import pytest

from helpers.maint.nbrun import main as nbrun_main
from helpers.maint.nbtidy import WIDGET_VIEW, tidy, tidy_outputs


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


# Each cell stands for a way a real lesson's output came out different on a second run.
UNSTABLE_CELLS = {
    "widget": "import ipywidgets\nipywidgets.IntSlider(value=3, description='turns')",
    "split_streams": ("import sys, time\n"
                      "for turn in range(3):\n"
                      "    print(f'iteration {turn}', end=' ')\n"
                      "    sys.stdout.flush()\n"
                      "    time.sleep(0.02)  # the kernel sends what was flushed before the pause as its own message\n"
                      "    print('-> search')\n"
                      "sys.stdout.flush()  # what a kernel interleaves across stdout and stderr follows the flushes\n"
                      "print('warning', file=sys.stderr, flush=True)\n"
                      "print('done')"),
    "progress_bar": ("import sys, time\n"
                     "for percent in (10, 60, 100):\n"
                     "    print(f'\\r{percent}%', end='')\n"
                     "    sys.stdout.flush()\n"
                     "    time.sleep(0.02)\n"
                     "print()"),
}


@pytest.fixture(scope="module")
def run_twice(tmp_path_factory):
    """A small notebook of UNSTABLE_CELLS run through nbrun twice: (bytes after run 1, after run 2, notebook)."""
    import nbformat

    path = tmp_path_factory.mktemp("nbrun") / "unstable.ipynb"
    cells = [nbformat.v4.new_code_cell(source, id=name) for name, source in UNSTABLE_CELLS.items()]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    assert nbrun_main([str(path)]) == 0
    first = path.read_bytes()
    assert nbrun_main([str(path)]) == 0
    return first, path.read_bytes(), nbformat.read(path, as_version=4)


def test_running_a_notebook_twice_writes_the_same_file(run_twice):
    first, second, _ = run_twice
    assert second == first, "a second nbrun run of the same notebook changed the file"


def test_a_run_stores_tidy_outputs(run_twice):
    cells = {cell.id: cell for cell in run_twice[2].cells}
    widget = cells["widget"].outputs[0]["data"]
    assert "IntSlider" in widget["text/plain"] and WIDGET_VIEW not in widget  # its view, with a new id, is gone
    assert [(o["name"], o["text"]) for o in cells["split_streams"].outputs] == [
        ("stdout", "iteration 0 -> search\niteration 1 -> search\niteration 2 -> search\n"),
        ("stderr", "warning\n"), ("stdout", "done\n")]
    assert [o["text"] for o in cells["progress_bar"].outputs] == ["100%\n"]
    assert "widgets" not in run_twice[2].metadata  # no saved widget state


IGNORED = ("nbval-ignore-output",)
MACHINE_CASES = [
    (IGNORED, "print('here')", True),     # the stored output came from this very code: it stays
    (IGNORED, "print('before')", False),  # the code changed since: the new output is stored
    (IGNORED, None, False),               # no record of what made it: the new output is stored
    ((), "print('here')", False),         # an ordinary cell always stores the new output
]


@pytest.fixture(scope="module")
def machine_cells(tmp_path_factory):
    """One notebook with a cell per MACHINE_CASES row, each `print('here')` with "stored" as its stored output
    and the row's tags and output_of hash, run once through nbrun (one kernel for all cases): the cells after."""
    import nbformat

    from helpers.maint.nbrun import _source_hash

    cells = []
    for number, (tags, output_of, _) in enumerate(MACHINE_CASES):
        cell = nbformat.v4.new_code_cell("print('here')", id=f"case{number}")
        cell.metadata["tags"] = list(tags)
        if output_of is not None:
            cell.metadata["output_of"] = _source_hash(output_of)
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="stored\n")]
        cells.append(cell)
    path = tmp_path_factory.mktemp("machine") / "machine.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    assert nbrun_main([str(path)]) == 0
    return nbformat.read(path, as_version=4).cells


@pytest.mark.parametrize("case", range(len(MACHINE_CASES)), ids=["same-code", "code-changed", "no-record", "untagged"])
def test_a_machine_dependent_cell_keeps_its_output_while_its_code_is_unchanged(case, machine_cells):
    tags, _, kept = MACHINE_CASES[case]
    cell = machine_cells[case]
    assert "".join(cell.outputs[0]["text"]) == ("stored\n" if kept else "here\n")
    if tags:
        assert "output_of" in cell.metadata  # recorded for the next run


def test_kernels_of_the_environment_leave_out_the_tcp_notice_only(tmp_path):
    """ipykernel logs "Kernel is running over TCP without encryption" at every start; the config that `make
    install` writes (helpers.maint.kernel_log) drops that line in a real kernel, and keeps its other warnings."""
    import json
    import os
    import subprocess
    import sys

    from helpers.maint import kernel_log

    written = kernel_log.write_config(tmp_path / "env")
    assert written == tmp_path / "env" / "etc" / "ipython" / "ipython_kernel_config.json"
    assert json.loads(written.read_text()) == kernel_log.CONFIG
    # The same config as a profile's (IPYTHONDIR), so the test needs no `make install`: a kernel started as
    # nbclient starts one reads it.
    profile = tmp_path / "ipython" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_kernel_config.json").write_text(written.read_text())
    script = (
        "import nbformat\n"
        "from nbclient import NotebookClient\n"
        "nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(\"from ipykernel.kernelapp import "
        "IPKernelApp; IPKernelApp.instance().log.warning('another warning')\")])\n"
        "NotebookClient(nb, kernel_name='python3', timeout=60).execute()\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True,
                         env={**os.environ, "IPYTHONDIR": str(tmp_path / "ipython")})
    assert kernel_log.MESSAGE_START not in run.stderr
    assert "another warning" in run.stderr
