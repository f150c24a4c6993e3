"""Build rfc3987_syntax's IRI parser when an IRI is first checked, not when jsonschema is imported.

jupyter-events asks for jsonschema's `format-nongpl` extra, so rfc3987-syntax is in the lock, and `import jsonschema`
imports it to check the "iri" and "iri-reference" formats. That module builds an Earley parser from its Lark grammar
as it is imported: about 0.9 s of CPU (1.8 s on a loaded machine) in every process that imports nbformat or
jsonschema: each pytest worker (nbval imports nbformat), JupyterLab, nbclient's callers. Measured with
`python -X importtime -m pytest --collect-only`, it was 0.88 s of the 1.21 s the collecting process spent importing.
The course's processes hardly ever check an IRI, so the parser was built and thrown away.

What it does: `python -m helpers.maint.lazy_iri_install` (`make install` runs it) writes a .pth file whose one line
Python runs at start-up: it imports this module and calls `install()`, which puts `LazyIriFinder` first on
`sys.meta_path`. Then `import rfc3987_syntax` gives the real
package (its files, its `__path__`) with its two functions, `parse` and `is_valid_syntax`, as thin wrappers that
import the real `rfc3987_syntax.syntax_helpers` (where the parser is built) at their first call; any other name is
looked up there too, on first use. Every check gives the answer it gave before; only the moment the grammar is built
moves. Nothing is un-pinned or patched on disk, and jupyter's event validation checks IRIs as before.
What it leaves out on purpose: other environments, and other slow imports (each would need its own reason).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

PACKAGE = "rfc3987_syntax"
REAL = PACKAGE + ".syntax_helpers"  # the module the package's __init__ star-imports, which builds the parser


def _syntax_helpers():
    return importlib.import_module(REAL)


def parse(term: str, value: str):
    """rfc3987_syntax.parse, building the parser at the first call."""
    return _syntax_helpers().parse(term=term, value=value)


def is_valid_syntax(term: str, value: str) -> bool:
    """rfc3987_syntax.is_valid_syntax (what jsonschema calls), building the parser at the first call.

    (No example here: it would build the parser in the doctest's process; tests/maint/test_lazy_iri.py checks it.)
    """
    return _syntax_helpers().is_valid_syntax(term=term, value=value)


def _module_getattr(name: str):
    # PEP 562: a name the package does not hold yet (syntax_parser, the grammar, ...) comes from the real module.
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_syntax_helpers(), name)


class _LazyLoader(importlib.abc.Loader):
    def __init__(self, real: importlib.machinery.ModuleSpec):
        self.real = real

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        module.parse = parse
        module.is_valid_syntax = is_valid_syntax
        module.__getattr__ = _module_getattr


class LazyIriFinder(importlib.abc.MetaPathFinder):
    """Finds rfc3987_syntax as the real package whose parser is built on first use; no other module.

    Example:
        >>> LazyIriFinder().find_spec("json", None) is None
        True
    """

    def find_spec(self, fullname, path, target=None):
        if fullname != PACKAGE:
            return None
        real = importlib.machinery.PathFinder.find_spec(fullname, path)
        if real is None or real.submodule_search_locations is None:
            return None  # not installed (or not the package we know): the usual ImportError follows
        spec = importlib.util.spec_from_loader(fullname, _LazyLoader(real), origin=real.origin, is_package=True)
        assert spec is not None
        spec.submodule_search_locations = list(real.submodule_search_locations)  # its syntax_helpers is found there
        return spec


def install() -> None:
    """Put LazyIriFinder first on sys.meta_path, once (the .pth line calls it at start-up)."""
    if not any(isinstance(finder, LazyIriFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, LazyIriFinder())
