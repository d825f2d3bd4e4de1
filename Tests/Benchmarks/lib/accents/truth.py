"""The truth about the rendered music: each note's physical onset and the bands it belongs to.

A MIDI note-on is not the sound. Each part is rendered alone; an event (a note, or the notes of a chord struck
together) starts where that part's 1 ms peak envelope first crosses 30% of the event's own rise (from the level
just before the note-on to the peak within 100 ms or the part's next event). An event whose rise is under 2% of
the part's loudest keeps its MIDI time plus the part's median correction (counted as `fallback`).

Bands: drums by instrument (kick → bass, snare → mid, hats → treble). A pitched event belongs to every band
holding at least 20% of the power it adds (its first 80 ms against the 50 ms before it), at the crossovers the
tools use."""
import statistics
import numpy as np
from audio import BANDS, RATE, band_shares, envelope_1ms
from songs import DRUM_BAND

SHARE = 0.2


class Event:
    def __init__(self, time, part, bands, drum, velocity):
        self.time, self.part, self.bands, self.drum, self.velocity = time, part, bands, drum, velocity

    def shifted(self, seconds):
        return Event(self.time + seconds, self.part, self.bands, self.drum, self.velocity)


def events(song, part, stereo):
    """The part's events with their physical onsets (s, song time) and bands; and how many fell back."""
    mono = stereo.mean(axis=1)
    env = envelope_1ms(mono)
    velocity = {}
    for n in part.notes:
        velocity[round(n[0], 6)] = max(velocity.get(round(n[0], 6), 0), n[3])
    starts = sorted(velocity)
    midi_times = [s * song.seconds_per_beat for s in starts]
    loudest = env.max() if len(env) else 0
    found, corrections, weak = [], [], []
    for i, m in enumerate(midi_times):
        following = midi_times[i + 1] if i + 1 < len(midi_times) else m + 0.1
        a, b = int(m * 1000), max(int(m * 1000) + 2, int(min(following, m + 0.1) * 1000))
        base = env[max(0, a - 5):max(1, a - 1)].mean() if a >= 2 else 0.0
        peak = env[a:b].max() if b <= len(env) and b > a else 0.0
        if peak - base < 0.02 * loudest:
            found.append(None)
            weak.append(i)
            continue
        threshold = base + 0.3 * (peak - base)
        lo = max(0, a - 2)
        onset_ms = lo + int(np.argmax(env[lo:b] >= threshold))
        found.append(onset_ms / 1000)
        corrections.append(onset_ms / 1000 - m)
    shift = statistics.median(corrections) if corrections else 0.0
    result = []
    for i, m in enumerate(midi_times):
        t = found[i] if found[i] is not None else m + shift
        if part.is_drum:
            bands = {DRUM_BAND[part.name]}
        else:
            nxt = midi_times[i + 1] if i + 1 < len(midi_times) else t + 1
            after = int(max(0.03, min(0.08, nxt - t)) * RATE)
            shares = band_shares(mono, int(t * RATE), int(0.05 * RATE), after)
            bands = {band for band, share in zip(BANDS, shares) if share >= SHARE}
            if not bands:
                bands = {BANDS[int(np.argmax(shares))]}
        result.append(Event(t, part.name, bands, part.is_drum, velocity[starts[i]]))
    return result, len(weak), corrections


def reference(all_events, band, merge=0.03):
    """Onset times for one band, merged within `merge` s (a kick and a bass note struck together are one onset)."""
    times = sorted(e.time for e in all_events if band in e.bands)
    merged = []
    for t in times:
        if not merged or t - merged[-1] > merge:
            merged.append(t)
    return np.array(merged)
