#!/usr/bin/env python3
"""A stand-in Philips Hue bridge for the tests and the Hue benchmark: HTTPS (the certificate and key in DIRECTORY)
with the v2 endpoints a streaming client uses. Usage: hue_bridge.py DIRECTORY PORT LINK_BUTTON_AFTER

Pairing (POST /api) answers "link button not pressed" LINK_BUTTON_AFTER times, then hands out fixed keys. Every
request is logged as a JSON line to DIRECTORY/events. DIRECTORY/owner, when it exists, names an application that
holds the area. The bound port is written to DIRECTORY/port once it listens."""
import http.server, json, os, ssl, sys, threading

directory, port, link_after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
KEY = "lightshow-test-key-0123456789"
CLIENT_KEY = "0123456789abcdef0123456789abcdef"
APP_ID = "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910"
AREA = "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d"
state = {"pair_tries": 0, "streaming": False}
lock = threading.Lock()

def owner():
    try:
        with open(os.path.join(directory, "owner")) as f:
            return f.read().strip() or None
    except FileNotFoundError:
        return APP_ID if state["streaming"] else None

class Bridge(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body, authorised):
        with lock, open(os.path.join(directory, "events"), "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "body": body, "authorised": authorised}) + "\n")

    def reply(self, status, payload, headers=()):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        authorised = self.headers.get("hue-application-key") == KEY
        self.record(body, authorised)
        if self.command == "POST" and self.path == "/api":
            request = json.loads(body)
            with lock:
                state["pair_tries"] += 1
                tries = state["pair_tries"]
            if tries <= link_after:
                return self.reply(200, [{"error": {"type": 101, "address": "", "description": "link button not pressed"}}])
            if not request.get("generateclientkey") or "#" not in request.get("devicetype", ""):
                return self.reply(200, [{"error": {"type": 2, "address": "", "description": "bad body"}}])
            return self.reply(200, [{"success": {"username": KEY, "clientkey": CLIENT_KEY.upper()}}])
        if not authorised:
            return self.reply(403, {"errors": [{"description": "unauthorized user"}], "data": []})
        if self.command == "GET" and self.path == "/auth/v1":
            return self.reply(200, {}, [("hue-application-id", APP_ID)])
        if self.command == "GET" and self.path == "/clip/v2/resource/entertainment_configuration":
            current = owner()
            area = {"id": AREA, "type": "entertainment_configuration", "metadata": {"name": "Living room"},
                    "status": "active" if current else "inactive",
                    "channels": [
                        {"channel_id": 0, "position": {"x": -0.8, "y": 0.5, "z": 0}},
                        {"channel_id": 1, "position": {"x": 0.0, "y": 1.0, "z": 0}},
                        {"channel_id": 2, "position": {"x": 0.8, "y": 0.5, "z": 0}}]}
            if current:
                area["active_streamer"] = {"rid": current, "rtype": "auth_v1"}
            return self.reply(200, {"errors": [], "data": [area]})
        if self.command == "PUT" and self.path == "/clip/v2/resource/entertainment_configuration/" + AREA:
            action = json.loads(body).get("action")
            current = owner()
            if action == "start" and current not in (None, APP_ID):
                return self.reply(403, {"errors": [{"description": "area in use by another streamer"}], "data": []})
            state["streaming"] = action == "start"
            return self.reply(200, {"errors": [], "data": [{"rid": AREA, "rtype": "entertainment_configuration"}]})
        return self.reply(404, {"errors": [{"description": "not found"}], "data": []})

    do_GET = do_POST = do_PUT = handle_any

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Bridge)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(os.path.join(directory, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(directory, "port.tmp"), os.path.join(directory, "port"))
server.serve_forever()
