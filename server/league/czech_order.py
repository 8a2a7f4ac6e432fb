"""Names in Czech alphabetical order (ČSN 97 6030, its first two levels), the same on SQLite and
PostgreSQL whatever their collation: a roster, the teams of a season.

Č, Ř, Š, Ž and CH are letters of their own (C < Č < D, H < CH < I, R < Ř < S, S < Š < T, Z < Ž);
the other accents (á, ď, é, ě, í, ň, ó, ť, ú, ů, ý) only break a tie of the plain letters, the
first accented position deciding (Kanka < Kaňka < Kánka); case breaks the last tie. So Dvořák
follows every "Dvor…", and Černý no longer comes after Žák as in code-point order.
"""
import unicodedata

LETTERS = "a b c č d e f g h ch i j k l m n o p q r ř s š t u v w x y z ž".split()
_RANK = {letter: n for n, letter in enumerate(LETTERS)}


def czech_key(name: str) -> tuple:
    """The sort key of ``name``: ``sorted(names, key=czech_key)`` is Czech alphabetical order."""
    text = unicodedata.normalize("NFC", name)
    folded = text.lower()
    primary, secondary, i = [], [], 0
    while i < len(folded):
        if folded.startswith("ch", i):
            primary.append(_RANK["ch"])
            secondary.append(0)
            i += 2
            continue
        char = folded[i]
        base = unicodedata.normalize("NFD", char)[0]
        if char in _RANK:                       # a letter of the alphabet, č ř š ž included
            primary.append(_RANK[char])
            secondary.append(0)
        elif base in _RANK:                     # á é ě í ó ú ů ý ď ť ň: the plain letter, then the accent
            primary.append(_RANK[base])
            secondary.append(ord(char))
        elif char.isdigit():                    # digits before letters, spaces and signs before both
            primary.append(-10 + int(char) if char.isascii() else -10)
            secondary.append(ord(char))
        else:
            primary.append(-20 if char.isspace() else -15)
            secondary.append(ord(char))
        i += 1
    return tuple(primary), tuple(secondary), text
