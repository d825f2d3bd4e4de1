"""The benchmark's music, written here as MIDI: five grooves at different tempos (house, funk with ghost notes,
drum and bass, keys and a pad held over the snare, a busy bass line of its own), each with kick, snare and hats plus
pitched parts, and the sustained-tone cases. Bass notes land on kicks and chords on snares on purpose: those are the
hard cases. Fixed seeds, so every run writes the same files.

A song is a list of parts; a part is a name, a GM program (None for the drum kit on channel 10) and notes
(start beat, length in beats, MIDI key, velocity). Each drum sound is its own part so it can be rendered alone."""
import random
import mido

TICKS = 480
DRUMS = 9                                   # MIDI channel 10
KICK, SNARE, CLOSED_HAT, PEDAL_HAT, OPEN_HAT = 36, 38, 42, 44, 46
DRUM_BAND = {"kick": "bass", "snare": "mid", "hats": "treble"}


class Part:
    def __init__(self, name, program, notes, controls=()):
        self.name, self.program, self.notes = name, program, notes
        self.controls = list(controls)      # (beat, kind, value): kind "cc7", "cc11" or "bend"

    @property
    def is_drum(self):
        return self.program is None


class Song:
    def __init__(self, name, bpm, beats, parts):
        self.name, self.bpm, self.beats, self.parts = name, bpm, beats, parts

    @property
    def seconds_per_beat(self):
        return 60.0 / self.bpm

    def midi(self, only=None):
        """A type-1 file with every part, or only the part named `only`."""
        out = mido.MidiFile(ticks_per_beat=TICKS)
        tempo = mido.MidiTrack([mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(self.bpm), time=0)])
        out.tracks.append(tempo)
        channels = iter([c for c in range(16) if c != DRUMS])
        for part in self.parts:
            channel = DRUMS if part.is_drum else next(channels)
            if only is not None and part.name != only:
                continue
            out.tracks.append(_track(part, channel))
        return out


def _track(part, channel):
    events = []                             # (tick, order, message): note-offs before note-ons at the same tick
    if part.program is not None:
        events.append((0, 0, mido.Message("program_change", channel=channel, program=part.program)))
    for beat, kind, value in part.controls:
        tick = round(beat * TICKS)
        if kind == "bend":
            events.append((tick, 1, mido.Message("pitchwheel", channel=channel, pitch=value)))
        else:
            control = int(kind[2:])
            events.append((tick, 1, mido.Message("control_change", channel=channel, control=control, value=value)))
    for start, length, key, velocity in part.notes:
        on, off = round(start * TICKS), round((start + length) * TICKS)
        events.append((on, 2, mido.Message("note_on", channel=channel, note=key, velocity=velocity)))
        events.append((max(off, on + 1), 0, mido.Message("note_off", channel=channel, note=key, velocity=0)))
    events.sort(key=lambda e: (e[0], e[1]))
    track, now = mido.MidiTrack(), 0
    for tick, _, message in events:
        track.append(message.copy(time=tick - now))
        now = tick
    return track


def _vel(rng, base, spread=8):
    return max(1, min(127, base + rng.randint(-spread, spread)))


def _chord(start, length, keys, velocity):
    return [(start, length, k, velocity) for k in keys]


def house():
    """124 bpm, 8 bars: four-on-the-floor, snare on 2 and 4, off-beat open hats over 16th closed hats, an off-beat
    bass line that also lands on the one with the kick, electric-piano stabs on the snares."""
    rng, bars = random.Random(124), 8
    kick, snare, hats, bass, keys = [], [], [], [], []
    progression = [(33, [57, 60, 64, 67]), (38, [57, 62, 65, 69]), (31, [55, 59, 62, 67]), (28, [55, 59, 64, 67])]
    for bar in range(bars):
        b0 = bar * 4
        root, chord = progression[bar % 4]
        for beat in range(4):
            kick.append((b0 + beat, 0.25, KICK, _vel(rng, 112)))
            if beat in (1, 3):
                snare.append((b0 + beat, 0.25, SNARE, _vel(rng, 100)))
            hats.append((b0 + beat + 0.5, 0.25, OPEN_HAT, _vel(rng, 84)))
            for sixteenth in (0.25, 0.75):
                hats.append((b0 + beat + sixteenth, 0.1, CLOSED_HAT, _vel(rng, 62, 12)))
        # bass: the one (on the kick), then off-beats, an octave jump in the last beat
        bass.append((b0, 0.45, root, _vel(rng, 100)))
        for beat in range(4):
            bass.append((b0 + beat + 0.5, 0.4, root + (12 if beat == 3 else 0), _vel(rng, 96)))
        keys.extend(_chord(b0 + 1, 0.5, chord, _vel(rng, 84)))      # on the snare
        keys.extend(_chord(b0 + 2.5, 0.3, chord, _vel(rng, 72)))
        keys.extend(_chord(b0 + 3, 0.9, chord, _vel(rng, 80)))      # on the snare, held into the next bar
    return Song("house-124", 124, bars * 4, [
        Part("kick", None, kick), Part("snare", None, snare), Part("hats", None, hats),
        Part("bass", 33, bass), Part("keys", 4, keys)])


def funk():
    """90 bpm, 6 bars: syncopated kick, backbeat snare with quiet ghost notes, 16th hats with accents, a 16th-note
    finger-bass line sharing most kicks, electric-piano chords held across the snares, a short lead fill."""
    rng, bars = random.Random(90), 6
    kick, snare, hats, bass, keys, lead = [], [], [], [], [], []
    kick_steps = [0, 3, 6, 10, 11]                                  # 16th steps in the bar
    ghost_steps = [2, 7, 9, 14, 15]
    bass_line = [(0, 28), (3, 28), (6, 40), (7, 38), (10, 31), (11, 33), (14, 35)]
    chords = [[52, 55, 59, 62], [57, 60, 64, 67], [55, 59, 62, 65], [52, 55, 59, 62]]
    for bar in range(bars):
        b0 = bar * 4
        for step in kick_steps:
            kick.append((b0 + step / 4, 0.2, KICK, _vel(rng, 108)))
        for step in (4, 12):
            snare.append((b0 + step / 4, 0.2, SNARE, _vel(rng, 108)))
        for step in ghost_steps:
            if rng.random() < 0.8:
                snare.append((b0 + step / 4, 0.1, SNARE, _vel(rng, 38, 6)))
        for step in range(16):
            hats.append((b0 + step / 4, 0.1, CLOSED_HAT, _vel(rng, 88 if step % 4 == 2 else 58, 10)))
        for step, key in bass_line:
            bass.append((b0 + step / 4, 0.22, key + (0 if bar % 2 == 0 else 5), _vel(rng, 100)))
        chord = chords[bar % 4]
        keys.extend(_chord(b0 + 0.75, 0.5, chord, _vel(rng, 76)))
        keys.extend(_chord(b0 + 1, 1.2, chord, _vel(rng, 84)))     # on the snare, held over it
        keys.extend(_chord(b0 + 2.75, 1.0, chord, _vel(rng, 70)))  # held over the second snare
        if bar % 2 == 1:
            for i, key in enumerate([76, 79, 81, 79, 84]):
                lead.append((b0 + 2 + i * 0.5, 0.4, key, _vel(rng, 90)))
    return Song("funk-90", 90, bars * 4, [
        Part("kick", None, kick), Part("snare", None, snare), Part("hats", None, hats),
        Part("bass", 33, bass), Part("keys", 5, keys), Part("lead", 81, lead)])


def drum_and_bass():
    """170 bpm, 12 bars: two-step kick (1 and the and of 3), snare on 2 and 4, 8th hats with 16th pickups, a long
    synth bass under the kicks, string-pad chords and electric-piano stabs on the snares."""
    rng, bars = random.Random(170), 12
    kick, snare, hats, bass, keys, pad = [], [], [], [], [], []
    roots = [38, 38, 41, 36]
    chords = [[62, 65, 69], [62, 65, 69], [65, 69, 72], [60, 64, 67]]
    for bar in range(bars):
        b0 = bar * 4
        for beat in (0, 2.5):
            kick.append((b0 + beat, 0.25, KICK, _vel(rng, 115)))
        for beat in (1, 3):
            snare.append((b0 + beat, 0.25, SNARE, _vel(rng, 112)))
        for eighth in range(8):
            hats.append((b0 + eighth / 2, 0.1, CLOSED_HAT, _vel(rng, 70, 10)))
        if bar % 2 == 1:
            hats.append((b0 + 3.75, 0.1, CLOSED_HAT, _vel(rng, 60, 8)))
        root = roots[bar % 4]
        bass.append((b0, 2.4, root, _vel(rng, 104)))                 # held, lands with the kick
        bass.append((b0 + 2.5, 1.4, root + 7, _vel(rng, 98)))        # lands with the second kick
        chord = chords[bar % 4]
        if bar % 4 == 0:
            pad.extend(_chord(b0, 15.5, chord, 64))
        keys.extend(_chord(b0 + 1, 0.3, [k + 12 for k in chord], _vel(rng, 78)))
        keys.extend(_chord(b0 + 3, 0.3, [k + 12 for k in chord], _vel(rng, 74)))
    return Song("dnb-170", 170, bars * 4, [
        Part("kick", None, kick), Part("snare", None, snare), Part("hats", None, hats),
        Part("bass", 38, bass), Part("keys", 4, keys), Part("pad", 48, pad)])


def keys_over_snare():
    """100 bpm, 8 bars: snare on 2 and 4 under sustained mid-band sound: electric-piano chords struck on the
    snares and held over them, over a string pad that never stops; kick on 1 and 3, 8th hats, a held bass note."""
    rng, bars = random.Random(100), 8
    kick, snare, hats, bass, keys, pad = [], [], [], [], [], []
    chords = [[60, 64, 67, 71], [57, 60, 64, 67], [62, 65, 69, 72], [55, 59, 62, 65]]
    for bar in range(bars):
        b0 = bar * 4
        for beat in (0, 2):
            kick.append((b0 + beat, 0.25, KICK, _vel(rng, 108)))
        for beat in (1, 3):
            snare.append((b0 + beat, 0.25, SNARE, _vel(rng, 96)))
        for eighth in range(8):
            hats.append((b0 + eighth / 2, 0.1, CLOSED_HAT, _vel(rng, 64, 10)))
        chord = chords[bar % 4]
        bass.append((b0, 3.9, chord[0] - 24, _vel(rng, 92)))
        keys.extend(_chord(b0 + 1, 1.9, chord, _vel(rng, 88)))       # struck with the snare, held over the next
        keys.extend(_chord(b0 + 3, 0.9, chord, _vel(rng, 80)))
        if bar % 2 == 0:
            pad.extend(_chord(b0, 7.9, [k - 12 for k in chord[1:]], 80))
    return Song("keys-100", 100, bars * 4, [
        Part("kick", None, kick), Part("snare", None, snare), Part("hats", None, hats),
        Part("bass", 33, bass), Part("keys", 4, keys), Part("pad", 89, pad)])


def busy_bass():
    """118 bpm, 8 bars: a finger-bass line of its own in 8ths and 16ths with octave jumps and repeated notes, most
    of them away from the kick (on 1 and the and of 3), snare on 2 and 4, 8th hats, short organ stabs."""
    rng, bars = random.Random(118), 8
    kick, snare, hats, bass, keys = [], [], [], [], []
    line = [(0, 0), (1.5, 0), (2, 7), (3, 12), (4, 10), (5, 7), (6.5, 5), (7, 3), (8, 0), (9, 0), (10, 12),
            (11.5, 10), (12, 7), (13, 5), (14, 3), (15, 2)]                     # (16th step, semitones)
    roots = [28, 28, 33, 31]
    for bar in range(bars):
        b0 = bar * 4
        for beat in (0, 2.5):
            kick.append((b0 + beat, 0.25, KICK, _vel(rng, 110)))
        for beat in (1, 3):
            snare.append((b0 + beat, 0.25, SNARE, _vel(rng, 100)))
        for eighth in range(8):
            hats.append((b0 + eighth / 2, 0.1, CLOSED_HAT, _vel(rng, 60, 10)))
        root = roots[bar % 4]
        for step, interval in line:
            bass.append((b0 + step / 4, 0.2, root + interval, _vel(rng, 100, 12)))
        keys.extend(_chord(b0 + 1.5, 0.2, [64, 67, 71], _vel(rng, 70)))
        keys.extend(_chord(b0 + 3.5, 0.2, [64, 67, 71], _vel(rng, 70)))
    return Song("bass-118", 118, bars * 4, [
        Part("kick", None, kick), Part("snare", None, snare), Part("hats", None, hats),
        Part("bass", 34, bass), Part("keys", 17, keys)])


SONGS = [house, funk, drum_and_bass, keys_over_snare, busy_bass]


def sustained():
    """Tones that must give no accent, each 6 s with 2 s of silence after: a string chord with ±50 cent vibrato at
    5.5 Hz, an organ chord with a 6 Hz tremolo (expression 72↔127), a string chord swelling from silence over 5 s.
    Returns the song and each case as (name, start s, end s)."""
    import math
    bpm, spb = 60, 1.0                                                # one beat a second
    vibrato = Part("vibrato", 48, _chord(0, 6, [60, 64, 67], 90))
    vibrato.controls = [(i * 0.01, "bend", int(8192 * 0.25 * math.sin(2 * math.pi * 5.5 * i * 0.01)))
                        for i in range(600)]                           # ±2048 of ±8192 at a ±2-semitone range
    vibrato.controls.append((6.0, "bend", 0))
    tremolo = Part("tremolo", 16, _chord(8, 6, [57, 60, 64], 96))
    tremolo.controls = [(8 + i * 0.01, "cc11", int(99.5 + 27.5 * math.cos(2 * math.pi * 6 * i * 0.01)))
                        for i in range(600)]
    swell = Part("swell", 49, _chord(16, 6, [55, 59, 62], 110))
    swell.controls = [(15.99, "cc11", 0)] + [(16 + i * 0.05, "cc11", min(127, round(127 * i / 100)))
                                             for i in range(101)]
    song = Song("sustained", bpm, 24, [vibrato, tremolo, swell])
    return song, [("vibrato chord", 0 * spb, 6 * spb), ("tremolo organ", 8 * spb, 14 * spb),
                  ("slow swell", 16 * spb, 22 * spb)]
