"""helpers.maint.lazy_iri: rfc3987_syntax's parser is built at the first IRI checked, and checks as it did.

One test builds the real parser (about a second): the check that every answer is the real module's.
"""

import subprocess
import sys
import sysconfig
from pathlib import Path

from jsonschema import Draft202012Validator, FormatChecker

from helpers.maint import lazy_iri, lazy_iri_install

LOADED = "import sys, {module}; print(sorted(m for m in sys.modules if m.startswith('rfc3987_syntax')))"


def loaded_after_importing(module):
    out = subprocess.run([sys.executable, "-c", LOADED.format(module=module)], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_make_install_wrote_the_pth_file_into_this_environment():
    path = Path(sysconfig.get_paths()["purelib"]) / lazy_iri_install.PTH_NAME
    assert path.is_file(), f"{path} is missing: run make install (it runs python -m helpers.maint.lazy_iri_install)"
    assert path.read_text(encoding="utf-8") == lazy_iri_install.PTH_LINE


def test_importing_nbformat_or_jsonschema_no_longer_builds_the_parser():
    for module in ("nbformat", "jsonschema"):
        assert loaded_after_importing(module) == "['rfc3987_syntax']", module


def test_jsonschema_checks_iris_with_the_real_parser_as_before():
    import rfc3987_syntax

    checker = FormatChecker()
    cases = {("iri", "https://例え.jp/パス?q=1#frag"): True, ("iri", "mailto:someone@example.org"): True,
             ("iri", "no scheme here"): False, ("iri", "/relative/only"): False,
             ("iri-reference", "../up/один?x=2"): True, ("iri-reference", "with space"): False}
    for (fmt, value), valid in cases.items():
        assert checker.conforms(value, fmt) is valid, (fmt, value)
    real = sys.modules["rfc3987_syntax.syntax_helpers"]  # built by the first check above
    assert type(rfc3987_syntax.syntax_parser) is type(real.syntax_parser)  # other names come from the real module
    assert rfc3987_syntax.is_valid_syntax("iri", "urn:isbn:0451450523") is real.is_valid_syntax("iri",
                                                                                              "urn:isbn:0451450523")
    schema = {"type": "string", "format": "iri"}
    errors = list(Draft202012Validator(schema, format_checker=checker).iter_errors("not an iri"))
    assert [e.validator for e in errors] == ["format"]


def test_the_finder_answers_only_for_rfc3987_syntax_and_installs_once():
    finder = lazy_iri.LazyIriFinder()
    assert finder.find_spec("rfc3987_syntax.syntax_helpers", None) is None
    assert finder.find_spec("rfc3987_syntax", None).submodule_search_locations
    before = list(sys.meta_path)
    lazy_iri.install()
    assert sys.meta_path == before  # the .pth line already installed it in this process
