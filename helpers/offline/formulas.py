"""A formula the request writes, for a parameter that asks for a function, an equation or an expression.

`expression_for(name, schema, question)`: "y = 3x^2 + 2x - 1" -> "3x**2 + 2x - 1", written as Python writes a
power.

What it leaves out on purpose: algebra. The formula is copied, not simplified or checked; it needs a power or a
coefficient on a one-letter variable to be told apart from plain numbers.
"""

from __future__ import annotations

import re

_FORMULA_PARAM = re.compile(r"\b(?:function|equation|expression|formula|polynomial|integrand)\b", re.IGNORECASE)
_TERM = r"(?:\d+(?:\.\d+)?\s*\*?\s*)?(?<![A-Za-z])[a-z](?![A-Za-z])(?:\s*(?:\^|\*\*)\s*\d+)?|\d+(?:\.\d+)?"
_FORMULA = re.compile(rf"(?:(?<![A-Za-z])[a-z](?:\([a-z]\))?\s*=\s*)?[-+]?\s*(?:{_TERM})(?:\s*[-+*/]\s*(?:{_TERM}))*")


def expression_for(name: str, schema: dict, question: str, taken: frozenset | set = frozenset()) -> str | None:
    """A formula the question writes, for a parameter that asks for a function or an equation, with ^ written
    as Python's ** ("3x^2 + 2x - 1" -> "3x**2 + 2x - 1"); None when the parameter asks for none or the
    question writes none (a term with a power or a coefficient on a variable).

    Example:
        >>> expression_for("function", {"description": "The function to integrate."}, "Integrate y=x^2 from 1 to 3")
        'x**2'

    `taken`: formulas other parameters hold already; the next formula of the question goes to this one.
    """
    said = f"{name.replace('_', ' ')} {schema.get('description') or ''}"
    if not _FORMULA_PARAM.search(said) or re.search(r"\bvariables?\b", name.replace("_", " ")):
        return None  # `function_variable` asks for the variable of a function, not for the function
    for match in _FORMULA.finditer(question):
        text = match.group(0).strip()
        if re.search(r"\^|\*\*|\d\s*\*?\s*[a-z](?![A-Za-z])", text) and re.search(r"(?<![A-Za-z])[a-z](?![A-Za-z])", text):
            text = re.sub(r"^(?<![A-Za-z])[a-z](?:\([a-z]\))?\s*=\s*", "", text)
            written = re.sub(r"\s*\^\s*", "**", text).strip()
            if written not in taken:  # "y=3x+2 and y=2x+3": the second formula for the second parameter
                return written
    return None

