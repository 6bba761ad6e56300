"""Hot kernels of the trick phase: legal cards, trick winners, play-outs and the double-dummy search.

Everything here works on plain integers and 1-d int64 arrays so that Numba can compile it (see
:mod:`._jit`); the same source runs as Python when numba is absent. Conventions:

* a hand is a 52-bit mask, bit ``suit * 13 + rank`` (as in :mod:`sergeant_major.core.cards`);
* ``trick`` holds the card ids played to the trick in progress, ``tlen`` of them, led by ``leader``;
* ``trump`` is the trump suit ``0..3`` or ``-1`` (no-trump, minimum tricks);
* ``must_trump`` / ``must_over`` are the obligations of docs/rules.md reference options (0 or 1), with the same
  meaning as :meth:`sergeant_major.core.deal.Deal.legal_play_mask`.

The double-dummy search (:func:`solve_bounds`) is a zero-window ("can the maximising seat reach ``target``
more tricks?") alpha-beta search with a transposition table keyed by relative ranks, equivalent cards
searched once, quick-trick bounds (also one trick ahead: :func:`seat_takes_trick`) and move ordering;
:mod:`.dds` wraps it.
"""

from __future__ import annotations

from typing import Any

from sergeant_major.search.jit import (
    FAST_BMI2,
    HAVE_NUMBA,
    high_bit,
    int_array,
    jit,
    jit_inline,
    jit_inline_per_type,
    jit_nonrt,
    low_bit,
    pdep64,
    pext64,
    popcount64,
    prefetch,
)

LANE = 0x1FFF
M32 = 0xFFFFFFFF

if HAVE_NUMBA:
    import numpy as np

    @jit
    def alloc(k: int) -> Any:
        """A zeroed int64 array of length ``k``."""
        return np.zeros(k, np.int64)
else:
    def alloc(k: int) -> Any:
        """A zeroed int64 array of length ``k``."""
        return [0] * k

# stats slots (ST_SIZE words per search thread)
ST_NODES, ST_BUDGET, ST_ABORT, ST_TTHITS, ST_ETC, ST_ETCCUTS, ST_HELPER, ST_ROT = 0, 1, 2, 3, 4, 5, 6, 7
# killer leads: stats[killer_slot(tricks left, target, leader)] = k1 | k2 << 6, 1 + the last two leads that cut there
ST_KILLERS = 8
# nodes decided by seat_takes_trick, trumps_reach, seat_ducks_trick, seat_ducks_lead, seat_loses_out, seat_wins_out
# or seat_exit_losses, seat_exits_after
ST_TAKES = ST_KILLERS + 4 * 18 * 4
# probing (see search): the node count at which the innermost probe aborts, the depth of the node that set it
# (-1: none, the count is the budget), and the knobs (tricks left from which nodes probe, the two budgets)
ST_CAP, ST_LIMD, ST_PROBE, ST_PFIRST, ST_POTHER = ST_TAKES + 1, ST_TAKES + 2, ST_TAKES + 3, ST_TAKES + 4, ST_TAKES + 5
# the search's generation (Solver counts its searches): a table entry of an earlier one gives way first
ST_GEN = ST_TAKES + 6
ST_SIZE = ST_TAKES + 7
CHK_SHIFT = 21  # an entry's check bits: its key's hash (tt_index) from this bit up, 35 bits
CHK_MASK = (1 << 35) - 1
GEN_SHIFT, GEN_MASK = 52, (1 << 11) - 1  # an entry's generation: bits 52..62 of its bounds word
PROBE_MIN, PROBE_FIRST, PROBE_OTHERS = 12, 20_000, 1_000  # defaults of stats[ST_PROBE], [ST_PFIRST], [ST_POTHER]
ETC_MIN = 10  # default of stats[ST_ETC]: enhanced transposition cutoffs at trick ends with this many tricks left or more
TT_WORDS = 4  # words per entry: 3 key words, the bounds (lower | upper << 8)
TT_WAYS = 2  # entries per bucket: a bucket is one 64-byte cache line (one miss per look-up)


@jit
def popcount(m: int) -> int:
    """Number of cards in mask ``m``."""
    return popcount64(m)


@jit
def lowest(m: int) -> int:
    """Id of the lowest card in the non-empty mask ``m`` (``-1`` if empty)."""
    return low_bit(m)


@jit
def highest(m: int) -> int:
    """Id of the highest card in the non-empty mask ``m`` (by id: suit then rank; ``-1`` if empty)."""
    return high_bit(m)


@jit
def nth_card(m: int, k: int) -> int:
    """Id of the ``k``-th lowest card (from 0) of ``m``; ``-1`` if ``m`` has fewer cards."""
    for s in range(4):
        v = (m >> (13 * s)) & LANE
        c = int(popcount64(v))
        if k < c:
            while k > 0:
                v &= v - 1
                k -= 1
            return int(13 * s + low_bit(v))
        k -= c
    return -1


@jit_inline
def suit_of(c: int) -> int:
    """The suit of card ``c`` (``c // 13`` for ``0 <= c < 52``, by a multiply and a shift)."""
    return (c * 79) >> 10


@jit_inline
def legal_after(h: int, led: int, bc: int, trump: int, must_trump: int, must_over: int) -> int:
    """The cards of hand ``h`` that may be played in the middle of a trick (at least one card played), given the
    suit ``led`` and the card ``bc`` winning the trick so far (read only with ``must_over``); same rule as
    ``Deal.legal_play_mask``. Follow suit if able (docs/rules.md "Presets"); void: any card, or a trump
    if able with must-trump (docs/rules.md "Options"); with must-overtrump a trump must beat the trumps in the trick if able. The
    highest trump in a trick is its winning card (a trump beats any other suit, a higher trump a lower one), so the
    trumps that beat every trump in it are those above ``bc`` when it is a trump, else all of them."""
    follow = h & (LANE << (13 * led))
    if follow != 0:
        if trump == led and must_over != 0:  # the trick is led in trumps: its winner is a trump
            over = follow & ~((2 << bc) - 1)
            return over if over != 0 else follow
        return follow
    if trump >= 0:
        trumps = h & (LANE << (13 * trump))
        if trumps != 0:
            if must_over != 0:
                over = trumps & ~((2 << bc) - 1) if suit_of(bc) == trump else trumps
                if must_trump != 0:
                    return over if over != 0 else trumps
                if over != trumps:
                    r = (h & ~trumps) | over
                    return r if r != 0 else h
            elif must_trump != 0:
                return trumps
    return h


@jit_inline
def legal_mask_at(h: int, trick: Any, tb: int, tlen: int, trump: int, must_trump: int, must_over: int) -> int:
    """The cards of hand ``h`` that may be played to the trick ``trick[tb:tb + tlen]``; same rule as
    ``Deal.legal_play_mask``. (An offset rather than a slice: a slice is an array view, whose reference count
    costs two atomic operations in the search's loop.)

    Follow suit if able (docs/rules.md "Presets"); void: any card, or a trump if able with
    must-trump (docs/rules.md "Options"); with must-overtrump a trump must beat the trumps in the trick if able.
    """
    if tlen == 0:
        return h
    led = suit_of(int(trick[tb]))
    top = int(trick[tb])  # stands for the winning card: only whether it is a trump, and then its rank, are read
    if must_over != 0:
        for i in range(tb + 1, tb + tlen):
            c = int(trick[i])
            if suit_of(c) == trump and (suit_of(top) != trump or c > top):
                top = c
    return legal_after(h, led, top, trump, must_trump, must_over)


@jit
def legal_mask(h: int, trick: Any, tlen: int, trump: int, must_trump: int, must_over: int) -> int:
    """The cards of hand ``h`` that may be played now; same rule as ``Deal.legal_play_mask``.

    Follow suit if able (docs/rules.md "Presets"); void: any card, or a trump if able with
    must-trump (docs/rules.md "Options"); with must-overtrump a trump must beat the trumps in the trick if able.
    """
    return legal_mask_at(h, trick, 0, tlen, trump, must_trump, must_over)


@jit
def beats(c: int, led: int, trump: int, bc: int, btr: bool) -> bool:
    """Does card ``c`` beat ``bc``, the card winning the trick so far (``btr``: ``bc`` is a trump), in a trick
    led in suit ``led``? A trump beats any non-trump and lower trumps; a card of the suit led beats lower
    ones of that suit when no trump is in the trick; any other card beats nothing (docs/rules.md
    "Presets")."""
    cs = c // 13
    if cs == trump:
        return (not btr) or c > bc
    return cs == led and not btr and c > bc


@jit_inline
def winner_at(trick: Any, tb: int, n: int, trump: int) -> int:
    """Index in play order (0 = the lead) of the card that wins the trick ``trick[tb:tb + n]`` (complete, or the
    ``n`` cards played so far: the card winning it so far)."""
    led = trick[tb] // 13
    best = 0
    bc = trick[tb]
    btr = led == trump
    for i in range(1, n):
        c = trick[tb + i]
        if beats(c, led, trump, bc, btr):
            best = i
            bc = c
            btr = c // 13 == trump
    return best


@jit
def winner_index(trick: Any, n: int, trump: int) -> int:
    """Index in play order (0 = the lead) of the card that wins the complete trick ``trick[0..n-1]``."""
    return winner_at(trick, 0, n, trump)


# ---------------------------------------------------------------------------------------------- play-outs
@jit
def rng_next(state: Any) -> int:
    """Advance the xorshift32 generator held in ``state[0]`` and return a value in ``0..2**32-1``."""
    x = state[0]
    x ^= (x << 13) & M32
    x ^= x >> 17
    x ^= (x << 5) & M32
    state[0] = x
    return int(x)


@jit
def policy_card(h: int, legal: int, trick: Any, tlen: int, trump: int, policy: int, rng: Any) -> int:
    """Choose a card of ``legal``: policy 0 uniform random; 1 cheap greedy (win the trick with the lowest
    card that beats it, else play the lowest card; lead the highest card of a random suit)."""
    if policy == 1:
        if tlen == 0:
            k = rng_next(rng) % popcount(legal)
            c = nth_card(legal, k)
            s = c // 13
            return 13 * s + int(high_bit((legal >> (13 * s)) & LANE))
        # current winner
        led = trick[0] // 13
        bc = trick[0]
        btr = led == trump
        for i in range(1, tlen):
            c = trick[i]
            if beats(c, led, trump, bc, btr):
                bc = c
                btr = c // 13 == trump
        best = -1
        m = legal
        while m != 0:
            c = lowest(m)
            m &= ~(1 << c)
            if beats(c, led, trump, bc, btr):
                best = c
                break
        if best >= 0:
            return best
        # lowest by rank, non-trumps first
        lo = -1
        lr = 99
        m = legal
        while m != 0:
            c = lowest(m)
            m &= ~(1 << c)
            r = c % 13 + (13 if c // 13 == trump else 0)
            if r < lr:
                lr = r
                lo = c
        return lo
    k = rng_next(rng) % popcount(legal)
    return nth_card(legal, k)


@jit
def playout(hands: Any, n: int, trick: Any, tlen: int, leader: int, trump: int, must_trump: int, must_over: int,
            policy: int, rng: Any, won: Any) -> None:
    """Play the deal out from the position; add each seat's tricks to ``won[0..n-1]``.

    ``hands`` and ``trick`` are modified (the caller passes copies)."""
    while True:
        to = (leader + tlen) % n
        h = hands[to]
        if h == 0:
            return
        legal = legal_mask(h, trick, tlen, trump, must_trump, must_over)
        c = policy_card(h, legal, trick, tlen, trump, policy, rng)
        hands[to] = h & ~(1 << c)
        trick[tlen] = c
        tlen += 1
        if tlen == n:
            w = (leader + winner_index(trick, n, trump)) % n
            won[w] += 1
            leader = w
            tlen = 0


@jit
def playouts(hands0: Any, n: int, trick0: Any, tlen0: int, leader0: int, trump: int, must_trump: int, must_over: int,
             policy: int, count: int, seed: int, out: Any) -> None:
    """``count`` play-outs from one position; ``out[i * n + s]`` receives seat ``s``'s tricks in play-out ``i``
    (tricks of the remaining play only)."""
    rng = alloc(1)
    rng[0] = (seed & M32) | 1
    hands = alloc(4)
    trick = alloc(4)
    won = alloc(4)
    for i in range(count):
        for s in range(n):
            hands[s] = hands0[s]
            won[s] = 0
        for j in range(tlen0):
            trick[j] = trick0[j]
        playout(hands, n, trick, tlen0, leader0, trump, must_trump, must_over, policy, rng, won)
        for s in range(n):
            out[i * n + s] = won[s]


@jit
def deal_and_play(count: int, n: int, hand_size: int, trump: int, must_trump: int, must_over: int, policy: int,
                  seed: int) -> int:
    """Benchmark kernel: ``count`` times shuffle a deck, deal ``n`` hands of ``hand_size`` and play the whole deal
    out from the opening lead (seat 1); returns the sum over deals of seat 0's tricks (a checksum)."""
    rng = alloc(1)
    rng[0] = (seed & M32) | 1
    deck = alloc(52)
    hands = alloc(4)
    trick = alloc(4)
    won = alloc(4)
    total = 0
    for _ in range(count):
        for i in range(52):
            deck[i] = i
        for i in range(51, 0, -1):
            j = rng_next(rng) % (i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for s in range(n):
            hands[s] = 0
            won[s] = 0
        for j in range(n * hand_size):
            hands[j % n] |= 1 << deck[j]
        playout(hands, n, trick, 0, 1 % n, trump, must_trump, must_over, policy, rng, won)
        total += won[0]
    return total


# ---------------------------------------------------------------------------------------------- double dummy
def _pext(a: int, m: int) -> int:
    r = 0
    k = 0
    for i in range(13):
        if (m >> i) & 1:
            if (a >> i) & 1:
                r |= 1 << k
            k += 1
    return r


# compress tables for rel_suit: PEXT7[(m << 7) | a] packs the bits of ``a`` that lie in ``m`` (7-bit lanes),
# PEXT6 the same for the upper 6 bits of a 13-bit lane
PEXT7: Any = int_array([_pext(a, m) for m in range(1 << 7) for a in range(1 << 7)])
PEXT6: Any = int_array([_pext(a, m) for m in range(1 << 6) for a in range(1 << 6)])


@jit
def rel_suit(a: int, allb: int) -> int:
    """The cards ``a`` (a 13-bit lane, a subset of ``allb``) renumbered among ``allb`` from the lowest (0..)."""
    lo = int(PEXT7[((allb & 0x7F) << 7) | (a & 0x7F)])
    hi = int(PEXT6[((allb >> 7) << 6) | (a >> 7)])
    return lo | (hi << int(popcount64(allb & 0x7F)))


@jit_inline
def quick_tricks_after(hands: Any, n: int, seat: int, trump: int, pending: int, follow: int, led: int) -> int:
    """A lower bound (0..13) on :func:`quick_tricks` of ``seat`` once each player in the bit set ``pending`` has
    played one more card to the trick in progress, led in suit ``led``, whichever card it plays: those in
    ``follow`` hold that suit and must follow (docs/rules.md "Presets"), so only their length in it
    drops; the others' length is counted one less in every suit. Their cards still count as cards to beat (a
    card played only lowers a suit's top), and a hand counted as holding trumps keeps capping. With ``pending =
    follow = 0`` it is :func:`quick_tricks` itself."""
    mine = hands[seat]
    oth = 0
    for s in range(n):
        if s != seat:
            oth |= hands[s]
    return quick_tricks_of(hands, n, seat, mine, oth, trump, pending, follow, led)


@jit
def quick_tricks(hands: Any, n: int, seat: int, trump: int) -> int:
    """Tricks ``seat``, on lead, can cash at once in the side suits whatever the others do (all four suits
    in no-trump): its cards above every other remaining card of their suit, only as long as every other
    hand holding trumps can follow. Lead is kept throughout and no trump is played, so the count is a sure
    lower bound, and :func:`trump_bounds` on the same hands still holds for the tricks after it."""
    return quick_tricks_after(hands, n, seat, trump, 0, 0, -1)


def _kills_table() -> Any:
    """``KILLS[(1 << k) | xc]``: :func:`kills` of the ``k`` cards in play where ``xc`` marks ``x``'s (bit ``i`` the
    ``i``-th lowest) and the others are ``y``'s, for ``k`` in 0..13 (the greedy matching, run over all patterns)."""
    if not FAST_BMI2:
        return int_array(1)
    import numpy as np

    idx = np.arange(1 << 14, dtype=np.int64)
    k = np.zeros(1 << 14, dtype=np.int64)
    for b in range(14):
        k[(idx >> b) == 1] = b  # the pattern's length is its top bit
    avail = np.zeros(1 << 14, dtype=np.int64)
    matched = np.zeros(1 << 14, dtype=np.int64)
    for r in range(12, -1, -1):  # from the top rank down: an x card is a beater, a y card is matched if one is free
        inside = r < k
        xbit = inside & (((idx >> r) & 1) == 1)
        ybit = inside & ~xbit
        take = ybit & (avail > 0)
        matched += take
        avail += xbit.astype(np.int64) - take.astype(np.int64)
    return matched


KILLS: Any = _kills_table()


@jit
def kills(x: int, y: int) -> int:
    """Most cards of the 13-bit lane ``y`` that cards of ``x`` can beat one each (a card beats only lower ones):
    a greedy maximum matching from the top rank down leaves unmatched the largest excess, over any top
    part of the lane, of ``y``'s cards over ``x``'s cards above them. With BMI2, a look-up of ``x``'s pattern
    among the cards of both (:data:`KILLS`)."""
    x &= LANE
    y &= LANE
    if FAST_BMI2:
        u = x | y
        return int(KILLS[(1 << int(popcount64(u))) | pext64(x, u)])
    worst = 0
    cy = 0
    v = y
    while v != 0:
        r = int(high_bit(v))
        v &= ~(1 << r)
        cy += 1
        d = cy - int(popcount64(x >> (r + 1)))
        if d > worst:
            worst = d
    return int(popcount64(y)) - worst


def behind_table_py(low: bool = False) -> list[int]:
    """``BEHIND[(1 << k) | x]``: :func:`behind_tricks` of ``k`` trumps in play held by the seat and the player
    before it (``P``), ``x`` marking the seat's (bit ``i`` the ``i``-th lowest), for ``k`` in 0..13.

    Three values per pattern, computed from fewer cards to more: ``lead`` (the seat holds only trumps and leads),
    ``follow`` (it holds only trumps and another player leads) and ``sure`` (it may still hold other cards). ``P``
    plays after the seat only when the seat leads; the other players hold no trump above the seat's. With only
    trumps the seat, on lead, leads one (``P`` beats it with a higher trump, the seat's next trick led by the
    others, or not: the seat wins and leads again, ``P`` having played a lower trump or none); led to, it sees
    ``P``'s trump or none and plays any of its trumps, winning when higher. With other cards it plays a trump only
    when trumps are led (then any of its trumps, winning when higher than ``P``'s), so the others may lead trumps
    from ``P`` (a trick as above), spend a trump of ``P`` on a trick the seat plays no trump to, or have it hold
    only trumps from now on, on lead or not (when it plays its last other card): ``sure`` is the least of those,
    the others choosing, the seat answering best. Every choice the others have in the game is one of these (or
    gives them less), so each count is a lower bound on the tricks the seat's trumps win. ``low``: the others may
    also lead a trump under the seat's (the seat plays one and wins, ``P`` playing none or a lower one) - the same
    table (``test_trumps_behind_table_small_cases``), so the count holds with such trumps about."""
    top = 1 << 14
    lead = [0] * top
    follow = [0] * top
    sure = [0] * top

    def drop(x: int, i: int) -> int:  # the pattern without its i-th card
        return (x & ((1 << i) - 1)) | ((x >> (i + 1)) << i)

    for k in range(1, 14):
        km = 1 << (k - 1)
        kmm = km >> 1
        for x in range(1 << k):
            idx = (1 << k) | x
            mine = [i for i in range(k) if (x >> i) & 1]
            if not mine:
                continue
            if len(mine) == k:
                lead[idx] = follow[idx] = sure[idx] = k
                continue
            theirs = [i for i in range(k) if not (x >> i) & 1]
            best = 0
            for s in mine:  # the seat leads s; P beats it, plays under it, or plays no trump
                x1 = drop(x, s)
                worst = 1 + lead[km | x1]
                for t in theirs:
                    x2 = drop(x1, t if t < s else t - 1)
                    worst = min(worst, follow[kmm | x2] if t > s else 1 + lead[kmm | x2])
                best = max(best, worst)
            lead[idx] = best
            worst = 1 + max(lead[km | drop(x, s)] for s in mine)  # P plays no trump
            worst_sure = min(lead[idx], worst)
            if low:  # another player leads a trump under the seat's: it plays one, winning, P none or a lower one
                worst_sure = min(worst_sure, 1 + max(sure[km | drop(x, s)] for s in mine))
            for t in theirs:  # P plays t before the seat
                x1 = drop(x, t)
                bf = 0
                bs = 0
                for s in mine:
                    x2 = kmm | drop(x1, s if s < t else s - 1)
                    bf = max(bf, 1 + lead[x2] if s > t else follow[x2])
                    bs = max(bs, (1 if s > t else 0) + sure[x2])
                worst = min(worst, bf)
                worst_sure = min(worst_sure, bs, sure[km | x1])
            follow[idx] = worst
            sure[idx] = min(worst_sure, worst)
    return sure


def _behind_table() -> Any:
    """:data:`BEHIND`: :func:`behind_table_py`'s counts, with numpy a pattern length at a time (some 50 times
    sooner: the import does not wait for it)."""
    if not HAVE_NUMBA:
        return int_array(behind_table_py())
    import numpy as np

    out = np.zeros(1 << 14, dtype=np.int64)
    lead = [np.zeros(1, np.int64)]  # per length k: the counts of the patterns 0 .. 2**k - 1
    follow = [np.zeros(1, np.int64)]
    sure = [np.zeros(1, np.int64)]
    big = 99
    for k in range(1, 14):
        x = np.arange(1 << k, dtype=np.int64)

        def drop(v: Any, i: int) -> Any:
            return (v & ((1 << i) - 1)) | ((v >> (i + 1)) << i)

        l1, f1, s1 = lead[k - 1], follow[k - 1], sure[k - 1]
        l2, f2, s2 = (lead[k - 2], follow[k - 2], sure[k - 2]) if k >= 2 else (l1, f1, s1)
        bit = [((x >> i) & 1) == 1 for i in range(k)]
        lead_k = np.zeros(1 << k, np.int64)
        follow_k = np.full(1 << k, big, np.int64)
        none_k = np.zeros(1 << k, np.int64)  # P plays no trump to a trick the others lead
        for s in range(k):
            x1 = drop(x, s)
            worst = 1 + l1[x1]
            none_k = np.where(bit[s], np.maximum(none_k, 1 + l1[x1]), none_k)
            for t in range(k):
                if t == s:
                    continue
                x2 = drop(x1, t if t < s else t - 1)
                v = f2[x2] if t > s else 1 + l2[x2]
                worst = np.where(bit[t], worst, np.minimum(worst, v))
            lead_k = np.where(bit[s], np.maximum(lead_k, worst), lead_k)
        follow_k = none_k.copy()
        sure_k = np.minimum(lead_k, none_k)
        for t in range(k):
            x1 = drop(x, t)
            bf = np.zeros(1 << k, np.int64)
            bs = np.zeros(1 << k, np.int64)
            for s in range(k):
                if s == t:
                    continue
                x2 = drop(x1, s if s < t else s - 1)
                bf = np.where(bit[s], np.maximum(bf, (1 + l2[x2]) if s > t else f2[x2]), bf)
                bs = np.where(bit[s], np.maximum(bs, (1 if s > t else 0) + s2[x2]), bs)
            theirs = ~bit[t]
            follow_k = np.where(theirs, np.minimum(follow_k, bf), follow_k)
            sure_k = np.where(theirs, np.minimum(sure_k, np.minimum(bs, s1[x1])), sure_k)
        sure_k = np.minimum(sure_k, follow_k)
        mine = np.zeros(1 << k, np.int64)
        for i in range(k):
            mine += bit[i]
        lead_k = np.where(mine == 0, 0, lead_k)
        follow_k = np.where(mine == 0, 0, follow_k)
        sure_k = np.where(mine == 0, 0, sure_k)
        lead.append(lead_k)
        follow.append(follow_k)
        sure.append(sure_k)
        out[(1 << k):(2 << k)] = sure_k
    return out


BEHIND: Any = _behind_table()


@jit_inline
def behind_tricks(hands: Any, n: int, seat: int, trump: int, mt: int, ot: int) -> int:
    """Tricks the seat's trumps ``mt`` (a 13-bit lane) surely win when every other trump in play (``ot``) above
    its lowest is held by the player before it (who plays after it only when it leads), with no obligation to trump
    or over-trump: the seat plays a trump only when trumps are led, or when it holds nothing else (:data:`BEHIND`,
    :func:`behind_table_py`); 0 when another player holds a trump above the seat's lowest. Where the trump count
    (:func:`kills`) takes every trump of theirs above one of the seat's as beating it, here one behind the seat's
    beats only what the seat chooses to play under it (``KQT543`` behind ``AJ986``: 3 tricks, not 1). docs/rules.md
    "Presets"."""
    p = seat - 1 if seat > 0 else n - 1
    pt = (hands[p] >> (13 * trump)) & LANE
    if pt != ot and int(high_bit(ot & ~pt)) > int(low_bit(mt)):  # another player's trump above one of the seat's
        return 0
    u = mt | pt
    return int(BEHIND[(1 << int(popcount64(u))) | rel_suit(mt, u)])


@jit
def side_masters(hands: Any, n: int, seat: int, trump: int) -> int:
    """How many of ``seat``'s cards in the suits other than ``trump`` (all four with ``trump < 0``) are above every
    other remaining card of their suit (0..13), with no cap for ruffs or lengths (:func:`quick_tricks` caps)."""
    oth = 0
    for s in range(n):
        if s != seat:
            oth |= hands[s]
    return masters_of(hands[seat], oth, trump)


@jit
def trump_bounds(hands: Any, n: int, seat: int, trump: int) -> Any:
    """``(sure, lost, sure_vs_lead)``: tricks ``seat`` surely wins and tricks the others surely win, from trumps
    alone, and a count ``seat`` surely wins whoever leads (at least ``sure``; trick starts only).

    Every remaining card is played, each of a hand's cards in a different trick, and a trump loses its trick
    only to a higher trump played to it, each higher trump beating at most one. So ``seat`` wins at least its
    trumps minus the most of them the others' trumps can beat one each (a maximum matching); likewise each
    other player wins (for the others' side) at least its trumps minus the most of them the seat's trumps can
    beat - the side gets the largest such count. Trumps above every opposing trump are the special case of
    unbeatable ones.

    ``sure_vs_lead``: when the seat holds more trumps than the others together (``T > O``), it makes at least
    ``T - O + M`` tricks, ``M`` its side-suit masters (cards above every other remaining card of their suit;
    cards only leave the hands, so a master stays one). The seat plays so: on lead, a master if it holds one;
    following a suit it holds, a master of it if it holds one; void in the suit led, a trump if it holds one
    and may play it, else a card that is not a master if it holds one. A seat's trump loses only to a higher
    trump of the others played to its trick, and a master played to a trick of its own suit only to a trump of
    theirs played to it; the seat plays one card a trick, so each of their ``O`` trumps beats at most one such
    card. Hence the seat wins at least ``T + M - O`` tricks if it never throws a master on a trick of another
    suit. Under must-overtrump it may have to (void, its trumps all below one already in the trick): that
    trick holds a trump of theirs that beats none of those cards, so the count still holds. Otherwise it throws
    one only at a trick ``X`` led by another player, void in the suit led and holding nothing but masters, so
    no trump. It held masters at every earlier trick, so each trick it won before ``X`` was followed by one it
    led, a master, before ``X``. Say ``W`` of its trumps won: the led masters are at least its wins, which are
    ``W`` plus the led masters that won, so at least ``W`` led masters lost, each to a trump of theirs, and its
    other ``T - W`` trumps lost, each to another trump of theirs (all in different tricks): ``O >= T``, against
    ``T > O``. With ``T > O``, ``T - O + M`` is above ``sure = T - kills`` exactly when ``M`` exceeds the
    others' trumps the matching leaves unused (``O - kills``); when they hold no trump it is all the seat's
    trumps and masters. Checked against the brute force by
    ``tests/search/test_solver.py::test_excess_trumps_and_masters_bound_holds``, which also shows that with ``T = O``
    it is not a bound (the others strip the seat until it must throw a master, or ruff its masters).
    """
    sh = 13 * trump
    mine = (hands[seat] >> sh) & LANE
    oth = 0
    for s in range(n):
        if s != seat:
            oth |= (hands[s] >> sh) & LANE
    k = kills(oth, mine)
    sure = int(popcount64(mine)) - k
    lost = 0
    for s in range(n):
        if s != seat:
            ts = (hands[s] >> sh) & LANE
            if ts != 0:
                v = int(popcount64(ts)) - kills(mine, ts)
                if v > lost:
                    lost = v
    sure_vs_lead = sure
    excess = int(popcount64(mine)) - int(popcount64(oth))
    if excess > 0:
        m = excess + side_masters(hands, n, seat, trump)
        if m > sure:
            sure_vs_lead = m
    return sure, lost, sure_vs_lead


@jit
def drawn_tricks(hands: Any, n: int, seat: int, trump: int) -> int:
    """Tricks ``seat``, on lead in a trump contract, surely makes by drawing the others' trumps first: when its
    ``k`` highest trumps beat every other trump, ``k`` the longest other holding, it leads them from the top
    (every other hand must follow with its trumps, so after ``k`` rounds none is left and the lead is still
    its own), then every one of its trumps and its cards above every other remaining card of their side suit
    win. ``-1`` when the trumps cannot be drawn so (or when nobody else holds trumps, :func:`trump_bounds`
    and :func:`quick_tricks` already count that case in full)."""
    mine = hands[seat]
    oth = 0
    for s in range(n):
        if s != seat:
            oth |= hands[s]
    return drawn_tricks_of(hands, n, seat, mine, oth, trump)


@jit_inline
def masters_of(mine: int, oth: int, trump: int) -> int:
    """:func:`side_masters` of the hand ``mine`` against ``oth`` (the other hands' cards together), as plain masks."""
    total = 0
    for suit in range(4):
        if suit != trump:
            sh = 13 * suit
            total += int(popcount64(((mine >> sh) & LANE) >> (int(high_bit((oth >> sh) & LANE)) + 1)))
    return total


@jit_inline
def quick_tricks_of(hands: Any, n: int, p: int, mine: int, oth: int, trump: int, pending: int, follow: int,
                    led: int) -> int:
    """:func:`quick_tricks_after` of seat ``p`` holding ``mine`` (which may differ from ``hands[p]``; the others'
    hands are ``hands``), ``oth`` the others' cards together: the same count without writing ``hands``."""
    total = 0
    tcaps = 0  # the other seats holding trumps (they cap the lengths)
    if trump >= 0:
        for s in range(n):
            if s != p and (hands[s] >> (13 * trump)) & LANE != 0:
                tcaps |= 1 << s
    for suit in range(4):
        if suit == trump:
            continue
        sh = 13 * suit
        m = (mine >> sh) & LANE
        if m == 0:
            continue
        cnt = int(popcount64(m >> (int(high_bit((oth >> sh) & LANE)) + 1)))
        if cnt > 0 and tcaps != 0:
            for s in range(n):
                if (tcaps >> s) & 1 != 0:
                    ln = int(popcount64((hands[s] >> sh) & LANE))
                    if (follow >> s) & 1 != 0:
                        if suit == led:
                            ln -= 1
                    else:
                        ln -= (pending >> s) & 1
                    if ln < cnt:
                        cnt = ln
        if cnt > 0:
            total += cnt
    return total


@jit_inline
def drawn_tricks_of(hands: Any, n: int, p: int, mine: int, oth: int, trump: int) -> int:
    """:func:`drawn_tricks` of seat ``p`` holding ``mine`` (the others' hands are ``hands``, ``oth`` their cards
    together), without writing ``hands``."""
    sh = 13 * trump
    mt = (mine >> sh) & LANE
    k = 0
    for s in range(n):
        if s != p:
            c = int(popcount64((hands[s] >> sh) & LANE))
            if c > k:
                k = c
    if k == 0 or int(popcount64(mt)) < k:
        return -1
    v = mt
    for _ in range(k - 1):
        v &= ~(1 << int(high_bit(v)))
    if int(high_bit(v)) < int(high_bit((oth >> sh) & LANE)):  # the k-th highest of the seat's trumps
        return -1
    return int(popcount64(mt)) + masters_of(mine, oth, trump)


@jit_inline
def start_bounds(hands: Any, n: int, leader: int, seat: int, trump: int, remaining: int, target: int,
                 obliged: int) -> int:
    """The trick-start bounds of :func:`solve_bounds` (not in minimum tricks): ``1`` when a sure lower bound of the seat
    reaches ``target``, ``0`` when an upper bound falls short of it, else ``-1``. The same tests as the trump
    count (:func:`trump_bounds`), the quick tricks (:func:`quick_tricks`), the drawn trumps (:func:`drawn_tricks`)
    and the seat's trumps over the others' with its masters (:func:`trump_bounds`' third count) make, computed only as far as needed (every count is a sound bound, so the
    order of the tests changes no answer)."""
    mine = hands[seat]
    allm = hands[0] | hands[1] | hands[2] | hands[3]
    oth = allm & ~mine
    sure = 0
    k = 0
    mt = 0
    ot = 0
    sh = 13 * trump
    if trump >= 0:
        mt = (mine >> sh) & LANE
        ot = (oth >> sh) & LANE
        k = kills(ot, mt)
        sure = int(popcount64(mt)) - k
        if obliged == 0 and sure < target and mt != 0 and ot != 0:
            b = behind_tricks(hands, n, seat, trump, mt, ot)
            if b > sure:
                sure = b
    if leader == seat:
        if sure + quick_tricks_of(hands, n, seat, mine, oth, trump, 0, 0, -1) >= target:
            return 1
        if trump >= 0 and drawn_tricks_of(hands, n, seat, mine, oth, trump) >= target:
            return 1
    elif sure >= target:
        return 1
    if trump >= 0:
        # more trumps than the others together: those over theirs and every side master, whoever leads
        # (trump_bounds' third count)
        excess = int(popcount64(mt)) - int(popcount64(ot))
        if excess > 0 and excess + masters_of(mine, oth, trump) >= target:
            return 1
    lost = 0
    if trump >= 0:
        for s in range(n):
            if s != seat:
                ts = (hands[s] >> sh) & LANE
                if ts != 0:
                    v = int(popcount64(ts)) - kills(mt, ts)
                    if v > lost:
                        lost = v
    if leader == seat:
        return 0 if remaining - lost < target else -1
    lh = hands[leader]
    if remaining - lost - quick_tricks_of(hands, n, leader, lh, allm & ~lh, trump, 0, 0, -1) < target:
        return 0
    return -1


@jit
def last_trick_winner(hands: Any, n: int, leader: int, trump: int) -> int:
    """The seat that wins the last trick, every hand holding one card, ``leader`` to lead."""
    bc = lowest(hands[leader])
    led = bc // 13
    bs = leader
    btr = led == trump
    for i in range(1, n):
        s = (leader + i) % n
        c = lowest(hands[s])
        if beats(c, led, trump, bc, btr):
            bs = s
            bc = c
            btr = c // 13 == trump
    return bs


@jit_inline
def seat_takes_trick(hands: Any, n: int, tk: Any, tb: int, tlen: int, leader: int, seat: int, trump: int,
                     must_trump: int, must_over: int, target: int) -> bool:
    """Does ``seat`` surely make ``target`` more tricks, from the middle of a trick it has not played to yet?

    The trick so far is ``tk[tb:tb + tlen]`` (``1 <= tlen``), led by ``leader``; other players may still play
    to it, before or after the seat. True when the seat holds a legal card that beats every card those players
    could play (a card of the suit led above all of theirs while none of them can ruff, or a trump above every
    trump they could play), and after that trick - the seat on lead, needing ``target - 1`` - its sure tricks
    reach ``target - 1``: its trump count (:func:`trump_bounds`), plus its quick tricks (:func:`quick_tricks_after`,
    whatever cards the others play to this trick), or its tricks by drawing trumps (:func:`drawn_tricks`).
    The trump count and the drawn trumps can only grow when the others' cards to this trick leave their hands
    (the drawn trumps' ``-1``, once nobody else holds a trump, gives way to the trump count and quick tricks,
    which then count the same tricks), so they are taken on the hands as they are. docs/rules.md "Presets"
    (follow suit, a trump beats any other suit); the caller passes ``must_over = 0`` or the seat as the player to move (with must-overtrump the
    seat's legal cards depend on the trumps played before it). ``hands`` is not written."""
    led = tk[tb] // 13
    bc = tk[tb + winner_at(tk, tb, tlen, trump)]  # the card winning the trick so far
    return seat_takes_trick_bc(hands, n, tlen, leader, seat, trump, must_trump, must_over, target, led, bc)


@jit_inline
def later_tops(hands: Any, n: int, tlen: int, leader: int, seat: int, led: int, trump: int,
               threats: int) -> tuple[int, int, int, int]:
    """What the players still to play to a trick (``tlen`` cards played, led by ``leader`` in suit ``led``) other
    than ``seat`` and among ``threats`` (a bit per seat; -1: all) could play: ``(led_top, trump_top, pending,
    follow)``, the highest rank of the suit led any of them holds and the highest trump any of them could play
    (following in trumps or void in the suit led; -1: none), and the bits of those players and of those who
    follow suit."""
    led_top = -1
    trump_top = -1
    pending = 0
    follow = 0
    for k in range(tlen, n):
        p = leader + k
        if p >= n:
            p -= n
        if p == seat or (threats >> p) & 1 == 0:
            continue
        pending |= 1 << p
        lv = (hands[p] >> (13 * led)) & LANE
        if lv != 0:
            follow |= 1 << p
            r = int(high_bit(lv))
            if r > led_top:
                led_top = r
            if led == trump and r > trump_top:
                trump_top = r
        elif trump >= 0:
            tv = (hands[p] >> (13 * trump)) & LANE
            if tv != 0:
                r = int(high_bit(tv))
                if r > trump_top:
                    trump_top = r
    return led_top, trump_top, pending, follow


@jit_inline
def seat_takes_trick_bc(hands: Any, n: int, tlen: int, leader: int, seat: int, trump: int, must_trump: int,
                        must_over: int, target: int, led: int, bc: int) -> bool:
    """:func:`seat_takes_trick` given the suit ``led`` and the card ``bc`` winning the trick so far (``tlen``
    cards played, led by ``leader``) instead of the trick."""
    h = hands[seat]
    legal = legal_after(h, led, bc, trump, must_trump, must_over)
    btr = suit_of(bc) == trump
    brank = bc - 13 * suit_of(bc)
    # every card the check may find beats the winning card so far: without one the answer is no
    above = LANE & ~((2 << brank) - 1)
    if btr:
        beat = (legal >> (13 * trump)) & above
    else:
        beat = (legal >> (13 * led)) & above
        if trump >= 0:
            beat |= (legal >> (13 * trump)) & LANE
    if beat == 0:
        return False
    led_top, trump_top, pending, follow = later_tops(hands, n, tlen, leader, seat, led, trump, -1)
    for kind in range(2):  # the lowest such card of the suit led (no trump spent), then the lowest such trump
        c = -1
        if kind == 0:
            if led != trump and not btr and trump_top < 0:
                lo = max(brank, led_top) + 1
                cand = (legal >> (13 * led)) & LANE & ~((1 << lo) - 1)
                if cand != 0:
                    c = 13 * led + int(low_bit(cand))
        elif trump >= 0:
            lo = trump_top + 1
            if btr and brank + 1 > lo:
                lo = brank + 1
            cand = (legal >> (13 * trump)) & LANE & ~((1 << lo) - 1)
            if cand != 0:
                c = 13 * trump + int(low_bit(cand))
        if c < 0:
            continue
        if target <= 1:
            return True
        mine = h & ~(1 << c)
        oth = (hands[0] | hands[1] | hands[2] | hands[3]) & ~h
        sure = 0
        if trump >= 0:
            sh = 13 * trump
            mt = (mine >> sh) & LANE
            sure = int(popcount64(mt)) - kills((oth >> sh) & LANE, mt)  # trump_bounds' first count
        if sure < target - 1:
            sure += quick_tricks_of(hands, n, seat, mine, oth, trump, pending, follow, led)
        if sure < target - 1 and trump >= 0:
            sure = drawn_tricks_of(hands, n, seat, mine, oth, trump)
        if sure >= target - 1:
            return True
    return False


@jit_inline
def can_beat(h: int, led: int, bc: int, trump: int) -> bool:
    """Does the hand ``h`` hold a card that beats ``bc``, the trick's winning card, in a trick led in ``led``?"""
    lv = (h >> (13 * led)) & LANE
    bs = suit_of(bc)
    br = bc - 13 * bs
    if lv != 0:
        return bs == led and (lv >> (br + 1)) != 0
    if trump < 0:
        return False
    tv = (h >> (13 * trump)) & LANE
    if bs == trump:
        return (tv >> (br + 1)) != 0
    return tv != 0


@jit_inline
def sure_winner(hands: Any, n: int, tlen: int, leader: int, seat: int, trump: int, must_trump: int, must_over: int,
                led: int, bc: int, threats: int = -1) -> int:
    """The cheapest sure winner of ``seat`` (any player) in the middle of a trick it has not played to (``tlen``
    cards played, led by ``leader`` in suit ``led``, ``bc`` winning so far): its lowest legal card of the suit led
    that beats ``bc`` and every card of that suit the players still to play in ``threats`` (a bit per seat; all by
    default) hold while none of them can ruff, else its lowest legal trump above ``bc`` (when a trump) and every
    trump those players hold; given as the head of its run of equivalent cards (:func:`run_heads`, as
    :func:`gen_moves` lists it); ``-1`` when it has none. Not in minimum tricks."""
    h = hands[seat]
    legal = legal_after(h, led, bc, trump, must_trump, must_over)
    btr = suit_of(bc) == trump
    brank = bc - 13 * suit_of(bc)
    led_top, trump_top, _, _ = later_tops(hands, n, tlen, leader, seat, led, trump, threats)
    suit = -1
    cand = 0
    if led != trump and not btr and trump_top < 0:
        lo = max(brank, led_top) + 1
        cand = (legal >> (13 * led)) & LANE & ~((1 << lo) - 1)
        suit = led
    if cand == 0 and trump >= 0:
        lo = trump_top + 1
        if btr and brank + 1 > lo:
            lo = brank + 1
        cand = (legal >> (13 * trump)) & LANE & ~((1 << lo) - 1)
        suit = trump
    if cand == 0:
        return -1
    sh = 13 * suit
    present = hands[0] | hands[1] | hands[2] | hands[3] | (1 << bc)
    heads = run_heads((legal >> sh) & LANE, (present >> sh) & LANE)
    return sh + int(low_bit(heads & ~((1 << int(low_bit(cand))) - 1)))


@jit_inline
def trumps_reach(hands: Any, n: int, seat: int, trump: int, target: int, must_trump: int, must_over: int, led: int,
                 bc: int, played: bool) -> bool:
    """In the middle of a trick in a trump contract: does ``seat`` surely make ``target`` more tricks (this one
    included) by the trump counts of :func:`trump_bounds` alone, whatever is played to this trick?

    ``played``: the seat has played to this trick; then from the next trick start its trumps are those it holds now
    and the others' trumps a part of theirs now (cards only leave the hands), so its trump count (its trumps less
    the most of them the others' trumps can beat one each) and its trumps over the others' with its side masters
    (``sure_vs_lead``, when it holds more trumps than they together; a master stays one) can only be larger
    there. Otherwise (``led`` the suit led, ``bc`` the card winning the trick so far): the seat plays a legal card
    that is not a trump if it holds one (its trumps are kept), else its lowest legal trump, and its trump count
    with the trumps left is counted the same way. docs/rules.md "Presets". ``hands`` is not written."""
    h = hands[seat]
    sh = 13 * trump
    mt = (h >> sh) & LANE
    if mt == 0:
        return False
    oth = (hands[0] | hands[1] | hands[2] | hands[3]) & ~h
    ot = (oth >> sh) & LANE
    if not played:
        legal = legal_after(h, led, bc, trump, must_trump, must_over)
        if legal & ~(LANE << sh) == 0:
            mt &= ~(1 << int(low_bit((legal >> sh) & LANE)))
    if int(popcount64(mt)) - kills(ot, mt) >= target:
        return True
    if not played:
        return False
    excess = int(popcount64(mt)) - int(popcount64(ot))
    return excess > 0 and excess + masters_of(h, oth, trump) >= target


@jit_inline
def seat_ducks_trick(hands: Any, n: int, tk: Any, tb: int, tlen: int, seat: int, trump: int, must_trump: int,
                     must_over: int) -> bool:
    """In the middle of a trick the seat has not played to yet (the trick so far ``tk[tb:tb + tlen]``,
    ``1 <= tlen``): does it hold a legal card below the card winning the trick so far? Then another player
    wins the trick whatever is played after - in minimum tricks one more trick the seat does not take. A card
    beats the winning one only as a higher card of the suit led while no trump is in the trick, or as a trump
    (a higher one if the trick is trumped) - docs/rules.md "Presets". Under must-overtrump the
    caller asks only for the seat to move (its legal cards depend on the trumps played before it)."""
    led = tk[tb] // 13
    bc = tk[tb + winner_at(tk, tb, tlen, trump)]  # the card winning the trick so far
    return seat_ducks_trick_bc(hands, seat, trump, must_trump, must_over, led, bc)


@jit_inline
def seat_ducks_trick_bc(hands: Any, seat: int, trump: int, must_trump: int, must_over: int, led: int, bc: int) -> bool:
    """:func:`seat_ducks_trick` given the suit ``led`` and the card ``bc`` winning the trick so far instead of the
    trick."""
    legal = legal_after(hands[seat], led, bc, trump, must_trump, must_over)
    btr = suit_of(bc) == trump
    above = LANE & ~((2 << (bc - 13 * suit_of(bc))) - 1)
    if btr:
        beaters = above << (13 * trump)
    else:
        beaters = above << (13 * led)
        if trump >= 0:
            beaters |= LANE << (13 * trump)
    return bool(legal & ~beaters != 0)


@jit
def seat_ducks_lead(hands: Any, n: int, leader: int, seat: int) -> bool:
    """No-trump, at a trick start: does ``seat`` surely lose this trick (in minimum tricks, one more trick taken
    by the others)? On lead, when it holds a card below every card of that suit some other hand holds (that hand
    must follow with a higher one); another player on lead, when for every suit the leader holds the seat is void
    (it discards: without trumps a discard never wins) or holds a card below every card the leader holds in it.
    docs/rules.md "Presets" (follow suit; the highest card of the suit led wins)."""
    h = hands[seat]
    if leader == seat:
        for suit in range(4):
            m = (h >> (13 * suit)) & LANE
            if m == 0:
                continue
            lo = int(low_bit(m))
            for p in range(n):
                if p != seat:
                    o = (hands[p] >> (13 * suit)) & LANE
                    if o != 0 and int(low_bit(o)) > lo:
                        return True
        return False
    lh = hands[leader]
    for suit in range(4):
        o = (lh >> (13 * suit)) & LANE
        if o == 0:
            continue
        m = (h >> (13 * suit)) & LANE
        if m != 0 and int(low_bit(m)) > int(low_bit(o)):
            return False
    return True


@jit
def exit_cycles(hands: Any, n: int, seat: int, spent: int, tricks: int) -> int:
    """No-trump: how many of ``tricks`` tricks, led by the other players, the seat surely loses by its exits, after
    ``spent`` (0 or 1) of its exit cards and of the other hand's cards of the suit are used up (-1: no exit).

    An exit is a card of suit X below every X card another hand H holds: led, H must follow above it. With ``a``
    such cards and ``b`` X cards in H, the seat ducks where it can, wins with any other card when it must, and
    on lead plays an exit. It wins a trick with an exit card only if H no longer holds X, and between two exits
    H plays at most two X cards (one to the trick the seat won, one over the exit), so each trick won is followed
    by a trick lost while exits last: it loses ``min(a, b // 2, tricks // 2)`` at least. A trick it ducks
    meanwhile uses up at most one of ``a`` and one of ``b`` and is a loss itself. The best suit and hand count.
    docs/rules.md "Presets" (follow suit; the highest card of the suit led wins), docs/rules.md
    "3-5-8" (minimum-tricks deals: no trump).

    Args: ``hands`` (length >= ``n``; bit ``13 * suit + rank``), ``n`` 3 or 4 players, ``seat`` 0..n-1,
    ``tricks`` >= 0. Returns: -1..``tricks // 2`` (``test_exit_losses_hold``)."""
    return exits_in_trick(hands, n, hands[seat], seat, spent, 0, 0, tricks)


@jit
def seat_exit_losses(hands: Any, n: int, leader: int, seat: int, remaining: int) -> int:
    """No-trump, at a trick start: how many of the ``remaining`` tricks the seat surely loses by its exits
    (:func:`exit_cycles`; in minimum tricks a lower bound on the tricks the others take). On lead, it plays an
    exit at once and loses that trick, then the others lead. Args as :func:`exit_cycles`, ``leader`` 0..n-1,
    ``remaining`` >= 1. Returns: 0..``remaining`` (``test_exit_losses_hold``)."""
    if leader != seat:
        return max(exit_cycles(hands, n, seat, 0, remaining), 0)
    k = exit_cycles(hands, n, seat, 1, remaining - 1)
    return k + 1 if k >= 0 else 0

@jit_inline
def exits_in_trick(hands: Any, n: int, mine: int, seat: int, spent: int, pending: int, led: int, tricks: int) -> int:
    """No-trump: the counting of :func:`exit_cycles` (its single home), for the seat holding ``mine``. At a trick
    start (``pending`` 0) it is :func:`exit_cycles`' count after ``spent`` (0 or 1) of the seat's exit cards and
    of the other hand's cards of the suit are used up. In the middle of a trick the seat surely loses, once it holds
    ``mine`` (after its card to this trick; ``spent`` 0): how many of the ``tricks`` tricks after this one it
    surely loses by its exits (another player on lead, as :func:`seat_exit_losses` counts at that trick start),
    whatever the players in the bit set ``pending`` (others still to play, suit ``led`` led) play to this trick.
    Such a player holding ``led`` must follow, so only its ``led`` cards lose one; void in it, every suit may. A
    card leaving another hand only raises its lowest card of the suit (more of the seat's cards lie under it), so
    the count on the hands as they are, with those lengths less one, is sure. Returns -1..``tricks // 2``."""
    best = -1
    for p in range(n):
        if p == seat:
            continue
        pv = (pending >> p) & 1
        follows = (hands[p] >> (13 * led)) & LANE != 0
        for suit in range(4):
            m = (mine >> (13 * suit)) & LANE
            o = (hands[p] >> (13 * suit)) & LANE
            if m == 0 or o == 0:
                continue
            a = int(popcount64(m & ((1 << int(low_bit(o))) - 1)))
            if a == 0:
                continue
            b = int(popcount64(o)) - spent
            if pv != 0 and (suit == led or not follows):
                b -= 1
            k = min(a - spent, b // 2, tricks // 2)
            if k > best:
                best = k
    return best


@jit_inline
def overtaken(hands: Any, n: int, players: int, led: int, r: int) -> bool:
    """Does one of the ``players`` (a bit set) hold suit ``led`` and only cards of it above rank ``r``? It must follow
    above a card of rank ``r`` (docs/rules.md "Presets": follow suit)."""
    for p in range(n):
        if (players >> p) & 1 != 0:
            lv = (hands[p] >> (13 * led)) & LANE
            if lv != 0 and int(low_bit(lv)) > r:
                return True
    return False


@jit_inline
def seat_exits_after(hands: Any, n: int, tlen: int, leader: int, seat: int, led: int, bc: int, ws: int,
                     tricks: int) -> int:
    """No-trump, in the middle of a trick (``tlen >= 1`` cards played, led by ``leader`` in suit ``led``, ``bc``
    winning it, played by ``ws``; ``tricks`` more after it): when the seat surely loses this trick, one more than
    the tricks after it the seat surely loses by its exits (:func:`exits_in_trick`), else 0 - in minimum tricks a
    lower bound on the tricks left the others take. The seat loses the trick when it has played to it and another
    player's card wins it (a beaten card stays beaten) or a player still to play must follow above it
    (:func:`overtaken`), or, still to play, when it holds a legal card under the winning one: its highest such card
    of the suit led (a lower one is no better an exit), void in it the highest card of the suit that leaves the most
    exits (a discard never wins); holding only cards of the suit led above the winning one, when a player after it
    must follow above its lowest. docs/rules.md "Presets", docs/rules.md
    "3-5-8" (minimum tricks: no trump). Returns 0..``tricks + 1`` (``test_exits_after_a_lost_trick_hold``)."""
    h = hands[seat]
    pending = 0  # the players still to play to this trick
    for k in range(tlen, n):
        p = leader + k
        if p >= n:
            p -= n
        pending |= 1 << p
    if (pending >> seat) & 1 == 0:
        if ws == seat and not overtaken(hands, n, pending, led, bc - 13 * led):
            return 0
        return 1 + max(exits_in_trick(hands, n, h, seat, 0, pending, led, tricks), 0)
    pending &= ~(1 << seat)
    lv = (h >> (13 * led)) & LANE
    if lv != 0:
        if suit_of(bc) != led:
            return 0
        under = lv & ((1 << (bc - 13 * led)) - 1)
        if under != 0:
            c = int(high_bit(under))
        else:
            # it must beat the winning card: its lowest card, when a player after it must follow above that
            c = int(low_bit(lv))
            after = 0
            sp = seat - leader
            if sp < 0:
                sp += n
            for k in range(sp + 1, n):
                p = leader + k
                if p >= n:
                    p -= n
                after |= 1 << p
            if not overtaken(hands, n, after, led, c):
                return 0
        mine = h & ~(1 << (13 * led + c))
        return 1 + max(exits_in_trick(hands, n, mine, seat, 0, pending, led, tricks), 0)
    best = -1
    for suit in range(4):
        m = (h >> (13 * suit)) & LANE
        if m != 0:
            k = exits_in_trick(hands, n, h & ~(1 << (13 * suit + int(high_bit(m)))), seat, 0, pending,
                               led, tricks)
            if k > best:
                best = k
    return 1 + max(best, 0)


@jit
def _under_in_order(m: int, u: int) -> bool:
    """The i-th lowest bit of ``m`` is below the i-th lowest of ``u``, for i up to the fewer of their bits."""
    while m != 0 and u != 0:
        if int(low_bit(m)) > int(low_bit(u)):
            return False
        m &= m - 1
        u &= u - 1
    return True


@jit
def seat_wins_out(hands: Any, n: int, seat: int) -> bool:
    """No-trump, the seat on lead: does it surely win every remaining trick (in minimum tricks: the others
    take none)? For every suit and every other hand holding it, the hand's i-th lowest card is below the seat's
    i-th lowest (i up to the shorter holding). Then each other hand, playing its lowest card of the suit led and
    discarding its highest cards when void, stays under every card the seat can lead, so the seat wins each
    trick and leads the next. docs/rules.md "Presets" (follow suit; the highest card of the suit led
    wins), docs/rules.md "3-5-8" (minimum-tricks deals: no trump).

    Args: ``hands`` (length >= ``n``; bit ``13 * suit + rank``), ``n`` 3 or 4 players, ``seat`` 0..n-1.
    Returns: True only when the claim holds (``tests/search/test_solver.py::test_seat_wins_or_loses_out_holds``)."""
    h = hands[seat]
    for suit in range(4):
        m = (h >> (13 * suit)) & LANE
        if m == 0:
            continue
        for p in range(n):
            if p == seat:
                continue
            if not _under_in_order((hands[p] >> (13 * suit)) & LANE, m):
                return False
    return True


@jit
def seat_loses_out(hands: Any, n: int, leader: int, seat: int) -> bool:
    """No-trump: does the seat surely lose every remaining trick (in minimum tricks: the others take them all)?

    Another player on lead: when in every suit the seat's i-th lowest card is below the i-th lowest of the
    other hands' cards of that suit together (i up to the shorter holding). The seat plays its highest card
    under the card led, or discards its highest card when void: it never wins a trick and the order holds
    after every trick (the card led is at least the others' j-th lowest for some j, and the seat's card is at
    least its own j-th lowest), so the others keep the lead. On lead, the seat needs one suit X, held by another
    hand too, whose lowest card is below all the others' X cards (one of them must take the trick) and whose
    (i+1)-th lowest is below the others' i-th lowest X card, so that the order holds whichever X cards they play
    to it; every other suit in order. (Leading the lowest card of a suit merely in order is not enough: the
    others take it with a high card and keep their low ones to lead under the seat's next card.) docs/rules.md
    "Presets", docs/rules.md "3-5-8" (minimum-tricks deals: no trump).

    Args: ``hands`` (length >= ``n``; bit ``13 * suit + rank``), ``n`` 3 or 4 players, ``leader`` and ``seat``
    0..n-1. Returns: True only when the claim holds (``test_seat_wins_or_loses_out_holds``)."""
    h = hands[seat]
    bad = 0  # suits out of order
    lead_suits = 0  # suits the seat can lead to lose the trick and keep the order
    for suit in range(4):
        m = (h >> (13 * suit)) & LANE
        if m == 0:
            continue
        u = 0
        for p in range(n):
            if p != seat:
                u |= (hands[p] >> (13 * suit)) & LANE
        if u == 0:
            continue
        if not _under_in_order(m, u):
            if leader != seat:
                return False
            bad |= 1 << suit
        if leader == seat and int(low_bit(m)) < int(low_bit(u)) and _under_in_order(m & (m - 1), u):
            lead_suits |= 1 << suit
    if leader != seat:
        return True
    if bad == 0:
        return lead_suits != 0
    return (bad & (bad - 1)) == 0 and (bad & lead_suits) != 0


@jit
def seat_ducks_out(hands: Any, n: int, tk: Any, tb: int, tlen: int, seat: int) -> bool:
    """No-trump, in the middle of a trick the seat has not played to yet (``tk[tb:tb + tlen]``, ``1 <= tlen``):
    does it surely lose this trick and every one after (in minimum tricks: the others take every trick left)?
    When it holds a card under the trick's winning card - of the suit led, its highest such card; void in it,
    the highest card of one of its suits - after which :func:`seat_loses_out` holds with another player on lead
    for its hand without that card and the other hands as they are (the cards they play to this trick only
    lower their count in that order). docs/rules.md "Presets", docs/rules.md "3-5-8" (minimum tricks: no trump).
    ``hands`` is restored before returning."""
    h = hands[seat]
    led = tk[tb] // 13
    bc = tk[tb + winner_at(tk, tb, tlen, -1)]
    other = (seat + 1) % n
    mine = (h >> (13 * led)) & LANE
    ok = False
    if mine != 0:
        under = mine & ((1 << (bc - 13 * led)) - 1)
        if under != 0:
            hands[seat] = h & ~(1 << (13 * led + int(high_bit(under))))
            ok = seat_loses_out(hands, n, other, seat)
    else:
        for suit in range(4):
            m = (h >> (13 * suit)) & LANE
            if m != 0:
                hands[seat] = h & ~(1 << (13 * suit + int(high_bit(m))))
                if seat_loses_out(hands, n, other, seat):
                    ok = True
                    break
    hands[seat] = h
    return ok


@jit_inline_per_type
def insert_move(moves: Any, base: int, nm: int, c: int, sc: int) -> int:
    """Insert card ``c`` with sort key ``sc`` into the ``nm`` moves at ``moves[base:]`` (pairs card, key; the
    highest key first, a new card after the ones with as high a key); return the new count."""
    j = nm
    while j > 0 and moves[base + 2 * (j - 1) + 1] < sc:
        moves[base + 2 * j] = moves[base + 2 * (j - 1)]
        moves[base + 2 * j + 1] = moves[base + 2 * (j - 1) + 1]
        j -= 1
    moves[base + 2 * j] = c
    moves[base + 2 * j + 1] = sc
    return nm + 1


@jit_inline_per_type
def move_first(moves: Any, base: int, nm: int, c: int) -> None:
    """Move card ``c`` (with its key) to the front of the ``nm`` moves at ``moves[base:]``, the cards before it one
    place down; nothing when ``c`` is not among them."""
    for j in range(1, nm):
        if moves[base + 2 * j] == c:
            key = moves[base + 2 * j + 1]
            for k in range(j, 0, -1):
                moves[base + 2 * k] = moves[base + 2 * k - 2]
                moves[base + 2 * k + 1] = moves[base + 2 * k - 1]
            moves[base] = c
            moves[base + 1] = key
            return


@jit
def run_heads(lv: int, pv: int) -> int:
    """The cards of ``lv`` (a mover's legal cards of one suit, a 13-bit lane) that head a run of equivalent cards
    among ``pv`` (the cards in play in the suit, ``lv`` included): those whose next card up in ``pv`` is not in
    ``lv``. With BMI2, ``lv`` compressed to ``pv``'s bits turns runs into runs of adjacent bits."""
    if FAST_BMI2:
        lc = pext64(lv, pv)
        return pdep64(lc & ~(lc >> 1), pv)
    heads = 0
    v = lv
    while v != 0:
        hb = int(high_bit(v))
        v &= ~(1 << hb)
        above = pv >> (hb + 1)
        if above == 0 or ((lv >> (hb + 1 + low_bit(above))) & 1) == 0:
            heads |= 1 << hb
    return heads


@jit_inline
def gen_moves(hands: Any, n: int, tlen: int, leader: int, led: int, bc: int, ws: int, to: int, trump: int,
              must_trump: int, must_over: int, seat: int, misere: int, moves: Any, base: int) -> int:
    """Write the legal cards of ``to`` (``tlen`` cards played to the trick so far, led by ``leader`` in suit ``led``;
    ``bc`` the card winning it so far, played by ``ws``: those three only read when ``tlen > 0``) into
    ``moves[base + 2k]`` (a sort key at ``+ 1``), one card per run of equivalent cards, best-first by a cheap
    ordering score; return how many.

    The key of a card of rank ``r`` in ``suit`` is ``64 * score + 16 * (3 - suit) + r``: the highest score first,
    equal scores in the order the cards were once generated in (suit by suit, the high ranks first), so the order
    does not depend on the order of the insertions. In a suit, the cards of one class (those that beat the trick's
    winning card so far, the others; at a lead, the top cards and the rest) score linearly in their rank (or in
    ``rank >> q``): :func:`emit_run` inserts them in the order of falling keys, so that few moves are shifted."""
    h = hands[to]
    legal = h if tlen == 0 else legal_after(h, led, bc, trump, must_trump, must_over)
    maxing = to == seat
    mis = misere != 0
    # cards still in the hands and the card that wins the trick so far: touching cards of one hand among them
    # are equivalent (the trick's other cards separate nothing: two cards with only those between them both
    # beat the winning card or both do not, the trick goes the same way and, once it is over, the two
    # positions are the same in relative ranks)
    present = hands[0] | hands[1] | hands[2] | hands[3]
    nm = 0
    if tlen == 0:
        sv_all = hands[seat]
        seat_trumps = (sv_all >> (13 * trump)) & LANE if trump >= 0 else 0
        # suits some other player could ruff: void in them and holding a trump (for the seat's leads)
        ruffable = 0
        if maxing and not mis and trump >= 0:
            for o in range(n):
                if o != seat and (hands[o] >> (13 * trump)) & LANE != 0:
                    for suit in range(4):
                        if (hands[o] >> (13 * suit)) & LANE == 0:
                            ruffable |= 1 << suit
        for suit in range(4):
            sh = 13 * suit
            lv = (legal >> sh) & LANE
            if lv == 0:
                continue
            pv = (present >> sh) & LANE
            slen = int(popcount64(lv))
            v = run_heads(lv, pv)
            oth_top = -1
            side_top = -1
            seat_top = -1
            ruff = False
            if not mis:
                if maxing:
                    oth_top = int(high_bit(pv & ~lv))
                    ruff = suit != trump and (ruffable >> suit) & 1 != 0
                else:
                    sv = (sv_all >> sh) & LANE
                    seat_top = int(high_bit(sv))
                    side_top = int(high_bit(pv & ~sv))
                    ruff = sv == 0 and suit != trump and seat_trumps != 0
            tie = (3 - suit) * 16
            if mis:
                if maxing:
                    # the seat leads: first the cards below another hand's lowest card of the suit (that hand
                    # must follow higher: a sure loss), the highest first (shed it, keep the low ones), then the
                    # rest, the lowest first
                    mlo = 0
                    for o in range(n):
                        if o != seat:
                            ov = (hands[o] >> sh) & LANE
                            if ov != 0:
                                lb = ov & -ov
                                if lb > mlo:
                                    mlo = lb
                    under = (mlo - 1) if mlo != 0 else 0  # nobody else holds the suit: every lead wins
                    nm = emit_run(moves, base, nm, v & under, sh, 50 * 64 + tie, 1, 0)
                    nm = emit_run(moves, base, nm, v & ~under, sh, 30 * 64 + tie, -1, 0)
                else:
                    nm = emit_run(moves, base, nm, v, sh, 30 * 64 + tie, 1, 0)
            elif not maxing:
                # the others lead: suits their side rules, which the seat must follow
                if ruff:
                    nm = emit_run(moves, base, nm, v, sh, 5 * 64 + tie, -1, 2)  # the seat would ruff
                elif side_top > seat_top:
                    if (v >> side_top) & 1 != 0:
                        nm = insert_move(moves, base, nm, sh + side_top, (60 + side_top) * 64 + tie + side_top)
                        v &= ~(1 << side_top)
                    nm = emit_run(moves, base, nm, v, sh, 45 * 64 + tie, -1, 1)
                else:
                    nm = emit_run(moves, base, nm, v, sh, (20 + slen) * 64 + tie, -1, 1)
            else:
                # the seat leads: cash a top card; else a trump, the highest first (drawing the others' trumps
                # shrinks their ruffs and the proof); then a top card they can ruff; then the longest suit
                # nobody can ruff, the highest card first
                top = (v >> (oth_top + 1)) << (oth_top + 1)
                nm = emit_run(moves, base, nm, top, sh, (40 if ruff else 60 + slen) * 64 + tie, 0, 0)
                if suit == trump:
                    nm = emit_run(moves, base, nm, v & ~top, sh, 45 * 64 + tie, 1, 1)
                else:
                    nm = emit_run(moves, base, nm, v & ~top, sh, (20 + slen - (15 if ruff else 0)) * 64 + tie, 1, 1)
        return nm
    btr = suit_of(bc) == trump
    present |= 1 << bc
    # the mover wants "good" tricks (won by the seat; in minimum tricks won by the others) when maximising; each
    # card's score is linear in its rank within its class, one line for the cards that beat the trick's winning
    # card so far and one for the others (set per node; a ruff adds r1 / r0)
    on_good = ((ws == seat) != mis) == maxing  # the trick already goes the mover's way
    last = tlen == n - 1
    r1 = 0
    if on_good and ((seat - leader) % n) < tlen:  # a partner wins it already: duck first
        a1 = 40
        s1 = -1
    elif not mis:  # winning the trick is what the mover wants
        if maxing and not last:
            a1 = 70  # the seat, with players after it: its highest winner
            s1 = 1
        else:
            a1 = 80 if last else 70  # the cheapest winner
            s1 = -1
            r1 = -5
    elif not maxing and ((seat - leader) % n) < tlen:  # the seat has lost this trick already: shed the highest
        a1 = 30
        s1 = 1
    else:
        a1 = 5
        s1 = -1 if maxing and not last else 1  # the seat must win with players after it: its lowest winner
    a0 = 60 if on_good else 30
    s0 = 1 if mis else -1
    r0 = -10 if not on_good and not mis else 0
    above = LANE & ~((2 << (bc - 13 * suit_of(bc))) - 1)  # the ranks above the winning card
    lv = (legal >> (13 * led)) & LANE
    if lv != 0:  # following suit: one suit, no ruff
        win = above if led == trump or not btr else 0
        return emit_classes(moves, base, 0, run_heads(lv, (present >> (13 * led)) & LANE), win, 13 * led,
                            (3 - led) * 16, a1, s1, a0, s0)
    for suit in range(4):
        sh = 13 * suit
        lv = (legal >> sh) & LANE
        if lv == 0:
            continue
        v = run_heads(lv, (present >> sh) & LANE)
        if suit == trump:  # a ruff (the suit led is not trumps: the mover is void in it)
            nm = emit_classes(moves, base, nm, v, above if btr else LANE, sh, (3 - suit) * 16, a1 + r1, s1, a0 + r0,
                              s0)
        else:  # a discard: it beats nothing
            bonus = 0
            if mis and maxing:  # the seat sheds first from a suit where another hand holds a card under its lowest
                sv = (hands[seat] >> sh) & LANE
                ov = ((present & ~hands[seat]) >> sh) & LANE
                if ov != 0 and (ov & -ov) < (sv & -sv):
                    bonus = 13
            nm = emit_run(moves, base, nm, v, sh, (a0 + bonus) * 64 + (3 - suit) * 16, s0, 0)
    return nm


@jit_inline_per_type
def emit_run(moves: Any, base: int, nm: int, v: int, sh: int, k0: int, s: int, q: int) -> int:
    """Insert the cards ``sh + r`` for the ranks ``r`` in ``v`` with the keys ``k0 + 64 * s * (r >> q) + r`` (a score
    ``s * (r >> q)`` above the one in ``k0``, ties to the higher rank) into the ``nm`` moves at ``moves[base:]``
    (:func:`insert_move`), the low ranks first when ``s < 0`` (the keys then mostly fall: few moves shifted);
    return the new count."""
    if s < 0:
        while v != 0:
            r = int(low_bit(v))
            v &= v - 1
            nm = insert_move(moves, base, nm, sh + r, k0 + 64 * s * (r >> q) + r)
    else:
        while v != 0:
            r = int(high_bit(v))
            v &= ~(1 << r)
            nm = insert_move(moves, base, nm, sh + r, k0 + 64 * s * (r >> q) + r)
    return nm


@jit_inline_per_type
def emit_classes(moves: Any, base: int, nm: int, v: int, win: int, sh: int, tie: int, a1: int, s1: int, a0: int,
                 s0: int) -> int:
    """:func:`emit_run` for the cards of ``v`` in ``win`` (score ``a1 + s1 * rank``) and the others (``a0 + s0 *
    rank``); ``tie`` orders equal scores (earlier suits, then higher ranks, first)."""
    nm = emit_run(moves, base, nm, v & win, sh, a1 * 64 + tie, s1, 0)
    return emit_run(moves, base, nm, v & ~win, sh, a0 * 64 + tie, s0, 0)


# frame fields of the iterative search
F_TLEN, F_LEADER, F_TARGET, F_REM, F_TN, F_TO, F_H, F_J, F_NM, F_IDX, F_K0, F_K1, F_K2, F_CHK = range(14)
F_PH, F_OPEN, F_OCAP, F_OLIMD = range(14, 18)  # probing: the phase (0 none), the cards not yet refuted, the outer cap
F_LED, F_BC, F_WS = range(18, 21)  # in the middle of a trick: the suit led, the card winning it so far and its seat
FRAME = 21
MOVES_PER_DEPTH = 40


@jit
def tt_probe(tt: Any, idx: int, k0: int, k1: int, k2: int, chk: int) -> int:
    """The bounds word (``lower | upper << 8``) of the entry with key ``k0, k1, k2`` (check bits ``chk``, see
    :func:`tt_index`) in bucket ``idx``, ``-1`` if the bucket does not hold it.

    An entry is its three key words and ``lower | upper << 8 | chk << 16 | generation << GEN_SHIFT``. Threads
    sharing the table write entries word by word, so one may be torn: words from two stores. Words of two stores
    of the same key are each valid for it; an entry mixed from two different keys matches neither of them nor the
    mixed key, as the check bits (a 35-bit hash of the whole key) must agree too - except for a hash collision.
    """
    b = idx * (TT_WORDS * TT_WAYS)
    if tt[b] == k0 and tt[b + 1] == k1 and tt[b + 2] == k2 and ((tt[b + 3] >> 16) & CHK_MASK) == chk:
        return int(tt[b + 3] & 0xFFFF)
    if tt[b + 4] == k0 and tt[b + 5] == k1 and tt[b + 6] == k2 and ((tt[b + 7] >> 16) & CHK_MASK) == chk:
        return int(tt[b + 7] & 0xFFFF)
    return -1


@jit_inline
def key_cards(k1: int, k2: int) -> int:
    """The cards in play in the position of table key words ``k1, k2`` (:func:`pos_key`: the suit lengths)."""
    return ((k1 >> 52) & 15) + ((k1 >> 56) & 15) + ((k2 >> 52) & 15) + ((k2 >> 56) & 15)


@jit
def tt_store(tt: Any, idx: int, k0: int, k1: int, k2: int, chk: int, target: int, remaining: int,
             result: bool, gen: int) -> None:
    """Record in bucket ``idx`` that the maximiser can (``result``) or cannot reach ``target`` in the position
    with key ``k0, k1, k2`` (check bits ``chk``), in the search of generation ``gen`` (0..``GEN_MASK``). A new key
    goes first in the bucket, the entry there moving second (the older second one is dropped), unless the first
    entry is of this generation and of a position with more cards in play (a bigger subtree to search again):
    then the new key takes the second place. The entry is written whole (:func:`tt_probe`)."""
    b = idx * (TT_WORDS * TT_WAYS)
    w0 = tt[b + 3]
    if tt[b] == k0 and tt[b + 1] == k1 and tt[b + 2] == k2 and ((w0 >> 16) & CHK_MASK) == chk:
        e = b
        w = w0 & 0xFFFF
    elif tt[b + 4] == k0 and tt[b + 5] == k1 and tt[b + 6] == k2 and ((tt[b + 7] >> 16) & CHK_MASK) == chk:
        e = b + 4
        w = tt[b + 7] & 0xFFFF
    elif (w0 >> GEN_SHIFT) != gen or key_cards(k1, k2) >= key_cards(tt[b + 1], tt[b + 2]):
        tt[b + 4] = tt[b]
        tt[b + 5] = tt[b + 1]
        tt[b + 6] = tt[b + 2]
        tt[b + 7] = w0
        e = b
        w = remaining << 8
    else:
        e = b + 4
        w = remaining << 8
    lo = w & 0xFF
    hi = w >> 8
    if result:
        if target > lo:
            lo = target
    elif target - 1 < hi:
        hi = target - 1
    tt[e] = k0
    tt[e + 1] = k1
    tt[e + 2] = k2
    tt[e + 3] = lo | (hi << 8) | (chk << 16) | (gen << GEN_SHIFT)


@jit_inline
def push_child(hands: Any, n: int, frames: Any, b: int, to: int, c: int, tk: Any, tlen: int, trump: int, seat: int,
               mis: bool) -> None:
    """Play card ``c`` for ``to`` in the node whose frame starts at ``b`` and set up the child frame after it."""
    leader = frames[b + F_LEADER]
    target = frames[b + F_TARGET]
    remaining = frames[b + F_REM]
    tn = frames[b + F_TN]
    tbase = tn * 4
    hands[to] = frames[b + F_H] & ~(1 << c)
    tk[tbase + tlen] = c
    cb = b + FRAME
    if tlen == 0:
        led = suit_of(c)
        bc = c
        ws = to
    else:
        led = frames[b + F_LED]
        bc = frames[b + F_BC]
        ws = frames[b + F_WS]
        if beats(c, led, trump, bc, suit_of(bc) == trump):
            bc = c
            ws = to
    if tlen == n - 1:
        w = ws
        frames[cb + F_TLEN] = 0
        frames[cb + F_LEADER] = w
        frames[cb + F_TARGET] = target - (1 if (w == seat) != mis else 0)
        frames[cb + F_REM] = remaining - 1
        frames[cb + F_TN] = tn + 1
    else:
        frames[cb + F_TLEN] = tlen + 1
        frames[cb + F_LEADER] = leader
        frames[cb + F_TARGET] = target
        frames[cb + F_REM] = remaining
        frames[cb + F_TN] = tn
        frames[cb + F_LED] = led
        frames[cb + F_BC] = bc
        frames[cb + F_WS] = ws


@jit
def pos_key(hands: Any, n: int, leader: int, cfg: int) -> Any:
    """``(k0, k1, k2)``: the table key of the trick-start position ``hands``, ``leader`` to lead, under the
    configuration bits ``cfg`` (bits 54..61). The hands are taken in relative ranks (in each suit the remaining
    cards renumbered from the lowest, so positions equal up to the cards already played share the key) and
    packed tight: the relative-rank bits of each suit, one suit after the other, in bits 0..51 - seat 0's in
    ``k0``, seat 1's in ``k1``, seat 2's in ``k2`` with four players (the last seat holds the rest); the suit
    lengths (4 bits each) in bits 52..59 of ``k1`` (suits 0, 1) and ``k2`` (suits 2, 3); the leader in bits
    52..53 of ``k0``. Every word stays below ``2**62``."""
    if FAST_BMI2:  # the compress of a whole hand by the cards in play packs it suit after suit
        allm = hands[0] | hands[1] | hands[2] | hands[3]
        k0 = pext64(hands[0], allm)
        k1 = pext64(hands[1], allm)
        k2 = pext64(hands[2], allm) if n == 4 else 0
        for suit in range(4):
            ln = int(popcount64((allm >> (13 * suit)) & LANE))
            if suit < 2:
                k1 |= ln << (52 + 4 * suit)
            else:
                k2 |= ln << (44 + 4 * suit)
        return k0 | (leader << 52) | cfg, k1, k2
    k0 = 0
    k1 = 0
    k2 = 0
    p = 0
    for suit in range(4):
        sh = 13 * suit
        a0 = (hands[0] >> sh) & LANE
        a1 = (hands[1] >> sh) & LANE
        a2 = (hands[2] >> sh) & LANE
        allb = a0 | a1 | a2 | ((hands[3] >> sh) & LANE)
        k0 |= rel_suit(a0, allb) << p
        k1 |= rel_suit(a1, allb) << p
        if n == 4:
            k2 |= rel_suit(a2, allb) << p
        ln = int(popcount64(allb))
        p += ln
        if suit < 2:
            k1 |= ln << (52 + 4 * suit)
        else:
            k2 |= ln << (44 + 4 * suit)
    return k0 | (leader << 52) | cfg, k1, k2


@jit
def key_hash(k0: int, k1: int, k2: int) -> int:
    """A hash of the table key ``k0, k1, k2`` below ``2**56`` (every product stays below it: no overflow)."""
    hsh = ((k0 ^ (k0 >> 31)) & M32) * 16777619
    hsh = ((hsh ^ k1 ^ (k1 >> 29)) & M32) * 16777619
    hsh = ((hsh ^ k2 ^ (k2 >> 27)) & M32) * 16777619
    return hsh ^ (hsh >> 23)


@jit
def tt_index(hands: Any, n: int, leader: int, cfg: int, tt_mask: int) -> Any:
    """``(idx, k0, k1, k2, chk)``: the table bucket, the key words (:func:`pos_key`) and the check bits of the
    trick-start position ``hands``, ``leader`` to lead, under the configuration bits ``cfg``: the low bits of
    :func:`key_hash` pick the bucket, its bits from ``CHK_SHIFT`` up are the check bits (:func:`tt_probe`)."""
    k0, k1, k2 = pos_key(hands, n, leader, cfg)
    hsh = key_hash(k0, k1, k2)
    return hsh & tt_mask, k0, k1, k2, hsh >> CHK_SHIFT


@jit_inline
def etc_cut(hands: Any, n: int, led: int, bc: int, ws: int, to: int, trump: int, seat: int, mis: bool,
            target: int, cfg: int, tt: Any, tt_mask: int, moves: Any, mb: int, nm: int) -> bool:
    """Enhanced transposition cutoff at the last card of a trick (led in suit ``led``, won so far by card ``bc`` of
    seat ``ws``): does the table already show that one of the ``nm`` cards in ``moves[mb::2]`` completes a trick
    into a position that is decided the mover's way? ``hands`` is left as it was."""
    h = hands[to]
    maxing = to == seat
    btr = suit_of(bc) == trump
    for j in range(nm):
        c = moves[mb + 2 * j]
        hands[to] = h & ~(1 << c)
        w = to if beats(c, led, trump, bc, btr) else ws
        t = target - (1 if (w == seat) != mis else 0)
        idx, k0, k1, k2, chk = tt_index(hands, n, w, cfg, tt_mask)
        bw = tt_probe(tt, idx, k0, k1, k2, chk)
        if bw >= 0:
            if maxing:
                if (bw & 0xFF) >= t:
                    hands[to] = h
                    return True
            elif (bw >> 8) < t:
                hands[to] = h
                return True
    hands[to] = h
    return False


@jit_inline
def next_probe(frames: Any, b: int, refuted: bool) -> int:
    """The next card (index into the node's moves) a probing node searches, after its card ``frames[b + F_J]``
    came back ``refuted`` (taken out of the open cards ``frames[b + F_OPEN]``) or out of budget (left open);
    ``-1`` when every card is refuted. Phase 1: the first card within the first budget; if it ran out, phase 2: each other open card within
    the small budget; phase 3: the open cards in order, in full (the first one again first)."""
    jj = frames[b + F_J]
    op = frames[b + F_OPEN]
    if refuted:
        op &= ~(1 << jj)
        frames[b + F_OPEN] = op
    ph = frames[b + F_PH]
    if ph == 1 and (op >> jj) & 1 == 0:  # the first card was refuted within its budget: the rest in full
        frames[b + F_PH] = 3
        return -1 if op == 0 else int(low_bit(op))
    if ph == 1:
        ph = 2
    rest = op >> (jj + 1)
    if rest != 0:
        frames[b + F_PH] = ph
        return int(jj) + 1 + int(low_bit(rest))
    frames[b + F_PH] = 3
    if ph == 2 and op != 0:
        return int(low_bit(op))
    return -1


@jit
def killer_slot(remaining: int, target: int, leader: int) -> int:
    """The ``stats`` slot of the killer lead for a trick start with ``remaining`` tricks left (at most 17), the
    seat's ``target`` (1, 2, 3, or 4 and more: a lead that refutes "one more trick" seldom refutes three) and
    ``leader`` (0..3)."""
    return ST_KILLERS + 4 * (remaining + 18 * min(target - 1, 3)) + leader


@jit
def killer_word(kw: int, c: int) -> int:
    """The killer slot's word ``kw`` (``k1 | k2 << 6``: 1 + the last two leads that cut, 0 for none) after card
    ``c`` (0..51) cut: it goes first and the one it displaces second; the same card again changes nothing."""
    if c + 1 == (kw & 63):
        return kw
    return (c + 1) | ((kw & 63) << 6)


@jit_nonrt
def solve_bounds(hands: Any, n: int, trick0: Any, tlen0: int, leader0: int, trump: int, must_trump: int, must_over: int,
                 seat: int, misere: int, lo: int, hi: int, remaining0: int,
                 tt: Any, tt_mask: int, moves: Any, frames: Any, tk: Any, stats: Any, shared: Any,
                 out: Any, guess: int) -> None:
    """Narrow ``lo..hi`` (the tricks ``seat``, against the others together, makes of the ``remaining0`` left,
    the trick in progress counted; with ``misere``: has won by the others) by zero-window tests "can it make
    ``target0`` more?" until equal or the node budget runs out (or ``shared[0]`` is set); ``out[0], out[1]``
    receive the final bounds and ``out[2]`` the test to run next (the one cut short, when the budget ran out: a
    timed search's next slice goes on from it). The tests step by one trick from ``guess`` (as MTD(f) does from
    its first guess) while it stays inside the bounds, else bisect. The tests run in this one kernel, so that
    numba compiles the search once (docs/solver.md, "The first run").

    Each test is an iterative alpha-beta (explicit stack in ``frames``, ``FRAME`` words per depth) over the zero window
    ``target0``: ``tt`` (``tt_mask + 1`` buckets of ``TT_WAYS`` entries of ``TT_WORDS`` words: 3 key words
    (:func:`pos_key`) and the bounds word, a lower and an upper bound, check bits and the generation of the
    search that stored it, ``stats[ST_GEN]``, see :func:`tt_store`; a bucket is one cache line) is the
    transposition table of trick-start positions keyed by relative ranks and the solver's configuration; at
    a trick start the trump and quick-trick bounds, then the table may decide the node (the table's line is
    prefetched while the bounds are computed); in the middle of a trick the seat has not played to,
    :func:`seat_takes_trick` or :func:`trumps_reach` (:func:`seat_ducks_trick` in minimum tricks) may, and
    :func:`trumps_reach` in one it has played to;
    ``moves`` holds ``MOVES_PER_DEPTH`` slots per depth, ``tk`` 4 slots per trick; ``stats`` counts nodes
    and carries the node budget and the abort flag. ``hands`` is restored on return (also on abort).

    Probing: a node with at least ``stats[ST_PROBE]`` tricks left searches its first card within
    ``stats[ST_PFIRST]`` nodes; if it runs out, each other card within ``stats[ST_POTHER]`` (a card that cuts
    ends the node, one refuted is done), then the cards still open in full. A card out of budget aborts its
    subtree (``stats[ST_ABORT] = 2`` unwinds to the node that set the budget, ``stats[ST_LIMD]``; nothing of the
    aborted path is stored, what it completed below is). The innermost budget in force is ``stats[ST_CAP]``.

    Threads (Lazy SMP): several searches may share ``tt`` (an entry torn by two of them matches no key, see
    :func:`tt_probe`); each has its own ``moves``, ``frames``, ``tk``, ``stats``. A search aborts (as on its
    budget) within 1,024 nodes once ``shared[0]`` is non-zero. Helper ``k`` (``stats[ST_ROT]`` = ``k`` >= 1,
    ``stats[ST_HELPER]`` = ``r`` > 0) orders the cards of every node with at least ``r`` tricks left
    differently: the first card stays first, the others are rotated by ``k`` (the second goes last for the
    first helper), so that the threads prove the other cards of a node in different orders and share the
    results through the table.
    """
    mis = misere != 0
    etc_min = stats[ST_ETC]
    helper = stats[ST_HELPER]
    rot = stats[ST_ROT]
    gen = stats[ST_GEN]
    cfg = (seat | (misere << 2) | ((trump + 1) << 3) | (must_trump << 6) | (must_over << 7)) << 54
    g = guess
    target0 = g if lo < g <= hi else (lo + hi + 1) // 2
    for i in range(tlen0):
        tk[i] = trick0[i]
    frames[F_TLEN] = tlen0
    frames[F_LEADER] = leader0
    frames[F_TARGET] = target0
    frames[F_REM] = remaining0
    frames[F_TN] = 0
    if tlen0 > 0:
        wi = winner_at(tk, 0, tlen0, trump)
        frames[F_LED] = tk[0] // 13
        frames[F_BC] = tk[wi]
        frames[F_WS] = (leader0 + wi) % n
    stats[ST_CAP] = stats[ST_BUDGET]
    stats[ST_LIMD] = -1
    probe_min = stats[ST_PROBE]
    d = 0
    entering = lo < hi
    val = False
    while lo < hi:
        if entering:
            b = d * FRAME
            tlen = frames[b + F_TLEN]
            leader = frames[b + F_LEADER]
            target = frames[b + F_TARGET]
            remaining = frames[b + F_REM]
            tn = frames[b + F_TN]
            decided = -1
            idx = -1
            k0 = 0
            k1 = 0
            k2 = 0
            chk = 0
            if target <= 0:
                decided = 1
            elif target > remaining:
                decided = 0
            else:
                stats[ST_NODES] += 1
                if stats[ST_NODES] > stats[ST_CAP] or ((stats[ST_NODES] & 1023) == 0 and shared[0] != 0):
                    # a probe's budget (unwind to the node that set it), else the search's budget or the stop flag
                    if stats[ST_LIMD] >= 0 and stats[ST_NODES] <= stats[ST_BUDGET] and shared[0] == 0:
                        stats[ST_ABORT] = 2
                    else:
                        stats[ST_ABORT] = 1
                    decided = 0
                elif tlen != 0:
                    # the seat, still to play to this trick, takes it for sure and then has enough sure tricks;
                    # in minimum tricks, needing one more trick taken by the others, it can play under the winner
                    # (also as the last to play: the check costs less than generating the moves and entering the
                    # trick start after them)
                    sp = (seat - leader) % n
                    if sp >= tlen and (must_over == 0 or sp == tlen):
                        if mis:
                            if target <= 1 and seat_ducks_trick_bc(hands, seat, trump, must_trump, must_over,
                                                                   frames[b + F_LED], frames[b + F_BC]):
                                stats[ST_TAKES] += 1
                                decided = 1
                            elif trump < 0 and seat_ducks_out(hands, n, tk, tn * 4, tlen, seat):
                                stats[ST_TAKES] += 1
                                decided = 1
                            elif trump < 0 and target <= 1 + (remaining - 1) // 2 and \
                                    target <= seat_exits_after(hands, n, tlen, leader, seat, frames[b + F_LED],
                                                               frames[b + F_BC], frames[b + F_WS], remaining - 1):
                                # it surely loses this trick, and its exits after it lose the rest asked (the
                                # count is at most one more than half the tricks after this one)
                                stats[ST_TAKES] += 1
                                decided = 1
                        elif seat_takes_trick_bc(hands, n, tlen, leader, seat, trump, must_trump, must_over, target,
                                                 frames[b + F_LED], frames[b + F_BC]):
                            stats[ST_TAKES] += 1
                            decided = 1
                        elif trump >= 0 and trumps_reach(hands, n, seat, trump, target, must_trump, must_over,
                                                         frames[b + F_LED], frames[b + F_BC], False):
                            stats[ST_TAKES] += 1
                            decided = 1
                    elif mis and trump < 0 and sp < tlen and target <= 1 + (remaining - 1) // 2 and \
                            target <= seat_exits_after(hands, n, tlen, leader, seat, frames[b + F_LED],
                                                       frames[b + F_BC], frames[b + F_WS], remaining - 1):
                        # minimum tricks: the seat has played to this trick and surely loses it, and its exits after
                        # it lose the rest asked
                        stats[ST_TAKES] += 1
                        decided = 1
                    elif not mis and trump >= 0 and sp < tlen and \
                            trumps_reach(hands, n, seat, trump, target, must_trump, must_over, 0, 0, True):
                        # the seat has played to this trick: its trump counts after it hold already
                        stats[ST_TAKES] += 1
                        decided = 1
                else:
                    if remaining == 1:
                        w = last_trick_winner(hands, n, leader, trump)
                        decided = 1 if (w == seat) != mis else 0
                    else:
                        idx, k0, k1, k2, chk = tt_index(hands, n, leader, cfg, tt_mask)
                        prefetch(tt, idx * (TT_WORDS * TT_WAYS))
                        if mis:
                            # minimum tricks: needing one more trick taken by the others, the seat surely loses this
                            # one; or it surely loses every trick left (the target is not above them); or, on
                            # lead, it surely wins them all (the target is at least 1); or its exits lose enough
                            if trump < 0:
                                if target <= 1 and seat_ducks_lead(hands, n, leader, seat):
                                    stats[ST_TAKES] += 1
                                    decided = 1
                                elif seat_loses_out(hands, n, leader, seat):
                                    stats[ST_TAKES] += 1
                                    decided = 1
                                elif leader == seat and seat_wins_out(hands, n, seat):
                                    stats[ST_TAKES] += 1
                                    decided = 0
                        else:
                            # cashing the leader's side-suit winners plays no trump: the trump bounds add to it
                            decided = start_bounds(hands, n, leader, seat, trump, remaining, target,
                                                   must_trump | must_over)
                        if decided < 0:
                            bw = tt_probe(tt, idx, k0, k1, k2, chk)
                            if bw >= 0:
                                stats[ST_TTHITS] += 1
                                if (bw & 0xFF) >= target:
                                    decided = 1
                                elif (bw >> 8) < target:
                                    decided = 0
                        if decided < 0 and mis and trump < 0 and target <= seat_exit_losses(hands, n, leader, seat,
                                                                                             remaining):
                            # the seat's exits lose enough (after the table: the count costs more than a look-up)
                            stats[ST_TAKES] += 1
                            decided = 1
            if decided >= 0:
                val = decided == 1
                entering = False
            else:
                to = (leader + tlen) % n
                led = frames[b + F_LED]
                bc = frames[b + F_BC]
                ws = frames[b + F_WS]
                nm = gen_moves(hands, n, tlen, leader, led, bc, ws, to, trump, must_trump, must_over, seat,
                               misere, moves, d * MOVES_PER_DEPTH)
                if tlen == n - 1 and remaining >= etc_min and nm > 1 and \
                        etc_cut(hands, n, led, bc, ws, to, trump, seat, mis, target, cfg, tt, tt_mask, moves,
                                d * MOVES_PER_DEPTH, nm):
                    stats[ST_ETCCUTS] += 1
                    val = to == seat
                    entering = False
                    continue
                mb0 = d * MOVES_PER_DEPTH
                if tlen > 0 and to == seat and not mis and tlen < n - 1 and nm > 1:
                    # the seat with players after it: its cheapest sure winner first (a higher winner spends a card it
                    # may need later)
                    kc = sure_winner(hands, n, tlen, leader, seat, trump, must_trump, must_over, led, bc)
                    if kc >= 0 and kc != moves[mb0]:
                        move_first(moves, mb0, nm, kc)
                elif tlen > 0 and to != seat and not mis and tlen < n - 1 and nm > 1 and \
                        (seat - leader) % n > tlen and \
                        can_beat(hands[seat], led, bc, trump):
                    # an opponent with the seat after it, the trick's winner so far beatable by the seat: first its
                    # cheapest card that beats the winner and whatever the seat can play (instead of a duck under a
                    # partner's card that the seat then beats, or a winner the seat overtakes)
                    kc = sure_winner(hands, n, tlen, leader, to, trump, must_trump, must_over, led, bc, 1 << seat)
                    if kc >= 0 and kc != moves[mb0]:
                        move_first(moves, mb0, nm, kc)
                if tlen == 0 and nm > 1:
                    # the killer leads first: the last two cards that decided a trick start with as many tricks left,
                    # the same leader and target (up to 4), the later first, when they are cards of this node (leads
                    # matter most: a wrong first lead costs a whole subtree; in the trick the static order is better
                    # than any killer)
                    kw = stats[killer_slot(remaining, target, to)]
                    kc = (kw >> 6) - 1
                    if kc >= 0 and kc != moves[mb0]:
                        move_first(moves, mb0, nm, kc)
                    kc = (kw & 63) - 1
                    if kc >= 0 and kc != moves[mb0]:
                        move_first(moves, mb0, nm, kc)
                if helper > 0 and nm > 2 and remaining >= helper:
                    for _ in range(rot % (nm - 1)):  # the cards only: the scores are not read after this
                        c2 = moves[mb0 + 2]
                        for j2 in range(1, nm - 1):
                            moves[mb0 + 2 * j2] = moves[mb0 + 2 * j2 + 2]
                        moves[mb0 + 2 * (nm - 1)] = c2
                frames[b + F_TO] = to
                frames[b + F_H] = hands[to]
                frames[b + F_J] = 0
                frames[b + F_NM] = nm
                frames[b + F_IDX] = idx
                frames[b + F_K0] = k0
                frames[b + F_K1] = k1
                frames[b + F_K2] = k2
                frames[b + F_CHK] = chk
                frames[b + F_PH] = 0
                if remaining >= probe_min and nm > 1:
                    # probing (high in the tree): the first card gets a node budget; if it runs out, every other
                    # card is tried with a small one (a cheap cutoff ends the node), then the open cards in full
                    frames[b + F_PH] = 1
                    frames[b + F_OPEN] = (1 << nm) - 1
                    frames[b + F_OCAP] = stats[ST_CAP]
                    frames[b + F_OLIMD] = stats[ST_LIMD]
                    lim = stats[ST_NODES] + stats[ST_PFIRST]
                    if lim < stats[ST_CAP]:
                        stats[ST_CAP] = lim
                        stats[ST_LIMD] = d
                push_child(hands, n, frames, b, to, moves[d * MOVES_PER_DEPTH], tk, tlen, trump, seat, mis)
                d += 1
                continue
        # ---- a node at depth d is decided with value val: hand it to its parent
        if d == 0:
            if stats[ST_ABORT] != 0:
                break
            if val:
                lo = target0
                g = target0 + 1
            else:
                hi = target0 - 1
                g = target0 - 1
            target0 = g if lo < g <= hi else (lo + hi + 1) // 2
            frames[F_TARGET] = target0
            stats[ST_CAP] = stats[ST_BUDGET]
            stats[ST_LIMD] = -1
            entering = True
            continue
        d -= 1
        b = d * FRAME
        to = frames[b + F_TO]
        hands[to] = frames[b + F_H]
        open_ = False  # the child ran out of this node's probe budget: neither cut nor refuted
        if stats[ST_ABORT] != 0:
            if stats[ST_ABORT] == 2 and stats[ST_LIMD] == d:
                stats[ST_ABORT] = 0
                open_ = True
            else:
                continue  # unwind, restoring the hands
        tlen = frames[b + F_TLEN]
        maxing = to == seat
        if frames[b + F_PH] != 0:
            if open_ or val != maxing:
                j = next_probe(frames, b, not open_)
                if j >= 0:
                    frames[b + F_J] = j
                    stats[ST_CAP] = frames[b + F_OCAP]
                    stats[ST_LIMD] = frames[b + F_OLIMD]
                    if frames[b + F_PH] == 2:
                        lim = stats[ST_NODES] + stats[ST_POTHER]
                        if lim < stats[ST_CAP]:
                            stats[ST_CAP] = lim
                            stats[ST_LIMD] = d
                    push_child(hands, n, frames, b, to, moves[d * MOVES_PER_DEPTH + 2 * j], tk, tlen, trump, seat, mis)
                    d += 1
                    entering = True
                    continue
                val = not maxing  # every card refuted
            stats[ST_CAP] = frames[b + F_OCAP]
            stats[ST_LIMD] = frames[b + F_OLIMD]
        elif val != maxing:
            j = frames[b + F_J] + 1
            if j < frames[b + F_NM]:
                frames[b + F_J] = j
                push_child(hands, n, frames, b, to, moves[d * MOVES_PER_DEPTH + 2 * j], tk, tlen, trump, seat, mis)
                d += 1
                entering = True
                continue
            val = not maxing  # every card refuted
        # the node is decided with value val (a cut, or every card refuted)
        if val == maxing and tlen == 0:
            ks = killer_slot(frames[b + F_REM], frames[b + F_TARGET], to)
            stats[ks] = killer_word(stats[ks], moves[d * MOVES_PER_DEPTH + 2 * frames[b + F_J]])
        if frames[b + F_IDX] >= 0:
            tt_store(tt, frames[b + F_IDX], frames[b + F_K0], frames[b + F_K1], frames[b + F_K2],
                     frames[b + F_CHK], frames[b + F_TARGET], frames[b + F_REM], val, gen)
    out[0] = lo
    out[1] = hi
    out[2] = g


#: The kernels :func:`sergeant_major.search.solver.warm_up` compiles before :func:`solve_bounds` with an empty numba
#: cache, shared between two processes: this one takes them from the first (the play-outs of the search's first
#: guess), a second process from the last (the largest), each the next one the other has not claimed; then this one
#: compiles :func:`solve_bounds`, loading the other's from numba's on-disk cache.
WARM_UP_KERNELS = (playouts, seat_takes_trick_bc, seat_ducks_out, seat_loses_out, seat_ducks_lead, seat_wins_out,
                   exit_cycles, seat_exit_losses, seat_ducks_trick_bc, last_trick_winner, tt_index, killer_slot, killer_word, next_probe, push_child,
                   tt_store, tt_probe, etc_cut, start_bounds, gen_moves)
