/// Media §5.15.3/§5.16.1 `MediaUri/Uri` and Media2 §5.4.1/§5.4.3 `Uri` from GetStreamUri and
/// GetSnapshotUri responses.
public enum ONVIFMediaURI {
    /// The URI in a GetStreamUriResponse or GetSnapshotUriResponse, either media version.
    public static func parse(response: XMLTreeElement) -> String? {
        let element = response.child("MediaUri")?.child("Uri") ?? response.child("Uri")
        guard let text = element?.trimmedText, !text.isEmpty else { return nil }
        return text
    }
}
