import Logging

/// ONVIF's half of discovery. Until the ONVIF module lands this finds nothing (`make` returns nil).
public enum ONVIFFinder {
    public static func make(logger: Logger) -> (any ONVIFSource)? { nil }
}
