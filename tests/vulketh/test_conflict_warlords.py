"""Seed 003, Summoning a Warlord (Warlords and conflict) and the wipe-out NOTE."""

from __future__ import annotations

from tests.vulketh.helpers import effect_turn, events, invaders, play, player_first, player_turn


def test_conflict_happens_above_the_population_limit_and_warlords_do_not_count() -> None:
    hexes = {"5": {"player": 3, "invaders": 3}, "7": {"player": 2, "invaders": 3, "warlord": "war"}}
    _, p = play(player_first(player_turn(), hexes=hexes, invader_resources=2))
    assert [e.get("hex") for e in events(p, "conflict")] == [5]  # hex 7 holds five members plus a Warlord
    assert (p.final.hex(5).player, p.final.hex(5).invaders) == (0, 0)
    assert events(p, "invaders_lost_resources")[0].get("change") == -1


def test_a_shared_hex_within_the_limit_has_no_conflict() -> None:
    _, p = play(player_first(player_turn(), hexes={"5": {"player": 2, "invaders": 3}}))
    assert events(p, "conflict") == []


def test_warlords_are_never_removed_by_conflict() -> None:
    hexes = {"5": {"player": 4, "invaders": 2, "warlord": "convert"}, "1": {"invaders": 1}}
    _, p = play(player_first(player_turn(), hexes=hexes))
    assert p.final.hex(5).invaders == 0 and p.final.hex(5).warlord == "convert"


def test_a_cleared_hex_costs_a_resource_only_if_the_invaders_have_one() -> None:
    _, p = play(player_first(player_turn(), hexes={"5": {"player": 4, "invaders": 2}, "1": {"invaders": 1}}))
    assert events(p, "invaders_lost_resources") == []


def test_after_a_wipe_out_the_invaders_return_on_hexes_1_to_3_and_every_warlord_hex() -> None:
    hexes = {"1": {"warlord": "steal-resources"}, "6": {"warlord": "convert"}, "9": {"player": 2}}
    _, p = play(effect_turn([], hexes=hexes, difficulty="difficult"))
    replaced = events(p, "invaders_replaced")[0]
    assert (replaced.get("hexes"), replaced.get("counts")) == ((1, 2, 3, 6), (4, 3, 3, 1))
    assert invaders(p.final)[:6] == (4, 3, 3, 0, 0, 1)


def test_no_replacement_while_an_invader_is_on_the_map() -> None:
    _, p = play(effect_turn([], hexes={"9": {"invaders": 1}}))
    assert events(p, "invaders_replaced") == []


def test_the_conflict_rule_is_pluggable() -> None:
    """Any object with ``survivors`` replaces the ruling's built-in rule (here: the larger tribe
    keeps everyone, the smaller is wiped out)."""
    from dataclasses import replace as dc_replace

    from invasion_oracle.model.vulketh.simulate import run
    from tests.vulketh.helpers import scenario

    class LargerWins:
        name = "larger-wins"

        def survivors(self, tribes: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
            most = max(n for _, n in tribes)
            return tuple((t, n if n == most else 0) for t, n in tribes)

    sc = scenario(
        player_first(player_turn(), hexes={"5": {"player": 4, "invaders": 2}, "1": {"invaders": 1}})
    )
    sc = dc_replace(sc, rules=dc_replace(sc.rules, conflict=LargerWins()))
    final = run(sc).final
    assert (final.hex(5).player, final.hex(5).invaders) == (4, 0)
