// onvif-probe-tool: runs WSDiscoveryClient.probe once and prints what it heard as JSON lines, so the
// WS-Discovery integration test can run our client inside a network namespace it created
// (`ip netns exec NS onvif-probe-tool --interface 10.77.0.2 --timeout 4`). Test-only; not a product.
import Foundation
import ONVIF

var interfaceAddress: String?
var timeout = 3.0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--interface": interfaceAddress = arguments.popFirst()
    case "--timeout": timeout = arguments.popFirst().flatMap(Double.init) ?? timeout
    default:
        FileHandle.standardError.write(Data("usage: onvif-probe-tool [--interface IPV4] [--timeout SECONDS]\n".utf8))
        exit(2)
    }
}

struct Line: Encodable {
    var event: String
    var match: WSDiscoveryMatch?
    var endpointReference: String?
    var matches: [WSDiscoveryMatch]?
    var hellos: [WSDiscoveryMatch]?
    var byes: [String]?
}

func emit(_ line: Line) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(line) else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

do {
    let result = try await WSDiscoveryClient().probe(interfaceAddress: interfaceAddress,
                                                     timeout: .milliseconds(Int(timeout * 1000))) { event in
        switch event {
        case .match(let match): emit(Line(event: "match", match: match))
        case .hello(let match): emit(Line(event: "hello", match: match))
        case .bye(let reference): emit(Line(event: "bye", endpointReference: reference))
        }
    }
    emit(Line(event: "result", matches: result.matches, hellos: result.hellos, byes: result.byes))
} catch {
    FileHandle.standardError.write(Data("onvif-probe-tool: \(error)\n".utf8))
    exit(1)
}
