import Foundation

/// Every failure of the Store module: a sentence saying what went wrong, where, and what to do about it.
///
/// The message never contains a password, sealed or not, nor the credentials of a URL.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is, so that a caller can map it (for example to an HTTP status) without
    /// reading the message.
    public enum Kind: String, Sendable, Equatable {
        /// The camera or stream profile named by an id does not exist.
        case notFound
        /// A value handed to the store breaks a rule of the schema (unknown transport, credentials in a URL, ...).
        case invalidInput
        /// The data directory, the database file or the secret key file cannot be used.
        case storage
        /// A password cannot be sealed or opened (wrong key, damaged ciphertext).
        case secret
        /// SQLite reported an error the store does not know better about.
        case database
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

extension StoreError {
    static func noCamera(_ id: UUID) -> StoreError {
        StoreError(.notFound, "no camera with id \(id.uuidString): it was deleted or never added; list the cameras again")
    }

    static func noProfile(_ id: UUID) -> StoreError {
        StoreError(.notFound, "no stream profile with id \(id.uuidString): it was deleted or never added; list the camera's profiles again")
    }
}

extension StoreError {
    static func noSite(_ id: UUID) -> StoreError {
        StoreError(.notFound, "no site with id \(id.uuidString): it was deleted or never added; list the sites again")
    }

    static func noPlan(_ id: UUID) -> StoreError {
        StoreError(.notFound, "no floor plan with id \(id.uuidString): it was deleted or never added; list the site's plans again")
    }

    static func noPlacement(_ id: UUID) -> StoreError {
        StoreError(.notFound, "no placement with id \(id.uuidString): it was removed; open the plan again")
    }
}
