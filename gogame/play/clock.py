"""Time control for genmove: GTP time_settings, kgs-time_settings, time_left.

``Clock.budget(color, empty_points)`` gives the seconds to think about the
next move: the default per-move time without a limit (GTP's ``time_settings
M B 0`` with B > 0, or ``kgs-time_settings none``), a share of the main time
left while there is some, and most of one stone's share of the byo-yomi
period after that.  ``spend`` keeps the clock between ``time_left`` reports
(gogui-twogtp sends none); ``time_left`` replaces what the clock holds.
Not done: the opponent's clock, pondering, network lag.
"""

from __future__ import annotations

from dataclasses import dataclass

SAFETY = 0.9  # share of a byo-yomi stone's time used
MARGIN = 0.05  # seconds kept for answering
MIN_SECONDS = 0.02


@dataclass
class _Left:
    main: float
    byo: float  # time left in the current byo-yomi period
    stones: int  # stones left in it (0: in main time / no stones)


class Clock:
    """Time settings for both colours; seconds in floats."""

    def __init__(self, default: float = 1.0) -> None:
        self.default = float(default)
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

    def budget(self, color: int, empty_points: int) -> float:
        """Seconds for ``color``'s next move on a board with ``empty_points``."""
        if self.kind == "none":
            return self.default
        left = self._left(color)
        moves_to_go = max(10.0, empty_points / 3.0)
        if left.main > MARGIN:
            share = left.main / moves_to_go
            if self.kind == "absolute":
                return max(MIN_SECONDS, min(share, left.main - MARGIN))
            return max(
                MIN_SECONDS,
                min(
                    share + self._per_stone(left) * 0.5, left.main - MARGIN + self._per_stone(left)
                ),
            )
        if self.kind == "absolute":
            return MIN_SECONDS
        return max(MIN_SECONDS, self._per_stone(left) * SAFETY - MARGIN)

    def _per_stone(self, left: _Left) -> float:
        if self.kind == "byoyomi":
            return self.byo_time
        if self.kind != "canadian":
            return 0.0
        stones = left.stones or self.byo_stones
        byo = left.byo if left.stones else self.byo_time
        return byo / max(1, stones)

    def spend(self, color: int, seconds: float) -> None:
        """Charge ``seconds`` to ``color`` for a move it made."""
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
