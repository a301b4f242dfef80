"""Well-formedness of a game's rules, searched over generated scenarios.

Three questions, each answered like a divergence search (a shrunk witness scenario, or "none
found" with the budget spent), over the game's ``scenario_documents()`` (:mod:`invasion_oracle.properties.hooks`):

* **no legal decision** - a state whose request lists no option (a player must choose but
  cannot), or a run the oracle aborts with a rules error on input it accepted;
* **a phase that cannot end** - a run that returns to a state it was in before (some answers
  loop forever) or does not end within :data:`MAX_STEPS` steps;
* **a win condition that cannot be reached** - for each of the game's ``WIN_CONDITIONS``, the
  smallest scenario whose outcome meets it; one never met within the budget is reported as not
  reached (a search, not a proof).

Every scenario is played with its own answerers (the generated seeds), one step at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.canonical import to_jsonable
from invasion_oracle.model.core.decisions import DecisionRequest, normalise_answer
from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.model.core.spec import GameSpec, ScenarioOptions
from invasion_oracle.properties.budget import SearchBudget, Spent, smallest
from invasion_oracle.properties.hooks import scenario_strategy, win_conditions

MAX_STEPS = 5_000
"""Steps after which a run counts as not ending (the bundled examples take at most a few hundred)."""

NO_LEGAL_DECISION = "no legal decision"
CANNOT_END = "a phase that cannot end"
GENERATED = "generated scenario"

FOUND = "found"
NONE_FOUND = "none-found"
UNKNOWN = "unknown"
NO_GENERATOR = "no-generator"
NOT_DECLARED = "not-declared"


@dataclass(frozen=True, slots=True)
class Played:
    """How a run went: its outcome, or the well-formedness problem it hit (and at which step)."""

    outcome: Any
    problem: str  # "" or NO_LEGAL_DECISION or CANNOT_END
    detail: str
    steps: int


def play_checked(spec: GameSpec, document: Any, source: str = GENERATED) -> Played:
    """Play ``document`` step by step, watching for empty requests, repeated states and no end."""
    try:
        scenario = spec.load(document, source, ScenarioOptions())
    except InvasionError as err:  # the generator drew something the loader refuses: not a rules problem
        return Played(None, "", f"refused: {err}", 0)
    game = scenario.game()
    decider, chance = scenario.decider(), scenario.chance_source()
    seen: set[Any] = set()
    hashable = True
    try:
        state, _ = game.start(scenario.initial)
        for step in range(MAX_STEPS):
            request = game.pending(state)
            if request is None:
                return Played(to_jsonable(spec.outcome(scenario, state)), "", "", step)
            choices = request.options if isinstance(request, DecisionRequest) else request.outcomes
            if not choices:
                return Played(
                    None, NO_LEGAL_DECISION, f"step {step + 1}: {request.describe()} lists no option", step
                )
            if hashable:
                try:
                    if state in seen:
                        return Played(
                            None,
                            CANNOT_END,
                            f"step {step + 1}: the run is back in a state it was in before",
                            step,
                        )
                    seen.add(state)
                except TypeError:  # a state that does not hash: only the step limit applies
                    hashable = False
            if isinstance(request, DecisionRequest):
                answer = normalise_answer(request, decider.decide(request))
            else:
                answer = normalise_answer(request, chance.outcome(request))
            state, _ = game.step(state, answer)
    except InvasionError as err:
        return Played(None, NO_LEGAL_DECISION, f"the oracle stopped: {err}", 0)
    except Exception as err:  # a crash on input the loader accepted: the rules left no way on
        return Played(None, NO_LEGAL_DECISION, f"the oracle crashed: {type(err).__name__}: {err}", 0)
    return Played(None, CANNOT_END, f"no end within {MAX_STEPS} steps", MAX_STEPS)


@dataclass(frozen=True, slots=True)
class Check:
    """The answer of one well-formedness search."""

    game: str
    check: str  # NO_LEGAL_DECISION, CANNOT_END, or "reach: <win condition>"
    status: str  # FOUND / NONE_FOUND / UNKNOWN / NO_GENERATOR / NOT_DECLARED
    budget: SearchBudget
    runs: int
    document: dict[str, Any] | None
    detail: str

    @property
    def healthy(self) -> bool:
        """Problems found are unhealthy; an unreached win condition too (as far as the search saw)."""
        if self.check.startswith("reach: "):
            return self.status == FOUND
        return self.status != FOUND

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "check": self.check,
            "status": self.status,
            "healthy": self.healthy,
            "budget": self.budget.to_json(),
            "runs": self.runs,
            "document": self.document,
            "detail": self.detail,
        }


def checks(game: str) -> tuple[str, ...]:
    """The checks of a game: the two problems, then one reachability check per win condition."""
    return (NO_LEGAL_DECISION, CANNOT_END, *(f"reach: {name}" for name in win_conditions(game)))


def run_check(game: str, check: str, budget: SearchBudget) -> Check:
    """Search for the smallest scenario showing ``check`` (a problem, or a win condition met)."""
    spec = registry.spec(game)
    strategy = scenario_strategy(spec.name)
    if strategy is None:
        pkg = registry.package_of(spec.name)
        return Check(
            spec.name,
            check,
            NO_GENERATOR,
            budget,
            0,
            None,
            f"properties/{pkg}.py has no scenario_documents()",
        )
    if check.startswith("reach: "):
        name = check.removeprefix("reach: ")
        conditions = win_conditions(spec.name)
        if name not in conditions:
            return Check(spec.name, check, NOT_DECLARED, budget, 0, None, f"no win condition {name!r}")
        met = conditions[name]

        def condition(document: Any) -> bool:
            played = play_checked(spec, document)
            return played.outcome is not None and bool(met(played.outcome))

    else:

        def condition(document: Any) -> bool:
            return play_checked(spec, document).problem == check

    spent = Spent()
    found = smallest(strategy, condition, budget, ("wellformed", spec.name, check), spent)
    if found is None:
        status = UNKNOWN if spent.timed_out else NONE_FOUND
        return Check(spec.name, check, status, budget, spent.runs, None, "")
    played = play_checked(spec, found)
    detail = played.detail or f"outcome met after {played.steps} steps"
    return Check(spec.name, check, FOUND, budget, spent.runs, found, detail)
