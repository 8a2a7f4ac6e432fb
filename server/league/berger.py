"""Berger tables (the circle method) for a single round robin, by positions 0 … count-1.

The last position of an even table stays put while the others rotate; it alternates home and
away, and every other pair takes home by the parity of its distance from the rotating centre. In the
resulting table every position alternates home and away with at most one break (two in a row), and
the positions of each couple (0 with the last, 1 with 2, 3 with 4, …) are complementary: whenever one
is at home the other is away. An odd count plays the even table of count + 1, the last position
being the bye: its pairs are dropped and then every position alternates strictly."""


def rounds(count: int) -> list[list[tuple[int, int]]]:
    """The rounds of a single round robin of `count` positions, each a list of (home, away)."""
    size = count + count % 2
    rotating = size - 1
    table = []
    for k in range(rotating):
        pairs = [(rotating, k) if k % 2 else (k, rotating)]
        for i in range(1, size // 2):
            ahead, behind = (k + i) % rotating, (k - i) % rotating
            pairs.append((ahead, behind) if i % 2 else (behind, ahead))
        table.append([(home, away) for home, away in pairs if max(home, away) < count])
    return table


def couples(count: int) -> list[tuple[int, int]]:
    """The couples of positions never at home in the same round (0 with the last of an even table,
    then 1 with 2, 3 with 4, …); with an odd count position 0 is in no couple (its partner is the bye)."""
    size = count + count % 2
    pairs = [(i, i + 1) for i in range(1, size - 1, 2)]
    return ([(0, size - 1)] if count % 2 == 0 else []) + pairs
