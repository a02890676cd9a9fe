import Foundation
import RTSPCore

/// Merges ONVIF findings and RTSP scan results into one entry per IP address (pure).
public enum DiscoveryMerge {
    public static func merge(onvif: [ONVIFFinding], rtsp: [RTSPHost], registered: [RegisteredCamera]) -> [DiscoveredDevice] {
        var devices: [String: DiscoveredDevice] = [:]
        for finding in onvif {
            var device = devices[finding.ip] ?? DiscoveredDevice(ip: finding.ip)
            device.onvif = true
            device.deviceServiceURL = device.deviceServiceURL ?? finding.deviceServiceURL
            device.name = device.name ?? finding.name
            device.location = device.location ?? finding.location
            device.manufacturer = finding.manufacturer ?? device.manufacturer
            // WS-Discovery's hardware scope is the model when the device query could not tell.
            device.model = finding.model ?? device.model ?? finding.hardware
            device.firmwareVersion = finding.firmwareVersion ?? device.firmwareVersion
            device.serialNumber = finding.serialNumber ?? device.serialNumber
            device.onvifAuthentication = finding.authentication ?? device.onvifAuthentication
            if !finding.profiles.isEmpty { device.profiles = finding.profiles }
            if let error = finding.error { device.onvifError = error }
            if finding.authenticationFailed {
                device.authenticationFailed = true
                device.requiresAuthentication = true
            }
            devices[finding.ip] = device
        }
        for host in rtsp {
            let ip = host.address.description
            var device = devices[ip] ?? DiscoveredDevice(ip: ip)
            for endpoint in host.endpoints where !device.ports.contains(endpoint.port) {
                device.ports.append(endpoint.port)
                device.endpoints.append(endpoint)
                device.server = device.server ?? endpoint.server
                if endpoint.authenticationFailed { device.authenticationFailed = true }
            }
            device.ports.sort()
            devices[ip] = device
        }
        return devices.values.map { device in
            var device = device
            device.rtspURLs = urls(of: device)
            // Needs credentials when a port asked for them and no stream was found anywhere.
            if device.rtspURLs.isEmpty && device.endpoints.contains(where: \.requiresAuthentication) {
                device.requiresAuthentication = true
            }
            device.vendor = VendorGuess.guess(
                manufacturer: device.manufacturer, serverHeaders: device.endpoints.compactMap(\.server),
                workingPaths: device.endpoints.flatMap(\.workingURLs).compactMap { (try? RTSPURL(string: $0))?.path })
            if let camera = registered.first(where: { matches($0, device) }) {
                device.alreadyRegistered = true
                device.registeredCameraID = camera.id
            }
            device.registeredPorts = device.endpoints.map(\.port).filter { port in
                registered.contains { matches($0, device, port: port) }
            }
            return device
        }.sorted { lhs, rhs in
            (IPv4Address(lhs.ip)?.value ?? .max, lhs.ip) < (IPv4Address(rhs.ip)?.value ?? .max, rhs.ip)
        }
    }

    /// ONVIF's stream URIs (profiles in order), then the scan's, each once; credentials stripped.
    static func urls(of device: DiscoveredDevice) -> [String] {
        var result: [String] = []
        let candidates = device.profiles.compactMap(\.streamURI) + device.endpoints.flatMap(\.workingURLs)
        for candidate in candidates {
            let clean = (try? RTSPURL(string: candidate))?.withCredentials(nil).requestURI ?? candidate
            if !result.contains(where: { sameStream($0, clean) }) { result.append(clean) }
        }
        return result
    }

    /// Same host, port and path (the scanner always writes the port; ONVIF often leaves out 554).
    static func sameStream(_ a: String, _ b: String) -> Bool {
        guard let x = try? RTSPURL(string: a), let y = try? RTSPURL(string: b) else { return a == b }
        return x.host.lowercased() == y.host.lowercased() && x.port == y.port && x.path == y.path
    }

    /// A registered camera is this device when one of its URLs is one of the device's, or it has the same
    /// host and one of the device's RTSP ports (or ONVIF stream ports).
    /// The same for one RTSP port of the device: a camera at that host and port, or with one of its URLs.
    public static func matches(_ camera: RegisteredCamera, _ device: DiscoveredDevice, port: Int) -> Bool {
        let urls = device.endpoints.first { $0.port == port }?.workingURLs ?? []
        for url in camera.urls where urls.contains(where: { sameStream($0, url) }) { return true }
        return camera.host == device.ip && camera.port == port
    }

    public static func matches(_ camera: RegisteredCamera, _ device: DiscoveredDevice) -> Bool {
        for url in camera.urls where device.rtspURLs.contains(where: { sameStream($0, url) }) { return true }
        guard let host = camera.host, host == device.ip else { return false }
        let ports = Set(device.ports + device.rtspURLs.compactMap { (try? RTSPURL(string: $0))?.port })
        return ports.contains(camera.port)
    }
}
