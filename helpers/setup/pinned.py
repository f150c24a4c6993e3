"""Single files pinned to one commit of a public repository: the ground truth of lesson 12 and the OpenAI spec.

What it does:
- describes each file once (`PinnedFile`: repository, commit, path, sha256, the variable that points at a
  local copy, the cache name in `data/`);
- `fetch(pinned)` returns a local path, looking in this order: the file named by the variable (from the
  shell or `.env`; a relative path is taken from the repository root), then the cache in `data/`, then a
  one-time download of the raw file at the pinned commit (pooch: a progress bar, a timeout, the sha256
  checked before the file takes its name in the cache);
- checks every copy by its sha256, whoever made it, and names the expected commit when a file is another
  version; a good copy named by the variable also fills the cache, so the variable can be dropped later;
- writes the cache atomically: an interrupted download or copy leaves nothing half-written;
- words every failure as what to do next (`PinnedFileError`), whatever pooch or the network said.

What it leaves out on purpose: archives (the FAQ is a whole folder, parsed by helpers.ingest), retries (a
failed download says how to get the file another way) and any "latest" version: a figure in a lesson or a
test is only reproducible on the bytes it was measured on.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from helpers import ROOT
from helpers.setup.env import repo_path, setting

if TYPE_CHECKING:  # for the annotations only: retrieve imports tqdm when it downloads
    from tqdm import tqdm as Tqdm

DOWNLOAD_TIMEOUT_S = 30
CACHE_DIR = ROOT / "data"


class PinnedFileError(RuntimeError):
    """A pinned file could not be found, downloaded or verified. The message says what to do."""


@dataclass(frozen=True)
class PinnedFile:
    """One file of one commit of a public GitHub repository, and how the course finds a copy of it.

    Example: (made up, with a data: URL as the host; nothing is downloaded)
        >>> hello = PinnedFile("greeting", "me/repo", "abc123", "hello.txt", sha256=sha256_of(b"/me/repo/abc123/hello.txt"),
        ...                    env_var="COURSE_DOCTEST_HELLO", cache_name="doctest-hello.txt", host="data:,")
        >>> hello.url, hello.describe()
        ('data:,/me/repo/abc123/hello.txt', 'hello.txt of me/repo at commit abc123')
    """

    label: str  # what it is, in words, for progress bars and errors
    repo: str
    commit: str
    path: str
    sha256: str
    env_var: str
    cache_name: str
    host: str = "https://raw.githubusercontent.com"  # where raw files are served (a test points it elsewhere)

    @property
    def url(self) -> str:
        """The raw file at the pinned commit.

        Example:
            >>> GROUND_TRUTH.url
            'https://raw.githubusercontent.com/DataTalksClub/llm-zoomcamp/c85fa440791efd6c902f7f30ccedaae4483e3f9e/04-evaluation/data/ground-truth-data.csv'
        """
        return f"{self.host}/{self.repo}/{self.commit}/{self.path}"

    @property
    def cache_path(self) -> Path:
        return CACHE_DIR / self.cache_name

    def describe(self) -> str:
        return f"{self.path} of {self.repo} at commit {self.commit}"


# The expected hashes were computed from copies of these exact commits; any other version is refused, because
# every figure in the course (hit rate, MRR, the conformance tests) was measured on these bytes.
GROUND_TRUTH = PinnedFile(label="LLM Zoomcamp ground truth", repo="DataTalksClub/llm-zoomcamp",
                          commit="c85fa440791efd6c902f7f30ccedaae4483e3f9e",
                          path="04-evaluation/data/ground-truth-data.csv",
                          sha256="e479a62166ccae7f46f29b0c169a17dcfbff0101c471e37e2b12086df46c11f4",
                          env_var="GROUND_TRUTH_CSV",
                          cache_name="ground-truth-c85fa440791efd6c902f7f30ccedaae4483e3f9e.csv")
OPENAI_SPEC = PinnedFile(label="OpenAI OpenAPI spec", repo="openai/openai-openapi",
                         commit="f85dbe223d40e1a31cba812ab2d755c7e98a92a3", path="openapi.yaml",
                         sha256="db5d7478feae10b4d331834c60d9765a8aa042e38419f9b1694288c11aa8ebc8",
                         env_var="OPENAI_SPEC",
                         cache_name="openai-openapi-f85dbe223d40e1a31cba812ab2d755c7e98a92a3.yaml")


def fetch(pinned: PinnedFile, *, progress: bool = True, timeout: float = DOWNLOAD_TIMEOUT_S,
          download_allowed: bool = True) -> Path:
    """A verified local copy of `pinned`: the file its variable names, else the cache, else a download
    (`download_allowed=False`: a PinnedFileError instead, for tests that must not touch the network).

    Example: (no variable, no cache, and downloads not allowed)
        >>> fetch(PinnedFile("greeting", "me/repo", "abc123", "hello.txt", sha256="0" * 64, env_var="COURSE_DOCTEST_HELLO",
        ...                  cache_name="doctest-hello.txt"), download_allowed=False)
        Traceback (most recent call last):
        helpers.setup.pinned.PinnedFileError: No local copy of the greeting: set COURSE_DOCTEST_HELLO=/path/to/it in
        .env, ...
    """
    named = setting(pinned.env_var)
    if named:
        path = repo_path(named)
        if not path.is_file():
            raise PinnedFileError(
                f"{pinned.env_var} points to {path}, which is not a file (a relative path is taken from the "
                f"repository root {ROOT}). Fix the path, or unset {pinned.env_var} to use the cache in data/ "
                f"(or download {pinned.label} once).")
        data = path.read_bytes()
        _check(pinned, data, f"{path} (named by {pinned.env_var})")
        if not _cached_ok(pinned):
            # Fill the cache, so that the variable is needed once, not for good.
            write_atomically(pinned.cache_path, data)
        return path
    if pinned.cache_path.exists():
        if _cached_ok(pinned):
            return pinned.cache_path
        raise PinnedFileError(
            f"The cached {pinned.label} at {pinned.cache_path} is damaged or another version (its sha256 is not "
            f"the pinned file's). Delete it and run again to download {pinned.describe()}.")
    if not download_allowed:
        raise PinnedFileError(f"No local copy of the {pinned.label}: set {pinned.env_var}=/path/to/it in .env, or "
                              f"run `make data` (python -m helpers.setup.pinned) to download {pinned.describe()} once.")
    return download(pinned, progress=progress, timeout=timeout)


def download(pinned: PinnedFile, *, progress: bool = True, timeout: float = DOWNLOAD_TIMEOUT_S) -> Path:
    """Download the raw file at the pinned commit into the cache, checked by its sha256; return its path.

    Example: (a failed download, offline: pooch fetches over HTTP, FTP or SFTP only, not a data: URL)
        >>> hello = PinnedFile("greeting", "me/repo", "abc123", "hello.txt", sha256="0" * 64,
        ...                    env_var="HELLO_TXT", cache_name="doctest-hello.txt", host="data:,")
        >>> download(hello, progress=False)
        Traceback (most recent call last):
        helpers.setup.pinned.PinnedFileError: Could not download the greeting from data:,/me/repo/abc123/hello.txt
        (No connection adapters were found for 'data:,/me/repo/abc123/hello.txt'), and there is no cached copy
        at .../data/doctest-hello.txt. Fix it either way: ...
    """
    try:
        return retrieve(pinned.url, pinned.cache_path, sha256=pinned.sha256, desc=pinned.label, progress=progress,
                        timeout=timeout)
    except ValueError as exc:  # pooch's word for a sha256 that isn't the expected one; nothing was cached
        got = re.search(r"got ([0-9a-f]{64})", str(exc))
        raise PinnedFileError(_not_pinned(pinned, pinned.url, got.group(1) if got else "another")) from exc
    except ConnectionError as exc:
        raise PinnedFileError(cannot_download(pinned.label, pinned.url, exc, pinned.cache_path,
                                              f"{pinned.env_var}=/path/to/that/file")) from exc
    except OSError as exc:  # the cache folder can't be made or written
        raise PinnedFileError(f"Could not save the {pinned.label} to {pinned.cache_path} ({exc}). Make "
                              f"{pinned.cache_path.parent} writable, or download {pinned.url} yourself and "
                              f"set {pinned.env_var}=/path/to/that/file in .env.") from exc


def cannot_download(label: str, url: str, exc: Exception, cache: Path, setting_line: str) -> str:
    """What a failed first download says, for every pinned file (helpers.ingest uses it for the FAQ too).

    Example:
        >>> print(cannot_download("FAQ", "https://x.invalid/f.zip", OSError("offline"), Path("data/f.json"),
        ...                       "FAQ_ARCHIVE=/path/to/f.zip"))
        Could not download the FAQ from https://x.invalid/f.zip (offline), and there is no cached copy at
        data/f.json. Fix it either way: 1. connect to the internet and run this again (it downloads once, then
        uses the cache), or 2. download https://x.invalid/f.zip on another machine and set
        FAQ_ARCHIVE=/path/to/f.zip in .env.
    """
    return (f"Could not download the {label} from {url} ({exc}), and there is no cached copy at {cache}.\n"
            f"Fix it either way:\n"
            f"  1. connect to the internet and run this again (it downloads once, then uses the cache), or\n"
            f"  2. download {url} on another machine and set {setting_line} in .env.")


def retrieve(url: str, target: Path, *, sha256: str | None, desc: str, progress: bool = True,
             timeout: float = DOWNLOAD_TIMEOUT_S) -> Path:
    """Download `url` to `target` with pooch: streamed to a temporary file beside it, its sha256 checked
    (when given), then renamed, so `target` is whole or absent. A labelled progress bar, no retries.
    Raises ValueError for another sha256 and OSError (ConnectionError) for a network failure, so that
    each caller can say in its own words how to get the file another way. helpers.ingest uses it too.

    Example: (a failed download, offline: pooch fetches over HTTP, FTP or SFTP only, not a data: URL)
        >>> retrieve("data:,x", Path(tempfile.mkdtemp()) / "x.csv", sha256=None, desc="x", progress=False)
        Traceback (most recent call last):
        ConnectionError: No connection adapters were found for 'data:,x'
    """
    import pooch  # imported here: only a first run downloads anything
    import requests
    from tqdm.auto import tqdm

    # The labelled bar says what downloads; pooch's own log lines (one advises pinning a hash) are left out.
    pooch.get_logger().setLevel("WARNING")
    bar = _bar(tqdm)(unit="B", unit_scale=True, desc=desc) if progress else False
    downloader = pooch.HTTPDownloader(progressbar=bar, timeout=timeout)  # 1 kB chunks: the bar counts whole chunks
    try:
        # pooch's Downloader protocol names the parameters (fname, action, ...), its own HTTPDownloader
        # (url, output_file, ...): the checker sees a mismatch, pooch passes them by position.
        return Path(pooch.retrieve(url, known_hash=f"sha256:{sha256}" if sha256 else None, fname=target.name,
                                   path=target.parent,
                                   downloader=downloader))  # ty: ignore[invalid-argument-type]
    except requests.RequestException as exc:  # no network, a timeout, an HTTP error such as 404
        # requests wraps the system's reason in pool and object reprs (with memory addresses): keep the reason.
        reason = re.search(r"\[Errno -?\d+\] [^'\")]+", str(exc))
        raise ConnectionError(reason.group(0) if reason else str(exc)) from exc
    finally:
        if bar:
            bar.close()


def _bar(tqdm: type[Tqdm]) -> type[Tqdm]:
    """tqdm as pooch drives it: pooch asks `if bar:`, which a tqdm with no total can't answer, and sets the
    total to 0 for a download of unknown length (GitHub's archives), then resets the bar to that total at
    the end; this bar stays true and keeps the bytes it counted."""

    # A base passed in as a value (tqdm.auto's class, imported on the first download): ty can't check it.
    class PoochBar(tqdm):  # ty: ignore[unsupported-base]
        def __bool__(self) -> bool:
            return True

        def reset(self, total=None):
            if self.total:
                super().reset(total)

    return PoochBar


def sha256_of(data: bytes) -> str:
    """The hex sha256 of some bytes.

    Example:
        >>> sha256_of(b"")
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    """
    return hashlib.sha256(data).hexdigest()


def _check(pinned: PinnedFile, data: bytes, where: str) -> None:
    digest = sha256_of(data)
    if digest != pinned.sha256:
        raise PinnedFileError(_not_pinned(pinned, where, digest))


def _not_pinned(pinned: PinnedFile, where: str, digest: str) -> str:
    return (f"{where} is not the pinned {pinned.label}: its sha256 is {digest}, but the course expects "
            f"{pinned.sha256}, the file {pinned.describe()}. It may be another version, truncated, or another "
            f"file. Download {pinned.url} and point {pinned.env_var} at it, or unset {pinned.env_var} to use the "
            f"cache in data/ (or download it once).")


def _cached_ok(pinned: PinnedFile) -> bool:
    path = pinned.cache_path
    return path.is_file() and sha256_of(path.read_bytes()) == pinned.sha256


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename: an interrupted run leaves no half-written cache.

    Example: (the file is whole or absent, never half-written)
        >>> path = Path(tempfile.mkdtemp()) / "x.json"
        >>> write_atomically(path, b"[]")
        >>> path.read_bytes()
        b'[]'
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    """`python -m helpers.setup.pinned [ground-truth|spec ...]` (`make data`): fetch each pinned file once, say where.

    Example: (`main(["spec"])` prints where the spec is and returns 0; an unknown name is refused)
        >>> main(["the-spec"])
        2
    """
    files = {"ground-truth": GROUND_TRUTH, "spec": OPENAI_SPEC}
    names = argv if argv is not None else sys.argv[1:]
    unknown = [name for name in names if name not in files]
    if unknown:
        print(f"Unknown file {', '.join(unknown)}; choose from {', '.join(files)} (or none for all).", file=sys.stderr)
        return 2
    failed = 0
    for name in names or list(files):
        try:
            print(f"{files[name].label}: {fetch(files[name])}")
        except PinnedFileError as error:
            print(f"{files[name].label}: {error}", file=sys.stderr)
            failed = 1
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
