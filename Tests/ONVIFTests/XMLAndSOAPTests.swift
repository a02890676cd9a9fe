import XCTest
@testable import ONVIF

final class XMLAndSOAPTests: XCTestCase {
    func testNamespacesResolveWhateverThePrefix() throws {
        let prefixed = try XMLTreeParser.parse("<a:Root xmlns:a=\"urn:x\" xmlns:b=\"urn:y\"><b:Child k=\"v\"> text </b:Child><Extra/></a:Root>")
        let defaulted = try XMLTreeParser.parse("<Root xmlns=\"urn:x\"><Child xmlns=\"urn:y\" k=\"v\"> text </Child></Root>")
        for root in [prefixed, defaulted] {
            XCTAssertTrue(root.matches("Root", in: "urn:x"))
            XCTAssertEqual(root.child("Child", in: "urn:y")?.trimmedText, "text")
            XCTAssertEqual(root.child("Child", in: "urn:y")?.attributes["k"], "v")
            XCTAssertNil(root.child("Child", in: "urn:x"), "matching is on the namespace URI, not the local name alone")
        }
        XCTAssertEqual(prefixed.children.count, 2, "unknown elements are kept, not rejected")
    }

    func testQNamesInTextResolveAgainstBindingsInScope() throws {
        let root = try XMLTreeParser.parse("<r xmlns:ter=\"http://www.onvif.org/ver10/error\"><v>ter:NotAuthorized</v></r>")
        let resolved = root.child("v")!.resolveQName("ter:NotAuthorized")
        XCTAssertEqual(resolved.namespace, ONVIFNamespace.error)
        XCTAssertEqual(resolved.localName, "NotAuthorized")
    }

    func testGarbageIsAnErrorThatSaysSo() {
        for garbage in ["", "   \n", "<html><body>Welcome</body><<<", "not xml at all", "<a><b></a>", "\u{0}\u{1}binary"] {
            XCTAssertThrowsError(try XMLTreeParser.parse(garbage), "'\(garbage)'") { error in
                XCTAssertFalse((error as? XMLTreeParser.ParseError)?.detail.isEmpty ?? true)
            }
        }
    }

    func testSOAPResponseRejectsXMLThatIsNotAnEnvelope() {
        XCTAssertThrowsError(try SOAPResponse.parse(Data("<html><body>hi</body></html>".utf8))) { error in
            XCTAssertTrue((error as! SOAPResponseError).detail.contains("not a SOAP 1.2 Envelope"))
        }
        XCTAssertThrowsError(try SOAPResponse.parse(Data("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body/></s:Envelope>".utf8)))
    }

    func testNotAuthorizedFaultIsAnAuthenticationFailure() throws {
        guard case .fault(let fault) = try SOAPResponse.parse(try Fixture.data("not_authorized_fault.xml")) else {
            return XCTFail("expected a fault")
        }
        XCTAssertEqual(fault.code, "env:Sender")
        XCTAssertEqual(fault.subcodes, ["ter:NotAuthorized"])
        XCTAssertEqual(fault.resolvedSubcodes.first?.namespace, ONVIFNamespace.error)
        XCTAssertEqual(fault.reason, "Sender not Authorized")
        XCTAssertTrue(fault.isAuthenticationFailure)
        XCTAssertEqual(fault.codeDescription, "env:Sender / ter:NotAuthorized")
    }

    func testOtherFaultsAreNotAuthenticationFailures() throws {
        let xml = "<S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:e=\"http://www.onvif.org/ver10/error\"><S:Body><S:Fault><S:Code><S:Value>S:Receiver</S:Value><S:Subcode><S:Value>e:ActionNotSupported</S:Value></S:Subcode></S:Code><S:Reason><S:Text xml:lang=\"en\">Optional Action Not Implemented</S:Text></S:Reason></S:Fault></S:Body></S:Envelope>"
        guard case .fault(let fault) = try SOAPResponse.parse(Data(xml.utf8)) else { return XCTFail("expected a fault") }
        XCTAssertFalse(fault.isAuthenticationFailure)
        XCTAssertEqual(fault.resolvedSubcodes.first?.localName, "ActionNotSupported")
    }

    func testEnvelopeAndRequestsAreWellFormedAndEscaped() throws {
        let request = ONVIFRequest.getStreamURIMedia1(profileToken: "a<b&\"c")
        let token = WSSecurityUsernameToken(username: "ad<min", password: "pw", nonce: [1, 2, 3], created: "2024-01-01T00:00:00Z")
        let envelope = SOAPEnvelope(body: request.body, headerBlocks: [token.headerXML])
        let root = try XMLTreeParser.parse(envelope.xml)
        XCTAssertTrue(root.matches("Envelope", in: ONVIFNamespace.soapEnvelope))
        let body = root.child("Body", in: ONVIFNamespace.soapEnvelope)!.children[0]
        XCTAssertTrue(body.matches("GetStreamUri", in: ONVIFNamespace.media))
        XCTAssertEqual(body.child("ProfileToken", in: ONVIFNamespace.media)?.text, "a<b&\"c")
        XCTAssertEqual(body.path("StreamSetup", "Stream")?.text, "RTP-Unicast")
        XCTAssertEqual(body.path("StreamSetup", "Transport", "Protocol")?.text, "RTSP")
        let usernameToken = root.first("UsernameToken", in: ONVIFNamespace.wsse)!
        XCTAssertEqual(usernameToken.child("Username", in: ONVIFNamespace.wsse)?.text, "ad<min")
        XCTAssertEqual(usernameToken.child("Nonce", in: ONVIFNamespace.wsse)?.text, "AQID")
        XCTAssertEqual(usernameToken.child("Created", in: ONVIFNamespace.wsu)?.text, "2024-01-01T00:00:00Z")
        XCTAssertEqual(request.action, "http://www.onvif.org/ver10/media/wsdl/GetStreamUri")
        XCTAssertTrue(try XMLTreeParser.parse(SOAPEnvelope(body: ONVIFRequest.getProfilesMedia2.body).xml)
            .first("Type", in: ONVIFNamespace.media2)?.text == "All")
    }

    func testURLsLoseTheirUserinfo() {
        let endpoint = HTTPEndpoint("http://admin:s3cret@10.0.0.5:8080/onvif/device_service")!
        XCTAssertEqual(endpoint.redacted, "http://10.0.0.5:8080/onvif/device_service")
        XCTAssertEqual(endpoint.userinfo?.username, "admin")
        XCTAssertEqual(endpoint.userinfo?.password, "s3cret")
        XCTAssertEqual(HTTPEndpoint.redact("rtsp://u:p@h/x"), "rtsp://h/x")
        XCTAssertNil(HTTPEndpoint("https://10.0.0.5/onvif/device_service"))
        XCTAssertNil(HTTPEndpoint("not a url"))
        XCTAssertFalse(ONVIFError.invalidURL(HTTPEndpoint.redact("ftp://a:pw@h")).description.contains("pw"))
    }
}
