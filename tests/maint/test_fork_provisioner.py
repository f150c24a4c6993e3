"""helpers.maint.fork_provisioner and warm_kernels: a forked kernel is the kernel a usual launch gives, and dies,
stops and reports its exit as one.

Through jupyter_client's KernelManager with make test's kernel spec (tests/jupyter/kernels/course-warm), as nbval
starts it. One kernel is started the usual way (an environment the server does not have): the one to compare with.
"""

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from helpers.maint import fork_provisioner
from helpers.maint.fork_provisioner import ForkProvisioner, why_not_fork

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kernels are forked on Linux only")

SPECS = Path(__file__).resolve().parents[1] / "jupyter" / "kernels"
# What a kernel is, as far as a notebook can tell; JPY_SESSION_NAME and PYTEST_CURRENT_TEST vary by design.
PROBE = """
import json, os, random, sys
preloaded = "agents" in sys.modules
import pandas as pd
import agents._debug, agents.tracing.setup
from ipykernel.kernelapp import IPKernelApp
wide = pd.DataFrame([[1.5] * 30] * 3, columns=[f"a long column name {i}" for i in range(30)])
env = {k: v for k, v in os.environ.items() if k not in ("JPY_SESSION_NAME", "PYTEST_CURRENT_TEST", "EXTRA")}
print(json.dumps({"cwd": os.getcwd(), "path": sys.path, "argv0": os.path.basename(sys.argv[0]),
                  "argv": sys.argv[1:2], "env": env, "parent_handle": IPKernelApp.instance().parent_handle,
                  "main": sys.modules["__main__"].__name__, "random": random.random(),
                  "pandas": [pd.get_option("display.max_columns"), pd.get_option("display.width"), repr(wide)],
                  "agents": [agents._debug.DONT_LOG_MODEL_DATA, agents._debug.DONT_LOG_TOOL_DATA,
                             agents.tracing.setup.GLOBAL_TRACE_PROVIDER is None],
                  "extra": os.environ.get("EXTRA"), "preloaded": preloaded, "ppid_is_us": os.getppid() == {me}}))
""".replace("{me}", str(os.getpid()))


def start(cwd, **env_extra):
    km = KernelManager(kernel_name="course-warm", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(SPECS)]))
    km.start_kernel(cwd=str(cwd), env=dict(os.environ, **env_extra), stderr=open(os.devnull, "w"))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def run(kc, code, timeout=60):
    out = []
    reply = kc.execute_interactive(code, timeout=timeout,
                                   output_hook=lambda m: out.append(m["content"].get("text", "")))
    return reply["content"], "".join(out)


@pytest.fixture
def kernel(tmp_path):
    km, kc = start(tmp_path)
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def gone(pid):
    """The process has exited: no such pid, or a zombie (a container's init may never reap what it inherits)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except FileNotFoundError:
        return True


def wait_until(condition, seconds=15.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_kernel_spec_names_the_provisioner_and_the_entry_point_finds_it():
    spec = json.loads((SPECS / "course-warm" / "kernel.json").read_text())
    assert spec["metadata"]["kernel_provisioner"]["provisioner_name"] == "course-warm-fork"
    from importlib.metadata import entry_points

    (found,) = entry_points(group="jupyter_client.kernel_provisioners", name="course-warm-fork")
    assert found.load() is ForkProvisioner


def test_a_forked_kernel_is_what_a_usual_launch_gives(tmp_path):
    forked_km, forked = start(tmp_path)
    usual_km, usual = start(tmp_path, EXTRA="differs from the server's environment")
    try:
        assert isinstance(forked_km.provisioner, ForkProvisioner)
        assert forked_km.provisioner.process is None, "not forked"
        assert usual_km.provisioner.process is not None, "an environment the server lacks must launch as usual"
        (_, a), (_, b) = run(forked, PROBE), run(usual, PROBE)
        a, b = json.loads(a), json.loads(b)
        assert (a["extra"], b["extra"]) == (None, "differs from the server's environment")
        for key in ("cwd", "path", "argv0", "argv", "env", "parent_handle", "main", "pandas", "agents"):
            assert a[key] == b[key], key
        # The Agents SDK came imported with the fork (its import-time flags and unmade trace provider as above).
        assert a["preloaded"] and not b["preloaded"]
        assert a["cwd"] == str(tmp_path) and a["parent_handle"] == os.getpid()
        assert not a["ppid_is_us"] and b["ppid_is_us"]  # the forked kernel's parent is the warm server
        status, out = run(forked, "import numpy as np; print((np.ones((300, 300)) @ np.ones((300, 300))).sum())")
        assert status["status"] == "ok" and out.strip() == "27000000.0"  # BLAS's threads work after the fork
    finally:
        for km, kc in ((forked_km, forked), (usual_km, usual)):
            kc.stop_channels()
            km.shutdown_kernel(now=True)


def test_two_forked_kernels_do_not_share_random_state(tmp_path):
    values = []
    for _ in range(2):
        km, kc = start(tmp_path)
        try:
            values.append(json.loads(run(kc, PROBE)[1])["random"])
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    assert values[0] != values[1]


def test_an_interrupt_stops_the_running_cell_and_the_kernel_lives_on(kernel):
    km, kc = kernel
    # stop_on_error=False: else ipykernel aborts the requests that follow an error for a moment, usual kernels too.
    msg_id = kc.execute("import time; time.sleep(60)", stop_on_error=False)
    time.sleep(0.5)
    km.interrupt_kernel()
    # A reply to a request made before this one (wait_for_ready's kernel_info, sent again on a loaded machine) may
    # still be queued: the reply that counts is the one to this execute.
    reply = kc.get_shell_msg(timeout=20)
    while reply["parent_header"].get("msg_type") == "kernel_info_request":
        reply = kc.get_shell_msg(timeout=20)
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    assert run(kc, "print(6 * 7)")[1].strip() == "42" and km.is_alive()


def test_a_kernel_that_crashes_reports_its_exit_code(kernel):
    km, kc = kernel
    pid = km.provisioner.pid
    kc.execute("import os; os._exit(3)")
    wait_until(lambda: not km.is_alive())
    assert km.provisioner.exit_code == 3
    assert gone(pid)


def test_a_killed_kernel_is_gone_and_its_cell_output_stops(kernel):
    km, kc = kernel
    pid = km.provisioner.pid
    km.shutdown_kernel(now=True)  # SIGKILL to its process group
    assert not km.is_alive()
    assert gone(pid)


def test_kernels_die_with_their_server_and_the_next_launch_starts_a_new_server(kernel, tmp_path):
    km, kc = kernel
    pid = km.provisioner.pid
    server = fork_provisioner.SERVERS[os.getpid()]
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    wait_until(lambda: not km.is_alive())
    assert km.provisioner.exit_code == -signal.SIGKILL
    wait_until(lambda: gone(pid))  # PR_SET_PDEATHSIG: no orphan left running
    km2, kc2 = start(tmp_path)
    try:
        assert km2.provisioner.process is None and fork_provisioner.SERVERS[os.getpid()] is not server
        assert run(kc2, "print('up')")[1].strip() == "up"
    finally:
        kc2.stop_channels()
        km2.shutdown_kernel(now=True)


def test_launches_it_cannot_fork_the_same_are_named():
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"]
    env = dict(os.environ)
    assert why_not_fork(cmd, {"env": env}, env) is None
    assert "not" in why_not_fork(["/usr/bin/python3", *cmd[1:]], {"env": env}, env)
    assert "pipe" in why_not_fork(cmd, {"env": env, "stdout": -1}, env)
    assert "PYTHONHASHSEED" in why_not_fork(cmd, {"env": dict(env, PYTHONHASHSEED="1")}, env)


def test_a_kernel_whose_manager_is_gone_is_killed(kernel):
    km, kc = kernel
    pid = km.provisioner.pid
    km.provisioner.conn.close()  # what a manager's process that exits without shutting its kernel down leaves
    km.provisioner.conn = None
    wait_until(lambda: gone(pid))
