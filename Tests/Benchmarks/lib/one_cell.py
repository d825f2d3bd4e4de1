"""The least a 60 fps picture can cost the terminal: one cell changed a frame, one write each, on the monotonic
clock. desktop-cost.sh runs it like a program under test, so its xterm and X server columns are the floor under
anyone's. Reads (and drops) the fifo it is given, as the programs do; argv: FIFO."""
import os, sys, threading, time

fd = os.open(sys.argv[1], os.O_RDONLY)
threading.Thread(target=lambda: [None for _ in iter(lambda: os.read(fd, 65536), b"")], daemon=True).start()
# A screen's worth of spaces first: the benchmark waits for 20 KB before it measures.
os.write(1, b"\x1b[2J" + b" " * 24000)
start, frame = time.monotonic(), 0
while True:
    frame += 1
    level = frame % 200
    os.write(1, b"\x1b[10;10H\x1b[48;2;%d;%d;%dm \x1b[0m" % (level, level, 255 - level))
    delay = start + frame / 60 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
