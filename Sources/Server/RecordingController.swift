import Foundation
import Hummingbird

/// The recording and library API (issue 7, /work/contracts/RECORDING-API.md).
struct RecordingController: Sendable {
    let recordings: RecordingService

    func addRoutes(to group: RouterGroup<WatchBoxRequestContext>) {
        group.get("cameras/:id/recording") { _, context in try await recordings.config(try id(context)) }
        group.put("cameras/:id/recording") { request, context in
            try await recordings.update(try id(context), try await decode(RecordingConfigInput.self, request, context))
        }
        group.post("cameras/:id/recording/start") { request, context in
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            var input = ManualStartInput()
            if body.readableBytes > 0, !String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                do {
                    input = try context.requestDecoder.decode(ManualStartInput.self, from: Data(body.readableBytesView))
                } catch {
                    throw APIError.badRequest("durationSeconds must be a number of seconds", field: "durationSeconds")
                }
            }
            return try await recordings.startManual(try id(context), input)
        }
        group.post("cameras/:id/recording/stop") { _, context in try await recordings.stopManual(try id(context)) }
        group.get("cameras/:id/recordings") { request, context in
            try await recordings.segments(try id(context), from: request.uri.queryParameters.get("from"),
                                          to: request.uri.queryParameters.get("to"))
        }
        group.get("cameras/:id/recordings/days") { request, context in
            let query = request.uri.queryParameters
            return try await recordings.days(try id(context), offset: query.get("utcOffsetMinutes"), from: query.get("from"), to: query.get("to"))
        }
        group.get("recordings/:segmentID/media") { request, context in
            try await recordings.media(segmentID: try number(context, "segmentID", "recording", openAllowed: true),
                                    from: request.uri.queryParameters.get("from"))
        }
        group.delete("recordings/:segmentID") { request, context -> HTTPResponse.Status in
            let force = request.uri.queryParameters.get("force") == "true"
            try await recordings.deleteSegment(try number(context, "segmentID", "recording"), force: force)
            return .noContent
        }
        group.get("cameras/:id/export.mp4") { request, context in
            try await recordings.export(try id(context), from: request.uri.queryParameters.get("from"),
                                        to: request.uri.queryParameters.get("to"))
        }
        group.post("cameras/:id/protections") { request, context -> EditedResponse<ProtectionResponse> in
            let protection = try await recordings.protect(try id(context), try await decode(ProtectionInput.self, request, context))
            return EditedResponse(status: .created, response: protection)
        }
        group.get("cameras/:id/protections") { _, context in try await recordings.protections(try id(context)) }
        group.delete("protections/:protectionID") { _, context -> HTTPResponse.Status in
            try await recordings.unprotect(try number(context, "protectionID", "protection"))
            return .noContent
        }
        group.get("storage") { _, _ in try await recordings.storage() }
        group.put("settings/storage") { request, context in
            try await recordings.saveStorage(try await decode(StorageSettingsInput.self, request, context))
        }
    }

    /// A numeric path parameter, or 404.
    func number(_ context: WatchBoxRequestContext, _ name: String, _ what: String, openAllowed: Bool = false) throws -> Int64 {
        guard let text = context.parameters.get(name), let value = Int64(text), value > 0 || (openAllowed && value < 0) else {
            throw APIError.notFound("\(context.parameters.get(name) ?? "") is not a \(what) id")
        }
        return value
    }
}
