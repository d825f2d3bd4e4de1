"""Running `lightshow analyze` for the benchmark: offline on a file, fed as fast as it reads, and live through
paced fifos; and reading what it prints (jsonl frames, `--format onsets` lines)."""
import json, os, subprocess, time
import numpy as np
import bursts
from audio import BANDS

FPS = 60


def fail(message):
    raise SystemExit(f"accents: {message}")


def frame(line):
    """(t, {band: level}) from an analyze jsonl line, or None for another line."""
    if not line.startswith("{"):
        return None
    try:
        row = json.loads(line)
        return float(row["t"]), {band: float(row[band]) for band in BANDS}
    except (ValueError, KeyError, TypeError):
        fail(f"analyze printed a jsonl line without t, bass, mid and treble numbers: {line[:200]}")


def frames_of(output):
    """Frame times and {band: levels} of a jsonl output."""
    rows = [f for f in map(frame, output.splitlines()) if f is not None]
    return np.array([t for t, _ in rows]), {band: np.array([levels[band] for _, levels in rows]) for band in BANDS}


def onsets_of(output):
    """{band: times} from `analyze --format onsets` lines (TIME BAND STRENGTH)."""
    found = {band: [] for band in BANDS}
    for line in output.splitlines():
        fields = line.split()
        try:
            if len(fields) != 3 or fields[1] not in found:
                raise ValueError
            found[fields[1]].append(float(fields[0]))
        except ValueError:
            fail(f"analyze --format onsets printed a line other than TIME BAND STRENGTH: {line[:200]}")
    return {band: np.array(times) for band, times in found.items()}


def checked(result, what):
    """The output of a finished command, or the end of the benchmark with its error."""
    if result.returncode != 0:
        fail(f"{what} exited {result.returncode}: {result.stderr.strip()[:300]}")
    return result.stdout


class Analyzer:
    def __init__(self, binary):
        self.binary = binary

    def command(self, config, source, form, binary=None):
        return [binary or self.binary, "analyze", "--config", config, "--input", source, "--format", form, "--fps", str(FPS)]

    def run(self, config, source, form):
        """A finished offline run (CompletedProcess, text)."""
        return subprocess.run(self.command(config, source, form), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)

    def fed_cpu(self, config, payload, repeat):
        """CPU-seconds of analyze reading `payload` (s16 stereo PCM) `repeat` times over from stdin, as fast as it
        reads: the live input path without the waiting."""
        process = subprocess.Popen(self.command(config, "stdin", "jsonl"), stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(repeat):
                process.stdin.write(payload)
            process.stdin.close()
        except BrokenPipeError:
            pass
        _, status, usage = os.wait4(process.pid, 0)
        if status != 0:
            fail(f"analyze --input stdin exited with status {status}")
        return usage.ru_utime + usage.ru_stime

    def live(self, configs, payload, frames, work):
        """Each {name: config} (or {name: (binary, config)} for another build) reading its own fifo, all written the
        same real-time-paced PCM side by side (jsonl).
        Returns {name: [(t, arrival, levels)]}, {name: CPU-seconds} and chunk index → monotonic write time."""
        fifos = {name: os.path.join(work, f"{name}.fifo") for name in configs}
        for path in fifos.values():
            os.mkfifo(path)
        def run_as(name):
            binary, config = configs[name] if isinstance(configs[name], tuple) else (None, configs[name])
            return self.command(config, f"fifo:{fifos[name]}", "jsonl", binary)
        processes = {name: subprocess.Popen(run_as(name),
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
                     for name, path in fifos.items()}
        lines, readers = bursts.read_lines(processes, frame)
        fds = [os.open(path, os.O_WRONLY) for path in fifos.values()]     # each waits for its reader
        def write(index, piece):
            first = index % len(fds)                                         # each is written first in turn
            for fd in fds[first:] + fds[:first]:
                os.write(fd, piece)
        written_at = bursts.paced_write(payload, frames, write)
        for fd in fds:
            os.close(fd)
        cpu = {name: self._reap(name, process) for name, process in processes.items()}
        for reader in readers:
            reader.join(timeout=5)
        return ({name: [(t, stamp, levels) for stamp, (t, levels) in lines[name]] for name in configs}, cpu,
                written_at)

    @staticmethod
    def _reap(name, process):
        """CPU-seconds of a live analyze, which ends at the end of its fifo."""
        deadline = time.monotonic() + 30
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                fail(f"live analyze ({name}) did not end at the end of its fifo")
            time.sleep(0.02)
        if status != 0:
            fail(f"live analyze ({name}) exited with status {status}")
        return usage.ru_utime + usage.ru_stime
