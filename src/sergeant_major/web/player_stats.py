"""A player's page (``/players/NAME``): an account's matches replayed from the store into statistics by role, the
dealer's targets, 3-5-8 contracts, recent matches and the rating over time (see ``docs/web.md``, *A player's page*)."""

from __future__ import annotations

from typing import Any

from sergeant_major.core.deal import ROLE_NAMES
from sergeant_major.core.rule_options import ContractSet
from sergeant_major.web.ratings import DEFAULT, RATED_PRESETS, Rating, final_ranks, preset_of, rating_history, ratings_of
from sergeant_major.web.store import Store
from sergeant_major.web.tables import GameTable, name_levels, ranked_winners

__all__ = ["player_stats", "MAX_MATCHES", "RECENT"]

MAX_MATCHES = 200  # the newest tables of an account that are replayed for its page
RECENT = 20  # recent matches listed


def player_stats(store: Store, account_id: int, name: str) -> dict[str, Any]:
    """The player's page as JSON: ``name``; ``start``, a new account's rating; ``ratings`` per preset (rating and
    interval as shown, :meth:`Rating.shown`, mu, sigma, matches, wins, provisional); ``history`` (the rating after each
    rated match: preset, table, place, rating, interval, time); from the newest
    :data:`MAX_MATCHES` tables of the account: ``matches`` and ``wins`` (finished), ``in_play``, ``left`` (matches left
    before their end: ``left`` log entries of the seat), ``roles`` (per role: deals, mean score per deal),
    ``dealer_target`` (deals as dealer, targets made), ``contracts`` (3-5-8 rules: per contract the deals as declarer,
    targets made, mean score) and ``recent`` (the newest finished matches: id, name, rules, time, place, names,
    totals, winners). Reads the database and replays matches: run it in a worker thread."""
    roles: dict[str, list[float]] = {}
    dealer = [0, 0]
    contracts: dict[str, list[float]] = {}
    matches = wins = in_play = left = 0
    recent: list[dict[str, Any]] = []
    for tid, seat, _token in store.seats_of_account(account_id, MAX_MATCHES):
        got = store.table(tid)
        if got is None:
            continue
        gt = GameTable(*got)
        left += sum(1 for e in gt.log if e.kind == "left" and e.seat == seat)
        m = gt.match
        if not m.over or m.end is None:
            in_play += 1
            continue
        matches += 1
        ranks = final_ranks(m, sorted(gt.left))
        # first place in the final ranking, as the ratings count a win: a seat that left is last, also when the
        # computer playing it took the match (counting m.end.winners gave it a win beside its last place)
        wins += ranks[seat] == 0
        n = gt.rules.players
        for d in m.deals:
            r = d.result
            if r is None:
                continue
            role = ROLE_NAMES[d.role(seat)] if n <= len(ROLE_NAMES) else str(d.role(seat))
            acc = roles.setdefault(role, [0, 0.0])
            acc[0] += 1
            acc[1] += r.scores[seat]
            if d.dealer == seat:
                dealer[0] += 1
                dealer[1] += r.tricks[seat] >= r.targets[seat]
            if gt.rules.contracts is ContractSet.SUITS_NT_MT and d.declarer == seat:
                code = r.contract.code
                ca = contracts.setdefault(code, [0, 0, 0.0])
                ca[0] += 1
                ca[1] += r.tricks[seat] >= r.targets[seat] if code != "MT" else r.tricks[seat] <= r.targets[seat]
                ca[2] += r.scores[seat]
        if len(recent) < RECENT:
            recent.append({"id": gt.row.id, "name": gt.row.name, "name_default": gt.row.name_default, "rules": gt.rules_text, "preset": preset_of(gt.rules),
                           "created": gt.row.created, "place": ranks[seat] + 1, "seat": seat,
                           "names": [s.name for s in gt.seats], "name_levels": name_levels(gt.seats), "totals": list(m.totals), "winners": ranked_winners(gt)})
    ratings = ratings_of(store, account_id)
    return {
        "name": name,
        "start": DEFAULT.mu,
        "ratings": {p: {**r.shown(), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "matches": r.matches,
                        "wins": r.wins, "provisional": r.provisional} for p, r in ratings.items() if p in RATED_PRESETS},
        "history": [{"preset": p, "table": t, "place": rank + 1, **Rating(mu, sigma).shown(), "time": when}
                    for p, t, rank, mu, sigma, when in rating_history(store, account_id)],
        "matches": matches, "wins": wins, "in_play": in_play, "left": left,
        "roles": [{"role": k, "deals": int(v[0]), "mean_score": round(v[1] / v[0], 3)} for k, v in
                  sorted(roles.items(), key=lambda kv: ROLE_NAMES.index(kv[0]) if kv[0] in ROLE_NAMES else 9)],
        "dealer_target": {"deals": dealer[0], "made": dealer[1]},
        "contracts": [{"contract": k, "deals": int(v[0]), "made": int(v[1]), "mean_score": round(v[2] / v[0], 3)}
                      for k, v in sorted(contracts.items())],
        "recent": recent,
    }
