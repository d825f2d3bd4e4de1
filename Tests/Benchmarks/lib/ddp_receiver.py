"""The benchmarks' UDP receivers on 127.0.0.1 (a port the kernel picks), each reading on a thread of its own."""
import socket
import threading
import time


class UDPReceiver:
    """Every datagram is handed to take(arrival_ns, data), stamped with CLOCK_MONOTONIC as lightshow stamps frames."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            self.take(time.monotonic_ns(), data)

    def take(self, now, data):
        raise NotImplementedError

    def stop(self):
        self.running = False
        self.thread.join()
        self.sock.close()


class DDPReceiver(UDPReceiver):
    """DDP: (arrival, first data byte, PUSH flag, offset) of every packet in `packets`, its data in `payloads`."""

    def __init__(self):
        self.packets, self.payloads = [], []
        super().__init__()

    def take(self, now, data):
        if len(data) >= 11 and data[0] & 0xC0 == 0x40:
            self.packets.append((now, data[10], bool(data[0] & 1), int.from_bytes(data[4:8], "big")))
            self.payloads.append((now, data[10:]))
