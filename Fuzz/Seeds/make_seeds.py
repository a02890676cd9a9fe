#!/usr/bin/python3
"""Writes the fuzzers' seed corpora under Fuzz/Seeds/<target>/ from a real RTSP session.

The bytes come from GStreamer's RTSP server (Tests/Peers/rtsp_server.py, on 127.0.0.1):
its responses, SDPs, interleaved RTP/RTCP and H.264/H.265 payloads, cut small and put in
each harness's input layout (see the doc comment of each Fuzz/Sources/<target>). A few
seeds are built by hand where the server never sends such a thing (STAP-A, AP, an RTP
header extension, a request from the server). The seeds are committed; run this again
only to refresh them:  /usr/bin/python3 Fuzz/Seeds/make_seeds.py
"""

import base64
import os
import re
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "..", "..", "Tests", "Peers", "rtsp_server.py")


class Peer:
    def __init__(self, *arguments):
        self.process = subprocess.Popen(
            ["/usr/bin/python3", PEER, "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("READY "):
            raise SystemExit(f"the peer did not start: {line!r}")
        self.port = int(line.split()[1])

    def url(self, path="/stream"):
        return f"rtsp://127.0.0.1:{self.port}{path}"

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Transcript:
    """A raw RTSP session: every byte the server sent, in order."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.socket.settimeout(5)
        self.received = bytearray()
        self.cseq = 0

    def request(self, method, url, headers=""):
        self.cseq += 1
        self.socket.sendall(f"{method} {url} RTSP/1.0\r\nCSeq: {self.cseq}\r\n{headers}\r\n".encode())
        start = len(self.received)
        while True:
            head_end = self.received.find(b"\r\n\r\n", start)
            if head_end >= 0:
                head = self.received[start:head_end].decode()
                match = re.search(r"content-length:\s*(\d+)", head, re.I)
                end = head_end + 4 + (int(match.group(1)) if match else 0)
                if len(self.received) >= end:
                    return head, bytes(self.received[head_end + 4:end]), bytes(self.received[start:end])
            self.received += self.socket.recv(65536)

    def read_for(self, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.received += self.socket.recv(65536)


def interleaved_frames(data):
    """(channel, payload) for the `$` frames in data, skipping RTSP messages."""
    frames, i = [], 0
    while i + 4 <= len(data):
        if data[i] == 0x24:
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if i + 4 + length > len(data):
                break
            frames.append((data[i + 1], bytes(data[i + 4:i + 4 + length])))
            i += 4 + length
        else:
            end = data.find(b"\r\n\r\n", i)
            if end < 0:
                break
            i = end + 4
    return frames


def session(peer, tracks):
    transcript = Transcript(peer.port)
    transcript.request("OPTIONS", peer.url())
    head, sdp, _ = transcript.request("DESCRIBE", peer.url(), "Accept: application/sdp\r\n")
    controls = re.findall(r"a=control:(\S+)", sdp.decode())[1:]
    session_id = None
    for index, control in enumerate(controls[:tracks]):
        url = control if control.startswith("rtsp") else f"{peer.url()}/{control}"
        extra = f"Session: {session_id}\r\n" if session_id else ""
        head, _, _ = transcript.request(
            "SETUP", url, f"Transport: RTP/AVP/TCP;unicast;interleaved={2 * index}-{2 * index + 1}\r\n{extra}")
        session_id = re.search(r"Session:\s*([^;\r\n]+)", head).group(1)
    play_start = len(transcript.received)
    transcript.request("PLAY", peer.url(), f"Session: {session_id}\r\nRange: npt=0.000-\r\n")
    transcript.read_for(1.2)
    transcript.socket.close()
    return sdp, bytes(transcript.received), play_start


def write(target, name, data):
    directory = os.path.join(HERE, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as file:
        file.write(data)
    print(f"{target}/{name}: {len(data)} bytes")


def rtp_fields(packet):
    csrc_count = packet[0] & 0x0F
    offset = 12 + 4 * csrc_count
    if packet[0] & 0x10:
        offset += 4 + 4 * struct.unpack(">H", packet[offset + 2:offset + 4])[0]
    end = len(packet) - (packet[-1] if packet[0] & 0x20 else 0)
    sequence, timestamp = struct.unpack(">HI", packet[2:8])
    return sequence, timestamp, bool(packet[1] & 0x80), packet[offset:end]


def pseudo_packets(packets, parameter_sets=None):
    """Encodes RTP packets in DepacketizerSession's layout (Fuzz/Sources/FuzzVideoSupport)."""
    first_sequence, first_timestamp, _, _ = rtp_fields(packets[0])
    out = bytearray()
    flags = 1 if parameter_sets else 0
    out += struct.pack(">BHI", flags, (first_sequence - 1) & 0xFFFF, first_timestamp)
    if parameter_sets:
        annexb = b"".join(b"\x00\x00\x00\x01" + nal for nal in parameter_sets)
        out += struct.pack(">H", len(annexb)) + annexb
    previous_sequence, previous_timestamp = (first_sequence - 1) & 0xFFFF, first_timestamp
    for packet in packets:
        sequence, timestamp, marker, payload = rtp_fields(packet)
        step = {0: 0, 3600: 1, 3000: 2}.get((timestamp - previous_timestamp) & 0xFFFFFFFF, 1)
        sequence_step = {1: 0, 2: 2, 0: 3}.get((sequence - previous_sequence) & 0xFFFF, 0)
        control = int(marker) | step << 1 | sequence_step << 3
        if len(payload) > 255:
            out += struct.pack(">BH", control | 0x20, len(payload)) + payload
        else:
            out += struct.pack(">BB", control, len(payload)) + payload
        previous_sequence, previous_timestamp = sequence, timestamp
    return bytes(out)


def video_packets_from_keyframe(frames, is_parameter_set, limit):
    packets = [payload for channel, payload in frames if channel == 0]
    for index, packet in enumerate(packets):
        if is_parameter_set(rtp_fields(packet)[3]):
            return packets[index:index + limit]
    raise SystemExit("no keyframe in the capture")


def sprop(sdp, key):
    match = re.search(key + r"=([^;\s]+)", sdp)
    return [base64.b64decode(item + "=" * (-len(item) % 4)) for item in match.group(1).split(",")] if match else []


def main():
    # H.264 + AAC, small pictures so that a keyframe fits in a small seed.
    peer = Peer("--width", "320", "--height", "240", "--key-int", "10", "--audio", "aac")
    try:
        sdp264, capture, play_start = session(peer, tracks=2)
    finally:
        peer.stop()
    frames = interleaved_frames(capture)
    messages_end = capture.find(b"$")
    write("FuzzSDP", "gstreamer_h264_aac.sdp", sdp264)
    write("FuzzRTSPStream", "options_describe_setup_play.bin", b"\x00\x00" + capture[:messages_end])
    write("FuzzRTSPStream", "play_then_interleaved.bin", b"\x00\x05" + capture[play_start:play_start + 3000])
    write("FuzzRTSPStream", "small_limits.bin", b"\x0b\x09" + capture[:messages_end])
    server_request = (b"GET_PARAMETER rtsp://127.0.0.1:8554/stream RTSP/1.0\r\nCSeq: 7\r\n"
                      b"Session: 1234abcd\r\nContent-Type: text/parameters\r\nContent-Length: 8\r\n\r\n"
                      b"position")
    write("FuzzRTSPStream", "garbage_request_empty_frame.bin",
          b"\x00\x11" + b"\x00\xffjunk\r\n" + server_request + b"$\x01\x00\x00" + capture[play_start:play_start + 600])

    video = [payload for channel, payload in frames if channel == 0]
    rtcp = [payload for channel, payload in frames if channel in (1, 3)]
    write("FuzzRTP", "rtp_h264.bin", video[0])
    write("FuzzRTP", "rtp_fu_a_start.bin",
          next(p for p in video if rtp_fields(p)[3][:1] and rtp_fields(p)[3][0] & 0x1F == 28)[:200])
    if rtcp:
        write("FuzzRTP", "rtcp_from_server.bin", rtcp[0])
    # RFC 3550 §6.4.1 SR with one report block, then §6.5 SDES with a CNAME: a compound packet.
    sender_report = struct.pack(">BBHI", 0x81, 200, 12, 0xCAFEBABE)
    sender_report += struct.pack(">QIII", 0xE7A1_2B3C_8000_0000, 123456789, 250, 250 * 1400)
    sender_report += struct.pack(">IIIIII", 0x1234, 0x0100_0002, 0x0001_0010, 17, 0x2B3C8000, 6554)
    cname = b"user@127.0.0.1"
    chunk = struct.pack(">IBB", 0xCAFEBABE, 1, len(cname)) + cname
    chunk += b"\x00" * (4 - len(chunk) % 4)
    sdes = struct.pack(">BBHI", 0x81, 202, len(chunk) // 4, 0)[:4] + chunk
    goodbye = struct.pack(">BBHI", 0x81, 203, 1, 0xCAFEBABE)
    write("FuzzRTP", "rtcp_sr_sdes_bye.bin", sender_report + sdes + goodbye)
    payload = b"\x65\x88\x84\x00"
    header = struct.pack(">BBHII", 0x80 | 0x20 | 0x10 | 2, 0x80 | 96, 65535, 0xFFFFFF00, 0xCAFEBABE)
    header += struct.pack(">II", 1, 2) + struct.pack(">HH", 0xBEDE, 1) + b"\x10\xaa\x00\x00"
    write("FuzzRTP", "rtp_csrc_extension_padding.bin", header + payload + b"\x00\x00\x03")

    h264 = video_packets_from_keyframe(frames, lambda p: p[:1] != b"" and p[0] & 0x1F == 7, 20)
    write("FuzzH264", "keyframe_fu_a_then_p_frames.bin", pseudo_packets(h264))
    sps, pps = sprop(sdp264.decode(), "sprop-parameter-sets")[:2]
    stap = b"\x18" + struct.pack(">H", len(sps)) + sps + struct.pack(">H", len(pps)) + pps
    stap_packet = struct.pack(">BBHII", 0x80, 96, 1, 0, 1) + stap
    write("FuzzH264", "sprop_stap_a_keyframe.bin",
          pseudo_packets([stap_packet] + [p for p in h264 if rtp_fields(p)[3][0] & 0x1F not in (7, 8)][:12],
                         parameter_sets=[sps, pps]))

    # H.265.
    peer = Peer("--codec", "h265", "--width", "320", "--height", "240", "--key-int", "10")
    try:
        sdp265, capture265, _ = session(peer, tracks=1)
    finally:
        peer.stop()
    write("FuzzSDP", "gstreamer_h265.sdp", sdp265)
    frames265 = interleaved_frames(capture265)
    h265 = video_packets_from_keyframe(frames265, lambda p: len(p) > 1 and (p[0] >> 1) & 0x3F == 32, 16)
    write("FuzzH265", "keyframe_fu_then_p_frames.bin", pseudo_packets(h265))
    text = sdp265.decode()
    vps, sps, pps = (sprop(text, "sprop-vps") + [b""])[0], (sprop(text, "sprop-sps") + [b""])[0], \
        (sprop(text, "sprop-pps") + [b""])[0]
    aggregation = b"\x60\x01" + b"".join(struct.pack(">H", len(n)) + n for n in (vps, sps, pps))
    ap_packet = struct.pack(">BBHII", 0x80, 96, 1, 0, 1) + aggregation
    write("FuzzH265", "sprop_ap_keyframe.bin",
          pseudo_packets([ap_packet] + [p for p in h265 if (rtp_fields(p)[3][0] >> 1) & 0x3F not in (32, 33, 34)][:10],
                         parameter_sets=[vps, sps, pps]))


if __name__ == "__main__":
    sys.exit(main())
