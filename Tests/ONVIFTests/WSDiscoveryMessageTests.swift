import XCTest
@testable import ONVIF

final class WSDiscoveryMessageTests: XCTestCase {
    func testProbeIsAWellFormedNetworkVideoTransmitterProbe() throws {
        let probe = WSDiscoveryProbe(messageID: "urn:uuid:1234")
        let root = try XMLTreeParser.parse(probe.xml)
        let header = root.child("Header", in: ONVIFNamespace.soapEnvelope)!
        XCTAssertEqual(header.child("Action", in: ONVIFNamespace.addressing)?.text, WSDiscoveryProbe.probeAction)
        XCTAssertEqual(header.child("MessageID", in: ONVIFNamespace.addressing)?.text, "urn:uuid:1234")
        XCTAssertEqual(header.child("To", in: ONVIFNamespace.addressing)?.text, "urn:schemas-xmlsoap-org:ws:2005:04:discovery")
        let types = root.first("Types", in: ONVIFNamespace.discovery)!
        let resolved = types.resolveQName(types.text)
        XCTAssertEqual(resolved.namespace, ONVIFNamespace.network)
        XCTAssertEqual(resolved.localName, "NetworkVideoTransmitter")
    }

    func testHikvisionProbeMatches() throws {
        // A real Hikvision DS-2CD3955FWD-IWS answer: `env:` envelope, `wsadis:` addressing, `d:` discovery,
        // a plain `uuid:` RelatesTo, one scope per Profile (Streaming and G), an IPv6 link-local XAddr.
        let message = try WSDiscoveryMessage.parse(try Fixture.data("hikvision/ProbeMatches.xml"), sourceAddress: "192.168.0.218")
        guard case .probeMatches(let relatesTo, let matches) = message else { return XCTFail("\(message)") }
        XCTAssertEqual(relatesTo, "uuid:bfe8bb88-03a2-4e1a-904a-59a7d2882649")
        XCTAssertEqual(matches.count, 1)
        let match = matches[0]
        XCTAssertEqual(match.endpointReference, "urn:uuid:18ec6401-3aa0-11b5-83f6-b4a3820fd92d")
        XCTAssertEqual(match.xAddrs, ["http://192.168.0.218/onvif/device_service", "http://[fe80::b6a3:82ff:fe0f:d92d]/onvif/device_service"])
        XCTAssertEqual(match.types, ["dn:NetworkVideoTransmitter", "tds:Device"])
        XCTAssertEqual(match.name, "HIKVISION DS-2CD3955FWD-IWS", "percent-decoded")
        XCTAssertEqual(match.hardware, "DS-2CD3955FWD-IWS")
        XCTAssertEqual(match.location, "city/hangzhou")
        XCTAssertEqual(match.metadataVersion, 10)
        XCTAssertEqual(match.sourceAddress, "192.168.0.218")
        XCTAssertEqual(match.scopes.count, 8)
        XCTAssertTrue(WSDiscoveryMessage.isNetworkVideoTransmitter(match.types))
    }

    func testHelloAndByeWithOtherPrefixes() throws {
        let hello = """
        <SOAP-ENV:Envelope xmlns:SOAP-ENV="http://www.w3.org/2003/05/soap-envelope" xmlns:wsa="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:wsdd="http://schemas.xmlsoap.org/ws/2005/04/discovery" xmlns:tdn="http://www.onvif.org/ver10/network/wsdl"><SOAP-ENV:Header><wsa:Action>http://schemas.xmlsoap.org/ws/2005/04/discovery/Hello</wsa:Action></SOAP-ENV:Header><SOAP-ENV:Body><wsdd:Hello><wsa:EndpointReference><wsa:Address>urn:uuid:abc</wsa:Address></wsa:EndpointReference><wsdd:Types>tdn:NetworkVideoTransmitter</wsdd:Types><wsdd:Scopes>onvif://www.onvif.org/name/VIGI-C350 onvif://www.onvif.org/location/Hong%20Kong</wsdd:Scopes><wsdd:XAddrs>http://10.1.1.2:2020/onvif/device_service</wsdd:XAddrs><wsdd:MetadataVersion>1</wsdd:MetadataVersion></wsdd:Hello></SOAP-ENV:Body></SOAP-ENV:Envelope>
        """
        guard case .hello(let match) = try WSDiscoveryMessage.parse(Data(hello.utf8)) else { return XCTFail() }
        XCTAssertEqual(match.name, "VIGI-C350")
        XCTAssertEqual(match.location, "Hong Kong")
        XCTAssertEqual(match.xAddrs, ["http://10.1.1.2:2020/onvif/device_service"])
        let bye = hello.replacingOccurrences(of: "wsdd:Hello", with: "wsdd:Bye")
        XCTAssertEqual(try WSDiscoveryMessage.parse(Data(bye.utf8)), .bye(endpointReference: "urn:uuid:abc"))
        XCTAssertThrowsError(try WSDiscoveryMessage.parse(Data("garbage".utf8)))
    }

    func testCollectorDeduplicatesMergesAndIgnoresOtherProbesAnswers() {
        var collector = WSDiscoveryCollector(probeMessageID: "urn:uuid:mine")
        let a1 = WSDiscoveryMatch(endpointReference: "urn:uuid:a", xAddrs: ["http://10.0.0.1/onvif/device_service"], name: "A")
        let a2 = WSDiscoveryMatch(endpointReference: "urn:uuid:a", xAddrs: ["http://10.0.0.1/onvif/device_service", "http://[fe80::1]/onvif/device_service"])
        XCTAssertEqual(collector.absorb(.probeMatches(relatesTo: "urn:uuid:mine", matches: [a1])).count, 1)
        XCTAssertEqual(collector.absorb(.probeMatches(relatesTo: "urn:uuid:mine", matches: [a1])).count, 0, "a repeat changes nothing")
        XCTAssertEqual(collector.absorb(.probeMatches(relatesTo: nil, matches: [a2])).count, 1, "new XAddr merged")
        XCTAssertEqual(collector.absorb(.probeMatches(relatesTo: "urn:uuid:someone-else", matches: [WSDiscoveryMatch(endpointReference: "urn:uuid:b")])).count, 0)
        XCTAssertEqual(collector.absorb(.hello(WSDiscoveryMatch(endpointReference: "urn:uuid:c"))), [.hello(WSDiscoveryMatch(endpointReference: "urn:uuid:c"))])
        XCTAssertEqual(collector.absorb(.bye(endpointReference: "urn:uuid:c")), [.bye("urn:uuid:c")])
        XCTAssertEqual(collector.absorb(.bye(endpointReference: "urn:uuid:c")), [])
        let result = collector.result
        XCTAssertEqual(result.matches.count, 1)
        XCTAssertEqual(result.matches[0].xAddrs.count, 2)
        XCTAssertEqual(result.matches[0].name, "A")
        XCTAssertEqual(result.hellos.map(\.endpointReference), ["urn:uuid:c"])
        XCTAssertEqual(result.byes, ["urn:uuid:c"])
    }
}

final class WSDiscoveryClientInputTests: XCTestCase {
    /// An address no interface has is refused before any socket is opened (nothing is sent).
    func testUnknownInterfaceAddressIsAClearError() async {
        do {
            _ = try await WSDiscoveryClient().probe(interfaceAddress: "203.0.113.77", timeout: .seconds(1), onEvent: nil)
            XCTFail("probed from an address this host does not have")
        } catch {
            let message = "\(error)"
            XCTAssertTrue(message.contains("no IPv4 interface has the address 203.0.113.77"), message)
            XCTAssertTrue(message.contains("127.0.0.1"), "lists the addresses to pick from: \(message)")
        }
    }
}
