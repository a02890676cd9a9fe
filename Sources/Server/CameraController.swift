import Foundation
import Hub
import Hummingbird

/// `/api/cameras…`, `/api/test-connection`, `/api/demo`: the registry over HTTP.
struct CameraController: Sendable {
    let service: CameraService

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.get("cameras") { _, _ in try await service.list() }
        group.post("cameras") { request, context -> EditedResponse<CameraResponse> in
            let input = try await decode(CameraInput.self, request, context)
            let camera = try await service.create(input)
            var headers = HTTPFields()
            headers[.location] = "/api/cameras/\(camera.id.uuidString)"
            return EditedResponse(status: .created, headers: headers, response: camera)
        }
        group.put("cameras/order") { request, context -> HTTPResponse.Status in
            let input = try await decode(OrderInput.self, request, context)
            try await service.reorder(input.ids)
            return .noContent
        }
        group.get("cameras/:id") { _, context in try await service.get(try id(context)) }
        group.patch("cameras/:id") { request, context in
            try await service.update(try id(context), try await decode(CameraInput.self, request, context))
        }
        group.delete("cameras/:id") { _, context -> HTTPResponse.Status in
            try await service.delete(try id(context))
            return .noContent
        }
        group.post("cameras/:id/test") { _, context in try await service.test(cameraID: try id(context)) }
        group.get("cameras/:id/snapshot.jpg") { _, context in
            jpeg(try await service.snapshot(try id(context)), maxAge: 2)
        }
        group.get("cameras/:id/thumbnail.jpg") { _, context in
            jpeg(try await service.thumbnail(try id(context)), maxAge: 60)
        }
        group.get("cameras/:id/profiles") { _, context in try await service.profiles(try id(context)) }
        group.post("cameras/:id/profiles") { request, context -> EditedResponse<ProfileResponse> in
            let profile = try await service.createProfile(try id(context), try await decode(ProfileInput.self, request, context))
            return EditedResponse(status: .created, response: profile)
        }
        group.patch("cameras/:id/profiles/:profileID") { request, context in
            try await service.updateProfile(try id(context), try id(context, "profileID"),
                                            try await decode(ProfileInput.self, request, context))
        }
        group.delete("cameras/:id/profiles/:profileID") { _, context -> HTTPResponse.Status in
            try await service.deleteProfile(try id(context), try id(context, "profileID"))
            return .noContent
        }
        group.post("test-connection") { request, context in
            try await service.test(try await decode(TestConnectionInput.self, request, context))
        }
        group.post("demo") { _, _ -> EditedResponse<CameraResponse> in
            EditedResponse(status: .created, response: try await service.addDemo())
        }
    }
}

/// The `:id`-style parameter as a UUID, or 404.
func id(_ context: WatchBoxRequestContext, _ name: String = "id") throws -> UUID {
    guard let text = context.parameters.get(name), let id = UUID(uuidString: text) else {
        throw APIError.notFound("\(context.parameters.get(name) ?? "") is not a camera id")
    }
    return id
}

/// JSON body → value, or 400 saying what is wrong with it (naming the field when it is one field).
func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: WatchBoxRequestContext) async throws -> T {
    let body: ByteBuffer
    do {
        body = try await request.body.collect(upTo: context.maxUploadSize)
    } catch {
        throw APIError(.contentTooLarge, "the request body is larger than \(context.maxUploadSize / 1024) KiB")
    }
    do {
        return try context.requestDecoder.decode(type, from: Data(body.readableBytesView))
    } catch let error as DecodingError {
        switch error {
        case .typeMismatch(_, let place), .valueNotFound(_, let place):
            let field = place.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError.badRequest("\(field) has the wrong type", field: field)
        case .keyNotFound(let key, _):
            throw APIError.badRequest("\(key.stringValue) is missing", field: key.stringValue)
        default:
            throw APIError.badRequest("the body is not valid JSON: send an object like {\"name\": \"Front door\", \"rtspURL\": \"rtsp://…\"}")
        }
    }
}

func jpeg(_ data: Data, maxAge: Int) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "image/jpeg"
    headers[.cacheControl] = "private, max-age=\(maxAge)"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
