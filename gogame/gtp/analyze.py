"""GoGui analyze commands, mixed into ``GtpEngine`` (gtp/engine.py).

``gogui-analyze_commands`` lists them (``type/label/command`` lines; GoGui
then uses this list instead of its built-in one, so GNU Go's reading
commands are listed too).  The gfx commands answer GoGui's gfx language:

* ``gogame-gfx_attack %p`` / ``gogame-gfx_defend %p`` / ``gogame-gfx_ladder
  %p``: the reader's answer for the clicked string: ``MARK`` the move,
  ``LABEL`` it with the code (1 WIN, 2 KO_A, 3 KO_B), and a ``TEXT`` line;
* ``gogame-gfx_capturable``: every string with at most 4 liberties that can
  be captured, ``COLOR``ed by result: red (cannot be saved), orange (the
  side to play first wins), gold (a ko either way);
* ``gogame-gfx_liberties``: each stone labelled with its string's liberties;
* ``gogame-gfx_ownership``: ``BLACK``/``WHITE`` for the majority owner of
  each point over plain playouts.

``gogame-param`` is GoGui's ``param`` type: without arguments one ``[type]
key value`` line per setting (level, depth_offset, node_limit, cache_mb,
hash, threads, move_seconds, resign_rate, rules, patterns, widening,
dynamic_komi, situational_komi, ponder);
``gogame-param key value`` sets one.  A new cache size, scheme or thread
count makes a new reader (and an empty cache); depths and limits carry
over.  Not done: live gfx
(``gogui-gfx:`` on stderr) during genmove.
"""

from __future__ import annotations

from ..core import options
from ..core.coords import format_vertices
from .protocol import GtpError

CAPTURABLE_LIBERTIES = 4
CAPTURABLE_NODES = 20000  # node limit per question in gfx_capturable

ANALYZE_COMMANDS = (
    "gfx/Attack string/gogame-gfx_attack %p",
    "gfx/Defend string/gogame-gfx_defend %p",
    "gfx/Ladder attack/gogame-gfx_ladder %p",
    "gfx/Capturable strings/gogame-gfx_capturable",
    "gfx/Liberties/gogame-gfx_liberties",
    "gfx/Ownership (playouts)/gogame-gfx_ownership",
    "gfx/Prove attack/gogame-gfx_prove_attack %p",
    "gfx/Prove defend/gogame-gfx_prove_defend %p",
    "plist/Dead stones/final_status_list dead",
    "plist/Seki stones/final_status_list seki",
    "string/Cache statistics/cache_stats",
    "string/Hash words/gogame-hash",
    "string/Reading node counter/get_reading_node_counter",
    "none/Reset reading node counter/reset_reading_node_counter",
    "param/Settings/gogame-param",
    "varpo/Attack/attack %p",
    "varp/Defend/defend %p",
    "varpo/Ladder Attack/ladder_attack %p",
    "string/CountLib/countlib %p",
    "plist/FindLib/findlib %p",
    "plist/Worm Stones/worm_stones %p",
)
CODE_NAMES = {1: "WIN", 2: "KO_A", 3: "KO_B"}
RESULT_COLORS = (
    ("red", "cannot be saved"),
    ("#ff8c00", "whoever plays first wins"),
    ("#ffd700", "ko"),
)


class AnalyzeCommands:
    """Handlers; ``self`` is a ``gtp.GtpEngine``."""

    def cmd_gogui_analyze_commands(self, args: list[str]) -> str:
        names = set(self.commands)
        return "\n".join(
            line for line in ANALYZE_COMMANDS if line.split("/", 2)[2].split(" ")[0] in names
        )

    # --------------------------------------------------------- reading
    def _gfx_result(self, what, code, move):
        from ..core.coords import format_gtp

        if code == 0:
            return f"TEXT {what}: 0 (fails)"
        if move is None:
            return f"TEXT {what}: {code} PASS ({CODE_NAMES[code]}, no move needed)"
        v = format_gtp(move)
        return f"MARK {v}\nLABEL {v} {code}\nTEXT {what}: {code} {v} ({CODE_NAMES[code]})"

    def cmd_gogame_gfx_attack(self, args: list[str]) -> str:
        return self._gfx_result(
            "attack", *self.read_checked(self.session.attack, self.parse_stone(args))
        )

    def cmd_gogame_gfx_defend(self, args: list[str]) -> str:
        return self._gfx_result(
            "defend", *self.read_checked(self.session.find_defense, self.parse_stone(args))
        )

    def cmd_gogame_gfx_ladder(self, args: list[str]) -> str:
        pt = self.parse_stone(args)
        libs = self.session.countlib(pt)
        if libs != 2:
            return f"TEXT ladder: the string has {libs} liberties, not 2"
        return self._gfx_result("ladder", *self.read_checked(self.session.ladder_attack, pt))

    def cmd_gogame_gfx_capturable(self, args: list[str]) -> str:
        """Every string with few liberties that can be captured, coloured."""
        session = self.session
        reader = session.reader
        groups = {color: [] for color, _ in RESULT_COLORS}
        old_limit = reader.node_limit
        reader.node_limit = CAPTURABLE_NODES
        try:
            weak = [
                stones
                for stones in session.worm_stones()
                if session.countlib(stones[0]) <= CAPTURABLE_LIBERTIES
            ]
            answers = self.read_checked(session.examine_strings, [s[0] for s in weak])
            for stones, ((code, _), defence) in zip(weak, answers, strict=True):
                if code == 0:
                    continue
                dcode = defence[0]
                if code in (2, 3) or dcode in (2, 3):
                    groups["#ffd700"].extend(stones)
                elif dcode == 0:
                    groups["red"].extend(stones)
                else:
                    groups["#ff8c00"].extend(stones)
        finally:
            reader.node_limit = old_limit
        lines = [
            f"COLOR {color} {format_vertices(groups[color])}"
            for color, _ in RESULT_COLORS
            if groups[color]
        ]
        legend = ", ".join(f"{c}: {what}" for c, what in RESULT_COLORS)
        found = sum(len(v) for v in groups.values())
        lines.append(
            f"TEXT {found} stones can be captured ({legend})"
            if found
            else "TEXT no string can be captured"
        )
        return "\n".join(lines)

    def cmd_gogame_gfx_liberties(self, args: list[str]) -> str:
        session = self.session
        pairs = []
        for stones in session.worm_stones():
            libs = session.countlib(stones[0])
            pairs.extend(f"{v} {libs}" for v in format_vertices(stones).split())
        return "LABEL " + " ".join(pairs) if pairs else "CLEAR"

    def cmd_gogame_gfx_ownership(self, args: list[str]) -> str:
        from ..kernel.layout import BLACK, WHITE

        own = self.session.ownership()
        pts = {BLACK: [], WHITE: []}
        for pt in own.points():
            o = own.owner(pt)
            if o in pts:
                pts[o].append(pt)
        lines = [
            f"{name} {format_vertices(pts[c])}"
            for name, c in (("BLACK", BLACK), ("WHITE", WHITE))
            if pts[c]
        ]
        lines.append(f"TEXT area estimate {own.margin(self.session.komi):+.1f} for black")
        return "\n".join(lines)

    # ------------------------------------------------------------ param
    def _params(self):
        s = self.session
        r = s.reader
        return [
            ("string", "level", str(r.level)),
            ("string", "depth_offset", str(r.depth_offset)),
            ("string", "node_limit", str(r.node_limit)),
            ("string", "cache_mb", _num(r.cache.budget_mb)),
            ("list/double/full/single", "hash", r.cache.scheme),
            ("string", "threads", str(s.settings.threads)),
            ("string", "move_seconds", _num(s.clock.default)),
            ("string", "resign_rate", _num(s.player.resign_rate)),
            ("list/chinese/japanese", "rules", s.rules),
            ("list/on/off", "patterns", "on" if s.patterns else "off"),
            ("list/on/off", "widening", "on" if s.widening else "off"),
            ("list/on/off", "dynamic_komi", "on" if s.dynamic_komi else "off"),
            ("list/on/off", "situational_komi", "on" if s.situational_komi else "off"),
            ("list/on/off", "ponder", "on" if s.pondering else "off"),
        ]

    def cmd_gogame_param(self, args: list[str]) -> str:
        if not args:
            return "\n".join(f"[{t}] {k} {v}" for t, k, v in self._params())
        if len(args) != 2:
            raise GtpError("syntax error")
        key, value = args[0], args[1]
        try:
            self._set_param(key, value)
        except ValueError:
            raise GtpError(f"bad value for {key}") from None
        return ""

    def _set_param(self, key, value):
        s = self.session
        r = s.reader
        if key == "level":
            r.level = options.level(value)
        elif key in ("depth_offset", "node_limit"):
            n = int(value)
            if key == "node_limit" and n < 0:
                raise ValueError(key)
            setattr(r, key, n)
        elif key == "cache_mb":
            self._new_reader(cache_mb=options.cache_mb(value))
        elif key == "hash":
            self._new_reader(hash=options.scheme(value))
        elif key == "threads":
            self._new_reader(threads=options.threads(value))
        elif key == "move_seconds":
            s.clock.default = options.seconds(value)
        elif key == "rules":
            s.rules = options.rules(value)
        elif key == "patterns":
            s.patterns = options.on_off(value)
        elif key == "widening":
            s.widening = options.on_off(value)
        elif key == "dynamic_komi":
            s.dynamic_komi = options.on_off(value)
        elif key == "situational_komi":
            s.situational_komi = options.on_off(value)
        elif key == "ponder":
            s.pondering = options.on_off(value)
        elif key == "resign_rate":
            x = float(value)
            if not 0 <= x <= 1:
                raise ValueError(key)
            s.player.resign_rate = x
        else:
            raise GtpError(f"unknown parameter {key}")

    def _new_reader(self, **changed):
        """A new reader for a new cache size, scheme or thread count; the
        depths and the node limit carry over."""
        s = self.session
        old = s.reader
        for key, value in changed.items():
            setattr(s.settings, key, value)
        new = s.new_reader()
        new.level, new.depth_offset, new.node_limit = old.level, old.depth_offset, old.node_limit


def _num(x):
    return f"{x:g}"
