#!/usr/bin/python3
"""Small TCP peers for WatchBox's discovery tests, run inside a test network namespace (or on loopback).

    tcp_peer.py relay   --listen PORT --to PORT   # forwards every connection to 127.0.0.1:PORT (e.g. a
                                                   # GStreamer RTSP server, which listens on loopback only)
    tcp_peer.py garbage --listen PORT             # answers every connection with bytes that are not RTSP
    tcp_peer.py silent  --listen PORT             # accepts connections and never answers
    tcp_peer.py http    --listen PORT             # a minimal HTTP server: open port, not RTSP

--host sets the listening address (default 0.0.0.0: every address of the namespace it runs in; tests run it
only inside namespaces they created, or pass 127.0.0.1). Prints "READY <port>" on stdout once listening.
Stops on SIGTERM, or when its parent goes away.
"""
import argparse
import asyncio
import ctypes
import signal
import sys


def exit_with_parent():
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["relay", "garbage", "silent", "http"])
    parser.add_argument("--listen", type=int, default=0)
    parser.add_argument("--to", type=int)
    parser.add_argument("--host", default="0.0.0.0")
    args = parser.parse_args()
    held = []

    async def handle(reader, writer):
        if args.mode == "relay":
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", args.to)
            except OSError:
                writer.close()
                return
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        elif args.mode == "garbage":
            writer.write(b"\x00\x17SSH-2.0-not-a-camera \xff\xfe garbage garbage garbage\r\n\r\n")
            await writer.drain()
            await asyncio.sleep(30)
            writer.close()
        elif args.mode == "silent":
            held.append(writer)  # keep the connection open, say nothing
            await reader.read()  # until the client goes away
        elif args.mode == "http":
            await reader.read(4096)
            body = b"<html>not a camera</html>"
            writer.write(b"HTTP/1.1 400 Bad Request\r\nServer: tcp_peer\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
            writer.close()

    server = await asyncio.start_server(handle, args.host, args.listen)
    port = server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    async with server:
        await stop


if __name__ == "__main__":
    # The test runner may start us with SIGTERM blocked; we must stop when asked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    exit_with_parent()
    asyncio.run(main())
    sys.exit(0)
