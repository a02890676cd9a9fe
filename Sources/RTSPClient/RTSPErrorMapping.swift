import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import RTSPCore

/// Turns what NIO throws into an ``RTSPClientError`` a person can act on.
enum RTSPErrorMapping {
    static func map(_ error: Error, url: RTSPURL) -> RTSPClientError {
        if let error = error as? RTSPClientError { return error }
        let where_ = "\(url.host):\(url.port)"
        if let error = error as? NIOConnectionError {
            let attempts = error.connectionErrors
            if attempts.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil) {
                return RTSPClientError(.nameResolution, "cannot resolve the camera's host name \"\(url.host)\": check the address in \(url.redacted)",
                                       url: url.redacted)
            }
            if attempts.isEmpty {
                return RTSPClientError(.nameResolution, "the camera's host name \"\(url.host)\" has no usable address: check \(url.redacted)",
                                       url: url.redacted)
            }
            if let errno = attempts.compactMap({ ($0.error as? IOError)?.errnoCode }).first {
                return mapErrno(errno, url: url, where_: where_)
            }
            return RTSPClientError(.unreachable, "cannot connect to \(where_) (\(attempts.first.map { "\($0.error)" } ?? "unknown error")): check the address and that the camera is on",
                                   url: url.redacted)
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout:
                return RTSPClientError(.timeout, "timed out connecting to \(where_): the camera is off, unreachable, or a firewall drops RTSP", url: url.redacted)
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed:
                return RTSPClientError(.connectionClosed, "\(url.redacted) closed the connection", url: url.redacted)
            default:
                break
            }
        }
        if let error = error as? IOError {
            return mapErrno(error.errnoCode, url: url, where_: where_)
        }
        if error is NIOSSLError || error is BoringSSLError {
            return RTSPClientError(.tls, "TLS with \(where_) failed (\(error)): if the camera uses a self-signed certificate, allow it explicitly (--insecure)",
                                   url: url.redacted)
        }
        if let error = error as? NIOSSLExtraError {
            return RTSPClientError(.tls, "TLS with \(where_) failed (\(error)): if the camera uses a self-signed certificate, allow it explicitly (--insecure)",
                                   url: url.redacted)
        }
        return RTSPClientError(.protocolError, "connection to \(url.redacted) failed: \(error)", url: url.redacted)
    }

    static func mapErrno(_ errno: Int32, url: RTSPURL, where_: String) -> RTSPClientError {
        switch errno {
        case ECONNREFUSED:
            return RTSPClientError(.connectionRefused, "connection refused by \(where_): nothing listens for RTSP there; check the port (usually 554) and that RTSP is enabled on the camera",
                                   url: url.redacted)
        case ETIMEDOUT:
            return RTSPClientError(.timeout, "timed out connecting to \(where_): the camera is off, unreachable, or a firewall drops RTSP", url: url.redacted)
        case EHOSTUNREACH, ENETUNREACH, EHOSTDOWN:
            return RTSPClientError(.unreachable, "\(where_) is unreachable: check the address and the network", url: url.redacted)
        case ECONNRESET, EPIPE:
            return RTSPClientError(.connectionClosed, "\(where_) reset the connection", url: url.redacted)
        default:
            return RTSPClientError(.unreachable, "cannot talk to \(where_): \(String(cString: strerror(errno)))", url: url.redacted)
        }
    }
}
