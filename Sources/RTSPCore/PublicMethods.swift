/// RFC 2326 §12.28 Public header (OPTIONS response): the methods the server supports.
public enum PublicMethods {
    /// "OPTIONS, DESCRIBE, SETUP" in one or several header values → upper-cased set.
    /// Tolerates missing spaces, empty items and lower-case method names.
    public static func parse(_ values: [String]) -> Set<String> {
        var methods: Set<String> = []
        for value in values {
            for item in value.split(separator: ",") {
                let method = item.trimmingASCIIWhitespace().uppercased()
                if !method.isEmpty { methods.insert(method) }
            }
        }
        return methods
    }
}
