"""``gogame warmup``: every kernel group compiled (or loaded), progress on
stderr, nothing on stdout but the JSON asked for."""

import functools
import io
import json
import os
import subprocess
import sys
import time

import pytest

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


def test_a_group_whose_child_fails_is_run_here(monkeypatch):
    """A child that exits with an error is not trusted: its group runs in
    this process; every group is reported once, in ``STEPS`` order."""
    ran = []
    steps = tuple((label, functools.partial(ran.append, label)) for label, _ in warmup.STEPS)
    monkeypatch.setattr(warmup, "STEPS", steps)
    monkeypatch.setattr(kernel, "cache_is_cold", lambda: True)
    failing = [sys.executable, "-c", "raise SystemExit(3)"]
    monkeypatch.setattr(
        warmup,
        "_start_away",
        lambda jobs: {"reading": (subprocess.Popen(failing), time.perf_counter())},
    )
    times = warmup.warmup(quiet=True, jobs=2)
    assert list(times) == [label for label, _ in steps]
    assert sorted(ran) == sorted(label for label, _ in steps)
    assert ran.index("reading") < ran.index("replay checks")  # the replay reads


@pytest.mark.slow
def test_a_cold_warmup_in_two_processes_leaves_a_complete_cache(tmp_path):
    """With an empty cache and two jobs the reader compiles in a child;
    afterwards a warmup compiles nothing: every kernel is in the cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    command = [sys.executable, "-m", "gogame", "warmup"]
    proc = subprocess.run(
        [*command, "--jobs", "2"], capture_output=True, text=True, timeout=900, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert "4/4 done in" in proc.stderr
    proc = subprocess.run(
        [*command, "--json"], capture_output=True, text=True, timeout=900, env=env
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["cache_dir"].startswith(str(tmp_path))
    assert report["compiled"] == []


def test_a_bad_step_or_job_count_is_refused():
    with pytest.raises(ValueError, match="unknown warmup step"):
        warmup.run_step("nothing")
    proc = subprocess.run(
        [sys.executable, "-m", "gogame", "warmup", "--jobs", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0 and "process count" in proc.stderr


@pytest.mark.slow
def test_a_step_child_ends_when_its_parent_ends(tmp_path):
    """A ``warmup --step`` child compiles while its parent lives (an empty
    cache: a long compile), at a lower priority, and stops once the parent
    is killed."""
    script = (
        "import time\n"
        "from gogame.core import warming\n"
        "print(warming.start('reading').pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    child = int(parent.stdout.readline())
    time.sleep(2)
    assert _alive(child)
    with open(f"/proc/{child}/stat") as f:  # field 19: the nice value
        assert int(f.read().split(")")[-1].split()[16]) == min(19, os.nice(0) + warmup.NICE)
    parent.kill()
    parent.wait()
    deadline = time.time() + 20
    while time.time() < deadline and _alive(child):
        time.sleep(0.2)
    assert not _alive(child)


def _alive(pid):
    """True while ``pid`` runs (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
