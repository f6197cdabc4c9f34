"""The expression language: one tree, several back ends.

* :mod:`~nimproof.expr.parser` - text to tree (whitelisted, never ``eval``);
* :mod:`~nimproof.expr.walk` - the one walker every back end subclasses, and
  the table of built-in functions;
* :mod:`~nimproof.expr.evaluate` - exact scalar and vectorised numpy values;
* :mod:`~nimproof.expr.to_z3` - z3 ``BitVec`` and ``Int`` terms with the
  side conditions under which they agree with the integer meaning;
* :mod:`~nimproof.expr.to_sympy`, :mod:`~nimproof.expr.latex`,
  :mod:`~nimproof.expr.text` - sympy expressions, LaTeX and text for people.
"""

from nimproof.expr.evaluate import evaluate, evaluate_array
from nimproof.expr.nodes import Node, free_names
from nimproof.expr.parser import parse
from nimproof.expr.walk import uses_bitwise

__all__ = ["Node", "evaluate", "evaluate_array", "free_names", "parse", "uses_bitwise"]
