"""What every check test asserts about a FAIL: the status, a hint long enough to help, and no answer in it.

Imported by the tests of the homework checks and the lessons' exercises (tests/ is on sys.path, as for
skip_guard). Each test file passes its own `leaks` (pieces of the answer a hint must never show) and `says`
(words the hint must contain, so it points at the mistake made).
"""


def assert_fails(result, *, leaks=(), says=()):
    """The check failed with a useful hint that names what is wrong (`says`) and shows none of `leaks`."""
    assert result.status == "fail", result
    assert "[FAIL]" in repr(result)
    assert len(result.hint) > 20, result
    for secret in leaks:
        assert str(secret) not in result.hint, f"the hint leaks {secret!r}: {result.hint}"
    for word in says:
        assert word in result.hint, result.hint


def assert_todo(result):
    """The check said NOT DONE YET: the work is still a stub."""
    assert result.status == "todo", result
    assert "NOT DONE YET" in repr(result)


def stub(*args, **kwargs):
    """What a student's untouched stub does."""
    raise NotImplementedError
