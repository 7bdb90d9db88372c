"""Fuzz the game socket: thousands of random, malformed and out-of-turn messages against a live
game whose state is known, over the real ASGI stack (origin check, session auth, routing).

The game is a match joined with scripted dice (opening 3-1: White on roll, phase ``move``).
Nothing sent can legitimately change it:

- the player on roll (White) sends game actions only with a missing, non-integer or stale
  ``v``, or a ``move`` whose steps are malformed (a play that can never be legal);
- the other player (Black) and the spectators send every action with any ``v``, the
  correct one included, except what Black may legitimately do out of turn (``resign``, a
  well-formed ``resign_offer``, ``leave``);
- chat is sent only as lines that fail validation (chat lines would be stored).

Every message is followed by a ``ping``: the replies between two ``pong`` are what that
message got. The test asserts each got a reply of the kind docs/PROTOCOL.md promises (errors
carry a ``code`` from its table, refused game actions are followed by a fresh snapshot), no
socket is ever closed, nothing is logged at ERROR, and afterwards the game row, its events,
the match and the chat are exactly what they were.
"""

import json
import logging
import random
import re
import time
from pathlib import Path

import pytest

from games import services
from games.dice import ScriptedDice
from games.models import ChatMessage, Game, GameEvent, Match

from tests.consumers.conftest import db, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]

SEED = 20240607
MESSAGES = 10_000
BATCH = 25  # fuzz messages (each followed by its ping) in flight on one socket at a time
MAX_MESSAGE = 4096

ACTIONS = ("roll", "move", "double", "take", "drop", "beaver", "raccoon", "resign_offer",
           "resign_accept", "resign_reject", "resign")
OTHER_TYPES = ("chat", "claim", "rematch", "leave", "resync", "ping")
ALL_TYPES = ACTIONS + OTHER_TYPES


def protocol_error_codes() -> set:
    """The codes of the Errors table in docs/PROTOCOL.md (the contract)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text()
    section = text.split("## Errors", 1)[1]
    codes = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            codes.update(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    assert "stale_version" in codes and "bad_json" in codes, "could not read PROTOCOL.md's error table"
    return codes


# -- random values ----------------------------------------------------------------------------

UNICODE = ["é", "ß", "😀", "𝔘", "中文", "\u200b", "\u202e", "\x00", "\ufeff", "Ω", "🎲🎲", "\u0301", "\n", "\t"]


def rand_str(rng: random.Random, longest: int = 40) -> str:
    n = rng.randint(0, longest)
    pool = rng.choice(["ascii", "unicode", "mixed"])
    out = []
    for _ in range(n):
        if pool == "ascii" or (pool == "mixed" and rng.random() < 0.5):
            out.append(chr(rng.randint(32, 126)))
        else:
            out.append(rng.choice(UNICODE + [chr(rng.randint(0x80, 0x2FFF))]))
    return "".join(out)


def junk(rng: random.Random, depth: int = 0):
    """Any JSON value (NaN and lone surrogates included: Python's json reads both)."""
    pick = rng.randint(0, 13 if depth < 3 else 9)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.randint(-5, 30)
    if pick == 3:
        return rng.choice([10**30, -(10**30), 2**63, -1, 0, 2**31 - 1])
    if pick == 4:
        return rng.choice([0.5, -0.0, 1e308, 3.0, float("nan"), float("inf"), 2.0])
    if pick in (5, 6):
        return rand_str(rng)
    if pick == 7:
        return rng.choice(["bar", "off", "", " ", "\ud800", "null", "1", "NaN", "<script>", "' OR 1=1 --"])
    if pick == 8:
        return rng.choice(list(ALL_TYPES)) + rng.choice(["", " ", "\u0000", "X"])
    if pick == 9:
        return {"from": rng.choice([8, 6, "bar", None, 0, 25]), "to": rng.choice([5, "off", -1, 99, "5"])}
    if pick in (10, 11):
        return [junk(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    keys = ["t", "d", "v", "moves", "level", "text", "from", "to", "__proto__", "", "😀"]
    return {rng.choice(keys + [rand_str(rng, 8)]): junk(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def junk_version(rng: random.Random):
    """A ``v`` that is not an integer (absent is represented by the sentinel ``...``)."""
    return rng.choice([..., None, "2", "", 2.0, 2.5, True, False, [], [2], {}, {"v": 2}, float("nan"), "v"])


def stale_version(rng: random.Random, current: int) -> int:
    v = rng.choice([0, 1, current - 1, current + 1, current + 7, -1, -current, 10**20, -(10**20), 2**63])
    assert v != current
    return v


def bad_step(rng: random.Random):
    """A step that can never be part of a legal play."""
    return rng.choice([
        None, 7, "8/5", [8, 5], {}, {"from": 8}, {"to": 5},
        {"from": rng.choice([None, [], {}, "zz", -7, 0, 25, 99, 1e9, 8.5, "8"]), "to": 5},
        {"from": 8, "to": rng.choice([None, [], {}, "zz", 0, 25, 99, -1, 5.5, "5", "bar"])},
        {"from": "off", "to": "bar"},
    ])


def good_step(rng: random.Random):
    return {"from": rng.choice([24, 13, 8, 6]), "to": rng.choice([23, 21, 5, 7, 4])}


def dumps(message) -> str:
    return json.dumps(message, separators=(",", ":"))


def envelope(rng: random.Random, t, d, v) -> dict:
    """A message; ``d``/``v`` of ``...`` are left out."""
    message = {"t": t}
    if d is not ...:
        message["d"] = d
    if v is not ...:
        message["v"] = v
    if rng.random() < 0.1:
        message["x" + rand_str(rng, 6)] = junk(rng)  # unknown extra keys are ignored
    return message


# -- what each socket sends ---------------------------------------------------------------------


def action_data(rng: random.Random, kind: str, *, safe_for_black: bool):
    """A random ``d`` for a game action (sometimes with the field it needs, sometimes not)."""
    if rng.random() < 0.15:
        return rng.choice([..., None, {}, {"x": junk(rng)}])
    if kind == "move":
        moves = rng.choice([
            lambda: [junk(rng) for _ in range(rng.randint(0, 6))],
            lambda: [good_step(rng) for _ in range(rng.randint(0, 5))],
            lambda: junk(rng),
            lambda: [],
        ])()
        return {"moves": moves}
    if kind == "resign_offer":
        while True:
            level = rng.choice([junk(rng), rng.randint(-2, 6), 1, 2, 3])
            try:
                legit = level in (1, 2, 3)
            except TypeError:
                legit = False
            if not (safe_for_black and legit):
                return {"level": level}
    return rng.choice([{}, junk(rng) if rng.random() < 0.3 else {}, {"extra": junk(rng)}])


def actor_message(rng: random.Random, version: int) -> dict:
    """From White, on roll: never an action that could be accepted."""
    kind = rng.choice(ACTIONS)
    if kind == "move" and rng.random() < 0.3:
        # The right version, but a play with a malformed step: never legal.
        steps = [good_step(rng) for _ in range(rng.randint(0, 3))]
        steps.insert(rng.randint(0, len(steps)), bad_step(rng))
        return envelope(rng, "move", {"moves": steps[:4]}, version)
    d = action_data(rng, kind, safe_for_black=False)
    v = junk_version(rng) if rng.random() < 0.5 else stale_version(rng, version)
    return envelope(rng, kind, d, v)


def other_message(rng: random.Random, role: str, version: int) -> dict:
    """From Black (not on roll) or a spectator: any version, the correct one included."""
    roll = rng.random()
    v = version if roll < 0.6 else (junk_version(rng) if roll < 0.8 else stale_version(rng, version))
    kinds = [k for k in ACTIONS if not (role == "black" and k == "resign" and v == version)]
    kind = rng.choice(kinds)
    return envelope(rng, kind, action_data(rng, kind, safe_for_black=(role == "black")), v)


def chat_junk(rng: random.Random):
    """A chat ``d`` that fails validation."""
    return rng.choice([
        {}, {"text": None}, {"text": ""}, {"text": "   \n\t "}, {"text": 5}, {"text": ["hi"]},
        {"text": {"text": "hi"}}, {"text": True}, {"text": "x" * 501}, {"text": "é " * 251 + "é"},
        {"text": "😀" * 501}, {"txt": "hello"},
    ])


def non_action_message(rng: random.Random, role: str, version: int) -> dict:
    kind = rng.choice([k for k in OTHER_TYPES if not (k == "leave" and role in ("white", "black"))])
    v = rng.choice([..., version, junk_version(rng)])
    if kind == "chat":
        d = chat_junk(rng)
    elif kind == "resync":
        d = rng.choice([{}, None, ..., {"v": rng.randint(-3, version + 3)}, {"v": junk_version(rng)},
                        {"v": 10**20}, {"v": version}])
        if isinstance(d, dict) and d.get("v", None) is ...:
            d = {}
    else:
        d = rng.choice([{}, ..., None, {"x": junk(rng)}])
    return envelope(rng, kind, d, v)


def raw_message(rng: random.Random, version: int):
    """Text or bytes that is not a well-formed message. Returns ``("text"|"bytes", payload)``."""
    pick = rng.randint(0, 9)
    if pick == 0:
        return "bytes", bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200)))
    if pick == 1:
        return "text", rand_str(rng, 200)
    if pick == 2:  # broken JSON
        good = dumps({"t": rng.choice(ALL_TYPES), "d": {"moves": [good_step(rng)]}, "v": version})
        return "text", rng.choice([
            good[: rng.randint(0, len(good) - 1)],
            good.replace('"', "'"),
            good + rng.choice(["}", ",", "]", "x"]),
            "{" + good,
            good.replace(":", "=", 1),
            rng.choice(["", " ", "{", "[", "nul", "tru", '{"t":}', '{"t": "ping",}', "\x00", "{\"t\":\"ping\"", "//"]),
        ])
    if pick == 3:  # valid JSON, wrong shape at the top
        return "text", rng.choice([
            dumps(junk(rng)), "[]", "5", '"ping"', "null", "true", "NaN", "-Infinity", "1e999",
            dumps([{"t": "ping"}]), dumps({"d": {}}), dumps({"type": "ping"}),
        ])
    if pick == 4:  # "t" that is not a string
        return "text", dumps({"t": rng.choice([None, 5, [], ["ping"], {"t": "ping"}, True, 1.5]), "d": {}})
    if pick == 5:  # "d" that is not an object
        return "text", dumps({"t": rng.choice(ALL_TYPES), "d": rng.choice([[], "x", 5, True, [{}], 0.0]),
                              "v": version})
    if pick == 6:  # over 4 KB
        filler = rng.choice(["x", "é", "😀", "\u200b"])
        n = MAX_MESSAGE // len(filler.encode()) + rng.randint(1, 50)
        return "text", rng.choice([
            dumps({"t": "ping", "d": {"pad": filler * n}}),
            dumps({"t": "move", "d": {"moves": [good_step(rng)] * 400}, "v": version}),
            dumps({"t": filler * n}),
            filler * (n + 10),
        ])
    if pick == 7:  # unknown types
        return "text", dumps(envelope(rng, rng.choice([rand_str(rng, 30), "", "PING", "Move", "game_event",
                                                       "websocket.disconnect", "snapshot", "error", "x" * 100]),
                                      junk(rng) if rng.random() < 0.3 else {}, version))
    if pick == 8:  # deep nesting within the size limit (json's recursion is not reached)
        depth = rng.randint(10, 400)
        return "text", '{"t":"move","d":{"moves":' + "[" * depth + "]" * depth + "},\"v\":%d}" % version
    # Any type with junk "d" and "v"; never one that junk could make legitimate for some sender
    # (leave and chat with a string "text"; a game action with the current version).
    t = rng.choice([k for k in ALL_TYPES if k not in ("leave", "chat")])
    v = junk(rng)
    if t in ACTIONS and type(v) is int and v == version:
        v += 1
    return "text", dumps(envelope(rng, t, junk(rng), v))


# -- what each message should get ------------------------------------------------------------------


MAX_DEPTH = 16  # docs/PROTOCOL.md: "nested at most 16 deep"


def nesting(value) -> int:
    """How deep lists and objects nest in a parsed document (a scalar is 0)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def has_lone_surrogate(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in item):
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def expectation(kind: str, payload, role: str, version: int) -> str:
    """``"error"``, ``"error+snapshot"`` (a refused game action), ``"pong"`` or ``"resync"``;
    decided from the protocol's rules, not from the consumer's code."""
    if kind == "bytes":
        return "error"
    if len(payload.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return "error"
    try:
        message = json.loads(payload)
    except ValueError:
        return "error"
    if nesting(message) > MAX_DEPTH or has_lone_surrogate(message):
        return "error"  # too_deep / bad_text: refused before anything reads it
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        return "error"
    d = message.get("d", {})
    if d is not None and not isinstance(d, dict):
        return "error"
    d = d or {}
    t = message["t"]
    v = message.get("v")
    if t in ACTIONS:
        if role == "spectator" or type(v) is not int:
            return "error"
        needs = {"move": "moves", "resign_offer": "level"}.get(t)
        if needs and needs not in d:
            return "error"
        return "error+snapshot"
    if t == "ping":
        return "pong"
    if t == "resync":
        since = d.get("v")
        return "error" if since is not None and type(since) is not int else "resync"
    return "error"  # chat (junk only), claim, rematch, leave, unknown types


def check_replies(replies, expected, role, version, codes, sent):
    where = f"{role} sent {sent!r:.300} and got {replies!r:.600}"
    assert replies, f"no reply: {where}"
    for m in replies:
        assert m["t"] in ("error", "snapshot", "chat_history", "pong") or (
            m.get("game") is not None and type(m.get("v")) is int), where
        if m["t"] == "error":
            assert m["v"] is None and m["d"]["code"] in codes and isinstance(m["d"]["message"], str), where
        if m["t"] == "snapshot":
            assert m["v"] == version, where
    if expected == "error":
        assert len(replies) == 1 and replies[0]["t"] == "error", where
        if role == "spectator":
            # Spectators are refused as spectators, or for the message itself.
            assert replies[0]["d"]["code"] in (
                "spectator", "bad_json", "bad_message", "too_large", "too_deep", "bad_text", "unknown_type",
                "bad_version", "bad_chat",
                "chat_too_long", "login_required"), where
    elif expected == "error+snapshot":
        assert [m["t"] for m in replies] == ["error", "snapshot"], where
        assert replies[0]["d"]["code"] not in ("bad_json", "bad_message", "too_large", "too_deep", "bad_text",
                                               "unknown_type"), where
    elif expected == "pong":
        assert [m["t"] for m in replies] == ["pong"], where
    else:  # resync: the missing events (none when up to date) or a snapshot, then the chat history
        assert replies[-1]["t"] == "chat_history", where
        assert all(m["t"] != "error" for m in replies), where
        versions = [m["v"] for m in replies[:-1] if m["t"] != "snapshot"]
        if versions:
            assert versions == list(range(versions[0], version + 1)), where


# -- the test ---------------------------------------------------------------------------------------


def snapshot_of_rows(match_id, game_id) -> dict:
    game = Game.objects.get(pk=game_id)
    match = Match.objects.get(pk=match_id)
    return {
        "game": {f: getattr(game, f) for f in ("state", "version", "status", "dice_counter", "winner_color",
                                                "points", "clock_color", "clock_deadline")},
        "events": list(GameEvent.objects.filter(game_id=game_id).order_by("version")
                       .values_list("version", "type")),
        "games": Game.objects.filter(match_id=match_id).count(),
        "match": {f: getattr(match, f) for f in ("status", "white_score", "black_score", "winner_id",
                                                 "white_away_since", "black_away_since")},
        "chat": ChatMessage.objects.filter(match_id=match_id).count(),
        "matches": Match.objects.count(),
    }


async def test_ten_thousand_random_and_malformed_messages_change_nothing(people, settings, caplog):
    settings.GAMES_WS_FLOOD_LIMIT = 10**9
    settings.GAMES_CHAT_LIMIT = 10**9
    caplog.set_level(logging.ERROR)
    codes = protocol_error_codes()
    rng = random.Random(SEED)
    alice, bob, carol = people

    match = await db(services.match_create, creator=alice, length=3)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        await db(services.match_join, player=bob, match_id=match.pk)
    game = await db(lambda: Game.objects.get(match_id=match.pk))
    state = game.game_state()
    assert state.phase == "move" and state.actor == "white" and sorted(state.dice) == [1, 3]
    version = game.version

    sockets = {}
    for name, user in (("white", alice), ("black", bob), ("carol", carol), ("anonymous", None)):
        sock, ok = await open_socket(f"/ws/games/{game.pk}/", user)
        assert ok, name
        sockets[name] = sock
    # Let the connect messages (snapshot, chat history, everyone's presence) settle.
    def everyone_here(m):
        return (m["t"] == "presence" and m["d"]["spectators"] == 2
                and m["d"]["white"]["connected"] and m["d"]["black"]["connected"])

    for sock in sockets.values():
        if not any(everyone_here(m) for m in sock.received):
            await sock.until(everyone_here)
        sock.received.clear()
        await sock.send("ping")
        await sock.until(lambda m: m["t"] == "pong")
    before = await db(snapshot_of_rows, match.pk, game.pk)

    roles = {"white": "white", "black": "black", "carol": "spectator", "anonymous": "spectator"}
    seen_codes: dict = {}
    kinds: dict = {}
    sent_total = 0
    started = time.monotonic()
    rounds = 0
    while sent_total < MESSAGES:
        rounds += 1
        assert rounds <= MESSAGES, "the fuzz loop did not advance"
        pending = {}
        for name, sock in sockets.items():
            role = roles[name]
            batch = []
            for _ in range(min(BATCH, MESSAGES - sent_total)):
                r = rng.random()
                if r < 0.35:
                    kind, payload = raw_message(rng, version)
                else:
                    if r < 0.80:
                        message = (actor_message(rng, version) if role == "white"
                                   else other_message(rng, role, version))
                    else:
                        message = non_action_message(rng, role, version)
                    kind, payload = "text", dumps(message)
                expected = expectation(kind, payload, role, version)
                kinds[expected] = kinds.get(expected, 0) + 1
                # send_input, not send_to: empty frames are part of the fuzz.
                await sock.comm.send_input({"type": "websocket.receive", kind: payload})
                await sock.comm.send_input({"type": "websocket.receive", "text": '{"t":"ping"}'})
                batch.append((kind, payload, expected))
                sent_total += 1
            pending[name] = batch
        for name, batch in pending.items():
            sock, role = sockets[name], roles[name]
            for kind, payload, expected in batch:
                replies = []
                pongs_wanted = 2 if expected == "pong" else 1
                for _ in range(1000):  # bounded: one message never gets this many replies
                    m = await sock.next(timeout=10)
                    if m["t"] == "pong":
                        pongs_wanted -= 1
                        if pongs_wanted == 0:
                            break
                        if expected == "pong":
                            replies.append(m)
                            continue
                    replies.append(m)
                else:
                    raise AssertionError(f"no sentinel pong after {payload!r:.200}")
                check_replies(replies, expected, role, version, codes, payload)
                for m in replies:
                    if m["t"] == "error":
                        seen_codes[m["d"]["code"]] = seen_codes.get(m["d"]["code"], 0) + 1
            sock.received.clear()
    elapsed = time.monotonic() - started
    print(f"\nfuzz: {sent_total} messages (+{sent_total} pings) in {elapsed:.1f} s; "
          f"expected {sorted(kinds.items())}; error codes {sorted(seen_codes.items())}")

    # Nothing else arrived and no socket was closed.
    for name, sock in sockets.items():
        assert await sock.comm.receive_nothing(timeout=0.1), name
        await sock.send("ping")
        assert (await sock.next())["t"] == "pong", name
    assert sent_total >= MESSAGES
    # The fuzz reached the interesting refusals (so a broken generator cannot pass quietly).
    for code in ("bad_json", "bad_message", "too_large", "unknown_type", "bad_version", "stale_version",
                 "spectator", "not_your_turn", "bad_step", "bad_play", "bad_level", "bad_chat",
                 "chat_too_long", "login_required", "opponent_present", "match_not_over"):
        assert seen_codes.get(code), f"the fuzz never produced {code!r}: {sorted(seen_codes)}"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors[:5]]
    after = await db(snapshot_of_rows, match.pk, game.pk)
    assert after == before
    for sock in sockets.values():
        await sock.close()
