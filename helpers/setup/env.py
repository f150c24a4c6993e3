"""The course's settings: the variables of `.env.example`, read the same way by every helper.

What it does:
- `load_env()` reads the `.env` found upwards from the folder Python runs in (a notebook in notebooks/ finds
  the repository's `.env`) into os.environ, and never overrides a variable already set in the shell, so
  `make test` can force the offline model whatever `.env` says;
- `setting(name)` is how a helper reads one of those variables: it loads `.env` first, so a value there works
  whether or not a client was made, and treats a blank value as unset;
- `repo_path(value)` expands `~` and takes a relative path from the repository root, so a notebook (run in
  notebooks/) and a script (run in the root) mean the same file.

What it leaves out on purpose: checking the values (each helper checks its own and says what to fix), and
reloading: after editing `.env`, restart the kernel (a value once read stays, like one set in the shell).
"""

from __future__ import annotations

import os
from pathlib import Path

from helpers import ROOT


def load_env(env_file: str | os.PathLike | None = None) -> str | None:
    """Load `.env` into os.environ without overriding what is already set; return its path or None.

    `env_file` names the file; it must exist (FileNotFoundError says what to do). None searches upwards.
    Example:
        >>> load_env("no-such.env")
        Traceback (most recent call last):
        FileNotFoundError: The env file no-such.env does not exist. Copy .env.example to no-such.env, ...
    """
    from dotenv import find_dotenv, load_dotenv  # imported here: `import helpers.setup.env` stays instant

    if env_file is not None:
        path = Path(env_file).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"The env file {path} does not exist. Copy .env.example to {path}, or pass "
                                    "env_file=None to search for .env upwards from the current folder.")
    else:
        # usecwd=True: search from the folder Python runs in (the notebook's), not from this file.
        found = find_dotenv(usecwd=True)
        if not found:
            return None
        path = Path(found)
    load_dotenv(path, override=False)  # a variable set in the shell wins
    return str(path.resolve())


def setting(name: str, env_file: str | os.PathLike | None = None) -> str | None:
    """The value of `name` from the shell or `.env` (the shell wins), stripped; None when unset or blank.

    Example:
        >>> os.environ["COURSE_DOCTEST"] = "  ~/faq.zip "
        >>> setting("COURSE_DOCTEST"), setting("COURSE_DOCTEST_UNSET")
        ('~/faq.zip', None)
    """
    load_env(env_file)
    return os.environ.get(name, "").strip() or None


def repo_path(value: str | os.PathLike) -> Path:
    """A path from a setting: `~` expanded, and a relative path taken from the repository root.

    Example:
        >>> repo_path("data/cassettes/run.jsonl") == ROOT / "data" / "cassettes" / "run.jsonl"
        True
    """
    path = Path(value).expanduser()
    return path if path.is_absolute() else ROOT / path
