"""Time control for genmove: GTP time_settings, kgs-time_settings, time_left.

``Clock.budget(color, empty_points, board_points)`` gives the seconds to
think about the next move: the default per-move time without a limit (GTP's
``time_settings M B 0`` with B > 0, or ``kgs-time_settings none``), a share
of the main time left while there is some, and most of one stone's share of
the byo-yomi period after that.

* The share of the main time is weighted by the stage of the game (the
  empty part of the board): the opening and the late endgame get less, the
  middle game more (``stage_weight``).
* A move costs more than its thinking time: the tactical priors, the
  guard and the answer.  ``spend(color, seconds, budget)`` learns that
  overhead (a running average of what a move took beyond its budget) and
  every budget leaves room for it: in main time for the moves still to
  come under sudden death, in byo-yomi for this stone.  So the clock never
  runs out as long as a move's overhead stays near what it has been.

``spend`` keeps the clock between ``time_left`` reports (gogui-twogtp sends
none); ``time_left`` replaces what the clock holds.  Not done: the
opponent's clock, pondering, network lag.
"""

from __future__ import annotations

from dataclasses import dataclass

SAFETY = 0.9  # share of a byo-yomi stone's time used
MARGIN = 0.05  # seconds kept for answering
MIN_SECONDS = 0.02
OVERHEAD = 0.05  # a move's time beyond its budget, until one is measured
LEARN = 0.3  # weight of the newest move in the running overhead
ENDGAME_MOVES = 30  # moves kept in reserve for under sudden death


def stage_weight(empty_share: float) -> float:
    """How much of an even share of the main time a move gets, by the empty
    share of the board: 0.6 in the opening (over 85 % empty), 1.4 in the
    middle game (35-70 %), 0.8 in the endgame (under 20 %), linear between."""
    points = ((0.0, 0.8), (0.2, 0.8), (0.35, 1.4), (0.7, 1.4), (0.85, 0.6), (1.0, 0.6))
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if empty_share <= x1:
            return y0 + (y1 - y0) * (empty_share - x0) / (x1 - x0)
    return points[-1][1]


@dataclass
class _Left:
    main: float
    byo: float  # time left in the current byo-yomi period
    stones: int  # stones left in it (0: in main time / no stones)


class Clock:
    """Time settings for both colours; seconds in floats."""

    def __init__(self, default: float = 1.0) -> None:
        self.default = float(default)
        self.overhead = OVERHEAD  # learnt by ``spend``
        self.set_none()

    def set_none(self) -> None:
        """No time limit: every move gets the default."""
        self.kind = "none"
        self.main = self.byo_time = 0.0
        self.byo_stones = 0
        self.left: dict[int, _Left] = {}

    def set_canadian(self, main: float, byo_time: float, byo_stones: int) -> None:
        """GTP time_settings: byo_time > 0 with 0 stones means no limit."""
        if byo_time > 0 and byo_stones == 0:
            self.set_none()
            return
        self.kind = "absolute" if byo_time == 0 else "canadian"
        self.main, self.byo_time, self.byo_stones = float(main), float(byo_time), int(byo_stones)
        self.left = {}

    def set_absolute(self, main: float) -> None:
        """Sudden death: ``main`` seconds for the whole game."""
        self.set_canadian(main, 0, 0)

    def set_byoyomi(self, main: float, byo_time: float, periods: int) -> None:
        """KGS Japanese byo-yomi: ``periods`` periods of ``byo_time`` a move."""
        self.kind = "byoyomi"
        self.main, self.byo_time, self.byo_stones = float(main), float(byo_time), int(periods)
        self.left = {}

    def _left(self, color: int) -> _Left:
        if color not in self.left:
            self.left[color] = _Left(self.main, self.byo_time, 0)
        return self.left[color]

    def time_left(self, color: int, seconds: float, stones: int) -> None:
        """GTP time_left: ``stones`` 0 means main time (or periods, byoyomi)."""
        left = self._left(color)
        if stones == 0 or self.kind == "byoyomi":
            left.main, left.stones = float(seconds), 0
            if self.kind == "byoyomi" and stones:
                left.main = 0.0
                left.byo = float(seconds)
        else:
            left.main, left.byo, left.stones = 0.0, float(seconds), int(stones)

    def budget(self, color: int, empty_points: int, board_points: int = 0) -> float:
        """Seconds for ``color``'s next move with ``empty_points`` of the
        board's ``board_points`` empty (0: unknown, no stage weight)."""
        if self.kind == "none":
            return self.default
        left = self._left(color)
        moves_to_go = max(10.0, empty_points / 3.0)
        stage = stage_weight(empty_points / board_points) if board_points else 1.0
        if left.main > MARGIN:
            if self.kind == "absolute":  # keep room for the overhead of the moves to come
                usable = left.main - MARGIN - self.overhead * (moves_to_go + ENDGAME_MOVES)
                share = usable / moves_to_go * stage - self.overhead
                return max(MIN_SECONDS, min(share, left.main - MARGIN - self.overhead))
            share = left.main / moves_to_go * stage - self.overhead
            per_stone = self._per_stone(left)
            return max(MIN_SECONDS, min(share + per_stone * 0.5, left.main - MARGIN + per_stone))
        if self.kind == "absolute":
            return MIN_SECONDS
        return max(MIN_SECONDS, self._per_stone(left) * SAFETY - MARGIN - self.overhead)

    def _per_stone(self, left: _Left) -> float:
        if self.kind == "byoyomi":
            return self.byo_time
        if self.kind != "canadian":
            return 0.0
        stones = left.stones or self.byo_stones
        byo = left.byo if left.stones else self.byo_time
        return byo / max(1, stones)

    def spend(self, color: int, seconds: float, budget: float | None = None) -> None:
        """Charge ``seconds`` to ``color`` for a move it made; with the
        ``budget`` it was given, learn the overhead beyond it."""
        if budget is not None:
            beyond = max(0.0, seconds - budget)
            self.overhead += LEARN * (beyond - self.overhead)
        if self.kind == "none":
            return
        left = self._left(color)
        if left.main > 0:
            left.main -= seconds
            if left.main >= 0 or self.kind == "absolute":
                return
            seconds = -left.main
            left.main = 0.0
        if self.kind == "byoyomi":
            return
        if left.stones == 0:
            left.byo, left.stones = self.byo_time, self.byo_stones
        left.byo -= seconds
        left.stones -= 1
        if left.stones <= 0:
            left.byo, left.stones = self.byo_time, self.byo_stones
