"""Clients of the daemon's frame streams, for Tests/Benchmarks/web.sh. Each runs as a process of its own, so its
CPU is never counted as the daemon's and two clients never share one interpreter's lock.

  viewers URL N SECONDS      N WebSocket viewers reading `frame` events for SECONDS. Prints `connected TIME` once
                             all N are open, then one JSON line: {"arrivals": [per viewer, each frame's arrival
                             time], "closed": [viewers the server closed], "extensions": [as negotiated]}.
                             Times are time.monotonic() (CLOCK_MONOTONIC), comparable across processes.
  ws-stamps URL SECONDS      one WebSocket viewer; prints `INDEX NANOSECONDS` per `frame` event (CLOCK_MONOTONIC).
  socket-stamps PATH FPS SECONDS
                             the terminal path: a control-socket subscriber, printing the same.
  stall URL                  a WebSocket viewer that completes the handshake, then never reads again (its receive
                             buffer as small as the kernel allows); prints `stalled LOCALPORT` and holds the connection until
                             killed.

The WebSocket viewers offer permessage-deflate, as browsers do (websockets' default); what the server accepted is
reported."""
import asyncio, base64, json, os, socket, sys, time
from urllib.parse import urlsplit

import websockets


def frame_index(message):
    """The index of a `frame` event, or None for other events (`scene`)."""
    if '"frame"' not in message:
        return None
    event = json.loads(message)
    return int(event["index"]) if event.get("event") == "frame" else None


async def count_frames(url, count, seconds):
    sockets = [await websockets.connect(url, max_size=1 << 20, open_timeout=10) for _ in range(count)]
    print("connected", time.monotonic(), flush=True)
    arrivals = [[] for _ in range(count)]

    async def read(i, ws):
        async for message in ws:
            if '"event":"frame"' in message:
                arrivals[i].append(time.monotonic())

    readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
    await asyncio.sleep(seconds)
    closed = [i for i, task in enumerate(readers) if task.done()]
    extensions = sorted({ws.response_headers.get("Sec-WebSocket-Extensions", "") for ws in sockets})
    print(json.dumps({"arrivals": arrivals, "closed": closed, "extensions": extensions}), flush=True)
    for task in readers:
        task.cancel()
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def ws_stamps(url, seconds):
    async with websockets.connect(url, open_timeout=10) as ws:
        print("connected", flush=True)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(ws.recv(), left)
            except asyncio.TimeoutError:
                break
            now = time.monotonic_ns()
            index = frame_index(message)
            if index is not None:
                print(index, now)


def socket_stamps(path, fps, seconds):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        sock.sendall(json.dumps({"id": 1, "cmd": "subscribe", "fps": fps}).encode() + b"\n")
        print("connected", flush=True)
        deadline = time.monotonic() + seconds
        pending = b""
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            now = time.monotonic_ns()
            if not chunk:
                sys.exit(f"socket-stamps: the daemon closed {path}")
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            for line in lines:
                index = frame_index(line.decode())
                if index is not None:
                    print(index, now)


def stall(url):
    parts = urlsplit(url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)  # the kernel's minimum: the window closes at once
    sock.connect((parts.hostname, parts.port))
    key = base64.b64encode(os.urandom(16)).decode()
    target = parts.path + ("?" + parts.query if parts.query else "")
    sock.sendall((f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    status = sock.recv(12)  # "HTTP/1.1 101": read no further
    if not status.endswith(b"101"):
        sys.exit(f"stall: the upgrade was refused: {status!r}")
    print("stalled", sock.getsockname()[1], flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "viewers":
        asyncio.run(count_frames(args[0], int(args[1]), float(args[2])))
    elif mode == "ws-stamps":
        asyncio.run(ws_stamps(args[0], float(args[1])))
    elif mode == "socket-stamps":
        socket_stamps(args[0], float(args[1]), float(args[2]))
    elif mode == "stall":
        stall(args[0])
    else:
        sys.exit(f"frame_clients: unknown mode {mode!r}: expected viewers, ws-stamps, socket-stamps or stall")
