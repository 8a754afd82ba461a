"""``gogame warmup``: every kernel group compiled (or loaded), progress on
stderr, nothing on stdout but the JSON asked for."""

import io
import json
import subprocess
import sys

from gogame import kernel
from gogame.tools import warmup


def test_warmup_runs_every_group_and_shows_progress():
    stream = io.StringIO()
    times = warmup.warmup(stream)
    assert list(times) == [label for label, _ in warmup.STEPS]
    assert all(t >= 0 for t in times.values())
    text = stream.getvalue()
    assert f"{len(warmup.STEPS)}/{len(warmup.STEPS)}" in text
    assert "done in" in text


def test_warmup_quiet_writes_nothing(capsys):
    warmup.warmup(quiet=True)
    out, err = capsys.readouterr()
    assert out == "" and err == ""


def test_the_command_prints_json_on_stdout_and_progress_on_stderr():
    proc = subprocess.run(
        [sys.executable, "-m", "gogame", "warmup", "--json"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert set(report["seconds"]) == {label for label, _ in warmup.STEPS}
    assert report["cache_dir"] == kernel.CACHE_DIR  # the child inherits the parent's folder
    proc = subprocess.run(
        [sys.executable, "-m", "gogame", "warmup"], capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0 and proc.stdout == ""
    assert "done in" in proc.stderr
