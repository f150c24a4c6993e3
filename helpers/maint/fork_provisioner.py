"""A jupyter_client kernel provisioner that forks ipykernel kernels from a warm server (helpers.maint.warm_kernels).

Only `make test`'s nbval run uses it: tests/kernels/course-warm/kernel.json names it (its
`metadata.kernel_provisioner`), `make test` puts tests/kernels on JUPYTER_PATH and passes
`--nbval-kernel-name course-warm`. `make lab`, `make notebooks` and `make test-ui` start their kernels as
always. pyproject.toml registers the class under jupyter_client's `jupyter_client.kernel_provisioners` entry point.

What it does: LocalProvisioner (jupyter_client's default) in every step but the launch. The first launch in a
process starts one warm server for that process (a child that dies with it); each launch then sends the kernel's
command, environment, working directory and standard streams to it and gets the kernel's pid. Interrupts, kills and
terminations are signals to the kernel's process group, as LocalProvisioner sends them; `poll` and `wait` read the
exit code the server reports when it has reaped the kernel. A kernel whose server died is reported as killed.

It launches the usual way (LocalProvisioner's Popen), saying why in the debug log, when forking could make the
kernel differ from one started afresh: not Linux; a command other than this Python's `-m ipykernel_launcher`;
streams given as pipes; an environment that differs from the server's (but for PER_KERNEL's variables); or a server
that could not be started or reached.
What it leaves out on purpose: sharing one server between processes (each pytest worker has its own), kernels of
other languages, restoring kernels from saved provisioner info (only the pid is saved, as LocalProvisioner saves it),
and a first launch from a thread that ends before its process does: Linux's parent-death signal follows the thread
that started the server, so the server (and its kernels) would stop with that thread. nbval launches from the
main thread.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning import LocalProvisioner

from helpers.maint.warm_kernels import LAUNCHER, MAX_MESSAGE

# The variables a kernel's environment may have that its warm server's lacks. Any other difference starts the
# kernel the usual way: the interpreter and the preloaded libraries read some variables when they start or are
# imported (PYTHON*, thread counts, traitlets' and IPython's flags), and which ones is not for this module to guess.
# (JPY_PARENT_PID is read by ipykernel.kernelapp at import, which warm_kernels leaves to each kernel.)
PER_KERNEL = frozenset({"JPY_PARENT_PID", "JPY_SESSION_NAME", "PYTEST_CURRENT_TEST"})
CONNECT_SECONDS = 60.0  # how long the first launch waits for the server's socket (it imports PRELOAD first)


def env_differences(env: dict[str, str], server_env: dict[str, str]) -> list[str]:
    """The names whose values differ between a kernel's environment and its server's, but for PER_KERNEL.

    Example:
        >>> env_differences({"A": "1", "B": "2", "JPY_PARENT_PID": "7"}, {"A": "1", "B": "3", "C": "4"})
        ['B', 'C']
    """
    names = (env.keys() | server_env.keys()) - PER_KERNEL
    return sorted(name for name in names if env.get(name) != server_env.get(name))


def why_not_fork(cmd: list[str], kwargs: dict[str, Any], server_env: dict[str, str]) -> str | None:
    """Why a kernel must be launched the usual way, or None when forking gives the same kernel.

    Example:
        >>> import sys
        >>> cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"]
        >>> why_not_fork(cmd, {"env": {"A": "1", "JPY_PARENT_PID": "9"}}, {"A": "1"}) is None or sys.platform != "linux"
        True
        >>> why_not_fork(cmd, {"env": {"A": "1"}}, {"A": "2"}).endswith(" A") or sys.platform != "linux"
        True
        >>> why_not_fork(["julia", "kernel.jl"], {"env": {}}, {}) is not None
        True
    """
    if sys.platform != "linux":
        return f"forking kernels is done on Linux only, not {sys.platform}"
    if cmd[:1] != [sys.executable] or cmd[1:3] != LAUNCHER:
        return f"the command is not {sys.executable} -m ipykernel_launcher: {cmd[:3]}"
    for name in ("stdin", "stdout", "stderr"):
        stream = kwargs.get(name)
        if isinstance(stream, int) and stream < 0 and stream != subprocess.DEVNULL:
            return f"{name} is a pipe"
    differences = env_differences(kwargs["env"], server_env)
    if differences:
        return f"the environment differs from the warm server's in {', '.join(differences[:5])}"
    return None


def stream_fd(stream, default: int, opened: list[int]) -> int:
    """The file descriptor a Popen argument (None, DEVNULL, an fd or a file) stands for."""
    if stream is None:
        return default
    if stream == subprocess.DEVNULL:
        fd = os.open(os.devnull, os.O_RDWR)
        opened.append(fd)
        return fd
    return stream if isinstance(stream, int) else stream.fileno()


class WarmServer:
    """This process's warm kernel server, started at the first launch; gone when this process exits."""

    def __init__(self):
        self.env = dict(os.environ)
        self.folder = tempfile.mkdtemp(prefix="warm-kernels-")
        self.path = os.path.join(self.folder, "socket")
        self.process = subprocess.Popen([sys.executable, "-m", "helpers.maint.warm_kernels", self.path],
                                        env=self.env, stdin=subprocess.DEVNULL)
        atexit.register(self.close)

    def connect(self) -> socket.socket:
        deadline = time.monotonic() + CONNECT_SECONDS
        while True:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                conn.connect(self.path)
                return conn
            except (FileNotFoundError, ConnectionRefusedError) as err:
                conn.close()
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise ConnectionError(f"the warm kernel server is not there (exit {self.process.poll()})") from err
                time.sleep(0.02)  # it binds its socket first thing, then imports; a connection then waits for it

    def launch(self, cmd: list[str], env: dict[str, str], cwd: str, fds: list[int]) -> tuple[socket.socket, int]:
        conn = self.connect()
        try:
            socket.send_fds(conn, [json.dumps({"argv": cmd, "env": env, "cwd": cwd}).encode()], fds)
            reply = json.loads(conn.recv(MAX_MESSAGE) or b'{"error": "the server closed the connection"}')
        except (OSError, ValueError) as err:
            conn.close()
            raise ConnectionError(f"the warm kernel server did not launch the kernel: {err}") from err
        if "pid" not in reply:
            conn.close()
            raise ConnectionError(f"the warm kernel server did not launch the kernel: {reply.get('error')}")
        return conn, reply["pid"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


SERVERS: dict[int, WarmServer] = {}  # by pid: a process forked from one that had a server starts its own


def warm_server() -> WarmServer:
    server = SERVERS.get(os.getpid())
    if server is None or server.process.poll() is not None:
        server = SERVERS[os.getpid()] = WarmServer()
    return server


class ForkProvisioner(LocalProvisioner):
    """LocalProvisioner whose kernels are forked by a warm server; any other kernel is launched as usual."""

    conn: socket.socket | None = None  # to the server, while a forked kernel has not been waited for
    exit_code: int | None = None

    @property
    def has_process(self) -> bool:
        return self.process is not None or self.conn is not None

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        server = SERVERS.get(os.getpid())
        reason = why_not_fork(cmd, kwargs, server.env if server else dict(os.environ))
        if reason is None:
            opened: list[int] = []
            try:
                stdin = kwargs.get("stdin")  # jupyter_client's launcher gives a kernel no stdin of ours either
                fds = [stream_fd(subprocess.DEVNULL if stdin is None else stdin, 0, opened),
                       stream_fd(kwargs.get("stdout"), 1, opened), stream_fd(kwargs.get("stderr"), 2, opened)]
                env = dict(kwargs["env"], JPY_PARENT_PID=str(os.getpid()))  # what jupyter_client's launcher sets
                cwd = str(kwargs.get("cwd") or os.getcwd())
                self.conn, self.pid = warm_server().launch(cmd, env, cwd, fds)
            except ConnectionError as err:
                reason = str(err)
            finally:
                for fd in opened:
                    os.close(fd)
        if reason is not None:
            self.log.debug("Launching the kernel without the warm server: %s", reason)
            return await super().launch_kernel(cmd, **kwargs)
        self.pgid, self.exit_code = self.pid, None  # the server gives each kernel its own session
        self.cwd = kwargs.get("cwd", os.getcwd())
        return self.connection_info

    async def poll(self) -> int | None:
        if self.process is not None or self.conn is None:
            return await super().poll()
        if self.exit_code is None and select.select([self.conn], [], [], 0)[0]:
            try:
                message = self.conn.recv(MAX_MESSAGE)
            except OSError:
                message = b""
            # No message: the server died, and its kernels with it (PR_SET_PDEATHSIG, SIGKILL).
            self.exit_code = json.loads(message)["exit"] if message else -signal.SIGKILL
        return self.exit_code

    async def wait(self) -> int | None:
        if self.process is not None or self.conn is None:
            return await super().wait()
        while await self.poll() is None:
            await asyncio.sleep(0.05)
        self.conn.close()
        self.conn = None
        return self.exit_code

    async def send_signal(self, signum: int) -> None:
        if self.process is not None or self.conn is None:
            return await super().send_signal(signum)
        pid = self.pid
        if await self.poll() is not None or pid is None:
            return  # reaped: its pid may belong to another process by now
        try:
            os.killpg(pid, signum)  # its own process group: the server starts each kernel in a new session
        except OSError:
            os.kill(pid, signum)  # as LocalProvisioner: the caller handles what this raises

    async def kill(self, restart: bool = False) -> None:
        if self.process is not None or self.conn is None:
            return await super().kill(restart)
        try:
            await self.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass

    async def terminate(self, restart: bool = False) -> None:
        if self.process is not None or self.conn is None:
            return await super().terminate(restart)
        try:
            await self.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
