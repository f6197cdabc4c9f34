"""The standard families mined by ``nimproof mine --defaults`` (``make mine``).

Each is mined on its own grid and written to its own file. Moore's Nim_K is
mined with more heaps than ``K`` as well: with at most ``K`` heaps every
non-zero position is an N-position, so the column rule is only visible with
more heaps.
"""

from __future__ import annotations

from nimproof.miner.pipeline import Request

#: Take one token, or half of an even heap.
TAKE_ONE_OR_HALF = "rule:m == n - 1 or 0 < m and 2 * m == n"

DEFAULT_REQUESTS: tuple[Request, ...] = (
    Request("knim:{k}", axes={"k": tuple(range(1, 9))}),
    Request("half-heap"),
    Request("kayles"),
    Request("dawsons-kayles"),
    Request("subtraction:all-but:1,2"),
    Request("subtraction:all-but:1,3"),
    Request("subtraction:all-but:2,5"),
    Request("take-fraction:1/3"),
    Request("take-fraction:2/3"),
    Request("take-fraction:2/5"),
    Request(TAKE_ONE_OR_HALF),
    # No rule is known: the report then says how far each guesser got.
    Request("grundys-game"),
    Request("nim", heaps=(2, 3, 4)),
    Request("moore:2", heaps=(3, 4)),
    Request("moore:3", heaps=(3, 4)),
    Request("staircase", heaps=(2, 3, 4, 5)),
    Request("misere:nim", heaps=(2, 3, 4)),
)


def default_requests(max_n: int | None = None, max_heap: int | None = None) -> list[Request]:
    """The standard requests, with the table bounds overridden where given."""
    out = []
    for r in DEFAULT_REQUESTS:
        out.append(
            Request(
                r.spec,
                axes=dict(r.axes),
                heaps=r.heaps,
                max_n=max_n if max_n is not None else r.max_n,
                max_heap=max_heap if max_heap is not None else r.max_heap,
            )
        )
    return out
