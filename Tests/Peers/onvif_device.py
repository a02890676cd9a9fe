#!/usr/bin/python3
"""A small ONVIF device for WatchBox's tests (stdlib only).

Serves the SOAP fixtures of one vendor directory (Tests/ONVIFTests/Fixtures/<vendor>/<Operation>.xml) by the
operation in the request body, on --bind (default 127.0.0.1) at --port (default 0: a random one), printed as
"PORT <n>" on stdout when ready.

Addresses in the answers: `@HOST@` (service and snapshot URLs) is the host:port the request was sent to (its
Host header, else the address it arrived on), so a device in a network namespace answers URLs that work
there; `@RTSP_HOST@` (stream URIs) is --rtsp-host, by default that same host without the port, and
`@RTSP_PORT@` is --rtsp-port (point them at a GStreamer RTSP server serving /<profile token>).

Authentication is checked for real:
  --mode wssecurity  WS-Security UsernameToken PasswordDigest (UsernameToken Profile 1.0 §3.1): the digest is
                     recomputed from the nonce, created and the password; `Created` must be within 5 s of the
                     device's own clock, which runs --skew seconds off the real one (so a client that does not
                     correct by the offset from GetSystemDateAndTime is refused). Wrong → 400 + ter:NotAuthorized.
  --mode digest      only HTTP Digest (RFC 7616, MD5, qop=auth): anything else, WS-Security included, gets
                     401 with WWW-Authenticate: Digest.
  --mode garbage     answers every request with bytes that are not XML.
  --mode silent      accepts connections and never answers.
GetSystemDateAndTime needs no authentication (ONVIF Core §5.12.1). Operations without a fixture get an
ActionNotSupported fault.
"""
import argparse, base64, datetime, hashlib, os, re, signal, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})

parser = argparse.ArgumentParser()
parser.add_argument("--fixtures", required=True)
parser.add_argument("--mode", choices=["wssecurity", "digest", "garbage", "silent"], default="wssecurity")
parser.add_argument("--username", default="admin")
parser.add_argument("--password", default="secret")
parser.add_argument("--skew", type=float, default=0.0, help="device clock minus real clock, seconds")
parser.add_argument("--rtsp-port", type=int, default=554)
parser.add_argument("--rtsp-host", help="host of the stream URIs (default: the host the request was sent to)")
parser.add_argument("--bind", default="127.0.0.1", help="address to listen on")
parser.add_argument("--port", type=int, default=0, help="port to listen on (0: a random one)")
parser.add_argument("--no-get-services", action="store_true", help="fault on GetServices (pre-2.0 device)")
args = parser.parse_args()

REALM = "onvif-test-device"
NOTAUTH = ('<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" '
           'xmlns:ter="http://www.onvif.org/ver10/error"><env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value>'
           '<env:Subcode><env:Value>ter:NotAuthorized</env:Value></env:Subcode></env:Code><env:Reason>'
           '<env:Text xml:lang="en">Sender not Authorized</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>')
NOTSUPPORTED = ('<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" '
                'xmlns:ter="http://www.onvif.org/ver10/error"><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value>'
                '<env:Subcode><env:Value>ter:ActionNotSupported</env:Value></env:Subcode></env:Code><env:Reason>'
                '<env:Text xml:lang="en">Optional Action Not Implemented</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>')
nonces = set()
stats = {"wssecurity_ok": 0, "wssecurity_rejected": 0, "digest_ok": 0, "digest_rejected": 0}


def device_now():
    return datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=args.skew)


def operation_of(body):
    match = re.search(r"<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([A-Za-z]+)", body)
    return match.group(1) if match else None


def text_of(body, local):
    match = re.search(r"<(?:[\w.-]+:)?%s\b[^>]*>([^<]*)</" % local, body)
    return match.group(1).strip() if match else None


def check_wssecurity(body):
    """None when there is no token; True/False for a right/wrong one."""
    if "UsernameToken" not in body:
        return None
    username, digest = text_of(body, "Username"), text_of(body, "Password")
    nonce, created = text_of(body, "Nonce"), text_of(body, "Created")
    if not (username and digest and nonce and created):
        return False
    try:
        raw_nonce = base64.b64decode(nonce)
        when = datetime.datetime.fromisoformat(created.replace("Z", "+00:00"))
    except Exception:
        return False
    expected = base64.b64encode(hashlib.sha1(raw_nonce + created.encode() + args.password.encode()).digest()).decode()
    fresh = abs((device_now() - when).total_seconds()) <= 5
    replay = nonce in nonces
    nonces.add(nonce)
    return username == args.username and digest == expected and fresh and not replay


def check_digest(header, method):
    if not header or not header.startswith("Digest "):
        return False
    fields = {k: a or b for k, a, b in re.findall(r'(\w+)=(?:"([^"]*)"|([^\s,]+))', header)}
    if fields.get("username") != args.username or fields.get("realm") != REALM:
        return False
    ha1 = hashlib.md5(f"{args.username}:{REALM}:{args.password}".encode()).hexdigest()
    ha2 = hashlib.md5(f"{method}:{fields.get('uri', '')}".encode()).hexdigest()
    if fields.get("qop") == "auth":
        expected = hashlib.md5(f"{ha1}:{fields.get('nonce')}:{fields.get('nc')}:{fields.get('cnonce')}:auth:{ha2}".encode()).hexdigest()
    else:
        expected = hashlib.md5(f"{ha1}:{fields.get('nonce')}:{ha2}".encode()).hexdigest()
    return fields.get("response") == expected


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *a):
        sys.stderr.write("onvif_device: " + (format % a) + "\n")

    def reply(self, status, body, extra=None):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", "application/soap+xml; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def challenge(self):
        nonce = base64.b64encode(os.urandom(12)).decode()
        self.reply(401, "", {"WWW-Authenticate": f'Digest realm="{REALM}", qop="auth", nonce="{nonce}", algorithm=MD5'})

    def request_host(self):
        """host:port this request was sent to: its Host header when it is an address or name with an optional
        port (nothing else is echoed), else the local address of the connection."""
        header = (self.headers.get("Host") or "").strip()
        if re.fullmatch(r"[A-Za-z0-9.-]+(:\d{1,5})?", header):
            return header if ":" in header else f"{header}:80"
        address, port = self.connection.getsockname()[:2]
        return f"{address}:{port}"

    def do_POST(self):
        if args.mode == "silent":
            time.sleep(3600)
            return
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8", "replace")
        if args.mode == "garbage":
            self.reply(200, b"<html><body>Welcome to NetSurveillance WEB</body><<<\x00\xff not xml")
            return
        operation = operation_of(body)
        if operation != "GetSystemDateAndTime":
            if args.mode == "digest":
                if not check_digest(self.headers.get("Authorization"), "POST"):
                    stats["digest_rejected"] += 1
                    self.challenge()
                    return
                stats["digest_ok"] += 1
            else:
                if check_wssecurity(body) is not True:
                    stats["wssecurity_rejected"] += 1
                    self.reply(400, NOTAUTH)
                    return
                stats["wssecurity_ok"] += 1
        if operation == "GetServices" and args.no_get_services:
            self.reply(400, NOTSUPPORTED)
            return
        path = os.path.join(args.fixtures, f"{operation}.xml")
        if not operation or not os.path.exists(path):
            self.reply(400, NOTSUPPORTED)
            return
        with open(path, encoding="utf-8") as f:
            text = f.read()
        now = device_now()
        token = text_of(body, "ProfileToken") or ""
        host = self.request_host()
        rtsp_host = args.rtsp_host or re.sub(r":\d+$", "", host)
        for key, value in {"@UTC_YEAR@": now.year, "@UTC_MONTH@": now.month, "@UTC_DAY@": now.day,
                           "@UTC_HOUR@": now.hour, "@UTC_MINUTE@": now.minute, "@UTC_SECOND@": now.second,
                           "@LOCAL_HOUR@": (now.hour + 8) % 24, "@HOST@": host, "@RTSP_HOST@": rtsp_host,
                           "@RTSP_PORT@": args.rtsp_port,
                           "@STREAM_PATH@": re.sub(r"[^A-Za-z0-9_]", "", token) or "stream"}.items():
            text = text.replace(key, str(value))
        self.reply(200, text)


server = ThreadingHTTPServer((args.bind, args.port), Handler)
server.daemon_threads = True
print(f"PORT {server.server_address[1]}", flush=True)
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
server.serve_forever()
