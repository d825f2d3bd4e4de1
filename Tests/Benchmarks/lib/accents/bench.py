"""accents.sh's body: renders the music, works out the truth, runs lightshow (with and without accents) and aubio,
scores them and prints the table. Usage: bench.py LIGHTSHOW_BINARY WORK_DIR BENCH_LIB_DIR"""
import bisect, concurrent.futures, math, os, subprocess, sys

binary, work, lib = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, lib)
sys.path.insert(0, os.path.join(lib, "accents"))
import numpy as np
import bursts, songs, audio, truth, score
from analyzer import FPS, Analyzer, checked, fail, frames_of, onsets_of
from audio import BANDS, RATE

GAP, LEAD, TAIL = 1.5, 0.5, 1.0            # s of silence between songs, before the first, after the last
GHOST = 50                                 # velocity under which a drum hit is a ghost note
REPEAT = 24                                # times the music is fed for the CPU figure
analyzer = Analyzer(binary)
# Another build (LIGHTSHOW_BASELINE_BIN) run live side by side with accents, for the CPU against it.
baseline = os.environ.get("LIGHTSHOW_BASELINE_BIN") or None

# ---- music and truth -------------------------------------------------------------------------------------------
all_songs = [make() for make in songs.SONGS]
held, cases = songs.sustained()
jobs = [(song, None) for song in all_songs + [held]] + [(song, part.name) for song in all_songs for part in song.parts]
def render(job):
    song, part = job
    name = song.name + (f"-{part}" if part else "")
    return job, audio.read(audio.render(song.midi(part), os.path.join(work, name + ".wav")))
print(f"accents: rendering {len(jobs)} files with FluidSynth")
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    rendered = {(song.name, part): stereo for (song, part), stereo in pool.map(render, jobs)}

pieces, events, spans, offset, fallbacks, corrections = [np.zeros((int(LEAD * RATE), 2))], [], [], LEAD, 0, []
for song in all_songs:
    mix = rendered[(song.name, None)]
    for part in song.parts:
        found, weak, moved = truth.events(song, part, rendered[(song.name, part.name)])
        events += [e.shifted(offset) for e in found]
        fallbacks += weak
        corrections += moved
    spans.append((song.name, offset, offset + len(mix) / RATE))
    pieces += [mix, np.zeros((int(GAP * RATE), 2))]
    offset += len(mix) / RATE + GAP
pieces[-1] = np.zeros((int(TAIL * RATE), 2))
program = np.concatenate(pieces)
if np.abs(program).max() >= 1:
    fail("the rendered mix clips")
program_wav = os.path.join(work, "program.wav")
payload = audio.write(program_wav, program)
audio_seconds = len(program) / RATE
sustained_wav = os.path.join(work, "sustained.wav")
references = {band: truth.reference(events, band) for band in BANDS}

# ---- configurations --------------------------------------------------------------------------------------------
bands_toml = (f'[bands.bass]\nlower = 20\nupper = {audio.CROSSOVERS[0]:g}\n'
              f'[bands.mid]\nlower = {audio.CROSSOVERS[0]:g}\nupper = {audio.CROSSOVERS[1]:g}\n'
              f'[bands.treble]\nlower = {audio.CROSSOVERS[1]:g}\nupper = 20000\n')
config_on, config_off = os.path.join(work, "accents-on.toml"), os.path.join(work, "accents-off.toml")
open(config_on, "w").write(bands_toml)
open(config_off, "w").write(bands_toml + "[accents]\nenabled = false\n")


has_accents = analyzer.run(config_on, sustained_wav, "onsets").returncode == 0
if analyzer.run(config_off, sustained_wav, "jsonl").returncode != 0:
    if has_accents:
        fail(f"{binary} has onsets but rejects [accents] enabled = false")
    config_off = config_on                  # a build without accents: its levels are the 'without' column
print(f"accents: {binary}: " + ("has accents (--format onsets)" if has_accents else
                                 "no --format onsets: a build without accents; its levels fill the 'without' column"))


def aubio_onsets(band):
    """aubio's onsets in the mix filtered to `band` (its own back-dated times)."""
    filtered = audio.band_filter(program_wav, band, os.path.join(work, f"{band}.wav"))
    return checked(subprocess.run(["aubioonset", "-i", filtered, "-O", "hfc", "-B", "1024", "-H", "256"],
                                  capture_output=True, text=True, stdin=subprocess.DEVNULL), f"aubioonset ({band})")


# ---- offline: onsets, aubio, envelope tracking, sustained tones -----------------------------------------------
offline = {}
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    futures = {"jsonl on": pool.submit(analyzer.run, config_on, program_wav, "jsonl"),
               "jsonl off": pool.submit(analyzer.run, config_off, program_wav, "jsonl"),
               "held off": pool.submit(analyzer.run, config_off, sustained_wav, "jsonl")}
    if has_accents:
        futures["onsets"] = pool.submit(analyzer.run, config_on, program_wav, "onsets")
        futures["held onsets"] = pool.submit(analyzer.run, config_on, sustained_wav, "onsets")
    for band in BANDS:
        futures[f"aubio {band}"] = pool.submit(aubio_onsets, band)
    for name, future in futures.items():
        offline[name] = future.result() if name.startswith("aubio") else checked(future.result(), f"analyze ({name})")

estimates = {"lightshow, accents": onsets_of(offline["onsets"]) if has_accents else None,
             "aubio hfc": {b: np.array([float(x) for x in offline[f"aubio {b}"].split()]) for b in BANDS}}
times_off, levels_off = frames_of(offline["jsonl off"])
times_on, levels_on = frames_of(offline["jsonl on"])
estimates["lightshow, no accents"] = {b: score.level_onsets(times_off, levels_off[b]) for b in BANDS}
fscore = {name: ({b: score.f_measure(references[b], est[b]) for b in BANDS} if est else None)
          for name, est in estimates.items()}

if not np.array_equal(times_on, times_off):
    fail("offline analyze gave different frame times with and without accents")
inside = np.zeros(len(times_on), dtype=bool)
for _, start, end in spans:
    inside |= (times_on >= start) & (times_on <= end)
spearman, lagged = {}, {}
for band in BANDS:
    filtered = audio.read(os.path.join(work, f"{band}.wav"))[:, 0]
    ideal = audio.rms_at(filtered, times_on[inside])
    spearman[band] = (score.spearman(levels_on[band][inside], ideal), score.spearman(levels_off[band][inside], ideal))
    # The light at frame t against the ideal at t − lag: the lag where they match best is how late the light is.
    lagged[band] = tuple(score.best_lag(levels[band][inside], lambda lag: audio.rms_at(filtered, times_on[inside] - lag))
                         for levels in (levels_on, levels_off))

held_times, held_levels = frames_of(offline["held off"])
held_onsets = onsets_of(offline["held onsets"]) if has_accents else None
held_counts = []
for name, start, end in cases:
    begin = start if name == "slow swell" else start + 0.3      # a struck chord's own attack is an onset
    stop = end + 0.5
    def count(found):
        return sum(int(((found[b] >= begin) & (found[b] <= stop)).sum()) for b in BANDS)
    held_counts.append((name, count(held_onsets) if has_accents else None,
                        count({b: score.level_onsets(held_times, held_levels[b]) for b in BANDS})))

# A check on the live CPU figure: the music, REPEAT times over, piped to `--input stdin` as fast as analyze reads it
# (the live input path without the waiting), best of three runs each, alternating. Its difference per second of
# audio is what the accents' computing costs in a hot loop; live, with the caches cold at every wake-up, it costs more.
print(f"accents: CPU, {REPEAT} × the music piped to analyze, 3 runs each way")
fed = {"on": math.inf, "off": math.inf}
for _ in range(3):
    for name, config in (("on", config_on), ("off", config_off)):
        fed[name] = min(fed[name], analyzer.fed_cpu(config, payload, REPEAT))

# ---- live: both configurations through paced fifos, side by side -----------------------------------------------
# Four runs of each configuration, for the CPU: the live runs' own CPU is the measure of the share accents add.
# Two passes of four side by side; the first pass's first runs are scored. One pass's sum has varied by up to
# 3 points of the share between days, so two passes halve what one day's conditions weigh.
LIVE_PASSES = 2
live_cpu = {}
for live_pass in range(LIVE_PASSES):
    print(f"accents: live, pass {live_pass + 1} of {LIVE_PASSES}, {audio_seconds:.0f} s through paced fifos")
    pass_work = os.path.join(work, f"live{live_pass}")
    os.makedirs(pass_work)
    runs = {"on": config_on, "off": config_off, "on again": config_on, "off again": config_off}
    if baseline:
        runs.update({"baseline": (baseline, config_on), "baseline again": (baseline, config_on)})
    pass_frames, pass_cpu, pass_written_at = analyzer.live(runs, payload, len(program), pass_work)
    if live_pass == 0:
        live_frames, written_at = pass_frames, pass_written_at
    for name, seconds in pass_cpu.items():
        live_cpu.setdefault(name, []).append(seconds)
cpu = {name: sum(live_cpu[name]) + sum(live_cpu[f"{name} again"]) for name in ("on", "off")}
if baseline:
    cpu["baseline"] = sum(live_cpu["baseline"]) + sum(live_cpu["baseline again"])
live_runs = 2 * LIVE_PASSES

drum_hits = {}
for event in sorted((e for e in events if e.drum), key=lambda e: e.time):
    drum_hits.setdefault(event.part, []).append(event)
every_onset = sorted(e.time for e in events)
def next_onset(t):
    """The next note event of any part more than 30 ms later: the end of a hit's search, so the rise of what comes
    next (a snare's hiss in the treble after a hat) is not taken for this hit's."""
    index = bisect.bisect_right(every_onset, t + 0.03)
    return every_onset[index] if index < len(every_onset) else math.inf


live = {}
for name in ("on", "off"):
    frames = live_frames[name]
    if len(frames) < audio_seconds * FPS * 0.9:
        fail(f"live analyze ({name}) printed {len(frames)} frames for {audio_seconds:.1f} s")
    for part, hit_events in drum_hits.items():
        band = songs.DRUM_BAND[part]
        limits = [next_onset(e.time) for e in hit_events]
        chunks = [written_at[min(int(e.time * RATE) // bursts.CHUNK, len(written_at) - 1)] for e in hit_events]
        results = score.hits(frames, band, [(e.time, limit, w) for e, limit, w in zip(hit_events, limits, chunks)])
        live[(name, part)] = [(e, r) for e, r in zip(hit_events, results)]

# ---- the table -------------------------------------------------------------------------------------------------
def fmt(value, spec="{:.2f}"):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return spec.format(value)


def ms(value):
    return "never" if value == math.inf else fmt(value * 1000, "{:.0f}")


def delay(value):
    return ms(value) + " ms" * (value < math.inf)


def verdict(ok):
    return "—" if ok is None else ("PASS" if ok else "MISS")


print(f"accents: {len(all_songs)} songs ({', '.join(s.name for s in all_songs)}), {audio_seconds:.1f} s of 44.1 kHz "
      f"s16 stereo; bands 20–{audio.CROSSOVERS[0]:g}–{audio.CROSSOVERS[1]:g}–20000 Hz; {FPS} fps")
print(f"truth: {len(events)} note events, note-on to physical onset median {1000 * np.median(corrections):.1f} ms "
      f"(5–95%: {1000 * np.percentile(corrections, 5):.1f}–{1000 * np.percentile(corrections, 95):.1f}); "
      f"{fallbacks} without a measurable rise kept at MIDI time + median;\n       "
      f"onsets per band after merging within 30 ms: " + ", ".join(f"{b} {len(references[b])}" for b in BANDS))
print()
print(f"{'':34}{'bass':>8}{'mid':>8}{'treble':>8}")
print("onset F-measure (±50 ms, mir_eval), offline")
for name, scores in fscore.items():
    print(f"  {name:32}" + "".join(f"{fmt(scores[b] if scores else None):>8}" for b in BANDS))
f_ok = {b: (fscore['lightshow, accents'][b] >= fscore['aubio hfc'][b]) if has_accents else None for b in BANDS}

print("envelope tracking (Spearman r vs the band-filtered mix's 20 ms RMS at each frame), offline")
print(f"  {'lightshow, accents':32}" + "".join(f"{fmt(spearman[b][0] if has_accents else None):>8}" for b in BANDS))
print(f"  {'lightshow, no accents':32}" + "".join(f"{fmt(spearman[b][1]):>8}" for b in BANDS))
spearman_ok = all(round(spearman[b][0], 2) >= round(spearman[b][1], 2) for b in BANDS) if has_accents else None
print("envelope lag (Spearman r at zero lag / at the best lag, and that lag: the light at t against the ideal at t − lag)")
for column, name in ((0, "lightshow, accents"), (1, "lightshow, no accents")):
    if column == 0 and not has_accents:
        continue
    print(f"  {name:32}" + "".join(
        f"{fmt(lagged[b][column][0]):>8} / {fmt(lagged[b][column][2])} at {1000 * lagged[b][column][1]:3.0f} ms"
        for b in BANDS))
lag_ok = all(lagged[b][0 if has_accents else 1][1] <= 0.010 for b in BANDS)

print("onset F-measure per song (±50 ms), offline: lightshow with accents | aubio hfc, bass/mid/treble")
for song_name, start, end in spans:
    def song_f(found):
        return "/".join(fmt(score.f_measure(references[b][(references[b] >= start) & (references[b] <= end)],
                                            found[b][(found[b] >= start) & (found[b] <= end)])) for b in BANDS)
    print(f"  {song_name:16}{song_f(estimates['lightshow, accents']) if has_accents else '—':>16} |"
          f"{song_f(estimates['aubio hfc']):>16}")

print()
print(f"live through a paced fifo, drum hits (ghost notes under velocity {GHOST} apart); "
      f"wall = frame arrival − write "
      f"of the 10 ms chunk holding the onset, audio = frame t − onset")
print(f"  {'':30}{'hits':>5}{'lit≤50ms wall':>15}{'audio':>7}{'median ms wall':>16}{'audio':>7}{'p90 wall':>10}"
      f"{'audio':>7}{'unlit, light ≥ 0.9':>20}")
summary = {}
for name, label in ((("on", "accents"),) if has_accents else ()) + (("off", "no accents"),):
    every = []
    for part in ("kick", "snare", "hats"):
        for ghost in (False, True):
            rows = [r for e, r in live[(name, part)] if (e.velocity < GHOST) == ghost]
            if not rows:
                continue
            if not ghost:
                every += rows
            title = f"{label} {songs.DRUM_BAND[part]}←{part}{' ghosts' if ghost else ''}"
            unlit = [r for r in rows if not r[1]]
            wall, audio_t = [r[3] for r in rows], [r[2] for r in rows]
            print(f"  {title:30}{len(rows):5d}{100 * np.mean([r[1] for r in rows]):14.0f}%"
                  f"{100 * np.mean([r[0] for r in rows]):6.0f}%"
                  f"{ms(score.percentile(wall, 50)):>16}{ms(score.percentile(audio_t, 50)):>7}"
                  f"{ms(score.percentile(wall, 90)):>10}{ms(score.percentile(audio_t, 90)):>7}"
                  f"{sum(r[4] >= 0.9 for r in unlit):>11d} of {len(unlit):<3d}")
    by_song = []
    for song_name, start, end in spans:
        cells = []
        for part in ("kick", "snare", "hats"):
            rows = [r for e, r in live[(name, part)] if e.velocity >= GHOST and start <= e.time <= end]
            cells.append(f"{100 * np.mean([r[1] for r in rows]):.0f}%" if rows else "—")
        by_song.append(f"{song_name} {'/'.join(cells)}")
    print(f"    {label}, lit ≤ 50 ms wall by song (kick/snare/hats): " + ", ".join(by_song))
    summary[name] = (np.mean([r[1] for r in every]), score.percentile([r[3] for r in every], 50),
                     score.percentile([r[3] for r in every], 90))
    lit, median, p90 = summary[name]
    print(f"  {label + ' all (no ghosts)':30}{len(every):5d}{100 * lit:14.0f}%{'':7}{ms(median):>16}{'':7}"
          f"{ms(p90):>10}")

print()
print("sustained tones: onsets counted (accents; the light's rises of ≥ 0.1 without accents)")
for name, on, off in held_counts:
    print(f"  {name:32}{fmt(on, '{:d}'):>8}{off:>8d}")
held_ok = all(on == 0 for _, on, _ in held_counts) if has_accents else None

added = cpu["on"] / cpu["off"] - 1
fed_added = (fed["on"] - fed["off"]) / (REPEAT * audio_seconds) / (cpu["off"] / (live_runs * audio_seconds))
runs = {n: live_cpu[n] + live_cpu[f"{n} again"] for n in ("on", "off")}
spread = [(max(runs[n]) - min(runs[n])) / max(runs[n]) for n in ("on", "off")]
pass_added = [(live_cpu["on"][p] + live_cpu["on again"][p]) / (live_cpu["off"][p] + live_cpu["off again"][p]) - 1
              for p in range(LIVE_PASSES)]
print(f"CPU, live, {live_runs} runs of each summed: {cpu['on']:.2f} s with accents, {cpu['off']:.2f} s without, for "
      f"{live_runs} × {audio_seconds:.1f} s of audio: {100 * added:+.1f}%" +
      ("" if has_accents else " (one build twice: the measurement's noise)") +
      f"; by pass {' and '.join(f'{100 * a:+.1f}%' for a in pass_added)}; the runs of one configuration span "
      f"{100 * spread[0]:.0f}% and {100 * spread[1]:.0f}%.\n"
      f"  Check, fed as fast as read (best of 3 over {REPEAT * audio_seconds:.0f} s): {fed['on']:.2f} s and "
      f"{fed['off']:.2f} s, a difference of {100 * fed_added:+.1f}% of the live CPU without (a hot loop: a lower "
      f"bound)")
if baseline:
    by_pass = [(live_cpu["on"][p] + live_cpu["on again"][p]) / (live_cpu["baseline"][p] + live_cpu["baseline again"][p])
               - 1 for p in range(LIVE_PASSES)]
    print(f"  Against {baseline} with accents, side by side in the same passes: {cpu['baseline']:.2f} s; this build "
          f"{100 * (cpu['on'] / cpu['baseline'] - 1):+.1f}% (by pass {' and '.join(f'{100 * a:+.1f}%' for a in by_pass)})")

print()
print(f"goals{'':39}{'accents':>18}{'without':>18}")
def f_row(name):
    return "/".join(fmt(fscore[name][b]) for b in BANDS) if fscore[name] else "—"
(lit, median, p90), (lit_off, median_off, p90_off) = summary.get("on", (math.nan,) * 3), summary["off"]
on_only = lambda ok: ok if has_accents else None
goals = [
    ("onset F ≥ aubio's (" + f_row("aubio hfc") + ")", f_row("lightshow, accents"), f_row("lightshow, no accents"),
     [f_ok[b] for b in BANDS]),
    ("≥ 95% of drum hits lit within 50 ms", fmt(100 * lit, "{:.0f}%"), f"{100 * lit_off:.0f}%",
     [on_only(lit >= 0.95)]),
    ("median delay to half the rise ≤ 17 ms", delay(median), delay(median_off), [on_only(median <= 0.017)]),
    ("90th percentile ≤ 25 ms", delay(p90), delay(p90_off), [on_only(p90 <= 0.025)]),
    ("Spearman r no worse than without", "/".join(fmt(spearman[b][0]) for b in BANDS) if has_accents else "—",
     "/".join(fmt(spearman[b][1]) for b in BANDS), [spearman_ok]),
    ("best lag of the light ≤ 10 ms (bass/mid/treble)",
     "/".join(f"{1000 * lagged[b][0][1]:.0f}" for b in BANDS) if has_accents else "—",
     "/".join(f"{1000 * lagged[b][1][1]:.0f}" for b in BANDS), [lag_ok]),
    ("no accent on sustained tones", f"{sum(on for _, on, _ in held_counts)}" if has_accents else "—",
     f"{sum(off for _, _, off in held_counts)} rises", [held_ok]),
    ("CPU added ≤ 10% of the live analysis", fmt(on_only(100 * added), "{:+.1f}%"),
     f"{cpu['off'] / (live_runs * audio_seconds):.4f} s/s",
     [on_only(added <= 0.10)]),
]
for title, with_accents, without, oks in goals:
    state = "n/a" if None in oks else "/".join(verdict(ok) for ok in oks) if len(oks) > 1 else verdict(oks[0])
    print(f"  {title:42}{with_accents:>18}{without:>18}  {state}")
if not has_accents:
    print("  (n/a: this build has no accents)")
