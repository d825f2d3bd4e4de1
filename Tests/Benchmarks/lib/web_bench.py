"""The web benchmark (Tests/Benchmarks/web.sh): what the daemon's web page, WebSocket and HTTP server cost, each
figure against its peer in the same run. Every daemon plays the demo input with the same config apart from `[web]`.
With `[web]` on, the server is the daemon's child process lightshow-web: every CPU and memory figure of a daemon is
its whole process tree (the daemon and that child), so the server's cost is counted wherever it runs.

 1. Memory: the daemon with `[web]` off beside the baseline build (BASELINE_BIN, the daemon before the web
    code) and beside itself with the web on and no client, after the same settle time: medians of several samples
    of RSS and PSS (/proc/PID/smaps_rollup).
 2. The page open in headless Chromium: the web daemon's RSS and PSS, its CPU and the browser's (every process of
    Chromium's tree, each by its process CPU clock).
 3. 100 WebSocket viewers at 30 fps (lib/frame_clients.py, a process of its own whose CPU is not counted): the
    daemon's CPU beside its CPU with no viewer, and the frames each viewer got.
 4. A viewer that stops reading: the frame rates of the same 20 viewers in a window before it connects and in
    one while its connection is blocked, before the server closes it for stalling. It asks for 60 fps and its
    receive buffer is the kernel's smallest; in a network namespace (web.sh makes one) the server-side send
    buffers are small too, so its socket fills within seconds instead of after megabytes.
 5. Latency: a daemon analysing at 30 fps; a WebSocket viewer and a control-socket subscriber (the terminal path),
    each asking for 60 fps so neither path's pacing ever holds a frame back, stamp each frame's arrival on
    CLOCK_MONOTONIC; the difference per frame index, median and p90.

Usage: web_bench.py LIGHTSHOW_BIN [BASE_BIN]. SETTLE, SAMPLES, MEASURE and LATENCY (seconds) tune the run."""
import atexit, ctypes, json, os, signal, socket, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from process_cpu import cpu_ns

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS = [sys.executable, os.path.join(HERE, "frame_clients.py")]
SETTLE = float(os.environ.get("SETTLE", 10))
SAMPLES = int(os.environ.get("SAMPLES", 5))
MEASURE = float(os.environ.get("MEASURE", 15))
LATENCY = float(os.environ.get("LATENCY", 20))
VIEWERS, VIEWER_FPS, OTHERS, STALL_WINDOW = 100, 30, 20, 5
IN_NAMESPACE = os.environ.get("WEB_BENCH_NETNS") == "1"

work = tempfile.mkdtemp(prefix="web-bench.")
children = []


def fail(message):
    sys.exit(f"web: {message}")


def die_with_parent():
    # A child outlives neither this script nor a kill -9 of it: PR_SET_PDEATHSIG (1).
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def start(command, log=None, env=None, stdout=subprocess.DEVNULL):
    """A child in a session of its own (Chromium's helpers go with it), killed at exit."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=stdout,
                               stderr=open(log, "w") if log else subprocess.DEVNULL, env=env,
                               start_new_session=True, preexec_fn=die_with_parent, text=True)
    children.append(process)
    return process


def stop(process):
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


@atexit.register
def cleanup():
    for process in children:
        stop(process)
    subprocess.run(["rm", "-rf", work])


signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
signal.signal(signal.SIGINT, lambda *_: sys.exit(130))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, ready, seconds=30):
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            fail(f"timed out waiting for {what}")
        time.sleep(0.1)


class Daemon:
    def __init__(self, name, binary, web_port=None, extra=()):
        self.name = name
        directory = os.path.join(work, name)
        os.makedirs(directory)
        config = os.path.join(directory, "lightshow.toml")
        with open(config, "w") as f:
            f.write('[input]\nsource = "demo"\n')
            if web_port:
                # Room for the 100 viewers beside the page and the probes (the default cap is 64).
                f.write(f'[web]\nlisten = "127.0.0.1:{web_port}"\nmax_connections = 128\n')
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS")}
        env.update(RUNTIME_DIRECTORY=directory, XDG_CONFIG_HOME=os.path.join(directory, "config"))
        self.log = os.path.join(directory, "daemon.log")
        self.socket = os.path.join(directory, "control.sock")
        self.port = web_port
        self.process = start([binary, "daemon", "--config", config, "--player", "none", *extra], log=self.log, env=env)
        self.pid = self.process.pid
        wait_for(f"{name}'s control socket", lambda: self.check() and os.path.exists(self.socket))
        if web_port:
            wait_for(f"{name}'s web listener on 127.0.0.1:{web_port}", self.listening)
        self.url = f"ws://127.0.0.1:{web_port}/api/frames" if web_port else None

    def check(self):
        if self.process.poll() is not None:
            with open(self.log) as f:
                fail(f"the {self.name} daemon exited ({self.process.returncode}): {f.read()[-2000:]}")
        return True

    def listening(self):
        self.check()
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def cpu(self):
        """CPU time of the daemon and its web server process."""
        self.check()
        return sum(tree_cpu(self.pid).values())

    def memory(self):
        """RSS, PSS and private dirty memory in kB, of the daemon and its web server process together."""
        self.check()
        fields = {"Rss": 0, "Pss": 0, "Private_Dirty": 0}
        for pid in process_tree(self.pid):
            try:
                with open(f"/proc/{pid}/smaps_rollup") as f:
                    for line in f:
                        key, _, rest = line.partition(":")
                        if key in fields:
                            fields[key] += int(rest.split()[0])
            except OSError:
                pass
        return fields


def sampled_memory(daemons):
    """The median of SAMPLES readings, one a second, of each daemon: {name: {"Rss":…, "Pss":…}}."""
    readings = {d.name: [] for d in daemons}
    for i in range(SAMPLES):
        if i:
            time.sleep(1)
        for d in daemons:
            readings[d.name].append(d.memory())
    return {name: {key: statistics.median(r[key] for r in rs) for key in rs[0]} for name, rs in readings.items()}


def process_tree(root):
    """root and every process descended from it."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return tree


def tree_cpu(root):
    """CPU time of each process in root's tree, by PID (processes that exit between readings are lost)."""
    times = {}
    for pid in process_tree(root):
        try:
            times[pid] = cpu_ns(pid)
        except OSError:
            pass
    return times


def tree_pss(root):
    total = 0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += next(int(l.split()[1]) for l in f if l.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total


def streaming_connections(port):
    """Bytes acknowledged so far on each established server-side connection of port, by peer address."""
    out = subprocess.run(["ss", "-Htni", "state", "established", f"( sport = :{port} )"],
                         capture_output=True, text=True, check=True).stdout
    acked, peer = {}, None
    for line in out.splitlines():
        fields = line.split()
        if not line[:1].isspace() and len(fields) >= 4:
            peer = fields[3]
            acked[peer] = 0
        elif peer:
            for field in fields:
                if field.startswith("bytes_acked:"):
                    acked[peer] = int(field.split(":")[1])
    return acked


def send_queue(port, peer_port):
    """Bytes the kernel holds unsent on the server side of the connection from peer_port."""
    out = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{port} and dport = :{peer_port} )"],
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[1]) if len(out) >= 2 else None


def percent(cpu_delta_ns, seconds):
    return 100 * cpu_delta_ns / 1e9 / seconds


class Viewers:
    """`count` WebSocket viewers in a process of their own for `seconds`; their frame rates over any window of
    that time afterwards."""

    def __init__(self, url, count, fps, seconds):
        self.process = start([*CLIENTS, "viewers", f"{url}?fps={fps:g}", str(count), str(seconds)],
                             log=os.path.join(work, "viewers.log"), stdout=subprocess.PIPE)
        word, *_ = self.process.stdout.readline().split() or [""]
        if word != "connected":
            fail(f"the viewers did not connect: {read_log('viewers.log')}")
        self.pid = self.process.pid

    def finish(self):
        report = json.loads(self.process.stdout.readline() or "null") or fail(f"viewers: {read_log('viewers.log')}")
        self.process.wait()
        self.arrivals, self.closed, self.extensions = report["arrivals"], report["closed"], report["extensions"]
        return self

    def rates(self, begin, end):
        """Each viewer's frames per second between two time.monotonic() readings, lowest first."""
        return sorted(sum(begin <= t < end for t in times) / (end - begin) for times in self.arrivals)


def read_log(name):
    with open(os.path.join(work, name)) as f:
        return f.read()[-2000:]


rows = []


def row(name, figure, goal="", verdict="info"):
    rows.append((name, figure, goal, verdict))
    print(f"  … {name}: {figure}", file=sys.stderr, flush=True)


def read_whole(path):
    """Reads a file to its end so that all of it is in the page cache. RSS counts the file pages a fault maps, and
    the kernel maps cached neighbours with each fault (fault-around): a freshly built binary, all cached, against an
    older one partly evicted showed +1.2 to +2.2 MB that were only the page cache."""
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass


def main():
    binary, base = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None)
    for path in [binary] + ([base] if base else []):
        read_whole(path)

    # 1. Memory with the web off against the baseline, then with the web on. Not side by side with a web daemon:
    # the kernel maps file pages already in the page cache around each fault (fault-around), so a daemon of the
    # same binary that ran the web code would make the one with the web off look bigger.
    daemons = ([Daemon("baseline", base)] if base else []) + [Daemon("off", binary)]
    time.sleep(SETTLE)
    memory = sampled_memory(daemons)
    for d in daemons:
        stop(d.process)
    if base:
        added = memory["off"]["Rss"] - memory["baseline"]["Rss"]
        row("RSS, [web] off − baseline build",
            f"{added:+.0f} kB ({memory['off']['Rss']:.0f} vs {memory['baseline']['Rss']:.0f}; "
            f"PSS {memory['off']['Pss']:.0f} vs {memory['baseline']['Pss']:.0f}; "
            f"private dirty {memory['off']['Private_Dirty']:.0f} vs {memory['baseline']['Private_Dirty']:.0f})",
            "≤ +512 kB", "met" if added <= 512 else "MISSED")
    else:
        row("RSS, [web] off − baseline build",
            f"skipped: set BASELINE_BIN to the daemon built before the web code (off: {memory['off']['Rss']:.0f} kB)",
            "≤ +512 kB", "skipped")
    web = Daemon("web", binary, web_port=free_port())
    time.sleep(SETTLE)
    memory.update(sampled_memory([web]))
    row("RSS / PSS, web on, no client",
        f"{memory['web']['Rss']:.0f} / {memory['web']['Pss']:.0f} kB ({memory['web']['Rss'] - memory['off']['Rss']:+.0f} kB RSS over off)")

    # 2. The page in headless Chromium.
    page_url = f"http://127.0.0.1:{web.port}/"
    chromium = start(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                      "--no-default-browser-check", f"--user-data-dir={work}/chromium", page_url],
                     log=os.path.join(work, "chromium.log"))
    before = streaming_connections(web.port)
    deadline, streaming = time.monotonic() + 20, False
    while not streaming and time.monotonic() < deadline:
        time.sleep(2)
        now = streaming_connections(web.port)
        streaming = any(acked - before.get(peer, 0) > 1000 for peer, acked in now.items())
        before = now
    if chromium.poll() is not None:
        fail(f"chromium exited: {read_log('chromium.log')}")
    time.sleep(SETTLE / 2)
    daemon_start, browser_start, began = web.cpu(), tree_cpu(chromium.pid), time.monotonic()
    time.sleep(MEASURE)
    daemon_end, browser_end, seconds = web.cpu(), tree_cpu(chromium.pid), time.monotonic() - began
    browser = sum(t - browser_start.get(pid, 0) for pid, t in browser_end.items())
    page_memory = sampled_memory([web])["web"]
    note = "" if streaming else "; the page opened no frame stream"
    row("RSS / PSS, web on, page open",
        f"{page_memory['Rss']:.0f} / {page_memory['Pss']:.0f} kB "
        f"({page_memory['Rss'] - memory['web']['Rss']:+.0f} kB RSS over no client{note})")
    row("CPU, page open", f"daemon and server {percent(daemon_end - daemon_start, seconds):.1f}%, "
        f"Chromium {percent(browser, seconds):.1f}% of one core ({len(browser_end)} processes, "
        f"PSS {tree_pss(chromium.pid) / 1024:.0f} MB)")
    stop(chromium)

    # 3. 100 viewers at 30 fps, against no viewer.
    time.sleep(2)
    idle_start, began = web.cpu(), time.monotonic()
    time.sleep(MEASURE / 2)
    idle = percent(web.cpu() - idle_start, time.monotonic() - began)
    viewers = Viewers(web.url, VIEWERS, VIEWER_FPS, 2 + MEASURE + 1)
    time.sleep(2)  # every viewer past its scene event and into the steady stream
    c0, g0, t0 = web.cpu(), cpu_ns(viewers.pid), time.monotonic()
    time.sleep(MEASURE)
    c1, g1, t1 = web.cpu(), cpu_ns(viewers.pid), time.monotonic()
    viewers.finish()
    loaded = percent(c1 - c0, t1 - t0)
    rates = viewers.rates(t0, t1)
    delivered = statistics.median(rates)
    verdict = "met" if loaded <= 10 and delivered >= 0.9 * VIEWER_FPS else "MISSED"
    row(f"CPU, {VIEWERS} viewers at {VIEWER_FPS} fps",
        f"{loaded:.1f}% of one core ({loaded - idle:+.1f} over no viewer, {idle:.1f}%); per viewer {delivered:.1f} fps median, "
        f"{rates[0]:.1f} min, {len(viewers.closed)} closed; load generator {percent(g1 - g0, t1 - t0):.0f}% "
        f"(not counted); extensions {viewers.extensions}",
        "≤ 10%", verdict)
    after_viewers = web.memory()
    row(f"RSS after {VIEWERS} viewers", f"{after_viewers['Rss']} kB ({after_viewers['Rss'] - page_memory['Rss']:+.0f} kB)")

    # 4. One viewer stops reading: the same 20 viewers' frame rates in a window before it connects and in one
    # while its connection is blocked (its send queue full), before the server closes it for stalling. Small send
    # buffers for the whole phase (the kernel grows a socket's buffer later, on acknowledgements, up to the limit
    # in force then).
    wmem = "/proc/sys/net/ipv4/tcp_wmem"
    saved = open(wmem).read() if IN_NAMESPACE else None
    if IN_NAMESPACE:
        with open(wmem, "w") as f:
            f.write("4096 8192 16384")
    others = Viewers(web.url, OTHERS, VIEWER_FPS, 2 + STALL_WINDOW + 10 + STALL_WINDOW + 1)
    time.sleep(2)
    a0 = time.monotonic()
    time.sleep(STALL_WINDOW)
    a1 = time.monotonic()
    stalled = start([*CLIENTS, "stall", f"{web.url}?fps=60"], log=os.path.join(work, "stall.log"), stdout=subprocess.PIPE)
    word, _, stall_port = stalled.stdout.readline().partition(" ")
    if word != "stalled":
        fail(f"the stalled viewer did not connect: {read_log('stall.log')}")
    stall_port = int(stall_port)
    # Full: the queue stopped growing for half a second.
    queue, steady, deadline = 0, 0, time.monotonic() + 10
    while steady < 5 and time.monotonic() < deadline:
        time.sleep(0.1)
        now = send_queue(web.port, stall_port)
        steady = steady + 1 if now and now == queue else 0
        queue = now
    b0 = time.monotonic()
    stall_memory = web.memory()
    while time.monotonic() < b0 + STALL_WINDOW and send_queue(web.port, stall_port) is not None:
        time.sleep(0.1)
    b1 = time.monotonic()
    stall_memory_after = web.memory()
    while time.monotonic() < b0 + 20 and send_queue(web.port, stall_port) is not None:
        time.sleep(0.1)
    closed_after = time.monotonic() - b0
    others.finish()
    stop(stalled)
    if IN_NAMESPACE:
        with open(wmem, "w") as f:
            f.write(saved)
    without, with_stall = others.rates(a0, a1), others.rates(b0, b1)
    change = 100 * (statistics.median(with_stall) - statistics.median(without)) / statistics.median(without)
    ok = abs(change) <= 5 and with_stall[0] >= 0.9 * statistics.median(without) and b1 - b0 >= 2
    row(f"{OTHERS} viewers' fps, one stalled viewer",
        f"{statistics.median(with_stall):.1f} median, {with_stall[0]:.1f} min over {b1 - b0:.1f} s stalled vs "
        f"{statistics.median(without):.1f}, {without[0]:.1f} without ({change:+.1f}%); its {queue} bytes stuck in "
        f"the kernel{'' if IN_NAMESPACE else ' (host send buffers)'}; the server closed it "
        f"{'after %.1f s' % closed_after if closed_after < 20 else 'not within 20 s'}; "
        f"daemon RSS {stall_memory['Rss']} → {stall_memory_after['Rss']} kB",
        "within ±5%", "met" if ok else "MISSED")

    # 5. Latency: the WebSocket against the control socket, frame by frame.
    stop(web.process)
    paced = Daemon("latency", binary, web_port=free_port(), extra=("--fps", "30"))
    time.sleep(2)
    ws = start([*CLIENTS, "ws-stamps", f"{paced.url}?fps=60", str(LATENCY)],
               log=os.path.join(work, "ws-stamps.log"), stdout=subprocess.PIPE)
    terminal = start([*CLIENTS, "socket-stamps", paced.socket, "60", str(LATENCY)],
                     log=os.path.join(work, "socket-stamps.log"), stdout=subprocess.PIPE)
    arrivals = []
    for process in (ws, terminal):
        lines = process.stdout.read().splitlines()
        process.wait()
        if not lines or lines[0] != "connected":
            fail(f"a latency probe failed: {read_log('ws-stamps.log')} {read_log('socket-stamps.log')}")
        arrivals.append({int(i): int(t) for i, t in (l.split() for l in lines[1:])})
    common = sorted(set(arrivals[0]) & set(arrivals[1]))
    if len(common) < 10:
        fail(f"only {len(common)} frames reached both probes")
    differences = sorted((arrivals[0][i] - arrivals[1][i]) / 1e6 for i in common)
    median, p90 = statistics.median(differences), differences[int(0.9 * (len(differences) - 1))]
    row("latency, WebSocket − control socket",
        f"median {median:+.2f} ms, p90 {p90:+.2f} ms over {len(common)} frames "
        f"(WebSocket {len(arrivals[0])}, socket {len(arrivals[1])} frames)",
        "median ≤ +5 ms", "met" if median <= 5 else "MISSED")

    print(f"web: daemons on the demo input; settle {SETTLE:g} s, memory the median of {SAMPLES} samples, "
          f"CPU over {MEASURE:g} s; {'in a network namespace of its own' if IN_NAMESPACE else 'on the host loopback'}")
    width = max(len(r[0]) for r in rows)
    for name, figure, goal, verdict in rows:
        print(f"  {name:<{width}}  {verdict:<7}  {goal:<15}  {figure}")


if __name__ == "__main__":
    main()
