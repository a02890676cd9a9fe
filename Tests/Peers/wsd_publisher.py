#!/usr/bin/python3
"""Publishes ONVIF NetworkVideoTransmitters with `wsdiscovery` (PyPI) for WatchBox's WS-Discovery test.

Commands on stdin, one per line (answers "ok <command>" on stdout when done):
  publish <endpoint-urn> <name> <xaddr>   start a publisher: it sends Hello and answers Probes
  bye <endpoint-urn>                      stop it: it sends Bye
EOF (or "quit") stops everything. Run inside a network namespace: it multicasts.
"""
import signal, sys, time, urllib.parse

signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})

from wsdiscovery import QName, Scope
from wsdiscovery.publishing import ThreadedWSPublishing

NVT = QName("http://www.onvif.org/ver10/network/wsdl", "NetworkVideoTransmitter", "dn")
publishers = {}

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "publish" and len(words) == 4:
        epr, name, xaddr = words[1], words[2], words[3]
        publisher = ThreadedWSPublishing(uuid_=epr, relates_to=True)
        publisher.start()
        scopes = [Scope("onvif://www.onvif.org/name/" + urllib.parse.quote(name.replace("_", " "))),
                  Scope("onvif://www.onvif.org/hardware/WSD-TEST-1"),
                  Scope("onvif://www.onvif.org/location/country/test%20lab"),
                  Scope("onvif://www.onvif.org/Profile/Streaming")]
        publisher.publishService(types=[NVT], scopes=scopes, xAddrs=[xaddr])
        publishers[epr] = publisher
    elif words[0] == "bye" and len(words) == 2 and words[1] in publishers:
        publisher = publishers.pop(words[1])
        publisher.clearLocalServices()  # sends Bye (ThreadedNetworking.stop alone would not)
        time.sleep(0.5)
        publisher.stop()
    elif words[0] == "quit":
        break
    print("ok " + line.strip(), flush=True)

for publisher in publishers.values():
    publisher.clearLocalServices()
time.sleep(0.3)
for publisher in publishers.values():
    publisher.stop()
