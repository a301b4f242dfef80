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


# What bash hands a completion function for a command line: the words as bash breaks them (at ':'
# and '=', COMP_WORDBREAKS), the last one being completed.
COMPLETE = r"""
source "$1"
shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
COMPREPLY=()
_invasion_complete
printf '%s\n' "${COMPREPLY[@]}"
"""


def _bash_offers(script: str, tmp_path: object, *words: str) -> list[str]:
    from pathlib import Path

    path = Path(str(tmp_path)) / "invasion.bash"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        ["bash", "-c", COMPLETE, "complete", str(path), *words], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_examples_rulings_verbs_and_options(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    from invasion_oracle.model.core.rulings import REGISTRY
    from invasion_oracle.model.registry import load_all

    assert main(["--print-completion", "bash"]) == 0
    script = capsys.readouterr().out
    load_all()
    stonespine_ids = sorted(r.id for r in REGISTRY.all("stonespine"))

    # example:stone<TAB> (bash passes "example" ":" "stone"): the Stonespine examples, as the part
    # after the colon that bash replaces
    offered = _bash_offers(script, tmp_path, "invasion", "stonespine", "place", "example", ":", "stone")
    assert "stonespine/placement" in offered and "stonespine/plan-year3" in offered
    assert all(o.startswith("stonespine/") for o in offered), offered
    # a shared verb offers every game's examples; a typed file name still completes as a file
    offered = _bash_offers(script, tmp_path, "invasion", "simulate", "example", ":", "vulk")
    assert offered and all(o.startswith("vulketh/") for o in offered) and "vulketh/race" in offered
    # --ruling SS-<TAB>: the ruling ids, each ending in '=' for its reading
    offered = _bash_offers(script, tmp_path, "invasion", "stonespine", "place", "x", "--ruling", "SS-")
    assert offered == [f"{rid}=" for rid in stonespine_ids]
    # --ruling SS-EXIT-Y13=<TAB> (bash passes "SS-EXIT-Y13" "=" ""): its readings
    offered = _bash_offers(
        script, tmp_path, "invasion", "stonespine", "place", "x", "--ruling", "SS-EXIT-Y13", "=", ""
    )
    assert offered == sorted(REGISTRY.get("SS-EXIT-Y13").reading_names)
    # a game's verb offers only that game's rulings
    assert _bash_offers(script, tmp_path, "invasion", "vulketh", "race", "x", "--ruling", "SS-") == []
    # verbs, games and options, from the parser
    assert _bash_offers(script, tmp_path, "invasion", "stonespine", "pl") == ["place", "plan"]
    assert _bash_offers(script, tmp_path, "invasion", "vulk") == ["vulketh"]
    assert _bash_offers(script, tmp_path, "invasion", "stonespine", "place", "x", "--eng") == ["--engine"]
