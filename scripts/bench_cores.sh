#!/usr/bin/env bash
# Thread scaling on a many-core machine, as one prepared run.
#
# Contract: with a warm cache (``gogame warmup`` first), times at each
# thread count of COUNTS (default 1,2,4,8,16):
#   1. the player's playouts a second, empty 9x9/13x13/19x19 (bench playouts);
#   2. ``replay --read`` of the six bundled 19x19 games (bench_replay_threads.py,
#      traces compared with the serial one);
#   3. one big reading question (bench_big_questions.py, >= 300 k serial nodes);
#   4. strength: 9x9 self-play, the top count against 1 thread, at SECONDS a
#      move (match.py, scored by the black engine's final_score).
# Each step has its own time limit, so a slow step cannot eat the others;
# everything goes to OUT/log.txt, the JSON reports to OUT/*.json.  It
# installs nothing and writes nothing else.
#
# Usage: scripts/bench_cores.sh OUT [COUNTS] [GAMES] [SECONDS]
set -u
out=${1:?usage: bench_cores.sh OUT [COUNTS] [GAMES] [SECONDS]}
counts=${2:-1,2,4,8,16}
games=${3:-6}
seconds=${4:-0.3}
top=${counts##*,}
py=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1

step() {  # step NAME LIMIT COMMAND...: run it with a limit, say how long it took
    local name=$1 limit=$2 t0=$SECONDS
    shift 2
    echo "== $name (limit ${limit} s)"
    timeout "$limit" "$@"
    echo "== $name: status $?, $((SECONDS - t0)) s"
}

step machine 30 "$py" -c "import os, sys, numba, numpy
print(sys.version.split()[0], 'numba', numba.__version__, 'numpy', numpy.__version__,
      'cores', len(os.sched_getaffinity(0)))"
step warmup 180 "$py" -m gogame warmup --jobs "$(nproc)"
step playouts 90 sh -c "'$py' -m gogame bench playouts --threads '$counts' --seconds 2 \
    --json > '$out/playouts.json'; cat '$out/playouts.json'"
step replay 120 "$py" "$here/bench_replay_threads.py" "$here"/../sgf/gnugo-l1-19x19-s30*.sgf \
    --threads "$counts" --window 32,64 --runs 2
step question 150 "$py" "$here/bench_big_questions.py" --threads "$counts" --runs 1 \
    --min-nodes 300000
step selfplay $((games * 40 + 30)) sh -c "'$py' '$here/match.py' --referee '' \
    --engine-a '$py -m gogame gtp --threads $top' --engine-b '$py -m gogame gtp --threads 1' \
    --games $games --size 9 --komi 7 --seconds $seconds --json > '$out/selfplay.json'; \
    cat '$out/selfplay.json'"
