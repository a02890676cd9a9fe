import Foundation
import Hummingbird

/// An error answered as `{"error": "...", "field": "..."}` with its status.
public struct APIError: HTTPResponseError, CustomStringConvertible, Sendable {
    public var status: HTTPResponse.Status
    public var message: String
    /// The request field at fault, for the form to show the message under it.
    public var field: String?

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    public var description: String { message }

    public static func badRequest(_ message: String, field: String? = nil) -> APIError {
        APIError(.badRequest, message, field: field)
    }

    public static func notFound(_ message: String) -> APIError {
        APIError(.notFound, message)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(APIErrorBody(error: message, field: field))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The JSON of an ``APIError``.
struct APIErrorBody: Codable, Sendable {
    var error: String
    var field: String?
}
