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


def test_old_cache_folders_are_pruned_and_the_current_one_kept(tmp_path, monkeypatch):
    """Beside the folder in use: another sources' folder unused for 31
    days goes, one used yesterday stays, and so does the one in use."""
    import os
    import time

    current = tmp_path / "gogame-current"
    old, recent = tmp_path / "gogame-old", tmp_path / "gogame-recent"
    for folder in (current, old, recent):
        (folder / "sub").mkdir(parents=True)
        (folder / "sub" / "k.nbi").write_bytes(b"x")
    now = time.time()
    for folder, age in ((current, 90), (old, 31), (recent, 1)):
        os.utime(folder / "sub" / "k.nbi", (now - age * 86400, now - age * 86400))
    monkeypatch.setattr(kernel, "CACHE_DIR", str(current))
    assert warmup.prune_old_caches(now=now) == [str(old)]
    assert current.exists() and recent.exists() and not old.exists()
    (tmp_path / "unrelated").mkdir()
    assert warmup.prune_old_caches(now=now + 60 * 86400) == [str(recent)]
    assert current.exists() and (tmp_path / "unrelated").exists()
