import Discovery
import Foundation
import Testing

@Suite("IPv4 addresses and CIDR subnets (RFC 4632)")
struct SubnetTests {
    @Test func parsesDottedDecimalStrictly() {
        #expect(IPv4Address("192.168.1.20")?.value == 0xC0A8_0114)
        #expect(IPv4Address("0.0.0.0")?.value == 0)
        #expect(IPv4Address("255.255.255.255")?.value == .max)
        for bad in ["10.0.0", "10.0.0.0.1", "10.0.0.256", "10.0..1", "010.0.0.1", "a.b.c.d", "10.0.0.-1", "", " 10.0.0.1", "10.0.0.1 ", "1e1.0.0.1"] {
            #expect(IPv4Address(bad) == nil, "\(bad)")
        }
        #expect(IPv4Address(0xC0A8_0114).description == "192.168.1.20")
    }

    @Test func parsesCIDRAndNormalisesToTheNetwork() throws {
        let subnet = try IPv4Subnet(parsing: "10.0.0.7/24")
        #expect(subnet.description == "10.0.0.0/24")
        #expect(subnet.prefixLength == 24)
        #expect(subnet.hostCount == 254)
        #expect(subnet.broadcast.description == "10.0.0.255")
        #expect(subnet.contains(IPv4Address("10.0.0.255")!))
        #expect(!subnet.contains(IPv4Address("10.0.1.0")!))
        let bare = try IPv4Subnet(parsing: "192.168.1.20")
        #expect(bare.description == "192.168.1.20/32")
        #expect(Array(bare.hosts).map(\.description) == ["192.168.1.20"])
        #expect(try IPv4Subnet(parsing: " 10.1.2.3/8 ").description == "10.0.0.0/8")
        #expect(try IPv4Subnet(parsing: "1.2.3.4/0").addressCount == 1 << 32)
    }

    @Test func invalidSubnetsSayHowToWriteOne() {
        for bad in ["10.0.0/24", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/24/1", "/24", "10.0.0.0/2a", "cam.local/24", "10.0.0.0/024"] {
            #expect(throws: DiscoveryError.invalidSubnet(bad)) { try IPv4Subnet(parsing: bad) }
        }
        #expect(DiscoveryError.invalidSubnet("10.0.0/24").description
                == "invalid subnet '10.0.0/24': write it as A.B.C.D/N, e.g. 192.168.1.0/24")
    }

    @Test func hostsSkipNetworkAndBroadcastUpToSlash30() throws {
        #expect(Array(try IPv4Subnet(parsing: "10.0.0.0/30").hosts).map(\.description) == ["10.0.0.1", "10.0.0.2"])
        #expect(Array(try IPv4Subnet(parsing: "10.0.0.4/31").hosts).map(\.description) == ["10.0.0.4", "10.0.0.5"])
        let slash24 = Array(try IPv4Subnet(parsing: "10.78.0.0/24").hosts)
        #expect(slash24.count == 254)
        #expect(slash24.first?.description == "10.78.0.1")
        #expect(slash24.last?.description == "10.78.0.254")
        let slash22 = try IPv4Subnet(parsing: "10.0.0.0/22")
        #expect(Array(slash22.hosts).count == 1022)
        #expect(slash22.hostCount == 1022)
        // The top of the address space does not overflow.
        #expect(Array(try IPv4Subnet(parsing: "255.255.255.252/30").hosts).map(\.description) == ["255.255.255.253", "255.255.255.254"])
    }

    @Test func sizeGuard() throws {
        try IPv4Subnet(parsing: "10.0.0.0/22").checkSize(allowLarge: false)
        let slash21 = try IPv4Subnet(parsing: "10.0.0.0/21")
        #expect(throws: DiscoveryError.subnetNeedsConfirmation(slash21)) { try slash21.checkSize(allowLarge: false) }
        try slash21.checkSize(allowLarge: true)
        try IPv4Subnet(parsing: "10.0.0.0/16").checkSize(allowLarge: true)
        let slash8 = try IPv4Subnet(parsing: "10.0.0.0/8")
        #expect(throws: DiscoveryError.subnetTooLarge(slash8)) { try slash8.checkSize(allowLarge: true) }
        #expect(DiscoveryError.subnetTooLarge(slash8).description.contains("10.0.0.0/8 is too large"))
        #expect(throws: DiscoveryError.subnetTooLarge(try IPv4Subnet(parsing: "10.0.0.0/15"))) {
            try IPv4Subnet.parseList(["10.0.0.0/15"], allowLarge: true)
        }
        #expect(try IPv4Subnet.parseList(["10.0.0.0/24", "10.0.0.9/24", "127.0.0.1"], allowLarge: false).map(\.description)
                == ["10.0.0.0/24", "127.0.0.1/32"])
    }

    @Test func scopeRefusesAddressesOutsideItsRanges() throws {
        let scope = ScanScope([try IPv4Subnet(parsing: "10.78.0.0/24"), try IPv4Subnet(parsing: "127.0.0.1")])
        try scope.authorize(IPv4Address("10.78.0.200")!)
        try scope.authorize(host: "127.0.0.1")
        #expect(throws: DiscoveryError.outsideRange("10.78.1.1")) { try scope.authorize(IPv4Address("10.78.1.1")!) }
        #expect(throws: DiscoveryError.outsideRange("127.0.0.2")) { try scope.authorize(host: "127.0.0.2") }
        #expect(throws: DiscoveryError.outsideRange("localhost")) { try scope.authorize(host: "localhost") }
        let overlapping = ScanScope([try IPv4Subnet(parsing: "10.0.0.0/30"), try IPv4Subnet(parsing: "10.0.0.2")])
        #expect(overlapping.hosts.map(\.description) == ["10.0.0.1", "10.0.0.2"])
    }
}

@Suite("Port lists")
struct PortListTests {
    @Test func defaults() {
        #expect(PortList.defaults == [554, 8554, 88, 7447, 5000])
    }

    @Test func parsesListsAndRanges() throws {
        #expect(try PortList.parse("554") == [554])
        #expect(try PortList.parse("554, 8554,88") == [554, 8554, 88])
        #expect(try PortList.parse("8000-8003,554,8001") == [8000, 8001, 8002, 8003, 554])
        #expect(try PortList.validate([554, 554, 1]) == [554, 1])
    }

    @Test func refusesBadPorts() {
        for bad in ["", "0", "65536", "554,,8554", "abc", "10-5", "1-2-3", "-5", "554,", "1-100"] {
            #expect(throws: DiscoveryError.self, "\(bad)") { try PortList.parse(bad) }
        }
        #expect(throws: DiscoveryError.self) { try PortList.validate([]) }
        #expect(throws: DiscoveryError.self) { try PortList.validate([70000]) }
        #expect(DiscoveryError.invalidPorts("'abc' is not a port number").description
                == "invalid port list: 'abc' is not a port number; write numbers 1-65535 separated by commas, e.g. 554,8554")
    }
}

@Suite("Neighbour table (/proc/net/arp)")
struct NeighborTableTests {
    @Test func incompleteEntriesAreUnanswered() {
        let text = """
            IP address       HW type     Flags       HW address            Mask     Device
            10.78.0.10       0x1         0x2         5a:1e:33:0c:9b:01     *        br0
            10.78.0.77       0x1         0x0         00:00:00:00:00:00     *        br0
            10.78.0.12       0x1         0x6         5a:1e:33:0c:9b:02     *        br0
            garbage line
            """
        let table = NeighborTable(procNetARP: text)
        #expect(table.entries.count == 3)
        #expect(table.isUnanswered(IPv4Address("10.78.0.77")!))
        #expect(!table.isUnanswered(IPv4Address("10.78.0.10")!))
        #expect(!table.isUnanswered(IPv4Address("10.78.0.12")!), "0x6: complete and permanent")
        #expect(!table.isUnanswered(IPv4Address("10.78.0.99")!), "no entry: off-link or never asked, so not known absent")
    }

    /// /proc/net/arp has no size, so it must be read to its end: a FIFO written in small pieces behaves the same
    /// (st_size 0, each read(2) returns part). 253 entries (~20 KB, a /24) must all be there; reading one page
    /// gave only the first ~50 (the bug behind the sparse /24's 4.6 s scan).
    @Test func loadsATableLargerThanAPageFromAFileWithoutSize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wb-arp-\(getpid())-\(Int.random(in: 0..<1_000_000))").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        var text = "IP address       HW type     Flags       HW address            Mask     Device\n"
        for n in 2...254 {
            text += "10.79.0.\(n)".padding(toLength: 17, withPad: " ", startingAt: 0)
                + "0x1         \(n == 10 ? "0x2" : "0x0")         00:00:00:00:00:00     *        br0\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 16_384)
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let count = min(1000, bytes.count - offset)
                _ = bytes[offset..<offset + count].withUnsafeBytes { write(descriptor, $0.baseAddress, count) }
                offset += count
                usleep(500)
            }
            close(descriptor)
        }
        writer.start()
        let table = try #require(NeighborTable.load(path: path))
        #expect(table.entries.count == 253)
        #expect(table.isUnanswered(IPv4Address("10.79.0.254")!), "the last entry, far past the first page")
        #expect(!table.isUnanswered(IPv4Address("10.79.0.10")!))
    }
}
