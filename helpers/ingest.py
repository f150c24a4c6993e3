"""Load the DataTalksClub course FAQ: the knowledge base every lesson searches.

What it does:
- parses the FAQ repository's `_questions/<course>/<section>/NNN_<id>_<slug>.md` files (YAML front matter
  plus a markdown answer) into plain dicts `{id, course, section, question, answer}`;
- pins the data to one commit of github.com/DataTalksClub/faq, so every student (and every test)
  sees the same 1215 questions and the notebooks' stored outputs stay valid;
- finds the data in this order: the zip named by `FAQ_ARCHIVE` (from the shell or `.env`; a relative path
  is taken from the repository root), then the parsed cache in `data/`, then a one-time download of the
  pinned archive (with a progress bar and a timeout);
- refuses an archive of another commit: GitHub names the commit in the zip's comment and in its top
  folder (`faq-<commit>/`), and the error names the commit the course expects;
- optionally reads the course website's live JSON feed instead (`live=True`), whose content changes.

What it leaves out on purpose: images referenced by answers (only their markdown text is kept),
and any cleaning of the answers' markdown. The model reads markdown well, and so do you.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import frontmatter
import yaml

from helpers import ROOT
from helpers.setup.env import repo_path, setting
from helpers.setup.pinned import cannot_download, retrieve, write_atomically

FAQ_REPO = "DataTalksClub/faq"
FAQ_COMMIT = "7757d2a0e71dc376d0fc93f419162c306e7582b3"
ARCHIVE_URL = f"https://github.com/{FAQ_REPO}/archive/{FAQ_COMMIT}.zip"
LIVE_URL = "https://datatalks.club/faq/json/courses.json"
DOWNLOAD_TIMEOUT_S = 30

CACHE_PATH = ROOT / "data" / f"faq-{FAQ_COMMIT}.json"

FIELDS = ("id", "course", "section", "question", "answer")
# <course>/<section-id>/NNN_<id>_<slug>.md somewhere below a `_questions/` folder
_QUESTION_FILE = re.compile(r"(?:^|/)_questions/([^/]+)/([^/]+)/[^/]+\.md$")
_METADATA_FILE = re.compile(r"(?:^|/)_questions/([^/]+)/_metadata\.ya?ml$")
_SHA = re.compile(r"[0-9a-f]{40}")


class FaqDataError(RuntimeError):
    """The FAQ could not be loaded. The message says what happened and what to do."""

    def _render_traceback_(self):
        # IPython shows these lines instead of the chained traceback (as for helpers.llm's errors): the message
        # is the whole story, and the kernel keeps the old settings until it restarts.
        return [f"{type(self).__name__}: {self}",
                "After fixing it (e.g. FAQ_ARCHIVE=... in .env), restart the kernel and run the notebook from the top."]


def load_faq_data(archive: str | os.PathLike | None = None, *, live: bool = False,
                  progress: bool = True) -> list[dict]:
    """Return the FAQ as a list of dicts, in a stable order (course, section, sort_order).

    `archive` (or FAQ_ARCHIVE, from the shell or `.env`) names a local zip of the pinned commit; `~` is
    expanded and a relative path is taken from the repository root, wherever Python runs.
    `live=True` reads the course website's current feed instead of the pinned snapshot.

    Example:
        >>> first = load_faq_data(progress=False)[0]
        >>> first["id"], first["course"]
        ('9e508f2212', 'data-engineering-zoomcamp')
    """
    if live:
        return load_live_feed()
    archive = archive or setting("FAQ_ARCHIVE")
    if archive:
        documents = parse_archive(repo_path(archive))  # checks that it is the pinned commit
        if not CACHE_PATH.exists():
            _fill_cache(documents)  # after one run, FAQ_ARCHIVE can go: data/ holds the same documents
        return documents
    if CACHE_PATH.exists():
        return _read_cache(CACHE_PATH)
    documents = parse_archive_bytes(download_archive(progress=progress), ARCHIVE_URL)
    _fill_cache(documents)
    return documents


def _fill_cache(documents: list[dict]) -> None:
    try:
        write_atomically(CACHE_PATH, json.dumps(documents, ensure_ascii=False).encode("utf-8"))
    except OSError as exc:  # a read-only data/ must not break a load that worked
        print(f"Note: could not write the FAQ cache {CACHE_PATH} ({exc}); the FAQ is loaded, but not cached.")


def parse_archive(path: Path, *, commit: str | None = FAQ_COMMIT) -> list[dict]:
    """Parse a zip of the FAQ repository (as GitHub's archive lays it out) into documents.

    `commit`: the FAQ commit the archive must come from (None accepts any, e.g. to try a newer snapshot).
    Example:
        >>> parse_archive(Path("no-such.zip"))
        Traceback (most recent call last):
        helpers.ingest.FaqDataError: FAQ_ARCHIVE points to no-such.zip, which is not a file ...
    """
    if not path.is_file():
        raise FaqDataError(f"FAQ_ARCHIVE points to {path}, which is not a file (a relative path is taken "
                           f"from the repository root {ROOT}). Fix the path, or unset FAQ_ARCHIVE to use "
                           "the cache in data/ (or download the pinned snapshot once).")
    # Parsed once per process and file version: a notebook or a test process loads the FAQ several times (the
    # search index, the offline model's vocabulary, a check's documents), and each parse took about 0.2-0.5 s.
    # A changed file (size or modification time) is parsed again; a failed parse is not remembered.
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, commit)
    if key not in _PARSED:
        documents = tuple(parse_archive_bytes(path.read_bytes(), str(path), commit=commit))
        _PARSED.clear()  # one archive is kept: a process reads one FAQ
        _PARSED[key] = documents
    return [dict(doc) for doc in _PARSED[key]]  # the caller's own list and entries (their values are strings)


_PARSED: dict[tuple, tuple[dict, ...]] = {}


def parse_archive_bytes(data: bytes, name: str, *, commit: str | None = FAQ_COMMIT) -> list[dict]:
    """Parse the bytes of a FAQ zip; `name` is used in error messages. `commit` as in parse_archive.

    Example:
        >>> buf = io.BytesIO()
        >>> with zipfile.ZipFile(buf, "w") as zf:
        ...     zf.writestr("faq-main/_questions/c/s/001_a1_x.md", "---\\nid: a1\\nquestion: Q?\\nsort_order: 1\\n---\\nA.")
        >>> parse_archive_bytes(buf.getvalue(), "tiny.zip", commit=None)
        [{'id': 'a1', 'course': 'c', 'section': 's', 'question': 'Q?', 'answer': 'A.'}]
    """
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        bad_member = zf.testzip()
    except (zipfile.BadZipFile, EOFError, ValueError) as exc:
        raise FaqDataError(f"{name} is not a readable zip ({exc}). It may be truncated or corrupt: "
                           f"download it again from {ARCHIVE_URL}, or delete it and let the course "
                           "download it.") from exc
    if bad_member:
        raise FaqDataError(f"{name} is corrupt: the member {bad_member} fails its checksum. Download it again.")
    if not any(_QUESTION_FILE.search(member) for member in zf.namelist()):
        raise FaqDataError(f"{name} holds no FAQ questions (no _questions/<course>/<section>/*.md files). "
                           f"Is it an archive of {FAQ_REPO}? The pinned one is {ARCHIVE_URL}")
    if commit is not None:
        _check_commit(zf, name, commit)

    sections: dict[str, dict[str, tuple[int, str]]] = {}  # course -> section id -> (position, display name)
    raw: list[tuple[str, str, dict, str]] = []  # (course, section id, front matter, answer)
    with zf:
        for member in zf.namelist():
            if m := _METADATA_FILE.search(member):
                sections[m.group(1)] = _parse_metadata(zf.read(member), f"{name}:{member}")
            elif m := _QUESTION_FILE.search(member):
                meta, answer = _parse_question(zf.read(member), f"{name}:{member}")
                raw.append((m.group(1), m.group(2), meta, answer))

    def order(item):
        course, section_id, meta, _ = item
        position = sections.get(course, {}).get(section_id, (len(sections.get(course, {})), ""))[0]
        return (course, position, section_id, meta["sort_order"], str(meta["id"]))

    documents = []
    for course, section_id, meta, answer in sorted(raw, key=order):
        display = sections.get(course, {}).get(section_id, (0, section_id))[1]
        documents.append({"id": str(meta["id"]), "course": course, "section": display,
                          "question": str(meta["question"]).strip(), "answer": answer})
    return documents


def archive_commits(zf: zipfile.ZipFile) -> set[str]:
    """The commit(s) a GitHub archive says it was made from: the sha GitHub writes as the zip's comment, and
    the one ending its top folder's name (`faq-<sha>/`; an archive of a branch has `faq-main/`, no sha).

    Example:
        >>> buf = io.BytesIO()
        >>> with zipfile.ZipFile(buf, "w") as zf:
        ...     zf.writestr(f"faq-{FAQ_COMMIT}/README.md", "")
        >>> archive_commits(zipfile.ZipFile(buf))
        {'7757d2a0e71dc376d0fc93f419162c306e7582b3'}
    """
    found = set()
    comment = zf.comment.decode("ascii", "replace").strip().lower()
    if _SHA.fullmatch(comment):
        found.add(comment)
    for top in {member.split("/", 1)[0] for member in zf.namelist()}:
        if m := re.search(r"-([0-9a-fA-F]{40})$", top):
            found.add(m.group(1).lower())
    return found


def _check_commit(zf: zipfile.ZipFile, name: str, expected: str) -> None:
    # Another commit's FAQ parses just as well, but its questions, ids and answers differ: every stored
    # notebook output and test would then disagree for no visible reason. So say it plainly, here.
    found = archive_commits(zf)
    if found == {expected}:
        return
    if found:
        what = f"comes from commit {', '.join(sorted(found))} of {FAQ_REPO}"
    else:
        what = ("does not say which commit it comes from (GitHub's archive names it in the zip comment and in "
                "the top folder faq-<commit>/)")
    raise FaqDataError(f"{name} {what}, but the course is pinned to commit {expected}: its stored outputs "
                       "and tests expect exactly that snapshot. Download "
                       f"https://github.com/{FAQ_REPO}/archive/{expected}.zip and point FAQ_ARCHIVE at it, "
                       "or unset FAQ_ARCHIVE to use the cache in data/ (or download it once).")


def _parse_metadata(data: bytes, where: str) -> dict[str, tuple[int, str]]:
    try:
        meta = yaml.safe_load(data.decode("utf-8")) or {}
        return {str(s["id"]): (i, str(s.get("name") or s["id"])) for i, s in enumerate(meta["sections"])}
    except (yaml.YAMLError, UnicodeDecodeError, KeyError, TypeError) as exc:
        raise FaqDataError(f"Cannot read section names from {where}: {exc!r}. The archive may be damaged; "
                           f"download it again.") from exc


def _parse_question(data: bytes, where: str) -> tuple[dict, str]:
    try:
        post = frontmatter.loads(data.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, ValueError) as exc:
        raise FaqDataError(f"Malformed front matter in {where}: {exc}") from exc
    missing = [key for key in ("id", "question", "sort_order") if key not in post.metadata]
    if missing:
        raise FaqDataError(f"Malformed front matter in {where}: missing {', '.join(missing)}. "
                           f"Each question file needs id, question and sort_order.")
    sort_order: Any = post.metadata["sort_order"]  # whatever the YAML holds; int() says if it is no number
    try:
        post.metadata["sort_order"] = int(sort_order)
    except (TypeError, ValueError) as exc:
        raise FaqDataError(f"Malformed front matter in {where}: sort_order "
                           f"{post.metadata['sort_order']!r} is not a number.") from exc
    return post.metadata, post.content.strip()


def download_archive(url: str = ARCHIVE_URL, *, progress: bool = True,
                     timeout: float = DOWNLOAD_TIMEOUT_S) -> bytes:
    """Download the pinned FAQ archive and return its bytes, showing a progress bar. No sha256 is pinned:
    GitHub builds archives on request and doesn't guarantee the same bytes over time, so the commit named
    inside the zip is what `parse_archive_bytes` checks.

    Example: (a failed download, offline: pooch fetches over HTTP, FTP or SFTP only, not a data: URL)
        >>> download_archive("data:,PK", progress=False)
        Traceback (most recent call last):
        helpers.ingest.FaqDataError: Could not download the FAQ from data:,PK (No connection adapters were found
        for 'data:,PK'), and there is no cached copy at ...
    """
    try:
        with tempfile.TemporaryDirectory() as folder:
            return retrieve(url, Path(folder) / "faq.zip", sha256=None, desc="FAQ archive", progress=progress,
                            timeout=timeout).read_bytes()
    except OSError as exc:
        raise FaqDataError(cannot_download("FAQ", url, exc, CACHE_PATH, "FAQ_ARCHIVE=/path/to/that.zip")) from exc


def load_live_feed(url: str = LIVE_URL, *, timeout: float = DOWNLOAD_TIMEOUT_S) -> list[dict]:
    """Read the course website's current FAQ feed (one JSON file per course). Not pinned: it changes.

    Example: (data: URLs stand in for the site's feed and one course's file)
        >>> course = "data:," + urllib.parse.quote(json.dumps([{"id": 1, "question": "Q?"}]))
        >>> load_live_feed("data:," + urllib.parse.quote(json.dumps([{"course": "c", "url": course}])))
        [{'id': '1', 'course': 'c', 'section': '', 'question': 'Q?', 'answer': ''}]
    """
    courses = _fetch_json(url, timeout)
    if isinstance(courses, dict):
        courses = courses.get("courses", list(courses.values()))
    documents = []
    for course in courses:
        course_id = course.get("course") or course.get("id") or course.get("slug")
        course_url = urllib.parse.urljoin(url, course.get("url") or course.get("path") or f"{course_id}.json")
        entries = _fetch_json(course_url, timeout)
        if isinstance(entries, dict):
            entries = entries.get("questions") or entries.get("documents") or []
        for e in entries:
            documents.append({
                "id": str(e.get("id", "")),
                "course": e.get("course") or course_id,
                "section": e.get("section") or e.get("section_name") or e.get("section_id") or "",
                "question": str(e.get("question", "")).strip(),
                "answer": str(e.get("answer") or e.get("content") or e.get("text") or "").strip(),
            })
    if not documents:
        raise FaqDataError(f"The live feed {url} returned no questions. Use the pinned snapshot (live=False).")
    return documents


def _fetch_json(url: str, timeout: float):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise FaqDataError(f"Could not read the live FAQ feed at {url} ({exc}). Check your connection, "
                           f"or use the pinned snapshot: load_faq_data() without live=True.") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FaqDataError(f"The live FAQ feed at {url} is not valid JSON ({exc}). The site may have changed; "
                           f"use the pinned snapshot: load_faq_data() without live=True.") from exc


def _read_cache(path: Path) -> list[dict]:
    try:
        documents = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(documents, list) or not all(set(FIELDS) <= set(d) for d in documents):
            raise ValueError("unexpected shape")
        return documents
    except (ValueError, UnicodeDecodeError) as exc:
        raise FaqDataError(f"The FAQ cache {path} is damaged ({exc}). Delete it and run again to "
                           f"re-download the snapshot.") from exc
