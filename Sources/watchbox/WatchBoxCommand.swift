import ArgumentParser
import Foundation
import Logging

@main
struct WatchBoxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watchbox",
        abstract: "WatchBox: a self-hosted security-camera hub.",
        subcommands: [ServeCommand.self, ProbeCommand.self, RecordCommand.self, CaptureCommand.self, DiscoverCommand.self]
    )
}

/// Options every command that talks to cameras shares.
struct LoggingOptions: ParsableArguments {
    @Option(name: .long, help: "Log level on stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "error"

    func bootstrap() {
        let level = Logger.Level(rawValue: logLevel.lowercased()) ?? .error
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

/// A failure the command reports as one line on stderr, then exits non-zero.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32 = 1
    var description: String { message }
}

extension AsyncParsableCommand {
    /// Print one clear line and exit with `code`.
    static func fail(_ message: String, code: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data("watchbox: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
