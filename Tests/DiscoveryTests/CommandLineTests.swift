import Foundation
import Testing
import TestSupport

@Suite("watchbox discover: bad arguments")
struct CommandLineTests {
    @Test(arguments: [
        (["--subnet", "10.0.0/24"], "watchbox: invalid subnet '10.0.0/24': write it as A.B.C.D/N, e.g. 192.168.1.0/24\n"),
        (["--subnet", "10.0.0.0/8"], "watchbox: subnet 10.0.0.0/8 is too large to scan (16777216 addresses): give a /16 or smaller, e.g. 192.168.1.0/24\n"),
        (["--subnet", "10.0.0.0/20"], "watchbox: subnet 10.0.0.0/20 has 4094 hosts (larger than a /22): confirm the long scan (--allow-large), or give a smaller subnet\n"),
        (["--subnet", "127.0.0.1", "--ports", "554,x"], "watchbox: invalid port list: 'x' is not a port number; write numbers 1-65535 separated by commas, e.g. 554,8554\n"),
        (["--subnet", "127.0.0.1", "--password", "p"], "watchbox: --password needs --username too\n"),
    ])
    func badArgumentsExitTwoWithOneLine(arguments: [String], message: String) throws {
        let result = try runCommand(watchboxExecutable, ["discover"] + arguments, timeout: 30)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }
}
