"""The expression language: one tree, several back ends.

* :mod:`~nimproof.expr.parser` - text to tree (whitelisted, never ``eval``);
* :mod:`~nimproof.expr.evaluate` - exact scalar and vectorised numpy values;
* :mod:`~nimproof.expr.to_z3` - z3 ``BitVec`` and ``Int`` terms with the
  side conditions under which they agree with the integer meaning;
* :mod:`~nimproof.expr.to_sympy` - sympy expressions and LaTeX for reports.
"""

from nimproof.expr.evaluate import evaluate, evaluate_array
from nimproof.expr.nodes import Node, free_names, uses_bitwise
from nimproof.expr.parser import parse

__all__ = ["Node", "evaluate", "evaluate_array", "free_names", "parse", "uses_bitwise"]
