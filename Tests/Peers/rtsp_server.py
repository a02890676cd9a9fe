#!/usr/bin/python3
"""A real RTSP server for WatchBox's tests: GStreamer's GstRtspServer on 127.0.0.1.

Run with Debian's /usr/bin/python3 (it has the `gi` bindings; another python3 on
PATH may not). Needs: python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-rtsp
gstreamer1.0-plugins-{base,good,bad,ugly} gstreamer1.0-libav glib-networking (TLS).

Protocol with the test that starts it:
  * stdout carries exactly one line, "READY <port>", flushed once the server listens.
    Everything else (diagnostics) goes to stderr.
  * SIGTERM or SIGINT stops it cleanly (exit status 0).
  * It also stops by itself when the process that started it goes away, so a test
    runner that crashes leaves no server behind (--no-exit-with-parent turns that off).

Examples:
  rtsp_server.py --port 0                                  # H.264 1280x720@25 at /stream
  rtsp_server.py --codec h265 --audio aac --path /a --path /b
  rtsp_server.py --auth digest --user admin --password secret
  rtsp_server.py --session-timeout 5 --protocols tcp
  rtsp_server.py --tls-cert cert.pem --tls-key key.pem     # rtsps://127.0.0.1:PORT/stream
  rtsp_server.py --file clip.mp4                           # loops the clip, no re-encoding
"""

import argparse
import os
import signal
import sys
import time

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import Gio, GLib, Gst, GstRtsp, GstRtspServer  # noqa: E402

HOST = "127.0.0.1"  # the network rule: loopback only, never configurable
ROLE = "watchbox-test"


def log(message):
    print(f"rtsp_server: {message}", file=sys.stderr, flush=True)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="GstRtspServer test peer for WatchBox (listens on 127.0.0.1 only).")
    parser.add_argument("--port", type=int, default=0, help="TCP port; 0 picks a free one (default 0)")
    parser.add_argument("--path", action="append", dest="paths", metavar="/MOUNT",
                        help="mount point; repeat to serve several (default /stream)")
    parser.add_argument("--codec", choices=["h264", "h265"], default="h264", help="video codec (default h264)")
    parser.add_argument("--width", type=int, default=1280, help="picture width (default 1280)")
    parser.add_argument("--height", type=int, default=720, help="picture height (default 720)")
    parser.add_argument("--fps", type=int, default=25, help="frames per second (default 25)")
    parser.add_argument("--key-int", type=int, default=50, help="frames between keyframes (default 50)")
    parser.add_argument("--bitrate", type=int, default=2048, help="encoder bitrate in kbit/s (default 2048)")
    parser.add_argument("--audio", choices=["none", "aac", "pcmu"], default="none",
                        help="aac adds a 440 Hz tone, MPEG4-GENERIC payload type 97; pcmu the same tone as "
                             "G.711 µ-law, static payload type 0 (default none)")
    parser.add_argument("--auth", choices=["none", "basic", "digest"], default="none",
                        help="require these credentials (default none)")
    parser.add_argument("--user", default="user", help="user name for --auth (default user)")
    parser.add_argument("--password", default="password", help="password for --auth (default password)")
    parser.add_argument("--session-timeout", type=int, default=0, metavar="SECONDS",
                        help="expire sessions without an RTSP keepalive for this long; also closes "
                             "the connection (0 = GStreamer's default: 60 s, UDP only)")
    parser.add_argument("--protocols", choices=["tcp", "udp", "tcp+udp"], default="tcp+udp",
                        help="lower transports offered; others get 461 (default tcp+udp)")
    parser.add_argument("--tls-cert", metavar="PEM", help="certificate: serve RTSPS (needs --tls-key)")
    parser.add_argument("--tls-key", metavar="PEM", help="private key for --tls-cert")
    parser.add_argument("--file", metavar="PATH",
                        help="serve this clip in a loop without re-encoding: MP4/MOV/MKV (B-frames fine) or a raw "
                             "Annex-B stream (.h264/.h265/.264/.265: no B-frames, timed by --fps); --codec "
                             "names its codec")
    parser.add_argument("--shared", action=argparse.BooleanOptionalAction, default=True,
                        help="share one media between clients (default yes)")
    parser.add_argument("--request-log", metavar="PATH",
                        help="append the method of every request a client sends (OPTIONS, DESCRIBE, SETUP, PLAY, …) "
                             "to PATH, one a line: tests check what a client asked for")
    parser.add_argument("--exit-with-parent", action=argparse.BooleanOptionalAction, default=True,
                        help="stop when the process that started us exits (default yes; a shell "
                             "script that starts the server from a subshell wants --no-exit-with-parent)")
    args = parser.parse_args(argv)

    args.paths = args.paths or ["/stream"]
    for path in args.paths:
        if not path.startswith("/"):
            parser.error(f"--path {path!r} must start with '/'")
    if len(set(args.paths)) != len(args.paths):
        parser.error("--path given twice with the same mount point")
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} is out of range 0...65535")
    if args.width <= 0 or args.height <= 0 or args.fps <= 0 or args.key_int <= 0:
        parser.error("--width, --height, --fps and --key-int must be positive")
    if args.session_timeout < 0:
        parser.error("--session-timeout must be >= 0")
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if args.auth != "none" and (not args.user or not args.password):
        parser.error("--auth needs a non-empty --user and --password")
    if args.file:
        if not os.path.isfile(args.file):
            parser.error(f"--file {args.file!r} does not exist")
    return args


# ----------------------------------------------------------------------------- pipelines

def video_encoder(args):
    caps = f"video/x-raw,width={args.width},height={args.height},framerate={args.fps}/1"
    source = f"videotestsrc is-live=true pattern=ball ! {caps} ! timeoverlay ! videoconvert"
    # The parser (not the payloader) repeats the parameter sets: h26xparse puts them at the
    # start of each keyframe's access unit, where rtph26xpay's config-interval would put a
    # copy before every IDR slice, i.e. between the slices of one picture (x264's
    # zerolatency tune codes several slices per picture).
    if args.codec == "h264":
        return (f"{source} ! x264enc tune=zerolatency speed-preset=ultrafast "
                f"key-int-max={args.key_int} bitrate={args.bitrate} "
                "! video/x-h264,stream-format=byte-stream "
                "! h264parse config-interval=-1 "
                "! rtph264pay name=pay0 pt=96 config-interval=0")
    return (f"{source} ! x265enc tune=zerolatency speed-preset=ultrafast "
            f"key-int-max={args.key_int} bitrate={args.bitrate} "
            f"option-string=\"keyint={args.key_int}:min-keyint={args.key_int}\" "
            "! video/x-h265,profile=main,stream-format=byte-stream "
            "! h265parse config-interval=-1 "
            "! rtph265pay name=pay0 pt=96 config-interval=0")


class Clip:
    """A pre-encoded clip held in memory as access units with their timestamps.

    GStreamer reads it once at start-up (demuxer and parser, no decoder): each access
    unit keeps its PTS and DTS, so B-frames and variable frame timing survive. A
    ClipFeeder then pushes the units into the served pipeline again and again, shifting
    the timestamps by the clip's length on each pass, so the stream loops without a
    jump in RTP time. Parameter sets are repeated in-band at every keyframe.
    """

    DEMUXERS = {".mp4": "qtdemux", ".m4v": "qtdemux", ".mov": "qtdemux", ".mkv": "matroskademux"}

    def __init__(self, path, codec, fps):
        parse = "h264parse" if codec == "h264" else "h265parse"
        media_type = "video/x-h264" if codec == "h264" else "video/x-h265"
        extension = os.path.splitext(path)[1].lower()
        location = path.replace("\\", "\\\\").replace("\"", "\\\"")
        demuxer = self.DEMUXERS.get(extension)
        if demuxer:
            front = f"filesrc location=\"{location}\" ! {demuxer} ! queue"
        else:
            front = (f"filesrc location=\"{location}\" "
                     f"! {media_type},stream-format=byte-stream,framerate={fps}/1")
        description = (f"{front} ! {parse} config-interval=-1 "
                       f"! {media_type},stream-format=byte-stream,alignment=au "
                       "! appsink name=sink sync=false")
        pipeline = Gst.parse_launch(description)
        sink = pipeline.get_by_name("sink")
        bus = pipeline.get_bus()
        pipeline.set_state(Gst.State.PLAYING)
        self.units = []  # (bytes, pts, dts, duration, is_delta)
        self.caps = None
        frame = Gst.SECOND // fps
        error = None
        while not sink.get_property("eos"):
            message = bus.pop_filtered(Gst.MessageType.ERROR)
            if message is not None:
                error = message.parse_error()[0].message
                break
            sample = sink.emit("try-pull-sample", 100 * Gst.MSECOND)
            if sample is None:
                continue
            self.caps = self.caps or sample.get_caps()
            buffer = sample.get_buffer()
            index = len(self.units)
            pts = buffer.pts if buffer.pts != Gst.CLOCK_TIME_NONE else index * frame
            dts = buffer.dts if buffer.dts != Gst.CLOCK_TIME_NONE else pts
            duration = buffer.duration if buffer.duration != Gst.CLOCK_TIME_NONE else frame
            is_delta = buffer.has_flags(Gst.BufferFlags.DELTA_UNIT)
            self.units.append((buffer.extract_dup(0, buffer.get_size()), pts, dts, duration, is_delta))
        pipeline.set_state(Gst.State.NULL)
        if error is not None:
            raise SystemExit(f"rtsp_server: cannot read --file {path} as {codec.upper()}: {error} "
                             "(is --codec right?)")
        if not self.units:
            raise SystemExit(f"rtsp_server: --file {path} holds no {codec.upper()} video "
                             "(wrong --codec, or not a clip?)")
        if self.units[0][4]:
            log(f"warning: --file {path} does not start with a keyframe")
        # Rebase so the first unit decodes at 0 and nothing is negative.
        origin = min(min(pts, dts) for _, pts, dts, _, _ in self.units)
        self.units = [(data, pts - origin, dts - origin, duration, delta)
                      for data, pts, dts, duration, delta in self.units]
        last = self.units[-1]
        self.length = last[2] + last[3]  # decode span: the next pass decodes right after the last unit
        keyframes = sum(1 for unit in self.units if not unit[4])
        log(f"clip {path}: {len(self.units)} access units, {keyframes} keyframes, "
            f"{self.length / Gst.SECOND:.2f} s per loop")


class ClipFeeder:
    """Feeds a Clip into one media's appsrc, looping forever (one per constructed media).

    The appsrc is a live source, like a camera: a shared media is not restarted or
    seeked when another client joins (a non-live one would be, and the server answers
    503 to the second PLAY). Timestamps are therefore running time: the first unit is
    stamped with the running time at which the pipeline first asks for data, the rest
    follow the clip's own timing, and the server's sinks send each one on time.
    """

    def __init__(self, clip, appsrc):
        self.clip = clip
        self.index = 0
        self.offset = None
        appsrc.set_property("caps", clip.caps)
        appsrc.set_property("format", Gst.Format.TIME)
        appsrc.set_property("is-live", True)
        appsrc.set_property("max-bytes", 2 * 1024 * 1024)
        appsrc.connect("need-data", self.on_need_data)

    def on_need_data(self, appsrc, _length):
        if self.offset is None:
            clock = appsrc.get_clock()
            self.offset = clock.get_time() - appsrc.get_base_time() if clock is not None else 0
        data, pts, dts, duration, is_delta = self.clip.units[self.index]
        buffer = Gst.Buffer.new_wrapped(data)
        buffer.pts = pts + self.offset
        buffer.dts = dts + self.offset
        buffer.duration = duration
        if is_delta:
            buffer.set_flags(Gst.BufferFlags.DELTA_UNIT)
        appsrc.emit("push-buffer", buffer)
        self.index += 1
        if self.index == len(self.clip.units):
            self.index = 0
            self.offset += self.clip.length


def file_source(args):
    media_type = "video/x-h264" if args.codec == "h264" else "video/x-h265"
    payloader = "rtph264pay" if args.codec == "h264" else "rtph265pay"
    return (f"appsrc name=clipsrc ! {media_type},stream-format=byte-stream,alignment=au "
            f"! {payloader} name=pay0 pt=96 config-interval=0")


def audio_branch(codec):
    if codec == "pcmu":
        return ("audiotestsrc is-live=true wave=sine freq=440 "
                "! audioconvert ! audioresample ! audio/x-raw,rate=8000,channels=1 "
                "! mulawenc ! rtppcmupay pt=0 name=pay1")
    return ("audiotestsrc is-live=true wave=sine freq=440 "
            "! audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=1 "
            "! avenc_aac ! rtpmp4gpay pt=97 name=pay1")


def launch_line(args):
    video = file_source(args) if args.file else video_encoder(args)
    branches = [video]
    if args.audio != "none":
        branches.append(audio_branch(args.audio))
    return "( " + " ".join(branches) + " )"


# ----------------------------------------------------------------------------- server

def lower_transports(protocols):
    flags = {
        "tcp": GstRtsp.RTSPLowerTrans.TCP,
        "udp": GstRtsp.RTSPLowerTrans.UDP,
        "tcp+udp": GstRtsp.RTSPLowerTrans.TCP | GstRtsp.RTSPLowerTrans.UDP,
    }
    return flags[protocols]


def make_token():
    token = GstRtspServer.RTSPToken()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, ROLE)
    return token


def make_auth(args):
    """Returns None when neither credentials nor TLS are asked for."""
    if args.auth == "none" and not args.tls_cert:
        return None
    auth = GstRtspServer.RTSPAuth()
    token = make_token()
    if args.auth == "basic":
        auth.add_basic(GstRtspServer.RTSPAuth.make_basic(args.user, args.password), token)
        auth.set_supported_methods(GstRtsp.RTSPAuthMethod.BASIC)
    elif args.auth == "digest":
        auth.add_digest(args.user, args.password, token)
        auth.set_supported_methods(GstRtsp.RTSPAuthMethod.DIGEST)
    else:
        # TLS without credentials: everyone gets the role that may see the media.
        auth.set_default_token(token)
    if args.tls_cert:
        try:
            certificate = Gio.TlsCertificate.new_from_files(args.tls_cert, args.tls_key)
        except GLib.Error as error:
            raise SystemExit(f"rtsp_server: cannot load --tls-cert/--tls-key: {error.message}")
        auth.set_tls_certificate(certificate)
    return auth


def make_factory(args, launch, has_auth, clip):
    factory = GstRtspServer.RTSPMediaFactory()
    if clip is not None:
        factory.connect("media-configure", lambda _factory, media: ClipFeeder(
            clip, media.get_element().get_by_name("clipsrc")))
    factory.set_launch(launch)
    factory.set_shared(args.shared)
    factory.set_protocols(lower_transports(args.protocols))
    # Keep serving the next client after the last one left (a shared media is reused).
    factory.set_suspend_mode(GstRtspServer.RTSPSuspendMode.NONE)
    # Live like a camera: never seek. Without this GstRtspServer answers a PLAY carrying
    # "Range: npt=0-" (ffmpeg sends one) with a flushing seek of the shared pipeline, which
    # disturbs the clients already watching, or 503 when a source cannot seek. This mode
    # makes the media unseekable (it also adds RFC 7273 a=ts-refclk/a=mediaclk lines).
    factory.set_publish_clock_mode(GstRtspServer.RTSPPublishClockMode.CLOCK_AND_OFFSET)
    if has_auth:
        factory.add_role_from_structure(Gst.Structure.new_from_string(
            f"{ROLE}, media.factory.access=(boolean)true, media.factory.construct=(boolean)true"))
    return factory


class SessionTimeoutEnforcer:
    """Gives every new session the requested timeout and really expires idle ones.

    GstRtspServer alone does not: it removes expired sessions only when
    gst_rtsp_session_pool_cleanup() is called, and a session with a TCP-interleaved
    transport never expires while its connection is open (the server pins it with
    gst_rtsp_session_prevent_expire). Cameras are stricter, so this peer is too: a
    session counts as alive only while the client sends RTSP requests carrying its
    Session header (GET_PARAMETER, OPTIONS, SET_PARAMETER, PLAY, ...); RTCP receiver
    reports do not count. Once `timeout` seconds pass without one, the session is
    removed from the pool (the server stops sending its media; later requests naming
    it get 454 Session Not Found) and, when the connection has no other live session,
    the connection is closed, as most cameras do.
    """

    REQUEST_SIGNALS = [
        "options-request", "describe-request", "setup-request", "play-request",
        "pause-request", "teardown-request", "get-parameter-request",
        "set-parameter-request", "announce-request", "record-request",
    ]

    def __init__(self, server, timeout):
        self.timeout = timeout
        self.pool = server.get_session_pool()
        self.sessions = {}  # session id -> [session, client, last activity (monotonic s)]
        server.connect("client-connected", self.on_client_connected)
        self.pool.connect("session-removed", self.on_session_removed)
        GLib.timeout_add(250, self.check)

    def on_client_connected(self, _server, client):
        client.connect("new-session", self.on_new_session)
        for name in self.REQUEST_SIGNALS:
            client.connect(name, self.on_request)

    def on_new_session(self, client, session):
        if self.timeout > 0:
            session.set_timeout(self.timeout)
            self.sessions[session.get_sessionid()] = [session, client, time.monotonic()]

    def on_request(self, _client, context):
        request = context.request
        if request is None:
            return
        result, value = request.get_header(GstRtsp.RTSPHeaderField.SESSION, 0)
        if result != GstRtsp.RTSPResult.OK or not value:
            return
        entry = self.sessions.get(value.split(";", 1)[0].strip())
        if entry is not None:
            entry[2] = time.monotonic()

    def on_session_removed(self, _pool, session):
        self.sessions.pop(session.get_sessionid(), None)

    def check(self):
        # GStreamer's own expiry (UDP sessions without RTCP, the default 60 s timeout).
        removed = self.pool.cleanup()
        if removed:
            log(f"expired {removed} idle session(s)")
        now = time.monotonic()
        for session_id, (session, client, last) in list(self.sessions.items()):
            if now - last < self.timeout:
                continue
            log(f"session {session_id} had no keepalive for {self.timeout} s: expiring it")
            self.sessions.pop(session_id, None)
            self.pool.remove(session)
            if not any(other is client for _, other, _ in self.sessions.values()):
                client.close()
        return GLib.SOURCE_CONTINUE


class RequestLog:
    """Appends each request's method to a file as the server receives it (--request-log)."""

    SIGNALS = {
        "options-request": "OPTIONS", "describe-request": "DESCRIBE", "setup-request": "SETUP",
        "play-request": "PLAY", "pause-request": "PAUSE", "teardown-request": "TEARDOWN",
        "get-parameter-request": "GET_PARAMETER", "set-parameter-request": "SET_PARAMETER",
    }

    def __init__(self, server, path):
        self.file = open(path, "a", buffering=1)
        server.connect("client-connected", self.on_client_connected)

    def on_client_connected(self, _server, client):
        for signal_name, method in self.SIGNALS.items():
            client.connect(signal_name, lambda _client, _context, method=method: self.file.write(method + "\n"))


def main(argv):
    # A parent (the Swift test runner) may hand us a signal mask that blocks SIGTERM/SIGINT;
    # unblock them so GLib's handlers below can run.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    args = parse_arguments(argv)
    Gst.init(None)

    clip = Clip(os.path.abspath(args.file), args.codec, args.fps) if args.file else None

    server = GstRtspServer.RTSPServer()
    server.set_address(HOST)
    server.set_service(str(args.port))
    auth = make_auth(args)
    if auth is not None:
        server.set_auth(auth)

    launch = launch_line(args)
    log(f"pipeline: {launch}")
    mounts = server.get_mount_points()
    for path in args.paths:
        mounts.add_factory(path, make_factory(args, launch, auth is not None, clip))

    SessionTimeoutEnforcer(server, args.session_timeout)
    if args.request_log:
        RequestLog(server, args.request_log)

    loop = GLib.MainLoop()
    exit_status = {"code": 0}

    def stop(reason, code=0):
        log(f"stopping: {reason}")
        exit_status["code"] = code
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, stop, "SIGTERM")
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGINT, stop, "SIGINT")

    if args.exit_with_parent:
        parent = os.getppid()

        def watch_parent():
            if os.getppid() != parent:
                return stop("the process that started us is gone")
            return GLib.SOURCE_CONTINUE

        GLib.timeout_add(1000, watch_parent)

    try:
        source_id = server.attach(None)
    except GLib.Error as error:
        raise SystemExit(f"rtsp_server: cannot listen on {HOST}:{args.port}: {error.message}")
    if source_id == 0:
        raise SystemExit(f"rtsp_server: cannot listen on {HOST}:{args.port} (port in use?)")
    port = server.get_bound_port()
    scheme = "rtsps" if args.tls_cert else "rtsp"
    log("serving " + ", ".join(f"{scheme}://{HOST}:{port}{path}" for path in args.paths))
    sys.stdout.write(f"READY {port}\n")
    sys.stdout.flush()

    try:
        loop.run()
    finally:
        GLib.source_remove(source_id)
    # Leave at once: GStreamer's streaming threads (the encoder, appsrc feeds, client callbacks) may still call
    # into Python while the interpreter finalizes, which crashed it once (SIGSEGV on SIGTERM in a CI run). Every
    # file this script writes is line-buffered; stdout and stderr are flushed here.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(exit_status["code"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
