"""Scoring: onsets read off a light level, onset F-measure, drum hits lit live, envelope tracking."""
import math
import numpy as np
import mir_eval
from scipy.stats import spearmanr

RISE = 0.1                                  # of full scale: what counts as a light going up
LIT_WITHIN = 0.05                           # s after the physical onset
SEARCH = 0.15                               # s after the onset searched for the peak of the rise


def level_onsets(times, levels, rise=RISE):
    """Onsets of a light that has no onsets of its own: the first frame of each non-falling run of frames whose
    level climbs at least `rise` above the frame before the run. A fall of more than 0.005 ends a run."""
    found, start = [], None
    for i in range(1, len(levels)):
        if levels[i] > levels[i - 1] + 0.005:
            if start is None:
                start = i - 1
            if levels[i] - levels[start] >= rise and (not found or found[-1][1] != start):
                found.append((times[start + 1], start))
        elif levels[i] < levels[i - 1] - 0.005:
            start = None
    return np.array([t for t, _ in found])


def f_measure(reference, estimated):
    if len(reference) == 0:
        return float("nan")
    f, _, _ = mir_eval.onset.f_measure(np.asarray(reference), np.asarray(estimated, dtype=float), window=0.05)
    return f


def hits(frames, band, drum_hits):
    """Each drum hit (physical onset s, end of its search s, monotonic time its 10 ms chunk was written) against
    live frames [(t, arrival, levels)]. The hit's base is the light of the last frame whose `t` (audio time of the
    newest sample it measured) is at or before the onset; it is lit when a later frame is at least 0.1 higher
    within 50 ms: on the audio timeline `t` - onset, on the wall clock arrival - write. Delay: to the first frame
    at half the rise, the rise's peak taken within 150 ms or up to the end of the search; inf when the light
    never rose by 0.1. Returns (lit audio, lit wall, delay audio, delay wall, base) per hit."""
    times = np.array([f[0] for f in frames])
    levels = np.array([f[2][band] for f in frames])
    results = []
    for onset, limit, written in drum_hits:
        first = int(np.searchsorted(times, onset, side="right"))
        base = levels[first - 1] if first > 0 else 0.0
        last = int(np.searchsorted(times, min(onset + SEARCH, limit), side="right"))
        window = range(first, max(first, last))
        risen = [i for i in window if levels[i] - base >= RISE - 1e-9]
        lit_audio = any(times[i] - onset <= LIT_WITHIN for i in risen)
        lit_wall = any(frames[i][1] - written <= LIT_WITHIN for i in risen)
        if not risen:
            results.append((lit_audio, lit_wall, math.inf, math.inf, base))
            continue
        peak = max(levels[i] for i in window)
        half = next(i for i in window if levels[i] >= base + (peak - base) / 2)
        results.append((lit_audio, lit_wall, times[half] - onset, frames[half][1] - written, base))
    return results


def percentile(values, q):
    """The q-th percentile (nearest rank), inf included: a hit that never lit is later than any that did."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def spearman(levels, ideal):
    r = spearmanr(levels, ideal).statistic
    return float(r)


def best_lag(levels, ideal_at, lags=np.arange(-0.020, 0.1005, 0.001)):
    """(r at zero lag, the lag with the highest r, that r): `ideal_at(lag)` gives the ideal at each frame's t − lag."""
    rs = [spearman(levels, ideal_at(lag)) for lag in lags]
    best = int(np.nanargmax(rs))
    return spearman(levels, ideal_at(0.0)), float(lags[best]), rs[best]
