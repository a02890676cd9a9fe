/// Stops the run with a message when a property the harness checks does not hold.
///
/// A crash is not the only bug worth finding: each harness also checks what the module's
/// contract promises (the same events whatever the read boundaries, a serialised packet
/// parses back to itself, ...). libFuzzer treats the trap like any crash and saves the
/// input that caused it.
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() {
        fatalError("fuzz check failed: \(message())", file: file, line: line)
    }
}
