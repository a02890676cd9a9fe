/// Why an uploaded floor-plan picture was refused, as a sentence that says which formats work.
public struct PlanImageError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
