import Foundation
@testable import ONVIF

/// Loads a fixture, filling the peer's placeholders with fixed values for the pure tests.
enum Fixture {
    static var directory: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    }

    static func data(_ name: String, placeholders: [String: String] = [:]) throws -> Data {
        var text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let defaults = ["@UTC_YEAR@": "2024", "@UTC_MONTH@": "7", "@UTC_DAY@": "9", "@UTC_HOUR@": "16",
                        "@UTC_MINUTE@": "49", "@UTC_SECOND@": "6", "@LOCAL_HOUR@": "0", "@HOST@": "192.0.2.10",
                        "@RTSP_HOST@": "127.0.0.1", "@RTSP_PORT@": "554", "@STREAM_PATH@": "Profile_1", "@RELATES_TO@": "urn:uuid:probe-1"]
        for (key, value) in defaults.merging(placeholders, uniquingKeysWith: { $1 }) {
            text = text.replacingOccurrences(of: key, with: value)
        }
        return Data(text.utf8)
    }

    /// The body element of a fixture that must not be a fault.
    static func body(_ name: String) throws -> XMLTreeElement {
        switch try SOAPResponse.parse(try data(name)) {
        case .body(let element): return element
        case .fault(let fault): throw SOAPResponseError(detail: "unexpected fault \(fault.codeDescription)")
        }
    }
}
