"""Error rates of a transcript against its reference: WER, CER for Japanese."""
import unicodedata


def normalize_words(text):
    """
    >>> normalize_words("Ask not — what YOUR country can do!")
    ['ask', 'not', 'what', 'your', 'country', 'can', 'do']
    """
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(" " if unicodedata.category(c)[0] in "PS" else c for c in text)
    return text.split()


def edit_distance(a, b):
    """
    >>> edit_distance("kitten", "sitting"), edit_distance([], ["a"]), edit_distance("ab", "ab")
    (3, 1, 0)
    """
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def error_rate(reference, hypothesis, lang):
    """WER; for Japanese the character error rate (no spaces, no punctuation).

    >>> error_rate("Ask not what your country can do.", "ask not what you country can do", "en")
    0.143
    >>> error_rate("東京へ行きます。", "東京に行きます", "ja")
    0.143
    >>> error_rate("", "", "en"), error_rate("a b", "", "fr")
    (0.0, 1.0)
    """
    ref, hyp = normalize_words(reference), normalize_words(hypothesis)
    if lang == "ja":
        ref, hyp = list("".join(ref)), list("".join(hyp))
    return round(edit_distance(ref, hyp) / max(1, len(ref)), 3)
