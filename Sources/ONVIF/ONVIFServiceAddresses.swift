/// Where a device's media services live, from Core §8.1.2.1 GetServicesResponse (`tds:Service`
/// with `Namespace` and `XAddr`) or §8.1.2.2 GetCapabilitiesResponse (`tt:Media/tt:XAddr`).
public struct ONVIFServiceAddresses: Sendable, Equatable {
    /// Media (ver10) service address.
    public var media: String?
    /// Media2 (ver20) service address.
    public var media2: String?

    public init(media: String? = nil, media2: String? = nil) {
        self.media = media
        self.media2 = media2
    }

    /// From a GetServicesResponse.
    public init(servicesResponse: XMLTreeElement) {
        for service in servicesResponse.children("Service") {
            guard let namespace = service.child("Namespace")?.trimmedText,
                  let address = service.child("XAddr")?.trimmedText, !address.isEmpty else { continue }
            if namespace == ONVIFNamespace.media, media == nil { media = address }
            if namespace == ONVIFNamespace.media2, media2 == nil { media2 = address }
        }
    }

    /// From a GetCapabilitiesResponse (Media only: Media2 is announced through GetServices).
    public init(capabilitiesResponse: XMLTreeElement) {
        let capabilities = capabilitiesResponse.child("Capabilities") ?? capabilitiesResponse
        if let address = capabilities.child("Media")?.child("XAddr")?.trimmedText, !address.isEmpty {
            media = address
        }
    }
}
