"""Ingest: counts, order and fields of the pinned snapshot, where FAQ_ARCHIVE comes from, and every error path."""

import json
import os
import urllib.error
import zipfile
from collections import Counter

import pytest
import requests
from conftest import TINY_FAQ, make_faq_zip, question_file

from helpers import ingest
from helpers.ingest import FAQ_COMMIT, FaqDataError, load_faq_data, parse_archive


@pytest.fixture(scope="module")
def faq():
    return load_faq_data()


@pytest.fixture(autouse=True)
def private_cache(request, tmp_path, monkeypatch):
    """Every test but those reading the real snapshot gets its own cache path and working folder: a tiny test
    archive loaded through FAQ_ARCHIVE fills the cache, and must never fill the course's data/ with 4 questions;
    and a student's own .env (found upwards from the working folder) must not decide what these tests see."""
    if "faq" not in request.fixturenames:
        monkeypatch.setattr(ingest, "CACHE_PATH", tmp_path / "private-data" / "faq-cache.json")
        monkeypatch.chdir(tmp_path)


def test_pinned_snapshot_counts(faq):
    assert len(faq) == 1215
    assert Counter(d["course"] for d in faq) == {
        "data-engineering-zoomcamp": 449, "machine-learning-zoomcamp": 427,
        "mlops-zoomcamp": 248, "llm-zoomcamp": 91,
    }


def test_fields_and_ids(faq):
    assert all(set(d) == {"id", "course", "section", "question", "answer"} for d in faq)
    assert all(isinstance(v, str) for d in faq for v in d.values())
    assert len({d["id"] for d in faq}) > 1200  # ids are (almost) unique; a few FAQ entries are duplicated upstream
    assert all(d["question"] for d in faq)


def test_sections_use_display_names_in_metadata_order(faq):
    llm = [d for d in faq if d["course"] == "llm-zoomcamp"]
    assert llm[0]["section"] == "General Course-Related Questions"
    assert llm[0]["question"] == "I just discovered the course. Can I still join?"
    sections = list(dict.fromkeys(d["section"] for d in llm))
    assert sections[:3] == ["General Course-Related Questions", "Module 1: Introduction", "Module 2: Vector Search"]


def test_courses_are_grouped_in_alphabetical_order(faq):
    courses = list(dict.fromkeys(d["course"] for d in faq))
    assert courses == sorted(courses)


def test_order_is_course_then_metadata_section_then_sort_order(tiny_archive):
    docs = parse_archive(tiny_archive)
    assert [d["id"] for d in docs] == ["bbbbbbbbb1", "aaaaaaaaa2", "aaaaaaaaa3", "aaaaaaaaa1"]
    assert docs[1] == {"id": "aaaaaaaaa2", "course": "beta-course", "section": "Introduction",
                       "question": "What is it?", "answer": "A course."}


def test_an_archive_is_parsed_once_per_version_and_each_caller_gets_its_own_entries(tiny_archive):
    first = parse_archive(tiny_archive)
    first[0]["answer"] = "changed by one caller"
    first.pop()
    again = parse_archive(tiny_archive)
    assert len(again) == 4 and again[0]["answer"] != "changed by one caller"
    smaller = {k: v for k, v in TINY_FAQ.items() if "aaaaaaaaa3" not in k}  # the same path, a new version
    tiny_archive.write_bytes(make_faq_zip(smaller))
    assert [d["id"] for d in parse_archive(tiny_archive)] == ["bbbbbbbbb1", "aaaaaaaaa2", "aaaaaaaaa1"]


def test_faq_archive_env_var_is_used(tiny_archive, monkeypatch):
    monkeypatch.setenv("FAQ_ARCHIVE", str(tiny_archive))
    assert len(load_faq_data()) == 4


def test_missing_archive_path_says_what_to_do(tmp_path):
    with pytest.raises(FaqDataError, match="not a file.*unset FAQ_ARCHIVE"):
        parse_archive(tmp_path / "nope.zip")


def test_truncated_archive_names_the_file(tmp_path):
    data = make_faq_zip(TINY_FAQ)
    path = tmp_path / "cut.zip"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(FaqDataError, match="cut.zip.*truncated or corrupt"):
        parse_archive(path)


def test_corrupt_member_is_reported(tmp_path):
    data = bytearray(make_faq_zip(TINY_FAQ))
    start = data.find(b"Yes, you can join")  # flip bytes inside a stored member: its CRC no longer matches
    data[start:start + 3] = b"XXX"
    path = tmp_path / "bad.zip"
    path.write_bytes(bytes(data))
    with pytest.raises(FaqDataError, match="bad.zip"):
        parse_archive(path)


def test_malformed_front_matter_names_the_file(tmp_path):
    files = dict(TINY_FAQ)
    files["_questions/beta-course/intro/003_ccccccccc1_broken.md"] = "---\nid: [unclosed\nquestion: x\n---\nbody"
    path = tmp_path / "f.zip"
    path.write_bytes(make_faq_zip(files))
    with pytest.raises(FaqDataError, match="Malformed front matter in .*003_ccccccccc1_broken.md"):
        parse_archive(path)


def test_missing_front_matter_keys_name_the_file(tmp_path):
    files = dict(TINY_FAQ)
    files["_questions/beta-course/intro/004_ddddddddd1_nokeys.md"] = "---\nid: ddddddddd1\n---\nbody"
    path = tmp_path / "f.zip"
    path.write_bytes(make_faq_zip(files))
    with pytest.raises(FaqDataError, match="004_ddddddddd1_nokeys.md: missing question, sort_order"):
        parse_archive(path)


def test_bad_sort_order_names_the_file(tmp_path):
    files = dict(TINY_FAQ)
    files["_questions/beta-course/intro/005_eeeeeeeee1_x.md"] = question_file("eeeeeeeee1", "Q?", "soon", "A")
    path = tmp_path / "f.zip"
    path.write_bytes(make_faq_zip(files))
    with pytest.raises(FaqDataError, match="005_eeeeeeeee1_x.md: sort_order 'soon'"):
        parse_archive(path)


def test_zip_without_questions_is_rejected(tmp_path):
    path = tmp_path / "other.zip"
    path.write_bytes(make_faq_zip({"README.md": "hello"}))
    with pytest.raises(FaqDataError, match="holds no FAQ questions"):
        parse_archive(path)


@pytest.fixture
def no_archive(monkeypatch, tmp_path):
    """No FAQ_ARCHIVE and a cache path inside tmp_path."""
    monkeypatch.delenv("FAQ_ARCHIVE", raising=False)
    cache = tmp_path / "data" / "faq-cache.json"
    monkeypatch.setattr(ingest, "CACHE_PATH", cache)
    return cache


def test_download_then_cache(no_archive, monkeypatch):
    calls = []
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: calls.append(1) or make_faq_zip(TINY_FAQ))
    first = load_faq_data()
    assert no_archive.exists() and len(calls) == 1
    assert load_faq_data() == first and len(calls) == 1  # second load comes from the cache
    assert not list(no_archive.parent.glob("*.part"))


def test_no_network_and_no_cache_names_both_fixes(no_archive, monkeypatch):
    def refuse(*args, **kwargs):
        raise requests.ConnectionError("no network")

    monkeypatch.setattr(requests, "get", refuse)  # what pooch's downloader calls
    with pytest.raises(FaqDataError) as err:
        load_faq_data(progress=False)
    message = str(err.value)
    assert "connect to the internet" in message and "FAQ_ARCHIVE" in message and "no network" in message
    assert not no_archive.exists()


def test_the_download_streams_the_archive_to_a_temporary_file(no_archive, monkeypatch):
    # The real download path, with pooch's downloader answered in-process: the bytes come back, nothing stays.
    body = make_faq_zip(TINY_FAQ)

    class Answer:
        headers = {"content-length": str(len(body))}

        def raise_for_status(self):
            pass

        def iter_content(self, chunk_size):
            yield from (body[i:i + chunk_size] for i in range(0, len(body), chunk_size))

        def close(self):
            pass

    monkeypatch.setattr(requests, "get", lambda url, **kwargs: Answer())
    assert ingest.download_archive(progress=False) == body
    assert load_faq_data(progress=False) and no_archive.exists()


def test_interrupted_download_leaves_no_cache(no_archive, monkeypatch):
    def interrupted(**kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest, "download_archive", interrupted)
    with pytest.raises(KeyboardInterrupt):
        load_faq_data()
    assert not no_archive.exists()


def test_interrupted_cache_write_leaves_nothing_half_written(no_archive, monkeypatch):
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: make_faq_zip(TINY_FAQ))

    def boom(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        load_faq_data()
    assert list(no_archive.parent.iterdir()) == []


def test_damaged_cache_says_delete_it(no_archive):
    no_archive.parent.mkdir(parents=True)
    no_archive.write_text("{not json")
    with pytest.raises(FaqDataError, match="damaged.*Delete it"):
        load_faq_data()


def test_live_feed_is_opt_in_and_parsed(monkeypatch):
    pages = {
        ingest.LIVE_URL: [{"course": "x-course", "path": "x-course.json"}],
        "https://datatalks.club/faq/json/x-course.json": [
            {"id": "1", "section": "General", "question": "Q?", "answer": "A."}],
    }
    monkeypatch.setattr(ingest, "_fetch_json", lambda url, timeout: pages[url])
    assert load_faq_data(live=True) == [
        {"id": "1", "course": "x-course", "section": "General", "question": "Q?", "answer": "A."}]


def test_live_feed_failure_points_back_to_snapshot(monkeypatch):
    def refuse(*args, **kwargs):
        raise urllib.error.URLError("offline")

    monkeypatch.setattr(ingest.urllib.request, "urlopen", refuse)
    with pytest.raises(FaqDataError, match="pinned snapshot"):
        load_faq_data(live=True)


def test_cache_round_trip_is_plain_json(no_archive, monkeypatch):
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: make_faq_zip(TINY_FAQ))
    docs = load_faq_data()
    assert json.loads(no_archive.read_text(encoding="utf-8")) == docs


# --- Where FAQ_ARCHIVE comes from, and which archives are accepted ---------------------------------------

OTHER_COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def dotenv_folder(tmp_path, monkeypatch, restore_environ):
    """A working folder (no .env above it) and no FAQ_ARCHIVE in the shell; write .env there to set one."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    os.environ.pop("FAQ_ARCHIVE", None)
    return folder


def test_faq_archive_in_dotenv_alone_is_used_without_any_client(dotenv_folder, tiny_archive, monkeypatch):
    (dotenv_folder / ".env").write_text(f"FAQ_ARCHIVE={tiny_archive}\n")
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: pytest.fail("downloaded despite .env"))
    monkeypatch.setattr(ingest, "CACHE_PATH", dotenv_folder / "no-cache.json")
    assert [d["id"] for d in load_faq_data()] == ["bbbbbbbbb1", "aaaaaaaaa2", "aaaaaaaaa3", "aaaaaaaaa1"]


def test_faq_archive_from_the_shell_wins_over_dotenv(dotenv_folder, tiny_archive, tmp_path):
    (dotenv_folder / ".env").write_text(f"FAQ_ARCHIVE={tmp_path / 'not-this.zip'}\n")
    os.environ["FAQ_ARCHIVE"] = str(tiny_archive)
    assert len(load_faq_data()) == 4


def test_relative_faq_archive_is_taken_from_the_repository_root(dotenv_folder, tiny_archive):
    relative = os.path.relpath(tiny_archive, ingest.ROOT)
    (dotenv_folder / ".env").write_text(f"FAQ_ARCHIVE={relative}\n")  # the working folder is not the root
    assert len(load_faq_data()) == 4
    with pytest.raises(FaqDataError, match="taken from the repository root"):
        load_faq_data("no/such/faq.zip")


def test_tilde_in_faq_archive_is_expanded(dotenv_folder, tiny_archive, monkeypatch):
    monkeypatch.setenv("HOME", str(tiny_archive.parent))
    (dotenv_folder / ".env").write_text(f"FAQ_ARCHIVE=~/{tiny_archive.name}\n")
    assert len(load_faq_data()) == 4


@pytest.mark.parametrize("layout", [
    {"commit": OTHER_COMMIT},  # GitHub's archive of another commit: both the folder and the comment say so
    {"commit": None, "top": f"faq-{OTHER_COMMIT}", "comment": ""},  # re-zipped: only the folder tells
    {"commit": None, "top": "faq-main", "comment": OTHER_COMMIT},  # a branch's archive: only the comment tells
    {"commit": None, "top": f"faq-{FAQ_COMMIT}", "comment": OTHER_COMMIT},  # the two disagree
])
def test_archive_of_another_commit_is_rejected_naming_the_expected_one(tmp_path, layout):
    path = tmp_path / "other.zip"
    path.write_bytes(make_faq_zip(TINY_FAQ, **layout))
    with pytest.raises(FaqDataError) as err:
        parse_archive(path)
    message = str(err.value)
    assert f"pinned to commit {FAQ_COMMIT}" in message and OTHER_COMMIT in message
    assert f"archive/{FAQ_COMMIT}.zip" in message


def test_archive_that_names_no_commit_is_rejected(tmp_path):
    path = tmp_path / "hand-made.zip"
    path.write_bytes(make_faq_zip(TINY_FAQ, commit=None, top="faq", comment=""))
    with pytest.raises(FaqDataError, match=f"does not say which commit.*pinned to commit {FAQ_COMMIT}"):
        parse_archive(path)


def test_commit_check_can_be_turned_off_for_a_newer_snapshot(tmp_path):
    path = tmp_path / "newer.zip"
    path.write_bytes(make_faq_zip(TINY_FAQ, commit=OTHER_COMMIT))
    assert len(parse_archive(path, commit=None)) == 4
    assert len(parse_archive(path, commit=OTHER_COMMIT)) == 4


def test_the_pinned_snapshot_names_its_commit_both_ways():
    archive = os.environ.get("FAQ_ARCHIVE")  # CI always sets it (.ci/run, the GitHub workflow)
    if not archive:
        pytest.skip("FAQ_ARCHIVE is not set: no local copy of the pinned zip to inspect")
    with zipfile.ZipFile(ingest.repo_path(archive)) as zf:
        assert ingest.archive_commits(zf) == {FAQ_COMMIT}
        assert zf.comment.decode() == FAQ_COMMIT


def test_downloaded_archive_of_another_commit_is_not_cached(no_archive, monkeypatch):
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: make_faq_zip(TINY_FAQ, commit=OTHER_COMMIT))
    with pytest.raises(FaqDataError, match=FAQ_COMMIT):
        load_faq_data()
    assert not no_archive.exists()


def test_an_archive_fills_the_cache_so_the_variable_is_needed_once(tiny_archive, monkeypatch):
    monkeypatch.setenv("FAQ_ARCHIVE", str(tiny_archive))
    first = load_faq_data()
    assert ingest.CACHE_PATH.exists()
    monkeypatch.delenv("FAQ_ARCHIVE")
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: pytest.fail("downloaded despite the cache"))
    assert load_faq_data() == first


def test_a_read_only_data_folder_does_not_break_a_good_load(tiny_archive, monkeypatch, capsys):
    monkeypatch.setenv("FAQ_ARCHIVE", str(tiny_archive))
    monkeypatch.setattr(ingest, "write_atomically", lambda *a: (_ for _ in ()).throw(PermissionError("read-only")))
    assert len(load_faq_data()) == 4
    assert "not cached" in capsys.readouterr().out


def test_a_failed_load_in_a_notebook_shows_the_message_and_says_to_restart():
    lines = FaqDataError("FAQ_ARCHIVE points to /nowhere.zip, which is not a file.")._render_traceback_()
    assert lines[0].startswith("FaqDataError: FAQ_ARCHIVE points to /nowhere.zip")
    assert "restart the kernel" in lines[-1]
    assert not any("Traceback" in line for line in lines)
