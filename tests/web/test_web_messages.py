"""The protocol's checks of the messages on their own (``sergeant_major.web.protocol``): the client messages' shapes,
a new table's request, the *My games* request; each refusal quotes the bad input."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.web.protocol import (  # noqa: E402
    MAX_MESSAGE,
    Refusal,
    TableRefused,
    client_message,
    history_tokens,
    join_message,
    message_version,
    parse_action,
    parse_new_table,
)

SEATS = [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer", "level": "random"}]


def _refusal(call: object, *args: object) -> tuple[str, str]:
    with pytest.raises(Refusal) as e:
        call(*args)  # type: ignore[operator]
    return e.value.code, e.value.reason


def test_a_client_message_is_an_object_of_its_type_s_fields() -> None:
    assert client_message('{"type": "ping"}') == {"type": "ping"}
    assert client_message('{"type": "other", "x": 1}')["x"] == 1  # an unknown type is refused once the table is known
    assert _refusal(client_message, "x" * (MAX_MESSAGE + 1))[0] == "too_large"
    assert _refusal(client_message, "{")[0] == "bad_json"
    assert _refusal(client_message, "[1]") == ("bad_message", "a message is an object with a \"type\", not [1]")
    code, reason = _refusal(client_message, json.dumps({"type": "join", "token": "secret", "seat": 1}))
    assert code == "bad_message" and reason.startswith("unknown field(s) seat in a join message (it has name, token, type)")
    assert "secret" not in reason and "<a token of 6 characters>" in reason


def test_a_join_checks_the_name_before_the_token() -> None:
    assert join_message({"type": "join", "token": None}).token is None
    assert join_message({"type": "join", "token": "t", "name": "Ann"}).name == "Ann"
    code, reason = _refusal(join_message, {"type": "join", "token": 3, "name": 7})
    assert code == "bad_message" and reason.startswith("\"name\" must be text of at most 40 characters, not 7")
    code, reason = _refusal(join_message, {"type": "join", "token": 3, "name": "a\x1bb"})
    assert reason.startswith("the name 'a\\x1bb' is refused") and reason.endswith("; nothing was changed")
    assert _refusal(join_message, {"type": "join", "token": 3})[1].startswith("\"token\" must be text (the seat's token) or null, not 3")


@pytest.mark.parametrize("v", [True, 1.0, "1", None])
def test_a_version_is_an_integer(v: object) -> None:
    msg = {"type": "start"} if v is None else {"type": "start", "v": v}
    assert _refusal(message_version, msg) == ("bad_message", "\"v\" (the state version the action was made on) must be an "
                                                             f"integer, not {json.dumps(v)}")
    assert message_version({"type": "act", "v": 3, "action": "anything: checked later"}) == 3


def test_an_action_is_checked_for_the_sender_s_seat() -> None:
    rules = Rules.parse("9-5-2")
    assert parse_action({"play": "QS"}, 1, rules).seat == 1
    assert parse_action({"play": "QS", "seat": 1}, 1, rules).seat == 1
    assert _refusal(parse_action, {"play": "QS", "seat": 0}, 1, rules)[1].startswith("the action's seat 0 is not yours")
    assert _refusal(parse_action, {"contract": "ZZ"}, 1, rules)[1].startswith("action.contract: \"ZZ\" is not a contract "
                                                                               "of this table (one of C, D, H, S")
    code, reason = _refusal(parse_action, {"play": "QS", "x": 1}, 1, rules)
    assert code == "bad_action" and reason.startswith("action.x: unknown key 'x'") and reason.endswith('({"play": "QS", "x": 1})')


@pytest.mark.parametrize(("body", "code", "start"), [
    ({"seats": SEATS, "away_timout": 5}, "body", "unknown field(s) away_timout (a table has"),
    ({"rules": 5, "name": 5}, "rules", "rules must be a short text like"),
    ({"rules": "9-5-2", "name": 5, "seed": -1}, "table_name", "the table name must be text of at most 60 characters, not 5"),
    ({"seats": SEATS[:2], "seed": -1}, "seats", "seats must be a list of 3 seats"),
    ({"seats": SEATS, "away_timeout": True}, "timeout", "away_timeout is seconds 0..86400, or -1 for never, not true"),
    ({"seats": SEATS, "seed": 2**62}, "seed", "seed must be a non-negative integer below 2**62"),
    ({"seats": [{"kind": "me", "name": "x" * 41, "level": []}, 2, 3]}, "seat_name", "seat 1: a name is a text of at most 40"),
    ({"seats": [{"kind": "me"}, {"kind": "robot"}, 3]}, "seats", "seat 2: kind must be \"me\", \"friend\" or \"computer\", not \"robot\""),
    # a level that is not a text: refused as an unknown level (it raised a TypeError, an HTTP 500, before)
    ({"seats": [{"kind": "computer", "level": [1]}, 2, 3]}, "seats", "seat 1: unknown computer level [1] (one of"),
    ({"seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}], "seed": 5}, "seed", "seed 5: a chosen seed"),
])
def test_a_new_table_is_refused_field_by_field_in_order(body: dict[str, object], code: str, start: str) -> None:
    with pytest.raises(TableRefused) as e:
        parse_new_table(body)
    assert e.value.code == code and str(e.value).startswith(start), (e.value.code, str(e.value))


def test_a_new_table_gets_its_defaults() -> None:
    new = parse_new_table({"seats": [{"kind": "me", "level": 5}, {"kind": "friend", "name": " "}, {"kind": "computer"}]})
    assert [s.name for s in new.seats] == ["Me", "Friend 1", "Heuristic 3"]
    assert [s.kind for s in new.seats] == ["human", "human", "heuristic"]
    assert new.mine == {0} and new.invited == {1} and not new.row.practice and new.row.away_timeout == 60
    assert new.row.name == "Table" and new.row.rules == str(Rules.parse("9-5-2"))


def test_my_games_reads_a_list_of_texts() -> None:
    assert history_tokens({"tokens": ["a", "b"], "other": 1}) == ["a", "b"]
    for bad in ([1], {"tokens": [True]}, {"tokens": "a"}, None):
        with pytest.raises(ValueError, match=r"^send \{\"tokens\": \[\.\.\.\]\} \(a list of texts\), not "):
            history_tokens(bad)
