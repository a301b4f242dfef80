"""``invasion --print-completion bash|zsh``: a completion script (shtab) for every game's verbs."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from invasion_oracle.reports.cli import main


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_the_completion_names_every_game_and_its_verbs(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--print-completion", shell]) == 0
    script = capsys.readouterr().out
    for word in ("stonespine", "spirit-island", "vulketh", "cloudspire", "fear-threshold", "survive", "race"):
        assert word in script, word
    assert "--time-limit" in script
    runner = shutil.which(shell)
    if runner is not None:  # the script is valid for its shell
        done = subprocess.run([runner, "-n"], input=script, text=True, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr[-500:]


def test_an_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--print-completion", "fish"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bash or zsh" in err
