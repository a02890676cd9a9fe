/// ISO/IEC 14496-12 §8.8.3.1 sample_flags:
/// `reserved u(4), is_leading u(2), sample_depends_on u(2), sample_is_depended_on u(2),
/// sample_has_redundancy u(2), sample_padding_value u(3), sample_is_non_sync_sample u(1),
/// sample_degradation_priority u(16)`.
public enum SampleFlags {
    /// sample_depends_on = 2 (does not depend on others: an I picture), sync.
    public static let sync: UInt32 = 2 << 24
    /// sample_depends_on = 1 (depends on others), sample_is_non_sync_sample = 1.
    public static let nonSync: UInt32 = (1 << 24) | 0x0001_0000
}
