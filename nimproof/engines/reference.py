"""The reference implementation: plain, obviously correct, slow.

Everything here follows the definitions word for word (the Grundy value is the
mex of the options' values; a sum's value is the xor of its parts'), using
only the games' plain move generators (:meth:`Game.moves`,
:meth:`HeapGame.options`). The fast engines are tested against these
functions and every counterexample is re-checked with them
(:mod:`nimproof.provers.settle`); nothing here may depend on a fast engine.

Where these functions cannot reach a position (a heap of ``2**50``), the
re-checks take its true value from a theorem instead, exactly as plain Nim's
comes from Sprague–Grundy (:func:`nimproof.provers.recheck.nim_value`):

* Sprague–Grundy: a normal-play position of several heaps has the xor of the
  heaps' values (from :func:`heap_table`); a Nim heap of ``n`` has value ``n``;
* Bouton's misère theorem: a misère Nim position with some heap of 2 or more
  has misère nim-value the xor of its heaps; one of 0s and 1s only has value
  ``1 xor`` that xor.

Both agree with :func:`value` on every small position (``tests/provers/test_settle.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from nimproof.errors import UsageError
from nimproof.games.base import Game, HeapGame, Position, canonical_heaps, mex


def heap_table(game: HeapGame, n_max: int, check: Callable[[], None] | None = None) -> list[int]:
    """Grundy values of single heaps ``0..n_max`` of a normal-play heap game.

    ``g(n) = mex{ g(a1) xor g(a2) xor ... : n -> (a1, a2, ...) }`` (a move
    that leaves several heaps leaves their sum, by Sprague–Grundy). ``check``
    is called once per heap (a deadline: it may raise to stop the work).
    """
    g = _heap_rows(game, n_max, check, None)
    assert g is not None  # only a move budget stops early
    return g


def _heap_rows(
    game: HeapGame, n_max: int, check: Callable[[], None] | None, max_moves: int | None
) -> list[int] | None:
    # heap_table's loop; None once more than max_moves moves were enumerated (when given).
    g: list[int] = []
    moves = 0
    for n in range(n_max + 1):
        if check is not None:
            check()
        values = set()
        for parts in game.options(n):
            moves += 1
            if max_moves is not None and moves > max_moves:
                return None
            v = 0
            for a in parts:
                v ^= g[a]
            values.add(v)
        g.append(mex(values))
    return g


def misere_heap_table(
    game: HeapGame, n_max: int, check: Callable[[], None] | None = None
) -> list[int]:
    """Misère nim-values of single heaps ``0..n_max`` of a heap game whose moves never split.

    ``1`` at a heap with no move, otherwise the mex of its options' values
    (each option is one heap, so no sum is involved). Raises ``ValueError``
    for a game whose moves may split a heap. ``check`` as for :func:`heap_table`.
    """
    if game.splits:
        raise ValueError(f"{game.spec} splits heaps: misère values of sums are not tabulated")
    g: list[int] = []
    for n in range(n_max + 1):
        if check is not None:
            check()
        values = {g[parts[0] if parts else 0] for parts in game.options(n)}
        g.append(mex(values) if values else 1)
    return g


def value(
    game: Game,
    position: Position,
    cache: dict[Hashable, int] | None = None,
    check: Callable[[], None] | None = None,
) -> int:
    """The Grundy value (normal play) or misère nim-value of ``position``.

    Normal play: mex over the options (0 at a terminal position). Misère play
    (``game.misere``): 1 at a terminal position, otherwise the mex. A heap
    game's position may be an ``int`` (one heap) or a tuple of heaps; a tuple
    is evaluated directly as a joint position, not by Sprague–Grundy.
    Memoised in ``cache`` (pass a dict to share it between calls). ``check``,
    when given, is called every few thousand positions (a time limit raises there).
    """
    memo: dict[Hashable, int] = {} if cache is None else cache
    start = _key(game, position)
    if start in memo:
        return memo[start]
    terminal_value = 1 if game.misere else 0
    # Iterative depth-first search: deep games must not hit Python's recursion limit.
    stack: list[tuple[Hashable, list[Hashable] | None]] = [(start, None)]
    # Positions whose options are being evaluated: the current path (a loopy game returns to one).
    path: set[Hashable] = set()
    steps = 0
    while stack:
        steps += 1
        if check is not None and steps % 256 == 0:
            check()
        pos, children = stack[-1]
        if pos in memo:
            stack.pop()
            continue
        if children is None:
            children = [_key(game, q) for q in game.moves(pos)]
            stack[-1] = (pos, children)
            pending = [c for c in children if c not in memo]
            if any(c in path for c in pending):
                raise UsageError(
                    f"{game.spec}: a play from {position} may go on forever (it returns to "
                    f"{pos}), so it has no Grundy value; a loopy game has outcomes instead"
                )
            path.add(pos)
            if pending:
                stack.extend((c, None) for c in pending)
                continue
        if any(c not in memo for c in children):
            stack.extend((c, None) for c in children if c not in memo)
            continue
        memo[pos] = mex(memo[c] for c in children) if children else terminal_value
        path.discard(pos)
        stack.pop()
    return memo[start]


def _key(game: Game, position: Position) -> Hashable:
    if isinstance(game.normal, HeapGame):
        if isinstance(position, int):
            return canonical_heaps((position,))
        return canonical_heaps(position)  # type: ignore[arg-type]
    return position


def sum_value(game: HeapGame, heaps: Iterable[int], table: list[int] | None = None) -> int:
    """Grundy value of a sum of heaps by Sprague–Grundy: xor of the heap values."""
    hs = list(heaps)
    t = (
        table
        if table is not None and len(table) > max(hs, default=0)
        else heap_table(game, max(hs, default=0))
    )
    out = 0
    for h in hs:
        out ^= t[h]
    return out


def seed_style_nimber(n: int, moves: Callable[[int], Iterable[int]], cache: dict[int, int]) -> int:
    """Seed 000's memoised recursive ``nimber`` (the Ruby ``$c`` hash), for benchmarks.

    ``moves(n)`` lists the heaps one move away. Recursion as in the source;
    callers raise the recursion limit or fill ``cache`` bottom-up.
    """
    if n in cache:
        return cache[n]
    values = sorted({seed_style_nimber(m, moves, cache) for m in moves(n)})
    i = 0
    for x in values:
        if x != i:
            break
        i += 1
    cache[n] = i
    return i


def seed_style_nimber_of_sum(
    n: int, options: Callable[[int], Iterable[tuple[int, ...]]], cache: dict[int, int]
) -> int:
    """Seed 000's ``nimber`` for games whose moves leave several heaps (take-and-break).

    As in the Ruby source, the nimber of an array of heaps is the xor of the
    heaps' nimbers, and a single heap's nimber is the mex of its options'
    nimbers, memoised in ``cache``. For benchmarks only.
    """
    if n in cache:
        return cache[n]
    values = set()
    for parts in options(n):
        v = 0
        for a in parts:
            v ^= seed_style_nimber_of_sum(a, options, cache)
        values.add(v)
    i = 0
    for x in sorted(values):
        if x != i:
            break
        i += 1
    cache[n] = i
    return i


def winning_targets(
    game: Game, position: Position, cache: dict[Hashable, int] | None = None
) -> set[Hashable]:
    """The positions one move from ``position`` whose value is 0, in the reference's key form.

    A heap game's positions are sorted tuples of the non-empty heaps (as
    :meth:`HeapGame.moves` yields them), evaluated as whole positions.
    """
    memo: dict[Hashable, int] = {} if cache is None else cache
    return {_key(game, q) for q in game.moves(position) if value(game, q, memo) == 0}


def heap_table_within(game: HeapGame, n_max: int, max_moves: int) -> list[int] | None:
    """:func:`heap_table`, or None as soon as more than ``max_moves`` moves were enumerated.

    For callers that want the plain computation only when it is cheap (a
    small table on the command line) and a compiled engine otherwise.
    """
    return _heap_rows(game, n_max, None, max_moves)
