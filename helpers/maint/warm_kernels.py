"""A warm process that forks Jupyter kernels: ipykernel and the heavy libraries imported once, not once per kernel.

`make test` starts about forty kernels (nbval runs each notebook in a fresh one). Each spent about 2 s of CPU
importing the same things before its first cell: ipykernel and IPython, then what the course's modules import
(sklearn through minsearch, pandas, scipy, openai, pydantic; the Agents SDK, 2 s more, in lessons 11, 13-17 and
homework 06). This server imports those once, then forks a kernel per request; the kernel runs ipykernel_launcher
exactly as `python -m ipykernel_launcher -f FILE` would, in the environment, working directory and standard
streams the kernel manager asked for.

    python -m helpers.maint.warm_kernels SOCKET     # started by helpers.maint.fork_provisioner, not by hand

Protocol (an AF_UNIX SOCK_SEQPACKET socket, one connection per kernel, JSON messages):
- the client sends {"argv": [...], "env": {...}, "cwd": "..."} with the kernel's stdin, stdout and stderr as
  three file descriptors (SCM_RIGHTS);
- the server answers {"pid": N} (or {"error": "..."}), and later {"exit": CODE} when it has reaped the kernel;
- a client that closes its connection while its kernel runs has its kernel's process group killed.

Each kernel: its own session and process group (as jupyter_client's launcher does, so SIGINT interrupts the
group); PR_SET_PDEATHSIG so that it dies with this server; random reseeded (forked children would otherwise share
the server's random state); OpenBLAS's threads, started at import, are stopped and restarted around fork by
OpenBLAS's own fork handler, and no OpenMP pool runs here (nothing is computed), so the kernel's BLAS starts clean.
This server dies with the process that started it (PR_SET_PDEATHSIG too).

What it leaves out on purpose: any platform but Linux (fork_provisioner launches kernels as usual there); the
course's own modules (they read the environment when imported, which differs per kernel); ipywidgets, tqdm and
anything else that looks for a running IPython when imported (here they would find none; pandas, which reads one
display default that way, is imported with KernelStandIn answering); kernels other than ipykernel; an environment
other than this server's (fork_provisioner starts those kernels the usual way: the interpreter and these libraries
read some variables at start-up or import); a variable that agents reads at import and that a notebook sets
later, before its own `import agents` (from a `.env`, say): the kernel keeps the server's value, where a kernel
started the usual way would read the new one (no lesson sets any of the three). Kernels forked from one server
share its hash seed.
"""

from __future__ import annotations

import atexit
import builtins
import ctypes
import importlib
import json
import os
import random
import runpy
import selectors
import signal
import socket
import sys
import traceback

# The third-party modules each course kernel imported for itself. ipykernel.kernelapp is left to the kernel: its
# IPKernelApp reads JPY_PARENT_PID from the environment as it is imported (a few ms).
# agents (the OpenAI Agents SDK, with mcp, starlette and opentelemetry under it) starts no thread and registers no
# exit handler when imported: its trace provider is made on first use. It reads three variables as it is imported
# (OPENAI_AGENTS_DONT_LOG_MODEL_DATA and ..._TOOL_DATA, and opentelemetry's OTEL_PYTHON_CONTEXT); a forked kernel's
# environment is the server's (fork_provisioner checks it), so it reads what a kernel importing it at start-up
# would. The other modules read none.
PRELOAD = ("ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.iostream", "ipykernel.heartbeat",
           "ipykernel.parentpoller", "IPython", "numpy", "scipy.sparse", "pandas",
           "sklearn.feature_extraction.text", "sklearn.metrics.pairwise", "minsearch", "openai", "pydantic", "httpx",
           "agents")
LAUNCHER = ["-m", "ipykernel_launcher"]  # the only command this server runs (argv[1:3] of a kernel spec's argv)
MAX_MESSAGE = 1 << 20  # bytes: a request is its environment (a few kB) and argv
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent(signum: int) -> None:
    """Have the kernel send `signum` to this process when its parent exits (Linux's prctl)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")


def send(conn: socket.socket, message: dict) -> None:
    try:
        conn.send(json.dumps(message).encode())
    except OSError:
        pass  # the client is gone; what it would have read no longer matters


def become_kernel(request: dict, fds: list[int], server_pid: int) -> int:
    """In the forked child: take the request's streams, directory and environment, then run ipykernel_launcher."""
    die_with_parent(signal.SIGKILL)
    if os.getppid() != server_pid:  # the server died between fork and prctl
        return 1
    os.setsid()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        if fd > 2:
            os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # What `python -m ipykernel_launcher` has: the working directory first on sys.path (ipykernel_launcher takes it
    # out while it imports, IPython puts it back), the arguments after the module.
    sys.path[0] = os.getcwd()
    sys.argv = ["ipykernel_launcher", *request["argv"][3:]]
    random.seed()
    if "numpy.random" in sys.modules:
        sys.modules["numpy.random"].seed()
    try:
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        print(stop.code, file=sys.stderr)  # what the interpreter does with sys.exit("message")
        return 1
    return 0


def fork_kernel(conn: socket.socket, request: dict, fds: list[int], keep_closed: list) -> int:
    """Fork; the child becomes the kernel and never returns here. Returns the kernel's pid."""
    server_pid = os.getpid()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            for thing in keep_closed:  # the server's listener, selector, wake-up pipe and connections
                thing.close() if hasattr(thing, "close") else os.close(thing)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            code = become_kernel(request, fds, server_pid)
        except BaseException:
            traceback.print_exc()
        finally:
            # The kernel's own atexit handlers (IPython's history, ...) run as at a normal exit; then the child
            # leaves without unwinding into the server's loop.
            atexit._run_exitfuncs()
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)
    for fd in fds:
        os.close(fd)
    return pid


class KernelStandIn:
    """What `get_ipython()` answers while the server imports: a shell that has a kernel, as in every forked child.

    pandas decides a display default as it is imported (display.max_columns: 20 under a Jupyter kernel, 0 in a
    terminal, by `hasattr(get_ipython(), "kernel")`); imported here with no IPython running, every kernel would
    print wide DataFrames the terminal's way. No other preloaded module asks at import (looked for in every module
    PRELOAD imports; tests/maint/test_fork_provisioner.py compares pandas' options with a usual kernel's).
    """

    kernel = None


def preload() -> None:
    """Import PRELOAD, with `get_ipython` answering as a kernel's does (KernelStandIn) while they import."""
    vars(builtins)["get_ipython"] = KernelStandIn  # pandas looks it up as a builtin
    try:
        for name in PRELOAD:
            try:
                importlib.import_module(name)
            except ImportError:
                pass  # not installed: the kernel imports what it needs itself
    finally:
        vars(builtins).pop("get_ipython", None)  # IPython's shell defines its own in the kernel


def serve(path: str) -> None:
    """Bind `path`, import PRELOAD, then fork a kernel per request until the parent exits."""
    die_with_parent(signal.SIGTERM)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    preload()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so that SIGCHLD writes to the wake-up pipe
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(wake_r, selectors.EVENT_READ, "reap")
    kernels: dict[int, socket.socket] = {}  # pid -> its client's connection
    watched: set[socket.socket] = set()  # the connections whose closing the selector still watches
    while True:
        for key, _ in selector.select():
            if key.data == "accept":
                conn, _ = listener.accept()
                try:
                    data, fds, _, _ = socket.recv_fds(conn, MAX_MESSAGE, 3)
                    request = json.loads(data)
                    if request["argv"][1:3] != LAUNCHER or len(fds) != 3:
                        raise ValueError(f"not an ipykernel launch: {request['argv'][:3]}, {len(fds)} streams")
                except (OSError, ValueError, KeyError) as err:
                    send(conn, {"error": str(err)})
                    conn.close()
                    continue
                keep_closed = [listener, selector, wake_r, wake_w, conn, *kernels.values()]
                pid = fork_kernel(conn, request, fds, keep_closed)
                kernels[pid] = conn
                selector.register(conn, selectors.EVENT_READ, pid)
                watched.add(conn)
                send(conn, {"pid": pid})
            elif key.data == "reap":
                try:
                    os.read(wake_r, 512)
                except BlockingIOError:
                    pass
                while kernels:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                    if pid == 0:
                        break
                    conn = kernels.pop(pid, None)
                    if conn is not None:
                        send(conn, {"exit": os.waitstatus_to_exitcode(status)})
                        if conn in watched:
                            selector.unregister(conn)
                            watched.discard(conn)
                        conn.close()
            else:  # the client's end: it sends nothing after its request, so this is its closing (or junk)
                client = kernels.get(key.data)
                try:
                    closed = client is None or client.recv(MAX_MESSAGE) == b""
                except OSError:
                    closed = True
                if closed:  # its kernel manager is gone: so is its kernel, as ipykernel's parent poller would do
                    selector.unregister(key.fileobj)
                    watched.discard(key.fileobj)
                    try:
                        os.killpg(key.data, signal.SIGKILL)
                    except OSError:
                        pass  # already gone; its exit is reaped above


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m helpers.maint.warm_kernels SOCKET_PATH", file=sys.stderr)
        return 2
    serve(args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
