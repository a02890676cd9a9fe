import Foundation
import RTSPClient
import RTSPCore

extension RTSPUpstream: HealthCheckable {
    /// OPTIONS and DESCRIBE with the camera's credentials (``RTSPDescribeCheck``): no media, no slot.
    public func checkHealth(timeout: Duration) async -> HealthCheck? {
        do {
            _ = try await RTSPDescribeCheck.run(url: url, configuration: configuration, timeout: timeout, logger: logger)
            return Task.isCancelled ? nil : HealthCheck(at: Date(), failure: nil)
        } catch let error as RTSPClientError {
            return Task.isCancelled ? nil : HealthCheck(at: Date(), failure: error)
        } catch {
            if Task.isCancelled { return nil }
            return HealthCheck(at: Date(), failure: RTSPClientError(.protocolError, "checking \(url.redacted) failed: \(error)", url: url.redacted))
        }
    }
}
