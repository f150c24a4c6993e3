"""Small talk and arithmetic: the replies the offline model gives without any tool or knowledge.

- `small_talk`: a reply to a greeting, to thanks, or to a bare arithmetic question ("What is 2+2?", also
  with the operator in Chinese or Japanese words: "15乘以23等于多少？").

What it leaves out on purpose: conversation. Anything beyond these three shapes is not small talk, and
the other rules answer it. Arithmetic is evaluated over numbers and operators only, never with eval().
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from helpers.offline.text import content_words, number_text

MAX_EXPONENT = 100  # 2**100 is still arithmetic; 9**9**9 would hang the process


_GREETING = re.compile(r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|greetings|howdy|yo)\b[\s!.,]*"
                       r"(?:there|everyone|all)?[\s!.,]*$", re.IGNORECASE)
_THANKS = re.compile(r"^\s*(?:thanks|thank you|thx|cheers)\b[^?]*$", re.IGNORECASE)
_ARITHMETIC = re.compile(r"(-?\d+(?:\.\d+)?(?:\s*(?:\*\*|[-+*/%x\u00d7])\s*\(?-?\d+(?:\.\d+)?\)?)+)")
# Operators written as words in Chinese and Japanese ("15乘以23等于多少？", "15かける23は？").
_CJK_OPERATORS = {"乘以": "*", "乘": "*", "加上": "+", "加": "+", "减去": "-", "减": "-", "除以": "/",
                  "かける": "*", "たす": "+", "ひく": "-", "わる": "/"}
_CJK_OPERATOR = re.compile(r"(?<=\d)\s*(?:" + "|".join(sorted(_CJK_OPERATORS, key=len, reverse=True)) + r")\s*(?=-?\d)")
_OPERATORS: dict[type, Callable[..., Any]] = {  # binary and unary operators alike
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Mod: operator.mod, ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos}


def small_talk(question: str) -> str | None:
    """A reply to a greeting, thanks, or a bare arithmetic question; None for anything else.

    Example:
        >>> small_talk("What is 2+2?")
        '2+2 = 4'
        >>> small_talk("15乘以23等于多少？")
        '15 * 23 = 345'
    """
    if _GREETING.match(question):
        return "Hello! Ask me a question and I'll look it up."
    if _THANKS.match(question):
        return "You're welcome! Anything else I can help with?"
    question = _CJK_OPERATOR.sub(lambda m: f" {_CJK_OPERATORS[m.group(0)]} ", question)
    match = _ARITHMETIC.search(question)
    if match and len(content_words(_ARITHMETIC.sub(" ", question))) <= 1:
        expression = match.group(1).replace("x", "*").replace("\u00d7", "*")
        value = _evaluate(expression)
        if value is not None:
            return f"{' '.join(expression.split())} = {number_text(value) if isinstance(value, float) else value}"
    return None


def _evaluate(expression: str) -> float | int | None:
    """Evaluate + - * / % ** over numbers, never anything else (no names, no calls)."""
    def walk(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
                raise ValueError("exponent too large")
            return _OPERATORS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](walk(node.operand))
        raise ValueError("not arithmetic")
    try:
        value = walk(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    return round(value, 10) if isinstance(value, float) else value
