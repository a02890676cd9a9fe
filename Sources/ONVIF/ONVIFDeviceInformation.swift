/// Core §8.3.1 GetDeviceInformationResponse.
public struct ONVIFDeviceInformation: Sendable, Equatable {
    public var manufacturer: String?
    public var model: String?
    public var firmwareVersion: String?
    public var serialNumber: String?
    public var hardwareID: String?

    public init(response: XMLTreeElement) {
        func value(_ name: String) -> String? {
            guard let text = response.child(name)?.trimmedText, !text.isEmpty else { return nil }
            return text
        }
        manufacturer = value("Manufacturer")
        model = value("Model")
        firmwareVersion = value("FirmwareVersion")
        serialNumber = value("SerialNumber")
        hardwareID = value("HardwareId")
    }
}
